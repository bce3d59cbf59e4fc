//! The counted DTC tables of the materials with men and kings on both sides, where
//! R4 (which man moves restart) runs beside R2 (which they do not) under
//! `russian`: the generator's layered pass writes `D(p, c)` for every count `c`
//! since the last man move, and `probe_rules` answers any (position, counts)
//! query from it with a one-ply search for the best move.
//!
//! Checked here on samples of every such material up to 4 pieces, both sides to
//! move, with R2 and R4 at several counts, alone and together: the answer equals
//! the search's (`probe_rules_searched`), the best move keeps it, the probe
//! answers with a deadline already passed (so it does not search), and verification passes the tables and finds a changed value.
//! Every 3-piece state is also checked against the naive solver by
//! `tests/rules_naive_check.rs`.

use crate::common;

use common::{build_rule_tables, keeps_rule_line, sampled_positions, temp_dir, verify_rules_both};
use std::time::Instant;

use damka_core::{Position, Russian, Slice, SliceIndexer};
use damka_formats::table::ValueKind;
use damka_formats::{Dtc, Wdl};
use damka_gen::store::FileStore;
use damka_probe::limits::{Counters, RuleSet, RuleTablebase};

/// The materials up to 4 pieces with men and kings on both sides.
const MATERIALS: [&str; 5] = [
    "1M1K-0M1K",
    "0M1K-1M1K",
    "1M1K-1M1K",
    "1M1K-0M2K",
    "0M2K-1M1K",
];

/// R2 and R4 counts (plies) to try in a material whose R2 limit is `r2_limit`
/// plies (R4's is 30): each alone near its start and its limit, and together.
fn counts_for(r2_limit: u32) -> Vec<Counters> {
    let mut out = Vec::new();
    for r2 in [0, 1, 7, r2_limit / 2, r2_limit - 3, r2_limit - 1] {
        for r4 in [0, 1, 4, 13, 26, 29] {
            if r4 > r2 && r2 > 0 {
                continue;
            }
            let mut counts = Counters::new();
            counts.set_plies("R2", r2);
            counts.set_plies("R4", r4);
            out.push(counts);
        }
    }
    out
}

#[test]
fn layered_tables_agree_with_the_search_without_searching() {
    let tmp = temp_dir("rules-layered");
    build_rule_tables::<Russian>(tmp.path(), 4, &[], "russian");
    let set = RuleSet::preset("russian").unwrap();
    let tables = RuleTablebase::<Russian>::new(tmp.path(), set.clone());
    let mut answers = Vec::new();
    let (mut compared, mut wins, mut cut) = (0, 0, 0);
    for (material, step) in MATERIALS.iter().zip([97, 97, 4001, 4001, 4001]) {
        // R2: 5 moves with 3 pieces, 30 with 4.
        let pieces = material.parse::<Slice>().unwrap().pieces();
        let r2_limit = if pieces == 3 { 10 } else { 60 };
        for pos in sampled_positions::<Russian>(material, 3, step) {
            for counts in counts_for(r2_limit) {
                let table = tables.probe_rules(pos, &counts).unwrap();
                assert!(table.unknown.is_none(), "{pos} {counts}: {table:?}");
                let search = tables.probe_rules_searched(pos, &counts).unwrap();
                assert!(search.unknown.is_none(), "{pos} {counts}: {search:?}");
                assert_eq!(table.wdl, search.wdl, "{pos} with {counts}");
                assert_eq!(table.distance, search.distance, "{pos} with {counts}");
                assert_eq!(table.rule, search.rule, "{pos} with {counts}");
                keeps_rule_line(&tables, &pos, &counts, table.wdl, table.distance);
                let ruled = table.wdl.unwrap();
                wins += usize::from(ruled.ruled() == Wdl::Win);
                cut += usize::from(ruled.ruled() != ruled.theory());
                compared += 1;
                answers.push((pos, counts, table));
            }
        }
    }
    assert!(
        compared > 5000 && wins > 500 && cut > 200,
        "{compared} compared, {wins} wins, {cut} cut by a rule"
    );
    answers_without_a_search(&tables, &answers);
}

