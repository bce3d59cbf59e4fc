//! Measures what DTW encodings would store, in positions per byte, for the DTW files
//! in a table directory: the format-2 encoding and the ideas of issue 18 (one side
//! of each slice pair, capture positions and draws as don't-care entries, the
//! distance without its parity). The results are in `formats/FORMAT.md`, "DTW
//! density".
//!
//! ```text
//! cargo run --release -p damka-gen --example dtw_density -- russian DIR/russian [MAX_PIECES] [SAMPLE]
//! ```
//!
//! Every encoding is compressed block by block at format 2's DTW level; the last
//! ones again at level 19 on every `SAMPLE`-th block (default 8) of each file, to
//! estimate what the slower level would add. Positions are counted as the README
//! counts them: the slice and its mirror. Headers and block tables are counted
//! (144 bytes a file, 16 a block).

mod common;
use common::dtw_values;
use damka_core::{has_capture, International, Russian, Slice, SliceIndexer, Variant};
use damka_formats::table::{compress, encode_dtw, ValueKind, DTW_ZSTD_LEVEL};
use damka_formats::{Value, Wdl};
use rayon::prelude::*;
use std::path::Path;

/// Entries per block, as format 2's DTW blocks.
const BLOCK: usize = 1 << 14;

/// The encodings compared: which entries are don't-care, whether one side of a
/// pair is stored, and whether the stored byte drops the parity that WDL gives.
struct Encoding {
    name: &'static str,
    one_side: bool,
    captures: bool,
    draws: bool,
    halved: bool,
}

const ENCODINGS: &[Encoding] = &[
    Encoding {
        name: "format 2: both sides, exact",
        one_side: false,
        captures: false,
        draws: false,
        halved: false,
    },
    Encoding {
        name: "one side (the smaller of the pair)",
        one_side: true,
        captures: false,
        draws: false,
        halved: false,
    },
    Encoding {
        name: "both sides, capture positions don't-care",
        one_side: false,
        captures: true,
        draws: false,
        halved: false,
    },
    Encoding {
        name: "one side, capture positions don't-care",
        one_side: true,
        captures: true,
        draws: false,
        halved: false,
    },
    Encoding {
        name: "one side, captures and draws don't-care",
        one_side: true,
        captures: true,
        draws: true,
        halved: false,
    },
    Encoding {
        name: "one side, captures and draws don't-care, distance without parity",
        one_side: true,
        captures: true,
        draws: true,
        halved: true,
    },
];

/// The stored values of one slice under `e`: don't-care entries take the value
/// before them (at a file's start, the first value that is cared for).
fn encoded(values: &[u16], captures: &[bool], e: &Encoding) -> Vec<u16> {
    let care = |i: usize| {
        let value = Value::from_raw(values[i]);
        !(e.captures && captures[i] || e.draws && value.wdl() == Wdl::Draw)
    };
    let stored = |i: usize| {
        let value = Value::from_raw(values[i]);
        match (e.halved, value.dtw()) {
            // WDL says win or loss, so `d / 2` loses nothing; 0 stays free.
            (true, Some(d)) => d / 2 + 1,
            _ => values[i],
        }
    };
    let cared: Vec<bool> = (0..values.len()).map(care).collect();
    let stored: Vec<u16> = (0..values.len()).map(stored).collect();
    common::filled(&stored, &cared, 0)
}

/// Bytes of a file of `values` at zstd `level`, every `sample`-th block only
/// (scaled back up to the whole file).
fn file_bytes(values: &[u16], level: i32, sample: usize) -> u64 {
    let blocks: Vec<&[u16]> = values.chunks(BLOCK).collect();
    let measured: Vec<u64> = blocks
        .par_iter()
        .step_by(sample)
        .map(|b| compress(&encode_dtw(b), level).expect("zstd").len() as u64 + 16)
        .collect();
    let scale = blocks.len() as f64 / measured.len().max(1) as f64;
    (measured.iter().sum::<u64>() as f64 * scale) as u64 + 128 + 16
}

fn measure<V: Variant>(dir: &Path, max_pieces: u32, sample: usize) {
    let heads: Vec<Slice> = common::slices_with(dir, ValueKind::Dtw, max_pieces)
        .into_iter()
        .filter(|s| s.name() <= s.mirror().name())
        .collect();
    let mut positions = 0u64;
    // Per encoding: bytes at format 2's level, and at level 19 (sampled).
    let mut bytes = vec![(0u64, 0u64); ENCODINGS.len()];
    for head in heads {
        let slices = if head.is_self_mirror() {
            vec![head]
        } else {
            vec![head, head.mirror()]
        };
        let sides: Vec<(Vec<u16>, Vec<bool>)> = slices
            .iter()
            .map(|&slice| {
                let indexer = SliceIndexer::<V>::new(slice).expect("an indexer");
                let captures: Vec<bool> = (0..indexer.size())
                    .into_par_iter()
                    .map(|i| has_capture(&indexer.position(i)))
                    .collect();
                positions += indexer.size();
                (dtw_values(dir, slice), captures)
            })
            .collect();
        let mut line = Vec::new();
        for (e, total) in ENCODINGS.iter().zip(bytes.iter_mut()) {
            let per_side: Vec<(u64, u64)> = sides
                .iter()
                .map(|(values, captures)| {
                    let stored = encoded(values, captures, e);
                    let slow = e.one_side.then(|| file_bytes(&stored, 19, sample));
                    (file_bytes(&stored, DTW_ZSTD_LEVEL, 1), slow.unwrap_or(0))
                })
                .collect();
            let (fast, slow) = if e.one_side {
                *per_side.iter().min().expect("a side")
            } else {
                per_side
                    .iter()
                    .fold((0, 0), |(f, s), &(a, b)| (f + a, s + b))
            };
            total.0 += fast;
            total.1 += slow;
            line.push(fast);
        }
        println!("{} {:?}", head.name(), line);
    }
    println!("positions (both sides): {positions}");
    println!("| encoding | bytes, level {DTW_ZSTD_LEVEL} | positions/byte | positions/byte, level 19 (sampled) |");
    println!("|---|---:|---:|---:|");
    for (e, (fast, slow)) in ENCODINGS.iter().zip(bytes) {
        let slow = if e.one_side {
            format!("{:.1}", positions as f64 / slow as f64)
        } else {
            String::new()
        };
        println!(
            "| {} | {fast} | {:.1} | {slow} |",
            e.name,
            positions as f64 / fast as f64
        );
    }
}

/// The sampling step the arguments after the piece count give (default 8).
fn sample(rest: &[String]) -> usize {
    rest.first()
        .map_or(8, |s| s.parse().expect("a sample step"))
}

fn main() {
    common::by_variant(
        |dir, max_pieces, rest| measure::<Russian>(dir, max_pieces, sample(rest)),
        |dir, max_pieces, rest| measure::<International>(dir, max_pieces, sample(rest)),
    )
}
