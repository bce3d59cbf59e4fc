//! What the rule verifier reads for one position: its moves, each applied and
//! located once, and the rule-table entries of the positions they reach.
//!
//! The verifier walks a slice in index order, one block (the positions of one
//! men placement) after another. Every king move of a block's positions keeps the
//! men, so it reaches one block of the mirror slice; and the block's own entries
//! are read in order. Both blocks are read whole into a [`Window`], a run of
//! entries per table for one block-cache look-up per block, and every read of
//! them is then an array access. This is hand-written rather than left to the
//! block cache because it is the verifier's inner loop: looking each entry up in
//! the cache (a lock, a hash, an LRU update, the slice and index recomputed)
//! cost more than the checks themselves. Man moves change the men placement, but
//! all of a block's reach the same few blocks of the mirror slice, which are read
//! into windows of their own (without counted states). Captures and promotions
//! reach other materials: their RWDL values are read from the targets' tables
//! decoded whole ([`Targets`]), where the verifier decoded them, else through
//! the cache one entry at a time.

use std::cell::Cell;
use std::sync::Arc;

use damka_core::huge::HugeArray;
use damka_core::{apply, generate, BlockRanks, Move, Position, Slice, SliceIndexer, Variant};
use damka_formats::table::ValueKind;
use damka_formats::{Dtc, RuleWdl};
use damka_probe::limits::{ExitTest, RuleTablebase};
use damka_probe::{ProbeError, SliceTable};

use crate::error::GenError;
use crate::verify::CHUNK;

/// Most entries a window holds, over all its tables (2 bytes each; two windows
/// per thread, and as much again for the windows of man moves), unless the memory
/// allows whole blocks that are larger ([`grown_window_entries`]). A slice whose
/// blocks are larger still (kings-only, or five kings with men) is read an entry
/// at a time.
pub(crate) const WINDOW_ENTRIES: u64 = 1 << 26;

/// The most entries a window may hold in the check of a slice with `block`
/// positions per men placement and `white_men` men of the side to move, whose
/// tables are `layout` (its `window_entries` aside), on `threads` threads with
/// `room` bytes for the windows: [`WINDOW_ENTRIES`], or what a whole block needs
/// where that is more and every thread's windows (two with the counted states,
/// and those of man moves) fit in `room`. A block too large for a window is read
/// an entry at a time, which doubled a check's time (README, session 35); the
/// large blocks are those of four or more kings with men, whose layered counted
/// tables hold 50 states a position under `fmjd`.
pub(crate) fn grown_window_entries(
    (block, white_men): (u64, u32),
    layout: Layout,
    threads: u64,
    room: u64,
) -> u64 {
    let own = layout.block_entries(block);
    let man = layout.man_entries(block, 2 * u64::from(white_men));
    let need = own.max(man);
    if need <= WINDOW_ENTRIES {
        return WINDOW_ENTRIES;
    }
    let bytes = threads * 2 * (2 * own + man);
    if bytes <= room {
        need
    } else {
        WINDOW_ENTRIES
    }
}

/// One move of the checked position, applied and located once.
pub(crate) struct Successor<V: Variant> {
    /// The move.
    pub(crate) mv: Move,
    /// The position it reaches, Black to move.
    pub(crate) after: Position<V>,
    /// Whether the piece that moved is a king.
    pub(crate) king: bool,
    /// Whether the move ends a phase of the rule set (`is_exit`).
    pub(crate) exit: bool,
    /// The index of `after`, White to move, in the mirror slice, for a quiet
    /// move (the material stays); `None` for a capture or a promotion.
    pub(crate) index: Option<u64>,
    /// For a conversion into a slice of the reader's [`Targets`]: which one, and
    /// the index of `after` there.
    target: Option<(usize, usize)>,
    /// The RWDL value of `after`, once read: several checks ask for it.
    rwdl: Cell<Option<RuleWdl>>,
}

