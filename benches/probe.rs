//! Probe latency over random legal positions of the Russian tables of up to 5
//! pieces (built into a temporary directory first, or read from
//! `$DAMKA_BENCH_TABLES/russian` when that is set), one probe per iteration:
//!
//! - `wdl/cached`: positions without a capture of the side of each solve group
//!   that has the WDL file, every block already in the block cache;
//! - `wdl/one-ply`: the same for the other side, resolved by a one-ply search;
//! - `dtw/cached`: the positions of `wdl/cached`, from the DTW files;
//! - `wdl/cold`: as `wdl/cached` with a cache too small to hold anything, so every
//!   probe checks and decompresses its block (the file is in the page cache);
//! - `wdl/capture`: positions whose side to move must capture, resolved by the
//!   capture search (blocks cached);
//! - `wdl/2-threads`: two threads probing as in `wdl/cached` at once; the time is
//!   per probe of one thread;
//! - `dtw-compact/stored` and `dtw-compact/one-ply`: the compact set of the same
//!   tables (`damka compact`, written into a temporary directory first, or read
//!   from `$DAMKA_BENCH_COMPACT/russian`), positions without a capture of the side
//!   of each pair that has the compact DTW file, and of the other side; blocks
//!   cached. `dtw/exact-one-ply` probes the positions of `dtw-compact/one-ply` in
//!   the exact tables, for comparison.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use damka_core::has_capture;
use damka_core::{build_order, Position, Russian, Slice, SliceIndexer};
use damka_formats::{table::table_file_name, table::ValueKind};
use damka_gen::{build, BuildOptions};
use damka_probe::Tablebase;

/// Positions per kind.
const POSITIONS: usize = 4096;
/// Most pieces of the tables probed.
const PIECES: u32 = 5;

fn tables() -> (PathBuf, bool) {
    if let Some(dir) = std::env::var_os("DAMKA_BENCH_TABLES") {
        return (PathBuf::from(dir), false);
    }
    let dir = std::env::temp_dir().join(format!("damka-bench-probe-{}", std::process::id()));
    let options = BuildOptions {
        root: dir.clone(),
        max_pieces: PIECES,
        only: None,
        with_dependencies: false,
        memory: None,
        progress: None,
    };
    build::<Russian>(&options, &mut |_| {}).unwrap();
    (dir, true)
}

/// What a position needs from the tables.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// No capture, and its slice has the WDL file.
    Stored,
    /// No capture, and its slice's mirror has the WDL file.
    OnePly,
    /// The side to move must capture.
    Capture,
}

/// The compact set of the tables under `dir`, and whether it is temporary.
fn compact_tables(dir: &Path) -> (PathBuf, bool) {
    if let Some(compact) = std::env::var_os("DAMKA_BENCH_COMPACT") {
        return (PathBuf::from(compact), false);
    }
    let compact = std::env::temp_dir().join(format!("damka-bench-compact-{}", std::process::id()));
    damka_gen::compact::compact::<Russian>(dir, &compact, Some(PIECES), None).unwrap();
    (compact, true)
}

/// Random legal positions of the `PIECES`-piece slices under `dir`, either side
/// to move, of the given kind: `Stored` and `OnePly` as the slice has a `file`
/// table of its own or not.
fn positions(dir: &Path, kind: Kind, file: ValueKind) -> Vec<Position<Russian>> {
    let indexers: Vec<SliceIndexer<Russian>> = build_order::<Russian>(PIECES)
        .into_iter()
        .filter(|s| s.pieces() == PIECES)
        .map(|s| SliceIndexer::new(s).unwrap())
        .collect();
    let has_file = |slice: Slice| {
        Tablebase::<Russian>::variant_dir(dir)
            .join(table_file_name(slice, file))
            .exists()
    };
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::with_capacity(POSITIONS);
    while out.len() < POSITIONS {
        let indexer = &indexers[(next() % indexers.len() as u64) as usize];
        let mut pos = indexer.position(next() % indexer.size());
        if next() % 2 == 1 {
            pos = pos.flipped();
        }
        let found = if has_capture(&pos) {
            Kind::Capture
        } else if has_file(Slice::of(&pos).unwrap()) {
            Kind::Stored
        } else {
            Kind::OnePly
        };
        if found == kind {
            out.push(pos);
        }
    }
    out
}

