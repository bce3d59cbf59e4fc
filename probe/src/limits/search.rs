//! The bounded search behind the rule-aware probe ([`RuleTablebase::probe_rules`],
//! in [`super::session`]), and the answer it gives.
//!
//! A query is a position and the counts already played. In the materials of a
//! counter with a position condition (R3), the counted tables answer with a one-ply
//! search (`super::counted`). Where the phase analysis ([`super::phase`]) says the
//! DTC table decides, the answer is read from it. Elsewhere a search over
//! (position, counters) states decides: an AND-OR search with the rule set's own
//! counting ([`RuleSet::advance`],
//! [`RuleSet::limit_reached`]), memoised per query, which stops at every state
//! the tables decide, at every exit (valued from the RWDL table, since counters
//! are fresh there), and at the end of the game. The search proves "the side to
//! move ends the phase with a win within `e` plies" for growing `e`, which gives
//! the distance too. It is exact; when it would exceed its node or depth budget it
//! gives up and the answer is *unknown*, with the reason, never a guess.
//!
//! A caller that cannot wait (a server answering over the network) passes a
//! deadline ([`RuleTablebase::probe_rules_until`], [`RuleTablebase::session`]):
//! the search then also gives up when the clock passes it, and the answer is
//! *unknown* with the reason [`TIME_LIMIT`], so the thread is free again at once.
//! A session can also be cancelled from another thread
//! ([`super::RuleSession::cancel_on`]; the reason is then [`CANCELLED`]), for a
//! caller whose client went away.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use damka_core::{Position, Variant};
use damka_formats::{RuleWdl, Wdl};

use super::phase::{is_exit, Verdict};
use super::ruleset::{Counts, RuleSet, MAX_COUNTERS};
use super::tables::RuleTablebase;
use crate::error::ProbeError;
use damka_core::movegen::legal_moves;
use damka_core::moves::{apply, Move};

/// Search states one query may visit before it answers *unknown*.
pub const NODE_LIMIT: u64 = 4_000_000;
/// Plies one line of the search may reach before it answers *unknown* (a rule
/// set whose counters do not all tick could otherwise cycle).
pub const DEPTH_LIMIT: u32 = 600;
/// No bound on the plies to the end of the phase.
pub(super) const UNBOUNDED: u32 = u32::MAX;
/// The reason of an *unknown* answer whose search passed its deadline.
pub const TIME_LIMIT: &str = "time limit";
/// The reason of an *unknown* answer whose search was cancelled.
pub const CANCELLED: &str = "cancelled";
/// Search states visited between two looks at the clock.
const CLOCK_EVERY: u64 = 256;
/// Memo entries a search shared by several queries keeps before it empties the
/// memo.
const MEMO_ENTRIES: usize = 4_000_000;

/// The answer to a rule query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleOutcome {
    /// The value under the rules next to the theoretical one; `None` when the
    /// query could not be answered exactly (see `unknown`).
    pub wdl: Option<RuleWdl>,
    /// The game-theoretic value, with no rules.
    pub theory: Wdl,
    /// For a cursed win or a blessed loss, the counter whose limit draws the game.
    pub rule: Option<String>,
    /// For a win or a loss, plies to the end of the current phase (the next
    /// conversion after which every counter starts afresh) under best play; in
    /// the materials of a counter with a position condition (R3's), to the next
    /// capture or promotion, which restarts every counter but that one.
    pub distance: Option<u16>,
    /// The move that keeps the win inside the limits; for a loss, the longest
    /// defence; for a draw, a move that keeps it (the theoretically best of them).
    pub best_move: Option<Move>,
    /// Why the query has no exact answer, when it has none.
    pub unknown: Option<String>,
}

