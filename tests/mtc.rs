//! The MTC tables (moves to conversion, `formats/FORMAT.md`, "MTC tables")
//! against the naive solver of `tests/common/mtc_naive.rs` on every position of
//! every Russian slice of up to 3 pieces and of the 4-king slices, with the
//! statistics drawn from them; and the commands that build, probe, verify and
//! count them.

use crate::common;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use common::mtc_naive::naive_mtc;
use common::{all_positions, build_tables_by, damka, naive_solve, temp_dir};
use damka_core::{Color, Position, Russian, Slice, SliceIndexer, Variant};
use damka_formats::{table::ValueKind, Dtc, Wdl};
use damka_gen::build_mtc;
use damka_gen::mtc::build_mtc_group;
use damka_gen::store::FileStore;
use damka_probe::Tablebase;
use damka_stats::stats::{metric_stats, Metric};

/// Checks the probe and the statistics of the MTC tables in `dir` against the
/// naive solver on `positions`.
fn cross_check<V: Variant>(dir: &Path, positions: &[Position<V>]) {
    let theory = naive_solve(positions);
    let naive = naive_mtc(positions, &theory);
    let tablebase = Tablebase::<V>::new(dir);
    let (mut compared, mut earlier) = (0, 0);
    for (pos, expected) in &naive {
        if pos.white() == 0 || pos.black() == 0 {
            continue;
        }
        let probed = tablebase.probe_mtc(*pos).unwrap();
        assert_eq!(probed, *expected, "MTC of {pos}");
        assert_eq!(probed.wdl(), theory[pos].wdl(), "outcome of {pos}");
        assert!(
            probed.distance() <= theory[pos].dtw(),
            "MTC above DTW: {pos}"
        );
        if probed.wdl() == Wdl::Win && probed.distance() < theory[pos].dtw() {
            earlier += 1;
        }
        compared += 1;
    }
    assert!(compared > 1000, "only {compared} positions compared");
    assert!(earlier > 100, "only {earlier} wins convert before they end");
    check_stats(dir, &naive);
}

/// The longest MTC win and loss of every slice that `naive` covers, as
/// `damka stats --metric mtc` reports them from the MTC tables in `dir`, against
/// the naive values.
fn check_stats<V: Variant>(dir: &Path, naive: &HashMap<Position<V>, Dtc>) {
    let report = metric_stats::<V>(dir, None, Metric::Mtc, |_| {}).unwrap();
    assert_eq!(report.metric, "mtc");
    let mut checked = 0;
    for s in &report.slices {
        let slice: Slice = s.slice.parse().unwrap();
        let values: Vec<Dtc> = naive
            .iter()
            .filter(|(p, _)| p.side() == Color::White && Slice::of(*p).ok() == Some(slice))
            .map(|(_, v)| *v)
            .collect();
        if values.is_empty() {
            continue;
        }
        checked += 1;
        assert_eq!(s.counts.positions, values.len() as u64, "{slice}");
        for (wdl, extreme) in [
            (Wdl::Win, &s.counts.longest_win),
            (Wdl::Loss, &s.counts.longest_loss),
        ] {
            let longest = values
                .iter()
                .filter(|v| v.wdl() == wdl)
                .filter_map(|v| v.distance())
                .max();
            assert_eq!(extreme.as_ref().map(|e| e.plies), longest, "{slice} {wdl}");
            if let Some(e) = extreme {
                let pos: Position<V> = e.fen.parse().unwrap();
                assert_eq!(naive[&pos], Dtc::new(wdl, e.plies), "{slice}: {}", e.fen);
            }
        }
    }
    assert!(checked >= 4, "only {checked} slices checked");
}

#[test]
fn russian_mtc_up_to_three_pieces_agrees_with_the_naive_solver() {
    let tmp = temp_dir("mtc-naive-russian");
    let dir = tmp.path().to_path_buf();
    build_tables_by(build_mtc::<Russian>, &dir, 3, &[]);
    cross_check::<Russian>(&dir, &all_positions(3, false));
}

#[test]
fn russian_four_kings_mtc_agrees_with_the_naive_solver() {
    let tmp = temp_dir("mtc-naive-russian-kings");
    let dir = tmp.path().to_path_buf();
    build_tables_by(build_mtc::<Russian>, &dir, 3, &["0M2K-0M2K", "0M3K-0M1K"]);
    cross_check::<Russian>(&dir, &all_positions(4, true));
}

/// `damka` with `args` on the Russian tables under `dir`.
fn run(dir: &Path, args: &[&str]) -> common::Run {
    let dir = dir.to_str().unwrap();
    let mut all = args.to_vec();
    all.extend(["--variant", "russian", "--dir", dir]);
    damka(&all, "")
}

