//! Exact rule values where two drawing counters run in one phase: one that only a
//! conversion restarts (R2, with the limit `unbreakable`) and one that man moves
//! restart too (R4 or I1, with the limit `resettable`), with men on the board and
//! kings on both sides.
//!
//! A DTC table alone cannot answer there (`damka_probe::limits::Phase`): a win may
//! need a man move in time to restart the resettable counter. The state of the game
//! inside a phase is (position, `c`), `c` the plies since the last man move; the
//! conversion-only counter is the plies since the phase began, so it bounds the
//! length of the whole phase. Let `D(p, c)` be the value of that game with no bound
//! on its length: win or loss in the fewest (for a win) or most (for a loss) plies
//! to the end of the phase, or a draw once `c` reaches `resettable`. Then the side
//! to move wins `p` with fresh counters exactly when `D(p, 0)` is a win in at most
//! `unbreakable` plies, because the shortest forced win of a reachability game is
//! the least number of plies in which it can be forced.
//!
//! `D` is computed without a search and without a fixpoint. Inside a unit of the
//! solver (a men placement and its flip, `crate::solve`) only king moves are
//! played, and each raises `c` by one; a man move leaves for a unit solved already,
//! at `c = 0`, and a conversion ends the phase (valued like DTC, from the RWDL
//! table it reaches). So a unit is solved layer by layer, from `c = resettable`
//! (every position a draw, unless the side to move has no move) down to `c = 0`,
//! each layer from the one above. The DTC value saves the work for most
//! positions: a draw stays a draw, and a win or loss in `d <= resettable - c` plies
//! keeps its value, since no line of it can reach the limit. So does a position
//! whose value in layer `c + 1` is its DTC value: with a lower count the side that
//! wins by DTC can play the same line (every count on it is lower until a man
//! move makes them equal), and the limit only adds draws, so no one does better
//! than DTC.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use damka_core::movegen::generate;
use damka_core::{apply, Move};
use damka_core::{BlockRanks, Position, Slice, Variant};
use damka_formats::table::ValueKind;
use damka_formats::{Dtc, RuleWdl, Wdl};
use rayon::prelude::*;

use crate::best::Best;
use crate::block_file::{BlockFile, Parked};
use crate::dtc::Conversion;
use crate::error::GenError;
use crate::exits::ExitCache;
use crate::solve::{back, Group, Metric, Unit};
use crate::spare::Spare;
use crate::store::{compressed_values_block, FileStore, ValueSource};
use crate::values::SlotValues;

/// Positions evaluated together by one thread inside a layer.
const CHUNK: usize = 1024;
// `OpenChunk` keeps a chunk's positions as `u16`.
const _: () = assert!(CHUNK <= 1 << 16);

/// The counted DTC table's kind: its blocks are compressed as they fill.
const KIND: ValueKind = ValueKind::CountedDtc;

/// The layered values of a group (see the module docs), as the counted DTC
/// tables of its slices hold them (`damka_probe::limits::Counted`, without a
/// conditional counter): `D(p, c)` at entry `index * resettable + c`.
///
/// `D(p, c)` for every layer takes `resettable` values per position, dozens of
/// times the group itself, so it is never held whole: each block of the table is
/// compressed as soon as the units that fill it are solved (most blocks lie in one
/// unit), and only `D(p, 0)`, which man moves into other units read, is kept. The
/// blocks are the bytes the table writer would make from the whole vector. When
/// the group spills, the finished blocks wait in a temporary file ([`BlockFile`])
/// rather than in memory, and `D(p, 0)` is kept by sub-slice as the solve keeps
/// its values ([`SlotValues`]): a man move reads only the sub-slice above, so two
/// are in memory and the others on disk.
pub(crate) struct LayeredValues {
    /// Per slot: `D(p, 0)` by index, raw.
    fresh: Vec<SlotValues>,
    /// Per slot: the counted table's compressed blocks.
    blocks: Vec<FinishedBlocks>,
    /// Layers per position: the resettable counter's limit.
    layers: usize,
}

