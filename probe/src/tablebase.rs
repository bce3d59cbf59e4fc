//! A directory of tables and the probe API: value, distance and best move of any
//! position the tables cover.
//!
//! Tables live in `<dir>/<variant>/<slice>.wdl.dkt` and `<slice>.dtw.dkt`. Opening a
//! [`Tablebase`] reads nothing: each file is opened and checked on first use, and
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
//! [`Tablebase::probe_wdl`] reads only WDL files; [`Tablebase::probe_value`],
//! [`Tablebase::probe_dtw`] and the move functions only DTW files.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use damka_core::{white_to_move, Material, Position, Slice, SliceIndexer, Variant};
use damka_formats::{table::table_file_name, table::ValueKind};
use damka_formats::{Value, Wdl};
use rayon::prelude::*;

use crate::cache::BlockCache;
use crate::error::ProbeError;
use crate::table::{Access, TableFile};
use damka_core::movegen::{generate, has_capture};
use damka_core::moves::{apply, Move};

/// The most pieces a position may have for the tables to cover it.
pub const MAX_PIECES: u32 = 8;
/// The default byte budget of the block cache.
pub const DEFAULT_CACHE_BYTES: usize = 256 << 20;

/// One slice's exact values, decoded into memory from its DTW table: what the
/// generator reads its dependencies from, and bulk readers such as verification.
/// A byte per position when every raw value of the table fits in one (as every
/// DTW table measured so far does), else two.
#[derive(Debug)]
pub struct SliceTable<V: Variant> {
    indexer: SliceIndexer<V>,
    values: RawValues,
}

/// The raw values of a [`SliceTable`].
#[derive(Debug)]
enum RawValues {
    /// Every value fits in a byte.
    Narrow(Vec<u8>),
    /// Some value does not.
    Wide(Vec<u16>),
}

impl<V: Variant> SliceTable<V> {
    /// The value of a White-to-move position of this slice.
    #[inline]
    pub fn value(&self, pos: &Position<V>) -> Value {
        Value::from_raw(self.raw(pos))
    }

    /// The value at `index`, which must be below the slice's size.
    #[inline]
    pub fn get(&self, index: u64) -> Value {
        Value::from_raw(self.raw_at(index as usize))
    }

    /// The slice's index.
    pub fn indexer(&self) -> &SliceIndexer<V> {
        &self.indexer
    }

    /// The raw `u16` of a White-to-move position of this slice (for tables whose
    /// entries are not [`Value`]s).
    #[inline]
    pub fn raw(&self, pos: &Position<V>) -> u16 {
        self.raw_at(self.indexer.index(pos) as usize)
    }

    /// The raw `u16` at `index`, which must be below the slice's size.
    #[inline]
    pub fn raw_at(&self, index: usize) -> u16 {
        match &self.values {
            RawValues::Narrow(bytes) => u16::from(bytes[index]),
            RawValues::Wide(values) => values[index],
        }
    }

    /// Every raw entry, by index.
    pub fn raw_values(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.len()).map(|i| self.raw_at(i))
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        match &self.values {
            RawValues::Narrow(bytes) => bytes.len(),
            RawValues::Wide(values) => values.len(),
        }
    }

    /// Whether the table has no entries (no slice is empty).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the decoded values take in memory.
    pub fn heap_bytes(&self) -> usize {
        match &self.values {
            RawValues::Narrow(bytes) => bytes.len(),
            RawValues::Wide(values) => 2 * values.len(),
        }
    }
}

/// An opened table file with its slice's index.
#[derive(Debug)]
struct Opened<V: Variant> {
    file: TableFile,
    indexer: SliceIndexer<V>,
    /// The table's number in the block cache's keys.
    id: u32,
}

/// Where the WDL values of a slice come from.
#[derive(Debug)]
enum WdlSource<V: Variant> {
    /// Its own WDL table.
    Table(Box<Opened<V>>),
    /// A one-ply search into the WDL table of its mirror.
    Mirror,
}

/// The tables of one slice, opened on first use.
#[derive(Debug)]
struct Slot<V: Variant> {
    wdl: OnceLock<WdlSource<V>>,
    dtw: OnceLock<Box<Opened<V>>>,
}

/// A set of tables of variant `V` in one directory. `Send + Sync`: share it
/// between threads behind an `Arc` or a reference; they probe concurrently.
#[derive(Debug)]
pub struct Tablebase<V: Variant> {
    dir: PathBuf,
    /// One slot per material with at most [`MAX_PIECES`] pieces, by [`slot_of`].
    slots: Box<[Slot<V>]>,
    cache: BlockCache,
    variant: PhantomData<V>,
}