/// Stores a kings-only draw of `0M2K-0M1K` as a win in 1 in the MTC table of
/// the Russian tables under `dir`.
fn tamper_with_0m2k_0m1k(dir: &Path) {
    let tablebase = Tablebase::<Russian>::new(dir);
    let slice: Slice = "0M2K-0M1K".parse().unwrap();
    let table = tablebase.decoded_table(slice, ValueKind::Mtc).unwrap();
    let mut values: Vec<u16> = table.raw_values().collect();
    let index = values.iter().position(|&v| v == Dtc::DRAW.raw()).unwrap();
    values[index] = Dtc::win(1).raw();
    let store = FileStore::new(&dir.join("russian"), damka_core::VariantKind::Russian).unwrap();
    store.write_table(slice, ValueKind::Mtc, &values).unwrap();
}

#[test]
fn mtc_tables_are_built_probed_verified_and_counted_by_the_commands() {
    let tmp = temp_dir("mtc-cli");
    let dir = tmp.path().to_path_buf();
    let gen = run(
        &dir,
        &["gen", "--pieces", "3", "--metric", "mtc", "--quiet"],
    );
    assert!(gen.ok, "{}", gen.err);
    assert!(gen.out.contains("mtc 1M0K-0M1K"), "{}", gen.out);

    // The JSON answer carries the MTC table's value.
    let probe = run(&dir, &["probe", "--json", "W:Wc3:Bh8"]);
    assert!(probe.ok, "{}", probe.err);
    let json: serde_json::Value = serde_json::from_str(probe.out.trim()).unwrap();
    let tablebase = Tablebase::<Russian>::new(&dir);
    let pos: Position<Russian> = "W:Wc3:Bh8".parse().unwrap();
    let mtc = tablebase.probe_mtc(pos).unwrap();
    assert_eq!(json["mtc"], serde_json::json!(mtc.distance()), "{json}");
    assert_eq!(json["wdl"], mtc.wdl().name());
    // A draw has an MTC table but no distance; a directory without MTC tables
    // gives no "mtc" at all.
    let draw = run(&dir, &["probe", "--json", "W:WKa1:BKh2"]);
    let json: serde_json::Value = serde_json::from_str(draw.out.trim()).unwrap();
    assert_eq!(json["wdl"], "draw");
    assert!(json["mtc"].is_null() && json.get("mtc").is_some(), "{json}");

    let checkpoint = dir.join("verify.checkpoint");
    let checkpoint = checkpoint.to_str().unwrap();
    let with_checkpoint = [
        "verify",
        "--metric",
        "mtc",
        "--quiet",
        "--checkpoint",
        checkpoint,
    ];
    let verify = run(&dir, &with_checkpoint);
    assert!(verify.ok, "{}{}", verify.out, verify.err);
    assert!(verify.out.contains(": 0 mismatches"), "{}", verify.out);
    assert!(!verify.out.contains("resumed"), "{}", verify.out);
    let again = run(&dir, &with_checkpoint);
    assert!(again.ok && again.out.contains("resumed: "), "{}", again.out);

    let stats = run(&dir, &["stats", "--metric", "mtc", "--format", "json"]);
    assert!(stats.ok, "{}", stats.err);
    let report: serde_json::Value = serde_json::from_str(&stats.out).unwrap();
    assert_eq!(report["distance"], "moves to conversion");
    assert!(report["slices"][0]["longest_win"]["fen"].is_string());

    // A wrong value is found.
    tamper_with_0m2k_0m1k(&dir);
    for args in [
        &["verify", "--metric", "mtc", "--quiet"][..],
        &with_checkpoint,
    ] {
        let verify = run(&dir, args);
        assert!(!verify.ok);
        assert!(!verify.out.contains(": 0 mismatches"), "{}", verify.out);
        assert!(verify.out.contains(" mtc "), "{}", verify.out);
    }

    // The checksum check covers MTC files: a flipped byte in one is found.
    let checked = run(&dir, &["verify", "--checksums-only"]);
    assert!(checked.ok, "{}", checked.out);
    let path = dir.join("russian").join("0M2K-0M1K.mtc.dkt");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[130] ^= 0xff;
    std::fs::write(&path, bytes).unwrap();
    let checked = run(&dir, &["verify", "--checksums-only"]);
    assert!(
        !checked.ok && checked.out.contains("0M2K-0M1K.mtc.dkt"),
        "{}",
        checked.out
    );

    // Game-theoretic tables alone: no MTC statistics, and a clear error.
    let plain = temp_dir("mtc-cli-plain");
    assert!(run(plain.path(), &["gen", "--pieces", "2", "--quiet"]).ok);
    let none = run(plain.path(), &["stats", "--metric", "mtc"]);
    assert!(
        !none.ok && none.err.contains("damka gen --metric mtc"),
        "{}",
        none.err
    );
}

