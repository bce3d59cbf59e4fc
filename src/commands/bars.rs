//! Progress bars on standard error, drawn from the progress events of the
//! generator's builds and verifications ([`damka_gen::Progress`]).

use std::sync::RwLock;

use damka_core::Slice;
use damka_gen::Progress;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The bars of one command: an overall bar while a build runs (its prefix `all`),
/// and one for each group or table being worked on (a build has up to two going).
pub struct Bars {
    multi: MultiProgress,
    style: ProgressStyle,
    /// Appended to a group bar's slice name, after a space (the rule set verified).
    suffix: Option<String>,
    overall: RwLock<Option<ProgressBar>>,
    groups: RwLock<Vec<(Slice, ProgressBar)>>,
}

impl Bars {
    /// The bars of `damka gen`: positions solved, their rate and the time left
    /// (hidden when `quiet`).
    pub fn build(quiet: bool) -> Bars {
        let style = ProgressStyle::with_template(
            "{prefix:>12} [{bar:30}] {human_pos}/{human_len} positions, {per_sec}, ETA {eta}",
        )
        .expect("valid progress template")
        .progress_chars("=> ");
        Bars::new(style, None, quiet)
    }

    /// The bars of `damka verify`: positions verified and the time left, each
    /// bar named by its slice and, for rule tables, the rule set `rules` (hidden
    /// when `quiet`).
    pub fn verify(rules: Option<&str>, quiet: bool) -> Bars {
        let style = ProgressStyle::with_template(
            "{prefix:>12} [{bar:30}] {human_pos}/{human_len} verified, ETA {eta}",
        )
        .expect("valid progress template");
        Bars::new(style, rules.map(str::to_string), quiet)
    }

    fn new(style: ProgressStyle, suffix: Option<String>, quiet: bool) -> Bars {
        let multi = MultiProgress::new();
        if quiet {
            multi.set_draw_target(ProgressDrawTarget::hidden());
        }
        Bars {
            multi,
            style,
            suffix,
            overall: RwLock::new(None),
            groups: RwLock::new(Vec::new()),
        }
    }

    /// A new bar of `len` positions named `prefix`.
    fn bar(&self, len: u64, prefix: String) -> ProgressBar {
        let bar = self.multi.add(ProgressBar::new(len));
        bar.set_style(self.style.clone());
        bar.set_prefix(prefix);
        bar
    }

    /// Draws `event`.
    pub fn show(&self, event: Progress) {
        match event {
            Progress::Started { positions } => {
                *write(&self.overall) = Some(self.bar(positions, "all".to_string()));
            }
            Progress::GroupStarted { slice, positions } => {
                let prefix = match &self.suffix {
                    Some(suffix) => format!("{} {suffix}", slice.name()),
                    None => slice.name(),
                };
                let bar = self.bar(positions, prefix);
                write(&self.groups).push((slice, bar));
            }
            Progress::Advanced { slice, positions } => {
                if let Some((_, bar)) = read(&self.groups).iter().find(|(s, _)| *s == slice) {
                    bar.inc(positions);
                }
                if let Some(bar) = read(&self.overall).as_ref() {
                    bar.inc(positions);
                }
            }
            Progress::GroupFinished { slice } => {
                let mut groups = write(&self.groups);
                if let Some(at) = groups.iter().position(|(s, _)| *s == slice) {
                    groups.remove(at).1.finish_and_clear();
                }
            }
            Progress::Finished => {
                if let Some(bar) = write(&self.overall).take() {
                    bar.finish_and_clear();
                }
            }
        }
    }

    /// Runs `f` (which prints to standard output) with the bars cleared, and
    /// draws them again after.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.multi.suspend(f)
    }
}

/// Reads a bar slot (a panicking holder cannot leave a bar half-changed).
fn read<T>(slot: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    slot.read().unwrap_or_else(|e| e.into_inner())
}

/// Writes a bar slot.
fn write<T>(slot: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    slot.write().unwrap_or_else(|e| e.into_inner())
}
