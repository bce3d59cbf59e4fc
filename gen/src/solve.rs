//! Retrograde analysis of one solve group: a slice and its mirror, solved together.
//!
//! # Order
//!
//! Blocks (one men placement, all king placements) are solved by sub-slice key,
//! descending ([`damka_core::subslice`]): a quiet man move raises the key, so it
//! always leads to a block already solved. Captures and promotions lead to other
//! slices, solved before the group. So inside a block only king moves stay
//! unresolved, and they lead from a block of one slice to the block of its flipped
//! men placement in the mirror slice. That pair of blocks is one *unit*, solved as a
//! small subgame; the units of one key run in parallel.
//!
//! # A unit
//!
//! 1. **Forward pass** (parallel): every position's moves are generated once. A
//!    position that must capture, or whose moves all leave the unit, gets its exact
//!    value from the successors' stored values. Otherwise the pass counts the king
//!    moves (successors inside the unit) and keeps the best outside result: the
//!    shortest win, whether a draw is there, and the longest loss.
//! 2. **Backward pass** by plies, with a bucket queue: a position is finalised when
//!    its ply comes up. A loss in `d` makes each quiet predecessor (found by
//!    un-moving the king that just moved, and keeping only predecessors whose mover
//!    had no capture) a win in `d + 1`. A win in `d` lowers each predecessor's
//!    counter; at zero, with no win and no draw outside, the predecessor loses in
//!    `max(d + 1, longest outside loss)`. Processing plies in increasing order makes
//!    every distance exact: wins are as short and losses as long as possible.
//! 3. Positions never finalised are draws.

use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering};
use std::sync::Arc;

use bitvec::vec::BitVec;
use damka_core::huge::{HugeArray, Zeroed};
use damka_core::position::rotate;
use damka_core::prefetch::prefetch;
use damka_core::{apply, Move};
use damka_core::{
    movegen::count_king_moves, movegen::generate_captures, movegen::generate_man_moves,
    movegen::has_capture, rays::Rays,
};
use damka_core::{Bits, BlockRanks, BlockWalk, Color, Position, Slice, SliceIndexer, Variant};
use damka_formats::{Value, Wdl};
use damka_probe::SliceTable;
use rayon::prelude::*;

use crate::error::GenError;
pub use crate::exits::Located;
use crate::exits::{ExitCache, Exits, TABLED_BLOCK};
use crate::store::ValueSource;
use crate::streamed::push_record;
use crate::values::SlotValues;

/// What a solve computes: how a capture or promotion is valued, and how a
/// decided value is stored. [`Dtw`] is the game-theoretic distance to win; the
/// rule tables plug in their distance to conversion.
pub trait Metric<V: Variant>: Sync {
    /// Where [`Metric::locate`] says a conversion's value is read from.
    type Lookup: Copy;

    /// Locates the value of the capture or promotion `mv` from `pos` (White to
    /// move), which leads to `after` (Black to move), and asks for the memory it
    /// will be read from: the forward pass locates the successors of a batch of
    /// positions before resolving any, so that their cache misses overlap.
    /// `cache` keeps the blocks conversions reached last ([`ExitCache`]).
    fn locate(
        &self,
        pos: &Position<V>,
        mv: &Move,
        after: &Position<V>,
        cache: &mut ExitCache,
    ) -> Self::Lookup;

    /// The value, for the side that played it, of the conversion located at
    /// `at`: the outcome and its distance in plies, the move included.
    fn resolve(&self, at: Self::Lookup) -> (Wdl, u16);

    /// The value, for the side that played it, of the capture or promotion `mv`
    /// from `pos` (White to move), which leads to `after` (Black to move): the
    /// outcome and its distance in plies, the move included.
    #[inline]
    fn conversion(
        &self,
        pos: &Position<V>,
        mv: &Move,
        after: &Position<V>,
        cache: &mut ExitCache,
    ) -> (Wdl, u16) {
        self.resolve(self.locate(pos, mv, after, cache))
    }

    /// The value, for the side that played it, of a quiet man move, which leads
    /// to the position at `index` of the group's slice `mirror` (flipped, White
    /// to move), when the metric counts to that move; `None` (the default) to
    /// value it by the group's own values, solved already.
    fn man_move(&self, _mirror: Slice, _index: usize) -> Option<(Wdl, u16)> {
        None
    }

    /// Whether a kings-only group may be solved in two bytes per position
    /// ([`crate::kings`]): the metric's wins must lie at odd plies and its
    /// losses at even ones, and [`Metric::encode`] must fit the first plies in a
    /// byte, as DTW's values do.
    const KINGS_IN_TWO_BYTES: bool = false;

    /// Called after each sub-slice, when no thread reads: a metric whose
    /// dependencies are decoded a block at a time drops the blocks it decoded,
    /// and fails if one could not be decoded (its entries then read as draws, so
    /// nothing solved with it may be kept). Nothing by default.
    fn sub_slice_done(&mut self) -> Result<(), GenError> {
        Ok(())
    }

    /// The stored `u16` of a decided value (never 0, which is a draw).
    fn encode(&self, wdl: Wdl, plies: u16) -> u16;

    /// The outcome and distance of a stored `u16` (0 is a draw).
    fn decode(&self, raw: u16) -> (Wdl, u16);
}

/// The game-theoretic metric: DTW, stored as [`Value`]s, with the captures and
/// promotions read from the dependencies' tables.
pub struct Dtw<V: Variant> {
    tables: Vec<Arc<SliceTable<V>>>,
    exits: Exits<V>,
}

impl<V: Variant> Dtw<V> {
    /// The metric over the DTW tables of the group's dependencies, decoded whole
    /// or a block at a time ([`damka_probe::Tablebase::paged_slice_table`]; such
    /// a table must not be shared, so that [`Metric::sub_slice_done`] can drop
    /// its blocks).
    pub fn new(dependencies: Vec<Arc<SliceTable<V>>>) -> Dtw<V> {
        let exits = Exits::new(dependencies.iter().map(|t| t.indexer().clone()).collect());
        Dtw {
            tables: dependencies,
            exits,
        }
    }
}

