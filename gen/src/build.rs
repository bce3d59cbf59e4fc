//! Building every slice up to a number of pieces, in dependency order, skipping the
//! tables already present, so an interrupted build resumes where it stopped.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use damka_core::{build_order, closure, dependencies, Slice, SliceIndexer, Variant};
use damka_probe::{PageBudget, ProbeError, Tablebase};

use crate::budget::{
    default_budget, group_need, mib, page_slots, GroupNeed, PAGED_DEPENDENCIES_FLOOR,
};
use crate::compact::refuse_compact_set;
use crate::error::GenError;
use crate::progress::{send, OnProgress, Progress};
use crate::solve::{Dtw, Group};
use crate::spill::Spill;
use crate::store::{FileStore, SolvedSlice, TableStore};

/// What to build.
#[derive(Clone)]
pub struct BuildOptions<'a> {
    /// The tables' root directory; a variant's tables go to `root/<variant>/`.
    pub root: PathBuf,
    /// Build every slice with at most this many pieces.
    pub max_pieces: u32,
    /// Build only this slice (and its mirror); its dependencies must exist,
    /// unless `with_dependencies`.
    pub only: Option<Slice>,
    /// With `only`, also build whatever of its closure is missing: every slice
    /// it depends on, directly or through others ([`damka_core::closure`]), and
    /// nothing else.
    pub with_dependencies: bool,
    /// The memory ceiling in bytes (`None`: the memory available less a margin,
    /// [`crate::budget::default_budget`]). A group that does not fit solves with
    /// its sub-slices spilled to disk; one that does not fit even so is an error,
    /// before anything is built.
    pub memory: Option<u64>,
    /// Where the build reports its progress (`None`: nowhere): per solve group,
    /// and per solve unit inside a group.
    pub progress: Option<OnProgress<'a>>,
}

impl std::fmt::Debug for BuildOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildOptions")
            .field("root", &self.root)
            .field("max_pieces", &self.max_pieces)
            .field("only", &self.only)
            .field("with_dependencies", &self.with_dependencies)
            .field("memory", &self.memory)
            .field("progress", &self.progress.map(|_| "callback"))
            .finish()
    }
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
    /// Whether its sub-slices were spilled to disk to stay inside the budget.
    pub spilled: bool,
    /// Whether, to stay inside the budget, each of its blocks went to disk as
    /// it was solved, and only the sub-slice being read was kept in memory.
    pub streamed: bool,
    /// With its dependencies decoded a block at a time to stay inside the
    /// budget: the most bytes of them decoded at once.
    pub dependency_pages: Option<u64>,
    /// Rule tables only: whether the group's solve was read back from the DTC
    /// tables that an interrupted build had written, not done again.
    pub resumed: bool,
}

impl BuiltGroup {
    /// The group of `slices`, `positions` positions, solved in memory since
    /// `started`.
    pub(crate) fn in_memory(slices: Vec<Slice>, positions: u64, started: Instant) -> BuiltGroup {
        BuiltGroup {
            slices,
            positions,
            elapsed: started.elapsed(),
            spilled: false,
            streamed: false,
            dependency_pages: None,
            resumed: false,
        }
    }
}

/// What a build did.
#[derive(Debug, Clone, Default)]
pub struct BuildReport {
    /// The groups solved, in order.
    pub built: Vec<BuiltGroup>,
    /// Slices skipped because their tables were already there.
    pub skipped: usize,
    /// Wall time of the whole run, where the groups' times overlap (a group's
    /// tables are written while the next is solved); `None`: they do not.
    pub wall: Option<Duration>,
}

impl BuildReport {
    /// Positions solved in this run.
    pub fn positions(&self) -> u64 {
        self.built.iter().map(|g| g.positions).sum()
    }

    /// Adds `built`, a group just written, after telling `on_group`.
    pub(crate) fn record(&mut self, built: BuiltGroup, on_group: &mut dyn FnMut(&BuiltGroup)) {
        on_group(&built);
        self.built.push(built);
    }

