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

/// A distance-to-conversion value under a rule set: win, draw or loss for the side
/// to move, and the plies to the end of the current phase (see `FORMAT.md`,
/// "DTC tables").
///
/// Unlike DTW, either side may end a phase, so a win or a loss can lie at any
/// distance, 0 included (an exit position itself). One `u16`: `0` is a draw,
/// `2d + 1` a win in `d` plies, `2d + 2` a loss in `d` plies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Dtc(u16);

impl Dtc {
    /// A draw: the winner cannot force a conversion into a position won under
    /// the rules with fresh counters.
    pub const DRAW: Dtc = Dtc(0);
    /// The longest distance a value can hold.
    pub const MAX_DISTANCE: u16 = (u16::MAX - 2) / 2;

    /// A win in `plies`.
    #[inline]
    pub fn win(plies: u16) -> Dtc {
        debug_assert!(plies <= Self::MAX_DISTANCE);
        Dtc(2 * plies + 1)
    }

    /// A loss in `plies`.
    #[inline]
    pub fn loss(plies: u16) -> Dtc {
        debug_assert!(plies <= Self::MAX_DISTANCE);
        Dtc(2 * plies + 2)
    }

    /// A value with outcome `wdl` at distance `plies` (a draw ignores `plies`).
    #[inline]
    pub fn new(wdl: Wdl, plies: u16) -> Dtc {
        match wdl {
            Wdl::Win => Dtc::win(plies),
            Wdl::Draw => Dtc::DRAW,
            Wdl::Loss => Dtc::loss(plies),
        }
    }

    /// Rebuilds a value from its stored `u16`.
    #[inline]
    pub fn from_raw(raw: u16) -> Dtc {
        Dtc(raw)
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
            v if v % 2 == 1 => Wdl::Win,
            _ => Wdl::Loss,
        }
    }

    /// The distance in plies, or `None` for a draw.
    #[inline]
    pub fn distance(self) -> Option<u16> {
        match self.0 {
            0 => None,
            v => Some((v - 1) / 2),
        }
    }

    /// The value one ply earlier, through a move that leads here: a loss in `d`
    /// makes a win in `d + 1`, a win in `d` a loss in `d + 1`.
    #[inline]
    pub fn back(self) -> Dtc {
        match (self.wdl(), self.distance()) {
            (Wdl::Win, Some(d)) => Dtc::loss(d + 1),
            (Wdl::Loss, Some(d)) => Dtc::win(d + 1),
            _ => Dtc::DRAW,
        }
    }
}

/// The value of a position under a rule set with fresh counters, next to its
/// game-theoretic value: what a `rwdl` table stores, one code per position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RuleWdl {
    /// A loss, inside the rules too.
    Loss,
    /// A theoretical loss that the rules turn into a draw.
    BlessedLoss,
    /// A theoretical draw.
    Draw,
    /// A theoretical win that the rules turn into a draw.
    CursedWin,
    /// A win inside the rules.
    Win,
}

impl RuleWdl {
    /// Every value, from worst to best for the side to move.
    pub const ALL: [RuleWdl; 5] = [
        RuleWdl::Loss,
        RuleWdl::BlessedLoss,
        RuleWdl::Draw,
        RuleWdl::CursedWin,
        RuleWdl::Win,
    ];

    /// The value of a position that is `theory` with no rules and `ruled` under
    /// them (a rule can only turn a win or a loss into a draw).
    pub fn of(theory: Wdl, ruled: Wdl) -> RuleWdl {
        match (theory, ruled) {
            (_, Wdl::Win) => RuleWdl::Win,
            (_, Wdl::Loss) => RuleWdl::Loss,
            (Wdl::Win, Wdl::Draw) => RuleWdl::CursedWin,
            (Wdl::Loss, Wdl::Draw) => RuleWdl::BlessedLoss,
            (Wdl::Draw, Wdl::Draw) => RuleWdl::Draw,
        }
    }

    /// The stored code, 0 to 4 in the order of [`RuleWdl::ALL`].
    pub fn code(self) -> u16 {
        self as u16
    }

    /// The value of a stored code.
    pub fn from_code(code: u16) -> Option<RuleWdl> {
        RuleWdl::ALL.get(code as usize).copied()
    }

    /// The result under the rules: a cursed win and a blessed loss are draws.
    pub fn ruled(self) -> Wdl {
        match self {
            RuleWdl::Win => Wdl::Win,
            RuleWdl::Loss => Wdl::Loss,
            _ => Wdl::Draw,
        }
    }

    /// The game-theoretic result.
    pub fn theory(self) -> Wdl {
        match self {
            RuleWdl::Win | RuleWdl::CursedWin => Wdl::Win,
            RuleWdl::Loss | RuleWdl::BlessedLoss => Wdl::Loss,
            RuleWdl::Draw => Wdl::Draw,
        }
    }

    /// The value from the other side's point of view.
    pub fn negate(self) -> RuleWdl {
        RuleWdl::ALL[4 - self as usize]
    }

    /// `win`, `cursed-win`, `draw`, `blessed-loss` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            RuleWdl::Loss => "loss",
            RuleWdl::BlessedLoss => "blessed-loss",
            RuleWdl::Draw => "draw",
            RuleWdl::CursedWin => "cursed-win",
            RuleWdl::Win => "win",
        }
    }
}

impl std::fmt::Display for RuleWdl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtc_steps_back_across_either_side() {
        assert_eq!(Dtc::loss(0).back(), Dtc::win(1));
        assert_eq!(Dtc::win(0).back(), Dtc::loss(1));
        assert_eq!(Dtc::win(4).back(), Dtc::loss(5));
        assert_eq!(Dtc::DRAW.back(), Dtc::DRAW);
        assert_eq!(Dtc::win(7).distance(), Some(7));
        assert_eq!(Dtc::loss(7).wdl(), Wdl::Loss);
        assert_eq!(Dtc::from_raw(Dtc::loss(3).raw()), Dtc::loss(3));
    }

    #[test]
    fn rule_wdl_codes_round_trip_and_negate() {
        for value in RuleWdl::ALL {
            assert_eq!(RuleWdl::from_code(value.code()), Some(value));
            assert_eq!(value.negate().negate(), value);
            assert_eq!(value.negate().theory(), value.theory().negate());
        }
        assert_eq!(RuleWdl::of(Wdl::Win, Wdl::Draw), RuleWdl::CursedWin);
        assert_eq!(RuleWdl::from_code(5), None);
    }

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
