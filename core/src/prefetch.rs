//! A cache prefetch hint, for the generator's and the probe's hot loops.
//!
//! Hand-written: the retrograde passes are bound by cache misses on large value
//! arrays, and the standard library has no portable prefetch. Asking for many
//! lines before using any of them lets their misses overlap.

/// Asks for the cache line holding `value` ahead of its use. Only a hint: it
/// reads nothing and changes nothing.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it reads nothing and cannot fault.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