    /// Wall time spent building.
    pub fn elapsed(&self) -> Duration {
        self.wall
            .unwrap_or_else(|| self.built.iter().map(|g| g.elapsed).sum())
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

/// The heads of the solve groups `options` asks for, in build order: every group
/// up to its pieces, or the group of `options.only`, with its closure if
/// `options.with_dependencies`.
pub(crate) fn selected_groups<V: Variant>(
    options: &BuildOptions<'_>,
) -> Result<Vec<Slice>, GenError> {
    let order = build_order::<V>(options.max_pieces);
    let Some(slice) = options.only else {
        return Ok(groups(&order));
    };
    if !order.contains(&slice) {
        return Err(GenError::Usage(format!(
            "{slice} is not a {} slice of at most {} pieces",
            V::KIND,
            options.max_pieces
        )));
    }
    if !options.with_dependencies {
        return Ok(vec![slice]);
    }
    let members = closure(slice);
    let order: Vec<Slice> = order.into_iter().filter(|s| members.contains(s)).collect();
    Ok(groups(&order))
}

/// Builds the tables `options` asks for, calling `on_group` as each solve group is
/// written and reporting progress to `options.progress`.
pub fn build<V: Variant>(
    options: &BuildOptions<'_>,
    on_group: &mut dyn FnMut(&BuiltGroup),
) -> Result<BuildReport, GenError> {
    let heads = selected_groups::<V>(options)?;
    let slices_of = |head: &Slice| if head.is_self_mirror() { 1 } else { 2 };
    let selected: usize = heads.iter().map(slices_of).sum();
    let tablebase = Tablebase::<V>::new(&options.root);
    let store = FileStore::new(tablebase.dir(), V::KIND)?;
    refuse_compact_set::<V>(&options.root)?;
    let todo: Vec<Slice> = heads
        .into_iter()
        .filter(|&head| !(store.contains(head) && store.contains(head.mirror())))
        .collect();
    let building: usize = todo.iter().map(slices_of).sum();
    let mut report = BuildReport {
        skipped: selected - building,
        ..BuildReport::default()
    };
    let threads = rayon::current_num_threads();
    let budget = Budget::new(options.memory, (&todo, group_need::<V>), threads, &|_| {
        Ok(0)
    })?;
    let mut total = 0;
    for &head in &todo {
        total += group_positions::<V>(head)?;
    }
    let progress = options.progress;
    send(progress, Progress::Started { positions: total });
    let started = Instant::now();
    let solve = |head: Slice, beside: u64| -> Result<BuiltGroup, GenError> {
        let group_started = Instant::now();
        let paging = budget.dependency_pages(head, threads, beside)?;
        let pages = paging.map(|p| Arc::new(PageBudget::new(p.bytes)));
        let (deps, residence) = match &pages {
            None => {
                let deps = dependencies(head)
                    .into_iter()
                    .map(|dep| tablebase.slice_table(dep))
                    .collect::<Result<Vec<_>, _>>()?;
                let deps_bytes: u64 = deps.iter().map(|d| d.heap_bytes() as u64).sum();
                let residence = budget.residence(head, threads, deps_bytes + beside)?;
                (deps, residence)
            }
            Some(pages) => {
                let deps = dependencies(head)
                    .into_iter()
                    .map(|dep| {
                        tablebase
                            .paged_slice_table(dep, pages.clone())
                            .map(Arc::new)
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                (deps, Residence::Streamed)
            }
        };
        let metric = Dtw::<V>::new(deps);
        let spill_at = Spill::for_group(tablebase.dir(), "game", head)?;
        let mut group = match residence {
            Residence::Memory => Group::new(head, metric)?,
            Residence::Spilled => Group::with_spill(head, metric, Some(spill_at.create()?))?,
            Residence::Streamed | Residence::StreamedOneUnit => {
                Group::streamed(head, metric, spill_at.create()?)?
            }
        };
        if residence == Residence::StreamedOneUnit || paging.is_some_and(|p| p.one_unit) {
            group = group.one_unit_at_a_time();
        }
        let spill = residence != Residence::Memory;
        let positions = group.positions();
        send(
            progress,
            Progress::GroupStarted {
                slice: head,
                positions,
            },
        );
        group
            .solve(&|done| {
                send(
                    progress,
                    Progress::Advanced {
                        slice: head,
                        positions: done,
                    },
                )
            })
            .map_err(|error| budget.pages_short(head, error))?;
        send(progress, Progress::GroupFinished { slice: head });
        // The dependencies are dropped here: writing the tables does not read them.
        let slots = group.into_slots();
        let tables: Vec<SolvedSlice<'_>> = slots
            .iter()
            .map(|slot| (slot.slice(), slot.values()))
            .collect();
        store.write_group(&tables)?;
        spill_at.release();
        Ok(BuiltGroup {
            slices: slots.iter().map(|slot| slot.slice()).collect(),
            positions,
            elapsed: group_started.elapsed(),
            spilled: spill,
            streamed: matches!(residence, Residence::Streamed | Residence::StreamedOneUnit),
            dependency_pages: pages.map(|p| p.peak()),
            resumed: false,
        })
    };
    // Two groups are built at once, each on a thread of its own sharing the
    // worker threads, when the second does not read the first's tables and both
    // fit in the budget: a group alone leaves a core idle part of the time (plies
    // and sub-slices with little work, writing its files), and the other group's
    // work fills it. The tables are the same bytes either way.
    std::thread::scope(|scope| -> Result<(), GenError> {
        let mut flight: Vec<InFlight<'_>> = Vec::new();
        let mut pending: Vec<Slice> = todo;
        while !pending.is_empty() || !flight.is_empty() {
            if let Some(done) = flight.iter().position(InFlight::is_finished) {
                flight.remove(done).finish(&mut report, on_group)?;
                continue;
            }
            let beside: u64 = flight.iter().map(|f| f.need).sum();
            // The first group left whose dependencies are all written: none is
            // being built, nor waits (the order is a dependency order).
            let waiting: Vec<Slice> = flight
                .iter()
                .flat_map(|f| f.slices.iter().copied())
                .chain(pending.iter().flat_map(|&p| [p, p.mirror()]))
                .collect();
            let mut next = None;
            if flight.len() < IN_FLIGHT {
                for (at, &head) in pending.iter().enumerate() {
                    if dependencies(head).iter().any(|d| waiting.contains(d)) {
                        continue;
                    }
                    let need = group_need::<V>(head, threads)?;
                    // Two bytes per dependency position: room for wide tables.
                    let fits = flight.is_empty()
                        || matches!(
                            budget.must_spill(head, threads, need.dependencies * 2 + beside),
                            Ok(false)
                        );
                    if fits {
                        next = Some((at, need));
                    }
                    break;
                }
            }
            match next {
                Some((at, need)) => {
                    let head = pending.remove(at);
                    let solve = &solve;
                    flight.push(InFlight {
                        slices: vec![head, head.mirror()],
                        need: need.resident + need.dependencies,
                        handle: scope.spawn(move || solve(head, beside)),
                    });
                }
                // Nothing can start: wait for the oldest group.
                None => flight.remove(0).finish(&mut report, on_group)?,
            }
        }
        Ok(())
    })?;
    report.wall = Some(started.elapsed());
    send(progress, Progress::Finished);
    Ok(report)
}

/// The dependencies of a group decoded a block at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pages {
    /// The bytes their decoded blocks may take.
    bytes: u64,
    /// Whether the group's units must be solved one at a time to leave them
    /// that much.
    one_unit: bool,
}

/// Where a group's values are kept while it is solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Residence {
    /// All in memory.
    Memory,
    /// Two sub-slices in memory, the others spilled to disk.
    Spilled,
    /// Each block on disk as its unit finishes, one sub-slice read back.
    Streamed,
    /// Streamed, and one unit solved at a time.
    StreamedOneUnit,
}

/// Solve groups built at once, at most.
const IN_FLIGHT: usize = 2;

/// A solve group being built on a thread of its own.
struct InFlight<'scope> {
    /// Its slices: a group that reads one of them waits for it.
    slices: Vec<Slice>,
    /// The memory it may hold, in bytes.
    need: u64,
    handle: std::thread::ScopedJoinHandle<'scope, Result<BuiltGroup, GenError>>,
}

impl InFlight<'_> {
    fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Waits for the group and records it in `report`.
    fn finish(
        self,
        report: &mut BuildReport,
        on_group: &mut dyn FnMut(&BuiltGroup),
    ) -> Result<(), GenError> {
        let built = self
            .handle
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
        report.record(built, on_group);
        Ok(())
    }
}