impl<V: Variant> Metric<V> for Dtw<V> {
    type Lookup = Located;

    const KINGS_IN_TWO_BYTES: bool = true;

    #[inline]
    fn locate(
        &self,
        _pos: &Position<V>,
        _mv: &Move,
        after: &Position<V>,
        cache: &mut ExitCache,
    ) -> Located {
        self.exits.located(after, cache, |table, index| {
            self.tables[table].prefetch(index)
        })
    }

    #[inline]
    fn resolve(&self, at: Located) -> (Wdl, u16) {
        match at {
            Located::Known(wdl, plies) => (wdl, plies),
            Located::Entry { table, index } => {
                let value = self.tables[table as usize].get(index as u64);
                self.decode(value.back().raw())
            }
        }
    }

    fn sub_slice_done(&mut self) -> Result<(), GenError> {
        for table in &mut self.tables {
            if let Some(table) = Arc::get_mut(table) {
                table.release_pages()?;
            }
        }
        Ok(())
    }

    #[inline]
    fn encode(&self, wdl: Wdl, plies: u16) -> u16 {
        debug_assert_eq!(wdl == Wdl::Win, plies % 2 == 1);
        Value::decided(plies).raw()
    }

    #[inline]
    fn decode(&self, raw: u16) -> (Wdl, u16) {
        let value = Value::from_raw(raw);
        (value.wdl(), value.dtw().unwrap_or(0))
    }
}

/// The value one ply earlier through a move that leads to a position of value
/// `(wdl, plies)`.
#[inline]
pub(crate) fn back((wdl, plies): (Wdl, u16)) -> (Wdl, u16) {
    match wdl {
        Wdl::Draw => (Wdl::Draw, 0),
        other => (other.negate(), plies + 1),
    }
}

/// A win has been queued for this position.
const WIN_QUEUED: u8 = 1;
/// A move out of the unit draws.
const DRAW_OUTSIDE: u8 = 2;
/// The side to move must capture: no quiet move, so no predecessor by a quiet move.
const CAPTURE: u8 = 4;
/// No ply queued at the end of the forward pass.
const NOT_QUEUED: u16 = u16::MAX;

/// Gives the raw values of a slice (the first argument) over a range of its
/// indices into a buffer as long as the range: the source of [`Group::load`].
pub(crate) type ReadSlices<'a> =
    dyn Fn(Slice, Range<usize>, &mut [u16]) -> Result<(), GenError> + Sync + 'a;

/// One slice of the group being solved, with its values so far.
pub struct Slot<V: Variant> {
    pub(crate) indexer: SliceIndexer<V>,
    /// A raw value and a capture bit (the side to move must capture: the table
    /// format may treat these values as don't-care) per position, by sub-slice.
    pub(crate) values: SlotValues,
}

impl<V: Variant> Slot<V> {
    /// The solved values, one raw [`Value`] per index, and the capture positions,
    /// one bit per index, all in memory.
    pub fn into_values(self) -> Result<(Vec<u16>, BitVec<u64>), GenError> {
        self.values.to_vecs()
    }

    /// The solved values, read range by range by the table writer.
    pub fn values(&self) -> &dyn ValueSource {
        &self.values
    }

    /// The slice.
    pub fn slice(&self) -> Slice {
        self.indexer.slice()
    }
}

/// A solve group and the metric that values its moves out of the group.
pub struct Group<V: Variant, M: Metric<V>> {
    pub(crate) slots: Vec<Slot<V>>,
    pub(crate) metric: M,
    /// Solved sub-slices go to disk once nothing reads them.
    spill: bool,
    /// Solved blocks go to disk as their units finish ([`crate::streamed`]).
    streamed: bool,
    /// The first failure to write a solved block, for the solve to return.
    failure: std::sync::Mutex<Option<GenError>>,
    /// Units are solved one after the other, each on every thread, so that
    /// only one unit's working cells are in memory.
    one_unit_at_a_time: bool,
    /// A kings-only group solved in two bytes per position ([`crate::kings`]).
    kings_only: bool,
}

/// A pair of blocks (or one block, when a men placement is its own flip) whose
/// positions reach each other by king moves.
#[derive(Clone, Copy)]
pub(crate) struct Unit {
    /// `(slot, men index)` of each block.
    pub(crate) blocks: [(usize, u64); 2],
    /// The men of each block: White's and Black's, padded bitboards.
    pub(crate) men: [(u64, u64); 2],
    /// 1 or 2.
    pub(crate) count: usize,
}

impl<V: Variant, M: Metric<V>> Group<V, M> {
    /// The ranks of each block of `unit` seen from its partner block
    /// ([`BlockRanks::rotated`]): where king moves from the partner land.
    pub(crate) fn unit_ranks(&self, unit: &Unit) -> [BlockRanks; 2] {
        let ranks = |b: usize| {
            let (white_men, black_men) = unit.men[b];
            BlockRanks::rotated(&self.slots[unit.blocks[b].0].indexer, white_men, black_men)
        };
        [ranks(0), ranks(unit.count - 1)]
    }

    /// Prepares the group of `slice` (and its mirror), valuing captures and
    /// promotions by `metric`, with every value in memory.
    pub fn new(slice: Slice, metric: M) -> Result<Self, GenError> {
        Group::with_spill(slice, metric, None)
    }

    /// Prepares the group like [`Group::new`]; with `spill_dir`, it is solved
    /// with only two sub-slices of values in memory, the others written to
    /// temporary files in that directory (see [`crate::values`]).
    pub fn with_spill(slice: Slice, metric: M, spill_dir: Option<&Path>) -> Result<Self, GenError> {
        let mut slices = vec![slice];
        if !slice.is_self_mirror() {
            slices.push(slice.mirror());
        }
        let kings_only = M::KINGS_IN_TWO_BYTES && slice.men() == 0;
        let mut slots = Vec::new();
        for s in slices {
            let indexer = SliceIndexer::new(s)?;
            usize::try_from(indexer.size()).map_err(|_| GenError::TooLarge(s.name()))?;
            let values = match spill_dir {
                // A kings-only group is one unit: nothing of it can be spilled.
                _ if kings_only => SlotValues::kings_only(&indexer),
                Some(dir) => {
                    SlotValues::new(&indexer, dir.join(format!("{}.values.tmp", s.name())))
                }
                None => SlotValues::in_memory(&indexer),
            };
            slots.push(Slot { indexer, values });
        }
        Ok(Group {
            slots,
            metric,
            spill: spill_dir.is_some() && !kings_only,
            streamed: false,
            failure: std::sync::Mutex::new(None),
            one_unit_at_a_time: false,
            kings_only,
        })
    }

