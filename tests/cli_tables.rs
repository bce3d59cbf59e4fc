//! `damka gen`, `probe` and `verify` as users run them, including bad input:
//! missing, truncated, corrupted and wrong-variant tables, and malformed FENs.

use crate::common;

use std::io::Cursor;
use std::path::{Path, PathBuf};

use common::{damka, temp_dir, Run};
use tempfile::TempDir;

use damka_formats::{
    table::encode_dtw, table::pack_wdl, table::wdl_code, table::Block, table::TableHeader,
    table::TableWriter, table::HEADER_LEN,
};

/// A fresh temporary directory with the Russian tables of up to 3 pieces.
fn built(tag: &str) -> TempDir {
    let dir = temp_dir(&format!("cli-{tag}"));
    let run = damka(
        &[
            "gen",
            "--variant",
            "russian",
            "--pieces",
            "3",
            "--quiet",
            "--dir",
            dir.path().to_str().unwrap(),
        ],
        "",
    );
    assert!(run.ok, "{}", run.err);
    dir
}

fn table(dir: &Path, name: &str, kind: &str) -> PathBuf {
    dir.join("russian").join(format!("{name}.{kind}.dkt"))
}

/// Rewrites a table file with every value passed through `edit`, behind valid
/// checksums.
fn rewrite(path: &Path, edit: impl Fn(usize, u16) -> u16) {
    let bytes = std::fs::read(path).unwrap();
    let header = TableHeader::decode(&bytes).unwrap();
    let mut writer = TableWriter::new(
        Cursor::new(Vec::new()),
        header.variant,
        header.slice,
        header.kind,
        header.entries,
    )
    .unwrap();
    for block in 0..header.blocks() {
        let start = block as usize * header.block_entries as usize;
        let n = header.entries_in(block);
        let raw = match header.decode_block(&bytes, block).unwrap() {
            Block::Dtw(decoded) => {
                let mut values = vec![0u16; n];
                decoded.expand_into(&mut values);
                for (i, v) in values.iter_mut().enumerate() {
                    *v = edit(start + i, *v);
                }
                encode_dtw(&values)
            }
            wdl @ Block::Wdl(_) => {
                let codes: Vec<u8> = (0..n)
                    .map(|i| edit(start + i, wdl_code(wdl.wdl(i)) as u16) as u8)
                    .collect();
                pack_wdl(&codes)
            }
        };
        writer
            .push_block(&header.kind.compress_block(&raw).unwrap())
            .unwrap();
    }
    let (out, _) = writer.finish().unwrap();
    std::fs::write(path, out.into_inner()).unwrap();
}

fn probe(dir: &Path, fens: &[&str]) -> Run {
    let mut args = vec![
        "probe",
        "--variant",
        "russian",
        "--json",
        "--dir",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(fens);
    damka(&args, "")
}

#[test]
fn gen_verify_probe_and_resume() {
    let tmp = built("main");
    let dir = tmp.path().to_path_buf();
    let d = dir.to_str().unwrap();
    let verify = damka(
        &["verify", "--variant", "russian", "--quiet", "--dir", d],
        "",
    );
    assert!(verify.ok, "{}", verify.err);
    assert!(
        verify
            .out
            .contains("verified 16 tables, 199520 positions: 0 mismatches"),
        "{}",
        verify.out
    );

    let run = probe(&dir, &["W:WKa1,Kc3:Bh8", "B:WKa1,Kc3:Bh8", "W:Wc3:Bd4"]);
    assert!(run.ok, "{}", run.err);
    let lines: Vec<serde_json::Value> = run
        .out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["wdl"], "win");
    assert_eq!(lines[0]["dtw"], 3);
    assert_eq!(lines[0]["best_move"], "a1-b2");
    assert_eq!(lines[1]["wdl"], "loss");
    assert_eq!(lines[2]["wdl"], "win");
    assert_eq!(lines[2]["dtw"], 1);
    assert_eq!(lines[2]["best_move"], "c3:e5");

    // A second run finds every table and builds nothing.
    let again = damka(
        &[
            "gen",
            "--variant",
            "russian",
            "--pieces",
            "3",
            "--quiet",
            "--dir",
            d,
        ],
        "",
    );
    assert!(again.ok);
    assert!(again.out.contains("total 0 groups"), "{}", again.out);
    assert!(
        again.out.contains("16 slices already present"),
        "{}",
        again.out
    );

    // An interrupted build leaves at most a temporary file, and a missing table is
    // rebuilt.
    std::fs::write(
        dir.join("russian").join("0M2K-0M1K.dtw.dkt.tmp"),
        b"half a table",
    )
    .unwrap();
    std::fs::remove_file(table(&dir, "0M2K-0M1K", "dtw")).unwrap();
    let resumed = damka(
        &[
            "gen",
            "--variant",
            "russian",
            "--pieces",
            "3",
            "--quiet",
            "--dir",
            d,
        ],
        "",
    );
    assert!(resumed.ok, "{}", resumed.err);
    assert!(resumed.out.contains("total 1 groups"), "{}", resumed.out);
    assert!(
        damka(
            &["verify", "--variant", "russian", "--quiet", "--dir", d],
            ""
        )
        .ok
    );
}