/// Counts per side and kind are below 8 when a position has at most
/// [`MAX_PIECES`] pieces and both sides have one.
const SLOT_BASE: usize = MAX_PIECES as usize;

/// The slot of a material, or `None` if it has too many pieces.
#[inline]
pub(crate) fn slot_of(m: Material) -> Option<usize> {
    let counts = [m.white_men, m.white_kings, m.black_men, m.black_kings];
    if m.pieces() > MAX_PIECES || counts.iter().any(|&c| c as usize >= SLOT_BASE) {
        return None;
    }
    Some(
        counts
            .iter()
            .fold(0, |acc, &c| acc * SLOT_BASE + c as usize),
    )
}

impl<V: Variant> Tablebase<V> {
    /// Uses the tables under `root/<variant>/`, with a block cache of
    /// [`DEFAULT_CACHE_BYTES`]. Nothing is opened yet.
    pub fn new(root: &Path) -> Tablebase<V> {
        Self::with_cache_bytes(root, DEFAULT_CACHE_BYTES)
    }

    /// Uses the tables under `root/<variant>/`, with a block cache of at most
    /// about `cache_bytes` bytes of decoded blocks.
    pub fn with_cache_bytes(root: &Path, cache_bytes: usize) -> Tablebase<V> {
        let slots = (0..SLOT_BASE.pow(4))
            .map(|_| Slot {
                wdl: OnceLock::new(),
                dtw: OnceLock::new(),
            })
            .collect();
        Tablebase {
            dir: Self::variant_dir(root),
            slots,
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
    pub fn cache(&self) -> &BlockCache {
        &self.cache
    }

    /// The path of the `kind` table of `slice`.
    pub fn path(&self, slice: Slice, kind: ValueKind) -> PathBuf {
        self.dir.join(table_file_name(slice, kind))
    }

    /// Opens the `kind` table of `slice` and checks it against the slice's index.
    fn open(&self, slice: Slice, kind: ValueKind, access: Access) -> Result<Opened<V>, ProbeError> {
        let (file, indexer) = open_checked(&self.path(slice, kind), slice, kind, 0, access)?;
        let slot = slot_of(slice.material()).unwrap_or(0);
        Ok(Opened {
            file,
            indexer,
            id: (slot * 2 + kind.code() as usize) as u32,
        })
    }

    /// The slot of `slice`, or why there is none.
    #[inline]
    fn slot(&self, slice: Slice) -> Result<&Slot<V>, ProbeError> {
        match slot_of(slice.material()) {
            Some(slot) => Ok(&self.slots[slot]),
            None => Err(ProbeError::NotCovered {
                pieces: slice.pieces(),
                max: MAX_PIECES,
            }),
        }
    }

    /// The opened DTW table of `slice`, opening it on first use.
    #[inline]
    fn dtw_table(&self, slice: Slice) -> Result<&Opened<V>, ProbeError> {
        let cell = &self.slot(slice)?.dtw;
        match cell.get() {
            Some(table) => Ok(table),
            None => self.open_dtw(cell, slice),
        }
    }

    /// Opens a DTW table into its cell; failures are not kept, so a table that
    /// appears later is found.
    #[cold]
    fn open_dtw<'a>(
        &self,
        cell: &'a OnceLock<Box<Opened<V>>>,
        slice: Slice,
    ) -> Result<&'a Opened<V>, ProbeError> {
        let opened = Box::new(self.open(slice, ValueKind::Dtw, Access::Random)?);
        Ok(cell.get_or_init(|| opened))
    }

    /// Where the WDL values of `slice` come from, found on first use.
    #[inline]
    fn wdl_source(&self, slice: Slice) -> Result<&WdlSource<V>, ProbeError> {
        let cell = &self.slot(slice)?.wdl;
        match cell.get() {
            Some(source) => Ok(source),
            None => self.open_wdl(cell, slice),
        }
    }

