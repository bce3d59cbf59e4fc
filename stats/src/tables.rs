//! The tables present in a directory.

use std::path::Path;

use damka_core::Slice;
use damka_formats::table::parse_file_name;

use crate::error::StatsError;

/// The slices that have a table file (either kind) in `dir`, smallest first.
///
/// The same listing as the generator's verification (`damka_gen::verify`), which
/// this crate does not depend on.
pub(crate) fn tables_in(dir: &Path) -> Result<Vec<Slice>, StatsError> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        StatsError::Usage(format!(
            "cannot read table directory {}: {e}",
            dir.display()
        ))
    })?;
    let mut slices = Vec::new();
    for entry in entries.flatten() {
        if let Some((slice, _)) = entry.file_name().to_str().and_then(parse_file_name) {
            slices.push(slice);
        }
    }
    slices.sort_by_key(|s| (s.pieces(), s.men(), *s));
    slices.dedup();
    Ok(slices)
}
