//! The full message of a thread's last failure, for C.

use std::ffi::c_char;

use crate::error::with_last_error;
use crate::guard::catch;
use crate::text::copy_truncated;

/// Copies the full message of the last failed call made on this thread (empty if
/// none failed) into `buf`, NUL-terminated and cut to `len - 1` bytes at a
/// character boundary. Returns the message's full length in bytes, as `snprintf`
/// does: a result `>= len` means it was cut. `buf` may be NULL when `len` is 0.
///
/// # Safety
///
/// `buf` must be NULL or point to `len` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn damka_last_error(buf: *mut c_char, len: usize) -> usize {
    catch(|| {
        // SAFETY: the caller passes `len` writable bytes at `buf`, or NULL.
        Ok(with_last_error(|last| unsafe {
            copy_truncated(last, buf, len)
        }))
    })
    .unwrap_or(0)
}