    /// Opens the WDL table of `slice`, or settles on its mirror's when it has
    /// none and the mirror has its own (never a mirror's mirror, so the one-ply
    /// search cannot loop). Failures are not kept.
    #[cold]
    fn open_wdl<'a>(
        &self,
        cell: &'a OnceLock<WdlSource<V>>,
        slice: Slice,
    ) -> Result<&'a WdlSource<V>, ProbeError> {
        let source = match self.open(slice, ValueKind::Wdl, Access::Random) {
            Ok(table) => WdlSource::Table(Box::new(table)),
            Err(missing @ ProbeError::MissingTable { .. }) => {
                if slice.is_self_mirror() {
                    return Err(missing);
                }
                match self.wdl_source(slice.mirror()) {
                    Ok(WdlSource::Table(_)) => WdlSource::Mirror,
                    _ => return Err(missing),
                }
            }
            Err(other) => return Err(other),
        };
        Ok(cell.get_or_init(|| source))
    }

    /// Reads the entry of a White-to-move position in `table` with `read`, through
    /// the block cache.
    #[inline]
    fn read_entry<R>(
        &self,
        table: &Opened<V>,
        pos: &Position<V>,
        read: impl Fn(&damka_formats::table::Block, usize) -> R,
    ) -> Result<R, ProbeError> {
        let index = table.indexer.index(pos);
        let per_block = table.file.header().block_entries as u64;
        let (block, local) = (index / per_block, (index % per_block) as usize);
        self.cache.read(
            (table.id, block),
            || table.file.decode_block(block),
            |b| read(b, local),
        )
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
        if pieces > MAX_PIECES {
            return Err(ProbeError::NotCovered {
                pieces,
                max: MAX_PIECES,
            });
        }
        Ok(true)
    }

    /// Win, draw or loss for the side to move, from the WDL tables alone.
    pub fn probe_wdl(&self, pos: &Position<V>) -> Result<Wdl, ProbeError> {
        if !self.check(pos)? {
            return Ok(Wdl::Loss);
        }
        let capture = has_capture(pos);
        if !capture {
            let white = white_to_move(pos);
            let slice =
                Slice::of(&white).map_err(|e| ProbeError::InvalidPosition(e.to_string()))?;
            if let WdlSource::Table(table) = self.wdl_source(slice)? {
                return self.read_entry(table, &white, |block, local| block.wdl(local));
            }
        }
        // A capture position, or a slice whose mirror holds the WDL file: the best
        // of the moves.
        let mut moves = Vec::new();
        generate(pos, &mut moves);
        let mut best = Wdl::Loss;
        for mv in &moves {
            best = best.max(self.probe_wdl(&apply(pos, mv))?.negate());
            if best == Wdl::Win {
                break;
            }
        }
        Ok(best)
    }

    /// The value of `pos` for its side to move: WDL and DTW, with no move limits,
    /// from the DTW tables alone.
    pub fn probe_value(&self, pos: &Position<V>) -> Result<Value, ProbeError> {
        if !self.check(pos)? {
            return Ok(Value::LOST);
        }
        if has_capture(pos) {
            let mut moves = Vec::new();
            generate(pos, &mut moves);
            return Ok(self.best(pos, &moves)?.map_or(Value::LOST, |(_, v)| v));
        }
        self.stored_value(pos)
    }

    /// The value the DTW table stores for `pos`, either side to move, with no
    /// capture search (the tables store capture positions' values exactly).
    pub fn stored_value(&self, pos: &Position<V>) -> Result<Value, ProbeError> {
        if !self.check(pos)? {
            return Ok(Value::LOST);
        }
        let pos = white_to_move(pos);
        let slice = Slice::of(&pos).map_err(|e| ProbeError::InvalidPosition(e.to_string()))?;
        let table = self.dtw_table(slice)?;
        self.read_entry(table, &pos, |block, local| block.value(local))?
            .ok_or_else(|| ProbeError::CorruptTable {
                path: table.file.path().to_path_buf(),
                reason: "a WDL block in a DTW table".into(),
            })
    }

    /// The distance to win in plies, or `None` for a draw.
    pub fn probe_dtw(&self, pos: &Position<V>) -> Result<Option<u16>, ProbeError> {
        Ok(self.probe_value(pos)?.dtw())
    }

    /// A best move: the shortest win, else a drawing move, else the longest loss.
    /// `None` when the side to move has no legal move.
    pub fn best_move(&self, pos: &Position<V>) -> Result<Option<Move>, ProbeError> {
        let mut moves = Vec::new();
        generate(pos, &mut moves);
        Ok(self.best(pos, &moves)?.map(|(mv, _)| mv))
    }

    /// The line of best moves from `pos` to the end of the game; for a draw, at most
    /// `draw_plies` moves of it.
    pub fn principal_variation(
        &self,
        pos: &Position<V>,
        draw_plies: usize,
    ) -> Result<Vec<Move>, ProbeError> {
        let limit = match self.probe_value(pos)?.dtw() {
            Some(dtw) => dtw as usize,
            None => draw_plies,
        };
        let mut line = Vec::new();
        let mut current = *pos;
        while line.len() < limit {
            let Some(mv) = self.best_move(&current)? else {
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
            let value = self.probe_value(&apply(pos, mv))?.back();
            if best.is_none_or(|(_, b)| value.better_than(b)) {
                best = Some((*mv, value));
            }
        }
        Ok(best)
    }

    /// Decodes the whole DTW table of `slice` into memory (blocks in parallel):
    /// exact values for every index, capture positions included.
    pub fn slice_table(&self, slice: Slice) -> Result<Arc<SliceTable<V>>, ProbeError> {
        decode_table(&self.path(slice, ValueKind::Dtw), slice, ValueKind::Dtw, 0)
    }

    /// Checks every block checksum and the whole-file checksum of the tables of
    /// `slice` (its WDL table only if it has its own); returns the bytes checked.
    pub fn check_checksums(&self, slice: Slice) -> Result<u64, ProbeError> {
        let mut bytes = 0;
        for kind in [ValueKind::Wdl, ValueKind::Dtw] {
            let shared = kind == ValueKind::Wdl
                && !slice.is_self_mirror()
                && !self.path(slice, kind).exists()
                && self.path(slice.mirror(), kind).is_file();
            if shared {
                continue;
            }
            let table = self.open(slice, kind, Access::Sequential)?;
            table.file.check_checksums()?;
            bytes += table.file.len();
        }
        Ok(bytes)
    }
}

