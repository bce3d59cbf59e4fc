//! The best value of a position's moves for the side to move, under the metrics
//! that count plies to an event (DTC, DTZ, MTC and the layered `D(p, c)`): the
//! shortest win, else a draw, else the longest loss. The layered pass and the
//! verifiers fold a position's moves through it.

use damka_formats::{Dtc, Wdl};

/// The best value of a position's moves so far, for the side to move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Best {
    /// The shortest win.
    win: Option<u16>,
    /// Whether a move draws.
    draw: bool,
    /// The longest loss.
    loss: Option<u16>,
}

impl Best {
    /// Takes a move of value `(wdl, plies)` for the side that plays it.
    #[inline]
    pub(crate) fn add(&mut self, (wdl, d): (Wdl, u16)) {
        match wdl {
            Wdl::Win => self.win = Some(self.win.map_or(d, |w| w.min(d))),
            Wdl::Draw => self.draw = true,
            Wdl::Loss => self.loss = Some(self.loss.map_or(d, |l| l.max(d))),
        }
    }

    /// Takes a move worth `value` for the side that plays it.
    #[inline]
    pub(crate) fn add_dtc(&mut self, value: Dtc) {
        self.add((value.wdl(), value.distance().unwrap_or(0)));
    }

    /// The position's value once every move is taken (no move: lost in 0).
    #[inline]
    pub(crate) fn value(self) -> Dtc {
        match (self.win, self.draw, self.loss) {
            (Some(d), _, _) => Dtc::win(d),
            (None, true, _) => Dtc::DRAW,
            (None, false, Some(d)) => Dtc::loss(d),
            (None, false, None) => Dtc::loss(0),
        }
    }
}

/// The value, for its side to move, of a position where a count ends, whose
/// outcome is `wdl`: at distance 0.
pub(crate) fn reached(wdl: Wdl) -> Dtc {
    match wdl {
        Wdl::Win => Dtc::win(0),
        Wdl::Loss => Dtc::loss(0),
        Wdl::Draw => Dtc::DRAW,
    }
}

/// Above every rank of a win and below every rank of a loss, negated.
const RANK_SPAN: i32 = 1 << 17;

/// A DTC-encoded value as a rank for the side it belongs to: a greater rank is a
/// better value (the shortest win, then a draw, then the longest loss), so that a
/// loop over many values takes the best with `max` ([`Best`] does the same one
/// value at a time).
#[inline]
pub(crate) fn rank(value: Dtc) -> i32 {
    match i32::from(value.raw()) {
        0 => 0,
        raw if raw % 2 == 1 => RANK_SPAN - raw,
        raw => raw - RANK_SPAN,
    }
}

/// The rank, for the mover, of a move to a position whose stored value (for
/// its side to move) is `raw`: `rank(Dtc::from_raw(raw).back())`, written as
/// plain arithmetic on `raw`, with no `Option` in between, so that a loop over
/// a row of states compiles to vector code (the rule verifier's inner loop).
#[inline]
pub(crate) fn rank_back(raw: u16) -> i32 {
    let raw = i32::from(raw);
    if raw == 0 {
        0
    } else if raw % 2 == 1 {
        // A win in d (2d + 1) becomes a loss in d + 1 (2d + 4).
        raw + 3 - RANK_SPAN
    } else {
        // A loss in d (2d + 2) becomes a win in d + 1 (2d + 3).
        RANK_SPAN - raw - 1
    }
}

/// The value of rank `rank` ([`rank`] reversed).
#[inline]
pub(crate) fn unrank(rank: i32) -> Dtc {
    let raw = match rank {
        0 => 0,
        r if r > 0 => RANK_SPAN - r,
        r => r + RANK_SPAN,
    };
    Dtc::from_raw(raw as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shortest_win_beats_a_draw_which_beats_the_longest_loss() {
        let mut best = Best::default();
        assert_eq!(best.value(), Dtc::loss(0), "no move: lost in 0");
        best.add((Wdl::Loss, 3));
        best.add((Wdl::Loss, 9));
        assert_eq!(best.value(), Dtc::loss(9));
        best.add_dtc(Dtc::DRAW);
        assert_eq!(best.value(), Dtc::DRAW);
        best.add_dtc(Dtc::win(7));
        best.add((Wdl::Win, 5));
        best.add((Wdl::Win, 11));
        assert_eq!(best.value(), Dtc::win(5));
    }

    #[test]
    fn rank_back_is_the_rank_of_the_value_one_ply_back() {
        // Every stored value whose distance one ply further still fits.
        for raw in 0..=2 * Dtc::MAX_DISTANCE {
            let value = Dtc::from_raw(raw);
            assert_eq!(rank_back(raw), rank(value.back()), "{value:?}");
        }
    }

    #[test]
    fn ranks_order_values_as_best_does() {
        let values = [
            Dtc::loss(0),
            Dtc::loss(4),
            Dtc::loss(30),
            Dtc::DRAW,
            Dtc::win(30),
            Dtc::win(4),
            Dtc::win(0),
        ];
        for (i, &a) in values.iter().enumerate() {
            assert_eq!(unrank(rank(a)), a);
            for &b in &values[i + 1..] {
                assert!(rank(a) < rank(b), "{a:?} < {b:?}");
                let mut best = Best::default();
                best.add_dtc(a);
                best.add_dtc(b);
                assert_eq!(best.value(), b);
            }
        }
    }
}
