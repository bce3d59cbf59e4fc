//! The rule tables of one rule set, beside the game-theoretic tables: per slice a
//! DTC table (`<slice>.<set>.dtc.dkt`), an RWDL table (`<slice>.<set>.rwdl.dkt`)
//! and, where a counter that man moves restart can bind, a DTZ table
//! (`<slice>.<set>.dtz.dkt`).
//!
//! Each is decoded whole into memory on first use (a slice's tables are read
//! together by a rule query's search, which touches many of their positions).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use damka_formats::table::{rule_table_file_name, ValueKind};
use damka_formats::{white_to_move, Dtc, Material, Position, RuleWdl, Slice, Variant};

use super::phase::Phase;
use super::ruleset::RuleSet;
use crate::error::ProbeError;
use crate::tablebase::{decode_table, slot_of, SliceTable, Tablebase, MAX_PIECES};

/// The lazily opened rule tables and phase analysis of one material.
struct Slot<V: Variant> {
    dtc: OnceLock<Arc<SliceTable<V>>>,
    rwdl: OnceLock<Arc<SliceTable<V>>>,
    dtz: OnceLock<Arc<SliceTable<V>>>,
    phase: OnceLock<Phase>,
}

/// A directory of tables read under one rule set: the game-theoretic tables and
/// the set's rule tables. `Send + Sync`.
pub struct RuleTablebase<V: Variant> {
    tablebase: Tablebase<V>,
    set: RuleSet,
    fingerprint: u64,
    slots: Box<[Slot<V>]>,
}

impl<V: Variant> RuleTablebase<V> {
    /// Reads the tables under `root/<variant>/` under `set`. Nothing is opened
    /// yet.
    pub fn new(root: &Path, set: RuleSet) -> RuleTablebase<V> {
        let count = (MAX_PIECES as usize + 1).pow(4);
        let slots = (0..count)
            .map(|_| Slot {
                dtc: OnceLock::new(),
                rwdl: OnceLock::new(),
                dtz: OnceLock::new(),
                phase: OnceLock::new(),
            })
            .collect();
        RuleTablebase {
            tablebase: Tablebase::new(root),
            fingerprint: set.fingerprint(),
            set,
            slots,
        }
    }

    /// The game-theoretic tables.
    pub fn tablebase(&self) -> &Tablebase<V> {
        &self.tablebase
    }

    /// The rule set.
    pub fn set(&self) -> &RuleSet {
        &self.set
    }

    /// The path of the rule table of `kind` of `slice`.
    pub fn path(&self, slice: Slice, kind: ValueKind) -> PathBuf {
        self.tablebase
            .dir()
            .join(rule_table_file_name(slice, &self.set.name, kind))
    }

    fn slot(&self, material: Material) -> Result<&Slot<V>, ProbeError> {
        slot_of(material)
            .map(|i| &self.slots[i])
            .ok_or(ProbeError::NotCovered {
                pieces: material.pieces(),
                max: MAX_PIECES,
            })
    }

    /// The decoded table of `kind` ([`ValueKind::Dtc`], [`ValueKind::Dtz`], or
    /// else the RWDL table)
    /// of `slice`, read on first use.
    pub fn table(&self, slice: Slice, kind: ValueKind) -> Result<Arc<SliceTable<V>>, ProbeError> {
        self.loaded(slice, kind).cloned()
    }

    /// [`table`](Self::table) by reference: what the probe's inner loop reads,
    /// with no reference count to touch.
    #[inline]
    fn loaded(&self, slice: Slice, kind: ValueKind) -> Result<&Arc<SliceTable<V>>, ProbeError> {
        let slot = self.slot(slice.material())?;
        let cell = match kind {
            ValueKind::Dtc => &slot.dtc,
            ValueKind::Dtz => &slot.dtz,
            _ => &slot.rwdl,
        };
        if let Some(table) = cell.get() {
            return Ok(table);
        }
        let table = decode_table(&self.path(slice, kind), slice, kind, self.fingerprint)?;
        Ok(cell.get_or_init(|| table))
    }

    /// The phase analysis of `material` under the set.
    pub fn phase(&self, material: Material) -> Result<&Phase, ProbeError> {
        Ok(self
            .slot(material)?
            .phase
            .get_or_init(|| Phase::of(&self.set, &material)))
    }

    fn slice_of(pos: &Position<V>) -> Result<(Position<V>, Slice), ProbeError> {
        let white = white_to_move(pos);
        let slice = Slice::of(&white).map_err(|e| ProbeError::InvalidPosition(e.to_string()))?;
        Ok((white, slice))
    }

    /// The DTC value of `pos`, either side to move. Both sides must have pieces.
    pub fn dtc(&self, pos: &Position<V>) -> Result<Dtc, ProbeError> {
        let (white, slice) = Self::slice_of(pos)?;
        Ok(Dtc::from_raw(
            self.table(slice, ValueKind::Dtc)?.raw(&white),
        ))
    }

    /// The DTZ value of `pos`, either side to move, or `None` where its material
    /// has no DTZ table (no counter that man moves restart can bind there; DTZ
    /// is DTC). Both sides must have pieces.
    pub fn dtz(&self, pos: &Position<V>) -> Result<Option<Dtc>, ProbeError> {
        let (white, slice) = Self::slice_of(pos)?;
        if !self.phase(slice.material())?.zeroing(&self.set) {
            return Ok(None);
        }
        let table = self.loaded(slice, ValueKind::Dtz)?;
        Ok(Some(Dtc::from_raw(table.raw(&white))))
    }

    /// The value of `pos` under the set with fresh counters, next to its
    /// game-theoretic value, either side to move. Both sides must have pieces.
    pub fn rwdl(&self, pos: &Position<V>) -> Result<RuleWdl, ProbeError> {
        let (white, slice) = Self::slice_of(pos)?;
        let table = self.loaded(slice, ValueKind::RuleWdl)?;
        RuleWdl::from_code(table.raw(&white)).ok_or_else(|| ProbeError::CorruptTable {
            path: self.path(slice, ValueKind::RuleWdl),
            reason: "an RWDL code above 4".into(),
        })
    }
}