/// Opens the `kind` table of `slice` at `path` and checks it against the slice's
/// index and against the rule set with fingerprint `rules` (0 for the
/// game-theoretic kinds).
pub(crate) fn open_checked<V: Variant>(
    path: &Path,
    slice: Slice,
    kind: ValueKind,
    rules: u64,
    access: Access,
) -> Result<(TableFile, SliceIndexer<V>), ProbeError> {
    let file = TableFile::open(path, V::KIND, slice, kind, access)?;
    let corrupt = |reason: String| ProbeError::CorruptTable {
        path: path.to_path_buf(),
        reason,
    };
    let indexer = SliceIndexer::new(slice).map_err(|e| corrupt(e.to_string()))?;
    if indexer.size() != file.header().entries {
        return Err(corrupt(format!(
            "{} entries, the slice has {} positions",
            file.header().entries,
            indexer.size()
        )));
    }
    if file.header().rules != rules {
        return Err(ProbeError::RulesMismatch {
            path: path.to_path_buf(),
        });
    }
    Ok((file, indexer))
}

/// Decodes the whole table of `kind` of `slice` at `path` into memory, blocks in
/// parallel, checking that it was built under the rule set with fingerprint
/// `rules` (0 for the game-theoretic kinds).
pub(crate) fn decode_table<V: Variant>(
    path: &Path,
    slice: Slice,
    kind: ValueKind,
    rules: u64,
) -> Result<Arc<SliceTable<V>>, ProbeError> {
    let (file, indexer) = open_checked::<V>(path, slice, kind, rules, Access::Sequential)?;
    let corrupt = |reason: String| ProbeError::CorruptTable {
        path: path.to_path_buf(),
        reason,
    };
    let per_block = file.header().block_entries as usize;
    let size = usize::try_from(indexer.size())
        .map_err(|_| corrupt("table too large for this address space".into()))?;
    let not_block = |block: usize| {
        corrupt(format!(
            "block {block} is not a {} block of its length",
            kind.name()
        ))
    };
    // A byte per entry first; a block with a value that needs two bytes makes
    // the whole table wide, decoded a second time.
    let mut narrow = vec![0u8; size];
    let fits = narrow.par_chunks_mut(per_block).enumerate().try_fold(
        || true,
        |fits, (block, out)| -> Result<bool, ProbeError> {
            match file.decode_block(block as u64)? {
                damka_formats::table::Block::Dtw(decoded) if decoded.len() == out.len() => {
                    match decoded.narrow() {
                        Some(bytes) => {
                            out.copy_from_slice(bytes);
                            Ok(fits)
                        }
                        None => Ok(false),
                    }
                }
                _ => Err(not_block(block)),
            }
        },
    );
    let fits = fits.try_reduce(|| true, |a, b| Ok(a && b))?;
    let values = if fits {
        RawValues::Narrow(narrow)
    } else {
        drop(narrow);
        let mut values = vec![0u16; size];
        values.par_chunks_mut(per_block).enumerate().try_for_each(
            |(block, out)| -> Result<(), ProbeError> {
                match file.decode_block(block as u64)? {
                    damka_formats::table::Block::Dtw(decoded) if decoded.len() == out.len() => {
                        decoded.expand_into(out);
                        Ok(())
                    }
                    _ => Err(not_block(block)),
                }
            },
        )?;
        RawValues::Wide(values)
    };
    Ok(Arc::new(SliceTable { indexer, values }))
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

    #[test]
    fn slots_are_distinct_and_bounded() {
        let mut seen = std::collections::HashSet::new();
        for slice in damka_core::build_order::<Russian>(MAX_PIECES) {
            let slot = slot_of(slice.material()).unwrap();
            assert!(slot < SLOT_BASE.pow(4));
            assert!(seen.insert(slot));
        }
    }
}
