//! Measures how small the WDL files could be under an adaptive context model with
//! arithmetic coding, against format 2's zstd blocks: the ideal code length
//! (the sum of `-log2 p` of each entry under the model) of every stored WDL file
//! of a table directory. Issue 18's measurement; the results are in
//! `formats/FORMAT.md`.
//!
//! ```text
//! cargo run --release -p damka-gen --example wdl_entropy -- russian DIR/russian [MAX_PIECES]
//! ```
//!
//! Capture positions are don't-care: each model fills them with the code it finds
//! most probable in the entry's context (an encoder's choice that costs its
//! decoder nothing). Every model restarts at each block of 65,536 entries, so a
//! block decodes alone. Positions are counted as the README counts them: the
//! slice and its mirror.

mod common;
use common::{dtw_values, filled, slices_with};
use damka_core::{has_capture, International, Russian, Slice, SliceIndexer, Variant};
use damka_formats::table::{compress, pack_wdl, wdl_code, ValueKind};
use damka_formats::Value;
use rayon::prelude::*;
use std::path::Path;

/// Entries per block: a model restarts at each.
const BLOCK: usize = 1 << 16;

/// Counts above this are halved, so the model follows the data.
const LIMIT: u32 = 1 << 10;

/// The contexts compared: which earlier entries a code is predicted from.
#[derive(Clone, Copy, Debug)]
enum Context {
    /// The `k` entries before.
    Previous(u32),
    /// The 2 entries before, the entry one white-king step back (same black
    /// kings), and the entry one men placement back (same kings index).
    Planes,
    /// `Planes`, and whether the run of the entry before is longer than 16.
    PlanesRun,
}

const CONTEXTS: &[Context] = &[
    Context::Previous(1),
    Context::Previous(2),
    Context::Previous(4),
    Context::Previous(8),
    Context::Planes,
    Context::PlanesRun,
];

/// The strides of a slice's index: one step of the white kings' placement, one men
/// placement.
fn strides<V: Variant>(slice: Slice, indexer: &SliceIndexer<V>) -> (usize, usize) {
    let free = V::GEOMETRY.squares as u64 - slice.men() as u64;
    let black = damka_core::binomial::binomial(
        (free - slice.white_kings() as u64) as u32,
        slice.black_kings(),
    );
    (black as usize, indexer.king_placements() as usize)
}

/// The context number of entry `i` of a block (`codes` so far, from the block's
/// start), with 3 for "before the block".
fn context(codes: &[u8], i: usize, c: Context, strides: (usize, usize), run: u32) -> usize {
    let at = |back: usize| {
        if back <= i {
            codes[i - back] as usize
        } else {
            3
        }
    };
    match c {
        Context::Previous(k) => (1..=k as usize).fold(0, |ctx, b| ctx * 4 + at(b)),
        Context::Planes => ((at(1) * 4 + at(2)) * 4 + at(strides.0)) * 4 + at(strides.1),
        Context::PlanesRun => {
            (((at(1) * 4 + at(2)) * 4 + at(strides.0)) * 4 + at(strides.1)) * 2
                + usize::from(run > 16)
        }
    }
}

/// The ideal code length in bits of one block under context model `c`, don't-care
/// entries (`care` false) filled with the most probable code.
fn block_bits(values: &[u8], care: &[bool], c: Context, strides: (usize, usize)) -> f64 {
    let contexts = match c {
        Context::Previous(k) => 1usize << (2 * k),
        Context::Planes => 256,
        Context::PlanesRun => 512,
    };
    let mut counts = vec![[1u32; 3]; contexts];
    let mut codes = Vec::with_capacity(values.len());
    let mut bits = 0.0;
    let mut run = 0u32;
    for (i, (&v, &cared)) in values.iter().zip(care).enumerate() {
        let ctx = context(&codes, i, c, strides, run);
        let n = &mut counts[ctx];
        let code = if cared {
            v
        } else {
            (0..3).max_by_key(|&s| n[s as usize]).expect("three codes")
        };
        let total: u32 = n.iter().sum();
        bits -= (n[code as usize] as f64 / total as f64).log2();
        n[code as usize] += 2;
        if total + 2 > LIMIT {
            for x in n.iter_mut() {
                *x = (*x).div_ceil(2);
            }
        }
        run = if i > 0 && codes[i - 1] == code {
            run + 1
        } else {
            0
        };
        codes.push(code);
    }
    bits
}

fn measure<V: Variant>(dir: &Path, max_pieces: u32) {
    let mut positions = 0u64;
    let mut zstd_bytes = 0u64;
    let mut model_bytes = vec![0f64; CONTEXTS.len()];
    for slice in slices_with(dir, ValueKind::Wdl, max_pieces) {
        let indexer = SliceIndexer::<V>::new(slice).expect("an indexer");
        let codes: Vec<u8> = dtw_values(dir, slice)
            .iter()
            .map(|&v| wdl_code(Value::from_raw(v).wdl()))
            .collect();
        let care: Vec<bool> = (0..indexer.size())
            .into_par_iter()
            .map(|i| !has_capture(&indexer.position(i)))
            .collect();
        let s = strides(slice, &indexer);
        let zstd: u64 = codes
            .par_chunks(BLOCK)
            .zip(care.par_chunks(BLOCK))
            .map(|(c, m)| {
                compress(&pack_wdl(&filled(c, m, 1)), 15)
                    .expect("zstd")
                    .len() as u64
                    + 16
            })
            .sum::<u64>()
            + 144;
        let models: Vec<f64> = CONTEXTS
            .par_iter()
            .map(|&c| {
                codes
                    .chunks(BLOCK)
                    .zip(care.chunks(BLOCK))
                    .map(|(v, m)| (block_bits(v, m, c, s) / 8.0).ceil() + 16.0)
                    .sum::<f64>()
                    + 144.0
            })
            .collect();
        let both = if slice.is_self_mirror() { 1 } else { 2 };
        positions += both * indexer.size();
        println!(
            "{} {} zstd {zstd} models {models:.0?}",
            slice.name(),
            indexer.size()
        );
        zstd_bytes += zstd;
        for (total, m) in model_bytes.iter_mut().zip(models) {
            *total += m;
        }
    }
    println!("| encoding | bytes | positions/byte |");
    println!("|---|---:|---:|");
    println!(
        "| format 2 (zstd level 15) | {zstd_bytes} | {:.1} |",
        positions as f64 / zstd_bytes as f64
    );
    for (c, b) in CONTEXTS.iter().zip(model_bytes) {
        println!(
            "| context model {c:?} | {b:.0} | {:.1} |",
            positions as f64 / b
        );
    }
}

fn main() {
    common::by_variant(
        |dir, max_pieces, _| measure::<Russian>(dir, max_pieces),
        |dir, max_pieces, _| measure::<International>(dir, max_pieces),
    )
}