impl LayeredValues {
    /// Writes the counted DTC table of each slot (`slices`, in slot order) under
    /// the rule set `at` (name and fingerprint), freeing its blocks as it goes, and
    /// returns `D(p, 0)` of every position by slot, raw, by index.
    pub(crate) fn write(
        self,
        store: &FileStore,
        slices: &[Slice],
        at: (&str, u64),
    ) -> Result<Vec<SlotValues>, GenError> {
        for ((slice, blocks), fresh) in slices.iter().zip(self.blocks).zip(&self.fresh) {
            let entries = fresh.len() * self.layers;
            store.write_rule_blocks(*slice, at, KIND, entries, blocks.count(), &|block| {
                blocks.read(block)
            })?;
        }
        Ok(self.fresh)
    }
}

/// `D(p, c)` (see the module docs) for every position of a group whose DTC values
/// are solved and every layer `c < resettable`, with the counted tables' finished
/// blocks parked in temporary files in `spill_dir`, if given, and up to
/// `cache_bytes` per unit of moves kept across layers.
pub(crate) fn phase_values<V: Variant>(
    group: &Group<V, Conversion<V>>,
    resettable: u32,
    spill_dir: Option<&Path>,
    cache_bytes: usize,
) -> Result<LayeredValues, GenError> {
    let mut fresh: Vec<SlotValues> = group
        .slots
        .iter()
        .map(|slot| match spill_dir {
            Some(dir) => SlotValues::new(
                &slot.indexer,
                dir.join(format!("{}.fresh.tmp", slot.slice())),
            ),
            None => SlotValues::in_memory(&slot.indexer),
        })
        .collect();
    let blocks: Vec<TableBlocks> = group
        .slots
        .iter()
        .map(|slot| {
            let file = spill_dir
                .map(|dir| BlockFile::create(dir.join(format!("{}.counted.tmp", slot.slice()))))
                .transpose()?;
            Ok(TableBlocks::new(
                slot.values.len() * resettable as usize,
                file,
            ))
        })
        .collect::<Result<_, GenError>>()?;
    // The arrays of finished units, for the next units to reuse, across
    // sub-slices: a sub-slice of a material with few men has only a unit or two.
    let spare = Spare::default();
    for sub in group.slots[0].indexer.sub_slices() {
        if spill_dir.is_some() {
            fresh.iter_mut().for_each(|f| f.allocate(sub.key));
        }
        let layers = Layers {
            group,
            resettable,
            cache_bytes,
            fresh: &fresh,
            blocks: &blocks,
            spare: &spare,
        };
        group
            .units(sub.key)
            .par_iter()
            .try_for_each(|unit| layers.solve_unit(unit))?;
        if spill_dir.is_some() {
            for f in &mut fresh {
                f.spill_above(sub.key)?;
            }
        }
    }
    let blocks = blocks
        .into_iter()
        .map(TableBlocks::into_blocks)
        .collect::<Result<_, _>>()?;
    Ok(LayeredValues {
        fresh,
        blocks,
        layers: resettable as usize,
    })
}

/// The blocks of one counted table while its units are solved.
struct TableBlocks {
    /// Entries of the table.
    entries: usize,
    /// Per block: its entries so far, then its compressed bytes once full.
    blocks: Vec<Mutex<Block>>,
    /// Where full blocks wait, if not in memory.
    file: Option<BlockFile>,
}

/// The compressed blocks of one counted table, in order, every one full.
struct FinishedBlocks {
    blocks: Vec<Block>,
    file: Option<BlockFile>,
}

impl FinishedBlocks {
    /// How many blocks the table has.
    fn count(&self) -> usize {
        self.blocks.len()
    }

    /// The compressed bytes of block `block`.
    fn read(&self, block: usize) -> Result<Vec<u8>, GenError> {
        match (&self.blocks[block], &self.file) {
            (Block::Done(bytes), _) => Ok(bytes.clone()),
            (Block::Parked(at), Some(file)) => file.read(*at),
            _ => Err(GenError::Layered(format!(
                "block {block} of a counted table was left unfilled"
            ))),
        }
    }
}

