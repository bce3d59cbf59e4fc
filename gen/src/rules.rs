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
//! gets only those, so an interrupted build resumes; a group stopped after its DTC
//! tables were written reads its solve back from them rather than solving again,
//! which saves about half of a large group's time. A group that does not fit
//! the memory budget in memory is solved with its sub-slices spilled to disk, and
//! each table is written as soon as it is made; a budget too small for some group
//! even so is refused before anything is built
//! ([`crate::budget::rule_group_need`]).

use std::path::Path;
use std::time::Instant;

use damka_core::{dependencies, to_fen, Slice, Variant};
use damka_formats::table::ValueKind;
use damka_formats::{Dtc, RuleWdl, Wdl};
use damka_probe::ProbeError;
use damka_probe::{limits::RuleSet, limits::RuleTablebase, limits::Verdict};
use rayon::prelude::*;

use crate::budget::{mib, reads_dependency_dtc, rule_group_need, LAYER_CACHE_BYTES};
use crate::build::{
    build, ceiling, group_positions, selected_groups, BuildOptions, BuildReport, BuiltGroup,
};
use crate::counted;
use crate::dtc::Dependency;
use crate::error::GenError;
use crate::layers;
use crate::solve::{Group, Slot};
use crate::spill::Spill;
use crate::store::{FileStore, ValueSource};
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
    let (rules, store) = open::<V>(options)?;
    let fingerprint = set.fingerprint();
    let (mut todo, skipped) = pending(&rules, &store, options)?;
    let mut report = BuildReport {
        skipped,
        ..BuildReport::default()
    };
    check_budget(&rules, tables.memory, &mut todo)?;
    build::<V>(tables, &mut |_| {})?;
    for Pending {
        head,
        zeroing,
        own_done,
        solved,
        spill,
        layer_cache,
    } in todo
    {
        let started = Instant::now();
        // A reader of its own per group: the tables it decodes whole (the
        // dependencies', the group's own DTC for the search) are kept for as long
        // as it lives, so one reader for the whole build would hold every table
        // built so far.
        let rules = RuleTablebase::<V>::new(&tables.root, set.clone());
        let continues = reads_dependency_dtc(&rules, head)?;
        let mut deps = Vec::new();
        for dep in dependencies(head) {
            let dtc = continues
                .then(|| rules.table(dep, ValueKind::Dtc))
                .transpose()?;
            deps.push((dep.material(), dtc, rules.table(dep, ValueKind::RuleWdl)?));
        }
        let exits: Vec<_> = deps.iter().map(|(m, _, rwdl)| (*m, rwdl.clone())).collect();
        // Sub-slices spill to temporary files in `spill-rules-<set>` beside the tables.
        let spill_at = Spill::for_group(
            rules.tablebase().dir(),
            &format!("rules-{}", set.name),
            head,
        )?;
        let spill_dir = spill_at.create_if(spill)?;
        if !own_done {
            phase_tables(&rules, &store, head, deps, solved, (spill_dir, layer_cache))?;
        }
        if zeroing {
            // The group's own RWDL tables, which quiet man moves reach, decoded
            // (one byte per position): written above or by an earlier build.
            let own = group_slices(head)
                .into_iter()
                .map(|slice| Ok((slice, rules.table(slice, ValueKind::RuleWdl)?)))
                .collect::<Result<_, GenError>>()?;
            let mut group = Group::with_spill(head, Zeroing::dtz(exits, own)?, spill_dir)?;
            group.solve(&|_| {})?;
            for slot in group.into_slots() {
                let at = (&set.name[..], fingerprint);
                store.write_rule_table_from(slot.slice(), at, ValueKind::Dtz, slot.values())?;
            }
        }
        spill_at.release();
        let positions = group_positions::<V>(head)?;
        let mut built = BuiltGroup::in_memory(group_slices(head), positions, started);
        built.spilled = spill;
        built.resumed = solved && !own_done;
        report.record(built, on_group);
    }
    Ok(report)
}

/// Fails, naming the smallest budget that works, when the rule tables `options`
/// asks for cannot be built inside its memory ceiling: the check [`build_rules`]
/// makes first, for a caller that builds the game-theoretic tables on its own
/// before them (`damka gen --rules`), so that a budget too small for the rule
/// tables is refused before hours of game-theoretic ones, not after.
pub fn check_rule_budget<V: Variant>(options: &RuleBuildOptions<'_>) -> Result<(), GenError> {
    let (rules, store) = open::<V>(options)?;
    let (mut todo, _) = pending(&rules, &store, options)?;
    check_budget(&rules, options.tables.memory, &mut todo)
}

/// The rule tablebase and the file store of `options`, its rule set checked.
fn open<V: Variant>(
    options: &RuleBuildOptions<'_>,
) -> Result<(RuleTablebase<V>, FileStore), GenError> {
    options
        .set
        .validate()
        .map_err(|e| ProbeError::InvalidRuleSet(e.to_string()))?;
    let rules = RuleTablebase::<V>::new(&options.tables.root, options.set.clone());
    let store = FileStore::new(rules.tablebase().dir(), V::KIND)?;
    Ok((rules, store))
}