/// The memory ceiling in bytes for `--memory` `memory` (or the default, `None`
/// where the system does not say), and where it comes from, for messages.
pub(crate) fn ceiling(memory: Option<u64>) -> (Option<u64>, &'static str) {
    match memory {
        Some(bytes) => (Some(bytes), "--memory"),
        None => (default_budget(), "the available memory less a margin"),
    }
}

/// The memory ceiling of a build and the check of each group against it.
pub(crate) struct Budget {
    /// Bytes, or `None` for no ceiling (the system does not say what it has).
    bytes: Option<u64>,
    /// Where the ceiling comes from, for messages.
    source: &'static str,
    /// What a group's solve needs: [`group_need`] for the DTW tables,
    /// [`crate::budget::group_need_general`] for other metrics.
    need: NeedOf,
}

/// What solving a group needs, given its head and the threads.
pub(crate) type NeedOf = fn(Slice, usize) -> Result<GroupNeed, GenError>;

impl Budget {
    /// The ceiling `memory` (or the default), checked against every group of
    /// `todo`: fails at once, naming the smallest budget that works, if some
    /// group cannot be solved inside it even with its sub-slices spilled (and,
    /// for the DTW tables, its dependencies decoded a block at a time).
    /// `extra` is what a group holds besides the game-theoretic solve
    /// ([`group_need`]): 0 for it, the group's own decoded tables for a metric
    /// that reads them.
    pub(crate) fn new(
        memory: Option<u64>,
        (todo, need): (&[Slice], NeedOf),
        threads: usize,
        extra: &dyn Fn(Slice) -> Result<u64, GenError>,
    ) -> Result<Budget, GenError> {
        let (bytes, source) = ceiling(memory);
        let budget = Budget {
            bytes,
            source,
            need,
        };
        let Some(limit) = bytes else {
            return Ok(budget);
        };
        let mut worst: Option<(Slice, u64)> = None;
        for &head in todo {
            let need = (budget.need)(head, threads)?.least + extra(head)?;
            if worst.is_none_or(|(_, w)| need > w) {
                worst = Some((head, need));
            }
        }
        match worst {
            Some((head, need)) if need > limit => Err(budget.too_small(head, need, need)),
            _ => Ok(budget),
        }
    }