/// A rule answer as one value: what [`RuleOutcome`] says, with the rule and the
/// distance where they apply.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RuleAnswer {
    /// The side to move wins within the limits, ending the phase in `distance`
    /// plies under best play.
    Win {
        /// Plies to the end of the phase.
        distance: u16,
    },
    /// A theoretical win that counter `rule` draws.
    CursedWin {
        /// The counter whose limit draws the game.
        rule: String,
    },
    /// A draw, in theory too.
    Draw,
    /// A theoretical loss that counter `rule` saves.
    BlessedLoss {
        /// The counter whose limit draws the game.
        rule: String,
    },
    /// The side to move loses within the limits, the phase ending in `distance`
    /// plies under best play.
    Loss {
        /// Plies to the end of the phase.
        distance: u16,
    },
    /// The tables and a bounded search could not make the answer exact.
    Unknown {
        /// Why.
        reason: String,
    },
}

impl std::fmt::Display for RuleAnswer {
    /// `win in 18 plies`, `cursed win (drawn by R1)`, `draw`, `blessed loss (drawn
    /// by R1)`, `loss in 7 plies`, `unknown (why)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RuleAnswer::Win { distance } => write!(f, "win in {distance} plies"),
            RuleAnswer::CursedWin { rule } => write!(f, "cursed win (drawn by {rule})"),
            RuleAnswer::Draw => f.write_str("draw"),
            RuleAnswer::BlessedLoss { rule } => write!(f, "blessed loss (drawn by {rule})"),
            RuleAnswer::Loss { distance } => write!(f, "loss in {distance} plies"),
            RuleAnswer::Unknown { reason } => write!(f, "unknown ({reason})"),
        }
    }
}

impl RuleOutcome {
    /// The answer as one value.
    pub fn answer(&self) -> RuleAnswer {
        let rule = || self.rule.clone().unwrap_or_default();
        let distance = self.distance.unwrap_or(0);
        match self.wdl {
            Some(RuleWdl::Win) => RuleAnswer::Win { distance },
            Some(RuleWdl::CursedWin) => RuleAnswer::CursedWin { rule: rule() },
            Some(RuleWdl::Draw) => RuleAnswer::Draw,
            Some(RuleWdl::BlessedLoss) => RuleAnswer::BlessedLoss { rule: rule() },
            Some(RuleWdl::Loss) => RuleAnswer::Loss { distance },
            None => RuleAnswer::Unknown {
                reason: self.unknown.clone().unwrap_or_default(),
            },
        }
    }
}

/// Why a search stopped early.
pub(super) enum Stop {
    /// A table could not be read.
    Probe(ProbeError),
    /// The node or depth budget ran out.
    Budget(String),
}

impl From<ProbeError> for Stop {
    fn from(error: ProbeError) -> Stop {
        Stop::Probe(error)
    }
}

/// The memo key of a search state and goal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    pieces: [u64; 3],
    white_to_move: bool,
    counts: Counts,
    extra: u32,
    wins: bool,
}

/// One query's search, or one batch's (the memo is shared by the batch).
pub(super) struct Search<'a, V: Variant> {
    tables: &'a RuleTablebase<V>,
    set: &'a RuleSet,
    memo: HashMap<Key, bool>,
    nodes: u64,
    node_limit: u64,
    /// When to give up, if ever.
    deadline: Option<Instant>,
    /// Set from elsewhere to give up at once.
    cancel: Option<Arc<AtomicBool>>,
}

