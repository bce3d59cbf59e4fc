//! Text across the boundary: reading C string arguments, and writing answers
//! into fixed, NUL-terminated `char` arrays.

use std::ffi::{c_char, CStr};
use std::fmt;

use crate::error::{Failure, DAMKA_ERR_BAD_ARGUMENT, DAMKA_ERR_BUFFER_TOO_SMALL};

/// Reads the C string argument `name` as UTF-8.
///
/// # Safety
///
/// `ptr` must be NULL or point to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn arg<'a>(ptr: *const c_char, name: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(Failure::new(
            DAMKA_ERR_BAD_ARGUMENT,
            format!("{name} is NULL"),
        ));
    }
    // SAFETY: non-NULL, and NUL-terminated by the caller's contract.
    let text = unsafe { CStr::from_ptr(ptr) };
    text.to_str()
        .map_err(|_| Failure::new(DAMKA_ERR_BAD_ARGUMENT, format!("{name} is not UTF-8 text")))
}

/// A fixed `char` array filled as text, always NUL-terminated. Writing more than
/// it holds fails rather than cutting the text.
pub(crate) struct FixedText<'a> {
    buf: &'a mut [c_char],
    len: usize,
}

impl<'a> FixedText<'a> {
    /// An empty text in `buf` (which must hold at least the NUL).
    pub fn new(buf: &'a mut [c_char]) -> FixedText<'a> {
        buf[0] = 0;
        FixedText { buf, len: 0 }
    }

    /// Fills `buf` with what `write` writes, or fails naming `what` when it does not
    /// fit; `buf` then holds an empty string.
    pub fn fill(
        buf: &'a mut [c_char],
        what: &str,
        write: impl FnOnce(&mut FixedText<'a>) -> fmt::Result,
    ) -> Result<(), Failure> {
        let capacity = buf.len() - 1;
        let mut text = FixedText::new(buf);
        if write(&mut text).is_err() {
            text.buf[0] = 0;
            return Err(Failure::new(
                DAMKA_ERR_BUFFER_TOO_SMALL,
                format!("{what} is longer than the {capacity} bytes its field holds"),
            ));
        }
        Ok(())
    }
}

impl fmt::Write for FixedText<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end >= self.buf.len() {
            return Err(fmt::Error);
        }
        for (slot, &byte) in self.buf[self.len..end].iter_mut().zip(s.as_bytes()) {
            *slot = byte as c_char;
        }
        self.buf[end] = 0;
        self.len = end;
        Ok(())
    }
}

/// Copies `text` into the `len` bytes at `buf`, NUL-terminated, cut at a character
/// boundary to fit; returns `text.len()`. Writes nothing when `buf` is NULL or
/// `len` is 0.
///
/// # Safety
///
/// `buf` must be NULL or point to `len` writable bytes.
pub(crate) unsafe fn copy_truncated(text: &str, buf: *mut c_char, len: usize) -> usize {
    if buf.is_null() || len == 0 {
        return text.len();
    }
    let mut cut = text.len().min(len - 1);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    // SAFETY: `cut + 1 <= len` bytes are writable at `buf` by the caller's contract.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr().cast::<c_char>(), buf, cut);
        *buf.add(cut) = 0;
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    fn read(buf: &[c_char]) -> String {
        // SAFETY: every buffer here is NUL-terminated.
        unsafe { CStr::from_ptr(buf.as_ptr()) }
            .to_str()
            .unwrap()
            .to_string()
    }

    #[test]
    fn fixed_text_fills_or_fails_whole() {
        let mut buf = [1 as c_char; 6];
        FixedText::fill(&mut buf, "move", |t| t.write_str("c3-d4")).unwrap();
        assert_eq!(read(&buf), "c3-d4");
        let error = FixedText::fill(&mut buf, "move", |t| t.write_str("c3:e5:g7")).unwrap_err();
        assert_eq!(error.code, DAMKA_ERR_BUFFER_TOO_SMALL);
        assert!(error.message.contains("5 bytes"), "{}", error.message);
        assert_eq!(read(&buf), "");
    }

    #[test]
    fn copies_are_cut_at_a_character_boundary() {
        let mut buf = [1 as c_char; 4];
        // SAFETY: `buf` holds 4 bytes.
        let full = unsafe { copy_truncated("ab\u{e9}cd", buf.as_mut_ptr(), 4) };
        assert_eq!(full, 6);
        assert_eq!(read(&buf), "ab");
        // SAFETY: NULL with length 0 writes nothing.
        assert_eq!(unsafe { copy_truncated("xyz", std::ptr::null_mut(), 0) }, 3);
    }

    #[test]
    fn arguments_must_be_non_null_utf8() {
        // SAFETY: NULL and NUL-terminated literals.
        unsafe {
            assert_eq!(
                arg(std::ptr::null(), "fen").unwrap_err().code,
                DAMKA_ERR_BAD_ARGUMENT
            );
            assert_eq!(
                arg(c"\xff".as_ptr(), "fen").unwrap_err().code,
                DAMKA_ERR_BAD_ARGUMENT
            );
            assert_eq!(arg(c"W:Wa1:Bh8".as_ptr(), "fen").unwrap(), "W:Wa1:Bh8");
        }
    }
}