/// Slices that conversions reach, each with its RWDL table decoded whole.
pub(crate) type Targets<V> = Vec<(Slice, Arc<SliceTable<V>>)>;

/// The tables a window holds.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    /// Whether the material has a DTZ table.
    pub(crate) dtz: bool,
    /// States per position of its counted table, 0 without one.
    pub(crate) sheets: u64,
    /// Most entries a window may hold over all tables ([`WINDOW_ENTRIES`]).
    pub(crate) window_entries: u64,
}

impl Layout {
    /// The entries a window of a block of `block` positions holds: the DTC,
    /// RWDL and DTZ entries and the counted states of each.
    fn block_entries(&self, block: u64) -> u64 {
        block * (2 + u64::from(self.dtz) + self.sheets)
    }

    /// The entries of all the windows of man moves (without counted states) of
    /// a slice with `block` positions per men placement and `windows` of them.
    fn man_entries(&self, block: u64, windows: u64) -> u64 {
        block * (2 + u64::from(self.dtz)) * windows
    }
}

/// The rule-table entries of one block of a slice, read whole.
#[derive(Default)]
pub(crate) struct Window {
    /// The slice and the index of the block's first position, once loaded.
    at: Option<(Slice, u64)>,
    /// Positions in the block.
    len: u64,
    dtc: Vec<u16>,
    dtz: Vec<u16>,
    rwdl: Vec<u16>,
    /// Every state of every position, by position: the largest of a window's
    /// arrays, read at random by king moves, so on huge pages
    /// ([`HugeArray`]), grown when a block needs more.
    counted: HugeArray<u16>,
    sheets: u64,
}

impl Window {
    /// Loads the block of `len` positions from index `first` of `slice`,
    /// unless it is the one loaded.
    pub(crate) fn load<V: Variant>(
        &mut self,
        rules: &RuleTablebase<V>,
        slice: Slice,
        (first, len): (u64, u64),
        layout: Layout,
    ) -> Result<(), ProbeError> {
        if self.at == Some((slice, first)) {
            return Ok(());
        }
        self.at = None;
        let n = len as usize;
        self.dtc.resize(n, 0);
        rules.entries(slice, ValueKind::Dtc, first, &mut self.dtc)?;
        self.rwdl.resize(n, 0);
        rules.entries(slice, ValueKind::RuleWdl, first, &mut self.rwdl)?;
        if layout.dtz {
            self.dtz.resize(n, 0);
            rules.entries(slice, ValueKind::Dtz, first, &mut self.dtz)?;
        }
        if layout.sheets > 0 {
            let len = n * layout.sheets as usize;
            if self.counted.len() < len {
                self.counted = HugeArray::zeroed(len);
            }
            let counted = &mut self.counted[..len];
            rules.entries(slice, ValueKind::CountedDtc, first * layout.sheets, counted)?;
        }
        (self.len, self.sheets, self.at) = (len, layout.sheets, Some((slice, first)));
        Ok(())
    }

    /// The offset in the window of position `index` of `slice`, if it holds it.
    #[inline]
    pub(crate) fn local(&self, slice: Slice, index: u64) -> Option<usize> {
        let (s, first) = self.at?;
        (s == slice && index >= first && index - first < self.len).then(|| (index - first) as usize)
    }

    /// The stored entry of the `kind` table ([`ValueKind::Dtc`],
    /// [`ValueKind::Dtz`] when the material has a DTZ table, or
    /// [`ValueKind::RuleWdl`]) at offset `local`.
    #[inline]
    pub(crate) fn raw(&self, kind: ValueKind, local: usize) -> u16 {
        match kind {
            ValueKind::Dtc => self.dtc[local],
            ValueKind::Dtz => self.dtz[local],
            _ => self.rwdl[local],
        }
    }