#[test]
fn bad_fens_and_missing_tables_are_errors_on_their_line() {
    let tmp = built("input");
    let dir = tmp.path().to_path_buf();
    let run = probe(
        &dir,
        &[
            "W:WKa1,Kc3:Bh8",
            "W:Wz9:Bh8",
            "W:WKa1,Kc3,Ke1:BKh8",
            "W:WKc1:B",
        ],
    );
    assert!(!run.ok);
    let lines: Vec<serde_json::Value> = run
        .out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "one line per input");
    assert_eq!(lines[0]["wdl"], "win");
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("unknown square `z9`"));
    assert!(lines[2]["error"]
        .as_str()
        .unwrap()
        .contains("4 pieces; these tables cover up to 3 pieces"));
    assert!(lines[3]["error"].as_str().unwrap().contains("no pieces"));
    assert!(run.err.contains("argument 2"), "{}", run.err);

    let empty_tmp = temp_dir("cli-empty");
    let empty = empty_tmp.path().join("missing");
    let verify = damka(
        &[
            "verify",
            "--variant",
            "russian",
            "--dir",
            empty.to_str().unwrap(),
        ],
        "",
    );
    assert!(!verify.ok);
    assert!(
        verify.err.contains("cannot read table directory"),
        "{}",
        verify.err
    );

    let slice = damka(
        &[
            "gen",
            "--variant",
            "russian",
            "--pieces",
            "4",
            "--quiet",
            "--slice",
            "0M3K-0M1K",
            "--dir",
            empty.to_str().unwrap(),
        ],
        "",
    );
    assert!(!slice.ok);
    assert!(slice.err.contains("missing table"), "{}", slice.err);
}

