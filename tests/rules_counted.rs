//! The counted DTC tables of R3's materials (three kings, two kings and a man, a
//! king and two men against a lone king, under `russian`): `probe_rules` reads
//! them and must agree with the search it used before (`probe_rules_searched`) on
//! samples of every material, both sides to move, with fresh counts and with
//! counts in force at several values; its best move must keep the answer; and the
//! naive solver of `tests/common/rules_naive.rs` must agree on samples
//! (`--ignored`: minutes, since it explores every state its roots reach).

use crate::common;

use common::rules_naive::naive_rule_values;
use common::{build_rule_tables, keeps_rule_line, sampled_positions, temp_dir, verify_rules_both};
use damka_core::{Position, Russian, Slice};
use damka_formats::{table::ValueKind, Dtc, Wdl};
use damka_gen::store::FileStore;
use damka_probe::limits::{Counters, RuleSet, RuleTablebase};

/// R3's materials, each built after the one its promotions reach.
const MATERIALS: [&str; 3] = ["0M3K-0M1K", "1M2K-0M1K", "2M1K-0M1K"];

/// Builds the Russian rule tables up to 3 pieces and R3's materials.
fn tables(tag: &str) -> (tempfile::TempDir, RuleTablebase<Russian>) {
    let tmp = temp_dir(tag);
    build_rule_tables::<Russian>(tmp.path(), 3, &MATERIALS, "russian");
    let tables = RuleTablebase::new(tmp.path(), RuleSet::preset("russian").unwrap());
    (tmp, tables)
}

/// Counts to try in `pos`: fresh, and for each counter in force `plies` plies
/// played, each alone and R2 with R4 (or R3) together.
fn counts_for(set: &RuleSet, pos: &Position<Russian>, plies: &[u32]) -> Vec<Counters> {
    let material = pos.material();
    let in_force: Vec<(String, u32)> = set
        .in_force(pos)
        .filter_map(|c| c.limit_plies(&material).map(|l| (c.id.clone(), l)))
        .collect();
    let mut out = vec![Counters::new()];
    for &n in plies {
        for (id, limit) in &in_force {
            if n < *limit {
                let mut counts = Counters::new();
                counts.set_plies(id, n);
                out.push(counts);
            }
        }
        let mut all = Counters::new();
        for (id, limit) in &in_force {
            all.set_plies(id, n.min(limit - 1) / 2 + n % 3);
        }
        out.push(all);
    }
    out
}

#[test]
fn r3_tables_agree_with_the_search_and_keep_their_best_moves() {
    let (tmp, tables) = tables("rules-counted");
    let set = tables.set().clone();
    let (mut searched, mut kept) = (0, 0);
    for (material, step) in MATERIALS.iter().zip([4001, 10007, 10007]) {
        for (n, pos) in sampled_positions::<Russian>(material, 17, step)
            .into_iter()
            .enumerate()
        {
            for counts in counts_for(&set, &pos, &[3, 21]) {
                let table = tables.probe_rules(pos, &counts).unwrap();
                keeps_rule_line(&tables, &pos, &counts, table.wdl, table.distance);
                kept += 1;
                // The search takes up to a second a state: one position in 16.
                if n % 16 != 0 {
                    continue;
                }
                let search = tables.probe_rules_searched(pos, &counts).unwrap();
                assert!(search.unknown.is_none(), "{pos} {counts}: {search:?}");
                assert_eq!(table.wdl, search.wdl, "{pos} with {counts}");
                if material.starts_with("0M3K") {
                    assert_eq!(table.distance, search.distance, "{pos} with {counts}");
                }
                searched += 1;
            }
        }
    }
    assert!(
        searched > 20 && kept > 1000,
        "{searched} searched, {kept} kept"
    );
    rebuilds_a_missing_counted_table(tmp.path());
}

