//! Building the MTC tables (`damka gen --metric mtc`): per solve group, moves to
//! conversion with no move limits, by the generator's retrograde analysis
//! ([`Group`]) with the MTC metric ([`Zeroing::mtc`]; `formats/FORMAT.md`, "MTC
//! tables").
//!
//! A group's MTC values are read from its game-theoretic values and those of its
//! dependencies, so [`build_mtc`] builds whatever DTW tables are missing first.
//! Groups whose MTC tables are there already are skipped, so an interrupted build
//! resumes.

use std::time::Instant;

use damka_core::{build_order, dependencies, Variant};
use damka_formats::table::ValueKind;
use damka_probe::Tablebase;

use crate::build::{build, groups, BuildOptions, BuildReport, BuiltGroup};
use crate::error::GenError;
use crate::rules::group_slices;
use crate::solve::Group;
use crate::store::FileStore;
use crate::zeroing::Zeroing;

/// Builds the MTC tables of the slices `options` asks for (and the game-theoretic
/// tables they need), calling `on_group` as each group's MTC tables are written.
/// Every group is solved in memory: `options.memory` bounds only the DTW build.
pub fn build_mtc<V: Variant>(
    options: &BuildOptions<'_>,
    on_group: &mut dyn FnMut(&BuiltGroup),
) -> Result<BuildReport, GenError> {
    build::<V>(options, &mut |_| {})?;
    let heads = match options.only {
        Some(slice) => vec![slice],
        None => groups(&build_order::<V>(options.max_pieces)),
    };
    let tablebase = Tablebase::<V>::new(&options.root);
    let store = FileStore::new(tablebase.dir(), V::KIND)?;
    let mut report = BuildReport::default();
    for head in heads {
        let slices = group_slices(head);
        if slices
            .iter()
            .all(|&s| store.contains_table(s, ValueKind::Mtc))
        {
            report.skipped += slices.len();
            continue;
        }
        let started = Instant::now();
        let mut exits = Vec::new();
        for dep in dependencies(head) {
            exits.push((dep.material(), tablebase.slice_table(dep)?));
        }
        let mut own = Vec::new();
        for &slice in &slices {
            own.push((slice, tablebase.slice_table(slice)?.raw_values().collect()));
        }
        let mut group = Group::new(head, Zeroing::mtc(exits, own)?)?;
        let positions = group.positions();
        group.solve(&|_| {})?;
        for slot in group.into_slots() {
            let slice = slot.slice();
            let (values, _) = slot.into_values()?;
            store.write_table(slice, ValueKind::Mtc, &values)?;
        }
        report.record(BuiltGroup::in_memory(slices, positions, started), on_group);
    }
    Ok(report)
}
