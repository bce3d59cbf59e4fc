//! Perft against the published counts (sources in `tests/data/README.md`).
//!
//! The counts come from `damka perft`, which counts the root moves on all threads
//! with `damka_core::perft` below them. The shallow tier runs in every test run; the
//! deepest figures are `#[ignore]`d and run by `scripts/perft-deep.sh`.

use crate::common;

use common::damka;
use damka_core::{International, Russian, Variant};

const RUSSIAN_START: &str =
    "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8";
const RUSSIAN: [u64; 13] = [
    7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032, 110917189, 544770444,
    2673979569,
];
const INTERNATIONAL_START: &str = "W:W31-50:B1-20";
const INTERNATIONAL: [u64; 11] = [
    9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423, 258895763, 1665861398,
];
const WOLDOUBY: &str = "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26";
const WOLDOUBY_COUNTS: [u64; 11] = [6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050, 377436];
const RANDOM178: &str = "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24";
const RANDOM178_COUNTS: [u64; 7] = [14, 55, 1168, 5432, 87195, 629010, 9041010];
const ALL_KINGS: &str = "W:WK31-50:BK1-20";
const ALL_KINGS_COUNTS: [u64; 8] = [17, 79, 352, 1399, 7062, 37589, 217575, 1333217];
const ALMOST_PROMOTION: &str = "W:W6,7,8,9,10:B41,42,43,44,45";
const ALMOST_PROMOTION_COUNTS: [u64; 6] = [9, 81, 795, 7578, 86351, 936311];

/// Checks `counts[d - 1]` for every depth `d` in `depths`, as `damka perft` prints
/// them.
fn check<V: Variant>(fen: &str, counts: &[u64], depths: std::ops::RangeInclusive<usize>) {
    let deepest = depths.end().to_string();
    let args = [
        "perft",
        "--variant",
        V::KIND.name(),
        "--fen",
        fen,
        "--depth",
        &deepest,
    ];
    let run = damka(&args, "");
    assert!(run.ok, "{}", run.err);
    for depth in depths {
        let expected = format!("perft {depth} {}", counts[depth - 1]);
        assert!(
            run.out.lines().any(|line| line == expected),
            "{expected} for {fen}; damka printed:\n{}",
            run.out
        );
    }
}

#[test]
fn russian_initial_to_depth_10() {
    check::<Russian>(RUSSIAN_START, &RUSSIAN, 1..=10);
}

#[test]
#[ignore = "deep: run by scripts/perft-deep.sh"]
fn russian_initial_deep() {
    check::<Russian>(RUSSIAN_START, &RUSSIAN, 11..=13);
}

#[test]
fn international_initial_to_depth_9() {
    check::<International>(INTERNATIONAL_START, &INTERNATIONAL, 1..=9);
}

#[test]
#[ignore = "deep: run by scripts/perft-deep.sh"]
fn international_initial_deep() {
    check::<International>(INTERNATIONAL_START, &INTERNATIONAL, 10..=11);
}

#[test]
fn international_test_positions() {
    check::<International>(WOLDOUBY, &WOLDOUBY_COUNTS, 1..=11);
    check::<International>(RANDOM178, &RANDOM178_COUNTS, 1..=7);
    check::<International>(ALL_KINGS, &ALL_KINGS_COUNTS, 1..=8);
    check::<International>(ALMOST_PROMOTION, &ALMOST_PROMOTION_COUNTS, 1..=6);
}
