//! Building the rule tables of one rule set: per solve group, the DTC tables by
//! retrograde analysis (the generator's [`Group`] with the [`Conversion`] metric),
//! then the RWDL tables, the value of every position under the rules with fresh
//! counters (in the materials of a counter with a position condition, from the
//! counted DTC tables built with them, `crate::counted`), then, where a counter
//! that man moves restart can bind, the DTZ tables (`crate::zeroing`;
//! `formats/FORMAT.md`, "DTC, RWDL and DTZ tables").
//!
//! The game-theoretic tables of the same slices must be built first:
//! [`build_rules`] builds whatever of them is missing. Groups whose rule tables
//! are there already are skipped, and a group with RWDL tables but no DTZ tables
//! gets only those, so an interrupted build resumes.

use std::time::Instant;

use damka_core::{build_order, dependencies, to_fen, Slice, Variant};
use damka_formats::table::ValueKind;
use damka_formats::{Dtc, RuleWdl, Wdl};
use damka_probe::ProbeError;
use damka_probe::{limits::RuleSet, limits::RuleTablebase, limits::Verdict};
use rayon::prelude::*;

use crate::build::{build, groups, BuildOptions, BuildReport, BuiltGroup};
use crate::counted;
use crate::dtc::Dependency;
use crate::error::GenError;
use crate::layers;
use crate::solve::Group;
use crate::store::FileStore;
use crate::zeroing::Zeroing;

pub use crate::dtc::Conversion;

/// What to build.
#[derive(Debug, Clone)]
pub struct RuleBuildOptions<'a> {
    /// The game-theoretic build: root directory, pieces, slice, memory, and where
    /// the progress of that build is reported (the rule tables' groups report
    /// none).
    pub tables: BuildOptions<'a>,
    /// The rule set.
    pub set: RuleSet,
}

/// Builds the rule tables `options` asks for (and the game-theoretic tables they
/// need), calling `on_group` as each group's rule tables are written.
pub fn build_rules<V: Variant>(
    options: &RuleBuildOptions<'_>,
    on_group: &mut dyn FnMut(&BuiltGroup),
) -> Result<BuildReport, GenError> {
    let tables = &options.tables;
    let set = &options.set;
    set.validate()
        .map_err(|e| ProbeError::InvalidRuleSet(e.to_string()))?;
    build::<V>(tables, &mut |_| {})?;
    let order = build_order::<V>(tables.max_pieces);
    let heads = match tables.only {
        Some(slice) => vec![slice],
        None => groups(&order),
    };
    let rules = RuleTablebase::<V>::new(&tables.root, set.clone());
    let store = FileStore::new(rules.tablebase().dir(), V::KIND)?;
    let fingerprint = set.fingerprint();
    let mut report = BuildReport::default();
    for head in heads {
        let zeroing = rules.phase(head.material())?.zeroing(set);
        let counted = rules.counted_plan(head.material())?.is_some();
        let done = |s: Slice, kind| store.contains_rule_table(s, &set.name, kind);
        let own =
            |s: Slice| done(s, ValueKind::RuleWdl) && (!counted || done(s, ValueKind::CountedDtc));
        let complete = |s: Slice| own(s) && (!zeroing || done(s, ValueKind::Dtz));
        if complete(head) && complete(head.mirror()) {
            report.skipped += if head.is_self_mirror() { 1 } else { 2 };
            continue;
        }
        let started = Instant::now();
        let mut deps = Vec::new();
        for dep in dependencies(head) {
            deps.push((
                dep.material(),
                rules.table(dep, ValueKind::Dtc)?,
                rules.table(dep, ValueKind::RuleWdl)?,
            ));
        }
        let exits: Vec<_> = deps.iter().map(|(m, _, rwdl)| (*m, rwdl.clone())).collect();
        let (positions, slices, fresh) = if own(head) && own(head.mirror()) {
            let mut own = Vec::new();
            for slice in group_slices(head) {
                let table = rules.table(slice, ValueKind::RuleWdl)?;
                own.push((slice, table.raw_values().collect::<Vec<_>>()));
            }
            let positions = own.iter().map(|(_, codes)| codes.len() as u64).sum();
            (positions, group_slices(head), own)
        } else {
            phase_tables(&rules, &store, head, deps)?
        };
        if zeroing {
            let mut group = Group::new(head, Zeroing::dtz(exits, fresh)?)?;
            group.solve(&|_| {})?;
            for slot in group.into_slots() {
                let slice = slot.slice();
                let (values, _) = slot.into_values()?;
                store.write_rule_table(slice, &set.name, fingerprint, ValueKind::Dtz, &values)?;
            }
        }
        report.record(BuiltGroup::in_memory(slices, positions, started), on_group);
    }
    Ok(report)
}

