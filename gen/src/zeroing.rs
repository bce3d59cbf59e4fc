//! The DTZ metric: distance to zeroing under a rule set (`formats/FORMAT.md`,
//! "DTC, RWDL and DTZ tables").
//!
//! A zeroing move is one that restarts the counters man moves restart (R4, I1):
//! a capture, a promotion or any man move. DTZ is the number of plies to the next
//! zeroing move under best play, where the winner must zero into a position that
//! is won under the rules with fresh counters (its RWDL value), or end the game.
//! It is solved by the generator's retrograde pass ([`crate::solve::Group`]) with
//! every move but a king move ending the count: only king moves stay inside a
//! unit. The RWDL values of the group's own slices, which a quiet man move
//! reaches, are those just computed.

use std::sync::Arc;

use damka_core::Move;
use damka_core::{Material, Position, Slice, SliceIndexer, Variant};
use damka_formats::{RuleWdl, Wdl};
use damka_probe::SliceTable;

use crate::dtc::{decode_dtc, encode_dtc};
use crate::error::GenError;
use crate::solve::{Located, Metric};

/// The DTZ metric of one group.
pub(crate) struct Zeroing<V: Variant> {
    /// The RWDL tables of the materials captures and promotions lead to.
    exits: Vec<(Material, Arc<SliceTable<V>>)>,
    /// The RWDL codes of the group's own slices, which quiet man moves reach.
    own: Vec<(SliceIndexer<V>, Vec<u16>)>,
}

impl<V: Variant> Zeroing<V> {
    /// The metric over the dependencies' RWDL tables `exits` and the group's own
    /// RWDL codes `own`.
    pub(crate) fn new(
        exits: Vec<(Material, Arc<SliceTable<V>>)>,
        own: Vec<(Slice, Vec<u16>)>,
    ) -> Result<Zeroing<V>, GenError> {
        let own = own
            .into_iter()
            .map(|(slice, codes)| Ok((SliceIndexer::new(slice)?, codes)))
            .collect::<Result<_, GenError>>()?;
        Ok(Zeroing { exits, own })
    }
}

/// The value, for the side that just moved, of reaching a position (the
/// opponent to move) whose RWDL code is `code`: won if the opponent loses under
/// the rules with fresh counters.
#[inline]
fn reached(code: u16) -> (Wdl, u16) {
    match RuleWdl::from_code(code).map(RuleWdl::ruled) {
        Some(Wdl::Loss) => (Wdl::Win, 1),
        Some(Wdl::Win) => (Wdl::Loss, 1),
        _ => (Wdl::Draw, 0),
    }
}

impl<V: Variant> Metric<V> for Zeroing<V> {
    type Lookup = Located;

    #[inline]
    fn locate(&self, _pos: &Position<V>, _mv: &Move, after: &Position<V>) -> Located {
        if after.black() == 0 {
            return Located::Known(Wdl::Win, 1);
        }
        let next = after.flipped();
        let material = next.material();
        let table = self
            .exits
            .iter()
            .position(|(m, _)| *m == material)
            .unwrap_or_else(|| unreachable!("RWDL table for {material:?} was not opened"));
        let index = self.exits[table].1.indexer().index(&next) as usize;
        self.exits[table].1.prefetch(index);
        Located::Entry {
            table: table as u32,
            index,
        }
    }

    #[inline]
    fn resolve(&self, at: Located) -> (Wdl, u16) {
        match at {
            Located::Known(wdl, plies) => (wdl, plies),
            Located::Entry { table, index } => reached(self.exits[table as usize].1.raw_at(index)),
        }
    }

    #[inline]
    fn man_move(&self, after: &Position<V>) -> Option<(Wdl, u16)> {
        let next = after.flipped();
        let material = next.material();
        let (indexer, codes) = self
            .own
            .iter()
            .find(|(indexer, _)| indexer.slice().material() == material)
            .unwrap_or_else(|| unreachable!("a quiet man move left the group ({material:?})"));
        Some(reached(codes[indexer.index(&next) as usize]))
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
