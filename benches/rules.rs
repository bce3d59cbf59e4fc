//! Rule-probe latency under `russian` over random legal positions of the Russian
//! 4-piece slices, either side to move (the tables of up to 4 pieces and their
//! rule tables are built into a temporary directory first, or read from
//! `$DAMKA_BENCH_TABLES` when that is set), one query per iteration, the rule
//! tables read through the block cache with every block already cached:
//!
//! - `rules/rwdl`: the value with fresh counters, from the RWDL table;
//! - `rules/fresh`: `probe_rules` with fresh counters (value, rule, distance and
//!   best move), in the materials outside R3;
//! - `rules/played`: the same with R2 and R4 at 10 moves each where in force, so
//!   that more queries fall between the DTC bounds and need the search;
//! - `rules/main-road`: `probe_rules` with fresh counters in R3's materials (three
//!   kings, two kings and a man, a king and two men against a lone king), read from
//!   the counted DTC tables with a one-ply search for the best move;
//! - `rules/main-road-played`: the same with R1 at 5 moves, R2 and R4 at 10 and R3
//!   at 2, each where in force;
//! - `rules/main-road-searched`: fresh counters in R3's materials by the search
//!   the probe ran there before the counted tables (first 64 positions);
//! - `rules/layered-played`: `probe_rules` with R2 and R4 at 10 moves in the
//!   materials with men and kings on both sides, read from their counted DTC
//!   tables (`D(p, c)` by R4 count) with a one-ply search for the best move;
//! - `rules/layered-played-searched`: the same queries by the search the probe
//!   ran there before those tables.
//!
//! `DAMKA_BENCH_PIECES` (default 4) sets the piece count of the positions probed
//! (and of the tables built when `DAMKA_BENCH_TABLES` is not set). Before timing,
//! each benchmark probes each of its positions once and prints how many answers
//! were *unknown*.
//!
//! `DAMKA_BENCH_SLICES` (a comma-separated list of slice names, for example
//! `0M2K-1M3K,1M3K-0M2K`) draws the positions from those slices only: the rows
//! of a set whose rule tables exist for some materials of the piece count and
//! not yet for others. A name that is no slice of the piece count is an error.
//!
//! `DAMKA_BENCH_CACHE_MIB` sets the block cache (default: the probe's,
//! `DEFAULT_CACHE_BYTES`). Above 4 Russian pieces the blocks that 2,048 positions
//! and their successors read outgrow the default, and the queries then time block
//! decoding as well; a cache that holds them all times them with every block
//! cached.
//!
//! `DAMKA_BENCH_VARIANT=international` runs the same benchmarks on International
//! positions under `fmjd`: `played` sets I1 at 10 moves, I2 at 5 and I3 at 2
//! where in force; the `main-road` rows take the materials whose phase the DTC
//! value cannot decide (there are none under `fmjd`, so they are skipped), and
//! the `layered` rows the materials with men and kings on both sides (I1 beside
//! no class counter).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use damka_core::{build_order, International, Position, Russian, Slice, SliceIndexer, Variant};
use damka_gen::{build_rules, BuildOptions, RuleBuildOptions};
use damka_probe::limits::{presets, Counters, RuleSet, RuleTablebase};
use damka_probe::DEFAULT_CACHE_BYTES;

/// Positions probed.
const POSITIONS: usize = 2048;
/// Pieces of the positions probed, and most pieces of the tables built.
fn pieces() -> u32 {
    std::env::var("DAMKA_BENCH_PIECES")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(4)
}