/// The slices of the solve group of `head`: itself and its mirror.
pub(crate) fn group_slices(head: Slice) -> Vec<Slice> {
    if head.is_self_mirror() {
        vec![head]
    } else {
        vec![head, head.mirror()]
    }
}

/// The RWDL codes of the group's slices, by slice.
type GroupCodes = Vec<(Slice, Vec<u16>)>;

/// Builds and writes the DTC and RWDL tables of the group of `head`, whose
/// dependencies' rule tables are `deps`; returns the group's positions, slices and
/// RWDL codes.
fn phase_tables<V: Variant>(
    rules: &RuleTablebase<V>,
    store: &FileStore,
    head: Slice,
    deps: Vec<Dependency<V>>,
) -> Result<(u64, Vec<Slice>, GroupCodes), GenError> {
    let set = rules.set();
    let fingerprint = set.fingerprint();
    let metric = Conversion::new(set.clone(), deps);
    let mut group = Group::new(head, metric)?;
    let positions = group.positions();
    group.solve(&|_| {})?;
    let layered = layered_limits(rules, head)?;
    let plan = rules.counted_plan(head.material())?;
    if layered.is_none() && plan.is_some_and(|p| p.cond().is_none()) {
        return Err(GenError::RuleUnknown {
            position: head.to_string(),
            rules: set.name.clone(),
            reason: "the counters in force differ between the slice and its mirror".into(),
        });
    }
    let counted = layered.map(|(resettable, _)| layers::phase_values(&group, resettable));
    let mut solved = Vec::new();
    for slot in group.into_slots() {
        let slice = slot.slice();
        let (values, _) = slot.into_values()?;
        store.write_rule_table(slice, &set.name, fingerprint, ValueKind::Dtc, &values)?;
        solved.push((slice, values));
    }
    if let Some(plan) = plan.filter(|p| p.cond().is_some()) {
        let mut codes = Vec::new();
        for (slice, cdtc, rwdl) in counted::counted_tables(rules, head, plan)? {
            let kind = ValueKind::CountedDtc;
            store.write_rule_table(slice, &set.name, fingerprint, kind, &cdtc)?;
            store.write_rule_table(slice, &set.name, fingerprint, ValueKind::RuleWdl, &rwdl)?;
            codes.push((slice, rwdl));
        }
        let slices = codes.iter().map(|(slice, _)| *slice).collect();
        return Ok((positions, slices, codes));
    }
    let mut codes = Vec::new();
    for (s, (slice, dtc)) in solved.iter().enumerate() {
        let values = match (&counted, layered) {
            (Some(counted), Some((resettable, unbreakable))) => {
                let kind = ValueKind::CountedDtc;
                store.write_rule_table(*slice, &set.name, fingerprint, kind, &counted[s])?;
                let layers = resettable as usize;
                layered_rule_values(rules, *slice, &counted[s], layers, unbreakable)?
            }
            _ => rule_values(rules, *slice, dtc)?,
        };
        store.write_rule_table(*slice, &set.name, fingerprint, ValueKind::RuleWdl, &values)?;
        codes.push((*slice, values));
    }
    let slices = codes.iter().map(|(slice, _)| *slice).collect();
    Ok((positions, slices, codes))
}

