//! The rule tables of one rule set, beside the game-theoretic tables: per slice a
//! DTC table (`<slice>.<set>.dtc.dkt`), an RWDL table (`<slice>.<set>.rwdl.dkt`),
//! where a counter that man moves restart can bind, a DTZ table
//! (`<slice>.<set>.dtz.dkt`), and where a counter with a position condition
//! applies, a counted DTC table (`<slice>.<set>.cdtc.dkt`, `super::counted`).
//!
//! A query reads them like the game-theoretic tables: memory-mapped, one block
//! decoded at a time through the block cache, so a process probing every material
//! holds only the blocks it uses. [`RuleTablebase::table`] decodes a whole table
//! instead, for the generator and the statistics, which read every entry; a query
//! reads a table decoded that way when there is one.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use damka_core::{white_to_move, Material, Position, Slice, Variant};
use damka_formats::{table::rule_table_file_name, table::ValueKind};
use damka_formats::{Dtc, RuleWdl};

use super::counted::Counted;
use super::phase::Phase;
use super::ruleset::RuleSet;
use crate::error::ProbeError;
use crate::slice_table::{decode_table, SliceTable};
use crate::slots::{slot_of, Opened, Slots};
use crate::table::Access;
use crate::tablebase::Tablebase;

/// The rule kinds, in the order of a slot's arrays.
const KINDS: [ValueKind; 4] = [
    ValueKind::Dtc,
    ValueKind::RuleWdl,
    ValueKind::Dtz,
    ValueKind::CountedDtc,
];

/// Block-cache keys of rule tables start here, above every key of the
/// game-theoretic tables (which share the cache).
const CACHE_ID_BASE: u32 = 1 << 31;

/// The lazily opened rule tables and phase analysis of one material: by kind (in
/// the order of [`KINDS`]) the file opened for queries and the whole decoded
/// table, if something asked for it, and the counted phase, if any.
struct Slot<V: Variant> {
    files: [OnceLock<Opened<V>>; 4],
    decoded: [OnceLock<Arc<SliceTable<V>>>; 4],
    phase: OnceLock<Phase>,
    counted: OnceLock<Option<Counted>>,
}

impl<V: Variant> Default for Slot<V> {
    fn default() -> Slot<V> {
        Slot {
            files: Default::default(),
            decoded: Default::default(),
            phase: OnceLock::new(),
            counted: OnceLock::new(),
        }
    }
}

/// The position of `kind` in [`KINDS`].
fn kind_index(kind: ValueKind) -> usize {
    match kind {
        ValueKind::Dtc => 0,
        ValueKind::Dtz => 2,
        ValueKind::CountedDtc => 3,
        _ => 1,
    }
}

/// A directory of tables read under one rule set: the game-theoretic tables and
/// the set's rule tables. `Send + Sync`.
pub struct RuleTablebase<V: Variant> {
    tablebase: Tablebase<V>,
    set: RuleSet,
    fingerprint: u64,
    slots: Slots<Slot<V>>,
}

impl<V: Variant> RuleTablebase<V> {
    /// Opens the tables under `root/<variant>/` to be read under `set`: the
    /// game-theoretic tables as [`Tablebase::open`] does (failing when there are
    /// none), and the set's rule tables on first use. A set that fails
    /// [`RuleSet::validate`] is refused.
    pub fn open(root: impl AsRef<Path>, set: RuleSet) -> Result<RuleTablebase<V>, ProbeError> {
        set.validate()
            .map_err(|e| ProbeError::InvalidRuleSet(e.to_string()))?;
        Ok(Self::with_tablebase(Tablebase::open(root)?, set))
    }

    /// Reads the tables under `root/<variant>/` under `set` without listing the
    /// directory: for the generator, which fills it as it goes. Prefer
    /// [`RuleTablebase::open`].
    #[doc(hidden)]
    pub fn new(root: &Path, set: RuleSet) -> RuleTablebase<V> {
        Self::with_tablebase(Tablebase::new(root), set)
    }

    /// [`RuleTablebase::new`] with a block cache of at most about `cache_bytes`
    /// bytes: for a reader that knows how much it will read again.
    #[doc(hidden)]
    pub fn with_cache_bytes(root: &Path, set: RuleSet, cache_bytes: usize) -> RuleTablebase<V> {
        Self::with_tablebase(Tablebase::with_cache_bytes(root, cache_bytes), set)
    }