/// A rule-table directory without the counted table of a material (as one built
/// before the counted tables) is refused with the missing file named, and a
/// build adds the table again, the same.
fn rebuilds_a_missing_counted_table(dir: &std::path::Path) {
    let tables = RuleTablebase::<Russian>::new(dir, RuleSet::preset("russian").unwrap());
    let path = tables.path("2M1K-0M1K".parse().unwrap(), ValueKind::CountedDtc);
    let built = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let fresh = RuleTablebase::<Russian>::new(dir, RuleSet::preset("russian").unwrap());
    let error = fresh
        .probe_rules("W:Wa7,e5,Kf6:BKh8", &Counters::new())
        .unwrap_err()
        .to_string();
    assert!(error.contains("cdtc"), "{error}");
    build_rule_tables::<Russian>(dir, 3, &MATERIALS, "russian");
    assert_eq!(std::fs::read(&path).unwrap(), built);
}

/// The naive solver on states of `material` with `counts` given in moves.
fn naive_check(tables: &RuleTablebase<Russian>, material: &str, step: usize, counts: &[&str]) {
    let set = tables.set();
    let mut roots = Vec::new();
    for pos in sampled_positions::<Russian>(material, 5, step) {
        for text in counts {
            let counts = set.parse_counters(text).unwrap();
            // A count for a counter not in force is refused: such roots are left out.
            if tables.probe_rules(pos, &counts).is_ok() {
                roots.push((pos, counts));
            }
        }
    }
    let naive = naive_rule_values(set, &roots);
    for ((pos, counts), expected) in roots.iter().zip(naive) {
        let found = tables
            .probe_rules(pos, counts)
            .unwrap()
            .wdl
            .map(|w| w.ruled());
        assert_eq!(found, Some(expected), "{pos} with {counts}");
    }
}

#[test]
#[ignore = "minutes: run with --ignored"]
fn three_kings_against_one_agree_with_the_naive_solver() {
    let (_tmp, tables) = tables("rules-counted-naive");
    naive_check(&tables, "0M3K-0M1K", 40009, &["", "R3=3", "R1=12,R4=12"]);
}

#[test]
#[ignore = "minutes: run with --ignored"]
fn every_r3_material_agrees_with_the_naive_solver() {
    let (_tmp, tables) = tables("rules-counted-naive-all");
    let counts = ["", "R3=2", "R3=4.5", "R4=13", "R2=27,R4=10", "R1=14"];
    naive_check(&tables, "0M3K-0M1K", 3001, &counts);
    naive_check(&tables, "1M2K-0M1K", 20011, &counts);
    naive_check(&tables, "2M1K-0M1K", 20011, &counts);
}

/// `verify_rules` passes the counted tables of three kings against one as built,
/// and finds a changed counted value.
#[test]
fn verification_rederives_the_counted_tables() {
    let tmp = temp_dir("rules-counted-verify");
    let dir = tmp.path();
    build_rule_tables::<Russian>(dir, 3, &["0M3K-0M1K"], "russian");
    let set = RuleSet::preset("russian").unwrap();
    let report = verify_rules_both(dir, &set);
    assert_eq!(report.mismatches, 0, "{:?}", report.examples);
    let slice: Slice = "0M3K-0M1K".parse().unwrap();
    let rules = RuleTablebase::<Russian>::new(dir, set.clone());
    let table = rules.table(slice, ValueKind::CountedDtc).unwrap();
    let mut values: Vec<u16> = table.raw_values().collect();
    let won = values
        .iter()
        .position(|&v| Dtc::from_raw(v).distance() > Some(2) && Dtc::from_raw(v).wdl() == Wdl::Win)
        .unwrap();
    values[won] = Dtc::win(1).raw();
    let store = FileStore::new(&dir.join("russian"), damka_core::VariantKind::Russian).unwrap();
    store
        .write_rule_table(
            slice,
            (&set.name, set.fingerprint()),
            ValueKind::CountedDtc,
            &values,
        )
        .unwrap();
    let report = verify_rules_both(dir, &set);
    assert!(report.mismatches > 0);
    assert!(
        report.examples.iter().any(|m| m.table == "cdtc"),
        "{:?}",
        report.examples
    );
}
