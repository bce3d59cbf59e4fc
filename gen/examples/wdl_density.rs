//! Measures what WDL encodings would store, in positions per byte, for the WDL files
//! in a table directory: the format-2 encoding and alternatives (more don't-care
//! entries, bigger blocks, a run-length transform). Issue 18's measurements; the
//! results are in `formats/FORMAT.md`.
//!
//! ```text
//! cargo run --release -p damka-gen --example wdl_density -- russian DIR/russian [MAX_PIECES]
//! ```
//!
//! For each slice with a WDL file it reads the exact values from the slice's DTW
//! file, marks each position (the side to move must capture; the side not to move
//! could capture; every move of the side to move leaves a capture to the other
//! side), refills the don't-care entries of each variant with the previous code, and
//! compresses them block by block. Positions are counted as the README counts them:
//! the slice and its mirror.

mod common;
use common::{dtw_values, filled, slices_with};
use damka_core::movegen::generate_quiet;
use damka_core::{apply, has_capture, International, Russian, SliceIndexer, Variant};
use damka_formats::table::{compress, pack_wdl, wdl_code, ValueKind};
use damka_formats::Value;
use rayon::prelude::*;
use std::path::Path;

/// What one position is, for the don't-care variants.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// The side to move must capture (don't-care in format 2).
    Capture,
    /// Every move of the side to move gives the other side a capture, or there is none.
    Forced,
    /// The side not to move could capture, and some move of the side to move stops it.
    Threat,
    /// None of these.
    Quiet,
}

/// The encodings compared: a name, which kinds are don't-care, entries per block,
/// zstd level, and whether the codes are run-length coded before zstd.
struct Encoding {
    name: &'static str,
    dont_care: &'static [Kind],
    block: usize,
    level: i32,
    runs: bool,
    order: Order,
}

/// The order of the entries in the file.
#[derive(Clone, Copy, PartialEq)]
enum Order {
    /// Index order (format 2): men placement, then white kings, then black kings.
    Index,
    /// Men placement, then the kings of the side not to move, then those of the side
    /// to move (each set in colex order, as the index orders them).
    OtherKingsFirst,
    /// The men placements sorted by how far each side's men have advanced (White's
    /// rows summed, then Black's), the kings in index order within each.
    MenByAdvancement,
}

const ENCODINGS: &[Encoding] = &[
    Encoding {
        name: "format 2 (captures, 65,536, level 15)",
        dont_care: &[Kind::Capture],
        block: 1 << 16,
        level: 15,
        runs: false,
        order: Order::Index,
    },
    Encoding {
        name: "format 2, level 19, blocks of 262,144",
        dont_care: &[Kind::Capture],
        block: 1 << 18,
        level: 19,
        runs: false,
        order: Order::Index,
    },
    Encoding {
        name: "format 2, run-length coded",
        dont_care: &[Kind::Capture],
        block: 1 << 16,
        level: 15,
        runs: true,
        order: Order::Index,
    },
    Encoding {
        name: "+ forced-capture positions",
        dont_care: &[Kind::Capture, Kind::Forced],
        block: 1 << 16,
        level: 15,
        runs: false,
        order: Order::Index,
    },
    Encoding {
        name: "+ every threat (upper bound)",
        dont_care: &[Kind::Capture, Kind::Forced, Kind::Threat],
        block: 1 << 16,
        level: 15,
        runs: false,
        order: Order::Index,
    },
    Encoding {
        name: "+ every threat, run-length coded",
        dont_care: &[Kind::Capture, Kind::Forced, Kind::Threat],
        block: 1 << 16,
        level: 15,
        runs: true,
        order: Order::Index,
    },
    Encoding {
        name: "format 2, the other side's kings first",
        dont_care: &[Kind::Capture],
        block: 1 << 16,
        level: 15,
        runs: false,
        order: Order::OtherKingsFirst,
    },
    Encoding {
        name: "+ every threat, the other side's kings first",
        dont_care: &[Kind::Capture, Kind::Forced, Kind::Threat],
        block: 1 << 16,
        level: 15,
        runs: false,
        order: Order::OtherKingsFirst,
    },
    Encoding {
        name: "format 2, men placements by advancement",
        dont_care: &[Kind::Capture],
        block: 1 << 16,
        level: 15,
        runs: false,
        order: Order::MenByAdvancement,
    },
];