/// The tables' root directory, and whether it was built here (and is removed
/// after the run): `$DAMKA_BENCH_TABLES`, or the tables of up to [`pieces`]
/// pieces and their rule tables of `set`, built into a temporary directory.
fn tables<V: Variant>(set: &RuleSet) -> (PathBuf, bool) {
    if let Some(dir) = std::env::var_os("DAMKA_BENCH_TABLES") {
        return (PathBuf::from(dir), false);
    }
    let dir = std::env::temp_dir().join(format!("damka-bench-rules-{}", std::process::id()));
    let options = RuleBuildOptions {
        tables: BuildOptions {
            root: dir.clone(),
            max_pieces: pieces(),
            only: None,
            with_dependencies: false,
            memory: None,
            progress: None,
        },
        set: set.clone(),
    };
    build_rules::<V>(&options, &mut |_| {}).unwrap();
    (dir, true)
}

/// The slices of [`pieces`] pieces that positions are drawn from: those named
/// by `$DAMKA_BENCH_SLICES`, or all of them.
fn drawn_slices<V: Variant>() -> Vec<Slice> {
    let all: Vec<Slice> = build_order::<V>(pieces())
        .into_iter()
        .filter(|s| s.pieces() == pieces())
        .collect();
    let Ok(names) = std::env::var("DAMKA_BENCH_SLICES") else {
        return all;
    };
    names
        .split(',')
        .map(|name| match name.trim().parse::<Slice>() {
            Ok(slice) if all.contains(&slice) => slice,
            _ => {
                eprintln!(
                    "DAMKA_BENCH_SLICES: {name} is no slice of {} pieces",
                    pieces()
                );
                std::process::exit(2);
            }
        })
        .collect()
}

/// Random legal positions of the slices of [`drawn_slices`], either side to move.
fn positions<V: Variant>() -> Vec<Position<V>> {
    let indexers: Vec<SliceIndexer<V>> = drawn_slices::<V>()
        .into_iter()
        .map(|s| SliceIndexer::new(s).unwrap())
        .collect();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..POSITIONS)
        .map(|_| {
            let indexer = &indexers[(next() % indexers.len() as u64) as usize];
            let pos = indexer.position(next() % indexer.size());
            if next() % 2 == 1 {
                pos.flipped()
            } else {
                pos
            }
        })
        .collect()
}

/// Moves played of each counter, for `played`: under `russian`, 10 of R2 and
/// R4, 5 of R1 and 2 of R3.
const RUSSIAN_PLAYED: &[(&str, u32)] = &[("R1", 5), ("R2", 10), ("R3", 2), ("R4", 10)];
/// Under `fmjd`: 10 moves of I1, 5 of I2 and 2 of I3.
const FMJD_PLAYED: &[(&str, u32)] = &[("I1", 10), ("I2", 5), ("I3", 2)];

/// Counts for each of `positions`: the moves of `played`, each where its
/// counter is in force (a count for a counter not in force is refused).
fn counts_played<V: Variant>(
    tables: &RuleTablebase<V>,
    positions: &[Position<V>],
    played: &[(&str, u32)],
) -> Vec<Counters> {
    positions
        .iter()
        .map(|pos| {
            let mut counts = Counters::new();
            for &(id, moves) in played {
                if tables.set().counter(id).is_some_and(|c| c.applies_at(pos)) {
                    counts.set_moves(id, moves);
                }
            }
            counts
        })
        .collect()
}

/// Times `iters` queries cycling through `positions`.
fn run<V: Variant>(
    positions: &[Position<V>],
    iters: u64,
    mut query: impl FnMut(&Position<V>),
) -> Duration {
    let start = Instant::now();
    for i in 0..iters as usize {
        query(black_box(&positions[i % positions.len()]));
    }
    start.elapsed()
}

fn rules(c: &mut Criterion) {
    match std::env::var("DAMKA_BENCH_VARIANT").as_deref() {
        Ok("international") => bench::<International>(c, presets::fmjd(), FMJD_PLAYED),
        Ok("russian") | Err(_) => bench::<Russian>(c, presets::russian(), RUSSIAN_PLAYED),
        Ok(other) => {
            eprintln!("DAMKA_BENCH_VARIANT must be russian or international, not {other}");
            std::process::exit(2);
        }
    }
}

