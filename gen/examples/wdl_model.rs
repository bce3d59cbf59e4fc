//! Measures whether a model of the WDL values makes the WDL files smaller: the file
//! stores, instead of each value, its residual against a prediction the probe can
//! compute from the position alone. Issue 18's "prediction residual" idea; the
//! results are in `formats/FORMAT.md`.
//!
//! ```text
//! cargo run --release -p damka-gen --example wdl_model -- russian DIR/russian [MAX_PIECES]
//! ```
//!
//! The prediction of a position is the most frequent value, over the slice's
//! positions that are not don't-care, of its *bucket*: a few features of the
//! position (the other side could capture; each side has a king on the main
//! diagonal; how far each side's most advanced man is from promotion; how many
//! quiet moves the side to move has). The model (two bits a bucket, compressed) is
//! counted in the file's bytes. A file keeps the plain codes when they are smaller.
//! Blocks, level and don't-care fill are format 2's; headers and block tables are
//! counted (144 bytes a file, 16 a block).

mod common;
use common::{dtw_values, filled, slices_with};
use damka_core::movegen::generate_quiet;
use damka_core::{has_capture, International, Position, Russian, SliceIndexer, Variant};
use damka_formats::table::{compress, pack_wdl, wdl_code, ValueKind};
use damka_formats::Value;
use rayon::prelude::*;
use std::path::Path;

/// Entries per block and zstd level: format 2's WDL settings.
const BLOCK: usize = 1 << 16;
const LEVEL: i32 = 15;

/// The features of a position, packed into a bucket number below `1 << 11`, and
/// whether the side to move must capture (a don't-care entry).
fn bucket<V: Variant>(pos: &Position<V>, moves: &mut Vec<damka_core::Move>) -> (u32, bool) {
    if has_capture(pos) {
        return (0, true);
    }
    let g = V::GEOMETRY;
    let side = pos.side();
    let own = pos.pieces(side);
    let other = pos.pieces(side.opposite());
    let threat = has_capture(&pos.with_side(side.opposite())) as u32;
    let on_diagonal = |bits: u64| {
        let mut b = bits & pos.kings();
        while b != 0 {
            let square = g.square_of[b.trailing_zeros() as usize] as usize;
            if g.rank(square) == g.file(square) {
                return 1;
            }
            b &= b - 1;
        }
        0
    };
    // Ranks to promotion of the most advanced man (0: no man), at most 7.
    let advanced = |bits: u64, white: bool| {
        let mut b = bits & !pos.kings();
        let mut best = 0u32;
        while b != 0 {
            let rank = g.rank(g.square_of[b.trailing_zeros() as usize] as usize);
            let to_go = if white { g.width - 1 - rank } else { rank };
            if best == 0 || to_go < best {
                best = to_go;
            }
            b &= b - 1;
        }
        best.min(7)
    };
    let white = side == damka_core::Color::White;
    moves.clear();
    generate_quiet(pos, moves);
    let mobility = (moves.len() as u32).min(3);
    let b = threat
        | on_diagonal(own) << 1
        | on_diagonal(other) << 2
        | advanced(own, white) << 3
        | advanced(other, !white) << 6
        | mobility << 9;
    (b, false)
}

/// The compressed bytes of a file of these codes, headers and block tables counted.
fn file_bytes(codes: &[u8]) -> u64 {
    codes
        .par_chunks(BLOCK)
        .map(|c| compress(&pack_wdl(c), LEVEL).expect("zstd").len() as u64 + 16)
        .sum::<u64>()
        + 144
}

fn measure<V: Variant>(dir: &Path, max_pieces: u32) {
    let slices = slices_with(dir, ValueKind::Wdl, max_pieces);
    let mut positions = 0u64;
    // Format 2; residuals with don't-care filled as prediction; residuals with the
    // previous residual; the better of format 2 and the first, per file.
    let mut totals = [0u64; 4];
    let mut correct = 0u64;
    let mut cared = 0u64;
    for slice in slices {
        let indexer = SliceIndexer::<V>::new(slice).expect("an indexer");
        let values = dtw_values(dir, slice);
        let buckets: Vec<(u32, bool)> = (0..indexer.size())
            .into_par_iter()
            .map_init(Vec::new, |moves, i| bucket(&indexer.position(i), moves))
            .collect();
        let codes: Vec<u8> = values
            .iter()
            .map(|&v| wdl_code(Value::from_raw(v).wdl()))
            .collect();
        let mut counts = vec![[0u64; 3]; 1 << 11];
        for (&(b, dont_care), &c) in buckets.iter().zip(&codes) {
            if !dont_care {
                counts[b as usize][c as usize] += 1;
            }
        }
        let model: Vec<u8> = counts
            .iter()
            .map(|n| (0..3u8).max_by_key(|&c| n[c as usize]).unwrap_or(1))
            .collect();
        cared += counts.iter().flatten().sum::<u64>();
        correct += counts
            .iter()
            .zip(&model)
            .map(|(n, &m)| n[m as usize])
            .sum::<u64>();
        let model_bytes = compress(&pack_wdl(&model), 19).expect("zstd").len() as u64;
        let residual: Vec<u8> = buckets
            .iter()
            .zip(&codes)
            .map(|(&(b, _), &c)| (c + 3 - model[b as usize]) % 3)
            .collect();
        let care: Vec<bool> = buckets.iter().map(|&(_, d)| !d).collect();
        let plain = file_bytes(&filled(&codes, &care, 1));
        let as_prediction: Vec<u8> = residual
            .iter()
            .zip(&care)
            .map(|(&r, &c)| if c { r } else { 0 })
            .collect();
        let predicted = file_bytes(&as_prediction) + model_bytes;
        let previous = file_bytes(&filled(&residual, &care, 1)) + model_bytes;
        let sizes = [plain, predicted, previous, plain.min(predicted)];
        let both = if slice.is_self_mirror() { 1 } else { 2 };
        positions += both * indexer.size();
        println!("{} {} {:?}", slice.name(), indexer.size(), sizes);
        for (t, s) in totals.iter_mut().zip(sizes) {
            *t += s;
        }
    }
    println!(
        "prediction right for {:.1} % of the positions that are not don't-care",
        100.0 * correct as f64 / cared as f64
    );
    let names = [
        "format 2",
        "residuals, don't-care as predicted",
        "residuals, don't-care as the residual before",
        "the smaller of format 2 and residuals, per file",
    ];
    println!("| encoding | bytes | positions/byte |");
    println!("|---|---:|---:|");
    for (name, b) in names.iter().zip(totals) {
        println!("| {name} | {b} | {:.1} |", positions as f64 / b as f64);
    }
}

fn main() {
    common::by_variant(
        |dir, max_pieces, _| measure::<Russian>(dir, max_pieces),
        |dir, max_pieces, _| measure::<International>(dir, max_pieces),
    )
}
