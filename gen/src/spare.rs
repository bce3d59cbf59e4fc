//! Buffers no worker is using, kept for the next one to reuse.
//!
//! A parallel pass that gives every piece of work fresh large buffers pays for
//! them in page faults and the kernel's clearing of new pages: a third of an
//! International `fmjd` rule build's time (session 42), and a tenth of a rule
//! check's (session 43). A `Spare` holds the buffers of finished work until
//! the next piece takes them, so a pass makes about one set a thread.

use std::sync::{Mutex, PoisonError};

/// A stack of buffers to reuse, shared by the workers of a parallel pass.
pub(crate) struct Spare<S>(Mutex<Vec<S>>);

impl<S> Default for Spare<S> {
    fn default() -> Self {
        Spare(Mutex::new(Vec::new()))
    }
}

impl<S> Spare<S> {
    /// A buffer finished work left, if any.
    pub(crate) fn take(&self) -> Option<S> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).pop()
    }

    /// Keeps `buffer` for later work.
    pub(crate) fn keep(&self, buffer: S) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(buffer);
    }
}

#[cfg(test)]
mod tests {
    use super::Spare;

    #[test]
    fn gives_back_what_was_kept_and_nothing_else() {
        let spare = Spare::default();
        assert_eq!(spare.take(), None::<Vec<u16>>);
        spare.keep(vec![1, 2]);
        spare.keep(vec![3]);
        let mut taken = [spare.take().unwrap(), spare.take().unwrap()];
        taken.sort();
        assert_eq!(taken, [vec![1, 2], vec![3]]);
        assert_eq!(spare.take(), None);
    }
}
