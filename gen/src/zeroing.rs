//! The zeroing metrics: DTZ, distance to zeroing under a rule set
//! (`formats/FORMAT.md`, "DTC, RWDL and DTZ tables"), and MTC, moves to
//! conversion with no move limits ("MTC tables").
//!
//! A zeroing move is a capture, a promotion or any man move (under a rule set,
//! the moves that restart the counters man moves restart, R4 and I1). Both metrics
//! count the plies to the next zeroing move under best play, where the winner must
//! zero into a position that is still won, or end the game; they differ only in
//! what "won" means there: under the rules with fresh counters (the RWDL value)
//! for DTZ, game-theoretically (the DTW table's value) for MTC. Both are solved by
//! the generator's retrograde pass ([`crate::solve::Group`]) with every move but a
//! king move ending the count: only king moves stay inside a unit. The values of
//! the group's own slices, which a quiet man move reaches, are given whole.

use std::sync::Arc;

use damka_core::Move;
use damka_core::{Material, Position, Slice, SliceIndexer, Variant};
use damka_formats::{RuleWdl, Value, Wdl};
use damka_probe::SliceTable;

use crate::dtc::{decode_dtc, encode_dtc};
use crate::error::GenError;
use crate::exits::{ExitCache, Exits};
use crate::solve::{Located, Metric};

/// A zeroing metric of one group: DTZ ([`Zeroing::dtz`]) or MTC ([`Zeroing::mtc`]).
pub(crate) struct Zeroing<V: Variant> {
    /// The tables of the materials captures and promotions lead to.
    exits: Vec<(Material, Arc<SliceTable<V>>)>,
    /// Where in `exits` a conversion leads.
    targets: Exits<V>,
    /// The decoded tables of the group's own slices, which quiet man moves reach.
    own: Vec<(SliceIndexer<V>, Arc<SliceTable<V>>)>,
    /// The outcome, for its side to move, of a position whose stored code is
    /// given: how the tables of `exits` and `own` are read.
    outcome: fn(u16) -> Wdl,
}

impl<V: Variant> Zeroing<V> {
    /// The DTZ metric, over the dependencies' RWDL tables `exits` and the group's
    /// own decoded RWDL tables `own`: a zeroing move must reach a position won
    /// under the rules with fresh counters.
    pub(crate) fn dtz(
        exits: Vec<(Material, Arc<SliceTable<V>>)>,
        own: Vec<(Slice, Arc<SliceTable<V>>)>,
    ) -> Result<Zeroing<V>, GenError> {
        Zeroing::new(exits, own, |code| {
            RuleWdl::from_code(code).map_or(Wdl::Draw, RuleWdl::ruled)
        })
    }

    /// The MTC metric, over the dependencies' DTW tables `exits` and the
    /// decoded DTW tables of the group's own slices `own`: a zeroing move must
    /// reach a position won with no move limits.
    pub(crate) fn mtc(
        exits: Vec<(Material, Arc<SliceTable<V>>)>,
        own: Vec<Arc<SliceTable<V>>>,
    ) -> Result<Zeroing<V>, GenError> {
        let own = own
            .into_iter()
            .map(|table| (table.indexer().slice(), table));
        Zeroing::new(exits, own.collect(), |raw| Value::from_raw(raw).wdl())
    }

    /// The metric over `exits` and `own`, whose stored codes `outcome` reads.
    fn new(
        exits: Vec<(Material, Arc<SliceTable<V>>)>,
        own: Vec<(Slice, Arc<SliceTable<V>>)>,
        outcome: fn(u16) -> Wdl,
    ) -> Result<Zeroing<V>, GenError> {
        let own = own
            .into_iter()
            .map(|(slice, table)| Ok((SliceIndexer::new(slice)?, table)))
            .collect::<Result<_, GenError>>()?;
        let targets = Exits::new(exits.iter().map(|(_, t)| t.indexer().clone()).collect());
        Ok(Zeroing {
            exits,
            targets,
            own,
            outcome,
        })
    }

    /// The value, for the side that just moved, of reaching a position (the
    /// opponent to move) whose stored code is `code`: won if the opponent loses.
    #[inline]
    fn reached(&self, code: u16) -> (Wdl, u16) {
        match (self.outcome)(code) {
            Wdl::Loss => (Wdl::Win, 1),
            Wdl::Win => (Wdl::Loss, 1),
            Wdl::Draw => (Wdl::Draw, 0),
        }
    }
}

impl<V: Variant> Metric<V> for Zeroing<V> {
    type Lookup = Located;

    #[inline]
    fn locate(
        &self,
        _pos: &Position<V>,
        _mv: &Move,
        after: &Position<V>,
        cache: &mut ExitCache,
    ) -> Located {
        self.targets.located(after, cache, |table, index| {
            self.exits[table].1.prefetch(index)
        })
    }

    #[inline]
    fn resolve(&self, at: Located) -> (Wdl, u16) {
        match at {
            Located::Known(wdl, plies) => (wdl, plies),
            Located::Entry { table, index } => {
                self.reached(self.exits[table as usize].1.raw_at(index))
            }
        }
    }

    #[inline]
    fn man_move(&self, mirror: Slice, index: usize) -> Option<(Wdl, u16)> {
        let (_, codes) = self
            .own
            .iter()
            .find(|(indexer, _)| indexer.slice() == mirror)
            .unwrap_or_else(|| unreachable!("a quiet man move left the group ({mirror})"));
        Some(self.reached(codes.raw_at(index)))
    }

    #[inline]
    fn encode(&self, wdl: Wdl, plies: u16) -> u16 {
        encode_dtc(wdl, plies)
    }

    #[inline]
    fn decode(&self, raw: u16) -> (Wdl, u16) {
        decode_dtc(raw)
    }
}