impl<'a, V: Variant> Search<'a, V> {
    pub(super) fn new(tables: &'a RuleTablebase<V>, deadline: Option<Instant>) -> Search<'a, V> {
        Search {
            tables,
            set: tables.set(),
            memo: HashMap::new(),
            nodes: 0,
            node_limit: NODE_LIMIT,
            deadline,
            cancel: None,
        }
    }

    /// Gives up as soon as `flag` is set.
    pub(super) fn cancel_on(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }

    /// Readies the search for the next query of a batch: a fresh node budget,
    /// and an empty memo once it has grown past [`MEMO_ENTRIES`].
    pub(super) fn start_query(&mut self) {
        if self.memo.len() > MEMO_ENTRIES {
            self.memo.clear();
        }
        self.nodes = 0;
    }

    fn key(&self, pos: &Position<V>, counts: &Counts, extra: u32, wins: bool) -> Key {
        Key {
            pieces: [pos.white(), pos.black(), pos.kings()],
            white_to_move: pos.side() == damka_core::Color::White,
            counts: *counts,
            extra,
            wins,
        }
    }

    /// Whether a drawing counter in force in `pos` has reached its limit.
    pub(super) fn limit_reached(&self, counts: &Counts, pos: &Position<V>) -> bool {
        self.set.limit_reached_at(counts, pos).is_some()
    }

    /// What the tables say about a non-terminal state.
    pub(super) fn verdict(
        &self,
        pos: &Position<V>,
        counts: &Counts,
        extra: u32,
    ) -> Result<Verdict, Stop> {
        let phase = self.tables.phase(pos.material())?;
        if phase.inexact().is_some() {
            return Ok(Verdict::Search);
        }
        let verdict = phase.decide(self.tables.dtc(pos)?, counts, extra);
        if verdict != Verdict::Search {
            return Ok(verdict);
        }
        // A win under the rules must zero (capture, promote or move a man) within
        // the budget of the counters that man moves restart, into a position won
        // with fresh counters: where the DTZ value says it cannot, neither side
        // wins. The bound only saves work: without a DTZ table (the generator
        // searches before it writes them) the search goes on without it.
        if let Some((counter, budget)) = phase.zeroing_budget(self.set, counts) {
            let dtz = match self.tables.dtz(pos) {
                Err(ProbeError::MissingTable { .. }) => None,
                other => other?,
            };
            if let Some(dtz) = dtz {
                let zeroes = dtz.distance().is_some_and(|d| u32::from(d) <= budget);
                if dtz.wdl() == Wdl::Draw || !zeroes {
                    return Ok(Verdict::Decided(Wdl::Draw, None, Some(counter)));
                }
            }
        }
        Ok(verdict)
    }

    /// The game-theoretic value of `pos`: the rules can only turn a win or a
    /// loss into a draw, so it bounds every search result.
    fn theory(&self, pos: &Position<V>) -> Result<damka_formats::Value, Stop> {
        Ok(self.tables.tablebase().probe_value(pos)?)
    }

    /// The moves of `pos` ordered for the side that wants `goal`: for a win, the
    /// theoretically shortest wins first; for a loss, the longest defences first,
    /// so a refutation is found early.
    fn ordered(&self, pos: &Position<V>, moves: Vec<Move>) -> Result<Vec<Move>, Stop> {
        let mut keyed = Vec::with_capacity(moves.len());
        for mv in moves {
            let value = self.theory(&apply(pos, &mv))?.back();
            keyed.push((value, mv));
        }
        keyed.sort_by(|a, b| {
            if a.0.better_than(b.0) {
                std::cmp::Ordering::Less
            } else if b.0.better_than(a.0) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
        Ok(keyed.into_iter().map(|(_, mv)| mv).collect())
    }

    /// The value under the rules of the position an exit leads to, for its side
    /// to move: counters are fresh there, so the RWDL table holds it.
    fn exit_value(&self, after: &Position<V>) -> Result<Wdl, Stop> {
        if after.pieces(after.side()) == 0 {
            return Ok(Wdl::Loss);
        }
        Ok(self.tables.rwdl(after)?.ruled())
    }

    fn spend(&mut self, depth: u32) -> Result<(), Stop> {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return Err(Stop::Budget(format!(
                "the search needed more than {} states",
                self.node_limit
            )));
        }
        if depth > DEPTH_LIMIT {
            return Err(Stop::Budget(format!(
                "the search went deeper than {DEPTH_LIMIT} plies"
            )));
        }
        if self.nodes % CLOCK_EVERY == 1 {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(Stop::Budget(TIME_LIMIT.to_string()));
            }
            if self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
            {
                return Err(Stop::Budget(CANCELLED.to_string()));
            }
        }
        Ok(())
    }

    /// Whether the side to move ends the phase with a win within `extra` plies
    /// under the rules (the game's end counts as an exit).
    fn wins(
        &mut self,
        pos: &Position<V>,
        counts: &Counts,
        extra: u32,
        depth: u32,
    ) -> Result<bool, Stop> {
        self.forced(pos, counts, extra, depth, Wdl::Win)
    }

    /// Whether the side to move loses: the other side ends the phase with a win
    /// within `extra` plies under the rules, whatever it plays.
    fn loses(
        &mut self,
        pos: &Position<V>,
        counts: &Counts,
        extra: u32,
        depth: u32,
    ) -> Result<bool, Stop> {
        self.forced(pos, counts, extra, depth, Wdl::Loss)
    }

    /// Whether the phase ends within `extra` plies with `goal` (a win or a loss)
    /// for the side to move: for a win, some move must lead to a loss for the
    /// other side; for a loss, every move to a win for it.
    fn forced(
        &mut self,
        pos: &Position<V>,
        counts: &Counts,
        extra: u32,
        depth: u32,
        goal: Wdl,
    ) -> Result<bool, Stop> {
        let moves = legal_moves(pos);
        if moves.is_empty() {
            return Ok(goal == Wdl::Loss);
        }
        if extra == 0 || self.limit_reached(counts, pos) {
            return Ok(false);
        }
        if let Verdict::Decided(wdl, _, _) = self.verdict(pos, counts, extra)? {
            return Ok(wdl == goal);
        }
        if self.theory(pos)?.wdl() != goal {
            return Ok(false);
        }
        let key = self.key(pos, counts, extra, goal == Wdl::Win);
        if let Some(&known) = self.memo.get(&key) {
            return Ok(known);
        }
        self.spend(depth)?;
        // A win needs one move that reaches the goal; a loss, that all of them do.
        let any = goal == Wdl::Win;
        let mut result = !any;
        for mv in &self.ordered(pos, moves)? {
            let after = apply(pos, mv);
            let reached = if is_exit(self.set, pos, mv, &after) {
                self.exit_value(&after)? == goal.negate()
            } else {
                let next = self.set.advance_counts(counts, pos, mv, &after);
                self.forced(&after, &next, less(extra), depth + 1, goal.negate())?
            };
            if reached == any {
                result = any;
                break;
            }
        }
        self.memo.insert(key, result);
        Ok(result)
    }

    /// The value under the rules of a state with a legal move and no limit
    /// reached.
    fn outcome(&mut self, pos: &Position<V>, counts: &Counts) -> Result<Wdl, Stop> {
        if let Verdict::Decided(wdl, _, _) = self.verdict(pos, counts, UNBOUNDED)? {
            return Ok(wdl);
        }
        Ok(if self.wins(pos, counts, UNBOUNDED, 0)? {
            Wdl::Win
        } else if self.loses(pos, counts, UNBOUNDED, 0)? {
            Wdl::Loss
        } else {
            Wdl::Draw
        })
    }

    /// The value under the rules of a state with a legal move and no limit
    /// reached, and the plies to the end of the phase for a win or a loss.
    pub(super) fn value(
        &mut self,
        pos: &Position<V>,
        counts: &Counts,
    ) -> Result<(Wdl, Option<u16>), Stop> {
        if let Verdict::Decided(wdl, distance, _) = self.verdict(pos, counts, UNBOUNDED)? {
            return Ok((wdl, distance));
        }
        let wdl = self.outcome(pos, counts)?;
        if wdl == Wdl::Draw {
            return Ok((Wdl::Draw, None));
        }
        let floor = self.tables.dtc(pos)?.distance().unwrap_or(0).max(1);
        for extra in u32::from(floor)..=u32::from(u16::MAX) {
            let done = match wdl {
                Wdl::Win => self.wins(pos, counts, extra, 0)?,
                _ => self.loses(pos, counts, extra, 0)?,
            };
            if done {
                return Ok((wdl, Some(extra as u16)));
            }
        }
        Err(Stop::Budget("no distance below 65535 plies".into()))
    }

    /// The move that keeps the outcome `wdl` (at `distance` plies for a win or a
    /// loss); among the winning or drawing moves that do, the theoretically best
    /// (so a winning line ends the game as soon as the rules allow).
    pub(super) fn best_move(
        &mut self,
        pos: &Position<V>,
        counts: &Counts,
        wdl: Wdl,
        distance: Option<u16>,
    ) -> Result<Option<Move>, Stop> {
        let moves = legal_moves(pos);
        let d = u32::from(distance.unwrap_or(0));
        let mut best: Option<(Move, damka_formats::Value)> = None;
        for mv in &moves {
            let after = apply(pos, mv);
            let exit = is_exit(self.set, pos, mv, &after);
            let next = self.set.advance_counts(counts, pos, mv, &after);
            let keeps = match (wdl, exit) {
                (Wdl::Win, true) => self.exit_value(&after)? == Wdl::Loss,
                (Wdl::Win, false) => self.loses(&after, &next, d.saturating_sub(1), 0)?,
                (Wdl::Loss, true) => d == 1,
                (Wdl::Loss, false) => d >= 2 && !self.wins(&after, &next, d - 2, 0)?,
                (Wdl::Draw, true) => self.exit_value(&after)? != Wdl::Win,
                (Wdl::Draw, false) => {
                    self.limit_reached(&next, &after) || !self.wins(&after, &next, UNBOUNDED, 0)?
                }
            };
            if !keeps {
                continue;
            }
            if wdl == Wdl::Loss {
                return Ok(Some(*mv));
            }
            let value = self.tables.tablebase().probe_value(after)?.back();
            if best.is_none_or(|(_, b)| value.better_than(b)) {
                best = Some((*mv, value));
            }
        }
        Ok(best.map(|(mv, _)| mv))
    }

    /// The counter to name for a draw that cuts a theoretical result short: the
    /// drawing counter in force nearest its limit, or, when none is in force, the
    /// first one along the theoretically best line.
    pub(super) fn cursing_rule(
        &self,
        pos: &Position<V>,
        counts: &Counts,
    ) -> Result<Option<String>, Stop> {
        let mut pos = *pos;
        let mut counts = *counts;
        for _ in 0..DEPTH_LIMIT {
            let material = pos.material();
            let nearest = self
                .set
                .counters
                .iter()
                .enumerate()
                .filter(|(_, c)| c.draws && c.applies_at(&pos))
                .filter_map(|(i, c)| {
                    c.limit_plies(&material)
                        .map(|l| (l.saturating_sub(counts[i]), c))
                })
                .min_by_key(|(left, _)| *left);
            if let Some((_, counter)) = nearest {
                return Ok(Some(counter.id.clone()));
            }
            let Some(mv) = self.tables.tablebase().best_move(pos)? else {
                return Ok(None);
            };
            let after = apply(&pos, &mv);
            counts = self.set.advance_counts(&counts, &pos, &mv, &after);
            pos = after;
        }
        Ok(None)
    }
}

/// `extra` one ply later.
fn less(extra: u32) -> u32 {
    if extra == UNBOUNDED {
        UNBOUNDED
    } else {
        extra - 1
    }
}

impl<V: Variant> RuleTablebase<V> {
    /// The values of `positions` under the rules with fresh counters, by the
    /// search, sharing one memo (positions of one slice share most of their
    /// search states). `None` where the search gave up after `node_limit` states
    /// for one position.
    #[doc(hidden)]
    pub fn fresh_values(
        &self,
        positions: &[Position<V>],
        node_limit: u64,
    ) -> Result<Vec<Option<Wdl>>, ProbeError> {
        let mut search = Search::new(self, None);
        let counts = [0; MAX_COUNTERS];
        let mut out = Vec::with_capacity(positions.len());
        for pos in positions {
            search.start_query();
            search.node_limit = node_limit;
            if pos.pieces(pos.side()) == 0 || legal_moves(pos).is_empty() {
                out.push(Some(Wdl::Loss));
                continue;
            }
            if search.limit_reached(&counts, pos) {
                out.push(Some(Wdl::Draw));
                continue;
            }
            out.push(match search.outcome(pos, &counts) {
                Ok(wdl) => Some(wdl),
                Err(Stop::Probe(error)) => return Err(error),
                Err(Stop::Budget(_)) => None,
            });
        }
        Ok(out)
    }
}