/// The entries of a slice in `Order::MenByAdvancement`: index `i` of the result is
/// the slice index stored at place `i`.
fn men_by_advancement<V: Variant>(indexer: &SliceIndexer<V>) -> Vec<u64> {
    let geometry = V::GEOMETRY;
    let rows = |men: u64| -> u32 {
        let mut sum = 0;
        let mut bits = men;
        while bits != 0 {
            let square = u32::from(geometry.square_of[bits.trailing_zeros() as usize]);
            sum += square / geometry.half;
            bits &= bits - 1;
        }
        sum
    };
    let mut placements: Vec<(u32, u32, u64)> = (0..indexer.men_placements())
        .map(|m| {
            let (white, black) = indexer.men(m);
            let black_rows = black.count_ones() * (geometry.width - 1) - rows(black);
            (rows(white), black_rows, m)
        })
        .collect();
    placements.sort_unstable();
    let k = indexer.king_placements();
    placements
        .into_iter()
        .flat_map(|(_, _, m)| m * k..(m + 1) * k)
        .collect()
}

/// The entries of a slice in `Order::OtherKingsFirst`: index `i` of the result is the
/// slice index stored at place `i`. Colex order of a set of squares is the numeric
/// order of its mask, so sorting by masks gives it.
fn other_kings_first<V: Variant>(indexer: &SliceIndexer<V>) -> Vec<u64> {
    let k = indexer.king_placements();
    let mut order: Vec<(u64, u64, u64)> = (0..indexer.size())
        .into_par_iter()
        .map(|i| {
            let pos = indexer.position(i);
            let kings = pos.kings();
            (i / k, pos.black() & kings, i)
        })
        .collect();
    order.par_sort_unstable();
    order.into_iter().map(|(_, _, i)| i).collect()
}

/// The encodings also measured with a zstd dictionary (indices into [`ENCODINGS`]).
const DICTIONARY: &[usize] = &[0, 4];

fn kind_of<V: Variant>(
    indexer: &SliceIndexer<V>,
    index: u64,
    moves: &mut Vec<damka_core::Move>,
) -> Kind {
    let pos = indexer.position(index);
    if has_capture(&pos) {
        return Kind::Capture;
    }
    if !has_capture(&pos.with_side(pos.side().opposite())) {
        return Kind::Quiet;
    }
    moves.clear();
    generate_quiet(&pos, moves);
    if moves.iter().all(|mv| has_capture(&apply(&pos, mv))) {
        Kind::Forced
    } else {
        Kind::Threat
    }
}

/// Runs of equal codes, each as a LEB128 of `(length - 1) << 2 | code`.
fn run_lengths(codes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < codes.len() {
        let j = i + codes[i..].iter().take_while(|&&c| c == codes[i]).count();
        let mut word = ((j - i - 1) as u64) << 2 | codes[i] as u64;
        loop {
            let byte = (word & 0x7f) as u8;
            word >>= 7;
            if word == 0 {
                out.push(byte);
                break;
            }
            out.push(byte | 0x80);
        }
        i = j;
    }
    out
}

