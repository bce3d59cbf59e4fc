//! The tables present in a directory.

use std::path::Path;

use damka_core::Slice;
use damka_formats::table::slices_in;

use crate::error::StatsError;

/// The slices that have a table file (either kind) in `dir`, smallest first.
pub(crate) fn tables_in(dir: &Path) -> Result<Vec<Slice>, StatsError> {
    slices_in(dir).map_err(|e| {
        StatsError::Usage(format!(
            "cannot read table directory {}: {e}",
            dir.display()
        ))
    })
}
