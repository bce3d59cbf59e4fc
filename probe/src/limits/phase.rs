//! Phases: where a DTC table answers a rule query exactly.
//!
//! A *phase* runs from one position with fresh counters to the next *exit*: a
//! conversion (capture or promotion) after which every counter in force has
//! count 0, because the move restarted it or because it was not in force before
//! ([`is_exit`]). A conversion that leaves a counter running (R3, I2 and I3 count
//! through promotions and some captures) does not end the phase. A DTC table
//! stores, per position, the plies to the end of the phase under best play, where
//! an exit counts as won only if the position it reaches is won under the rules
//! with fresh counters (`formats/FORMAT.md`, "DTC, RWDL and DTZ tables").
//!
//! Whether "win within the limits" follows from that one number depends on how
//! the counters in force can bind during the phase. [`Phase::of`] works this out
//! once per material, from the rule set as data:
//!
//! - a counter that nothing restarts inside the phase is **unbreakable**: the win
//!   must reach its exit before that counter's limit;
//! - a counter that man moves restart (R4, I1) while both sides have kings and men
//!   are on the board is **resettable**: it can cut a phase short but may also be
//!   restarted, so it bounds the answer from one side only;
//! - a counter that man moves restart, in a material where one side has only men,
//!   **never binds**: that side moves a man every turn, so the count never passes
//!   1 ply (as long as it starts at least 2 plies below its limit);
//! - a counter with a position condition (R3: the lone king on the main road)
//!   that the material allows makes the phase **inexact**: it can start and stop
//!   inside the phase, so the DTC value does not decide; the counted tables do
//!   (`super::counted`), or else a search over (position, counters).
//!
//! With `B_pess` the least remaining budget over unbreakable and resettable
//! counters and `B_opt` the least over unbreakable ones, a DTC win in `d` plies is
//! a win under the rules when `d <= B_pess` (no counter can reach its limit first)
//! and a draw when `d > B_opt` (an unbreakable counter reaches its limit first,
//! whatever the play); in between only a search decides ([`Phase::decide`]).
//! The same holds for a DTC loss with the sides exchanged.
//!
//! A phase that crosses conversions (a chain such as 1K2M v K, then 2K1M v K after
//! a promotion, under I2) is exact only if every counter that restarts at such a
//! conversion has a limit at least that of the counters that keep running, so it
//! cannot bind first, and every material of the chain is exact too.

use damka_core::{Material, Position, Variant};
use damka_formats::{Dtc, Wdl};

use super::counter::Counter;
use super::events::Events;
use super::ruleset::RuleSet;
use damka_core::moves::Move;

/// Counters with their limits: `(number in the set, limit in plies)`.
pub type Limits = Vec<(usize, u32)>;

/// How a counter in force can bind inside a phase (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Nothing restarts it before the phase ends.
    Unbreakable,
    /// Man moves may restart it.
    Resettable,
    /// One side moves a man every turn and restarts it.
    NeverBinds,
}

/// What the rule set means for the phases of one material.
#[derive(Debug, Clone)]
pub struct Phase {
    /// `(counter index in the set, its role, its limit in plies)` for each
    /// drawing counter that applies to the material.
    roles: Vec<(usize, Role, u32)>,
    /// Why the DTC table alone cannot answer, if it cannot.
    inexact: Option<String>,
    /// Whether the phase can run on through a conversion.
    chained: bool,
    /// Whether men are on the board.
    men: bool,
}

/// What a phase says about one query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The answer: win, draw or loss under the rules for the side to move, the
    /// plies to the end of the phase for a win or a loss, and for a draw that
    /// cuts a theoretical result short, the counter whose limit does it.
    Decided(Wdl, Option<u16>, Option<usize>),
    /// Only a search decides.
    Search,
}

impl Phase {
    /// Works out the phase of `material` under `set`.
    pub fn of(set: &RuleSet, material: &Material) -> Phase {
        let mut inexact = None;
        for counter in drawing(set) {
            if counter.condition.is_some() && counter.applies(material) {
                inexact = Some(format!(
                    "{} depends on where the pieces stand ({}), so it can start inside a phase",
                    counter.id,
                    counter.condition.map(|c| c.to_string()).unwrap_or_default()
                ));
            }
        }
        let chained = inexact.is_none() && chain_is_inexact(set, material, &mut inexact);
        let has_men = material.white_men + material.black_men > 0;
        let kingless_side = material.white_kings == 0 || material.black_kings == 0;
        let roles = set
            .counters
            .iter()
            .enumerate()
            .filter(|(_, c)| c.draws && c.condition.is_none())
            .filter_map(|(i, c)| {
                let limit = c.limit_plies(material)?;
                let role = if c.resets.man_move && has_men {
                    if kingless_side && !chained {
                        Role::NeverBinds
                    } else {
                        Role::Resettable
                    }
                } else if chained && (c.resets.capture || c.resets.promotion) {
                    Role::Resettable
                } else {
                    Role::Unbreakable
                };
                Some((i, role, limit))
            })
            .collect();
        Phase {
            roles,
            inexact,
            chained,
            men: has_men,
        }
    }