    /// Asks for the entries at offset `local` ahead of their reads (see
    /// [`damka_core::prefetch`]): every line of its counted states (one every
    /// 32 states, which are 64 bytes apart, and the last), its DTC and RWDL
    /// entries, and its DTZ entry where the material has one.
    #[inline]
    fn prefetch(&self, local: usize) {
        use damka_core::prefetch::prefetch;
        let states = self.states(local);
        states.iter().step_by(32).for_each(prefetch);
        if let Some(last) = states.last() {
            prefetch(last);
        }
        prefetch(&self.dtc[local]);
        prefetch(&self.rwdl[local]);
        if let Some(dtz) = self.dtz.get(local) {
            prefetch(dtz);
        }
    }

    /// Every stored counted state at offset `local`.
    #[inline]
    pub(crate) fn states(&self, local: usize) -> &[u16] {
        let sheets = self.sheets as usize;
        &self.counted[local * sheets..][..sheets]
    }
}

/// The blocks of one slice and of its mirror as a thread reads them.
pub(crate) struct Reader<'a, V: Variant> {
    rules: &'a RuleTablebase<V>,
    slice: Slice,
    mirror: &'a SliceIndexer<V>,
    layout: Layout,
    /// Positions per block; 0 when the blocks are too large for windows.
    block: u64,
    /// The block of the position checked.
    own: Window,
    /// The mirror block its king moves reach.
    king_block: Window,
    /// Mirror blocks its man moves reach, without their counted states (the
    /// counted check reads those from its own copy of layer 0): one window per
    /// move a man can make (two a man), since all of a block's man moves reach
    /// the same blocks; none when they would hold more than [`WINDOW_ENTRIES`].
    man_blocks: Vec<Window>,
    /// The slot of `man_blocks` the next new block goes to.
    next_man_block: usize,
    /// How many windows `man_blocks` may hold.
    man_windows: usize,
    /// The men part of the index of the last mirror block king moves reached,
    /// and that block's ranks seen from the slice ([`BlockRanks::rotated`]).
    king_ranks: Option<(u64, BlockRanks)>,
    /// The decoded RWDL tables of slices conversions reach.
    targets: &'a [(Slice, Arc<SliceTable<V>>)],
}

impl<'a, V: Variant> Reader<'a, V> {
    /// A reader of `slice`, whose mirror has the index `mirror`, for tables of
    /// `layout`, reading the RWDL values of conversions into `targets`' slices
    /// from their decoded tables.
    pub(crate) fn new(
        rules: &'a RuleTablebase<V>,
        (slice, mirror): (Slice, &'a SliceIndexer<V>),
        layout: Layout,
        targets: &'a [(Slice, Arc<SliceTable<V>>)],
    ) -> Reader<'a, V> {
        Reader {
            rules,
            slice,
            mirror,
            layout,
            block: window_block(mirror.king_placements(), layout),
            own: Window::default(),
            king_block: Window::default(),
            man_blocks: Vec::new(),
            next_man_block: 0,
            man_windows: man_windows(slice, mirror.king_placements(), layout),
            king_ranks: None,
            targets,
        }
    }

    /// The stored DTC, DTZ (`None` without a DTZ table) and RWDL values of
    /// position `index` of the slice, `pos`; its counted states, if any, into
    /// `states`.
    pub(crate) fn own(
        &mut self,
        index: u64,
        pos: &Position<V>,
        states: &mut Vec<u16>,
    ) -> Result<(Dtc, Option<Dtc>, RuleWdl), GenError> {
        states.clear();
        let Layout { dtz, sheets, .. } = self.layout;
        if let Some(block_index) = index.checked_div(self.block) {
            let first = block_index * self.block;
            let (slice, layout) = (self.slice, self.layout);
            self.own
                .load(self.rules, slice, (first, self.block), layout)?;
            let l = (index - first) as usize;
            let w = &self.own;
            states.extend_from_slice(w.states(l));
            let rwdl = self.rwdl_code(slice, w.raw(ValueKind::RuleWdl, l))?;
            return Ok((
                Dtc::from_raw(w.raw(ValueKind::Dtc, l)),
                dtz.then(|| Dtc::from_raw(w.raw(ValueKind::Dtz, l))),
                rwdl,
            ));
        }
        states.resize(sheets as usize, 0);
        if sheets > 0 {
            let kind = ValueKind::CountedDtc;
            self.rules
                .entries(self.slice, kind, index * sheets, states)?;
        }
        let dtz = match dtz {
            true => Some(self.rules.dtz(pos)?.unwrap_or(Dtc::DRAW)),
            false => None,
        };
        Ok((self.rules.dtc(pos)?, dtz, self.rules.rwdl(pos)?))
    }