/// With a deadline already passed (a search stops at its first state and
/// answers *unknown*), `probe_rules` still gives every answer it gave: it reads
/// the counted tables and searches one ply only.
fn answers_without_a_search(
    tables: &RuleTablebase<Russian>,
    answers: &[(
        Position<Russian>,
        Counters,
        damka_probe::limits::RuleOutcome,
    )],
) {
    for (pos, counts, expected) in answers {
        let found = tables
            .probe_rules_until(*pos, counts, Instant::now())
            .unwrap();
        assert_eq!(&found, expected, "{pos} with {counts}");
    }
}

/// `verify_rules` passes the layered counted tables as built and finds a
/// changed value in one of them, in layer 0 (which the check keeps in memory)
/// and in a layer above it (which it reads through the block cache).
#[test]
fn verification_rederives_the_layered_tables() {
    let tmp = temp_dir("rules-layered-verify");
    let dir = tmp.path();
    build_rule_tables::<Russian>(dir, 3, &[], "russian");
    let set = RuleSet::preset("russian").unwrap();
    let report = verify_rules_both(dir, &set);
    assert_eq!(report.mismatches, 0, "{:?}", report.examples);
    let slice: Slice = "1M1K-0M1K".parse().unwrap();
    let tables = RuleTablebase::<Russian>::new(dir, set.clone());
    let built: Vec<u16> = tables
        .table(slice, ValueKind::CountedDtc)
        .unwrap()
        .raw_values()
        .collect();
    drop(tables);
    let size = SliceIndexer::<Russian>::new(slice).unwrap().size() as usize;
    assert_eq!(
        built.len(),
        30 * size,
        "one value per position and R4 count"
    );
    let store = FileStore::new(&dir.join("russian"), damka_core::VariantKind::Russian).unwrap();
    let write = |values: &[u16]| {
        let at = (&set.name[..], set.fingerprint());
        store
            .write_rule_table(slice, at, ValueKind::CountedDtc, values)
            .unwrap();
    };
    for above in [false, true] {
        let won = (0..built.len())
            .find(|&i| {
                let v = Dtc::from_raw(built[i]);
                (i % 30 != 0) == above && v.distance() > Some(2) && v.wdl() == Wdl::Win
            })
            .unwrap();
        let mut values = built.clone();
        values[won] = Dtc::win(1).raw();
        write(&values);
        let report = verify_rules_both(dir, &set);
        assert!(report.mismatches > 0, "a change at state {}", won % 30);
        assert!(
            report.examples.iter().any(|m| m.table == "cdtc"),
            "{:?}",
            report.examples
        );
    }
    write(&built);
    let report = verify_rules_both(dir, &set);
    assert_eq!(report.mismatches, 0, "{:?}", report.examples);
}

/// The counted table's entries read in runs through the block cache
/// (`entries`) and decoded past it (`decode_counted`) equal the whole
/// decoded table, for runs that start anywhere and cross block boundaries.
#[test]
fn counted_entries_read_in_runs_equal_the_decoded_table() {
    let tmp = temp_dir("rules-layered-runs");
    let dir = tmp.path();
    build_rule_tables::<Russian>(dir, 3, &[], "russian");
    let set = RuleSet::preset("russian").unwrap();
    let slice: Slice = "1M1K-0M1K".parse().unwrap();
    let whole: Vec<u16> = RuleTablebase::<Russian>::new(dir, set.clone())
        .table(slice, ValueKind::CountedDtc)
        .unwrap()
        .raw_values()
        .collect();
    let block = ValueKind::CountedDtc.block_entries() as usize;
    assert!(whole.len() > 3 * block, "{} entries", whole.len());
    let tables = RuleTablebase::<Russian>::with_cache_bytes(dir, set, 1 << 20);
    for (first, len) in [(0, 30), (block - 7, 30), (block - 1, 2 * block + 5), (5, 1)] {
        let mut cached = vec![u16::MAX; len];
        tables
            .entries(slice, ValueKind::CountedDtc, first as u64, &mut cached)
            .unwrap();
        assert_eq!(cached, whole[first..first + len], "cached run at {first}");
        let mut decoded = vec![u16::MAX; len];
        tables
            .decode_counted(slice, first as u64, &mut decoded)
            .unwrap();
        assert_eq!(decoded, whole[first..first + len], "decoded run at {first}");
    }
}