fn measure<V: Variant>(dir: &Path, max_pieces: u32) {
    let slices = slices_with(dir, ValueKind::Wdl, max_pieces);
    let mut positions = 0u64;
    let mut bytes = vec![0u64; ENCODINGS.len()];
    let mut kinds = [0u64; 4];
    let mut files = 0u64;
    // The packed blocks of the dictionary encodings, for training at the end.
    let mut samples: Vec<Vec<Vec<u8>>> = vec![Vec::new(); DICTIONARY.len()];
    for slice in slices {
        let indexer = SliceIndexer::<V>::new(slice).expect("an indexer");
        let values = dtw_values(dir, slice);
        let marks: Vec<Kind> = (0..indexer.size())
            .into_par_iter()
            .map_init(Vec::new, |moves, i| kind_of(&indexer, i, moves))
            .collect();
        for &k in &marks {
            kinds[k as usize] += 1;
        }
        let permutation = other_kings_first(&indexer);
        let by_advancement = men_by_advancement(&indexer);
        let codes: Vec<u8> = values
            .iter()
            .map(|&v| wdl_code(Value::from_raw(v).wdl()))
            .collect();
        let sizes: Vec<u64> = ENCODINGS
            .par_iter()
            .map(|e| {
                let care: Vec<bool> = marks.iter().map(|k| !e.dont_care.contains(k)).collect();
                let (codes, care) = match e.order {
                    Order::Index => (codes.clone(), care),
                    Order::OtherKingsFirst => (
                        permutation.iter().map(|&i| codes[i as usize]).collect(),
                        permutation.iter().map(|&i| care[i as usize]).collect(),
                    ),
                    Order::MenByAdvancement => (
                        by_advancement.iter().map(|&i| codes[i as usize]).collect(),
                        by_advancement.iter().map(|&i| care[i as usize]).collect(),
                    ),
                };
                codes
                    .chunks(e.block)
                    .zip(care.chunks(e.block))
                    .map(|(c, m)| {
                        let f = filled(c, m, 1);
                        let raw = if e.runs {
                            run_lengths(&f)
                        } else {
                            pack_wdl(&f)
                        };
                        compress(&raw, e.level).expect("zstd").len() as u64 + 16
                    })
                    .sum::<u64>()
                    + 128
                    + 16
            })
            .collect();
        for (blocks, &at) in samples.iter_mut().zip(DICTIONARY) {
            let e = &ENCODINGS[at];
            let care: Vec<bool> = marks.iter().map(|k| !e.dont_care.contains(k)).collect();
            blocks.extend(
                codes
                    .chunks(e.block)
                    .zip(care.chunks(e.block))
                    .map(|(c, m)| pack_wdl(&filled(c, m, 1))),
            );
        }
        files += 1;
        let both = if slice.is_self_mirror() { 1 } else { 2 };
        positions += both * indexer.size();
        println!("{} {} {:?}", slice.name(), indexer.size(), sizes);
        for (total, size) in bytes.iter_mut().zip(sizes) {
            *total += size;
        }
    }
    let stored: u64 = kinds.iter().sum();
    println!(
        "stored-side positions: {stored}; capture {:.1} %, forced {:.1} %, threat {:.1} %, quiet {:.1} %",
        100.0 * kinds[0] as f64 / stored as f64,
        100.0 * kinds[1] as f64 / stored as f64,
        100.0 * kinds[2] as f64 / stored as f64,
        100.0 * kinds[3] as f64 / stored as f64
    );
    println!("| encoding | bytes | positions/byte |");
    println!("|---|---:|---:|");
    for (e, b) in ENCODINGS.iter().zip(bytes) {
        println!("| {} | {b} | {:.1} |", e.name, positions as f64 / b as f64);
    }
    for (blocks, &at) in samples.iter().zip(DICTIONARY) {
        for size in [16 << 10, 64 << 10] {
            // Trained on every fourth block, measured on all, the dictionary counted once.
            let training: Vec<&[u8]> = blocks.iter().step_by(4).map(|b| b.as_slice()).collect();
            // Too few blocks (a small set) give zstd nothing to train on.
            let Ok(dictionary) = zstd::dict::from_samples(&training, size) else {
                println!(
                    "| {}, dictionary of {} KiB | too few blocks to train | |",
                    ENCODINGS[at].name,
                    size >> 10
                );
                continue;
            };
            let mut compressor =
                zstd::bulk::Compressor::with_dictionary(ENCODINGS[at].level, &dictionary)
                    .expect("a compressor");
            compressor.include_checksum(false).expect("no checksum");
            compressor.include_dictid(false).expect("no dictionary id");
            let b: u64 = blocks
                .iter()
                .map(|raw| compressor.compress(raw).expect("zstd").len() as u64 + 16)
                .sum::<u64>()
                + files * (128 + 16)
                + dictionary.len() as u64;
            println!(
                "| {}, dictionary of {} KiB | {b} | {:.1} |",
                ENCODINGS[at].name,
                size >> 10,
                positions as f64 / b as f64
            );
        }
    }
}

fn main() {
    common::by_variant(
        |dir, max_pieces, _| measure::<Russian>(dir, max_pieces),
        |dir, max_pieces, _| measure::<International>(dir, max_pieces),
    )
}
