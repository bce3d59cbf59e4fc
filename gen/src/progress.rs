//! Progress of builds and verifications, reported as events through a callback:
//! the library draws nothing, and a program turns the events into progress bars
//! (or ignores them).
//!
//! Events come per solve unit or per chunk of positions, never per position, so
//! the callback costs nothing measurable on the hot loops.

use damka_core::Slice;

/// One step of a build (`build`, and `build_rules` for the game-theoretic tables
/// it builds first) or of a verification (`verify`, `verify_rules`).
///
/// A build sends [`Progress::Started`], then for each solve group it solves
/// [`Progress::GroupStarted`], any number of [`Progress::Advanced`] and
/// [`Progress::GroupFinished`], then [`Progress::Finished`]. A verification sends
/// only the group events, one group per slice checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// A build starts; the solve groups it will solve hold `positions` positions
    /// in all (0 when everything is built already).
    Started {
        /// Positions to solve in the whole build.
        positions: u64,
    },
    /// A group starts: in a build, the solve group headed by `slice` (the slice
    /// and its mirror); in a verification, the tables of `slice`.
    GroupStarted {
        /// The slice (a build's group head).
        slice: Slice,
        /// Positions in the group.
        positions: u64,
    },
    /// `positions` more positions of the group headed by `slice` are done. Sent
    /// from the worker threads, possibly from several at once; a build may have
    /// two groups going at once.
    Advanced {
        /// The slice of the matching [`Progress::GroupStarted`].
        slice: Slice,
        /// Positions done since the previous event.
        positions: u64,
    },
    /// Every position of the current group is done (a build writes the group's
    /// tables next).
    GroupFinished {
        /// The slice of the matching [`Progress::GroupStarted`].
        slice: Slice,
    },
    /// The build is done.
    Finished,
}

/// Where progress goes: a function called with every event, from any thread.
pub type OnProgress<'a> = &'a (dyn Fn(Progress) + Sync);

/// Sends `event` to `progress`, if there is one.
#[inline]
pub(crate) fn send(progress: Option<OnProgress<'_>>, event: Progress) {
    if let Some(progress) = progress {
        progress(event);
    }
}
