//! Measures what the counted DTC tables (`.cdtc.dkt`) would take in other block
//! sizes and zstd levels, against blocks of 16,384 entries at level 1 (the
//! writers' choice until session 36; in session 36 65,536 entries at level 6;
//! now 65,536 entries at level 1, and at level 6 where level 1 leaves more than
//! 1,024 bytes, [`ValueKind::compress_block`]), and with each value equal to the
//! entry before it replaced by 0 (the other values raised by one) before
//! compression. The results are in `formats/FORMAT.md`,
//! "Counted DTC density".
//!
//! ```text
//! cargo run --release -p damka-gen --example cdtc_density -- SAMPLE FILE...
//! ```
//!
//! Each file's values are read back and encoded again as DTW bytes, block by
//! block, in each way below, on every `SAMPLE`-th run of 262,144 entries; the
//! byte counts are summed over those runs of every file, block table entries
//! included (16 bytes a block). The time is the wall time of that encoding and
//! compression (run it with `RAYON_NUM_THREADS=1` to read it as CPU time).

use damka_formats::table::{compress, encode_dtw, TableHeader, ValueKind, HEADER_LEN};
use rayon::prelude::*;

/// One way of storing the values: the entries per block, the zstd level (0:
/// as writers compress counted DTC blocks now), and whether a value equal to
/// the entry before it in its block is stored as 0.
struct Way {
    name: &'static str,
    block: usize,
    level: i32,
    repeats: bool,
}

/// The ways measured, the first being the one the others are compared with.
const WAYS: &[Way] = &[
    Way {
        name: "16,384 entries, level 1 (before)",
        block: 1 << 14,
        level: 1,
        repeats: false,
    },
    Way {
        name: "16,384 entries, level 6",
        block: 1 << 14,
        level: 6,
        repeats: false,
    },
    Way {
        name: "16,384 entries, level 9",
        block: 1 << 14,
        level: 9,
        repeats: false,
    },
    Way {
        name: "65,536 entries, level 1",
        block: 1 << 16,
        level: 1,
        repeats: false,
    },
    Way {
        name: "65,536 entries, level 2",
        block: 1 << 16,
        level: 2,
        repeats: false,
    },
    Way {
        name: "65,536 entries, level 4",
        block: 1 << 16,
        level: 4,
        repeats: false,
    },
    Way {
        name: "65,536 entries, level 5",
        block: 1 << 16,
        level: 5,
        repeats: false,
    },
    Way {
        name: "65,536 entries, level 6 (session 36)",
        block: 1 << 16,
        level: 6,
        repeats: false,
    },
    Way {
        name: "65,536 entries, level 1, level 6 above 1,024 bytes (now)",
        block: 1 << 16,
        level: 0,
        repeats: false,
    },
    Way {
        name: "65,536 entries, level 9",
        block: 1 << 16,
        level: 9,
        repeats: false,
    },
    Way {
        name: "262,144 entries, level 1",
        block: 1 << 18,
        level: 1,
        repeats: false,
    },
    Way {
        name: "262,144 entries, level 6",
        block: 1 << 18,
        level: 6,
        repeats: false,
    },
    Way {
        name: "65,536 entries, level 1, repeats as 0",
        block: 1 << 16,
        level: 1,
        repeats: true,
    },
    Way {
        name: "65,536 entries, level 6, repeats as 0",
        block: 1 << 16,
        level: 6,
        repeats: true,
    },
    Way {
        name: "262,144 entries, level 1, repeats as 0",
        block: 1 << 18,
        level: 1,
        repeats: true,
    },
];

/// Entries of one sampled run: a whole number of blocks of every way.
const RUN: usize = 1 << 18;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sample: usize = args
        .first()
        .and_then(|a| a.parse().ok())
        .expect("usage: cdtc_density SAMPLE FILE...");
    let mut totals = vec![0u64; WAYS.len()];
    let mut seconds = vec![0f64; WAYS.len()];
    let mut stored = 0u64;
    let mut entries = 0u64;
    for path in &args[1..] {
        let file = std::fs::read(path).expect("a readable file");
        stored += file.len() as u64;
        let header = TableHeader::decode(&file[..HEADER_LEN]).expect("a table header");
        let runs: Vec<Vec<u16>> = (0..header.entries.div_ceil(RUN as u64))
            .step_by(sample)
            .map(|run| read_run(&header, &file, run * RUN as u64))
            .collect();
        entries += runs.iter().map(|run| run.len() as u64).sum::<u64>();
        for ((way, total), time) in WAYS.iter().zip(&mut totals).zip(&mut seconds) {
            let started = std::time::Instant::now();
            *total += runs
                .par_iter()
                .map(|run| {
                    run.chunks(way.block)
                        .map(|chunk| {
                            let raw = encode_dtw(&as_stored(chunk, way.repeats));
                            let compressed = match way.level {
                                0 => ValueKind::CountedDtc.compress_block(&raw),
                                level => compress(&raw, level),
                            };
                            compressed.expect("zstd").len() as u64 + 16
                        })
                        .sum::<u64>()
                })
                .sum::<u64>();
            *time += started.elapsed().as_secs_f64();
        }
        eprintln!("{path}: {} entries", header.entries);
    }
    println!("{entries} entries sampled, {stored} bytes as stored in all");
    println!("| blocks, level | bytes | against the first | encoding time, s |");
    println!("|---|---:|---:|---:|");
    for ((way, total), time) in WAYS.iter().zip(&totals).zip(&seconds) {
        println!(
            "| {} | {} | {:.2} | {:.1} |",
            way.name,
            total,
            *total as f64 / totals[0] as f64,
            time
        );
    }
}

/// The values of one block as a way stores them: as they are, or with each
/// value equal to the entry before it replaced by 0 and the others raised by one.
fn as_stored(block: &[u16], repeats: bool) -> Vec<u16> {
    if !repeats {
        return block.to_vec();
    }
    std::iter::once(None)
        .chain(block.iter().map(Some))
        .zip(block)
        .map(|(before, &value)| if before == Some(&value) { 0 } else { value + 1 })
        .collect()
}

/// The values of the run of at most [`RUN`] entries from entry `start` of the
/// table `file`, whose header is `header`.
fn read_run(header: &TableHeader, file: &[u8], start: u64) -> Vec<u16> {
    let end = (start + RUN as u64).min(header.entries);
    let per_block = u64::from(header.block_entries);
    let mut values = vec![0u16; (end - start) as usize];
    for block in start / per_block..end.div_ceil(per_block) {
        let first = block * per_block;
        let (from, to) = (start.max(first), end.min(first + per_block));
        let decoded = header.decode_block(file, block).expect("a sound block");
        let out = &mut values[(from - start) as usize..(to - start) as usize];
        assert!(
            decoded.raw_range((from - first) as usize, out),
            "not a counted DTC table"
        );
    }
    values
}