#[test]
fn mtc_groups_spilled_to_disk_write_the_same_bytes() {
    let tmp = temp_dir("mtc-resident");
    let dir = tmp.path().to_path_buf();
    let gen = run(
        &dir,
        &["gen", "--pieces", "4", "--metric", "mtc", "--quiet"],
    );
    assert!(gen.ok, "{}", gen.err);
    let tablebase = Tablebase::<Russian>::new(&dir);
    let spilled_tmp = temp_dir("mtc-spilled");
    let spilled = spilled_tmp.path().join("russian");
    let store = FileStore::new(&spilled, damka_core::VariantKind::Russian).unwrap();
    let mut heads: Vec<Slice> = Vec::new();
    for slice in damka_core::build_order::<Russian>(4) {
        if !heads.contains(&slice.mirror()) {
            heads.push(slice);
        }
    }
    for &head in &heads {
        let (_, spilled) = build_mtc_group(&tablebase, &store, head, &|_| Ok(true)).unwrap();
        assert!(spilled, "{head}");
    }
    let mut compared = 0;
    for entry in std::fs::read_dir(tablebase.dir()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        assert!(!name.ends_with(".tmp"), "spill file {name} left behind");
        if name.ends_with(".mtc.dkt") {
            let resident = std::fs::read(tablebase.dir().join(&name)).unwrap();
            let solved_spilled = std::fs::read(spilled.join(&name)).unwrap();
            assert!(resident == solved_spilled, "{name} differs when spilled");
            compared += 1;
        }
    }
    assert_eq!(compared, 41, "every MTC table of Russian up to 4 pieces");
}

/// `damka verify --metric mtc --slice` checks one group's MTC tables, and
/// `scripts/verify-groups.sh` with `METRIC=mtc` records every group in a
/// ledger, skips the groups whose bytes it verified before, and finds a wrong
/// value in the group that holds it.
#[test]
fn mtc_tables_are_verified_group_by_group() {
    let tmp = temp_dir("mtc-groups");
    let dir = tmp.path().join("tables");
    let gen = run(
        &dir,
        &["gen", "--pieces", "3", "--metric", "mtc", "--quiet"],
    );
    assert!(gen.ok, "{}", gen.err);
    let size = |name: &str| {
        SliceIndexer::<Russian>::new(name.parse().unwrap())
            .unwrap()
            .size()
    };

    let one = run(
        &dir,
        &[
            "verify",
            "--metric",
            "mtc",
            "--slice",
            "0M2K-0M1K",
            "--quiet",
        ],
    );
    let expected = format!(
        "verified 2 tables, {} positions: 0 mismatches",
        size("0M2K-0M1K") + size("0M1K-0M2K")
    );
    assert!(
        one.ok && one.out.contains(&expected),
        "{}{}",
        one.out,
        one.err
    );
    let missing = run(
        &dir,
        &[
            "verify",
            "--metric",
            "mtc",
            "--slice",
            "0M3K-0M1K",
            "--quiet",
        ],
    );
    assert!(
        !missing.ok && missing.err.contains("no MTC table of 0M3K-0M1K"),
        "{}",
        missing.err
    );

    let ledger = tmp.path().join("mtc.tsv");
    let script = || {
        Command::new("bash")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scripts/verify-groups.sh"
            ))
            .arg("russian")
            .arg(&dir)
            .arg(&ledger)
            .env("METRIC", "mtc")
            .env("DAMKA", env!("CARGO_BIN_EXE_damka"))
            .output()
            .unwrap()
    };
    let lines = || -> Vec<Vec<String>> {
        std::fs::read_to_string(&ledger)
            .unwrap()
            .lines()
            .map(|l| l.split('\t').map(str::to_string).collect())
            .collect()
    };
    let first = script();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let mut groups: Vec<Slice> = Vec::new();
    for slice in damka_core::build_order::<Russian>(3) {
        if !groups.contains(&slice.mirror()) {
            groups.push(slice);
        }
    }
    let verified = lines();
    assert_eq!(
        verified.len(),
        groups.len(),
        "one line a group: {verified:?}"
    );
    let positions: u64 = verified.iter().map(|l| l[1].parse::<u64>().unwrap()).sum();
    let all: u64 = damka_core::build_order::<Russian>(3)
        .iter()
        .map(|s| size(&s.name()))
        .sum();
    assert_eq!(positions, all);
    assert!(verified.iter().all(|l| l[2] == "0"), "{verified:?}");

    // Verified bytes are skipped.
    assert!(script().status.success());
    assert_eq!(lines(), verified);

    // A wrong value: only its group is verified again, and fails.
    tamper_with_0m2k_0m1k(&dir);
    let failed = script();
    assert!(!failed.status.success());
    let after = lines();
    assert_eq!(after.len(), verified.len() + 1);
    let last = after.last().unwrap();
    assert_eq!(last[0], "0M1K-0M2K");
    assert_ne!(last[2], "0", "{last:?}");
}
