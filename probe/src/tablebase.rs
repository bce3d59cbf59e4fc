//! A directory of tables and the probe API: value, distance and best move of any
//! position the tables cover.
//!
//! Tables live in `<dir>/<variant>/<slice>.wdl.dkt` and `<slice>.dtw.dkt`. Opening a
//! [`Tablebase`] lists the directory and reads no table: each file is opened and
//! checked on first use, and
//! kept in a per-slice [`OnceLock`] of a table fixed at construction, so the hot
//! path takes no lock to find it. Decoded blocks live in a sharded LRU cache
//! ([`crate::cache`]) with a byte budget.
//!
//! A position whose side to move must capture is resolved by a search over its
//! captures, whose successors lie in smaller slices, so the answer never depends on
//! what a WDL table stores for a capture position (writers fill those entries with
//! whatever compresses best).
//!
//! A slice and its mirror (the same material with the other side to move) may
//! share one WDL file: the generator keeps only the smaller of the two. A position
//! of the slice without one is resolved by a one-ply search, whose quiet moves
//! lead into the stored mirror and whose promotions lead to slices with fewer men.
//!
//! A compact set (`damka compact`, `formats/FORMAT.md` "Compact DTW files") does
//! the same with DTW files: one file per pair, capture positions don't-care.
//!
//! [`Tablebase::probe_wdl`] reads only WDL files; [`Tablebase::probe_value`],
//! [`Tablebase::probe_dtw`] and the move functions only DTW files;
//! [`Tablebase::probe_mtc`] only the MTC files (`<slice>.mtc.dkt`, built by
//! `damka gen --metric mtc`), which store capture positions exactly too.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use damka_core::{white_to_move, Position, Slice, Variant};
use damka_formats::table::{slices_in, table_file_name, Encoding, ValueKind};
use damka_formats::{Dtc, Value, Wdl};

use crate::cache::BlockCache;
use crate::error::ProbeError;
use crate::query::Query;
use crate::slice_table::{decode_table, SliceTable};
use crate::slots::{slot_of, Opened, Slots, MAX_PIECES};
use crate::table::Access;
use damka_core::movegen::{generate, has_capture};
use damka_core::moves::{apply, Move};

/// Block-cache keys of a material's tables: its slot times this, plus the
/// kind's code (every code is below it).
const KIND_CODES: usize = 8;

/// The default byte budget of the block cache.
pub const DEFAULT_CACHE_BYTES: usize = 256 << 20;
/// The most moves of a drawn line that [`Tablebase::pv`] gives.
pub const PV_DRAW_PLIES: usize = 10;

/// Where the WDL or the DTW values of a slice come from.
#[derive(Debug)]
enum Source<V: Variant> {
    /// Its own table.
    Table(Box<Opened<V>>),
    /// A one-ply search into the table of its mirror.
    Mirror,
}

/// The tables of one slice, opened on first use.
#[derive(Debug)]
struct Slot<V: Variant> {
    wdl: OnceLock<Source<V>>,
    dtw: OnceLock<Source<V>>,
    mtc: OnceLock<Box<Opened<V>>>,
}

impl<V: Variant> Default for Slot<V> {
    fn default() -> Slot<V> {
        Slot {
            wdl: OnceLock::new(),
            dtw: OnceLock::new(),
            mtc: OnceLock::new(),
        }
    }
}

/// A set of tables of variant `V` in one directory. `Send + Sync`: share it
/// between threads behind an `Arc` or a reference; they probe concurrently.
#[derive(Debug)]
pub struct Tablebase<V: Variant> {
    dir: PathBuf,
    /// The slices whose tables the directory held when it was opened; `None` for
    /// a tablebase the generator fills as it goes.
    present: Option<Vec<Slice>>,
    /// The most pieces of a slice present ([`MAX_PIECES`] when not listed): kept
    /// apart from `present` so that the hot path's check is one comparison.
    max_pieces: u32,
    /// The tables of each material, opened on first use.
    slots: Slots<Slot<V>>,
    cache: BlockCache,
    variant: PhantomData<V>,
}

impl<V: Variant> Tablebase<V> {
    /// Opens the tables of variant `V` under `root/<variant>/` (for example
    /// `tables/russian/`, as `damka gen --dir tables` writes them), with a block
    /// cache of [`DEFAULT_CACHE_BYTES`]. Lists the directory; fails when it holds
    /// no table of the variant. Tables themselves are opened and checked on first
    /// use.
    pub fn open(root: impl AsRef<Path>) -> Result<Tablebase<V>, ProbeError> {
        Self::open_with_cache(root, DEFAULT_CACHE_BYTES)
    }