    fn too_small(&self, head: Slice, needed: u64, smallest: u64) -> GenError {
        GenError::MemoryBudget {
            slice: head.name(),
            needed_mib: mib(needed),
            budget_mib: mib(self.bytes.unwrap_or(0)),
            origin: self.source,
            smallest_mib: mib(smallest),
        }
    }

    /// The bytes the DTW build of the group of `head`, beside groups holding
    /// `beside` bytes, leaves for its dependencies decoded a block at a time
    /// (`damka_probe::PageBudget`) with its values streamed
    /// ([`Group::streamed`]), one unit per thread or, if that leaves too little,
    /// one unit at a time; `None` when they fit decoded whole, at a byte per
    /// position.
    pub(crate) fn dependency_pages(
        &self,
        head: Slice,
        threads: usize,
        beside: u64,
    ) -> Result<Option<Pages>, GenError> {
        let Some(limit) = self.bytes else {
            return Ok(None);
        };
        let need = (self.need)(head, threads)?;
        if need.streamed - need.other_units + beside <= limit {
            return Ok(None);
        }
        let others = need.streamed - need.dependencies + page_slots(need.dependencies) + beside;
        for (others, one_unit) in [(others, false), (others - need.other_units, true)] {
            match limit.checked_sub(others) {
                Some(bytes) if bytes >= PAGED_DEPENDENCIES_FLOOR => {
                    return Ok(Some(Pages { bytes, one_unit }))
                }
                _ => continue,
            }
        }
        Err(self.too_small(head, need.least + beside, need.least))
    }

    /// `error`, or, when it says the dependency blocks of a sub-slice of the
    /// group of `head` did not fit in their budget, the budget error naming at
    /// least how much more they need.
    pub(crate) fn pages_short(&self, head: Slice, error: GenError) -> GenError {
        match error {
            GenError::Probe(ProbeError::PageBudget { short_mib, .. }) => {
                let budget_mib = mib(self.bytes.unwrap_or(0));
                GenError::DependencyPages {
                    slice: head.name(),
                    budget_mib,
                    origin: self.source,
                    short_mib,
                    at_least_mib: budget_mib + short_mib,
                }
            }
            other => other,
        }
    }