    /// The rule tables of `set` beside `tablebase`.
    fn with_tablebase(tablebase: Tablebase<V>, set: RuleSet) -> RuleTablebase<V> {
        RuleTablebase {
            tablebase,
            fingerprint: set.fingerprint(),
            set,
            slots: Slots::new(),
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
    #[doc(hidden)]
    pub fn path(&self, slice: Slice, kind: ValueKind) -> PathBuf {
        self.tablebase
            .dir()
            .join(rule_table_file_name(slice, &self.set.name, kind))
    }

    /// The rule tables of `material`, or why there are none.
    fn slot(&self, material: Material) -> Result<&Slot<V>, ProbeError> {
        self.slots.get(material)
    }

    /// The whole decoded table of `kind` ([`ValueKind::Dtc`], [`ValueKind::Dtz`],
    /// [`ValueKind::CountedDtc`], or else the RWDL table) of `slice`, read on first
    /// use and kept: for readers of every entry of a few slices (the generator,
    /// verification). Queries read the same table from it once it is there, but
    /// for a counted table, which they read through the block cache.
    #[doc(hidden)]
    pub fn table(&self, slice: Slice, kind: ValueKind) -> Result<Arc<SliceTable<V>>, ProbeError> {
        let cell = &self.slot(slice.material())?.decoded[kind_index(kind)];
        if let Some(table) = cell.get() {
            return Ok(table.clone());
        }
        let table = self.decoded_table(slice, kind)?;
        Ok(cell.get_or_init(|| table).clone())
    }

    /// [`RuleTablebase::table`] decoded afresh and not kept: for a reader that
    /// walks every slice of a set once (the statistics), whose memory would
    /// otherwise grow to the whole set's.
    #[doc(hidden)]
    pub fn decoded_table(
        &self,
        slice: Slice,
        kind: ValueKind,
    ) -> Result<Arc<SliceTable<V>>, ProbeError> {
        let per_position = match kind {
            ValueKind::CountedDtc => self.sheets(slice)?,
            _ => 1,
        };
        let path = self.path(slice, kind);
        decode_table(&path, (slice, kind, per_position), self.fingerprint)
    }

    /// The stored `u16` of `kind` for `white` (White to move) of `slice`: from the
    /// decoded table if there is one, else through the block cache.
    #[inline]
    fn raw(&self, slice: Slice, kind: ValueKind, white: &Position<V>) -> Result<u16, ProbeError> {
        let slot = self.slot(slice.material())?;
        let k = kind_index(kind);
        if let Some(table) = slot.decoded[k].get() {
            return Ok(table.raw(white));
        }
        let opened = self.opened(slice, kind)?;
        let value = opened.read(self.tablebase.cache(), white, |b, local| b.raw(local))?;
        value.ok_or_else(|| not_a_block(opened, kind))
    }

    /// The stored `u16` of state `sheet` of `white` (White to move) in the `kind`
    /// table of `slice`, which holds `sheets` entries per position, through the
    /// block cache.
    #[inline]
    pub(super) fn raw_entry(
        &self,
        slice: Slice,
        kind: ValueKind,
        white: &Position<V>,
        sheets: u32,
        sheet: u32,
    ) -> Result<u16, ProbeError> {
        let opened = self.opened(slice, kind)?;
        let entry = opened.indexer.index(white) * u64::from(sheets) + u64::from(sheet);
        let value = opened.read_entry(self.tablebase.cache(), entry, |b, local| b.raw(local))?;
        value.ok_or_else(|| not_a_block(opened, kind))
    }

    /// The entries per position of the counted table of `slice`, or why it has
    /// none.
    fn sheets(&self, slice: Slice) -> Result<u64, ProbeError> {
        match self.counted_plan(slice.material())? {
            Some(plan) => Ok(u64::from(plan.sheets())),
            None => Err(ProbeError::InvalidRuleSet(format!(
                "{slice} has no counted table under {}",
                self.set.name
            ))),
        }
    }

    /// The `kind` table of `slice`, opened for queries (a counted table with its
    /// states per position, any other with one entry per position).
    fn opened(&self, slice: Slice, kind: ValueKind) -> Result<&Opened<V>, ProbeError> {
        let cell = &self.slot(slice.material())?.files[kind_index(kind)];
        match cell.get() {
            Some(opened) => Ok(opened),
            None => {
                let per_position = match kind {
                    ValueKind::CountedDtc => self.sheets(slice)?,
                    _ => 1,
                };
                self.open_table(slice, kind, per_position, cell)
            }
        }
    }

    /// The stored entries of the `kind` table of `slice` from entry `first` on,
    /// into `out` (whose length says how many), through the block cache: a run
    /// of positions (or every state of a counted position) for one look-up per
    /// block, for verification.
    #[doc(hidden)]
    pub fn entries(
        &self,
        slice: Slice,
        kind: ValueKind,
        first: u64,
        out: &mut [u16],
    ) -> Result<(), ProbeError> {
        self.opened(slice, kind)?
            .read_run(self.tablebase.cache(), first, out)
    }

    /// The stored entries of the counted table of `slice` from entry `first` on,
    /// into `out`, decoded straight from the file past the block cache: for a
    /// reader of the whole table one part at a time.
    #[doc(hidden)]
    pub fn decode_counted(
        &self,
        slice: Slice,
        first: u64,
        out: &mut [u16],
    ) -> Result<(), ProbeError> {
        self.opened(slice, ValueKind::CountedDtc)?
            .decode_run(first, out)
    }

    /// Opens the `kind` table of `slice`, `per_position` entries per position, for
    /// queries into `cell`, checking its size and rule set; failures are not kept,
    /// so a table that appears later is found.
    #[cold]
    fn open_table<'a>(
        &self,
        slice: Slice,
        kind: ValueKind,
        per_position: u64,
        cell: &'a OnceLock<Opened<V>>,
    ) -> Result<&'a Opened<V>, ProbeError> {
        let slot = slot_of(slice.material()).unwrap_or(0) as u32;
        let id = CACHE_ID_BASE + slot * KINDS.len() as u32 + kind_index(kind) as u32;
        let path = self.path(slice, kind);
        let opened = Opened::open(
            &path,
            (slice, kind, per_position),
            self.fingerprint,
            Access::Random,
            id,
        )?;
        Ok(cell.get_or_init(|| opened))
    }