/// One block of a counted table.
enum Block {
    /// Waiting for entries: the parts given so far, each its first entry within
    /// the block, its length and its entries compressed at [`PART_LEVEL`]
    /// (a unit's entries often end inside a block whose other part belongs to a
    /// unit solved much later, so parts wait compressed); and how many entries
    /// they hold.
    Filling(Vec<(usize, usize, Vec<u8>)>, usize),
    /// Full, compressed.
    Done(Vec<u8>),
    /// Full, compressed, in the table's [`BlockFile`].
    Parked(Parked),
}

/// The zstd level of the parts of blocks that wait for their other parts: fast.
const PART_LEVEL: i32 = 1;

impl TableBlocks {
    fn new(entries: usize, file: Option<BlockFile>) -> TableBlocks {
        let blocks = entries.div_ceil(KIND.block_entries() as usize);
        TableBlocks {
            entries,
            blocks: (0..blocks)
                .map(|_| Mutex::new(Block::Filling(Vec::new(), 0)))
                .collect(),
            file,
        }
    }

    /// A full block, compressed from `values`: in memory, or parked in the file.
    fn finished(&self, values: &[u16]) -> Result<Block, GenError> {
        let bytes = compress(values)?;
        Ok(match &self.file {
            Some(file) => Block::Parked(file.park(&bytes)?),
            None => Block::Done(bytes),
        })
    }

    /// The entries of block `block`.
    fn block_range(&self, block: usize) -> std::ops::Range<usize> {
        let per_block = KIND.block_entries() as usize;
        block * per_block..((block + 1) * per_block).min(self.entries)
    }

    /// Gives the entries from `start` on, compressing every block they fill.
    fn put(&self, start: usize, values: &[u16]) -> Result<(), GenError> {
        let per_block = KIND.block_entries() as usize;
        let end = start + values.len();
        let mut at = start;
        while at < end {
            let block = at / per_block;
            let range = self.block_range(block);
            let upto = range.end.min(end);
            let part = &values[at - start..upto - start];
            if part.len() == range.len() {
                let done = self.finished(part)?;
                *self.blocks[block].lock().unwrap_or_else(|e| e.into_inner()) = done;
            } else {
                let packed = compress_part(part)?;
                let mut slot = self.blocks[block].lock().unwrap_or_else(|e| e.into_inner());
                if let Block::Filling(parts, filled) = &mut *slot {
                    parts.push((at - range.start, part.len(), packed));
                    *filled += part.len();
                    if *filled == range.len() {
                        let whole = assemble(parts, range.len())?;
                        *slot = self.finished(&whole)?;
                    }
                }
            }
            at = upto;
        }
        Ok(())
    }

    /// The compressed blocks, every one of which must be full.
    fn into_blocks(self) -> Result<FinishedBlocks, GenError> {
        let blocks = self
            .blocks
            .into_iter()
            .enumerate()
            .map(
                |(i, block)| match block.into_inner().unwrap_or_else(|e| e.into_inner()) {
                    Block::Filling(..) => Err(GenError::Layered(format!(
                        "block {i} of a counted table was left unfilled"
                    ))),
                    full => Ok(full),
                },
            )
            .collect::<Result<_, _>>()?;
        Ok(FinishedBlocks {
            blocks,
            file: self.file,
        })
    }
}

/// A part of a block, compressed while it waits.
fn compress_part(values: &[u16]) -> Result<Vec<u8>, GenError> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    damka_formats::table::compress(&bytes, PART_LEVEL)
        .map(fitted)
        .map_err(|e| GenError::Layered(format!("compressing a block's part: {e}")))
}

/// `bytes` with no spare capacity: the compressor allocates the worst case,
/// dozens of times what a counted block takes once compressed, and the blocks
/// wait in memory until the table is written.
fn fitted(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes.shrink_to_fit();
    bytes
}

/// The `len` entries of a block from its waiting `parts`.
fn assemble(parts: &[(usize, usize, Vec<u8>)], len: usize) -> Result<Vec<u16>, GenError> {
    let mut whole = vec![0u16; len];
    for (first, count, packed) in parts {
        let bytes = damka_formats::table::decompress(packed, 2 * count)
            .map_err(|e| GenError::Layered(format!("a block's part: {e}")))?;
        if bytes.len() != 2 * count {
            return Err(GenError::Layered("a block's part lost entries".into()));
        }
        for (value, pair) in whole[*first..first + count]
            .iter_mut()
            .zip(bytes.chunks_exact(2))
        {
            *value = u16::from_le_bytes([pair[0], pair[1]]);
        }
    }
    Ok(whole)
}

