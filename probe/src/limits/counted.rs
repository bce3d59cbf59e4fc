//! Counted phases: the materials where the rule answer depends on the counts in a
//! way one DTC value per position cannot hold, so the rule tables store one value
//! per state of the counts that matter. They are the materials of a counter with a
//! position condition (R3), and those with men and kings on both sides, where a
//! counter that man moves restart (R4, I1) runs beside one that they do not (R2),
//! or alone: there a win may need a man move in time.
//!
//! In such a material ([`Counted::of`]) the counters in force are:
//!
//! - the **conditional** counter (R3), if there is one: in force only while its
//!   condition holds (the lone king on the main road), restarted by nothing inside
//!   the class, so it runs through promotions; its count `k` is below its limit
//!   `K`. Without one, `K` is 1 and `k` is always 0;
//! - the **layer** counters: with men on the board, those that man moves restart
//!   (R4); in a kings-only material, every other counter (R1, R2, R4), since nothing
//!   restarts them before the phase ends. The layer count `c` is the least limit of
//!   them, `H`, minus the least budget left (limit minus count) among them;
//! - with men on the board, the **unbreakable** counters: every other counter (R2),
//!   which captures and promotions restart, so they bound the plies to the next
//!   conversion.
//!
//! A *sub-phase* runs to the next capture or promotion (or the end of the game). A
//! promotion that leaves the conditional counter running leads into another counted
//! material with every other count fresh, so the value there depends on `k` alone.
//! Let `D(p, c, k)` be the shortest win (longest loss) to the end of the sub-phase
//! from position `p`, layer count `c` and conditional count `k` (none while the
//! condition does not hold), with a draw where `c` reaches `H` or `k` reaches `K`,
//! and with no other limit. Then the side to move wins under the rules exactly when
//! `D` is a win in at most `U` plies, `U` the least budget left among the
//! unbreakable counters (the shortest forced win of a reachability game is the
//! fewest plies it can be forced in), and loses likewise. In a kings-only material
//! every move raises `c`, so `D(p, c, k)` is `D(p, 0, k)` when that is a win or a
//! loss within `H - c` plies and a draw otherwise: only `c = 0` is stored.
//!
//! The generator computes `D` layer by layer, without a search (`gen`'s `counted`
//! module); the probe reads it (`super::counted_probe`) and searches one ply for
//! the best move.

use damka_core::{Material, Position, Variant};
use damka_formats::Dtc;

use super::phase::Phase;
use super::ruleset::{Counts, RuleSet, MAX_COUNTERS};

/// How the counts decide the game in a counted material (see the module docs):
/// which counters play which part, and the order of the stored states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    /// The conditional counter's number in the set, if there is one.
    cond: Option<usize>,
    /// Its limit in plies, `K`; 1 without one.
    cond_limit: u32,
    /// The layer counters: number in the set and limit in plies.
    layer: Vec<(usize, u32)>,
    /// The least limit of the layer counters, `H`.
    layer_limit: u32,
    /// Whether men are on the board: man moves restart the layer count, and every
    /// layer is stored.
    men: bool,
    /// The unbreakable counters: number in the set and limit in plies.
    unbreakable: Vec<(usize, u32)>,
}

impl Counted {
    /// The counted phase of `material` under `set`, or `None` when the DTC table
    /// decides there (see the module docs), or the counters do not fit the model of
    /// the module docs (then the search decides, as before).
    pub fn of(set: &RuleSet, material: &Material) -> Option<Counted> {
        Counted::conditional(set, material).or_else(|| Counted::layered(set, material))
    }

    /// The counted phase of a material with men and kings on both sides, where a
    /// counter that man moves restart can bind and no counter has a condition: the
    /// layer counters are those of [`Phase::layered_counters`], the unbreakable
    /// ones the others in force.
    fn layered(set: &RuleSet, material: &Material) -> Option<Counted> {
        let (layer, unbreakable) = Phase::of(set, material).layered_counters(set)?;
        let layer_limit = layer.iter().map(|&(_, l)| l).min()?;
        Some(Counted {
            cond: None,
            cond_limit: 1,
            layer,
            layer_limit,
            men: true,
            unbreakable,
        })
    }

