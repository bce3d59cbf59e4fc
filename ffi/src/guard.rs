//! The panic boundary: every exported function runs its body through [`guard`],
//! so that a Rust panic comes back to C as an error code, never as an unwind
//! across the boundary.

use std::any::Any;
use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::{Failure, DAMKA_ERR_PANIC};

/// Runs `body`; returns its code, or the code of its failure (recorded as this
/// thread's last error), or [`DAMKA_ERR_PANIC`] if it panicked.
pub(crate) fn guard(body: impl FnOnce() -> Result<c_int, Failure>) -> c_int {
    match catch(body) {
        Ok(code) => code,
        Err(failure) => failure.record(),
    }
}

/// Runs `body`, turning a panic into a [`DAMKA_ERR_PANIC`] failure.
pub(crate) fn catch<T>(body: impl FnOnce() -> Result<T, Failure>) -> Result<T, Failure> {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| Err(panic_failure(payload)))
}

/// The failure for a caught panic, with its message when it has one.
fn panic_failure(payload: Box<dyn Any + Send>) -> Failure {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    Failure::new(
        DAMKA_ERR_PANIC,
        format!("internal error (a bug in Damka, please report it): {message}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::DAMKA_ERR_BAD_FEN;

    #[test]
    fn a_panic_becomes_an_error_code() {
        let code = guard(|| panic!("boom"));
        assert_eq!(code, DAMKA_ERR_PANIC);
        let message = crate::error::last_error();
        assert!(message.contains("boom"), "{message}");
    }

    #[test]
    fn a_failure_is_its_code_and_a_success_its_value() {
        assert_eq!(guard(|| Ok(7)), 7);
        let code = guard(|| Err(Failure::new(DAMKA_ERR_BAD_FEN, "bad FEN: x")));
        assert_eq!(code, DAMKA_ERR_BAD_FEN);
        assert_eq!(crate::error::last_error(), "bad FEN: x");
    }
}