    /// Where the DTW build of the group of `head` keeps its values, now that
    /// its dependencies (and whatever else it holds beside) take `deps_bytes`:
    /// in memory, two sub-slices in memory, or one sub-slice read back a byte
    /// per position ([`Group::streamed`]), with a unit per thread or one unit
    /// at a time, whichever fits first.
    pub(crate) fn residence(
        &self,
        head: Slice,
        threads: usize,
        deps_bytes: u64,
    ) -> Result<Residence, GenError> {
        let Some(limit) = self.bytes else {
            return Ok(Residence::Memory);
        };
        let need = (self.need)(head, threads)?;
        let with = |bytes: u64| bytes - need.dependencies + deps_bytes;
        if with(need.resident) <= limit {
            Ok(Residence::Memory)
        } else if with(need.spilled) <= limit {
            Ok(Residence::Spilled)
        } else if with(need.streamed) <= limit {
            Ok(Residence::Streamed)
        } else if with(need.streamed - need.other_units) <= limit {
            Ok(Residence::StreamedOneUnit)
        } else {
            let least = with(need.streamed - need.other_units);
            Err(self.too_small(head, least, least))
        }
    }

    /// Whether the group of `head` must spill its sub-slices, now that its
    /// dependencies (and any other table its metric reads) are decoded into
    /// `deps_bytes` bytes.
    pub(crate) fn must_spill(
        &self,
        head: Slice,
        threads: usize,
        deps_bytes: u64,
    ) -> Result<bool, GenError> {
        let Some(limit) = self.bytes else {
            return Ok(false);
        };
        let need = (self.need)(head, threads)?;
        let resident = need.resident - need.dependencies + deps_bytes;
        let spilled = need.spilled - need.dependencies + deps_bytes;
        if resident <= limit {
            Ok(false)
        } else if spilled <= limit {
            Ok(true)
        } else {
            Err(self.too_small(head, spilled, spilled))
        }
    }
}

/// The positions of the solve group headed by `head`.
pub(crate) fn group_positions<V: Variant>(head: Slice) -> Result<u64, GenError> {
    let mut total = SliceIndexer::<V>::new(head)?.size();
    if !head.is_self_mirror() {
        total += SliceIndexer::<V>::new(head.mirror())?.size();
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_core::Russian;

    #[test]
    fn a_group_whose_dependencies_do_not_fit_reads_them_a_block_at_a_time() {
        let head: Slice = "2M2K-1M1K".parse().unwrap();
        let need = group_need::<Russian>(head, 2).unwrap();
        let budget = |bytes: u64| Budget {
            bytes: Some(bytes),
            source: "--memory",
            need: group_need::<Russian>,
        };
        let pages = |bytes: u64, beside: u64| budget(bytes).dependency_pages(head, 2, beside);
        // Decoded whole when they fit beside the streamed solve.
        assert!(need.streamed < need.spilled && need.spilled < need.resident);
        assert_eq!(pages(need.streamed, 0).unwrap(), None);
        assert_eq!(pages(need.streamed - need.other_units, 0).unwrap(), None);
        // Else what the budget leaves them, beside other groups too.
        let others = need.streamed - need.dependencies + page_slots(need.dependencies);
        let half = need.dependencies / 2;
        let per_thread = |bytes| {
            Some(Pages {
                bytes,
                one_unit: false,
            })
        };
        assert_eq!(pages(others + half, 0).unwrap(), per_thread(half));
        assert_eq!(pages(others + half + 1000, 1000).unwrap(), per_thread(half));
        // At the least, one unit at a time.
        assert_eq!(
            pages(need.least, 0).unwrap(),
            Some(Pages {
                bytes: PAGED_DEPENDENCIES_FLOOR,
                one_unit: true
            })
        );
        assert!(need.other_units > 0);
        // Below the least, the error names it.
        let error = pages(need.least - 1, 0).unwrap_err().to_string();
        assert!(
            error.contains(&format!("--memory {}M", mib(need.least))),
            "{error}"
        );
    }
}
