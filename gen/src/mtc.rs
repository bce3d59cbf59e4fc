//! Building the MTC tables (`damka gen --metric mtc`): per solve group, moves to
//! conversion with no move limits, by the generator's retrograde analysis
//! ([`Group`]) with the MTC metric ([`Zeroing::mtc`]; `formats/FORMAT.md`, "MTC
//! tables").
//!
//! A group's MTC values are read from its game-theoretic values and those of its
//! dependencies, so [`build_mtc`] builds whatever DTW tables are missing first.
//! Groups whose MTC tables are there already are skipped, so an interrupted build
//! resumes. The memory budget bounds this build as it does the DTW build: a group
//! whose values and decoded tables do not fit is solved with its sub-slices
//! spilled to disk, and a budget too small for some group even so is refused
//! before anything is built.

use std::time::Instant;

use damka_core::{dependencies, Slice, Variant};
use damka_formats::table::ValueKind;
use damka_probe::Tablebase;

use crate::budget::group_need_general;
use crate::build::{
    build, group_positions, selected_groups, Budget, BuildOptions, BuildReport, BuiltGroup, NeedOf,
};
use crate::error::GenError;
use crate::rules::group_slices;
use crate::solve::Group;
use crate::spill::Spill;
use crate::store::FileStore;
use crate::zeroing::Zeroing;

/// Builds the MTC tables of the slices `options` asks for (and the game-theoretic
/// tables they need), calling `on_group` as each group's MTC tables are written.
pub fn build_mtc<V: Variant>(
    options: &BuildOptions<'_>,
    on_group: &mut dyn FnMut(&BuiltGroup),
) -> Result<BuildReport, GenError> {
    build::<V>(options, &mut |_| {})?;
    let heads = selected_groups::<V>(options)?;
    let tablebase = Tablebase::<V>::new(&options.root);
    let store = FileStore::new(tablebase.dir(), V::KIND)?;
    let mut report = BuildReport::default();
    let mut todo = Vec::new();
    for head in heads {
        let slices = group_slices(head);
        if slices
            .iter()
            .all(|&s| store.contains_table(s, ValueKind::Mtc))
        {
            report.skipped += slices.len();
        } else {
            todo.push(head);
        }
    }
    // Beside what the game-theoretic solve needs, the metric holds the group's
    // own game-theoretic values, decoded at one byte per position.
    let threads = rayon::current_num_threads();
    let need = (&todo[..], group_need_general::<V> as NeedOf);
    let budget = Budget::new(options.memory, need, threads, &|head| {
        group_positions::<V>(head)
    })?;
    for head in todo {
        let started = Instant::now();
        let must_spill = |decoded| budget.must_spill(head, threads, decoded);
        let (positions, spilled) = build_mtc_group(&tablebase, &store, head, &must_spill)?;
        let mut built = BuiltGroup::in_memory(group_slices(head), positions, started);
        built.spilled = spilled;
        report.record(built, on_group);
    }
    Ok(report)
}

/// Solves the MTC tables of the group headed by `head` from the DTW tables of
/// `tablebase` and writes them to `store`. `must_spill`, given the bytes of the
/// decoded tables the solve reads, says whether to spill the group's sub-slices
/// to disk (into the table directory) to stay inside the memory budget; the
/// files are the same bytes either way. Returns the group's positions and
/// whether it spilled.
#[doc(hidden)]
pub fn build_mtc_group<V: Variant>(
    tablebase: &Tablebase<V>,
    store: &FileStore,
    head: Slice,
    must_spill: &dyn Fn(u64) -> Result<bool, GenError>,
) -> Result<(u64, bool), GenError> {
    let mut exits = Vec::new();
    for dep in dependencies(head) {
        exits.push((dep.material(), tablebase.slice_table(dep)?));
    }
    let mut own = Vec::new();
    for slice in group_slices(head) {
        own.push(tablebase.slice_table(slice)?);
    }
    let decoded = exits
        .iter()
        .map(|(_, t)| t.heap_bytes() as u64)
        .sum::<u64>()
        + own.iter().map(|t| t.heap_bytes() as u64).sum::<u64>();
    let spill = must_spill(decoded)?;
    let spill_at = Spill::for_group(tablebase.dir(), "mtc", head)?;
    let spill_dir = spill_at.create_if(spill)?;
    let mut group = Group::with_spill(head, Zeroing::mtc(exits, own)?, spill_dir)?;
    let positions = group.positions();
    group.solve(&|_| {})?;
    for slot in group.into_slots() {
        store.write_table_from(slot.slice(), ValueKind::Mtc, slot.values())?;
    }
    spill_at.release();
    Ok((positions, spill))
}