    /// Prepares the group like [`Group::new`], solved in the least memory: each
    /// block written to a temporary file in `dir` as its unit finishes, and only
    /// the sub-slice being read kept in memory, a byte per position (see
    /// [`crate::streamed`]). A kings-only group, one unit, is solved in memory.
    pub fn streamed(slice: Slice, metric: M, dir: &Path) -> Result<Self, GenError> {
        let mut group = Group::with_spill(slice, metric, Some(dir))?;
        if group.kings_only {
            return Ok(group);
        }
        for slot in &mut group.slots {
            let path = dir.join(format!("{}.blocks.tmp", slot.slice().name()));
            slot.values = SlotValues::streamed(&slot.indexer, path)?;
        }
        group.spill = false;
        group.streamed = true;
        Ok(group)
    }

    /// Solves the units one after the other, each on every thread, so that only
    /// one unit's working cells are in memory (for groups whose units are huge).
    pub fn one_unit_at_a_time(mut self) -> Self {
        self.one_unit_at_a_time = true;
        self
    }

    /// Whether the group is solved (or, after [`Group::solve`], was solved) in
    /// two bytes per position, as a kings-only group ([`crate::kings`]).
    pub fn in_two_bytes(&self) -> bool {
        self.kings_only
    }

    /// Number of positions in the group.
    pub fn positions(&self) -> u64 {
        self.slots.iter().map(|s| s.indexer.size()).sum()
    }

    /// Solves every position; `progress` is called with the number of positions
    /// finished after each unit. When the group spills, a sub-slice is allocated
    /// just before it is solved, and written out once the next one is solved.
    pub fn solve(&mut self, progress: &(dyn Fn(u64) + Sync)) -> Result<(), GenError> {
        if self.kings_only {
            let units = self.units(0);
            debug_assert_eq!(units.len(), 1, "a kings-only group is one unit");
            if self.solve_kings_only(&units[0], progress) {
                return self.metric.sub_slice_done();
            }
            // A distance too long for a byte: solve it the general way.
            self.kings_only = false;
            for slot in &mut self.slots {
                slot.values = SlotValues::in_memory(&slot.indexer);
            }
        }
        let keys = self.slots[0].indexer.sub_slices();
        let mut above = None;
        for sub in keys {
            if self.spill {
                for slot in &mut self.slots {
                    slot.values.allocate(sub.key);
                }
            }
            if self.streamed {
                // Only the key just solved is read (by quiet man moves); a key
                // may be missing, and then nothing is.
                let read = above.filter(|&key| key == sub.key + 1);
                for slot in &mut self.slots {
                    slot.values.read_back(read)?;
                }
            }
            let units = self.units(sub.key);
            // Small units (blocks of a few positions, men-heavy slices) are solved
            // many to a task, reusing one working memory: allocating it per unit
            // cost more than solving the unit.
            let per_task = (SMALL_UNIT_TASK / self.block_size() as usize).max(1);
            let solve_chunk = |chunk: &[Unit]| {
                let mut work = UnitWork::default();
                for unit in chunk {
                    self.solve_unit(unit, &mut work);
                }
                self.flush_records(&mut work.records);
                let units: usize = chunk.iter().map(|u| u.count).sum();
                progress(units as u64 * self.block_size());
            };
            if self.one_unit_at_a_time {
                // Each unit's passes still run on every thread.
                units.chunks(per_task).for_each(solve_chunk);
            } else {
                units.par_chunks(per_task).for_each(solve_chunk);
            }
            self.metric.sub_slice_done()?;
            if self.spill {
                for slot in &mut self.slots {
                    slot.values.spill_above(sub.key)?;
                }
            }
            if let Some(error) = self.failure.get_mut().ok().and_then(Option::take) {
                return Err(error);
            }
            above = Some(sub.key);
        }
        if self.streamed {
            for slot in &mut self.slots {
                slot.values.read_back(None)?;
            }
        }
        Ok(())
    }

    /// Takes every value from `read` (a slice, a range of its indices, where its
    /// raw values go) instead of solving: the values an earlier, interrupted build
    /// solved and wrote, read back from its tables. A kings-only group kept in two
    /// bytes per position, or a streamed one, cannot be loaded.
    pub(crate) fn load(&mut self, read: &ReadSlices<'_>) -> Result<(), GenError> {
        for slot in &mut self.slots {
            let slice = slot.slice();
            slot.values.load(&|range, out| read(slice, range, out))?;
        }
        Ok(())
    }

    /// The solved slots.
    pub fn into_slots(self) -> Vec<Slot<V>> {
        self.slots
    }

    pub(crate) fn block_size(&self) -> u64 {
        self.slots[0].indexer.king_placements()
    }

    /// The slot of the mirror slice of slot `s`.
    pub(crate) fn partner_slot(&self, s: usize) -> usize {
        if self.slots.len() == 2 {
            1 - s
        } else {
            0
        }
    }

