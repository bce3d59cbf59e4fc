//! Measures how the filling of don't-care entries (capture positions) changes the
//! size of format-2 WDL files: the previous value (format 2), the next value, the
//! entry one black-king row back, the entry one king block back, and the smallest of
//! these chosen block by block. The probe never reads a don't-care entry, so any
//! fill is a choice of the writer alone. Issue 18's measurements; the results are in
//! `formats/FORMAT.md`.
//!
//! ```text
//! cargo run --release -p damka-gen --example wdl_fill -- russian DIR/russian [MAX_PIECES]
//! ```
//!
//! Positions are counted as the README counts them: the slice and its mirror.

mod common;
use common::{dtw_values, filled, slices_with};
use damka_core::binomial::binomial;
use damka_core::{has_capture, International, Russian, SliceIndexer, Variant};
use damka_formats::table::{compress, pack_wdl, wdl_code, ValueKind};
use damka_formats::Value;
use rayon::prelude::*;
use std::path::Path;

/// Entries per WDL block and zstd level, as format 2 has them.
const BLOCK: usize = 1 << 16;
const LEVEL: i32 = 15;

/// The fills compared, by name; the last column is the smallest per block.
const FILLS: [&str; 4] = [
    "previous (format 2)",
    "next",
    "one black-king row back",
    "one king block back",
];

/// `codes` with each entry not cared for replaced by the entry `period` places
/// before it (already filled), or by the entry before it for the first `period`.
fn filled_from(codes: &[u8], care: &[bool], period: usize) -> Vec<u8> {
    let mut out = filled(codes, care, 1);
    for i in period..out.len() {
        if !care[i] {
            out[i] = out[i - period];
        }
    }
    out
}

/// `codes` with each entry not cared for replaced by the next cared-for entry
/// (the last cared-for entry after it).
fn filled_next(codes: &[u8], care: &[bool]) -> Vec<u8> {
    let reversed: Vec<u8> = codes.iter().rev().copied().collect();
    let reversed_care: Vec<bool> = care.iter().rev().copied().collect();
    let mut out = filled(&reversed, &reversed_care, 1);
    out.reverse();
    out
}

fn measure<V: Variant>(dir: &Path, max_pieces: u32) {
    let mut positions = 0u64;
    let mut bytes = [0u64; FILLS.len() + 1];
    for slice in slices_with(dir, ValueKind::Wdl, max_pieces) {
        let indexer = SliceIndexer::<V>::new(slice).expect("an indexer");
        let values = dtw_values(dir, slice);
        let care: Vec<bool> = (0..indexer.size())
            .into_par_iter()
            .map(|i| !has_capture(&indexer.position(i)))
            .collect();
        let codes: Vec<u8> = values
            .iter()
            .map(|&v| wdl_code(Value::from_raw(v).wdl()))
            .collect();
        let men = slice.white_men() + slice.black_men();
        let free = V::GEOMETRY.squares as u32 - men;
        let row = binomial(free - slice.white_kings(), slice.black_kings()) as usize;
        let kings = indexer.king_placements() as usize;
        let sizes: Vec<[u64; FILLS.len()]> = codes
            .par_chunks(BLOCK)
            .zip(care.par_chunks(BLOCK))
            .map(|(c, m)| {
                let fills = [
                    filled(c, m, 1),
                    filled_next(c, m),
                    filled_from(c, m, row.max(1)),
                    filled_from(c, m, kings.max(1)),
                ];
                fills.map(|f| compress(&pack_wdl(&f), LEVEL).expect("zstd").len() as u64 + 16)
            })
            .collect();
        let mut file = [128 + 16; FILLS.len() + 1];
        for block in &sizes {
            for (total, size) in file.iter_mut().zip(block) {
                *total += size;
            }
            file[FILLS.len()] += block.iter().min().expect("a fill");
        }
        let both = if slice.is_self_mirror() { 1 } else { 2 };
        positions += both * indexer.size();
        println!("{} {} {:?}", slice.name(), indexer.size(), file);
        for (total, size) in bytes.iter_mut().zip(file) {
            *total += size;
        }
    }
    println!("| fill | bytes | positions/byte |");
    println!("|---|---:|---:|");
    let names = FILLS.iter().copied().chain(["the smallest per block"]);
    for (name, b) in names.zip(bytes) {
        println!("| {name} | {b} | {:.1} |", positions as f64 / b as f64);
    }
}

fn main() {
    common::by_variant(
        |dir, max_pieces, _| measure::<Russian>(dir, max_pieces),
        |dir, max_pieces, _| measure::<International>(dir, max_pieces),
    )
}