/// The groups of `options` whose rule tables are (partly) missing, in build
/// order, and how many slices have all of theirs.
fn pending<V: Variant>(
    rules: &RuleTablebase<V>,
    store: &FileStore,
    options: &RuleBuildOptions<'_>,
) -> Result<(Vec<Pending>, usize), GenError> {
    let set = &options.set;
    let heads = selected_groups::<V>(&options.tables)?;
    let (mut todo, mut skipped) = (Vec::new(), 0);
    for head in heads {
        let zeroing = rules.phase(head.material())?.zeroing(set);
        let counted = rules.counted_plan(head.material())?.is_some();
        let done = |s: Slice, kind| store.contains_rule_table(s, &set.name, kind);
        let own =
            |s: Slice| done(s, ValueKind::RuleWdl) && (!counted || done(s, ValueKind::CountedDtc));
        let complete = |s: Slice| own(s) && (!zeroing || done(s, ValueKind::Dtz));
        let dtc = |s: Slice| done(s, ValueKind::Dtc);
        if complete(head) && complete(head.mirror()) {
            skipped += if head.is_self_mirror() { 1 } else { 2 };
        } else {
            todo.push(Pending {
                head,
                zeroing,
                own_done: own(head) && own(head.mirror()),
                solved: dtc(head) && dtc(head.mirror()),
                spill: false,
                layer_cache: LAYER_CACHE_BYTES,
            });
        }
    }
    Ok((todo, skipped))
}

/// A group whose rule tables are (partly) missing.
struct Pending {
    /// The group's head.
    head: Slice,
    /// Whether its material has DTZ tables.
    zeroing: bool,
    /// Whether its DTC, RWDL and counted tables are there (only DTZ is missing).
    own_done: bool,
    /// Whether its DTC tables are there: an earlier build solved the group and
    /// was stopped after writing them, so the solve is read back from them.
    solved: bool,
    /// Whether its DTC and DTZ solves spill their sub-slices to disk, to stay
    /// inside the memory budget ([`check_budget`]).
    spill: bool,
    /// Bytes per unit and thread that the layered pass may keep moves in
    /// (`crate::layers`): [`LAYER_CACHE_BYTES`], and half of what the budget
    /// leaves beside the group's estimate ([`check_budget`]).
    layer_cache: usize,
}

