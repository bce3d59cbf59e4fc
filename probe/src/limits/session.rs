//! Rule queries: [`RuleTablebase::probe_rules`] and [`RuleTablebase::pv_rules`],
//! their variants with a deadline, and [`RuleSession`], which runs several
//! queries over one search memo.
//!
//! Each query answers from the tables where they decide and otherwise searches
//! ([`super::search`]). A session keeps the search's memo from one query to the
//! next: the positions of a line, or the successors of one position, share most
//! of their search states, so a session answers them in a fraction of the time
//! separate queries take, with the same answers (the memo holds only exact
//! results; each query still gets the whole node budget).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use damka_core::{Position, Variant};
use damka_formats::{RuleWdl, Wdl};

use super::counters::Counters;
use super::phase::Verdict;
use super::search::{RuleOutcome, Search, Stop, UNBOUNDED};
use super::tables::RuleTablebase;
use crate::error::ProbeError;
use crate::query::Query;
use crate::tablebase::PV_DRAW_PLIES;
use damka_core::movegen::legal_moves;
use damka_core::moves::{apply, Move};

/// Rule queries that share one search memo and, optionally, one deadline
/// ([`RuleTablebase::session`]). Its answers are those of
/// [`RuleTablebase::probe_rules`] and [`RuleTablebase::pv_rules`]; past the
/// deadline, a query that needs a search answers *unknown* with the reason
/// [`super::TIME_LIMIT`].
pub struct RuleSession<'a, V: Variant> {
    tables: &'a RuleTablebase<V>,
    search: Search<'a, V>,
    /// Whether the counted tables answer in the materials that have them
    /// (`super::counted`); off only to check them against the search.
    counted: bool,
}

impl<V: Variant> RuleTablebase<V> {
    /// A session of queries sharing one search memo, giving up their searches at
    /// `deadline` if one is given.
    pub fn session(&self, deadline: Option<Instant>) -> RuleSession<'_, V> {
        RuleSession {
            tables: self,
            search: Search::new(self, deadline),
            counted: true,
        }
    }

    /// [`RuleTablebase::probe_rules`] by the search alone, even where a counted
    /// table answers: the reference the counted tables are checked against.
    #[doc(hidden)]
    pub fn probe_rules_searched(
        &self,
        pos: impl Query<V>,
        played: &Counters,
    ) -> Result<RuleOutcome, ProbeError> {
        let mut session = self.session(None);
        session.counted = false;
        session.probe_rules(pos, played)
    }

    /// The value of `pos` under the rule set, given the counts already `played`,
    /// with the theoretical value, the distance to the end of the phase, the rule
    /// that draws a cursed win or blessed loss, and a best move
    /// ([`RuleOutcome::answer`] gives it as one value). A count for a counter not
    /// in force in `pos` is [`ProbeError::NotInForce`]. An answer the tables and a
    /// bounded search cannot make exact comes back with `wdl: None` and the reason.
    pub fn probe_rules(
        &self,
        pos: impl Query<V>,
        played: &Counters,
    ) -> Result<RuleOutcome, ProbeError> {
        self.session(None).probe_rules(pos, played)
    }

    /// [`RuleTablebase::probe_rules`] that gives up at `deadline`: a search still
    /// running then stops, and the answer is *unknown* with the reason
    /// [`super::TIME_LIMIT`] (a best move or a rule still being looked for is left
    /// out). Answers the tables give without a search come whatever the clock
    /// says.
    pub fn probe_rules_until(
        &self,
        pos: impl Query<V>,
        played: &Counters,
        deadline: Instant,
    ) -> Result<RuleOutcome, ProbeError> {
        self.session(Some(deadline)).probe_rules(pos, played)
    }

    /// The principal variation under the rules: the line of rule-aware best moves
    /// ([`RuleOutcome::best_move`]) from `pos`, with the counts already `played`,
    /// to the end of the game or of the phase (a conversion after which every
    /// counter starts afresh); for a draw, its first [`PV_DRAW_PLIES`] moves.
    pub fn pv_rules(&self, pos: impl Query<V>, played: &Counters) -> Result<Vec<Move>, ProbeError> {
        self.session(None).pv_rules(pos, played)
    }

    /// [`RuleTablebase::pv_rules`] that gives up at `deadline`: the line ends at
    /// the first position whose query ran out of time (so it may be shorter,
    /// never wrong).
    pub fn pv_rules_until(
        &self,
        pos: impl Query<V>,
        played: &Counters,
        deadline: Instant,
    ) -> Result<Vec<Move>, ProbeError> {
        self.session(Some(deadline)).pv_rules(pos, played)
    }

    /// Refuses a played count for a counter that is not in force in `pos`.
    fn check_in_force(&self, pos: &Position<V>, played: &Counters) -> Result<(), ProbeError> {
        let set = self.set();
        let in_force = |id: &str| set.counter(id).is_some_and(|c| c.applies_at(pos));
        match played
            .iter()
            .find(|&(id, plies)| plies > 0 && !in_force(id))
        {
            None => Ok(()),
            Some((id, _)) => {
                let ids: Vec<&str> = set.in_force(pos).map(|c| c.id.as_str()).collect();
                Err(ProbeError::NotInForce {
                    id: id.to_string(),
                    in_force: if ids.is_empty() {
                        "none".to_string()
                    } else {
                        ids.join(", ")
                    },
                })
            }
        }
    }
}

