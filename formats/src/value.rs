//! The value of a position as tables store it: win, draw or loss for the side to
//! move, and the distance to win (DTW) in plies.
//!
//! A value is one `u16`: `0` is a draw, any other `v` is a decided position with
//! `DTW = v - 1`. Odd distances are wins, even ones losses (0: the side to move has
//! no legal move).

use serde::Serialize;

/// Win, draw or loss for the side to move, with no move-limit rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Wdl {
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with best play.
    Win,
}

impl Wdl {
    /// The value from the other side's point of view.
    pub fn negate(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }
}

impl std::fmt::Display for Wdl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A stored value: WDL and DTW in one `u16` (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Value(u16);

impl Value {
    /// A draw.
    pub const DRAW: Value = Value(0);
    /// The side to move has no legal move and has lost.
    pub const LOST: Value = Value(1);
    /// The longest distance a value can hold.
    pub const MAX_DTW: u16 = u16::MAX - 1;

    /// The decided value at distance `dtw`: a win if `dtw` is odd, else a loss.
    #[inline]
    pub fn decided(dtw: u16) -> Value {
        debug_assert!(dtw <= Self::MAX_DTW);
        Value(dtw + 1)
    }

    /// Rebuilds a value from its stored `u16`.
    #[inline]
    pub fn from_raw(raw: u16) -> Value {
        Value(raw)
    }

    /// The stored `u16`.
    #[inline]
    pub fn raw(self) -> u16 {
        self.0
    }

    /// Win, draw or loss.
    #[inline]
    pub fn wdl(self) -> Wdl {
        match self.0 {
            0 => Wdl::Draw,
            v if v % 2 == 0 => Wdl::Win,
            _ => Wdl::Loss,
        }
    }

    /// The distance to win in plies, or `None` for a draw.
    #[inline]
    pub fn dtw(self) -> Option<u16> {
        self.0.checked_sub(1)
    }

    /// The value of a position one ply before a position of this value, if that
    /// move were the only one: a loss in `d` makes a win in `d + 1` and so on.
    #[inline]
    pub fn back(self) -> Value {
        if self.0 == 0 {
            Value::DRAW
        } else {
            Value(self.0 + 1)
        }
    }

    /// Whether `self` is better than `other` for the side to move: wins beat draws
    /// beat losses, a shorter win beats a longer one, a longer loss a shorter one.
    #[inline]
    pub fn better_than(self, other: Value) -> bool {
        self.order_key() > other.order_key()
    }

    /// A key that sorts values from worst to best for the side to move.
    #[inline]
    fn order_key(self) -> i32 {
        match self.wdl() {
            Wdl::Win => 2 * 65536 - self.0 as i32,
            Wdl::Draw => 65536,
            Wdl::Loss => self.0 as i32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        assert_eq!(Value::DRAW.wdl(), Wdl::Draw);
        assert_eq!(Value::DRAW.dtw(), None);
        assert_eq!(Value::LOST.wdl(), Wdl::Loss);
        assert_eq!(Value::LOST.dtw(), Some(0));
        assert_eq!(Value::decided(1).wdl(), Wdl::Win);
        assert_eq!(Value::decided(4).wdl(), Wdl::Loss);
        assert_eq!(Value::LOST.back(), Value::decided(1));
        assert_eq!(Value::decided(7).back(), Value::decided(8));
    }

    #[test]
    fn ordering_prefers_short_wins_and_long_losses() {
        let order = [
            Value::LOST,
            Value::decided(2),
            Value::decided(10),
            Value::DRAW,
            Value::decided(11),
            Value::decided(3),
            Value::decided(1),
        ];
        for pair in order.windows(2) {
            assert!(
                pair[1].better_than(pair[0]),
                "{:?} > {:?}",
                pair[1],
                pair[0]
            );
            assert!(!pair[0].better_than(pair[1]));
        }
    }
}