    /// The units of sub-slice `key`, each once.
    pub(crate) fn units(&self, key: u32) -> Vec<Unit> {
        let mut units = Vec::new();
        for (s, slot) in self.slots.iter().enumerate() {
            let partner = self.partner_slot(s);
            for men in slot.indexer.men_indices(key) {
                let flipped = self.slots[partner]
                    .indexer
                    .men_index(rotate::<V>(men.black_men), rotate::<V>(men.white_men));
                let (a, b) = ((s, men.index), (partner, flipped));
                let men_a = (men.white_men, men.black_men);
                let men_b = (rotate::<V>(men.black_men), rotate::<V>(men.white_men));
                if a < b {
                    units.push(Unit {
                        blocks: [a, b],
                        men: [men_a, men_b],
                        count: 2,
                    });
                } else if a == b {
                    units.push(Unit {
                        blocks: [a, a],
                        men: [men_a, men_a],
                        count: 1,
                    });
                }
            }
        }
        units
    }

    /// The position at a unit-local index.
    #[inline]
    pub(crate) fn position(&self, unit: &Unit, local: usize) -> Position<V> {
        let k = self.block_size();
        let (block, offset) = (local as u64 / k, local as u64 % k);
        let slot = unit.blocks[block as usize].0;
        self.slots[slot]
            .indexer
            .position_in_block(unit.men[block as usize], offset)
    }

    fn solve_unit(&self, unit: &Unit, work: &mut UnitWork<V, M::Lookup>) {
        let k = self.block_size() as usize;
        let n = k * unit.count;
        let mut huge;
        let cells: &mut [Cell] = if n > SMALL_UNIT_TASK {
            huge = HugeArray::<Cell>::zeroed(n);
            &mut huge
        } else {
            work.cells.clear();
            work.cells.resize_with(n, Cell::default);
            &mut work.cells
        };
        // Predecessors are found only by un-moving kings.
        let has_kings = self.slots[0].slice().pieces() > self.slots[0].slice().men();
        // A unit examined by this task alone is examined in index order.
        work.examine.record = has_kings && n <= SMALL_UNIT_TASK;
        work.examine.kings.clear();
        self.forward_pass(unit, cells, &mut work.examine);

        // Each block's ranks seen from its partner block (rotated), where the
        // backward pass finds its predecessors.
        if has_kings {
            let ranks = self.unit_ranks(unit);
            let kings = work.examine.record.then_some(work.examine.kings.as_slice());
            self.backward_pass(unit, cells, &ranks, kings, &mut work.backward);
        } else {
            // No king, so no move stays inside the unit: the forward pass decided
            // every position, at the ply it queued it for.
            for cell in cells.iter_mut() {
                let first = *cell.first_ply.get_mut();
                if first != NOT_QUEUED {
                    let won = *cell.flags.get_mut() & WIN_QUEUED != 0;
                    let outcome = if won { Wdl::Win } else { Wdl::Loss };
                    *cell.value.get_mut() = self.metric.encode(outcome, first);
                }
            }
        }
        if self.streamed {
            self.record_blocks(unit, cells, &mut work.records);
            return;
        }
        let store = |(local, cell): (usize, &Cell)| {
            let (slot, men) = unit.blocks[local / k];
            let index = men as usize * k + local % k;
            let capture = cell.flags.load(Ordering::Relaxed) & CAPTURE != 0;
            self.slots[slot]
                .values
                .set(index, cell.value.load(Ordering::Relaxed), capture);
        };
        if n >= PARALLEL_FRONTIER {
            cells.par_iter().enumerate().for_each(store);
        } else {
            cells.iter().enumerate().for_each(store);
        }
    }

    /// Adds the solved blocks of `unit` to the task's records of streamed
    /// values ([`Group::flush_records`] writes them).
    fn record_blocks(&self, unit: &Unit, cells: &[Cell], records: &mut Records) {
        let k = self.block_size() as usize;
        for (b, block) in cells.chunks(k).enumerate().take(unit.count) {
            let (slot, men) = unit.blocks[b];
            records.men[slot].push(men as usize);
            push_record(
                &mut records.bytes[slot],
                block.iter().map(|c| c.value.load(Ordering::Relaxed)),
                |i| block[i].flags.load(Ordering::Relaxed) & CAPTURE != 0,
            );
        }
    }

    /// Writes a task's records of streamed values, one write per slot; a
    /// failure is kept for [`Group::solve`] to return.
    fn flush_records(&self, records: &mut Records) {
        for (slot, (men, bytes)) in records.men.iter_mut().zip(&mut records.bytes).enumerate() {
            if men.is_empty() {
                continue;
            }
            if let Err(error) = self.slots[slot].values.write_blocks(men, bytes) {
                if let Ok(mut failure) = self.failure.lock() {
                    failure.get_or_insert(error);
                }
            }
            men.clear();
            bytes.clear();
        }
    }

    /// The backward pass of a unit with kings (see the module docs): settles the
    /// bucket queue ply by ply.
    fn backward_pass(
        &self,
        unit: &Unit,
        cells: &mut [Cell],
        ranks: &[BlockRanks],
        kings: Option<&[(u64, u64)]>,
        work: &mut BackwardWork,
    ) {
        let BackwardWork {
            buckets,
            updates,
            pushed,
            spare,
        } = work;
        for (local, cell) in cells.iter_mut().enumerate() {
            let first = *cell.first_ply.get_mut();
            if first != NOT_QUEUED {
                buckets.push(local as u32, first);
            }
        }
        let mut ply = 0;
        while ply < buckets.top {
            if buckets.lists[ply].is_empty() {
                ply += 1;
                continue;
            }
            let items = std::mem::replace(&mut buckets.lists[ply], std::mem::take(spare));
            // A ply's frontier is processed in parallel when it is large (a
            // kings-only slice is one unit, so this is its only parallelism);
            // every push goes to a later ply, so the order does not matter.
            let state = (&*cells, ranks, kings);
            if items.len() >= PARALLEL_FRONTIER {
                let pushed: Vec<Vec<(u32, u16)>> = items
                    .par_chunks(FRONTIER_CHUNK)
                    .map(|chunk| {
                        let mut pushed = Vec::new();
                        let scratch = (&mut Vec::new(), &mut pushed);
                        self.settle(unit, state, chunk, ply as u16, true, scratch);
                        pushed
                    })
                    .collect();
                for (local, at) in pushed.into_iter().flatten() {
                    buckets.push(local, at);
                }
            } else {
                pushed.clear();
                let scratch = (&mut *updates, &mut *pushed);
                self.settle(unit, state, &items, ply as u16, false, scratch);
                for &(local, at) in pushed.iter() {
                    buckets.push(local, at);
                }
            }
            // The ply's list is not needed again: keep its memory for the next.
            let mut items = items;
            items.clear();
            if spare.capacity() < items.capacity() {
                *spare = items;
            }
            ply += 1;
        }
        buckets.top = 0;
    }