#[test]
fn damaged_tables_are_reported_not_misread() {
    let tmp = built("damage");
    let dir = tmp.path().to_path_buf();
    let d = dir.to_str().unwrap().to_string();
    let fen = "W:WKa1,Kc3:Bh8";
    let path = table(&dir, "0M2K-1M0K", "dtw");
    let original = std::fs::read(&path).unwrap();
    let verify = |extra: &[&str]| {
        let mut args = vec!["verify", "--variant", "russian", "--quiet", "--dir", &d];
        args.extend_from_slice(extra);
        damka(&args, "")
    };
    let checked = verify(&["--checksums-only"]);
    assert!(checked.ok, "{}", checked.err);
    assert!(
        checked.out.contains("checked 16 tables") && checked.out.contains(": 0 failed"),
        "{}",
        checked.out
    );

    // A flipped byte in a block fails that block's checksum.
    let mut bytes = original.clone();
    bytes[HEADER_LEN + 2] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let run = probe(&dir, &[fen]);
    assert!(!run.ok);
    assert!(
        run.out.contains("corrupt table") && run.out.contains("checksum"),
        "{}",
        run.out
    );
    let full = verify(&[]);
    assert!(!full.ok);
    assert!(full.err.contains("corrupt table"), "{}", full.err);
    let checked = verify(&["--checksums-only"]);
    assert!(!checked.ok);
    assert!(
        checked.out.contains("block 0 failed its checksum") && checked.out.contains(": 1 failed"),
        "{}",
        checked.out
    );

    // A flipped byte in the block table or the header.
    for at in [original.len() - 3, 40] {
        let mut bytes = original.clone();
        bytes[at] ^= 0x01;
        std::fs::write(&path, &bytes).unwrap();
        let run = probe(&dir, &[fen]);
        assert!(!run.ok);
        assert!(
            run.out.contains("corrupt") && run.out.contains("checksum"),
            "{}",
            run.out
        );
    }

    // A truncated file.
    std::fs::write(&path, &original[..original.len() / 2]).unwrap();
    let run = probe(&dir, &[fen]);
    assert!(run.out.contains("truncated"), "{}", run.out);
    std::fs::write(&path, &original[..20]).unwrap();
    assert!(probe(&dir, &[fen]).out.contains("truncated"));

    // A file of another format version.
    let mut bytes = original.clone();
    bytes[8] = 9;
    let header_hash = damka_formats::table::hash(&bytes[..HEADER_LEN - 8]);
    bytes[HEADER_LEN - 8..HEADER_LEN].copy_from_slice(&header_hash.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let run = probe(&dir, &[fen]);
    assert!(
        run.out.contains("unsupported table") && run.out.contains("format 9"),
        "{}",
        run.out
    );

    // A Russian file among the International tables.
    std::fs::write(&path, &original).unwrap();
    let intl = dir.join("international");
    std::fs::create_dir_all(&intl).unwrap();
    std::fs::copy(&path, intl.join("0M2K-1M0K.dtw.dkt")).unwrap();
    let run = damka(
        &[
            "probe",
            "--variant",
            "international",
            "--dir",
            &d,
            "W:WK46,K42:B5",
        ],
        "",
    );
    assert!(!run.ok);
    assert!(
        run.err.contains("is for russian, not international"),
        "{}",
        run.err
    );

    // A wrong value behind valid checksums: only `verify` can see it, and does,
    // in the DTW table...
    rewrite(&path, |i, v| if i == 7 { v + 2 } else { v });
    assert!(verify(&["--checksums-only"]).ok);
    let full = verify(&[]);
    assert!(!full.ok);
    assert!(full.out.contains("mismatch 0M2K-1M0K dtw"), "{}", full.out);
    assert!(!full.out.contains(": 0 mismatches"), "{}", full.out);
    // `--slice` checks one group: the damaged one fails, another passes, and a
    // slice without tables is a clear error.
    let one = verify(&["--slice", "1M0K-0M2K"]);
    assert!(!one.ok);
    assert!(one.out.contains("mismatch 0M2K-1M0K dtw"), "{}", one.out);
    let other = verify(&["--slice", "0M2K-0M1K"]);
    assert!(other.ok, "{}", other.out);
    assert!(other.out.contains("verified 2 tables"), "{}", other.out);
    let missing = verify(&["--slice", "2M2K-2M2K"]);
    assert!(!missing.ok);
    assert!(
        missing.err.contains("no table of 2M2K-2M2K"),
        "{}",
        missing.err
    );
    std::fs::write(&path, &original).unwrap();

    // ... and in the WDL table, at a position without a capture; the values of
    // capture positions are don't-care and may be anything.
    // One slice of a solve group has the WDL file; the probe resolves the other by
    // a one-ply search.
    let (name, mirror) = ("0M2K-1M0K", "1M0K-0M2K");
    assert!(table(&dir, name, "wdl").exists() != table(&dir, mirror, "wdl").exists());
    let (name, wdl) = if table(&dir, name, "wdl").exists() {
        (name, table(&dir, name, "wdl"))
    } else {
        (mirror, table(&dir, mirror, "wdl"))
    };
    let wdl_original = std::fs::read(&wdl).unwrap();
    rewrite(&wdl, |_, code| (code + 1) % 3);
    let full = verify(&[]);
    assert!(!full.ok);
    assert!(full.out.contains(" wdl "), "{}", full.out);
    let indexer =
        damka_core::SliceIndexer::<damka_core::Russian>::new(name.parse().unwrap()).unwrap();
    std::fs::write(&wdl, &wdl_original).unwrap();
    rewrite(&wdl, |i, code| {
        if damka_core::has_capture(&indexer.position(i as u64)) {
            (code + 1) % 3
        } else {
            code
        }
    });
    let full = verify(&[]);
    assert!(full.ok, "{}", full.out);
    std::fs::write(&wdl, &wdl_original).unwrap();
    assert!(verify(&[]).ok);
}

/// The number after `label` in `out` (e.g. the positions of `verified … tables,
/// N positions`).
fn number_after(out: &str, label: &str) -> u64 {
    let at = out
        .find(label)
        .unwrap_or_else(|| panic!("no `{label}` in {out}"))
        + label.len();
    let digits: String = out[at..].chars().take_while(char::is_ascii_digit).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after `{label}` in {out}"))
}

#[test]
fn a_verification_resumes_from_its_checkpoint_for_the_same_tables_only() {
    let tmp = built("checkpoint");
    let dir = tmp.path().to_path_buf();
    let d = dir.to_str().unwrap().to_string();
    let file = dir.join("verify.checkpoint");
    let c = file.to_str().unwrap().to_string();
    let verify_in = |d: &str| {
        let args = ["verify", "--variant", "russian", "--quiet", "--dir", d];
        damka(&[&args[..], &["--checkpoint", &c]].concat(), "")
    };
    let verify = || verify_in(&d);
    let first = verify();
    assert!(first.ok, "{}", first.err);
    assert!(!first.out.contains("resumed"), "{}", first.out);
    let total = number_after(&first.out, "tables, ");
    let lines = |text: &str| text.lines().map(str::to_owned).collect::<Vec<_>>();
    let recorded = lines(&std::fs::read_to_string(&file).unwrap());
    assert_eq!(recorded[0], "damka verify checkpoint 1");
    assert_eq!(recorded.len(), 1 + 16, "one round a slice: {recorded:?}");

    // Run again: every position comes from the checkpoint.
    let all_resumed = |run: Run| {
        assert!(run.ok, "{}", run.err);
        assert_eq!(number_after(&run.out, "resumed: "), total, "{}", run.out);
        assert_eq!(number_after(&run.out, "tables, "), total);
    };
    all_resumed(verify());

    // The same bytes elsewhere, as another machine rebuilds them (another
    // directory, other modification times), are the same tables: every round
    // is resumed there too.
    let elsewhere = temp_dir("cli-checkpoint-elsewhere");
    std::fs::create_dir(elsewhere.path().join("russian")).unwrap();
    for entry in std::fs::read_dir(dir.join("russian")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(
            entry.path(),
            elsewhere.path().join("russian").join(entry.file_name()),
        )
        .unwrap();
    }
    all_resumed(verify_in(elsewhere.path().to_str().unwrap()));

    // Stopped part-way: five rounds on disk and the next cut short.
    let kept = &recorded[..6];
    std::fs::write(&file, format!("{}\nround 12", kept.join("\n"))).unwrap();
    let positions: u64 = kept[1..]
        .iter()
        .map(|l| l.split(' ').nth(4).unwrap().parse::<u64>().unwrap())
        .sum();
    let resumed = verify();
    assert!(resumed.ok, "{}", resumed.err);
    assert_eq!(number_after(&resumed.out, "resumed: "), positions);
    assert_eq!(number_after(&resumed.out, "tables, "), total);
    assert_eq!(
        lines(&std::fs::read_to_string(&file).unwrap()).len(),
        1 + 16
    );

    // A changed table is another table: its group is checked again, and the
    // wrong value found; then the checkpoint has its mismatch too.
    let path = table(&dir, "0M2K-1M0K", "dtw");
    rewrite(&path, |i, v| if i == 7 { v + 2 } else { v });
    let group: u64 = ["0M2K-1M0K", "1M0K-0M2K"]
        .iter()
        .map(|s| {
            damka_core::SliceIndexer::<damka_core::Russian>::new(s.parse().unwrap())
                .unwrap()
                .size()
        })
        .sum();
    let changed = verify();
    assert!(!changed.ok);
    assert!(
        changed.out.contains("mismatch 0M2K-1M0K dtw"),
        "{}",
        changed.out
    );
    assert_eq!(number_after(&changed.out, "resumed: "), total - group);
    let wrong = number_after(&changed.out, "positions: ");
    assert!(wrong > 0);
    let recounted = verify();
    assert!(!recounted.ok);
    assert_eq!(number_after(&recounted.out, "resumed: "), total);
    assert_eq!(number_after(&recounted.out, "positions: "), wrong);
    assert!(
        !recounted.out.contains("mismatch 0M2K"),
        "{}",
        recounted.out
    );

    // A byte flipped in a block leaves the header as it was, but not the
    // content: its group is read again, and the damage found.
    let other = table(&dir, "0M2K-0M1K", "dtw");
    let mut bytes = std::fs::read(&other).unwrap();
    bytes[HEADER_LEN + 2] ^= 0x40;
    std::fs::write(&other, &bytes).unwrap();
    let damaged = verify();
    assert!(!damaged.ok);
    assert!(damaged.err.contains("corrupt table"), "{}", damaged.err);

    // Not a checkpoint, or nowhere to write one: clear errors, nothing written.
    std::fs::write(&file, "some notes\n").unwrap();
    let foreign = verify();
    assert!(!foreign.ok);
    assert!(
        foreign.err.contains("not a damka verify checkpoint"),
        "{}",
        foreign.err
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "some notes\n");
    let nowhere = dir.join("no-such-dir").join("c");
    let args = [
        "verify",
        "--variant",
        "russian",
        "--dir",
        &d,
        "--checkpoint",
    ];
    let run = damka(&[&args[..], &[nowhere.to_str().unwrap()]].concat(), "");
    assert!(!run.ok);
    assert!(run.err.contains("cannot use checkpoint"), "{}", run.err);
}

/// `scripts/verify-groups.sh` tries a check killed by a signal (as the kernel's
/// out-of-memory killer would) again, up to `KILL_RETRIES` times, and records
/// the group once a try finishes; a check killed every time fails the run.
#[test]
fn a_group_check_killed_by_a_signal_is_tried_again() {
    let tmp = built("killed-check");
    let dir = tmp.path();
    // A `damka` that kills itself on the first `kills` calls for each group.
    let wrapper = dir.join("damka-killed");
    std::fs::write(
        &wrapper,
        "#!/usr/bin/env bash\n\
         group=$(echo \"$@\" | sed 's/.*--slice \\([^ ]*\\).*/\\1/')\n\
         count=$(cat \"$MARKS/$group\" 2>/dev/null || echo 0)\n\
         echo $((count + 1)) > \"$MARKS/$group\"\n\
         [ \"$count\" -ge \"$KILLS\" ] || kill -9 $$\n\
         exec \"$REAL\" \"$@\"\n",
    )
    .unwrap();
    let executable = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&wrapper, executable).unwrap();
    let script = |kills: &str, ledger: &Path| {
        let marks = dir.join(format!("marks-{kills}"));
        std::fs::create_dir_all(&marks).unwrap();
        let out = std::process::Command::new("bash")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scripts/verify-groups.sh"
            ))
            .arg("russian")
            .arg(dir)
            .arg(ledger)
            .env("DAMKA", &wrapper)
            .env("REAL", env!("CARGO_BIN_EXE_damka"))
            .env("MARKS", &marks)
            .env("KILLS", kills)
            .env("KILL_RETRIES", "2")
            .env("RETRY_SLEEP", "0")
            .output()
            .unwrap();
        let tries = std::fs::read_dir(&marks)
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .map(|t| t.trim().parse::<u32>().unwrap())
            .collect::<Vec<_>>();
        (out, tries)
    };
    let ledger = dir.join("twice.tsv");
    let (out, tries) = script("2", &ledger);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("killed by signal 9, will try again"),
        "{stderr}"
    );
    let lines = std::fs::read_to_string(&ledger).unwrap();
    assert!(lines.lines().count() > 5, "{lines}");
    assert!(lines.lines().all(|l| l.split('\t').nth(2) == Some("0")));
    let groups = lines.lines().count();
    assert_eq!(
        tries,
        vec![3; groups],
        "each group twice killed, then checked"
    );

    let ledger = dir.join("always.tsv");
    let (out, tries) = script("3", &ledger);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        tries,
        vec![3; groups],
        "no more than KILL_RETRIES tries again"
    );
    assert_eq!(std::fs::read_to_string(&ledger).unwrap(), "");
}

