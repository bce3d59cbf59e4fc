//! Building every slice up to a number of pieces, in dependency order, skipping the
//! tables already present, so an interrupted build resumes where it stopped.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use damka_formats::{build_order, dependencies, Slice, SliceIndexer, Variant};
use damka_probe::Tablebase;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::error::GenError;
use crate::solve::{memory_estimate, Dtw, Group};
use crate::store::{FileStore, SolvedSlice, TableStore};

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The tables' root directory; a variant's tables go to `root/<variant>/`.
    pub root: PathBuf,
    /// Build every slice with at most this many pieces.
    pub max_pieces: u32,
    /// Build only this slice (and its mirror); its dependencies must exist.
    pub only: Option<Slice>,
    /// No progress bars.
    pub quiet: bool,
}

/// One solve group that was built.
#[derive(Debug, Clone)]
pub struct BuiltGroup {
    /// The slices of the group (one, or a slice and its mirror).
    pub slices: Vec<Slice>,
    /// Positions solved.
    pub positions: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// What a build did.
#[derive(Debug, Clone, Default)]
pub struct BuildReport {
    /// The groups solved, in order.
    pub built: Vec<BuiltGroup>,
    /// Slices skipped because their tables were already there.
    pub skipped: usize,
}

impl BuildReport {
    /// Positions solved in this run.
    pub fn positions(&self) -> u64 {
        self.built.iter().map(|g| g.positions).sum()
    }

    /// Wall time spent solving.
    pub fn elapsed(&self) -> Duration {
        self.built.iter().map(|g| g.elapsed).sum()
    }
}

/// Groups `order` into solve groups: a slice and its mirror, adjacent in the order.
pub(crate) fn groups(order: &[Slice]) -> Vec<Slice> {
    let mut heads = Vec::new();
    for &slice in order {
        if !heads.contains(&slice.mirror()) {
            heads.push(slice);
        }
    }
    heads
}

/// Builds the tables `options` asks for, calling `on_group` as each solve group is
/// written.
pub fn build<V: Variant>(
    options: &BuildOptions,
    on_group: &mut dyn FnMut(&BuiltGroup),
) -> Result<BuildReport, GenError> {
    let order = build_order::<V>(options.max_pieces);
    let heads = match options.only {
        Some(slice) => {
            if !order.contains(&slice) {
                return Err(GenError::Usage(format!(
                    "{slice} is not a {} slice of at most {} pieces",
                    V::KIND,
                    options.max_pieces
                )));
            }
            vec![slice]
        }
        None => groups(&order),
    };
    let tablebase = Tablebase::<V>::new(&options.root);
    let store = FileStore::new(tablebase.dir(), V::KIND)?;
    let todo: Vec<Slice> = heads
        .into_iter()
        .filter(|&head| !(store.contains(head) && store.contains(head.mirror())))
        .collect();
    let building: usize = todo
        .iter()
        .map(|head| if head.is_self_mirror() { 1 } else { 2 })
        .sum();
    let mut report = BuildReport {
        skipped: if options.only.is_some() {
            0
        } else {
            order.len() - building
        },
        ..BuildReport::default()
    };
    let bars = Bars::new::<V>(options.quiet, &todo)?;
    for head in todo {
        check_memory::<V>(head)?;
        let started = Instant::now();
        let deps = dependencies(head)
            .into_iter()
            .map(|dep| tablebase.slice_table(dep))
            .collect::<Result<Vec<_>, _>>()?;
        let group = Group::new(head, Dtw::<V>::new(deps))?;
        let positions = group.positions();
        let bar = bars.slice_bar(head, positions);
        group.solve(&|done| {
            bar.inc(done);
            bars.overall.inc(done);
        });
        bar.finish_and_clear();
        let solved: Vec<_> = group
            .into_slots()
            .into_iter()
            .map(|slot| {
                let slice = slot.slice();
                let (values, captures) = slot.into_values();
                (slice, values, captures)
            })
            .collect();
        let tables: Vec<SolvedSlice<'_>> = solved
            .iter()
            .map(|(slice, values, captures)| (*slice, values.as_slice(), captures.as_bitslice()))
            .collect();
        store.write_group(&tables)?;
        let slices = solved.iter().map(|(slice, _, _)| *slice).collect();
        let built = BuiltGroup {
            slices,
            positions,
            elapsed: started.elapsed(),
        };
        bars.multi.suspend(|| on_group(&built));
        report.built.push(built);
    }
    bars.overall.finish_and_clear();
    Ok(report)
}

/// Fails early, with a clear message, when a group cannot fit in the memory the
/// system reports as available (Linux `MemAvailable`; no check elsewhere): the
/// solve itself plus its dependencies, decoded into memory at two bytes per
/// position.
fn check_memory<V: Variant>(head: Slice) -> Result<(), GenError> {
    let mut needed = memory_estimate::<V>(head, rayon::current_num_threads())?;
    for dep in dependencies(head) {
        needed += 2 * SliceIndexer::<V>::new(dep)?.size();
    }
    let Some(available) = available_memory() else {
        return Ok(());
    };
    if needed > available {
        return Err(GenError::OutOfMemory {
            slice: head.name(),
            needed_mib: needed >> 20,
            available_mib: available >> 20,
        });
    }
    Ok(())
}

/// `MemAvailable` from `/proc/meminfo`, in bytes.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The positions of the solve group headed by `head`.
fn group_positions<V: Variant>(head: Slice) -> Result<u64, GenError> {
    let mut total = SliceIndexer::<V>::new(head)?.size();
    if !head.is_self_mirror() {
        total += SliceIndexer::<V>::new(head.mirror())?.size();
    }
    Ok(total)
}

/// The progress bars: one overall, one for the group being solved.
struct Bars {
    multi: MultiProgress,
    overall: ProgressBar,
}

impl Bars {
    fn new<V: Variant>(quiet: bool, todo: &[Slice]) -> Result<Bars, GenError> {
        let multi = MultiProgress::new();
        if quiet {
            multi.set_draw_target(ProgressDrawTarget::hidden());
        }
        let mut total = 0;
        for &head in todo {
            total += group_positions::<V>(head)?;
        }
        let overall = multi.add(ProgressBar::new(total));
        overall.set_style(style());
        overall.set_prefix("all");
        Ok(Bars { multi, overall })
    }

    fn slice_bar(&self, head: Slice, positions: u64) -> ProgressBar {
        let bar = self.multi.add(ProgressBar::new(positions));
        bar.set_style(style());
        bar.set_prefix(head.name());
        bar
    }
}

fn style() -> ProgressStyle {
    ProgressStyle::with_template(
        "{prefix:>12} [{bar:30}] {human_pos}/{human_len} positions, {per_sec}, ETA {eta}",
    )
    .expect("valid progress template")
    .progress_chars("=> ")
}