    /// Decides the positions `items` of the frontier at `ply` (those not decided
    /// already) and updates their predecessors; appends the positions to queue,
    /// with their plies, to `pushed` (`updates` is scratch). `shared`: other
    /// threads settle the same unit at once, so the updates must be atomic
    /// read-modify-writes; alone, plain loads and stores let the processor
    /// overlap the cache misses of many predecessors.
    fn settle(
        &self,
        unit: &Unit,
        (cells, ranks, kings): UnitState<'_>,
        items: &[u32],
        ply: u16,
        shared: bool,
        (updates, pushed): Scratch<'_>,
    ) {
        let k = self.block_size() as usize;
        for (b, batch) in items.chunks(SETTLE_BATCH).enumerate() {
            // The frontier is in no particular order: ask for the next batch's
            // cells now, so that they arrive while this batch is settled.
            let next = items.iter().skip((b + 1) * SETTLE_BATCH).take(SETTLE_BATCH);
            next.for_each(|&local| prefetch(&cells[local as usize]));
            // First decide the batch and list its predecessors, prefetching each
            // cell; then update them, so that their cache misses overlap.
            updates.clear();
            for &local in batch {
                let cell = &cells[local as usize];
                // Only the win queued for it can change a frontier cell's flags in
                // this ply, and it is queued before (`solve_unit`): the outcome is
                // known.
                let won = cell.flags.load(Ordering::Relaxed) & WIN_QUEUED != 0;
                let outcome = if won { Wdl::Win } else { Wdl::Loss };
                let value = self.metric.encode(outcome, ply);
                if shared {
                    let claimed =
                        cell.value
                            .compare_exchange(0, value, Ordering::Relaxed, Ordering::Relaxed);
                    if claimed.is_err() {
                        continue;
                    }
                } else {
                    if cell.value.load(Ordering::Relaxed) != 0 {
                        continue;
                    }
                    cell.value.store(value, Ordering::Relaxed);
                }
                let block = local as usize / k;
                let partner = if unit.count == 2 { 1 - block } else { 0 };
                let base = partner * k;
                let pos = match kings {
                    Some(kings) => {
                        let (white_kings, black_kings) = kings[local as usize];
                        let (white_men, black_men) = unit.men[block];
                        Position::from_bitboards_unchecked(
                            white_men | white_kings,
                            black_men | black_kings,
                            white_kings | black_kings,
                            Color::White,
                        )
                    }
                    None => self.position(unit, local as usize),
                };
                for_each_predecessor(&pos, &ranks[partner], |offset| {
                    let q = base + offset as usize;
                    prefetch(&cells[q]);
                    updates.push((q as u32, won));
                });
            }
            for &(q, won) in updates.iter() {
                let cell = &cells[q as usize];
                let flags = cell.flags.load(Ordering::Relaxed);
                if cell.value.load(Ordering::Relaxed) != 0 || flags & CAPTURE != 0 {
                    continue;
                }
                if !won {
                    // A win queued for this ply or an earlier one needs no second
                    // entry (plies are settled in increasing order).
                    let queued = cell.first_ply.load(Ordering::Relaxed);
                    if flags & WIN_QUEUED != 0 && queued <= ply + 1 {
                        continue;
                    }
                    cell.first_ply.store(ply + 1, Ordering::Relaxed);
                    if shared {
                        cell.flags.fetch_or(WIN_QUEUED, Ordering::Relaxed);
                    } else {
                        cell.flags.store(flags | WIN_QUEUED, Ordering::Relaxed);
                    }
                    pushed.push((q, ply + 1));
                    continue;
                }
                let count = if shared {
                    cell.count.fetch_sub(1, Ordering::Relaxed)
                } else {
                    let count = cell.count.load(Ordering::Relaxed);
                    cell.count.store(count - 1, Ordering::Relaxed);
                    count
                };
                if count == 1
                    && cell.flags.load(Ordering::Relaxed) & (WIN_QUEUED | DRAW_OUTSIDE) == 0
                {
                    pushed.push((q, (ply + 1).max(cell.loss_floor)));
                }
            }
        }
    }

    /// The forward pass of a unit (see the module docs), in parallel chunks, each
    /// walking its positions in index order and examining them in batches.
    fn forward_pass(&self, unit: &Unit, cells: &mut [Cell], scratch: &mut Examine<V, M::Lookup>) {
        if cells.len() <= FORWARD_CHUNK {
            self.forward_chunk(unit, 0, cells, scratch);
        } else {
            cells
                .par_chunks_mut(FORWARD_CHUNK)
                .enumerate()
                .for_each(|(chunk, cells)| {
                    let first = chunk * FORWARD_CHUNK;
                    self.forward_chunk(unit, first, cells, &mut Examine::default())
                });
        }
    }

    /// The forward pass of the unit's positions from `first` on, one per cell
    /// of `cells`, walked in index order and examined in batches.
    pub(crate) fn forward_chunk(
        &self,
        unit: &Unit,
        first: usize,
        cells: &mut [Cell],
        scratch: &mut Examine<V, M::Lookup>,
    ) {
        let k = self.block_size() as usize;
        let len = cells.len();
        let mut batch = std::mem::take(&mut scratch.batch);
        batch.clear();
        let mut done = 0;
        let mut feed = |slot: usize, pos: Position<V>| {
            batch.push((slot, pos));
            if batch.len() == FORWARD_BATCH {
                self.examine(&batch, &mut cells[done..done + FORWARD_BATCH], scratch);
                done += FORWARD_BATCH;
                batch.clear();
            }
        };
        if k < SHORT_BLOCK {
            // Setting up a walk costs more than unranking a few positions.
            for local in first..first + len {
                feed(unit.blocks[local / k].0, self.position(unit, local));
            }
        } else {
            // A chunk may straddle the unit's two blocks: one walk per block.
            let mut local = first;
            while local < first + len {
                let (block, offset) = (local / k, local % k);
                let (slot, men) = unit.blocks[block];
                let walk = BlockWalk::new(&self.slots[slot].indexer, men, offset as u64);
                let span = (k - offset).min(first + len - local);
                walk.take(span).for_each(|pos| feed(slot, pos));
                local += span;
            }
        }
        if !batch.is_empty() {
            self.examine(&batch, &mut cells[done..], scratch);
        }
        scratch.batch = batch;
    }

