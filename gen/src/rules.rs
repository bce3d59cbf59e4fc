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
//! gets only those, so an interrupted build resumes. The build keeps each group
//! in memory; a memory budget too small for some group is refused before
//! anything is built ([`crate::budget::rule_group_need`]).

use std::time::Instant;

use damka_core::{build_order, dependencies, to_fen, Slice, Variant};
use damka_formats::table::ValueKind;
use damka_formats::{Dtc, RuleWdl, Wdl};
use damka_probe::ProbeError;
use damka_probe::{limits::RuleSet, limits::RuleTablebase, limits::Verdict};
use rayon::prelude::*;

use crate::budget::{mib, rule_group_need};
use crate::build::{build, ceiling, groups, BuildOptions, BuildReport, BuiltGroup};
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
    let order = build_order::<V>(tables.max_pieces);
    let heads = match tables.only {
        Some(slice) => vec![slice],
        None => groups(&order),
    };
    let rules = RuleTablebase::<V>::new(&tables.root, set.clone());
    let store = FileStore::new(rules.tablebase().dir(), V::KIND)?;
    let fingerprint = set.fingerprint();
    let mut report = BuildReport::default();
    let mut todo = Vec::new();
    for head in heads {
        let zeroing = rules.phase(head.material())?.zeroing(set);
        let counted = rules.counted_plan(head.material())?.is_some();
        let done = |s: Slice, kind| store.contains_rule_table(s, &set.name, kind);
        let own =
            |s: Slice| done(s, ValueKind::RuleWdl) && (!counted || done(s, ValueKind::CountedDtc));
        let complete = |s: Slice| own(s) && (!zeroing || done(s, ValueKind::Dtz));
        if complete(head) && complete(head.mirror()) {
            report.skipped += if head.is_self_mirror() { 1 } else { 2 };
        } else {
            todo.push(Pending {
                head,
                zeroing,
                own_done: own(head) && own(head.mirror()),
            });
        }
    }
    check_budget(&rules, tables.memory, &todo)?;
    build::<V>(tables, &mut |_| {})?;
    for Pending {
        head,
        zeroing,
        own_done,
    } in todo
    {
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
        let (positions, slices, fresh) = if own_done {
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

/// A group whose rule tables are (partly) missing.
struct Pending {
    /// The group's head.
    head: Slice,
    /// Whether its material has DTZ tables.
    zeroing: bool,
    /// Whether its DTC, RWDL and counted tables are there (only DTZ is missing).
    own_done: bool,
}

/// Fails at once, naming the smallest budget that works, if the rule tables of
/// some group of `todo` (heads) cannot be built inside the memory ceiling
/// `memory` (or the default): the rule build does not spill.
fn check_budget<V: Variant>(
    rules: &RuleTablebase<V>,
    memory: Option<u64>,
    todo: &[Pending],
) -> Result<(), GenError> {
    let (Some(limit), origin) = ceiling(memory) else {
        return Ok(());
    };
    let threads = rayon::current_num_threads();
    let mut worst: Option<(Slice, u64)> = None;
    for &Pending { head, .. } in todo {
        let need = rule_group_need(rules, head, threads)?;
        if worst.is_none_or(|(_, w)| need > w) {
            worst = Some((head, need));
        }
    }
    match worst {
        Some((head, need)) if need > limit => Err(GenError::RuleMemoryBudget {
            slice: head.name(),
            needed_mib: mib(need),
            budget_mib: mib(limit),
            origin,
            smallest_mib: mib(need),
        }),
        _ => Ok(()),
    }
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
    let counted = layered
        .map(|(resettable, _)| layers::phase_values(&group, resettable))
        .transpose()?;
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
            (Some(counted), Some((_, unbreakable))) => {
                let (entries, blocks) = counted.table(s);
                let kind = ValueKind::CountedDtc;
                store.write_rule_blocks(*slice, (&set.name, fingerprint), kind, entries, blocks)?;
                layered_rule_values(rules, *slice, counted.fresh(s), unbreakable)?
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

/// The RWDL code of every position of `slice` from `D(p, 0)` of its layered
/// values (`crate::layers`), `fresh`, when the phase may last `unbreakable`
/// plies.
fn layered_rule_values<V: Variant>(
    rules: &RuleTablebase<V>,
    slice: Slice,
    fresh: &[u16],
    unbreakable: u32,
) -> Result<Vec<u16>, GenError> {
    let theory = rules.tablebase().slice_table(slice)?;
    Ok(fresh
        .par_iter()
        .enumerate()
        .map(|(i, &raw)| {
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