/// The benchmarks on `V`'s positions under `set`, `played` the counts of
/// `played` and the other rows that set counts.
fn bench<V: Variant>(c: &mut Criterion, set: RuleSet, played: &[(&str, u32)]) {
    let (dir, temporary) = tables::<V>(&set);
    let cache = std::env::var("DAMKA_BENCH_CACHE_MIB")
        .ok()
        .and_then(|mib| mib.parse::<usize>().ok())
        .map_or(DEFAULT_CACHE_BYTES, |mib| mib << 20);
    let tables = RuleTablebase::<V>::with_cache_bytes(&dir, set, cache);
    let (main_road, positions): (Vec<_>, Vec<_>) = positions::<V>().into_iter().partition(|pos| {
        let material = damka_core::white_to_move(pos).material();
        tables.phase(material).unwrap().inexact().is_some()
    });
    let layered: Vec<Position<V>> = positions
        .iter()
        .filter(|pos| {
            let material = damka_core::white_to_move(pos).material();
            tables
                .counted_plan(material)
                .unwrap()
                .is_some_and(|plan| plan.cond().is_none())
        })
        .copied()
        .collect();
    let fresh = Counters::new();
    let played_r3 = counts_played(&tables, &main_road, played);
    let played_layered = counts_played(&tables, &layered, played);
    let played = counts_played(&tables, &positions, played);
    let mut group = c.benchmark_group("rules");
    group.bench_function("rwdl", |b| {
        b.iter_custom(|iters| {
            run(&positions, iters, |pos| {
                black_box(tables.rwdl(pos).unwrap());
            })
        })
    });
    for (name, positions, counts) in [
        ("fresh", &positions, None),
        ("played", &positions, Some(&played)),
        ("main-road", &main_road, None),
        ("main-road-played", &main_road, Some(&played_r3)),
        ("layered-played", &layered, Some(&played_layered)),
    ] {
        // Every query once before timing, counting the answers that are unknown.
        let unknown = positions
            .iter()
            .enumerate()
            .filter(|&(k, pos)| {
                let outcome = tables.probe_rules(pos, counts.map_or(&fresh, |c| &c[k]));
                outcome.unwrap().wdl.is_none()
            })
            .count();
        eprintln!(
            "rules/{name}: {} positions, {unknown} unknown",
            positions.len()
        );
        if positions.is_empty() {
            // No such material at this piece count (R3's has four pieces).
            continue;
        }
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for i in 0..iters as usize {
                    let k = i % positions.len();
                    let counts = counts.map_or(&fresh, |c| &c[k]);
                    black_box(
                        tables
                            .probe_rules(black_box(&positions[k]), counts)
                            .unwrap(),
                    );
                }
                start.elapsed()
            })
        });
    }
    // The search the probe ran in R3's materials before the counted tables, on
    // the first 64 of those positions: the figure to compare `main-road` with.
    let searched = &main_road[..main_road.len().min(64)];
    for pos in searched {
        tables.probe_rules_searched(pos, &fresh).unwrap();
    }
    group.sample_size(10);
    if !searched.is_empty() {
        group.bench_function("main-road-searched", |b| {
            b.iter_custom(|iters| {
                run(searched, iters, |pos| {
                    black_box(tables.probe_rules_searched(pos, &fresh).unwrap());
                })
            })
        });
    }
    // The same layered queries by the search.
    let searched = &layered[..layered.len().min(256)];
    if !searched.is_empty() {
        group.bench_function("layered-played-searched", |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for i in 0..iters as usize {
                    let k = i % searched.len();
                    black_box(
                        tables
                            .probe_rules_searched(searched[k], &played_layered[k])
                            .unwrap(),
                    );
                }
                start.elapsed()
            })
        });
    }
    group.finish();
    if temporary {
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

criterion_group!(benches, rules);
criterion_main!(benches);