    /// The phase analysis of `material` under the set.
    #[doc(hidden)]
    pub fn phase(&self, material: Material) -> Result<&Phase, ProbeError> {
        Ok(self
            .slot(material)?
            .phase
            .get_or_init(|| Phase::of(&self.set, &material)))
    }

    /// The counted phase of `material` under the set (`super::counted`), if it
    /// has one.
    #[doc(hidden)]
    pub fn counted_plan(&self, material: Material) -> Result<Option<&Counted>, ProbeError> {
        Ok(self
            .slot(material)?
            .counted
            .get_or_init(|| Counted::of(&self.set, &material))
            .as_ref())
    }

    fn slice_of(pos: &Position<V>) -> Result<(Position<V>, Slice), ProbeError> {
        let white = white_to_move(pos);
        let slice = Slice::of(&white).map_err(|e| ProbeError::InvalidPosition(e.to_string()))?;
        Ok((white, slice))
    }

    /// The DTC value of `pos`, either side to move. Both sides must have pieces.
    pub fn dtc(&self, pos: &Position<V>) -> Result<Dtc, ProbeError> {
        let (white, slice) = Self::slice_of(pos)?;
        Ok(Dtc::from_raw(self.raw(slice, ValueKind::Dtc, &white)?))
    }

    /// The DTZ value of `pos`, either side to move, or `None` where its material
    /// has no DTZ table (no counter that man moves restart can bind there; DTZ
    /// is DTC). Both sides must have pieces.
    pub fn dtz(&self, pos: &Position<V>) -> Result<Option<Dtc>, ProbeError> {
        let (white, slice) = Self::slice_of(pos)?;
        if !self.phase(slice.material())?.zeroing(&self.set) {
            return Ok(None);
        }
        Ok(Some(Dtc::from_raw(self.raw(
            slice,
            ValueKind::Dtz,
            &white,
        )?)))
    }

    /// The value of `pos` under the set with fresh counters, next to its
    /// game-theoretic value, either side to move. Both sides must have pieces.
    pub fn rwdl(&self, pos: &Position<V>) -> Result<RuleWdl, ProbeError> {
        let (white, slice) = Self::slice_of(pos)?;
        let code = self.raw(slice, ValueKind::RuleWdl, &white)?;
        RuleWdl::from_code(code).ok_or_else(|| ProbeError::CorruptTable {
            path: self.path(slice, ValueKind::RuleWdl),
            reason: "an RWDL code above 4".into(),
        })
    }
}

/// The error for a block of `opened` that is not of its kind.
#[cold]
fn not_a_block<V: Variant>(opened: &Opened<V>, kind: ValueKind) -> ProbeError {
    ProbeError::CorruptTable {
        path: opened.file.path().to_path_buf(),
        reason: format!("a block that is not a {} block", kind.name()),
    }
}
