//! The DTC metric of the rule tables, distance to conversion ([`Conversion`]), and
//! the encoding of decided values that the DTC and DTZ metrics share
//! (`formats/FORMAT.md`, "DTC, RWDL and DTZ tables").
//!
//! The rule-table build (`rules`) solves each group with this metric, the layered
//! pass (`layers`) reads the group so solved, and the DTZ metric (`zeroing`)
//! stores its values in the same encoding: a module of its own, which the three
//! use and which uses none of them.

use std::sync::Arc;

use damka_core::{Material, Move, Position, Variant};
use damka_formats::{Dtc, RuleWdl, Wdl};
use damka_probe::limits::{is_exit, RuleSet};
use damka_probe::SliceTable;

use crate::exits::{ExitCache, Exits};
use crate::solve::Metric;

/// The DTC metric: a conversion that ends the phase ([`is_exit`]) is valued by the
/// RWDL table of the position it reaches (counters are fresh there); one that
/// keeps a counter running continues the phase, valued by that slice's DTC table.
pub struct Conversion<V: Variant> {
    set: RuleSet,
    dependencies: Vec<Dependency<V>>,
    /// Where in `dependencies` a conversion leads.
    targets: Exits<V>,
}

/// A dependency's material, DTC table and RWDL table. The DTC table is read only
/// where a conversion continues the phase, so it is opened only for a group whose
/// phase can continue through one
/// ([`damka_probe::limits::Phase::continues_through_conversions`]): at 6 and 7
/// pieces no phase does, and the dependencies' DTC tables would take a byte or
/// two per position of them.
pub(crate) type Dependency<V> = (Material, Option<Arc<SliceTable<V>>>, Arc<SliceTable<V>>);

impl<V: Variant> Conversion<V> {
    /// The metric of the rule set `set`, over the rule tables of a group's
    /// dependencies.
    pub(crate) fn new(set: RuleSet, dependencies: Vec<Dependency<V>>) -> Conversion<V> {
        let indexers = dependencies
            .iter()
            .map(|(_, _, rwdl)| rwdl.indexer().clone());
        Conversion {
            set,
            targets: Exits::new(indexers.collect()),
            dependencies,
        }
    }
}

/// Where a conversion's value is read under the DTC metric.
#[derive(Clone, Copy)]
pub enum DtcLookup {
    /// The value, for the side that played the move.
    Known(Wdl, u16),
    /// The move ends the phase: the RWDL entry `index` of dependency `table`.
    Exit {
        /// The dependency's number.
        table: u32,
        /// The position's index in it.
        index: usize,
    },
    /// The move continues the phase: the DTC entry `index` of dependency `table`.
    Continue {
        /// The dependency's number.
        table: u32,
        /// The position's index in it.
        index: usize,
    },
}

impl<V: Variant> Metric<V> for Conversion<V> {
    type Lookup = DtcLookup;

    #[inline]
    fn locate(
        &self,
        pos: &Position<V>,
        mv: &Move,
        after: &Position<V>,
        cache: &mut ExitCache,
    ) -> DtcLookup {
        let Some((table, index)) = self.targets.locate(after, cache) else {
            return DtcLookup::Known(Wdl::Win, 1);
        };
        let (_, dtc, rwdl) = &self.dependencies[table as usize];
        match dtc {
            Some(dtc) if !is_exit(&self.set, pos, mv, after) => {
                dtc.prefetch(index);
                DtcLookup::Continue { table, index }
            }
            _ => {
                debug_assert!(
                    is_exit(&self.set, pos, mv, after),
                    "a conversion continues the phase into a DTC table not opened"
                );
                rwdl.prefetch(index);
                DtcLookup::Exit { table, index }
            }
        }
    }

    #[inline]
    fn resolve(&self, at: DtcLookup) -> (Wdl, u16) {
        match at {
            DtcLookup::Known(wdl, plies) => (wdl, plies),
            DtcLookup::Exit { table, index } => {
                let code = self.dependencies[table as usize].2.raw_at(index);
                match RuleWdl::from_code(code).map(RuleWdl::ruled) {
                    Some(Wdl::Loss) => (Wdl::Win, 1),
                    Some(Wdl::Win) => (Wdl::Loss, 1),
                    _ => (Wdl::Draw, 0),
                }
            }
            DtcLookup::Continue { table, index } => {
                let dtc = self.dependencies[table as usize].1.as_ref();
                let table = dtc.expect("a DTC table is opened where the phase continues");
                let raw = table.raw_at(index);
                self.decode(Dtc::from_raw(raw).back().raw())
            }
        }
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

/// The stored [`Dtc`] of a decided value: the encoding of the DTC and DTZ metrics.
#[inline]
pub(crate) fn encode_dtc(wdl: Wdl, plies: u16) -> u16 {
    Dtc::new(wdl, plies).raw()
}

/// The outcome and distance of a stored [`Dtc`] (0 plies for a draw).
#[inline]
pub(crate) fn decode_dtc(raw: u16) -> (Wdl, u16) {
    let value = Dtc::from_raw(raw);
    (value.wdl(), value.distance().unwrap_or(0))
}
