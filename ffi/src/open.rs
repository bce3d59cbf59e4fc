//! Opening and closing a handle.

use std::ffi::{c_char, c_int};
use std::path::Path;

use damka_probe::VariantKind;

use crate::error::{Failure, DAMKA_ERR_BAD_ARGUMENT};
use crate::guard::{catch, guard};
use crate::handle::{damka_tb, handle, with_tables, AnyTables, Tables};
use crate::text::{arg, copy_truncated};

/// Opens the tables of `variant` (`"russian"` or `"international"`) under
/// `dir/<variant>/`, as `damka gen --dir DIR` writes them. Lists the directory;
/// each table is opened and checked on first use.
///
/// Returns NULL on failure, with the message in `err` (NUL-terminated, cut to
/// `err_len - 1` bytes; `err` may be NULL when `err_len` is 0) and as this
/// thread's last error. Free the handle with `damka_close`.
///
/// # Safety
///
/// `dir` and `variant` must be NULL or NUL-terminated strings; `err` must be NULL
/// or point to `err_len` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn damka_open(
    dir: *const c_char,
    variant: *const c_char,
    err: *mut c_char,
    err_len: usize,
) -> *mut damka_tb {
    let opened = catch(|| {
        // SAFETY: NUL-terminated strings or NULL, by the caller's contract.
        let (dir, variant) = unsafe { (arg(dir, "dir")?, arg(variant, "variant")?) };
        let kind: VariantKind = variant
            .parse()
            .map_err(|e: String| Failure::new(DAMKA_ERR_BAD_ARGUMENT, e))?;
        let dir = Path::new(dir);
        let tables = match kind {
            VariantKind::Russian => AnyTables::Russian(Tables::open(dir)?),
            VariantKind::International => AnyTables::International(Tables::open(dir)?),
        };
        Ok(Box::into_raw(Box::new(damka_tb { tables })))
    });
    match opened {
        Ok(tb) => tb,
        Err(failure) => {
            // SAFETY: `err_len` writable bytes at `err`, or NULL.
            unsafe { copy_truncated(&failure.message, err, err_len) };
            failure.record();
            std::ptr::null_mut()
        }
    }
}

/// Frees a handle from `damka_open`. NULL is allowed and does nothing.
///
/// # Safety
///
/// `tb` must be NULL or a handle from `damka_open`, not closed before and not in
/// use by another thread.
#[no_mangle]
pub unsafe extern "C" fn damka_close(tb: *mut damka_tb) {
    if tb.is_null() {
        return;
    }
    // SAFETY: a live handle, given up by the caller.
    let tb = unsafe { Box::from_raw(tb) };
    guard(|| {
        drop(tb);
        Ok(0)
    });
}

/// The most pieces of any table present: positions with more pieces are
/// `DAMKA_ERR_NOT_COVERED`. Negative on failure (a NULL handle).
///
/// # Safety
///
/// `tb` must be NULL or a handle from `damka_open` not yet closed.
#[no_mangle]
pub unsafe extern "C" fn damka_max_pieces(tb: *const damka_tb) -> c_int {
    guard(|| {
        // SAFETY: a live handle or NULL, by the caller's contract.
        let tb = unsafe { handle(tb) }?;
        Ok(with_tables!(tb, t => t.tablebase.max_pieces()) as c_int)
    })
}