/// One counted table block, compressed as the table writer does it.
fn compress(values: &[u16]) -> Result<Vec<u8>, GenError> {
    compressed_values_block(KIND, values)
        .map(fitted)
        .map_err(|e| GenError::Layered(format!("compressing a block: {e}")))
}

/// The value under the rules with fresh counters of a position whose `D(p, 0)` is
/// `fresh`, when the phase may last `unbreakable` plies, next to its
/// game-theoretic value `theory`.
pub(crate) fn fresh_rule_value(theory: Wdl, fresh: Dtc, unbreakable: u32) -> RuleWdl {
    let ruled = match fresh.distance() {
        Some(d) if u32::from(d) <= unbreakable => fresh.wdl(),
        _ => Wdl::Draw,
    };
    RuleWdl::of(theory, ruled)
}

/// The layered solve of one group.
struct Layers<'a, V: Variant> {
    group: &'a Group<V, Conversion<V>>,
    resettable: u32,
    /// Bytes of moves a unit may keep across its layers.
    cache_bytes: usize,
    /// `D(p, 0)` by slot and index, written as units finish.
    fresh: &'a [SlotValues],
    /// The counted tables' blocks by slot, given each unit's values as it finishes.
    blocks: &'a [TableBlocks],
    /// The arrays of finished units, for the next units to reuse. A fresh set
    /// per unit was paid in page faults and the kernel's clearing of new pages:
    /// a third of an International `fmjd` rule build's time in a profile
    /// (session 42), and still a fifth while the spare set lasted only as long
    /// as a sub-slice (session 46).
    spare: &'a Spare<UnitArrays>,
}

/// The arrays one unit's layered solve works in, kept from one unit to the next.
#[derive(Default)]
struct UnitArrays {
    /// The unit's DTC values.
    dtc: Vec<Dtc>,
    /// `D(p, c + 1)` while layer `c` is solved.
    above: Vec<Dtc>,
    /// `D(p, c)`, being solved.
    layer: Vec<Dtc>,
    /// The unit's entries of the counted tables: `D(p, c)` at `local * layers + c`.
    rows: Vec<u16>,
}

