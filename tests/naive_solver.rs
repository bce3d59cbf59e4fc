//! An independent cross-check of the generator: the naive solver of
//! `tests/common` must agree with the built tables on every position of every slice
//! of up to 3 pieces in both variants, and of every kings-only slice of 4 pieces in
//! Russian.

use crate::common;

use common::{all_positions, build_tables, naive_solve, temp_dir};
use damka_core::{International, Position, Russian, Variant};
use damka_probe::Tablebase;

/// Builds the tables into a temporary directory and compares every position.
fn cross_check<V: Variant>(max_pieces: u32, extra: &[&str], positions: Vec<Position<V>>) {
    let tmp = temp_dir(&format!("naive-{}-{max_pieces}", V::KIND));
    let dir = tmp.path().to_path_buf();
    build_tables::<V>(&dir, max_pieces, extra);
    let naive = naive_solve(&positions);
    let tablebase = Tablebase::<V>::new(&dir);
    let mut compared = 0;
    for (pos, expected) in &naive {
        if pos.white() == 0 || pos.black() == 0 {
            continue;
        }
        let probed = tablebase.probe_value(pos).unwrap();
        assert_eq!(probed, *expected, "value of {pos}");
        compared += 1;
    }
    assert!(compared > 1000, "only {compared} positions compared");
}

#[test]
fn russian_up_to_three_pieces_agrees_with_the_naive_solver() {
    cross_check::<Russian>(3, &[], all_positions(3, false));
}

#[test]
fn international_up_to_three_pieces_agrees_with_the_naive_solver() {
    cross_check::<International>(3, &[], all_positions(3, false));
}

#[test]
fn russian_four_kings_agrees_with_the_naive_solver() {
    cross_check::<Russian>(3, &["0M2K-0M2K", "0M3K-0M1K"], all_positions(4, true));
}
