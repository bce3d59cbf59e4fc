//! Table file names: `<slice>.<kind>.dkt`, and `<slice>.<rules>.<kind>.dkt` for a
//! table built under a rule set.

use std::path::Path;

use damka_core::slice::Slice;

use super::kind::ValueKind;

/// The file name extension.
pub const EXTENSION: &str = "dkt";

/// The file name of a slice's table of kind `kind`, e.g. `1M2K-0M1K.wdl.dkt`.
pub fn table_file_name(slice: Slice, kind: ValueKind) -> String {
    format!("{}.{}.{EXTENSION}", slice.name(), kind.name())
}

/// The file name of the table that holds every value of `slice` exactly: its DTW
/// table.
pub fn file_name(slice: Slice) -> String {
    table_file_name(slice, ValueKind::Dtw)
}

/// The file name of a slice's table of kind `kind` built under the rule set
/// called `rules`, e.g. `1M2K-0M1K.russian.dtc.dkt`.
pub fn rule_table_file_name(slice: Slice, rules: &str, kind: ValueKind) -> String {
    format!("{}.{rules}.{}.{EXTENSION}", slice.name(), kind.name())
}

/// The slice and kind a table file name stands for, if it is one.
pub fn parse_file_name(name: &str) -> Option<(Slice, ValueKind)> {
    let stem = name.strip_suffix(EXTENSION)?.strip_suffix('.')?;
    for kind in [ValueKind::Wdl, ValueKind::Dtw] {
        if let Some(slice) = stem
            .strip_suffix(kind.name())
            .and_then(|s| s.strip_suffix('.'))
        {
            return slice.parse().ok().map(|slice| (slice, kind));
        }
    }
    None
}

/// The slices with a WDL or DTW table file in `dir`, smallest first (by pieces,
/// then men).
pub fn slices_in(dir: &Path) -> std::io::Result<Vec<Slice>> {
    let mut slices = Vec::new();
    for entry in std::fs::read_dir(dir)?.flatten() {
        if let Some((slice, _)) = entry.file_name().to_str().and_then(parse_file_name) {
            slices.push(slice);
        }
    }
    slices.sort_by_key(|s| (s.pieces(), s.men(), *s));
    slices.dedup();
    Ok(slices)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_round_trip() {
        let slice: Slice = "1M2K-0M1K".parse().unwrap();
        for kind in [ValueKind::Wdl, ValueKind::Dtw] {
            let name = table_file_name(slice, kind);
            assert_eq!(parse_file_name(&name), Some((slice, kind)));
        }
        assert_eq!(table_file_name(slice, ValueKind::Wdl), "1M2K-0M1K.wdl.dkt");
        assert_eq!(file_name(slice), "1M2K-0M1K.dtw.dkt");
        assert_eq!(parse_file_name("1M2K-0M1K.dkt"), None);
        assert_eq!(parse_file_name("1M2K-0M1K.wdl.dkt.tmp"), None);
    }
}