impl<V: Variant> Layers<'_, V> {
    fn solve_unit(&self, unit: &Unit) -> Result<(), GenError> {
        let k = self.group.block_size() as usize;
        let n = k * unit.count;
        let layers = self.resettable as usize;
        let mut arrays = self.spare.take().unwrap_or_default();
        let UnitArrays {
            dtc,
            above,
            layer,
            rows,
        } = &mut arrays;
        // The unit's DTC values, read block by block: from memory, or from the
        // spill file when the group was solved with its sub-slices spilled.
        dtc.clear();
        for &(slot, men) in unit.blocks.iter().take(unit.count) {
            let first = men as usize * k;
            let (values, _) = self.group.slots[slot].values.read(first..first + k)?;
            dtc.extend(values.into_iter().map(Dtc::from_raw));
        }
        let dtc = &*dtc;
        // The layer c = resettable: the limit is reached, a draw unless the side to
        // move has no move (then it has lost, which the DTC value says: a loss in 0).
        above.clear();
        above.extend(
            dtc.iter()
                .map(|&v| if v == Dtc::loss(0) { v } else { Dtc::DRAW }),
        );
        layer.clear();
        layer.resize(n, Dtc::DRAW);
        let ranks = self.group.unit_ranks(unit);
        rows.clear();
        rows.resize(n * layers, 0);
        // Per chunk of positions, what their moves give in every layer, made in the
        // first layer (the one that evaluates the most positions) while the unit's
        // share of the cache lasts.
        let mut caches: Vec<Option<ChunkMoves>> = Vec::new();
        caches.resize_with(n.div_ceil(CHUNK), || None);
        // Per chunk, the positions still open: a position whose value in some layer
        // is its DTC value keeps it in every layer below (see the module docs), so
        // it is settled once, its entries of every lower layer written at once, and
        // never looked at again. Most positions settle in the first layers, and the
        // later layers visit only the few that stay open.
        let mut chunks: Vec<OpenChunk> = (0..n.div_ceil(CHUNK))
            .map(|chunk| OpenChunk::new(CHUNK.min(n - chunk * CHUNK)))
            .collect();
        let cached = AtomicUsize::new(0);
        for c in (0..self.resettable).rev() {
            let room = self.resettable - c;
            let first_layer = c + 1 == self.resettable;
            layer
                .par_chunks_mut(CHUNK)
                .zip(rows.par_chunks_mut(CHUNK * layers))
                .zip(caches.par_iter_mut())
                .zip(chunks.par_iter_mut())
                .enumerate()
                .for_each(|(chunk, (((values, rows), cache), open))| {
                    let mut moves = Vec::with_capacity(64);
                    let mut exits = ExitCache::default();
                    let mut scratch = ChunkMoves::default();
                    let build = first_layer && cached.load(Ordering::Relaxed) < self.cache_bytes;
                    let mut made = ChunkMoves::default();
                    // Settled one layer up: their value there is already in `above`,
                    // and goes into this layer's array too, which the layer below
                    // reads.
                    for &i in &open.settled {
                        values[i as usize] = dtc[chunk * CHUNK + i as usize];
                    }
                    open.settled.clear();
                    let mut kept = 0;
                    for at in 0..open.open.len() {
                        let i = open.open[at] as usize;
                        let local = chunk * CHUNK + i;
                        let settled = match dtc[local].distance() {
                            None => true,
                            Some(d) if u32::from(d) <= room => true,
                            // More room never hurts the side that wins by DTC, and
                            // nothing does better than DTC: a position that reached its
                            // DTC value one layer up keeps it in every layer below.
                            Some(_) => above[local] == dtc[local],
                        };
                        if settled {
                            if build {
                                made.skip();
                            }
                            values[i] = dtc[local];
                            rows[i * layers..=i * layers + c as usize].fill(dtc[local].raw());
                            open.settled.push(i as u16);
                            continue;
                        }
                        let value = match cache.as_ref() {
                            Some(known) => known.value(i, above),
                            None if build => {
                                self.moves_of(
                                    (unit, &ranks),
                                    local,
                                    (&mut moves, &mut exits),
                                    &mut made,
                                );
                                made.value(i, above)
                            }
                            None => {
                                scratch.clear();
                                self.moves_of(
                                    (unit, &ranks),
                                    local,
                                    (&mut moves, &mut exits),
                                    &mut scratch,
                                );
                                scratch.value(0, above)
                            }
                        };
                        values[i] = value;
                        rows[i * layers + c as usize] = value.raw();
                        open.open[kept] = i as u16;
                        kept += 1;
                    }
                    open.open.truncate(kept);
                    if build {
                        cached.fetch_add(made.bytes(), Ordering::Relaxed);
                        *cache = Some(made);
                    }
                });
            std::mem::swap(above, layer);
        }
        for (block, &(slot, men)) in unit.blocks.iter().take(unit.count).enumerate() {
            let first = men as usize * k;
            for i in 0..k {
                self.fresh[slot].set(first + i, rows[(block * k + i) * layers], false);
            }
            let entries = &rows[block * k * layers..(block + 1) * k * layers];
            self.blocks[slot].put(first * layers, entries)?;
        }
        self.spare.keep(arrays);
        Ok(())
    }

    /// Appends to `out` what the moves of the position at `local` give in every
    /// layer: the best of its conversions and man moves, which leave the unit, and
    /// the unit-local indices its king moves reach (valued from the layer above),
    /// with `ranks` the unit's blocks' ranks seen from their partners
    /// ([`BlockRanks::rotated`]).
    fn moves_of(
        &self,
        (unit, ranks): (&Unit, &[BlockRanks; 2]),
        local: usize,
        (moves, exits): (&mut Vec<Move>, &mut ExitCache),
        out: &mut ChunkMoves,
    ) {
        let k = self.group.block_size() as usize;
        let block = local / k;
        let partner_block = if unit.count == 2 { 1 - block } else { 0 };
        let slot = unit.blocks[block].0;
        let partner_slot = self.group.partner_slot(slot);
        let pos = self.group.position(unit, local);
        moves.clear();
        generate(&pos, moves);
        let mut best = Best::default();
        // A king move keeps the men, so it leads to the partner block: its place
        // there comes from the partner's ranks, with no move applied and no
        // position flipped or indexed whole (`SliceIndexer::kings_index` was a
        // sixth of a layered build's time).
        let ranks = &ranks[partner_block];
        let movers = ranks.compact(pos.white() & pos.kings());
        let stayers = ranks.compact(pos.black() & pos.kings());
        let base = (partner_block * k) as u64;
        for mv in moves.iter() {
            if !mv.is_capture() && !mv.is_promotion() && is_king_move(&pos, mv) {
                let moved =
                    movers & !ranks.compact_bit(mv.from_bit()) | ranks.compact_bit(mv.to_bit());
                out.targets
                    .push((base + ranks.compact_index(stayers, moved)) as u32);
                continue;
            }
            let after = apply(&pos, mv);
            if mv.is_capture() || mv.is_promotion() {
                best.add(self.group.metric.conversion(&pos, mv, &after, exits));
                continue;
            }
            let next = after.flipped();
            let target = &self.group.slots[partner_slot];
            let at = target.indexer.index(&next) as usize;
            let value = Dtc::from_raw(self.fresh[partner_slot].get(at));
            best.add(back((value.wdl(), value.distance().unwrap_or(0))));
        }
        out.fixed.push(Some(best));
        out.ends.push(out.targets.len() as u32);
    }
}