    /// Fresh scratch lists for [`Group::forward_results`].
    pub(crate) fn examine_scratch(&self) -> Examine<V, M::Lookup> {
        Examine::default()
    }

    /// The forward pass of the `len` positions of `unit` from `first` on, as
    /// [`Forward`] results in `results`: what the kings-only solve keeps of
    /// each.
    pub(crate) fn forward_results(
        &self,
        unit: &Unit,
        first: usize,
        len: usize,
        scratch: &mut Examine<V, M::Lookup>,
        results: &mut Vec<Forward>,
    ) {
        let mut cells = std::mem::take(&mut scratch.cells);
        cells.clear();
        cells.resize_with(len, Cell::default);
        self.forward_chunk(unit, first, &mut cells, scratch);
        results.clear();
        results.extend(cells.iter_mut().map(|cell| {
            let flags = *cell.flags.get_mut();
            let first = *cell.first_ply.get_mut();
            let outcome = if flags & WIN_QUEUED != 0 {
                Wdl::Win
            } else {
                Wdl::Loss
            };
            Forward {
                capture: flags & CAPTURE != 0,
                decided: (first != NOT_QUEUED).then_some((outcome, first)),
                king_moves: *cell.count.get_mut(),
            }
        }));
        scratch.cells = cells;
    }

    /// Generates the moves of a batch of positions `(slot, position)` and sorts
    /// them into king moves inside the unit, which are only counted, and results
    /// outside it, which are recorded in `cells`. Every successor of the batch is
    /// located (and its value prefetched) before any is read.
    #[inline]
    fn examine(
        &self,
        batch: &[(usize, Position<V>)],
        cells: &mut [Cell],
        scratch: &mut Examine<V, M::Lookup>,
    ) {
        let mut outcomes = [Outcome::default(); FORWARD_BATCH];
        // Blocks too short to be worth rank tables are indexed whole.
        let tabled = self.block_size() >= TABLED_BLOCK;
        scratch.exits.set_block_size(self.block_size());
        scratch.successors.clear();
        if scratch.record {
            let kings = batch
                .iter()
                .map(|(_, p)| (p.white() & p.kings(), p.black() & p.kings()));
            scratch.kings.extend(kings);
        }
        for (i, (slot, pos)) in batch.iter().enumerate() {
            let moves = &mut scratch.moves;
            moves.clear();
            // Most positions have no capture: the bitboard test is far cheaper than
            // the capture search it spares.
            if has_capture(pos) {
                generate_captures(pos, moves);
            }
            let capture = !moves.is_empty();
            outcomes[i].capture = capture;
            if !capture {
                generate_man_moves(pos, moves);
                outcomes[i].king_moves = count_king_moves(pos) as u8;
            }
            let partner = self.partner_slot(*slot);
            let man_moves = moves.iter().any(|mv| !capture && !mv.is_promotion());
            let offset = if man_moves && tabled {
                scratch.man_moves.offset(&self.slots[partner], *slot, pos)
            } else {
                0
            };
            for mv in moves.iter() {
                let successor = if capture || mv.is_promotion() {
                    Successor::Conversion(self.metric.locate(
                        pos,
                        mv,
                        &apply(pos, mv),
                        &mut scratch.exits,
                    ))
                } else {
                    // A quiet man move keeps the material: the mirror slot, solved
                    // already for this higher sub-slice key.
                    let mirror = &self.slots[partner];
                    let index = if tabled {
                        scratch.man_moves.index(mirror, pos, mv, offset)
                    } else {
                        mirror.indexer.index(&apply(pos, mv).flipped()) as usize
                    };
                    debug_assert_eq!(
                        index,
                        mirror.indexer.index(&apply(pos, mv).flipped()) as usize
                    );
                    if let Some(value) = self.metric.man_move(mirror.slice(), index) {
                        Successor::Known(value)
                    } else {
                        mirror.values.prefetch(index);
                        Successor::Mirror(partner, index)
                    }
                };
                scratch.successors.push((i as u8, successor));
            }
        }
        for &(i, successor) in &scratch.successors {
            let (wdl, d) = match successor {
                Successor::Conversion(at) => self.metric.resolve(at),
                Successor::Known(value) => value,
                Successor::Mirror(slot, index) => {
                    back(self.metric.decode(self.slots[slot].values.get(index)))
                }
            };
            outcomes[i as usize].add(wdl, d);
        }
        for (cell, outcome) in cells.iter_mut().zip(&outcomes) {
            cell.set(outcome);
        }
    }
}

/// The result of the forward pass for one position, as the kings-only
/// solve stores it.
#[derive(Clone, Copy)]
pub(crate) struct Forward {
    /// The side to move must capture.
    pub(crate) capture: bool,
    /// The position's value if the forward pass decided it: the outcome and its
    /// ply.
    pub(crate) decided: Option<(Wdl, u16)>,
    /// Its king moves (0 for a capture position).
    pub(crate) king_moves: u8,
}