    /// Whether a counter that man moves restart can bind in this material (men on
    /// the board and kings on both sides): the materials that have a DTZ table.
    pub fn zeroing(&self, set: &RuleSet) -> bool {
        self.zeroing_budget(set, &[]).is_some()
    }

    /// The counter that man moves restart and that can bind here with the least
    /// remaining budget, with `played` counts (as in [`Phase::decide`]): its
    /// number in the set and that budget in plies; `None` if there is none.
    pub fn zeroing_budget(&self, set: &RuleSet, played: &[u32]) -> Option<(usize, u32)> {
        if !self.men {
            return None;
        }
        self.roles
            .iter()
            .filter(|&&(i, role, _)| role == Role::Resettable && set.counters[i].resets.man_move)
            .map(|&(i, _, limit)| (i, limit.saturating_sub(played.get(i).copied().unwrap_or(0))))
            .min_by_key(|&(_, left)| left)
    }

    /// The limits `(resettable, unbreakable)`, in plies, when the phase is one that
    /// a layered pass over the resettable counter's count decides exactly with fresh
    /// counters (`gen`'s `layers` module): the least limit of the counters of
    /// [`Phase::layered_counters`], and of the others (`u32::MAX` for none).
    pub fn layered(&self, set: &RuleSet) -> Option<(u32, u32)> {
        let (resettable, unbreakable) = self.layered_counters(set)?;
        let least = |counters: &[(usize, u32)]| counters.iter().map(|&(_, l)| l).min();
        Some((least(&resettable)?, least(&unbreakable).unwrap_or(u32::MAX)))
    }

    /// The counters of a phase that a layered pass decides: no condition and no
    /// chain, and man moves restart every resettable counter. Returns `(number in
    /// the set, limit in plies)` of the resettable counters, then of the
    /// unbreakable ones; `None` where that pass does not apply or is not needed (no
    /// resettable counter: the DTC table decides).
    pub fn layered_counters(&self, set: &RuleSet) -> Option<(Limits, Limits)> {
        if self.inexact.is_some() || self.chained {
            return None;
        }
        let (mut resettable, mut unbreakable) = (Vec::new(), Vec::new());
        for &(i, role, limit) in &self.roles {
            match role {
                Role::Resettable if set.counters[i].resets.man_move => resettable.push((i, limit)),
                Role::Resettable => return None,
                Role::Unbreakable => unbreakable.push((i, limit)),
                Role::NeverBinds => {}
            }
        }
        if resettable.is_empty() {
            return None;
        }
        Some((resettable, unbreakable))
    }

    /// Why the table alone cannot answer in this material, if so.
    pub fn inexact(&self) -> Option<&str> {
        self.inexact.as_deref()
    }

    /// Whether a conversion may leave a counter running, so that the phase goes on
    /// in the material it reaches ([`is_exit`] false): where a counter with a
    /// position condition applies (it may be in force on both sides of the
    /// conversion), or where a chain continues. Otherwise every conversion out of
    /// this material is an exit, and the DTC tables of the materials it reaches
    /// are never read by its own.
    pub fn continues_through_conversions(&self) -> bool {
        self.inexact.is_some() || self.chained
    }
    /// The answer for a position of this material whose DTC value is `dtc`, with
    /// `played` counts, when the win must also end the phase within `extra` plies
    /// (`u32::MAX` for no such bound). The position must not be terminal: it has
    /// a legal move and no counter has reached its limit.
    /// `played` holds the counts in plies by counter number in `set` (missing
    /// numbers count 0).
    pub fn decide(&self, dtc: Dtc, played: &[u32], extra: u32) -> Verdict {
        if self.inexact.is_some() {
            return Verdict::Search;
        }
        let (mut pess, mut opt, mut binding) = (extra, extra, None);
        for &(i, role, limit) in &self.roles {
            let left = limit.saturating_sub(played.get(i).copied().unwrap_or(0));
            match role {
                Role::NeverBinds if left >= 2 => {}
                Role::NeverBinds => return Verdict::Search,
                Role::Resettable => pess = pess.min(left),
                Role::Unbreakable => {
                    pess = pess.min(left);
                    if left < opt {
                        opt = left;
                        binding = Some(i);
                    }
                }
            }
        }
        let (wdl, d) = match (dtc.wdl(), dtc.distance()) {
            (Wdl::Draw, _) | (_, None) => return Verdict::Decided(Wdl::Draw, None, None),
            (wdl, Some(d)) => (wdl, d),
        };
        if u32::from(d) <= pess {
            Verdict::Decided(wdl, Some(d), None)
        } else if u32::from(d) > opt {
            Verdict::Decided(Wdl::Draw, None, binding)
        } else {
            Verdict::Search
        }
    }
}