/// `scripts/verify-groups.sh` keeps each file's hash in its hash cache, and a
/// file changed in place (same name and length) is hashed again: a group
/// damaged after it was verified no longer matches its ledger line, so it is
/// checked again and fails.
#[test]
fn a_group_changed_after_its_check_is_checked_again() {
    let tmp = built("hash-cache");
    let dir = tmp.path();
    let ledger = dir.join("ledger.tsv");
    let script = || {
        std::process::Command::new("bash")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scripts/verify-groups.sh"
            ))
            .arg("russian")
            .arg(dir)
            .arg(&ledger)
            .env("DAMKA", env!("CARGO_BIN_EXE_damka"))
            .output()
            .unwrap()
    };
    let first = script();
    assert!(first.status.success(), "{first:?}");
    let verified = std::fs::read_to_string(&ledger).unwrap();
    assert!(verified.lines().count() > 5, "{verified}");
    let files = std::fs::read_dir(dir.join("russian")).unwrap().count();
    let cache = std::fs::read_to_string(dir.join("russian-sha256.tsv")).unwrap();
    assert_eq!(cache.lines().count(), files, "{cache}");

    let again = script();
    assert!(again.status.success(), "{again:?}");
    assert_eq!(std::fs::read_to_string(&ledger).unwrap(), verified);

    // The group's one WDL file (a damaged DTW file newer than it would make
    // the group look unfinished, and so not taken).
    let path = ["0M2K-1M0K", "1M0K-0M2K"]
        .map(|slice| table(dir, slice, "wdl"))
        .into_iter()
        .find(|path| path.exists())
        .unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[HEADER_LEN + 2] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let damaged = script();
    assert_eq!(damaged.status.code(), Some(1), "{damaged:?}");
    let stderr = String::from_utf8_lossy(&damaged.stderr);
    assert!(
        stderr.contains("0M2K-1M0K") && stderr.contains("corrupt table"),
        "{stderr}"
    );
}