impl<V: Variant> RuleSession<'_, V> {
    /// The session, cancelled as soon as `flag` is set (by another thread): a
    /// query that needs a search then answers *unknown* with the reason
    /// [`super::CANCELLED`], at once.
    pub fn cancel_on(mut self, flag: Arc<AtomicBool>) -> Self {
        self.search.cancel_on(flag);
        self
    }

    /// [`RuleTablebase::probe_rules`], within the session.
    pub fn probe_rules(
        &mut self,
        pos: impl Query<V>,
        played: &Counters,
    ) -> Result<RuleOutcome, ProbeError> {
        self.answer(&pos.position()?, played, true)
    }

    /// [`RuleSession::probe_rules`] without the best move (`best_move` is always
    /// `None`), which costs a search over every move: the value, the distance
    /// and the rule alone, for valuing many positions, such as the position
    /// after each move of a list.
    pub fn probe_rules_value(
        &mut self,
        pos: impl Query<V>,
        played: &Counters,
    ) -> Result<RuleOutcome, ProbeError> {
        self.answer(&pos.position()?, played, false)
    }

    /// The answer for `pos`, with a best move if `with_best`.
    fn answer(
        &mut self,
        pos: &Position<V>,
        played: &Counters,
        with_best: bool,
    ) -> Result<RuleOutcome, ProbeError> {
        let tables = self.tables;
        tables.check_in_force(pos, played)?;
        let theory = tables.tablebase().probe_value(pos)?.wdl();
        let set = tables.set();
        let counts = set.counts(played, pos);
        let mut outcome = RuleOutcome {
            wdl: None,
            theory,
            rule: None,
            distance: None,
            best_move: None,
            unknown: None,
        };
        if pos.pieces(pos.side()) == 0 || legal_moves(pos).is_empty() {
            outcome.wdl = Some(RuleWdl::Loss);
            outcome.distance = Some(0);
            return Ok(outcome);
        }
        if let Some(i) = set.limit_reached_at(&counts, pos) {
            outcome.wdl = Some(RuleWdl::of(theory, Wdl::Draw));
            if theory != Wdl::Draw {
                outcome.rule = Some(set.counters[i].id.clone());
            }
            return Ok(outcome);
        }
        if self.counted && tables.counted_plan(pos.material())?.is_some() {
            tables.probe_counted(pos, &counts, &mut outcome)?;
            if !with_best {
                outcome.best_move = None;
            }
            return Ok(outcome);
        }
        let search = &mut self.search;
        search.start_query();
        let (wdl, distance) = match search.value(pos, &counts) {
            Ok(found) => found,
            Err(Stop::Probe(error)) => return Err(error),
            Err(Stop::Budget(reason)) => {
                outcome.unknown = Some(reason);
                return Ok(outcome);
            }
        };
        outcome.wdl = Some(RuleWdl::of(theory, wdl));
        outcome.distance = distance;
        if wdl == Wdl::Draw && theory != Wdl::Draw {
            let binding = match search.verdict(pos, &counts, UNBOUNDED) {
                Ok(Verdict::Decided(_, _, Some(i))) => Some(set.counters[i].id.clone()),
                _ => None,
            };
            outcome.rule = match binding {
                Some(id) => Some(id),
                None => match search.cursing_rule(pos, &counts) {
                    Ok(rule) => rule,
                    Err(Stop::Probe(error)) => return Err(error),
                    Err(Stop::Budget(_)) => None,
                },
            };
        }
        if !with_best {
            return Ok(outcome);
        }
        match search.best_move(pos, &counts, wdl, distance) {
            Ok(mv) => outcome.best_move = mv,
            Err(Stop::Probe(error)) => return Err(error),
            Err(Stop::Budget(_)) => {}
        }
        Ok(outcome)
    }

    /// [`RuleTablebase::pv_rules`], within the session: the line ends early at a
    /// position whose query ran out of time.
    pub fn pv_rules(
        &mut self,
        pos: impl Query<V>,
        played: &Counters,
    ) -> Result<Vec<Move>, ProbeError> {
        let (mut current, mut counts) = (pos.position()?, played.clone());
        let mut line = Vec::new();
        // A win or a loss ends the phase within its distance; a draw is cut.
        let mut limit = None;
        loop {
            let outcome = self.probe_rules(current, &counts)?;
            let Some(mv) = outcome.best_move else { break };
            let limit = *limit.get_or_insert(outcome.distance.map_or(PV_DRAW_PLIES, usize::from));
            if line.len() >= limit {
                break;
            }
            line.push(mv);
            counts = self.tables.set().advance(&counts, &current, &mv);
            let converted = mv.is_capture() || mv.is_promotion();
            current = apply(&current, &mv);
            if converted && counts.is_empty() {
                break;
            }
        }
        Ok(line)
    }
}