/// The counters of `set` that draw when they reach their limit.
fn drawing(set: &RuleSet) -> impl Iterator<Item = &Counter> {
    set.counters.iter().filter(|c| c.draws)
}

/// Whether `mv`, a legal move from `pos` to `after`, ends a phase: it is a
/// conversion, and every drawing counter in force in `after` either restarts on
/// it or was not in force in `pos`.
pub fn is_exit<V: Variant>(
    set: &RuleSet,
    pos: &Position<V>,
    mv: &Move,
    after: &Position<V>,
) -> bool {
    ExitTest::new(set).is_exit(pos, mv, after)
}

/// [`is_exit`] for the moves of one position, each drawing counter's being in
/// force there found once, when a conversion first asks: a reader that tests
/// every move of a position (the rule verifier) spent a tenth of its time
/// finding the same materials and conditions again for each capture.
pub struct ExitTest<'a> {
    set: &'a RuleSet,
    /// Bit `i`: whether the `i`-th drawing counter is in force in the position
    /// is known.
    known: u32,
    /// Bit `i`: the `i`-th drawing counter is in force in the position.
    in_force: u32,
}

impl<'a> ExitTest<'a> {
    /// The test for the moves of one position under `set`.
    pub fn new(set: &'a RuleSet) -> ExitTest<'a> {
        ExitTest {
            set,
            known: 0,
            in_force: 0,
        }
    }

    /// Whether `mv`, a legal move from `pos` to `after`, ends a phase
    /// ([`is_exit`]). `pos` must be the same position at every call.
    pub fn is_exit<V: Variant>(
        &mut self,
        pos: &Position<V>,
        mv: &Move,
        after: &Position<V>,
    ) -> bool {
        if !mv.is_capture() && !mv.is_promotion() {
            return false;
        }
        let events = Events::of_move(pos, mv);
        let set = self.set;
        drawing(set)
            .enumerate()
            .all(|(i, c)| c.resets_on(events) || !self.in_force(i, c, pos) || !c.applies_at(after))
    }

    /// Whether `counter`, the `i`-th drawing counter, is in force in `pos`.
    fn in_force<V: Variant>(&mut self, i: usize, counter: &Counter, pos: &Position<V>) -> bool {
        let bit = 1 << i;
        if self.known & bit == 0 {
            self.known |= bit;
            if counter.applies_at(pos) {
                self.in_force |= bit;
            }
        }
        self.in_force & bit != 0
    }
}

/// The materials a conversion can lead to from `material`, with the events that
/// conversion can have: captures by either side (of one piece or more, by a man
/// or a king, crowning or not) and quiet promotions. A material in which a side
/// has no pieces ends the game and is left out.
fn conversions(material: &Material) -> Vec<(Material, Events)> {
    let mut out = Vec::new();
    let sides = [
        (material.white_men, material.white_kings),
        (material.black_men, material.black_kings),
    ];
    for mover in 0..2 {
        let (mm, mk) = sides[mover];
        let (om, ok) = sides[1 - mover];
        let build = |m: (u32, u32), o: (u32, u32)| {
            let (w, b) = if mover == 0 { (m, o) } else { (o, m) };
            Material {
                white_men: w.0,
                white_kings: w.1,
                black_men: b.0,
                black_kings: b.1,
            }
        };
        if mm > 0 {
            let promotion = Events {
                capture: false,
                promotion: true,
                man_move: true,
            };
            out.push((build((mm - 1, mk + 1), (om, ok)), promotion));
        }
        for taken_men in 0..=om {
            for taken_kings in 0..=ok {
                let taken = taken_men + taken_kings;
                if taken == 0 || taken == om + ok {
                    continue;
                }
                let rest = (om - taken_men, ok - taken_kings);
                if mk > 0 {
                    out.push((build((mm, mk), rest), capture(false, false)));
                }
                if mm > 0 {
                    out.push((build((mm, mk), rest), capture(true, false)));
                    out.push((build((mm - 1, mk + 1), rest), capture(true, true)));
                }
            }
        }
    }
    out
}

/// The events of a capture, by a man or not, crowning or not.
fn capture(by_man: bool, crowned: bool) -> Events {
    Events {
        capture: true,
        promotion: crowned,
        man_move: by_man,
    }
}

/// Whether a phase of `material` can continue through a conversion; records in
/// `reason` why that makes the phase inexact, if it does. A chain stays exact when
/// every counter that restarts at the conversion has a limit at least that of the
/// counters that keep running, and the material it leads to is exact itself.
fn chain_is_inexact(set: &RuleSet, material: &Material, reason: &mut Option<String>) -> bool {
    let mut chained = false;
    for (next, events) in conversions(material) {
        let running: Vec<&Counter> = drawing(set)
            .filter(|c| c.applies(material) && c.applies(&next) && !c.resets_on(events))
            .collect();
        let Some(longest) = running.iter().filter_map(|c| c.limit_plies(&next)).max() else {
            continue;
        };
        chained = true;
        let short = drawing(set)
            .filter(|c| c.applies(&next) && !running.iter().any(|r| r.id == c.id))
            .find(|c| c.limit_plies(&next).is_some_and(|l| l < longest));
        if let Some(short) = short {
            *reason = Some(format!(
                "{} keeps counting through a conversion, where {} restarts with a shorter limit",
                running[0].id, short.id
            ));
        } else if let Some(why) = Phase::of(set, &next).inexact {
            *reason = Some(why);
        }
    }
    chained
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
    fn kings_only_russian_phases_are_exact_with_every_counter_unbreakable() {
        let set = presets::russian();
        let phase = Phase::of(&set, &material(0, 4, 0, 1));
        assert!(phase.inexact().is_none());
        let roles: Vec<Role> = phase.roles.iter().map(|r| r.1).collect();
        assert_eq!(roles, [Role::Unbreakable; 3], "R1, R2, R4");
    }

    #[test]
    fn the_main_road_rule_makes_its_materials_inexact() {
        let set = presets::russian();
        for m in [
            material(0, 3, 0, 1),
            material(1, 2, 0, 1),
            material(2, 1, 0, 1),
        ] {
            assert!(Phase::of(&set, &m).inexact().is_some(), "{m:?}");
        }
        assert!(Phase::of(&set, &material(0, 2, 0, 1)).inexact().is_none());
    }

    #[test]
    fn men_with_kings_on_both_sides_make_r4_resettable() {
        let set = presets::russian();
        let phase = Phase::of(&set, &material(1, 1, 0, 1));
        let roles: Vec<(String, Role)> = phase
            .roles
            .iter()
            .map(|&(i, role, _)| (set.counters[i].id.clone(), role))
            .collect();
        assert_eq!(
            roles,
            [
                ("R2".to_string(), Role::Unbreakable),
                ("R4".to_string(), Role::Resettable)
            ]
        );
        let kingless = Phase::of(&set, &material(0, 2, 1, 0));
        assert_eq!(kingless.roles[0].1, Role::NeverBinds);
    }

    #[test]
    fn fmjd_chains_through_promotions_stay_exact() {
        let set = presets::fmjd();
        for m in [
            material(2, 1, 0, 1),
            material(1, 1, 0, 1),
            material(0, 2, 0, 1),
        ] {
            let phase = Phase::of(&set, &m);
            assert!(phase.inexact().is_none(), "{m:?}: {:?}", phase.inexact());
        }
    }

    #[test]
    fn fmjd_chains_decide_every_count_a_game_can_reach() {
        // I2's and I3's classes begin with a capture or a promotion, both of which
        // restart I1, and I2 and I3 count every ply after, so in a game I1's count
        // never exceeds the class's. I1's 50 plies then never bind before I2's 32
        // or I3's 10: the DTC value decides. Only counts no game reaches (I1 ahead
        // of the class's count by more than the limits differ) leave it open.
        let set = presets::fmjd();
        let id = |name: &str| set.counters.iter().position(|c| c.id == name).unwrap();
        let (i1, i2, i3) = (id("I1"), id("I2"), id("I3"));
        for (m, class) in [
            (material(2, 1, 0, 1), i2),
            (material(1, 2, 0, 1), i2),
            (material(0, 3, 0, 1), i2),
            (material(1, 1, 0, 1), i3),
            (material(0, 2, 0, 1), i3),
        ] {
            let phase = Phase::of(&set, &m);
            let class_limit = set.counters[class].limit_plies(&m).unwrap();
            let kings_limit = set.counters[i1].limit_plies(&m).unwrap();
            let mut open = 0;
            for class_count in 0..class_limit {
                for kings_count in 0..kings_limit {
                    let mut played = vec![0; set.counters.len()];
                    played[class] = class_count;
                    played[i1] = kings_count;
                    for dtc in (1..=64).flat_map(|d| [Dtc::win(d), Dtc::loss(d)]) {
                        let verdict = phase.decide(dtc, &played, u32::MAX);
                        if kings_count <= class_count {
                            assert_ne!(verdict, Verdict::Search, "{m:?} {played:?} {dtc:?}");
                        } else if verdict == Verdict::Search {
                            open += 1;
                        }
                    }
                }
            }
            assert_eq!(phase.chained, open > 0, "{m:?}: {open} open");
        }
    }

    /// Every conversion of every `step`-th position of up to `pieces` pieces is
    /// an exit where the material's phase says none continues; returns how many
    /// conversions were not exits (in the materials where some may continue).
    /// On the way, checks [`is_exit`] and an [`ExitTest`] kept over each
    /// position's moves against the definition, counter by counter.
    fn conversions_that_continue<V: Variant>(set: &RuleSet, pieces: u32, step: u64) -> usize {
        let mut continuing = 0;
        for slice in damka_core::build_order::<V>(pieces) {
            let phase = Phase::of(set, &slice.material());
            let indexer = damka_core::SliceIndexer::<V>::new(slice).unwrap();
            for index in (0..indexer.size()).step_by(step as usize) {
                let pos = indexer.position(index);
                let mut test = ExitTest::new(set);
                for mv in damka_core::legal_moves(&pos) {
                    let after = damka_core::apply(&pos, &mv);
                    let events = Events::of_move(&pos, &mv);
                    let defined = (mv.is_capture() || mv.is_promotion())
                        && drawing(set).all(|c| {
                            !c.applies_at(&after) || !c.applies_at(&pos) || c.resets_on(events)
                        });
                    assert_eq!(test.is_exit(&pos, &mv, &after), defined, "{pos} {mv:?}");
                    assert_eq!(is_exit(set, &pos, &mv, &after), defined, "{pos} {mv:?}");
                    if !mv.is_capture() && !mv.is_promotion() {
                        continue;
                    }
                    if !is_exit(set, &pos, &mv, &after) {
                        assert!(phase.continues_through_conversions(), "{slice}: {mv:?}");
                        continuing += 1;
                    }
                }
            }
        }
        continuing
    }

    #[test]
    fn only_materials_whose_phase_continues_have_conversions_that_are_not_exits() {
        let continuing =
            conversions_that_continue::<damka_core::Russian>(&presets::russian(), 4, 7);
        assert!(continuing > 0, "R3 counts through promotions");
        let continuing =
            conversions_that_continue::<damka_core::International>(&presets::fmjd(), 4, 31);
        assert!(continuing > 0, "I2 and I3 count through promotions");
        conversions_that_continue::<damka_core::Russian>(&presets::russian_1900(), 4, 7);
    }

    #[test]
    fn only_materials_with_men_and_kings_on_both_sides_have_dtz() {
        let russian = presets::russian();
        let phase = Phase::of(&russian, &material(1, 1, 0, 1));
        assert!(phase.zeroing(&russian));
        assert_eq!(
            phase.zeroing_budget(&russian, &[0, 0, 0, 10]),
            Some((3, 20))
        );
        assert!(!Phase::of(&russian, &material(0, 3, 0, 1)).zeroing(&russian));
        assert!(!Phase::of(&russian, &material(0, 2, 1, 0)).zeroing(&russian));
        let fmjd = presets::fmjd();
        assert!(
            !Phase::of(&fmjd, &material(0, 2, 0, 1)).zeroing(&fmjd),
            "a chain, no men"
        );
        assert!(Phase::of(&fmjd, &material(2, 1, 0, 1)).zeroing(&fmjd));
    }

    #[test]
    fn decide_uses_both_bounds() {
        let set = presets::russian();
        let phase = Phase::of(&set, &material(1, 1, 0, 1));
        let fresh = [0; 4];
        // R2 (3 pieces): 10 plies, unbreakable; R4: 30 plies, resettable.
        assert_eq!(
            phase.decide(Dtc::win(9), &fresh, u32::MAX),
            Verdict::Decided(Wdl::Win, Some(9), None)
        );
        assert_eq!(
            phase.decide(Dtc::win(11), &fresh, u32::MAX),
            Verdict::Decided(Wdl::Draw, None, Some(1))
        );
        let late = [0, 0, 0, 25];
        assert_eq!(phase.decide(Dtc::win(9), &late, u32::MAX), Verdict::Search);
    }
}
