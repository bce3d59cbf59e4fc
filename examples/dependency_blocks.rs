//! How much of its dependencies a solve group needs in memory while it solves one
//! sub-slice, if the dependencies are decoded a block (one men placement of a
//! dependency slice, all its king placements) at a time instead of whole.
//!
//! ```text
//! cargo run --release --example dependency_blocks -- [--variant international] [--pieces 7]
//!     [--threads 2] [--keys] [--group NAME]
//! cargo run --release --example dependency_blocks -- --check --variant russian --pieces 5
//! ```
//!
//! For every solve group with exactly `--pieces` pieces (a slice and its mirror,
//! grouped as `damka_gen::build` groups the build order) and every sub-slice key
//! `k` of the group, it computes an upper bound on the set of dependency blocks
//! that a conversion (capture or promotion) from a White-to-move position of the
//! group's blocks of key `k` (in both slices of the group) can reach, by walking
//! only the men placements of key `k` (`SliceIndexer::men_indices`), never the
//! king placements. Each reached position is flipped (colours swapped, board
//! rotated) and its men placement is ranked in the dependency slice of its
//! material; the blocks are counted in one bit set per dependency slice.
//!
//! # What is over-approximated
//!
//! The kings of both sides are unknown (only the men are enumerated). The bound
//! therefore lets them be wherever the bound needs them, and ignores every rule
//! that depends on the whole position:
//!
//! - **King captures** (White has a king): any subset of Black's men that stand
//!   off the board's edge (a piece on an edge square can never be jumped) is
//!   captured, together with any number `0..=bk` of Black's kings, as long as at
//!   least one piece is captured and Black keeps one. White's men stay.
//! - **Man captures**: the real jump sequences of each White man over the men
//!   only, forward and backward, one square over a diagonal neighbour to the square
//!   behind it. A jumped square is either a Black man not yet jumped, or (while
//!   fewer than `bk` have been) a square free of men, not yet jumped and not the
//!   mover's start square: a Black king that might stand there. A landing square
//!   must be on the board, free of men (the mover's start square is free) and not
//!   jumped before (jumped pieces stay until the move ends). White's kings, which
//!   could block a landing, are ignored. **Every prefix** of such a sequence
//!   counts as a possible end (kings could block any continuation), and the
//!   majority rule (International) and the duty to capture are ignored.
//!   A sequence that ends on the last rank promotes (the man leaves the men
//!   placement). International: a man passing the last rank mid-capture goes on as
//!   a man. Russian: it promotes there and goes on as a king, which is bounded
//!   like a king capture: any subset of Black's remaining off-edge men and any
//!   number of Black's remaining kings.
//! - **Quiet promotions**: a White man on the rank before the last with a forward
//!   square free of Black's men (a king might still block it) promotes.
//! - Whether a move is legal at all (a capture elsewhere makes a quiet promotion
//!   illegal) is ignored.
//!
//! # The figures
//!
//! Per (group, key), at one byte per dependency position, the peak of the
//! generator's least-memory solve (values streamed, `damka_gen::solve::Group::streamed`;
//! dependencies decoded a block of the table file at a time,
//! `damka_probe::PageBudget`) is
//!
//! ```text
//! own values   1 byte per position of key k+1, both slices (read back while key
//!              k is solved; kings-only groups: 2 bytes and a bit per position)
//! + deps       the file blocks (16,384 entries, a byte each) that hold the
//!              distinct dependency blocks in the bound; the sum of K (king
//!              placements of the dependency slice) over those dependency blocks
//!              is printed too
//! + cells      UNIT_BYTES (16) x the positions of a unit (the key's men placement
//!              and its flip: 2 blocks) x min(threads, units of the key), or x 1
//!              where that is above 16 GiB (the generator then solves one unit at
//!              a time)
//! + fixed      FIXED_BYTES (48 MiB)
//! ```
//!
//! Kings-only groups (no men: one block, one unit) are reported apart; their
//! verdict leaves out the unit's cells, which are printed as the unit's size.
//!
//! `--check` verifies the bound by brute force for every group of at most
//! `--pieces` pieces: every position of every block of every key is generated
//! with its king placements, every legal move is played with the real move
//! generator, and every dependency block a conversion reaches must be in the bound.

