//! A naive solver of moves to conversion (MTC, `formats/FORMAT.md`, "MTC
//! tables"): every position in a `HashMap`, rounds of plain iteration, nothing
//! shared with the generator but the move generator and the game-theoretic
//! values it is given (from the naive DTW solver).

use std::collections::HashMap;

use damka_core::{Position, Variant};
use damka_formats::{Dtc, Value, Wdl};

use super::{each_move, in_rounds};

/// What a move is worth to its mover, as far as MTC goes.
#[derive(Clone, Copy)]
enum Step {
    /// A capture or a man move: it ends the count, with this outcome for the
    /// mover (the opposite of the game-theoretic value of the position reached).
    Converts(Wdl),
    /// A king move, to the position with this id.
    King(usize),
}

/// The MTC value of every position of `positions` (closed under king moves,
/// apart from positions whose side to move has no pieces), given the
/// game-theoretic value `theory` of every position any move reaches. In round
/// `d`, a position becomes a win in `d` if a move wins in `d` (a conversion into
/// a lost position in 1, a king move to a loss in `d - 1`), and a loss in `d` if
/// every move loses, the longest in `d`; a position with no legal move is a
/// loss in 0.
pub fn naive_mtc<V: Variant>(
    positions: &[Position<V>],
    theory: &HashMap<Position<V>, Value>,
) -> HashMap<Position<V>, Dtc> {
    let steps = each_move(positions, |p, mv, next, id| {
        let king = p.kings() & (1u64 << mv.from_bit()) != 0;
        if king && !mv.is_capture() {
            Step::King(id[&next])
        } else if next.pieces(next.side()) == 0 {
            Step::Converts(Wdl::Win)
        } else {
            Step::Converts(theory[&next].wdl().negate())
        }
    });
    // The mover's outcome and distance of a step, if known.
    let value = |mtc: &[Option<Dtc>], step: &Step| -> Option<(Wdl, u16)> {
        match step {
            Step::Converts(Wdl::Draw) => Some((Wdl::Draw, 0)),
            Step::Converts(wdl) => Some((*wdl, 1)),
            Step::King(i) => mtc[*i].map(|v| {
                let back = v.back();
                (back.wdl(), back.distance().unwrap_or(0))
            }),
        }
    };
    let mtc = in_rounds(positions.len(), |i, d, mtc| {
        let values: Vec<Option<(Wdl, u16)>> = steps[i].iter().map(|s| value(mtc, s)).collect();
        if values.contains(&Some((Wdl::Win, d))) {
            return Some(Dtc::win(d));
        }
        let all_lost = values
            .iter()
            .all(|v| matches!(v, Some((Wdl::Loss, l)) if *l <= d));
        let longest = values.iter().flatten().map(|(_, l)| *l).max().unwrap_or(0);
        (all_lost && longest == d).then_some(Dtc::loss(d))
    });
    positions
        .iter()
        .zip(mtc)
        .map(|(p, v)| (*p, v.unwrap_or(Dtc::DRAW)))
        .collect()
}
