//! What the table-density examples share: their arguments and reading a table's
//! exact values.

use damka_core::Slice;
use damka_formats::table::{parse_file_name, TableHeader, ValueKind, HEADER_LEN};
use std::path::{Path, PathBuf};

/// The exact values of a slice, from its DTW file in `dir`, as raw
/// [`damka_formats::Value`]s by index.
pub fn dtw_values(dir: &Path, slice: Slice) -> Vec<u16> {
    let path = dir.join(format!("{}.dtw.dkt", slice.name()));
    let file = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header = TableHeader::decode(&file[..HEADER_LEN]).expect("a DTW header");
    let mut values = vec![0u16; header.entries as usize];
    for block in 0..header.blocks() {
        let start = block as usize * header.block_entries as usize;
        let decoded = header.decode_block(&file, block).expect("a DTW block");
        for (local, v) in values[start..start + header.entries_in(block)]
            .iter_mut()
            .enumerate()
        {
            *v = decoded.value(local).expect("DTW").raw();
        }
    }
    values
}

/// The arguments `VARIANT DIR [MAX_PIECES] [REST...]`: whether the variant is
/// Russian, the table directory, the most pieces (all when absent) and the
/// arguments after them.
pub fn args() -> (bool, PathBuf, u32, Vec<String>) {
    let args: Vec<String> = std::env::args().collect();
    let max_pieces = args
        .get(3)
        .map_or(u32::MAX, |p| p.parse().expect("a piece count"));
    (
        args[1] == "russian",
        PathBuf::from(&args[2]),
        max_pieces,
        args.iter().skip(4).cloned().collect(),
    )
}

/// Runs the measurement of the variant the arguments name (`VARIANT DIR
/// [MAX_PIECES] [REST...]`, see [`args`]): `russian` or `international`, given the
/// table directory, the most pieces and the arguments after them.
pub fn by_variant(russian: fn(&Path, u32, &[String]), international: fn(&Path, u32, &[String])) {
    let (is_russian, dir, max_pieces, rest) = args();
    let measure = if is_russian { russian } else { international };
    measure(&dir, max_pieces, &rest)
}

/// `values` with every entry not cared for (`care` false) replaced by the entry
/// before it, and those before the first cared-for entry by that entry (`default`
/// when there is none): how format 2 fills don't-care entries.
pub fn filled<T: Copy>(values: &[T], care: &[bool], default: T) -> Vec<T> {
    let mut last = values
        .iter()
        .zip(care)
        .find(|(_, &c)| c)
        .map_or(default, |(&v, _)| v);
    values
        .iter()
        .zip(care)
        .map(|(&v, &c)| {
            if c {
                last = v;
            }
            last
        })
        .collect()
}

/// The slices of at most `max_pieces` pieces with a `kind` file in `dir`, by piece
/// count, then name.
pub fn slices_with(dir: &Path, kind: ValueKind, max_pieces: u32) -> Vec<Slice> {
    let mut slices: Vec<Slice> = std::fs::read_dir(dir)
        .expect("a table directory")
        .filter_map(|e| parse_file_name(e.ok()?.file_name().to_str()?))
        .filter(|&(s, k)| k == kind && s.pieces() <= max_pieces)
        .map(|(s, _)| s)
        .collect();
    slices.sort_by_key(|s| (s.pieces(), s.name()));
    slices
}