use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use damka_core::movegen::{directions, promotion_rank, shift};
use damka_core::position::{rotate, Bits};
use damka_core::{
    apply, build_order, dependencies, generate, Color, International, Russian, Slice, SliceIndexer,
    SubSlice, Variant, VariantKind,
};
use damka_gen::budget::{group_need, page_slots, FIXED_BYTES, UNIT_BYTES};
use rayon::prelude::*;

const GIB: f64 = (1u64 << 30) as f64;
/// Entries of a DTW file block: the pages the generator decodes.
const PAGE_ENTRIES: u64 = 16_384;
/// The budget the verdict is about.
const LIMIT: u64 = 16 << 30;

struct Args {
    variant: VariantKind,
    pieces: u32,
    threads: u64,
    keys: bool,
    check: bool,
    group: Option<Slice>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        variant: VariantKind::International,
        pieces: 7,
        threads: 2,
        keys: false,
        check: false,
        group: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--variant" => args.variant = value()?.parse()?,
            "--pieces" => args.pieces = value()?.parse().map_err(|e| format!("{e}"))?,
            "--threads" => args.threads = value()?.parse().map_err(|e| format!("{e}"))?,
            "--group" => {
                args.group = Some(value()?.parse().map_err(|e| format!("{e}"))?);
            }
            "--keys" => args.keys = true,
            "--check" => args.check = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if !(2..=9).contains(&args.pieces) {
        return Err("--pieces must be 2..=9".into());
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let ok = match args.variant {
        VariantKind::Russian => run::<Russian>(&args),
        VariantKind::International => run::<International>(&args),
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Solve-group heads of the build order, as `damka_gen::build::groups` forms them
/// (that function is crate-private): a slice and its mirror, adjacent.
fn group_heads(order: &[Slice]) -> Vec<Slice> {
    let mut heads: Vec<Slice> = Vec::new();
    for &slice in order {
        if !heads.contains(&slice.mirror()) {
            heads.push(slice);
        }
    }
    heads
}

/// One solve group with the indexers it needs.
struct Group<V: Variant> {
    head: Slice,
    /// The head, then its mirror unless it is its own.
    slots: Vec<SliceIndexer<V>>,
    /// `dependencies(head)`, in that order.
    deps: Vec<SliceIndexer<V>>,
    dep_of: HashMap<Slice, usize>,
    /// The head's sub-slices (the mirror's are the same, key for key).
    subs: Vec<SubSlice>,
}

impl<V: Variant> Group<V> {
    fn new(head: Slice) -> Group<V> {
        let mut slots = vec![SliceIndexer::<V>::new(head).expect("slice fits")];
        if !head.is_self_mirror() {
            slots.push(SliceIndexer::<V>::new(head.mirror()).expect("slice fits"));
        }
        let dep_slices = dependencies(head);
        let deps: Vec<_> = dep_slices
            .iter()
            .map(|&d| SliceIndexer::<V>::new(d).expect("dependency fits"))
            .collect();
        let dep_of = dep_slices
            .iter()
            .enumerate()
            .map(|(i, &d)| (d, i))
            .collect();
        let subs = slots[0].sub_slices();
        Group {
            head,
            slots,
            deps,
            dep_of,
            subs,
        }
    }

    fn name(&self) -> String {
        if self.head.is_self_mirror() {
            self.head.name()
        } else {
            format!("{}+{}", self.head, self.head.mirror())
        }
    }

    fn kings_only(&self) -> bool {
        self.head.is_kings_only()
    }

    fn block(&self) -> u64 {
        self.slots[0].king_placements()
    }

    /// Positions of key `key` in one slice.
    fn key_positions(&self, key: u32) -> u64 {
        self.subs
            .iter()
            .find(|s| s.key == key)
            .map_or(0, |s| s.positions)
    }

    fn whole_dependencies(&self) -> u64 {
        self.deps.iter().map(|d| d.size()).sum()
    }

    /// For slot `slot`: the dependency reached by a conversion that promotes
    /// (`promoted`) and captures `cm` Black men and `ck` Black kings; `None` if it
    /// ends the game or is no conversion. Indexed `[promoted][cm][ck]`.
    fn dep_table(&self, slot: usize) -> Vec<Vec<Vec<Option<usize>>>> {
        let s = self.slots[slot].slice();
        let (wm, wk, bm, bk) = (
            s.white_men(),
            s.white_kings(),
            s.black_men(),
            s.black_kings(),
        );
        (0..2u32)
            .map(|p| {
                (0..=bm)
                    .map(|cm| {
                        (0..=bk)
                            .map(|ck| {
                                let left = bm - cm + bk - ck;
                                if left == 0 || (p == 0 && cm == 0 && ck == 0) || p > wm {
                                    return None;
                                }
                                // After the move Black is to move: flip the material.
                                let d = Slice::new(bm - cm, bk - ck, wm - p, wk + p).ok()?;
                                Some(*self.dep_of.get(&d).unwrap_or_else(|| {
                                    panic!("{d} reached from {s} is not a dependency")
                                }))
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect()
    }
}

/// The squares with all four diagonal neighbours on the board: the only ones a
/// piece can be jumped on.
fn interior<V: Variant>() -> u64 {
    let mask = V::GEOMETRY.mask;
    directions::<V>()
        .into_iter()
        .fold(mask, |acc, d| acc & shift::<V>(mask, -d))
}

/// Every subset of `set`, the empty one included.
fn subsets(set: u64, mut f: impl FnMut(u64)) {
    let mut t = 0u64;
    loop {
        f(t);
        t = t.wrapping_sub(set) & set;
        if t == 0 {
            break;
        }
    }
}

/// The conversions of a White-to-move men placement (`white`, `black` padded),
/// over-approximated as the module docs say. `emit(promoted, white_men_after,
/// black_men_after, black_men_captured, black_kings_captured)` is called for each
/// (possibly more than once for the same outcome).
fn conversions<V: Variant>(
    white: u64,
    black: u64,
    white_kings: u32,
    black_kings: u32,
    emit: &mut impl FnMut(bool, u64, u64, u32, u32),
) {
    let top = promotion_rank::<V>(Color::White);
    let inner = interior::<V>();
    // (a) King captures.
    if white_kings > 0 {
        subsets(black & inner, |t| {
            let cm = t.count_ones();
            for ck in 0..=black_kings {
                if cm + ck > 0 {
                    emit(false, white, black & !t, cm, ck);
                }
            }
        });
    }
    // (c) Quiet promotions.
    let d = directions::<V>();
    let free_top = top & !black;
    let movers = white & (shift::<V>(free_top, -d[0]) | shift::<V>(free_top, -d[1]));
    for m in Bits(movers) {
        emit(true, white & !(1u64 << m), black, 0, 0);
    }
    // (b) Man captures.
    for m in Bits(white) {
        let from = 1u64 << m;
        let mut search = ManSearch::<V, _> {
            black,
            occupied: (white | black) & !from,
            from,
            rest: white & !from,
            black_kings,
            top,
            inner,
            emit: &mut *emit,
            variant: std::marker::PhantomData,
        };
        search.step(from, 0, 0, 0);
    }
}

/// The jump sequences of one White man over the men, with Black's kings wherever
/// they help (see the module docs).
struct ManSearch<'a, V, F> {
    black: u64,
    /// Men squares other than the mover's start.
    occupied: u64,
    from: u64,
    /// White's other men.
    rest: u64,
    black_kings: u32,
    top: u64,
    inner: u64,
    emit: &'a mut F,
    variant: std::marker::PhantomData<V>,
}

impl<V: Variant, F: FnMut(bool, u64, u64, u32, u32)> ManSearch<'_, V, F> {
    fn step(&mut self, at: u64, captured: u64, ghosts: u64, ghost_count: u32) {
        for d in directions::<V>() {
            let victim = shift::<V>(at, d);
            let landing = shift::<V>(victim, d);
            if landing == 0 || landing & (self.occupied | captured | ghosts) != 0 {
                continue;
            }
            if victim & self.black & !captured != 0 {
                self.reached(landing, captured | victim, ghosts, ghost_count);
            } else if ghost_count < self.black_kings
                && victim & (self.occupied | self.from | ghosts) == 0
            {
                self.reached(landing, captured, ghosts | victim, ghost_count + 1);
            }
        }
    }

    fn reached(&mut self, landing: u64, captured: u64, ghosts: u64, ghost_count: u32) {
        let cm = captured.count_ones();
        let black = self.black & !captured;
        if landing & self.top != 0 {
            if V::PROMOTE_DURING_CAPTURE {
                // Crowned at once, it goes on capturing as a king.
                let kings_left = self.black_kings - ghost_count;
                let rest = self.rest;
                let emit = &mut *self.emit;
                subsets(black & self.inner, |t| {
                    for ck in 0..=kings_left {
                        emit(
                            true,
                            rest,
                            black & !t,
                            cm + t.count_ones(),
                            ghost_count + ck,
                        );
                    }
                });
                return;
            }
            (self.emit)(true, self.rest, black, cm, ghost_count);
        } else {
            (self.emit)(false, self.rest | landing, black, cm, ghost_count);
        }
        self.step(landing, captured, ghosts, ghost_count);
    }
}

/// Dependency blocks, one bit set per dependency slice.
struct Marks {
    bits: Vec<Vec<u64>>,
    blocks: u64,
    positions: u64,
}

impl Marks {
    fn new<V: Variant>(deps: &[SliceIndexer<V>]) -> Marks {
        Marks {
            bits: deps
                .iter()
                .map(|d| vec![0u64; d.men_placements().div_ceil(64) as usize])
                .collect(),
            blocks: 0,
            positions: 0,
        }
    }

    /// Bytes of the file blocks (pages of [`PAGE_ENTRIES`] entries, a byte
    /// each) that hold the marked blocks, given each dependency's king
    /// placements.
    fn page_bytes<V: Variant>(&self, deps: &[SliceIndexer<V>]) -> u64 {
        let mut bytes = 0;
        for (bits, dep) in self.bits.iter().zip(deps) {
            let k = dep.king_placements();
            let mut last = None;
            for (w, &word) in bits.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    let men = 64 * w as u64 + u64::from(word.trailing_zeros());
                    word &= word - 1;
                    let (first, end) = (men * k / PAGE_ENTRIES, (men * k + k - 1) / PAGE_ENTRIES);
                    // Blocks come in increasing order: a page shared with the
                    // block before is counted once.
                    let from = match last {
                        Some(l) if l >= first => l + 1,
                        _ => first,
                    };
                    if end >= from {
                        bytes += (end - from + 1) * PAGE_ENTRIES;
                    }
                    last = Some(last.map_or(end, |l: u64| l.max(end)));
                }
            }
        }
        bytes
    }

    #[inline]
    fn insert(&mut self, dep: usize, men_index: u64, block: u64) {
        let word = &mut self.bits[dep][(men_index >> 6) as usize];
        let bit = 1u64 << (men_index & 63);
        if *word & bit == 0 {
            *word |= bit;
            self.blocks += 1;
            self.positions += block;
        }
    }

    fn contains(&self, dep: usize, men_index: u64) -> bool {
        self.bits[dep][(men_index >> 6) as usize] >> (men_index & 63) & 1 != 0
    }
}

/// The bound of one (group, key), and the key's unit counts.
struct KeyBound {
    marks: Marks,
    /// Units of the key.
    units: u64,
    /// Blocks of the key's largest unit (2, or 1 if every placement is its own flip).
    unit_blocks: u64,
}

fn bound_key<V: Variant>(group: &Group<V>, key: u32) -> KeyBound {
    let mut marks = Marks::new(&group.deps);
    let mut placements = 0u64;
    let mut self_flipped = 0u64;
    for (slot, indexer) in group.slots.iter().enumerate() {
        let s = indexer.slice();
        let table = group.dep_table(slot);
        let deps = &group.deps;
        let marks = &mut marks;
        let mut emit = |promoted: bool, white: u64, black: u64, cm: u32, ck: u32| {
            if let Some(d) = table[promoted as usize][cm as usize][ck as usize] {
                let dep = &deps[d];
                let index = dep.men_index(rotate::<V>(black), rotate::<V>(white));
                marks.insert(d, index, dep.king_placements());
            }
        };
        for men in indexer.men_indices(key) {
            if slot == 0 {
                placements += 1;
                if (rotate::<V>(men.black_men), rotate::<V>(men.white_men))
                    == (men.white_men, men.black_men)
                {
                    self_flipped += 1;
                }
            }
            conversions::<V>(
                men.white_men,
                men.black_men,
                s.white_kings(),
                s.black_kings(),
                &mut emit,
            );
        }
    }
    let (units, unit_blocks) = if group.head.is_self_mirror() {
        (
            (placements + self_flipped) / 2,
            if self_flipped == placements { 1 } else { 2 },
        )
    } else {
        (placements, 2)
    };
    KeyBound {
        marks,
        units,
        unit_blocks,
    }
}

/// Bytes of the values and capture bits of `positions` positions (as
/// `damka_gen::budget` counts them).
fn values_bytes(positions: u64) -> u64 {
    2 * positions + positions.div_ceil(8)
}

struct KeyFigures {
    key: u32,
    dep_blocks: u64,
    /// Positions of the dependency blocks in the bound.
    dep_positions: u64,
    /// Bytes of the file blocks that hold them.
    dep_bytes: u64,
    own: u64,
    cells: u64,
    unit_positions: u64,
}

impl KeyFigures {
    /// The peak with one unit per thread, or, where that is above the budget
    /// the verdict is about, with one unit at a time (as the generator does
    /// when its dependencies' blocks leave too little room).
    fn peak(&self) -> u64 {
        let per_thread = self.own + self.dep_bytes + self.cells + FIXED_BYTES;
        if per_thread <= LIMIT || self.cells == 0 {
            return per_thread;
        }
        self.own + self.dep_bytes + UNIT_BYTES * self.unit_positions + FIXED_BYTES
    }
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / GIB
}

fn run<V: Variant>(args: &Args) -> bool {
    let started = Instant::now();
    let order = build_order::<V>(args.pieces);
    let heads: Vec<Slice> = group_heads(&order)
        .into_iter()
        .filter(|h| {
            let size_ok = if args.check {
                h.pieces() <= args.pieces
            } else {
                h.pieces() == args.pieces
            };
            size_ok && args.group.is_none_or(|g| g == *h || g == h.mirror())
        })
        .collect();
    let groups: Vec<Group<V>> = heads.iter().map(|&h| Group::new(h)).collect();
    let mut tasks: Vec<(usize, u32, u64)> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| {
            let slots = group.slots.len() as u64;
            group.subs.iter().map(move |s| {
                let work = if args.check {
                    s.positions
                } else {
                    s.men_placements
                };
                (g, s.key, work * slots)
            })
        })
        .collect();
    tasks.sort_by_key(|t| std::cmp::Reverse(t.2));
    eprintln!(
        "{} groups of {}{} pieces, {} (group, key) tasks, {} threads",
        groups.len(),
        if args.check { "at most " } else { "" },
        args.pieces,
        tasks.len(),
        rayon::current_num_threads()
    );
    if args.check {
        return check(&groups, &tasks, started);
    }
    let done = AtomicU64::new(0);
    let total = tasks.len() as u64;
    let mut results: Vec<(usize, KeyFigures)> = tasks
        .par_iter()
        .map(|&(g, key, _)| {
            let group = &groups[g];
            let bound = bound_key(group, key);
            let slots = group.slots.len() as u64;
            let own = if group.kings_only() {
                values_bytes(slots * group.key_positions(key))
            } else {
                slots * group.key_positions(key + 1)
            };
            let unit_positions = bound.unit_blocks * group.block();
            let cells = UNIT_BYTES * unit_positions * args.threads.min(bound.units);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if n % 100 == 0 || n == total {
                eprintln!(
                    "  {n}/{total} tasks, {:.0} s",
                    started.elapsed().as_secs_f64()
                );
            }
            (
                g,
                KeyFigures {
                    key,
                    dep_blocks: bound.marks.blocks,
                    dep_positions: bound.marks.positions,
                    dep_bytes: bound.marks.page_bytes(&group.deps),
                    own,
                    cells,
                    unit_positions,
                },
            )
        })
        .collect();
    results.sort_by_key(|(g, f)| (*g, std::cmp::Reverse(f.key)));
    report(args, &groups, &results);
    println!("\nwall time {:.1} s", started.elapsed().as_secs_f64());
    true
}

fn report<V: Variant>(args: &Args, groups: &[Group<V>], results: &[(usize, KeyFigures)]) {
    if args.keys {
        println!("# per (group, key): key, men placements per slice, dependency blocks, their positions (G), their file blocks GiB, own values read back GiB, cells GiB, peak GiB");
        for (g, f) in results {
            let group = &groups[*g];
            let placements = group
                .subs
                .iter()
                .find(|s| s.key == f.key)
                .map_or(0, |s| s.men_placements);
            println!(
                "key {:<24} {:>3} {:>12} {:>12} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9.3}",
                group.name(),
                f.key,
                placements,
                f.dep_blocks,
                f.dep_positions as f64 / 1e9,
                gib(f.dep_bytes),
                gib(f.own),
                gib(f.cells),
                gib(f.peak())
            );
        }
        println!();
    }
    struct Row {
        g: usize,
        worst: usize,
        max_dep: u64,
    }
    let mut rows: Vec<Row> = Vec::new();
    for g in 0..groups.len() {
        let keys: Vec<usize> = (0..results.len()).filter(|&i| results[i].0 == g).collect();
        let worst = *keys
            .iter()
            .max_by_key(|&&i| results[i].1.peak())
            .expect("a group has a key");
        let max_dep = keys.iter().map(|&i| results[i].1.dep_bytes).max().unwrap();
        rows.push(Row { g, worst, max_dep });
    }
    rows.sort_by_key(|r| std::cmp::Reverse(results[r.worst].1.peak()));
    println!(
        "# {} {}-piece groups, by worst-key peak (GiB; 1 byte per dependency position, {} threads' units)",
        V::KIND,
        args.pieces,
        args.threads
    );
    println!(
        "{:<24} {:>8} {:>5} {:>8} {:>8} | {:>4} {:>8} {:>8} {:>8} {:>8} {:>8} | {:>8}",
        "group",
        "G pos",
        "keys",
        "wholedep",
        "today",
        "key",
        "peak",
        "own",
        "depblk",
        "cells",
        "unit Gp",
        "maxdep"
    );
    for r in &rows {
        let group = &groups[r.g];
        let f = &results[r.worst].1;
        let positions: u64 = group.slots.iter().map(|s| s.size()).sum();
        let today = group_need::<V>(group.head, args.threads as usize)
            .map(|n| n.streamed)
            .unwrap_or(0);
        println!(
            "{:<24} {:>8.3} {:>5} {:>8.3} {:>8.3} | {:>4} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>8.4} | {:>8.3}{}",
            group.name(),
            positions as f64 / 1e9,
            group.subs.len(),
            gib(group.whole_dependencies()),
            gib(today),
            f.key,
            gib(f.peak()),
            gib(f.own),
            gib(f.dep_bytes),
            gib(f.cells),
            f.unit_positions as f64 / 1e9,
            gib(r.max_dep),
            if group.kings_only() { "  kings-only" } else { "" }
        );
    }
    println!("\n(G pos: positions of both slices, 1e9; wholedep: every dependency decoded whole; today: damka_gen::budget streamed need, dependencies whole; peak = own + depblk + cells + 48 MiB at the worst key; depblk: the file blocks holding the key's dependency blocks; unit Gp: positions of one unit, 1e9; maxdep: largest per-key depblk of the group)");
    let men_rows: Vec<&Row> = rows.iter().filter(|r| !groups[r.g].kings_only()).collect();
    let above: Vec<&&Row> = men_rows
        .iter()
        .filter(|r| results[r.worst].1.peak() > LIMIT)
        .collect();
    if let Some(w) = men_rows.first() {
        let f = &results[w.worst].1;
        println!(
            "\nworst group with men: {} at key {}: peak {:.3} GiB (own {:.3}, dependency blocks {:.3} in {} blocks, cells {:.3}, fixed 0.047), whole dependencies {:.3} GiB",
            groups[w.g].name(),
            f.key,
            gib(f.peak()),
            gib(f.own),
            gib(f.dep_bytes),
            f.dep_blocks,
            gib(f.cells),
            gib(groups[w.g].whole_dependencies())
        );
    }
    println!(
        "groups with men above 16 GiB: {} of {}",
        above.len(),
        men_rows.len()
    );
    for r in &above {
        let f = &results[r.worst].1;
        println!(
            "  {} key {}: {:.3} GiB, {:.3} GiB over (own {:.3}, dependency blocks {:.3}, cells {:.3})",
            groups[r.g].name(),
            f.key,
            gib(f.peak()),
            gib(f.peak() - LIMIT),
            gib(f.own),
            gib(f.dep_bytes),
            gib(f.cells)
        );
    }
    // What `damka gen --memory 16G` decides (`dependency_pages` in
    // `gen/src/build.rs`): the dependencies' blocks get the budget less the
    // streamed need without dependencies and the page slots; with one unit at a
    // time, the other units' cells too. A group fits if its largest per-key
    // file blocks fit in that.
    let mut margins: Vec<(i64, String)> = Vec::new();
    for r in &men_rows {
        let group = &groups[r.g];
        let Ok(need) = group_need::<V>(group.head, args.threads as usize) else {
            continue;
        };
        let others = need.streamed - need.dependencies + page_slots(need.dependencies);
        let cap = LIMIT as i64 - others as i64;
        let cap_one = cap + need.other_units as i64;
        let (margin, how) = if r.max_dep as i64 <= cap {
            (cap - r.max_dep as i64, "a unit per thread")
        } else {
            (cap_one - r.max_dep as i64, "one unit at a time")
        };
        margins.push((
            margin,
            format!(
                "  {}: blocks {:.3} GiB in {:.3} GiB ({how}), margin {:.3} GiB",
                group.name(),
                gib(r.max_dep),
                gib((if how.starts_with('a') { cap } else { cap_one }).max(0) as u64),
                margin as f64 / GIB
            ),
        ));
    }
    margins.sort();
    let over = margins.iter().filter(|m| m.0 < 0).count();
    println!(
        "the generator's check at 16 GiB: {over} of {} groups with men over; the tightest:",
        margins.len()
    );
    for (_, line) in margins.iter().take(6) {
        println!("{line}");
    }
    let kings: Vec<&Row> = rows.iter().filter(|r| groups[r.g].kings_only()).collect();
    println!(
        "kings-only groups (unit cells left out of the verdict): {}",
        kings.len()
    );
    for r in kings {
        let group = &groups[r.g];
        let f = &results[r.worst].1;
        let without_cells = f.peak() - f.cells;
        println!(
            "  {}: one unit of {:.3} G positions ({:.3} GiB of cells per unit); own values {:.3} GiB; dependencies {:.3} GiB in {} blocks (whole {:.3} GiB); without cells {:.3} GiB{}",
            group.name(),
            f.unit_positions as f64 / 1e9,
            gib(f.unit_positions * UNIT_BYTES),
            gib(f.own),
            gib(f.dep_bytes),
            f.dep_blocks,
            gib(group.whole_dependencies()),
            gib(without_cells),
            if without_cells > LIMIT { " (above 16 GiB)" } else { "" }
        );
    }
}

/// Counts of one (group, key) brute-force check.
#[derive(Default, Clone, Copy)]
struct Checked {
    positions: u64,
    conversions: u64,
    exact_blocks: u64,
    exact_positions: u64,
    bound_blocks: u64,
    bound_positions: u64,
    missing: u64,
}

impl Checked {
    /// Adds `other`'s counts to these.
    fn add(&mut self, other: &Checked) {
        self.positions += other.positions;
        self.conversions += other.conversions;
        self.exact_blocks += other.exact_blocks;
        self.exact_positions += other.exact_positions;
        self.bound_blocks += other.bound_blocks;
        self.bound_positions += other.bound_positions;
        self.missing += other.missing;
    }
}

fn check_key<V: Variant>(group: &Group<V>, key: u32) -> Checked {
    let bound = bound_key(group, key);
    let mut exact = Marks::new(&group.deps);
    let mut c = Checked::default();
    let mut moves = Vec::new();
    let own = [group.head, group.head.mirror()];
    for indexer in &group.slots {
        let k = indexer.king_placements();
        for men in indexer.men_indices(key) {
            for kings in 0..k {
                let pos = indexer.position_in_block((men.white_men, men.black_men), kings);
                c.positions += 1;
                generate(&pos, &mut moves);
                for mv in &moves {
                    let twin = apply(&pos, mv).flipped();
                    let Ok(slice) = Slice::from_material(twin.material()) else {
                        continue; // Black has no pieces left: the game is over.
                    };
                    if own.contains(&slice) {
                        assert!(!mv.is_capture() && !mv.is_promotion());
                        continue;
                    }
                    c.conversions += 1;
                    let Some(&d) = group.dep_of.get(&slice) else {
                        c.missing += 1;
                        eprintln!("{pos:?}: reaches {slice}, not a dependency");
                        continue;
                    };
                    let dep = &group.deps[d];
                    let index =
                        dep.men_index(twin.white() & !twin.kings(), twin.black() & !twin.kings());
                    if !bound.marks.contains(d, index) {
                        if c.missing < 5 {
                            eprintln!(
                                "MISSING: {pos:?} ({}) -> {slice} block {index}",
                                group.name()
                            );
                        }
                        c.missing += 1;
                    }
                    exact.insert(d, index, dep.king_placements());
                }
            }
        }
    }
    c.exact_blocks = exact.blocks;
    c.exact_positions = exact.positions;
    c.bound_blocks = bound.marks.blocks;
    c.bound_positions = bound.marks.positions;
    c
}

fn check<V: Variant>(groups: &[Group<V>], tasks: &[(usize, u32, u64)], started: Instant) -> bool {
    let results: Vec<(usize, Checked)> = tasks
        .par_iter()
        .map(|&(g, key, _)| (g, check_key(&groups[g], key)))
        .collect();
    let mut per_group = vec![Checked::default(); groups.len()];
    for (g, c) in &results {
        per_group[*g].add(c);
    }
    println!(
        "# {} brute-force check: summed over keys, dependency blocks reached by the real move generator vs the bound",
        V::KIND
    );
    println!(
        "{:<24} {:>12} {:>12} {:>10} {:>10} {:>13} {:>13} {:>8}",
        "group",
        "positions",
        "conversions",
        "exact blk",
        "bound blk",
        "exact pos",
        "bound pos",
        "missing"
    );
    let mut total = Checked::default();
    for (g, t) in per_group.iter().enumerate() {
        println!(
            "{:<24} {:>12} {:>12} {:>10} {:>10} {:>13} {:>13} {:>8}",
            groups[g].name(),
            t.positions,
            t.conversions,
            t.exact_blocks,
            t.bound_blocks,
            t.exact_positions,
            t.bound_positions,
            t.missing
        );
        total.add(t);
    }
    println!(
        "\ntotal: {} groups, {} (group, key) pairs, {} positions, {} conversions; blocks exact {} / bound {}; positions exact {} / bound {} ({:.1} %); missing {}",
        groups.len(),
        tasks.len(),
        total.positions,
        total.conversions,
        total.exact_blocks,
        total.bound_blocks,
        total.exact_positions,
        total.bound_positions,
        100.0 * total.exact_positions as f64 / total.bound_positions.max(1) as f64,
        total.missing
    );
    println!(
        "{}; wall time {:.1} s",
        if total.missing == 0 {
            "CHECK PASSED: every reached dependency block is in the bound"
        } else {
            "CHECK FAILED"
        },
        started.elapsed().as_secs_f64()
    );
    total.missing == 0
}
