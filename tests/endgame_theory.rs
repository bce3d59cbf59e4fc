//! Well-known endgame theory, checked against the built tables.
//!
//! Sources:
//! - Russian, three kings against one: the lone king that holds the main road
//!   (большак, a1–h8) draws; off it, three kings catch it with Petrov's triangle
//!   (A. D. Petrov, 1827). See the rule seeds in `shared/seeds/` (R3, "lone king on
//!   the main road", exists because of it) and any Russian endgame manual, e.g.
//!   V. Shashin, "Окончания в шашках".
//! - International: three kings against one are in general a draw (which is why
//!   FMJD rule I2 limits that ending to 16 moves only to stop play, not to save a
//!   win), and four kings beat one: FMJD rules, `shared/RULES.md` §3, and
//!   Dutch endgame handbooks (e.g. "Het damspel", eindspelen van dammen).

use crate::common;

use common::{build_tables, temp_dir};
use damka_core::has_capture;
use damka_core::{Color, International, Position, Russian, Slice, SliceIndexer, Variant};
use damka_formats::Wdl;
use damka_probe::Tablebase;
use tempfile::TempDir;

/// Builds everything up to `pieces`, then the slices `names`, in order, into a
/// temporary directory, removed when the returned `TempDir` drops.
fn tables<V: Variant>(tag: &str, pieces: u32, names: &[&str]) -> (TempDir, Tablebase<V>) {
    let dir = temp_dir(&format!("theory-{tag}"));
    build_tables::<V>(dir.path(), pieces, names);
    let tablebase = Tablebase::new(dir.path());
    (dir, tablebase)
}

/// The squares of the long diagonal through White's lower-left corner.
fn main_road<V: Variant>() -> u64 {
    let g = V::GEOMETRY;
    (0..g.width)
        .map(|i| 1u64 << g.bit_of[g.square_at(i, i).unwrap()])
        .fold(0, |a, b| a | b)
}

fn wdl<V: Variant>(tb: &Tablebase<V>, fen: &str) -> Wdl {
    tb.probe_wdl(fen.parse::<Position<V>>().unwrap()).unwrap()
}

#[test]
fn russian_three_kings_against_one() {
    let (_dir, tb) = tables::<Russian>("ru", 3, &["0M3K-0M1K"]);
    // The lone king on the main road holds the draw, with either side to move.
    for fen in [
        "W:WKc1,Ke1,Kg1:BKa1",
        "B:WKc1,Ke1,Kg1:BKa1",
        "W:WKd2,Kf2,Kh2:BKb2",
        "W:WKa3,Kb4,Kh6:BKe5",
    ] {
        assert_eq!(wdl(&tb, fen), Wdl::Draw, "{fen}");
    }
    // Off the main road, with a white king on it, the lone king is caught.
    for fen in [
        "W:WKa1,Kc1,Ke1:BKh2",
        "W:WKa1,Kc3,Ke1:BKg5",
        "B:WKa1,Kc1,Ke1:BKh2",
    ] {
        let expected = if fen.starts_with('W') {
            Wdl::Win
        } else {
            Wdl::Loss
        };
        assert_eq!(wdl(&tb, fen), expected, "{fen}");
    }

    // Over the whole slice: with White to move, no capture on the board and the
    // lone king on the main road (and no white king on it), White wins only by a
    // short tactic, within five moves (9 plies); otherwise it is a draw.
    let road = main_road::<Russian>();
    let slice: Slice = "0M3K-0M1K".parse().unwrap();
    let indexer = SliceIndexer::<Russian>::new(slice).unwrap();
    let (mut draws, mut tactics, mut longest_tactic) = (0, 0, 0);
    let (mut triangle_wins, mut off_road) = (0, 0);
    for index in 0..indexer.size() {
        let pos = indexer.position(index);
        if has_capture(&pos) || has_capture(&pos.with_side(Color::Black)) {
            continue;
        }
        let value = tb.probe_value(pos).unwrap();
        if pos.black() & road != 0 && pos.white() & road == 0 {
            match value.wdl() {
                Wdl::Draw => draws += 1,
                Wdl::Win => {
                    longest_tactic = longest_tactic.max(value.dtw().unwrap());
                    tactics += 1;
                }
                Wdl::Loss => panic!("{pos} cannot lose"),
            }
        }
        if pos.black() & road == 0 && pos.white() & road != 0 {
            off_road += 1;
            if value.wdl() == Wdl::Win {
                triangle_wins += 1;
            }
        }
    }
    assert!(
        longest_tactic <= 9,
        "a win that takes {longest_tactic} plies is no quick tactic"
    );
    assert!(
        draws > 10 * tactics,
        "{draws} draws, {tactics} tactical wins"
    );
    assert_eq!(
        triangle_wins, off_road,
        "every lone king off the road is caught"
    );
}

#[test]
fn international_three_kings_draw_and_four_kings_win() {
    let (_dir, tb) = tables::<International>("intl", 2, &["0M2K-0M1K", "0M3K-0M1K", "0M4K-0M1K"]);
    // Three kings cannot catch a lone king on the long diagonal.
    for fen in [
        "W:WK1,K2,K3:BK46",
        "W:WK1,K2,K3:BK28",
        "W:WK15,K25,K35:BK23",
        "B:WK7,K8,K9:BK5",
    ] {
        assert_eq!(wdl(&tb, fen), Wdl::Draw, "{fen}");
    }
    // Four kings can.
    for fen in ["W:WK1,K2,K3,K4:BK46", "W:WK31,K36,K41,K47:BK5"] {
        assert_eq!(wdl(&tb, fen), Wdl::Win, "{fen}");
    }
    // Over the whole slices: three kings against one are mostly drawn, four kings
    // against one mostly won, with White to move and no capture on the board.
    for (name, want, share) in [("0M3K-0M1K", Wdl::Draw, 0.5), ("0M4K-0M1K", Wdl::Win, 0.9)] {
        let indexer = SliceIndexer::<International>::new(name.parse().unwrap()).unwrap();
        let (mut quiet, mut hits) = (0u64, 0u64);
        for index in (0..indexer.size()).step_by(37) {
            let pos = indexer.position(index);
            if has_capture(&pos) || has_capture(&pos.with_side(Color::Black)) {
                continue;
            }
            quiet += 1;
            if tb.probe_wdl(pos).unwrap() == want {
                hits += 1;
            }
        }
        let seen = hits as f64 / quiet as f64;
        assert!(
            seen > share,
            "{name}: only {seen:.3} of quiet positions are {want}"
        );
    }
}