/// Calls `f` with the block offset of every position that reaches `pos` by a
/// king move of the side that just moved (Black, as `pos` has White to move).
/// The predecessors are White-to-move positions of the mirror slice, in the
/// partner block, whose ranks `partner` gives seen from `pos`
/// ([`BlockRanks::rotated`]), so `pos` is never flipped. The caller drops those
/// whose mover had to capture (the forward pass flagged them), where the king
/// move was illegal.
#[inline]
pub(crate) fn for_each_predecessor<V: Variant>(
    pos: &Position<V>,
    partner: &BlockRanks,
    mut f: impl FnMut(u64),
) {
    let kings = pos.kings();
    let (movers, stayers) = (pos.black() & kings, pos.white() & kings);
    let occupied = V::GEOMETRY.mask & !pos.empty();
    // The kings that did not move are the predecessor's Black kings: ranked once.
    let black = partner.compact(stayers);
    for king in Bits(movers) {
        let others = partner.compact(movers & !(1u64 << king));
        for d in 0..4 {
            for to in Bits(Rays::<V>::reach(king, d, occupied).0) {
                f(partner.compact_index(others | partner.compact_bit(to), black));
            }
        }
    }
}

/// The working state of one position of a unit, kept together so the backward
/// pass touches one cache line per predecessor. Atomic, so that a large frontier
/// is processed by several threads at once.
#[derive(Default)]
pub(crate) struct Cell {
    /// The final stored value ([`Metric::encode`]), 0 until decided.
    value: AtomicU16,
    /// The longest loss by a move leaving the unit (written by the forward pass).
    loss_floor: u16,
    /// The ply at which the forward pass queued the position, or [`NOT_QUEUED`];
    /// once the backward pass queues a win for it, the ply of that win.
    first_ply: AtomicU16,
    /// King moves not yet known to lose for the mover.
    count: AtomicU8,
    /// [`WIN_QUEUED`], [`DRAW_OUTSIDE`], [`CAPTURE`].
    flags: AtomicU8,
}

// SAFETY: every field is an integer or an atomic integer, and zero is the
// default of each: a zero-filled cell is `Cell::default()`.
unsafe impl Zeroed for Cell {}

impl Cell {
    /// Records what the forward pass learnt.
    fn set(&mut self, outcome: &Outcome) {
        *self.count.get_mut() = outcome.king_moves;
        self.loss_floor = outcome.longest_loss;
        let mut flags = 0;
        let mut first = NOT_QUEUED;
        if outcome.draw {
            flags |= DRAW_OUTSIDE;
        }
        if outcome.capture {
            flags |= CAPTURE;
        }
        if let Some(win) = outcome.shortest_win {
            flags |= WIN_QUEUED;
            first = win;
        } else if outcome.king_moves == 0 && !outcome.draw {
            first = outcome.longest_loss;
        }
        *self.flags.get_mut() = flags;
        *self.first_ply.get_mut() = first;
    }
}

/// What the backward pass reads of a unit: its cells, each block's ranks seen
/// from its partner, and the kings of each position if the forward pass
/// recorded them.
type UnitState<'a> = (&'a [Cell], &'a [BlockRanks], Option<&'a [(u64, u64)]>);

/// Scratch lists of the backward pass: predecessor updates `(position, won)`
/// and positions to queue `(position, ply)`.
type Scratch<'a> = (&'a mut Vec<(u32, bool)>, &'a mut Vec<(u32, u16)>);

/// The backward pass's bucket queue: the positions to settle at each ply.
#[derive(Default)]
struct Buckets {
    /// Per ply; lists at and above `top` are empty (kept for their memory).
    lists: Vec<Vec<u32>>,
    /// One past the highest ply queued.
    top: usize,
}

impl Buckets {
    /// Queues `local` at `ply`.
    fn push(&mut self, local: u32, ply: u16) {
        let ply = ply as usize;
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        self.lists[ply].push(local);
        self.top = self.top.max(ply + 1);
    }
}

/// The working memory of a unit's solve, reused by the units one task solves in
/// a row.
struct UnitWork<V: Variant, L> {
    /// The forward pass's scratch lists.
    examine: Examine<V, L>,
    /// The cells of a unit of at most [`SMALL_UNIT_TASK`] positions (larger ones
    /// get their own, possibly huge-page, array).
    cells: Vec<Cell>,
    /// The backward pass's queue and scratch lists.
    backward: BackwardWork,
    /// The task's solved blocks, when the values are streamed.
    records: Records,
}

impl<V: Variant, L> Default for UnitWork<V, L> {
    fn default() -> Self {
        UnitWork {
            examine: Examine::default(),
            cells: Vec::new(),
            backward: BackwardWork::default(),
            records: Records::default(),
        }
    }
}

/// Solved blocks waiting to be written to streamed values, per slot: their men
/// indices and records ([`push_record`]).
#[derive(Default)]
struct Records {
    men: [Vec<usize>; 2],
    bytes: [Vec<u8>; 2],
}

/// The working memory of a unit's backward pass.
#[derive(Default)]
struct BackwardWork {
    /// The bucket queue.
    buckets: Buckets,
    /// Scratch list of the single-threaded backward pass: predecessor updates.
    updates: Vec<(u32, bool)>,
    /// Scratch list of the single-threaded backward pass: positions to queue.
    pushed: Vec<(u32, u16)>,
    /// An empty list with memory, swapped in for a settled ply's.
    spare: Vec<u32>,
}

/// A frontier at least this large is processed by several threads.
const PARALLEL_FRONTIER: usize = 1 << 14;
/// Positions of small units solved together by one task (and the largest unit
/// whose cells are reused from unit to unit).
const SMALL_UNIT_TASK: usize = 1 << 12;
/// Blocks shorter than this are unranked position by position, not walked.
const SHORT_BLOCK: usize = 64;

/// Frontier positions decided together before their predecessors are updated.
const SETTLE_BATCH: usize = 16;

/// Frontier positions per parallel task.
const FRONTIER_CHUNK: usize = 1 << 12;

/// Positions per parallel task of the forward pass.
pub(crate) const FORWARD_CHUNK: usize = 4096;

/// Positions of the forward pass whose successors are located together.
const FORWARD_BATCH: usize = 16;

/// A successor of the forward pass: where its value is read.
#[derive(Clone, Copy)]
enum Successor<L> {
    /// A capture or promotion, located by the metric.
    Conversion(L),
    /// A quiet man move valued by the metric itself.
    Known((Wdl, u16)),
    /// A quiet man move into the group: `(slot, index)` of the position reached.
    Mirror(usize, usize),
}