    /// The counted phase of a material where a counter with a position condition
    /// applies.
    fn conditional(set: &RuleSet, material: &Material) -> Option<Counted> {
        let drawing: Vec<(usize, u32)> = set
            .counters
            .iter()
            .enumerate()
            .filter(|(_, c)| c.draws)
            .filter_map(|(i, c)| c.limit_plies(material).map(|l| (i, l)))
            .collect();
        let mut conditional = drawing
            .iter()
            .filter(|&&(i, _)| set.counters[i].condition.is_some());
        let &(cond, cond_limit) = conditional.next()?;
        let resets = set.counters[cond].resets;
        if conditional.next().is_some() || resets.man_move || resets.promotion {
            return None;
        }
        let men = material.white_men + material.black_men > 0;
        let (mut layer, mut unbreakable) = (Vec::new(), Vec::new());
        for &(i, limit) in drawing.iter().filter(|&&(i, _)| i != cond) {
            let resets = set.counters[i].resets;
            if !men || (resets.man_move && resets.capture) {
                layer.push((i, limit));
            } else if resets.promotion && resets.capture {
                unbreakable.push((i, limit));
            } else {
                return None;
            }
        }
        let layer_limit = layer.iter().map(|&(_, l)| l).min()?;
        Some(Counted {
            cond: Some(cond),
            cond_limit,
            layer,
            layer_limit,
            men,
            unbreakable,
        })
    }

    /// The conditional counter's number in the set, if there is one.
    pub fn cond(&self) -> Option<usize> {
        self.cond
    }

    /// The conditional counter's limit in plies, `K` (1 without one).
    pub fn cond_limit(&self) -> u32 {
        self.cond_limit
    }

    /// The numbers in the set of the layer counters.
    pub fn layer_counters(&self) -> Vec<usize> {
        self.layer.iter().map(|&(i, _)| i).collect()
    }

    /// The numbers in the set of the unbreakable counters.
    pub fn unbreakable_counters(&self) -> Vec<usize> {
        self.unbreakable.iter().map(|&(i, _)| i).collect()
    }

    /// The layer limit in plies, `H`.
    pub fn layer_limit(&self) -> u32 {
        self.layer_limit
    }

    /// Whether man moves restart the layer count (men on the board); else every
    /// move raises it and only layer 0 is stored.
    pub fn men(&self) -> bool {
        self.men
    }

    /// The layers stored per conditional count: `H` with men, else 1.
    pub fn layers(&self) -> u32 {
        if self.men {
            self.layer_limit
        } else {
            1
        }
    }

    /// Stored states per position: `K` conditional counts times [`Counted::layers`].
    pub fn sheets(&self) -> u32 {
        self.cond_limit * self.layers()
    }

    /// The stored state of layer count `c` and conditional count `k` (0 where the
    /// condition does not hold): `k * layers + c`, `c` 0 without men.
    pub fn sheet(&self, c: u32, k: u32) -> u32 {
        k * self.layers() + if self.men { c } else { 0 }
    }

    /// Whether the conditional counter is in force in `pos` (never without one).
    pub fn cond_holds<V: Variant>(&self, set: &RuleSet, pos: &Position<V>) -> bool {
        self.cond.is_some_and(|i| set.counters[i].applies_at(pos))
    }

    /// Counts with the conditional counter at `k` where it is in force (`holds`),
    /// every other count 0.
    pub fn cond_counts(&self, k: u32, holds: bool) -> Counts {
        let mut counts = [0; MAX_COUNTERS];
        if let (Some(i), true) = (self.cond, holds) {
            counts[i] = k;
        }
        counts
    }

    /// The layer count of `counts`: `H` minus the least budget left among the
    /// layer counters (`H` or more: a limit is reached).
    pub fn layer_count(&self, counts: &Counts) -> u32 {
        let left = least_left(&self.layer, counts);
        self.layer_limit.saturating_sub(left)
    }

    /// The stored state of `counts` in a position where the conditional counter is
    /// in force (`holds`) or not. The counts must reach no limit.
    pub fn sheet_of(&self, counts: &Counts, holds: bool) -> u32 {
        let k = match (self.cond, holds) {
            (Some(i), true) => counts[i],
            _ => 0,
        };
        self.sheet(self.layer_count(counts), k)
    }

    /// The plies the sub-phase may still last: the least budget left among the
    /// unbreakable counters, or among the layer counters without men.
    pub fn budget(&self, counts: &Counts) -> u32 {
        if self.men {
            least_left(&self.unbreakable, counts)
        } else {
            least_left(&self.layer, counts)
        }
    }