    /// Positions per chunk of the walk of the slice, of `size` positions: whole
    /// blocks when they are read in windows, so that each is read once, unless
    /// that leaves fewer than four chunks a thread; then a slice of a few huge
    /// blocks (kings-only) is cut inside its blocks, each part loading its
    /// block's windows, so that every thread has work.
    pub(crate) fn chunk(&self, size: u64) -> u64 {
        match self.block {
            0 => CHUNK,
            block => {
                let whole = block * (CHUNK / block).max(1);
                let shared = size.div_ceil(4 * rayon::current_num_threads() as u64);
                whole.min(shared).max(whole.min(CHUNK))
            }
        }
    }

    /// The moves of `pos` (White to move, of the slice) into `out`, each applied
    /// and located; `moves` is scratch.
    pub(crate) fn successors(
        &mut self,
        pos: &Position<V>,
        moves: &mut Vec<Move>,
        out: &mut Vec<Successor<V>>,
    ) -> Result<(), ProbeError> {
        moves.clear();
        generate(pos, moves);
        out.clear();
        // Every king move keeps the men: the men's part of the index is found
        // once (`SliceIndexer::index` is it plus `kings_index`), and the kings'
        // part from the block's ranks, kept while the walk stays in one block
        // (indexing each successor whole was a twentieth of a check's time).
        let mut men: Option<u64> = None;
        let movers = pos.white() & pos.kings();
        let stayers = pos.black() & pos.kings();
        let mut exits = ExitTest::new(self.rules.set());
        for mv in moves.iter() {
            let after = apply(pos, mv);
            let king = pos.kings() & (1u64 << mv.from_bit()) != 0;
            let mut target = None;
            let index = if mv.is_capture() || mv.is_promotion() {
                target = self.locate_target(&after);
                None
            } else if king {
                let men = *men.get_or_insert_with(|| self.king_block_of(&after.flipped()));
                let ranks = &self.king_ranks.as_ref().expect("set with `men`").1;
                let moved = movers & !(1u64 << mv.from_bit()) | 1u64 << mv.to_bit();
                Some(men + ranks.kings_index(stayers, moved))
            } else {
                let index = self.mirror.index(&after.flipped());
                self.load_man_block(index)?;
                Some(index)
            };
            if let (Some(men), true, true) = (men, king && index.is_some(), self.block > 0) {
                let (mirror, block, layout) = (self.mirror.slice(), self.block, self.layout);
                self.king_block
                    .load(self.rules, mirror, (men, block), layout)?;
                // Its entries are read once every move is listed: ask for them now,
                // so that the misses of one position's king moves overlap.
                if let Some(local) = index.and_then(|i| self.king_block.local(mirror, i)) {
                    self.king_block.prefetch(local);
                }
            }
            out.push(Successor {
                mv: *mv,
                exit: exits.is_exit(pos, mv, &after),
                after,
                king,
                index,
                target,
                rwdl: Cell::new(None),
            });
        }
        Ok(())
    }

    /// Which of the reader's targets holds `after`, the position a conversion
    /// reaches (Black to move), and its index there, with its entry asked for
    /// ahead of the read (the misses of a position's captures overlap); `None`
    /// when the game is over or the slice's table is not decoded.
    fn locate_target(&self, after: &Position<V>) -> Option<(usize, usize)> {
        if after.black() == 0 {
            return None;
        }
        let white = after.flipped();
        let slice = Slice::of(&white).ok()?;
        let at = self.targets.iter().position(|(s, _)| *s == slice)?;
        let table = &self.targets[at].1;
        let index = table.indexer().index(&white) as usize;
        table.prefetch(index);
        Some((at, index))
    }