    /// [`Tablebase::open`] with a block cache of at most about `cache_bytes` bytes
    /// of decoded blocks.
    pub fn open_with_cache(
        root: impl AsRef<Path>,
        cache_bytes: usize,
    ) -> Result<Tablebase<V>, ProbeError> {
        let mut tablebase = Self::with_cache_bytes(root.as_ref(), cache_bytes);
        let no_tables = || ProbeError::NoTables {
            dir: tablebase.dir.clone(),
            variant: V::KIND,
        };
        let present = slices_in(&tablebase.dir).map_err(|_| no_tables())?;
        if present.is_empty() {
            return Err(no_tables());
        }
        tablebase.max_pieces = present.iter().map(|s| s.pieces()).max().unwrap_or(0);
        tablebase.present = Some(present);
        Ok(tablebase)
    }

    /// The slices with a WDL or DTW table in the directory when it was opened,
    /// smallest first (empty for a tablebase not made by [`Tablebase::open`]).
    pub fn slices(&self) -> &[Slice] {
        self.present.as_deref().unwrap_or(&[])
    }

    /// The most pieces of any table present: positions with more pieces are
    /// [`ProbeError::NotCovered`].
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Uses the tables under `root/<variant>/` without listing the directory: for
    /// the generator, which fills it as it goes. Prefer [`Tablebase::open`].
    #[doc(hidden)]
    pub fn new(root: &Path) -> Tablebase<V> {
        Self::with_cache_bytes(root, DEFAULT_CACHE_BYTES)
    }

    /// [`Tablebase::new`] with a block cache of at most about `cache_bytes` bytes.
    #[doc(hidden)]
    pub fn with_cache_bytes(root: &Path, cache_bytes: usize) -> Tablebase<V> {
        Tablebase {
            dir: Self::variant_dir(root),
            present: None,
            max_pieces: MAX_PIECES,
            slots: Slots::new(),
            cache: BlockCache::new(cache_bytes),
            variant: PhantomData,
        }
    }

    /// The directory holding this variant's tables under `root`.
    pub fn variant_dir(root: &Path) -> PathBuf {
        root.join(V::KIND.name())
    }

    /// The directory this tablebase reads.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The block cache (for its figures).
    #[doc(hidden)]
    pub fn cache(&self) -> &BlockCache {
        &self.cache
    }

    /// The path of the `kind` table of `slice`.
    #[doc(hidden)]
    pub fn path(&self, slice: Slice, kind: ValueKind) -> PathBuf {
        self.dir.join(table_file_name(slice, kind))
    }

    /// Opens the `kind` table of `slice` and checks it against the slice's index.
    fn open_table(
        &self,
        slice: Slice,
        kind: ValueKind,
        access: Access,
    ) -> Result<Opened<V>, ProbeError> {
        let slot = slot_of(slice.material()).unwrap_or(0);
        let id = (slot * KIND_CODES + kind.code() as usize) as u32;
        Opened::open(&self.path(slice, kind), (slice, kind, 1), 0, access, id)
    }

    /// The tables of `slice`, or why there are none.
    #[inline]
    fn slot(&self, slice: Slice) -> Result<&Slot<V>, ProbeError> {
        self.slots.get(slice.material())
    }

    /// The opened MTC table of `slice`, opening it on first use.
    #[inline]
    fn mtc_table(&self, slice: Slice) -> Result<&Opened<V>, ProbeError> {
        let cell = &self.slot(slice)?.mtc;
        match cell.get() {
            Some(table) => Ok(table),
            None => self.open_cell(cell, slice, ValueKind::Mtc),
        }
    }