/// Times `iters` probes cycling through `positions`.
fn run(
    tb: &Tablebase<Russian>,
    positions: &[Position<Russian>],
    iters: u64,
    dtw: bool,
) -> Duration {
    let start = Instant::now();
    for i in 0..iters as usize {
        let pos = &positions[i % positions.len()];
        if dtw {
            black_box(tb.probe_dtw(black_box(pos)).unwrap());
        } else {
            black_box(tb.probe_wdl(black_box(pos)).unwrap());
        }
    }
    start.elapsed()
}

fn probe(c: &mut Criterion) {
    let (dir, temporary) = tables();
    let quiet = positions(&dir, Kind::Stored, ValueKind::Wdl);
    let one_ply = positions(&dir, Kind::OnePly, ValueKind::Wdl);
    let captures = positions(&dir, Kind::Capture, ValueKind::Wdl);
    let (compact_dir, compact_temporary) = compact_tables(&dir);
    let compact_stored = positions(&compact_dir, Kind::Stored, ValueKind::Dtw);
    let compact_one_ply = positions(&compact_dir, Kind::OnePly, ValueKind::Dtw);
    let compact = Tablebase::<Russian>::with_cache_bytes(&compact_dir, 1 << 30);
    let warm = Tablebase::<Russian>::with_cache_bytes(&dir, 1 << 30);
    for pos in quiet.iter().chain(&one_ply).chain(&captures) {
        warm.probe_wdl(pos).unwrap();
        warm.probe_dtw(pos).unwrap();
    }
    for pos in compact_stored.iter().chain(&compact_one_ply) {
        warm.probe_dtw(pos).unwrap();
        compact.probe_dtw(pos).unwrap();
    }
    let cold = Tablebase::<Russian>::with_cache_bytes(&dir, 0);

    let mut group = c.benchmark_group("probe");
    group.bench_function("wdl/cached", |b| {
        b.iter_custom(|iters| run(&warm, &quiet, iters, false))
    });
    group.bench_function("wdl/one-ply", |b| {
        b.iter_custom(|iters| run(&warm, &one_ply, iters, false))
    });
    group.bench_function("dtw/cached", |b| {
        b.iter_custom(|iters| run(&warm, &quiet, iters, true))
    });
    group.bench_function("wdl/cold", |b| {
        b.iter_custom(|iters| run(&cold, &quiet, iters, false))
    });
    group.bench_function("wdl/capture", |b| {
        b.iter_custom(|iters| run(&warm, &captures, iters, false))
    });
    group.bench_function("wdl/2-threads", |b| {
        b.iter_custom(|iters| {
            let (half_a, half_b) = quiet.split_at(quiet.len() / 2);
            std::thread::scope(|s| {
                let other = s.spawn(|| run(&warm, half_b, iters, false));
                let mine = run(&warm, half_a, iters, false);
                mine.max(other.join().unwrap())
            })
        })
    });
    group.bench_function("dtw-compact/stored", |b| {
        b.iter_custom(|iters| run(&compact, &compact_stored, iters, true))
    });
    group.bench_function("dtw-compact/one-ply", |b| {
        b.iter_custom(|iters| run(&compact, &compact_one_ply, iters, true))
    });
    group.bench_function("dtw/exact-one-ply", |b| {
        b.iter_custom(|iters| run(&warm, &compact_one_ply, iters, true))
    });
    group.finish();
    if compact_temporary {
        std::fs::remove_dir_all(&compact_dir).unwrap();
    }
    if temporary {
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

criterion_group!(benches, probe);
criterion_main!(benches);
