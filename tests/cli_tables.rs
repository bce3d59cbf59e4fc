//! `damka gen`, `probe` and `verify` as users run them, including bad input:
//! missing, truncated, corrupted and wrong-variant tables, and malformed FENs.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use damka_formats::table::{hash, TableHeader, HEADER_LEN};

struct Run {
    out: String,
    err: String,
    ok: bool,
}

fn damka(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        out: String::from_utf8(out.stdout).unwrap(),
        err: String::from_utf8(out.stderr).unwrap(),
        ok: out.status.success(),
    }
}

/// A fresh directory with the Russian tables of up to 3 pieces.
fn built(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damka-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = damka(
        &[
            "gen",
            "--variant",
            "russian",
            "--pieces",
            "3",
            "--quiet",
            "--dir",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert!(run.ok, "{}", run.err);
    dir
}

fn table(dir: &Path, name: &str) -> PathBuf {
    dir.join("russian").join(format!("{name}.dkt"))
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
    let dir = built("main");
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
        dir.join("russian").join("0M2K-0M1K.dkt.tmp"),
        b"half a table",
    )
    .unwrap();
    std::fs::remove_file(table(&dir, "0M2K-0M1K")).unwrap();
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
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_fens_and_missing_tables_are_errors_on_their_line() {
    let dir = built("input");
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
        .contains("missing table 0M3K-0M1K"));
    assert!(lines[3]["error"].as_str().unwrap().contains("no pieces"));
    assert!(run.err.contains("argument 2"), "{}", run.err);

    let empty = std::env::temp_dir().join(format!("damka-cli-empty-{}", std::process::id()));
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
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_tables_are_reported_not_misread() {
    let dir = built("damage");
    let d = dir.to_str().unwrap().to_string();
    let fen = "W:WKa1,Kc3:Bh8";
    let path = table(&dir, "0M2K-1M0K");
    let original = std::fs::read(&path).unwrap();

    // A flipped payload byte fails the checksum.
    let mut bytes = original.clone();
    bytes[HEADER_LEN + 100] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let run = probe(&dir, &[fen]);
    assert!(!run.ok);
    assert!(
        run.out.contains("corrupt table") && run.out.contains("checksum"),
        "{}",
        run.out
    );
    let verify = damka(
        &["verify", "--variant", "russian", "--quiet", "--dir", &d],
        "",
    );
    assert!(!verify.ok);
    assert!(verify.err.contains("corrupt table"), "{}", verify.err);

    // A truncated file.
    std::fs::write(&path, &original[..original.len() / 2]).unwrap();
    let run = probe(&dir, &[fen]);
    assert!(run.out.contains("truncated"), "{}", run.out);
    std::fs::write(&path, &original[..20]).unwrap();
    assert!(probe(&dir, &[fen]).out.contains("truncated"));

    // A Russian file among the International tables.
    std::fs::write(&path, &original).unwrap();
    let intl = dir.join("international");
    std::fs::create_dir_all(&intl).unwrap();
    std::fs::copy(&path, intl.join("0M2K-1M0K.dkt")).unwrap();
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

    // A wrong value behind valid checksums: only `verify` can see it, and does.
    let mut bytes = original.clone();
    let header = TableHeader::decode(&bytes).unwrap();
    let at = HEADER_LEN + 2 * 7;
    let value = u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    bytes[at..at + 2].copy_from_slice(&(value + 2).to_le_bytes());
    let rewritten = TableHeader {
        payload_hash: hash(&bytes[HEADER_LEN..]),
        ..header
    };
    bytes[..HEADER_LEN].copy_from_slice(&rewritten.encode());
    std::fs::write(&path, &bytes).unwrap();
    let verify = damka(
        &["verify", "--variant", "russian", "--quiet", "--dir", &d],
        "",
    );
    assert!(!verify.ok);
    assert!(verify.out.contains("mismatch 0M2K-1M0K"), "{}", verify.out);
    assert!(!verify.out.contains(": 0 mismatches"), "{}", verify.out);
    std::fs::remove_dir_all(&dir).unwrap();
}