/// The limits of the layered pass (`crate::layers`) when it decides the group of
/// `head`: both slices of the group must agree (they are each other's mirror).
fn layered_limits<V: Variant>(
    rules: &RuleTablebase<V>,
    head: Slice,
) -> Result<Option<(u32, u32)>, GenError> {
    let limits = rules.phase(head.material())?.layered(rules.set());
    let mirror = rules.phase(head.mirror().material())?.layered(rules.set());
    Ok(if limits == mirror { limits } else { None })
}

/// The RWDL code of every position of `slice` from its layered values `values`
/// (`D(p, c)` of `crate::layers`, `layers` per position, `D(p, 0)` first) when
/// the phase may last `unbreakable` plies.
fn layered_rule_values<V: Variant>(
    rules: &RuleTablebase<V>,
    slice: Slice,
    values: &[u16],
    layers: usize,
    unbreakable: u32,
) -> Result<Vec<u16>, GenError> {
    let theory = rules.tablebase().slice_table(slice)?;
    Ok(values
        .par_chunks(layers)
        .enumerate()
        .map(|(i, states)| {
            let raw = states[0];
            let wdl = theory.get(i as u64).wdl();
            layers::fresh_rule_value(wdl, Dtc::from_raw(raw), unbreakable).code()
        })
        .collect())
}

/// Positions searched together, sharing one memo.
const SEARCH_BATCH: usize = 4096;
/// Search states allowed for one position before the build stops with an error.
const SEARCH_NODES: u64 = 50_000_000;

/// The RWDL code of every position of `slice`, whose DTC values are `dtc`: from
/// the phase analysis where it decides, else by the search of the probe (which
/// reads the slice's DTC table, written already).
fn rule_values<V: Variant>(
    rules: &RuleTablebase<V>,
    slice: Slice,
    dtc: &[u16],
) -> Result<Vec<u16>, GenError> {
    let theory = rules.tablebase().slice_table(slice)?;
    let set = rules.set();
    let phase = rules.phase(slice.material())?;
    // The search reads the DTC tables of the slice and its mirror at every step:
    // decoded whole, once.
    rules.table(slice, ValueKind::Dtc)?;
    rules.table(slice.mirror(), ValueKind::Dtc)?;
    let indexer = theory.indexer();
    let decided: Vec<Option<Wdl>> = dtc
        .par_iter()
        .map(
            |&raw| match phase.decide(Dtc::from_raw(raw), &[], u32::MAX) {
                Verdict::Decided(ruled, _, _) => Some(ruled),
                Verdict::Search => None,
            },
        )
        .collect();
    let open: Vec<u64> = (0..dtc.len() as u64)
        .filter(|&i| decided[i as usize].is_none())
        .collect();
    let searched: Vec<(u64, Option<Wdl>)> = open
        .par_chunks(SEARCH_BATCH)
        .map(|chunk| {
            let positions: Vec<_> = chunk.iter().map(|&i| indexer.position(i)).collect();
            let values = rules.fresh_values(&positions, SEARCH_NODES)?;
            Ok(chunk.iter().copied().zip(values).collect::<Vec<_>>())
        })
        .collect::<Result<Vec<_>, GenError>>()?
        .into_iter()
        .flatten()
        .collect();
    let mut ruled = decided;
    for (index, value) in searched {
        match value {
            Some(wdl) => ruled[index as usize] = Some(wdl),
            None => {
                return Err(GenError::RuleUnknown {
                    position: to_fen(&indexer.position(index)),
                    rules: set.name.clone(),
                    reason: format!("the search needed more than {SEARCH_NODES} states"),
                })
            }
        }
    }
    Ok(ruled
        .iter()
        .enumerate()
        .map(|(i, r)| RuleWdl::of(theory.get(i as u64).wdl(), r.unwrap_or(Wdl::Draw)).code())
        .collect())
}