/// Scratch lists of the forward pass, kept across batches.
pub(crate) struct Examine<V: Variant, L> {
    /// The positions of a batch, with their slots.
    batch: Vec<(usize, Position<V>)>,
    /// The moves of one position.
    moves: Vec<Move>,
    /// The successors of a batch: `(position in the batch, where its value is)`.
    successors: Vec<(u8, Successor<L>)>,
    /// Where the quiet man moves of the current block lead.
    man_moves: ManMoves,
    /// The blocks captures and promotions reached last.
    exits: ExitCache,
    /// Whether to record the kings of every position examined, in order, in
    /// `kings`: a unit solved by one task keeps them for its backward pass,
    /// which then unranks nothing.
    record: bool,
    /// The kings (White's, Black's) of the positions examined, when recorded.
    kings: Vec<(u64, u64)>,
    /// The cells of a chunk examined for [`Group::forward_results`].
    cells: Vec<Cell>,
}

/// The blocks the quiet man moves of one block lead to, each with its index
/// base and rank table: a man move leads every king placement of a block to the
/// same block of the mirror slice, so its successors are ranked by table (about
/// a tenth of a men-and-kings group's instructions went to indexing them whole).
///
/// Better still, a king keeps its rank among the free squares when a man moves,
/// unless it stands between the man's start and end squares: so the kings of a
/// position are ranked once, in the flipped block with the men unmoved, and
/// that offset serves every man move that passes no king.
#[derive(Default)]
struct ManMoves {
    /// The block these are for: its slot and its men (White's, Black's).
    block: (usize, u64, u64),
    /// The ranks of the flipped block, men unmoved, seen from this one.
    unmoved: Option<BlockRanks>,
    /// Per man move `(from, to)`: the first index of the block it leads to in
    /// the mirror slice, the squares strictly between `from` and `to`, and that
    /// block's ranks seen from this one.
    moves: Vec<((u8, u8), u64, u64, BlockRanks)>,
}

impl ManMoves {
    /// Makes the tables those of `pos`'s block (of slot `slot`, whose mirror
    /// slot is `mirror`), and returns the block offset of `pos`'s kings flipped,
    /// in the flipped block with the men unmoved ([`ManMoves::index`] takes it).
    #[inline]
    fn offset<V: Variant>(&mut self, mirror: &Slot<V>, slot: usize, pos: &Position<V>) -> u64 {
        let kings = pos.kings();
        let (white_men, black_men) = (pos.white() & !kings, pos.black() & !kings);
        if self.block != (slot, white_men, black_men) || self.unmoved.is_none() {
            self.block = (slot, white_men, black_men);
            self.moves.clear();
            let (white, black) = (rotate::<V>(black_men), rotate::<V>(white_men));
            self.unmoved = Some(BlockRanks::rotated(&mirror.indexer, white, black));
        }
        let unmoved = self.unmoved.as_ref().expect("just made");
        unmoved.kings_index(pos.black() & kings, pos.white() & kings)
    }

    /// The index in `mirror` (the mirror slot of `slot`) of the flipped position
    /// that the quiet man move `mv` leads to from `pos`, whose kings' `offset`
    /// [`ManMoves::offset`] gave.
    #[inline]
    fn index<V: Variant>(
        &mut self,
        mirror: &Slot<V>,
        pos: &Position<V>,
        mv: &Move,
        offset: u64,
    ) -> usize {
        let (white_men, black_men) = (self.block.1, self.block.2);
        let key = (mv.from_bit() as u8, mv.to_bit() as u8);
        let at = match self.moves.iter().position(|(k, ..)| *k == key) {
            Some(at) => at,
            None => {
                let moved = white_men & !(1u64 << mv.from_bit()) | 1u64 << mv.to_bit();
                let (white, black) = (rotate::<V>(black_men), rotate::<V>(moved));
                let indexer = &mirror.indexer;
                let base = indexer.men_index(white, black) * indexer.king_placements();
                let (low, high) = (key.0.min(key.1), key.0.max(key.1));
                let between = (1u64 << high) - (1u64 << low) - (1u64 << low);
                let ranks = BlockRanks::rotated(indexer, white, black);
                self.moves.push((key, base, between, ranks));
                self.moves.len() - 1
            }
        };
        let (_, base, between, ranks) = &self.moves[at];
        let kings = pos.kings();
        let offset = if kings & between == 0 {
            offset
        } else {
            ranks.kings_index(pos.black() & kings, pos.white() & kings)
        };
        (base + offset) as usize
    }
}

impl<V: Variant, L> Default for Examine<V, L> {
    fn default() -> Self {
        Examine {
            batch: Vec::with_capacity(FORWARD_BATCH),
            moves: Vec::with_capacity(64),
            successors: Vec::with_capacity(FORWARD_BATCH * 16),
            man_moves: ManMoves::default(),
            exits: ExitCache::default(),
            record: false,
            kings: Vec::new(),
            cells: Vec::new(),
        }
    }
}

/// What the forward pass learns about one position.
#[derive(Clone, Copy, Default)]
struct Outcome {
    /// Legal king moves, which stay inside the unit (0 for a capture position).
    king_moves: u8,
    /// Whether the side to move must capture.
    capture: bool,
    /// The shortest win by a move leaving the unit.
    shortest_win: Option<u16>,
    /// Whether a move leaving the unit draws.
    draw: bool,
    /// The longest loss by a move leaving the unit (0 if none).
    longest_loss: u16,
}

impl Outcome {
    /// Records a move leaving the unit whose value, for the mover, is `(wdl, d)`.
    #[inline]
    fn add(&mut self, wdl: Wdl, d: u16) {
        match wdl {
            Wdl::Draw => self.draw = true,
            Wdl::Win => self.shortest_win = Some(self.shortest_win.map_or(d, |w| w.min(d))),
            Wdl::Loss => self.longest_loss = self.longest_loss.max(d),
        }
    }
}