    /// The value under the rules of a state whose stored `D` is `stored`, with
    /// `counts`: `stored` if it is a win or a loss within [`Counted::budget`]
    /// plies, else a draw.
    pub fn decide(&self, stored: Dtc, counts: &Counts) -> Dtc {
        match stored.distance() {
            Some(d) if u32::from(d) <= self.budget(counts) => stored,
            _ => Dtc::DRAW,
        }
    }

    /// The counter that turns a theoretical result into a draw in a state whose
    /// stored `D` is `stored` and, with the conditional count at 0, `relaxed`: a
    /// win or loss longer than the budget names the counter with the least budget;
    /// a draw that a fresh conditional count would undo names the conditional
    /// counter; any other draw the conditional counter where it is in force, else
    /// the layer counter with the least budget.
    pub(super) fn binding(&self, stored: Dtc, relaxed: Dtc, counts: &Counts, holds: bool) -> usize {
        let fallback = self.cond.unwrap_or(self.layer[0].0);
        let least = |counters: &[(usize, u32)]| {
            counters
                .iter()
                .min_by_key(|&&(i, l)| l.saturating_sub(counts[i]))
                .map_or(fallback, |&(i, _)| i)
        };
        if stored.distance().is_some() {
            return least(if self.men {
                &self.unbreakable
            } else {
                &self.layer
            });
        }
        if holds && (self.decide(relaxed, counts) != Dtc::DRAW || relaxed == Dtc::DRAW) {
            return fallback;
        }
        least(&self.layer)
    }
}

/// The least budget left (limit minus count, in plies) among `counters`, or
/// `u32::MAX` for none.
fn least_left(counters: &[(usize, u32)], counts: &Counts) -> u32 {
    counters
        .iter()
        .map(|&(i, limit)| limit.saturating_sub(counts[i]))
        .min()
        .unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::presets;

    fn material(wm: u32, wk: u32, bm: u32, bk: u32) -> Material {
        Material {
            white_men: wm,
            white_kings: wk,
            black_men: bm,
            black_kings: bk,
        }
    }

    #[test]
    fn r3_materials_are_counted_and_others_are_not() {
        let set = presets::russian();
        let kings = Counted::of(&set, &material(0, 3, 0, 1)).expect("three kings v one");
        assert!(!kings.men());
        assert_eq!((kings.cond_limit(), kings.layer_limit()), (10, 30));
        assert_eq!(kings.sheets(), 10);
        let man = Counted::of(&set, &material(1, 2, 0, 1)).expect("two kings and a man");
        assert!(man.men());
        assert_eq!(man.sheets(), 300);
        assert!(Counted::of(&set, &material(2, 1, 0, 1)).is_some());
        assert!(Counted::of(&set, &material(0, 2, 0, 1)).is_none());
        assert!(Counted::of(&set, &material(0, 4, 0, 1)).is_none());
        assert!(Counted::of(&presets::fmjd(), &material(0, 3, 0, 1)).is_none());
    }

    #[test]
    fn counts_map_to_sheets_and_budgets() {
        let set = presets::russian();
        let kings = Counted::of(&set, &material(0, 3, 0, 1)).unwrap();
        // R1, R2, R3, R4: R1 at 4 plies, R2 at 40 (20 left), R3 at 3.
        let counts = [4, 40, 3, 0, 0, 0, 0, 0];
        assert_eq!(kings.layer_count(&counts), 10);
        assert_eq!(kings.sheet_of(&counts, true), 3);
        assert_eq!(kings.sheet_of(&counts, false), 0);
        assert_eq!(kings.budget(&counts), 20);
        assert_eq!(kings.decide(Dtc::win(20), &counts), Dtc::win(20));
        assert_eq!(kings.decide(Dtc::win(21), &counts), Dtc::DRAW);
        let man = Counted::of(&set, &material(1, 2, 0, 1)).unwrap();
        let counts = [0, 50, 7, 12, 0, 0, 0, 0];
        assert_eq!(man.sheet_of(&counts, true), 7 * 30 + 12);
        assert_eq!(man.budget(&counts), 10);
        assert_eq!(man.decide(Dtc::loss(10), &counts), Dtc::loss(10));
        assert_eq!(man.decide(Dtc::loss(11), &counts), Dtc::DRAW);
    }
}