    /// Makes sure a window of `man_blocks` holds position `index` of the
    /// mirror slice, which a man move reaches, when the slice has such windows.
    fn load_man_block(&mut self, index: u64) -> Result<(), ProbeError> {
        // No windows (always so when blocks are not read in windows): the reads
        // go through the block cache.
        if self.man_windows == 0 {
            return Ok(());
        }
        let mirror = self.mirror.slice();
        if self
            .man_blocks
            .iter()
            .any(|w| w.local(mirror, index).is_some())
        {
            return Ok(());
        }
        if self.man_blocks.len() < self.man_windows {
            self.man_blocks.push(Window::default());
        }
        let slot = self.next_man_block % self.man_blocks.len();
        self.next_man_block = slot + 1;
        let layout = Layout {
            sheets: 0,
            ..self.layout
        };
        let first = index / self.block * self.block;
        self.man_blocks[slot].load(self.rules, mirror, (first, self.block), layout)
    }

    /// The men part of the index of `white`, a position of the mirror slice a
    /// king move reaches, with that block's ranks made ready in `king_ranks`.
    fn king_block_of(&mut self, white: &Position<V>) -> u64 {
        let men = self.mirror.index(white) - self.mirror.kings_index(white);
        if self.king_ranks.as_ref().is_none_or(|(m, _)| *m != men) {
            let (white_men, black_men) = (
                white.white() & !white.kings(),
                white.black() & !white.kings(),
            );
            let ranks = BlockRanks::rotated(self.mirror, white_men, black_men);
            self.king_ranks = Some((men, ranks));
        }
        men
    }

    /// The window holding position `index` of the mirror slice, and its offset
    /// there, if one does.
    #[inline]
    fn window(&self, index: u64) -> Option<(&Window, usize)> {
        let mirror = self.mirror.slice();
        self.king_block
            .local(mirror, index)
            .map(|l| (&self.king_block, l))
            .or_else(|| self.own.local(mirror, index).map(|l| (&self.own, l)))
    }

    /// The stored entry of the `kind` table ([`Window::raw`]'s kinds) of the
    /// mirror slice at `index`: from a window that holds it (a man move's
    /// included), else through the block cache.
    fn stored(&self, kind: ValueKind, index: u64) -> Result<u16, ProbeError> {
        let mirror = self.mirror.slice();
        let man = || {
            self.man_blocks
                .iter()
                .find_map(|w| w.local(mirror, index).map(|l| (w, l)))
        };
        if let Some((window, local)) = self.window(index).or_else(man) {
            return Ok(window.raw(kind, local));
        }
        let mut out = [0];
        self.rules
            .entries(self.mirror.slice(), kind, index, &mut out)?;
        Ok(out[0])
    }

    /// The DTC value of the position `to` reaches, for its side to move.
    pub(crate) fn dtc(&self, to: &Successor<V>) -> Result<Dtc, ProbeError> {
        Ok(match to.index {
            Some(i) => Dtc::from_raw(self.stored(ValueKind::Dtc, i)?),
            None => self.rules.dtc(&to.after)?,
        })
    }

    /// The DTZ value of the position `to` reaches (the material keeps its DTZ
    /// table: `to` is a quiet move), or a draw where it has none.
    pub(crate) fn dtz(&self, to: &Successor<V>) -> Result<Dtc, ProbeError> {
        Ok(match to.index {
            Some(i) => Dtc::from_raw(self.stored(ValueKind::Dtz, i)?),
            None => self.rules.dtz(&to.after)?.unwrap_or(Dtc::DRAW),
        })
    }