/// Fails at once, naming the smallest budget that works, if the rule tables of
/// some group of `todo` cannot be built inside the memory ceiling `memory` (or
/// the default) even with its solves spilled; marks the groups that fit only
/// spilled.
fn check_budget<V: Variant>(
    rules: &RuleTablebase<V>,
    memory: Option<u64>,
    todo: &mut [Pending],
) -> Result<(), GenError> {
    let (Some(limit), origin) = ceiling(memory) else {
        return Ok(());
    };
    let threads = rayon::current_num_threads();
    let mut worst: Option<(Slice, u64)> = None;
    for pending in todo.iter_mut() {
        let need = rule_group_need(rules, pending.head, threads)?;
        pending.spill = need.resident > limit && need.spilled < need.resident;
        // Half of what the budget leaves beside the estimate (which counts
        // `LAYER_CACHE_BYTES` per thread already) goes to the layered pass's move
        // cache: its units in the 6-piece groups outgrow the fixed share, and
        // moves not kept are generated again in every layer.
        let chosen = if pending.spill {
            need.spilled
        } else {
            need.resident
        };
        let room = limit.saturating_sub(chosen) / 2 / threads as u64;
        pending.layer_cache = LAYER_CACHE_BYTES.saturating_add(usize::try_from(room).unwrap_or(0));
        if worst.is_none_or(|(_, w)| need.spilled > w) {
            worst = Some((pending.head, need.spilled));
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

/// Builds and writes the DTC and RWDL tables (and the counted DTC tables, where
/// the material has them) of the group of `head`, whose dependencies' rule tables
/// are `deps`, with its sub-slices spilled to `spill_dir` if given. Each table
/// is written as soon as it is made and then dropped: the group's DTC values are
/// written from the solve (or, when `solved`, are there already and read back
/// instead of solved), the counted blocks once the layered pass ends, and the
/// RWDL tables one slice at a time.
fn phase_tables<V: Variant>(
    rules: &RuleTablebase<V>,
    store: &FileStore,
    head: Slice,
    deps: Vec<Dependency<V>>,
    solved: bool,
    (spill_dir, layer_cache): (Option<&Path>, usize),
) -> Result<(), GenError> {
    let set = rules.set();
    let at = (&set.name[..], set.fingerprint());
    let metric = Conversion::new(set.clone(), deps);
    let mut group = Group::with_spill(head, metric, spill_dir)?;
    if solved {
        group.load(&|slice, range, out| {
            Ok(rules.entries(slice, ValueKind::Dtc, range.start as u64, out)?)
        })?;
    } else {
        group.solve(&|_| {})?;
        // Written before anything else, so that a build stopped after this point
        // resumes from them.
        for slot in &group.slots {
            store.write_rule_table_from(slot.slice(), at, ValueKind::Dtc, slot.values())?;
        }
    }
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
        .map(|(resettable, _)| layers::phase_values(&group, resettable, spill_dir, layer_cache))
        .transpose()?;
    let slices: Vec<Slice> = group.slots.iter().map(|slot| slot.slice()).collect();
    if let Some(plan) = plan.filter(|p| p.cond().is_some()) {
        drop(group);
        for (slice, cdtc, rwdl) in counted::counted_tables(rules, head, plan)? {
            store.write_rule_table(slice, at, ValueKind::CountedDtc, &cdtc)?;
            store.write_rule_table(slice, at, ValueKind::RuleWdl, &rwdl)?;
        }
        return Ok(());
    }
    if let (Some(counted), Some((_, unbreakable))) = (counted, layered) {
        drop(group);
        let fresh = counted.write(store, &slices, at)?;
        for (&slice, fresh) in slices.iter().zip(fresh) {
            let theory = rules.tablebase().slice_table(slice)?;
            let kind = ValueKind::RuleWdl;
            store.write_rule_table_by(slice, at, kind, fresh.len(), &|range| {
                let (raw, _) = fresh.read(range.clone())?;
                Ok(range
                    .zip(raw)
                    .map(|(i, raw)| {
                        let wdl = theory.get(i as u64).wdl();
                        layers::fresh_rule_value(wdl, Dtc::from_raw(raw), unbreakable).code()
                    })
                    .collect())
            })?;
        }
        return Ok(());
    }
    for slot in &group.slots {
        write_rule_values(rules, store, slot, at)?;
    }
    Ok(())
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

/// Positions searched together, sharing one memo.
const SEARCH_BATCH: usize = 4096;
/// Search states allowed for one position before the build stops with an error.
const SEARCH_NODES: u64 = 50_000_000;
/// Positions whose DTC values are read and decided together.
const DECIDE_RANGE: usize = 1 << 20;

/// Writes the RWDL table of the slice of `slot`, whose DTC values the slot holds
/// and whose DTC tables (and the mirror's) are written, under the rule set `at`
/// (name and fingerprint): each position's value under the rules from the phase
/// analysis where it decides, else by the search of the probe, beside its
/// game-theoretic value.
///
/// The DTC values are read range by range from the solve, twice: once to find the
/// positions the phase analysis leaves open, once as the codes are written. What
/// is held besides is the slice's game-theoretic values and the open positions'
/// values. The search reads the DTC tables through the probe's block cache: with
/// fresh counters it has few positions or none.
fn write_rule_values<V: Variant>(
    rules: &RuleTablebase<V>,
    store: &FileStore,
    slot: &Slot<V>,
    at: (&str, u64),
) -> Result<(), GenError> {
    let slice = slot.slice();
    let values = slot.values();
    let theory = rules.tablebase().slice_table(slice)?;
    let set = rules.set();
    let phase = rules.phase(slice.material())?;
    let decide = |raw: u16| match phase.decide(Dtc::from_raw(raw), &[], u32::MAX) {
        Verdict::Decided(ruled, _, _) => Some(ruled),
        Verdict::Search => None,
    };
    let len = values.len();
    let open: Vec<u64> = (0..len.div_ceil(DECIDE_RANGE))
        .into_par_iter()
        .map(|r| {
            let start = r * DECIDE_RANGE;
            let (raw, _) = values.read(start..len.min(start + DECIDE_RANGE))?;
            Ok((start..)
                .zip(raw)
                .filter(|&(_, raw)| decide(raw).is_none())
                .map(|(i, _)| i as u64)
                .collect::<Vec<_>>())
        })
        .collect::<Result<Vec<_>, GenError>>()?
        .concat();
    let indexer = theory.indexer();
    // In index order, as `open` is.
    let searched: Vec<(u64, Wdl)> = open
        .par_chunks(SEARCH_BATCH)
        .map(|chunk| {
            let positions: Vec<_> = chunk.iter().map(|&i| indexer.position(i)).collect();
            let values = rules.fresh_values(&positions, SEARCH_NODES)?;
            chunk
                .iter()
                .zip(values)
                .map(|(&index, value)| match value {
                    Some(wdl) => Ok((index, wdl)),
                    None => Err(GenError::RuleUnknown {
                        position: to_fen(&indexer.position(index)),
                        rules: set.name.clone(),
                        reason: format!("the search needed more than {SEARCH_NODES} states"),
                    }),
                })
                .collect::<Result<Vec<_>, GenError>>()
        })
        .collect::<Result<Vec<_>, GenError>>()?
        .concat();
    let searched_at = |index: u64| match searched.binary_search_by_key(&index, |&(i, _)| i) {
        Ok(at) => searched[at].1,
        Err(_) => unreachable!("position {index} was left open but not searched"),
    };
    store.write_rule_table_by(slice, at, ValueKind::RuleWdl, len, &|range| {
        let (raw, _) = values.read(range.clone())?;
        Ok(range
            .zip(raw)
            .map(|(i, raw)| {
                let ruled = decide(raw).unwrap_or_else(|| searched_at(i as u64));
                RuleWdl::of(theory.get(i as u64).wdl(), ruled).code()
            })
            .collect())
    })
}