/// The positions of one chunk of a unit that the layered pass still evaluates,
/// by their place in the chunk.
struct OpenChunk {
    /// Open: evaluated in the next layer.
    open: Vec<u16>,
    /// Settled in the layer just done: their value goes into the next layer's
    /// array as well.
    settled: Vec<u16>,
}

impl OpenChunk {
    /// A chunk of `len` positions, every one open.
    fn new(len: usize) -> OpenChunk {
        OpenChunk {
            open: (0..len as u16).collect(),
            settled: Vec::new(),
        }
    }
}

/// What the moves of a chunk's positions give in every layer
/// ([`Layers::moves_of`]): generating and indexing them once instead of once per
/// layer is most of the layered pass's work saved. Position `i` of the chunk has
/// `fixed[i]` (`None` where it was not evaluated when this was made) and the king
/// moves `targets[ends[i - 1]..ends[i]]`.
#[derive(Default)]
struct ChunkMoves {
    fixed: Vec<Option<Best>>,
    ends: Vec<u32>,
    targets: Vec<u32>,
}

impl ChunkMoves {
    /// Records a position that was not evaluated.
    fn skip(&mut self) {
        self.fixed.push(None);
        self.ends.push(self.targets.len() as u32);
    }

    /// Forgets every position.
    fn clear(&mut self) {
        self.fixed.clear();
        self.ends.clear();
        self.targets.clear();
    }

    /// The bytes it holds.
    fn bytes(&self) -> usize {
        self.fixed.capacity() * std::mem::size_of::<Option<Best>>()
            + (self.ends.capacity() + self.targets.capacity()) * 4
    }

    /// `D(p, c)` of position `i` from `above`, the layer `c + 1`; the position
    /// must have been evaluated when this was made.
    #[inline]
    fn value(&self, i: usize, above: &[Dtc]) -> Dtc {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        let mut best = self.fixed[i].expect("a position evaluated in the first layer");
        for &target in &self.targets[start..self.ends[i] as usize] {
            let value = above[target as usize];
            best.add(back((value.wdl(), value.distance().unwrap_or(0))));
        }
        best.value()
    }
}

/// Whether the quiet move `mv` moves a king.
#[inline]
fn is_king_move<V: Variant>(pos: &Position<V>, mv: &Move) -> bool {
    pos.kings() & (1u64 << mv.from_bit()) != 0
}