/// The slices that have a table file in `dir`, sorted.
fn slices_with_files(dir: &Path) -> Vec<String> {
    let mut slices: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".dkt"))
        .map(|name| name.split('.').next().unwrap().to_string())
        .collect();
    slices.sort();
    slices.dedup();
    slices
}

#[test]
fn a_slice_is_built_with_what_it_depends_on_and_nothing_else() {
    let tmp = temp_dir("with-dependencies");
    let (part, whole) = (tmp.path().join("part"), tmp.path().join("whole"));
    let gen = |dir: &Path, extra: &[&str]| {
        let mut args = vec!["gen", "--variant", "russian", "--pieces", "4", "--quiet"];
        args.extend(["--dir", dir.to_str().unwrap()]);
        args.extend(extra);
        damka(&args, "")
    };
    let target = "1M1K-0M2K";
    let first = gen(&part, &["--slice", target, "--with-dependencies"]);
    assert!(first.ok, "{}", first.err);
    let closure: Vec<String> = damka_core::closure(target.parse().unwrap())
        .iter()
        .map(|s| s.name())
        .collect();
    let mut expected = closure.clone();
    expected.sort();
    let files = part.join("russian");
    assert_eq!(slices_with_files(&files), expected);
    // A strict part of the set, and the same bytes as the whole set's build.
    assert!(gen(&whole, &[]).ok);
    let all = slices_with_files(&whole.join("russian"));
    assert!(expected.len() < all.len() && expected.iter().all(|s| all.contains(s)));
    for entry in std::fs::read_dir(&files).unwrap() {
        let path = entry.unwrap().path();
        let same = whole.join("russian").join(path.file_name().unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(same).unwrap());
    }
    // Run again, it finds every table of the closure and builds nothing.
    let again = gen(&part, &["--slice", target, "--with-dependencies"]);
    assert!(again.ok, "{}", again.err);
    assert!(again.out.contains("total 0 groups"), "{}", again.out);
    let present = format!("; {} slices already present", expected.len());
    assert!(again.out.contains(&present), "{}", again.out);

    let alone = gen(&part, &["--with-dependencies"]);
    assert!(!alone.ok);
    assert!(alone.err.contains("--slice"), "{}", alone.err);
}