    /// The RWDL value of the position `to` reaches.
    pub(crate) fn rwdl(&self, to: &Successor<V>) -> Result<RuleWdl, GenError> {
        if let Some(rwdl) = to.rwdl.get() {
            return Ok(rwdl);
        }
        let rwdl = match (to.index, to.target) {
            (None, Some((at, index))) => {
                let (slice, table) = &self.targets[at];
                self.rwdl_code(*slice, table.raw_at(index))?
            }
            (None, None) => self.rules.rwdl(&to.after)?,
            (Some(i), _) => {
                let code = self.stored(ValueKind::RuleWdl, i)?;
                self.rwdl_code(self.mirror.slice(), code)?
            }
        };
        to.rwdl.set(Some(rwdl));
        Ok(rwdl)
    }

    /// The RWDL value stored as `code` in the table of `slice`.
    fn rwdl_code(&self, slice: Slice, code: u16) -> Result<RuleWdl, GenError> {
        RuleWdl::from_code(code).ok_or_else(|| {
            GenError::Probe(ProbeError::CorruptTable {
                path: self.rules.path(slice, ValueKind::RuleWdl),
                reason: "an RWDL code above 4".into(),
            })
        })
    }

    /// Every stored counted state of position `i` of the mirror slice (which a
    /// quiet move reaches), appended to `out`.
    pub(crate) fn states(&self, i: u64, out: &mut Vec<u16>) -> Result<(), ProbeError> {
        if let Some((w, l)) = self.window(i) {
            out.extend_from_slice(w.states(l));
            return Ok(());
        }
        let at = out.len();
        out.resize(at + self.layout.sheets as usize, 0);
        let first = i * self.layout.sheets;
        self.rules.entries(
            self.mirror.slice(),
            ValueKind::CountedDtc,
            first,
            &mut out[at..],
        )
    }
}

/// The windows a reader of `slice` keeps for the blocks man moves reach
/// (`block` positions per men placement, tables of `layout`): two per man of
/// the side to move (White), or none when the blocks are not read in windows or
/// those windows would hold more than the layout's window entries.
fn man_windows(slice: Slice, block: u64, layout: Layout) -> usize {
    let windows = 2 * u64::from(slice.material().white_men);
    let entries = layout.man_entries(block, windows);
    if window_block(block, layout) > 0 && entries <= layout.window_entries {
        windows as usize
    } else {
        0
    }
}

/// The positions per window of a slice with `block` positions per men placement
/// and tables of `layout`: the block, or 0 when it does not fit in the
/// layout's window.
pub(crate) fn window_block(block: u64, layout: Layout) -> u64 {
    if layout.block_entries(block) <= layout.window_entries {
        block
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(dtz: bool, sheets: u64) -> Layout {
        Layout {
            dtz,
            sheets,
            window_entries: 0,
        }
    }

    #[test]
    fn windows_grow_to_a_whole_block_only_where_the_memory_holds_them() {
        let layered = layout(true, 50);
        // International `1M3K-0M2K`: 19,068,840 positions a block, 53 entries each.
        let block = 19_068_840;
        let (own, man) = (block * 53, 2 * block * 3);
        let all = 2 * 2 * (2 * own + man);
        assert_eq!(grown_window_entries((block, 1), layered, 2, all), own);
        assert_eq!(
            grown_window_entries((block, 1), layered, 2, all - 1),
            WINDOW_ENTRIES
        );
        // Blocks that fit the fixed windows keep them, whatever the room.
        assert_eq!(
            grown_window_entries((1000, 1), layered, 2, u64::MAX),
            WINDOW_ENTRIES
        );
        assert_eq!(
            grown_window_entries((1000, 1), layered, 2, 0),
            WINDOW_ENTRIES
        );
        // Without counted states the windows of man moves can be the larger.
        let plain = layout(true, 0);
        let block = 12_000_000;
        assert_eq!(
            grown_window_entries((block, 2), plain, 2, u64::MAX),
            4 * block * 3
        );
    }
}