    /// Opens the `kind` table of `slice` into its cell; failures are not kept, so
    /// a table that appears later is found.
    #[cold]
    fn open_cell<'a>(
        &self,
        cell: &'a OnceLock<Box<Opened<V>>>,
        slice: Slice,
        kind: ValueKind,
    ) -> Result<&'a Opened<V>, ProbeError> {
        let opened = Box::new(self.open_table(slice, kind, Access::Random)?);
        Ok(cell.get_or_init(|| opened))
    }

    /// The cell of the `kind` ([`ValueKind::Wdl`] or [`ValueKind::Dtw`]) source
    /// of `slice`.
    #[inline]
    fn source_cell(
        &self,
        slice: Slice,
        kind: ValueKind,
    ) -> Result<&OnceLock<Source<V>>, ProbeError> {
        let slot = self.slot(slice)?;
        Ok(if kind == ValueKind::Wdl {
            &slot.wdl
        } else {
            &slot.dtw
        })
    }

    /// Where the `kind` ([`ValueKind::Wdl`] or [`ValueKind::Dtw`]) values of
    /// `slice` come from, found on first use.
    #[inline]
    fn source(&self, slice: Slice, kind: ValueKind) -> Result<&Source<V>, ProbeError> {
        let cell = self.source_cell(slice, kind)?;
        match cell.get() {
            Some(source) => Ok(source),
            None => self.open_source(cell, slice, kind),
        }
    }

    /// Opens the `kind` table of `slice`, or settles on its mirror's when it has
    /// none and the mirror has its own (never a mirror's mirror, so the one-ply
    /// search cannot loop): for WDL always, since a set keeps one WDL file per
    /// pair; for DTW only when the mirror's file is compact (`damka compact`
    /// leaves one side out), since an exact set missing a DTW file is damaged.
    /// Failures are not kept.
    #[cold]
    fn open_source<'a>(
        &self,
        cell: &'a OnceLock<Source<V>>,
        slice: Slice,
        kind: ValueKind,
    ) -> Result<&'a Source<V>, ProbeError> {
        let source = match self.open_table(slice, kind, Access::Random) {
            Ok(table) => Source::Table(Box::new(table)),
            Err(missing @ ProbeError::MissingTable { .. }) => {
                if slice.is_self_mirror() || !self.opens_own(slice.mirror(), kind)? {
                    return Err(missing);
                }
                let mirror = self.source_cell(slice.mirror(), kind)?.get();
                let compact = matches!(mirror, Some(Source::Table(t))
                    if t.file.header().encoding == Encoding::Compact);
                if kind == ValueKind::Dtw && !compact {
                    return Err(missing);
                }
                Source::Mirror
            }
            Err(other) => return Err(other),
        };
        Ok(cell.get_or_init(|| source))
    }

    /// Whether `slice` has a `kind` table of its own, opening it into its cell
    /// if it has. Only the slice's own file is looked at, never its mirror's:
    /// when neither side of a group has a file (a directory the generator is
    /// still writing), asking each side about the other would not end.
    fn opens_own(&self, slice: Slice, kind: ValueKind) -> Result<bool, ProbeError> {
        let cell = self.source_cell(slice, kind)?;
        if let Some(source) = cell.get() {
            return Ok(matches!(source, Source::Table(_)));
        }
        match self.open_table(slice, kind, Access::Random) {
            Ok(table) => {
                let source = cell.get_or_init(|| Source::Table(Box::new(table)));
                Ok(matches!(source, Source::Table(_)))
            }
            Err(ProbeError::MissingTable { .. }) => Ok(false),
            Err(other) => Err(other),
        }
    }

    /// Checks that `pos` can be probed: both sides have pieces, not too many.
    /// `Ok(false)` when the side to move has no pieces (it has lost).
    #[inline]
    fn check(&self, pos: &Position<V>) -> Result<bool, ProbeError> {
        if pos.pieces(pos.side()) == 0 {
            return Ok(false);
        }
        if pos.pieces(pos.side().opposite()) == 0 {
            return Err(ProbeError::InvalidPosition(format!(
                "{} has no pieces but {} is to move",
                pos.side().opposite(),
                pos.side()
            )));
        }
        let pieces = pos.occupied().count_ones();
        let max = self.max_pieces();
        if pieces > max {
            return Err(ProbeError::NotCovered { pieces, max });
        }
        Ok(true)
    }

    /// Win, draw or loss for the side to move, from the WDL tables alone.
    #[inline]
    pub fn probe_wdl(&self, pos: impl Query<V>) -> Result<Wdl, ProbeError> {
        self.wdl(&pos.position()?)
    }

    /// [`Tablebase::probe_wdl`] of a position.
    fn wdl(&self, pos: &Position<V>) -> Result<Wdl, ProbeError> {
        if !self.check(pos)? {
            return Ok(Wdl::Loss);
        }
        let capture = has_capture(pos);
        if !capture {
            let white = white_to_move(pos);
            let slice =
                Slice::of(&white).map_err(|e| ProbeError::InvalidPosition(e.to_string()))?;
            if let Source::Table(table) = self.source(slice, ValueKind::Wdl)? {
                return table.read(&self.cache, &white, |block, local| block.wdl(local));
            }
        }
        // A capture position, or a slice whose mirror holds the WDL file: the best
        // of the moves.
        let mut moves = Vec::new();
        generate(pos, &mut moves);
        let mut best = Wdl::Loss;
        for mv in &moves {
            best = best.max(self.wdl(&apply(pos, mv))?.negate());
            if best == Wdl::Win {
                break;
            }
        }
        Ok(best)
    }

    /// The WDL entry the tables store at `index` of `slice` (meaningful for a
    /// position without a capture): `None` when the slice has no WDL file of
    /// its own (its mirror holds the group's). Verification compares it with
    /// the value the successors give.
    #[doc(hidden)]
    pub fn stored_wdl_at(&self, slice: Slice, index: u64) -> Result<Option<Wdl>, ProbeError> {
        match self.source(slice, ValueKind::Wdl)? {
            Source::Table(table) => Ok(Some(table.read_entry(
                &self.cache,
                index,
                |block, local| block.wdl(local),
            )?)),
            Source::Mirror => Ok(None),
        }
    }

    /// The DTW entry the tables store at `index` of `slice` (meaningful for a
    /// position without a capture when the set is compact): `None` when the
    /// slice has no DTW file of its own (its mirror holds the pair's, in a
    /// compact set). Verification compares it with the value the successors
    /// give.
    #[doc(hidden)]
    pub fn stored_dtw_at(&self, slice: Slice, index: u64) -> Result<Option<Value>, ProbeError> {
        match self.source(slice, ValueKind::Dtw)? {
            Source::Table(table) => {
                let raw = table.read_entry(&self.cache, index, |block, local| block.raw(local))?;
                Ok(Some(Value::from_raw(
                    raw.ok_or_else(|| wdl_block_in(table))?,
                )))
            }
            Source::Mirror => Ok(None),
        }
    }

    /// Whether the DTW values of `slice` come from a compact file (`damka
    /// compact`): its own, or its mirror's through a one-ply search.
    pub fn is_compact(&self, slice: Slice) -> Result<bool, ProbeError> {
        Ok(match self.source(slice, ValueKind::Dtw)? {
            Source::Table(table) => table.file.header().encoding == Encoding::Compact,
            Source::Mirror => true,
        })
    }

    /// The value of `pos` for its side to move: WDL and DTW, with no move limits,
    /// from the DTW tables alone.
    #[inline]
    pub fn probe_value(&self, pos: impl Query<V>) -> Result<Value, ProbeError> {
        self.value(&pos.position()?)
    }

    /// [`Tablebase::probe_value`] of a position.
    fn value(&self, pos: &Position<V>) -> Result<Value, ProbeError> {
        if !self.check(pos)? {
            return Ok(Value::LOST);
        }
        if !has_capture(pos) {
            let white = white_to_move(pos);
            let slice =
                Slice::of(&white).map_err(|e| ProbeError::InvalidPosition(e.to_string()))?;
            if let Source::Table(table) = self.source(slice, ValueKind::Dtw)? {
                return Ok(Value::from_raw(self.raw_entry(table, &white)?));
            }
        }
        // A capture position, or a slice whose mirror holds the DTW file (a
        // compact set): the best of the moves.
        let mut moves = Vec::new();
        generate(pos, &mut moves);
        Ok(self.best(pos, &moves)?.map_or(Value::LOST, |(_, v)| v))
    }

    /// The raw entry that `table` (a DTW or MTC table) stores for `white`, a
    /// position of its slice with White to move.
    #[inline]
    fn raw_entry(&self, table: &Opened<V>, white: &Position<V>) -> Result<u16, ProbeError> {
        let raw = table.read(&self.cache, white, |block, local| block.raw(local))?;
        raw.ok_or_else(|| wdl_block_in(table))
    }

    /// The distance to win in plies (for a win or a loss: the plies to the end of
    /// the game under best play), or `None` for a draw.
    #[inline]
    pub fn probe_dtw(&self, pos: impl Query<V>) -> Result<Option<u16>, ProbeError> {
        Ok(self.probe_value(pos)?.dtw())
    }

    /// Moves to conversion (`formats/FORMAT.md`, "MTC tables"): for the side to
    /// move, the plies to the next capture or man move under best play, where the
    /// winner must convert into a position still won (with no move limits). A
    /// win or a loss at that distance, or a draw; a side with no piece left has
    /// lost in 0. Reads the slice's MTC table alone (every position, capture
    /// positions included, is stored exactly): [`ProbeError::MissingTable`] when
    /// it was not built.
    pub fn probe_mtc(&self, pos: impl Query<V>) -> Result<Dtc, ProbeError> {
        let pos = pos.position()?;
        if !self.check(&pos)? {
            return Ok(Dtc::loss(0));
        }
        let white = white_to_move(&pos);
        let slice = Slice::of(&white).map_err(|e| ProbeError::InvalidPosition(e.to_string()))?;
        let raw = self.raw_entry(self.mtc_table(slice)?, &white)?;
        Ok(Dtc::from_raw(raw))
    }

    /// A best move: the shortest win, else a drawing move, else the longest loss.
    /// `None` when the side to move has no legal move.
    pub fn best_move(&self, pos: impl Query<V>) -> Result<Option<Move>, ProbeError> {
        let pos = pos.position()?;
        let mut moves = Vec::new();
        generate(&pos, &mut moves);
        Ok(self.best(&pos, &moves)?.map(|(mv, _)| mv))
    }

    /// The principal variation: the line of best moves from `pos` to the end of
    /// the game; for a draw, its first [`PV_DRAW_PLIES`] moves.
    pub fn pv(&self, pos: impl Query<V>) -> Result<Vec<Move>, ProbeError> {
        let pos = pos.position()?;
        let limit = match self.value(&pos)?.dtw() {
            Some(dtw) => dtw as usize,
            None => PV_DRAW_PLIES,
        };
        let mut line = Vec::new();
        let mut current = pos;
        while line.len() < limit {
            let Some(mv) = self.best_move(current)? else {
                break;
            };
            current = apply(&current, &mv);
            line.push(mv);
        }
        Ok(line)
    }

    /// The best of `moves` with the value it gives the side to move.
    fn best(&self, pos: &Position<V>, moves: &[Move]) -> Result<Option<(Move, Value)>, ProbeError> {
        let mut best: Option<(Move, Value)> = None;
        for mv in moves {
            let value = self.value(&apply(pos, mv))?.back();
            if best.is_none_or(|(_, b)| value.better_than(b)) {
                best = Some((*mv, value));
            }
        }
        Ok(best)
    }

    /// Opens the DTW table of `slice` to be decoded a block at a time, on first
    /// use, the decoded blocks taking their bytes from `budget`: exact values for
    /// every index, as [`Tablebase::slice_table`] gives, for a table too large to
    /// decode whole. [`SliceTable::release_pages`] drops the blocks decoded.
    #[doc(hidden)]
    pub fn paged_slice_table(
        &self,
        slice: Slice,
        budget: Arc<crate::paged::PageBudget>,
    ) -> Result<SliceTable<V>, ProbeError> {
        crate::slice_table::paged_table(&self.path(slice, ValueKind::Dtw), slice, budget)
    }

    /// Decodes the whole DTW table of `slice` into memory (blocks in parallel):
    /// exact values for every index, capture positions included.
    #[doc(hidden)]
    pub fn slice_table(&self, slice: Slice) -> Result<Arc<SliceTable<V>>, ProbeError> {
        self.decoded_table(slice, ValueKind::Dtw)
    }

    /// Decodes the whole `kind` table of `slice` (a kind no rule set qualifies:
    /// [`ValueKind::Dtw`] or [`ValueKind::Mtc`]) into memory, blocks in parallel.
    #[doc(hidden)]
    pub fn decoded_table(
        &self,
        slice: Slice,
        kind: ValueKind,
    ) -> Result<Arc<SliceTable<V>>, ProbeError> {
        decode_table(&self.path(slice, kind), (slice, kind, 1), 0)
    }

    /// Checks every block checksum and the whole-file checksum of the tables of
    /// `slice` (its WDL and DTW tables only if it has its own, its MTC table if it
    /// has one); returns the bytes checked.
    #[doc(hidden)]
    pub fn check_checksums(&self, slice: Slice) -> Result<u64, ProbeError> {
        let mut bytes = 0;
        for kind in [ValueKind::Wdl, ValueKind::Dtw, ValueKind::Mtc] {
            let shared = kind != ValueKind::Mtc
                && !slice.is_self_mirror()
                && !self.path(slice, kind).exists()
                && self.path(slice.mirror(), kind).is_file();
            let absent = kind == ValueKind::Mtc && !self.path(slice, kind).exists();
            if shared || absent {
                continue;
            }
            let table = self.open_table(slice, kind, Access::Sequential)?;
            table.file.check_checksums()?;
            bytes += table.file.byte_len();
        }
        Ok(bytes)
    }
}

/// The error for a WDL block found in `table`, a table of raw values.
fn wdl_block_in<V: Variant>(table: &Opened<V>) -> ProbeError {
    ProbeError::CorruptTable {
        path: table.file.path().to_path_buf(),
        reason: format!("a WDL block in a {} table", table.file.header().kind.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_core::Russian;

    #[test]
    fn tablebase_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Tablebase<Russian>>();
    }
}
