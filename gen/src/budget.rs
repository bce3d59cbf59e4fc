//! The memory budget of a build: how a size is written (`--memory 4G`), the
//! default (the memory the system has available, less a margin), and what each
//! solve group needs, in memory or with its sub-slices spilled to disk
//! ([`crate::values`]).
//!
//! A group's need is counted from the indexer's sizes before anything is
//! allocated:
//!
//! - values: 2 bytes and a capture bit per position of the group, or only of the
//!   largest pair of adjacent sub-slices (both slices) when it spills;
//! - the working cells of one unit per thread ([`UNIT_BYTES`] per position);
//! - the dependencies, decoded at one byte per position (two if a table needs
//!   them, which the build checks once they are decoded);
//! - a fixed allowance for the program, the threads and the table writer.
//!
//! The rule tables' build spills its DTC and DTZ solves the same way; its need
//! ([`rule_group_need`]) counts the tables it reads and the values it holds
//! besides.

use damka_core::{dependencies, Slice, SliceIndexer, Variant};
use damka_formats::table::DTW_BLOCK_ENTRIES;
use damka_probe::limits::RuleTablebase;
use damka_probe::{DEFAULT_CACHE_BYTES, PAGE_SLOT_BYTES};

use crate::error::GenError;

/// Bytes per position of a unit while it is solved: its cell (8 bytes) and the
/// queue entries that point at it (measured below 8 on average).
pub const UNIT_BYTES: u64 = 16;
/// The program, thread stacks, the table writer's batches and allocator slack.
pub const FIXED_BYTES: u64 = 48 << 20;
/// The default budget keeps this share of the available memory free.
const MARGIN_SHARE: u64 = 8;
/// ... and at least this much.
const MARGIN_MIN: u64 = 256 << 20;

/// Parses a size such as `600M`, `4G`, `1.5G`, `512KiB` or `1048576` (bytes).
/// Multiples are binary: `1K` is 1024 bytes.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => {
            return Err(format!(
                "`{text}` is not a size: use a number with K, M, G or T"
            ))
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size: use a number with K, M, G or T"))?;
    let bytes = value * (1u64 << shift) as f64;
    if !(bytes >= 1.0 && bytes < u64::MAX as f64) {
        return Err(format!("`{text}` is not a usable memory size"));
    }
    Ok(bytes as u64)
}

/// The default budget: `MemAvailable` (Linux) less a margin, or `None` where
/// the system does not say.
pub fn default_budget() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    let available = kib * 1024;
    Some(
        available
            - (available / MARGIN_SHARE)
                .max(MARGIN_MIN)
                .min(available / 2),
    )
}

/// What solving one group needs, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupNeed {
    /// With every value in memory.
    pub resident: u64,
    /// With only two sub-slices in memory.
    pub spilled: u64,
    /// With each block written to disk as its unit finishes and only the
    /// sub-slice being read in memory, a byte per position ([`crate::streamed`];
    /// DTW builds of groups with men, else the same as `spilled`).
    pub streamed: u64,
    /// The least it may be tried in: streamed, with the dependencies decoded a
    /// block at a time in at least [`PAGED_DEPENDENCIES_FLOOR`] bytes and one
    /// unit solved at a time (DTW builds), or else the same as `spilled`.
    pub least: u64,
    /// What solving one unit at a time instead of one per thread saves: the
    /// working cells of the other units.
    pub other_units: u64,
    /// Of either, the dependencies' part (at one byte per position).
    pub dependencies: u64,
    /// Positions of the group's largest unit (a men placement and its flip),
    /// solved in memory in any case.
    pub unit_positions: u64,
}

/// Bytes of the values and capture bits of `positions` positions.
fn values_bytes(positions: u64) -> u64 {
    2 * positions + positions.div_ceil(8)
}

/// What solving the DTW tables of the group headed by `head` needs with
/// `threads` threads. A kings-only group is solved in two bytes per position
/// ([`crate::kings`]), which are also its values.
pub fn group_need<V: Variant>(head: Slice, threads: usize) -> Result<GroupNeed, GenError> {
    let need = group_need_general::<V>(head, threads)?;
    if head.men() != 0 {
        let indexer = SliceIndexer::<V>::new(head)?;
        let slots = if head.is_self_mirror() { 1 } else { 2 };
        let subs = indexer.sub_slices();
        // Solving key k reads key k + 1 back, a byte per position of both slices.
        let read_back = subs
            .iter()
            .filter(|s| subs.iter().any(|t| t.key + 1 == s.key))
            .map(|s| slots * s.positions)
            .max()
            .unwrap_or(0);
        let streamed = need.spilled - values_bytes(slots * largest_pair(&subs)) + read_back;
        return Ok(GroupNeed {
            streamed,
            least: paged(streamed - need.other_units, need.dependencies),
            ..need
        });
    }
    let positions = group_positions::<V>(head)?;
    let resident = KINGS_ONLY_BYTES * positions + need.dependencies + FIXED_BYTES;
    Ok(GroupNeed {
        resident,
        spilled: resident,
        streamed: resident,
        least: paged(resident, need.dependencies),
        ..need
    })
}

/// The least bytes the DTW build of a group may read its dependencies in,
/// decoded a block at a time (`damka_probe::PageBudget`). Whether a sub-slice's
/// conversions fit is known only while it is solved: the build stops with the
/// bytes that were missing if they do not.
pub const PAGED_DEPENDENCIES_FLOOR: u64 = 4 << 20;

/// A need of `bytes` with `dependencies` bytes of decoded dependencies, when
/// they are decoded a block at a time instead.
/// (Dependencies smaller than the floor are always decoded whole.)
fn paged(bytes: u64, dependencies: u64) -> u64 {
    bytes - dependencies + dependencies.min(page_slots(dependencies) + PAGED_DEPENDENCIES_FLOOR)
}

/// What dependencies of `dependencies` positions decoded a block at a time
/// hold besides their decoded blocks: a slot per block of their files
/// ([`PAGE_SLOT_BYTES`]).
pub fn page_slots(dependencies: u64) -> u64 {
    dependencies.div_ceil(u64::from(DTW_BLOCK_ENTRIES)) * PAGE_SLOT_BYTES
}

/// Bytes per position of a kings-only group solved for its DTW tables.
pub const KINGS_ONLY_BYTES: u64 = 2;

/// The positions of the group headed by `head`.
fn group_positions<V: Variant>(head: Slice) -> Result<u64, GenError> {
    let size = SliceIndexer::<V>::new(head)?.size();
    Ok(if head.is_self_mirror() {
        size
    } else {
        2 * size
    })
}

/// What solving the group headed by `head` needs with `threads` threads by the
/// general solve, which keeps a working cell per position of the units being
/// solved: the rule tables' and MTC metrics.
pub fn group_need_general<V: Variant>(head: Slice, threads: usize) -> Result<GroupNeed, GenError> {
    let indexer = SliceIndexer::<V>::new(head)?;
    let slots = if head.is_self_mirror() { 1 } else { 2 };
    let subs = indexer.sub_slices();
    let largest_pair = largest_pair(&subs);
    let unit = slots * indexer.king_placements();
    let at_once = threads.min(units_at_once(&indexer)) as u64;
    let working = UNIT_BYTES * unit * at_once;
    let mut deps = 0;
    for dep in dependencies(head) {
        deps += SliceIndexer::<V>::new(dep)?.size();
    }
    let common = working + deps + FIXED_BYTES;
    Ok(GroupNeed {
        resident: values_bytes(slots * indexer.size()) + common,
        spilled: values_bytes(slots * largest_pair) + common,
        streamed: values_bytes(slots * largest_pair) + common,
        least: values_bytes(slots * largest_pair) + common,
        other_units: UNIT_BYTES * unit * (at_once - 1),
        dependencies: deps,
        unit_positions: unit,
    })
}

/// The most positions of a sub-slice and the one above it together (of one
/// slice): the keys descend by one at a time, but a key may be missing, and
/// only adjacent keys are resident together.
fn largest_pair(subs: &[damka_core::SubSlice]) -> u64 {
    subs.iter()
        .map(|s| {
            let above = subs
                .iter()
                .find(|t| t.key == s.key + 1)
                .map_or(0, |t| t.positions);
            s.positions + above
        })
        .max()
        .unwrap_or(0)
}

/// At most how many units are solved at once: a unit is a men placement of the
/// slice with its flip in the mirror.
fn units_at_once<V: Variant>(indexer: &SliceIndexer<V>) -> usize {
    usize::try_from(indexer.men_placements())
        .unwrap_or(usize::MAX)
        .max(1)
}

/// Extra bytes per position of a rule group whose material has counted DTC
/// tables with a conditional counter (R3's materials: a value per position, R3
/// count and layer while they are solved): the Russian `2M1K-0M1K` group,
/// 657,720 positions, peaked at about 1 GB.
pub const COUNTED_BYTES_PER_POSITION: u64 = 1600;
/// The counted table of a rule group whose material has counted DTC tables
/// without a conditional counter (`crate::layers`) is held compressed, its
/// blocks compressed as they fill, when the group does not spill: counted at this
/// many entries (a position and layer) per byte. The Russian 5-piece layered
/// tables compress 23 to 76 entries to a byte (`1M2K-1M1K.russian.cdtc.dkt`: 278 M
/// entries, 12.0 MB; `1M1K-1M1K`: 19.8 M entries, 262 KB).
pub const LAYERED_ENTRIES_PER_BYTE: u64 = 16;

/// Bytes per unit that the layered pass may at least spend keeping what each
/// position's moves give across its layers (`crate::layers`), per thread; a
/// rule build gives it half of what its memory budget leaves beside a group's
/// estimate on top (`crate::rules`).
pub const LAYER_CACHE_BYTES: usize = 256 << 20;

/// What building the rule tables of the group headed by `head` under the rule
/// set of `rules` needs with `threads` threads, in bytes, with the group's DTC
/// and DTZ solves in memory ([`GroupNeed::resident`]) or with their sub-slices
/// spilled ([`GroupNeed::spilled`]). Beside the solve ([`group_need_general`],
/// less its dependencies: the DTC metric reads the rule tables instead), the
/// build holds each dependency's RWDL table decoded (a byte per position), its
/// DTC table too (up to two bytes) where the group's phase can continue through
/// a conversion, and the probe's block cache, and, at its largest step:
///
/// - with counted tables and a conditional counter (R3's materials), the counted
///   values ([`COUNTED_BYTES_PER_POSITION`]; that solve does not spill);
/// - with layered counted tables, while the layers are solved, `D(p, 0)` and the
///   compressed counted table (when the group spills: `D(p, 0)` of two
///   sub-slices, the rest and the table's finished blocks on disk) and, per
///   thread, every layer of the unit being solved; then, while the RWDL tables
///   are written, `D(p, 0)` and a slice's game-theoretic values decoded;
/// - otherwise, while the RWDL tables are made, one slice's game-theoretic
///   values decoded (the DTC values are read range by range from the solve);
/// - with DTZ tables, the group's own RWDL tables decoded beside the DTZ solve.
///
/// A quarter more covers the allocator's slack and the cache's overshoot: the
/// Russian `2M1K-1M1K` group peaked at 606 to 669 MB against 583 MB counted
/// before that quarter, `1M2K-1M1K` at 395 MB (598 counted), `2M2K-0M1K` at
/// 215 MB (447).
pub fn rule_group_need<V: Variant>(
    rules: &RuleTablebase<V>,
    head: Slice,
    threads: usize,
) -> Result<GroupNeed, GenError> {
    let need = group_need_general::<V>(head, threads)?;
    let positions = group_positions::<V>(head)?;
    let per_dependency = if reads_dependency_dtc(rules, head)? {
        3
    } else {
        1
    };
    let shared = per_dependency * need.dependencies + DEFAULT_CACHE_BYTES as u64;
    let zeroing = if rules.phase(head.material())?.zeroing(rules.set()) {
        positions
    } else {
        0
    };
    // One slice's game-theoretic values, decoded at up to two bytes per position.
    let theory = 2 * positions / if head.is_self_mirror() { 1 } else { 2 };
    // The values of the two sub-slices a spilled solve keeps in memory.
    let pair_values = need.spilled + values_bytes(positions) - need.resident;
    let plan = rules.counted_plan(head.material())?;
    // The step's need, with `D(p, 0)` and the counted table's finished blocks in
    // memory or, when the group spills, on disk but for two sub-slices.
    let step = |spilled: bool| {
        match plan {
            Some(plan) => match plan.cond() {
                Some(_) => COUNTED_BYTES_PER_POSITION * positions,
                None => {
                    let layers = u64::from(plan.layer_limit());
                    let unit = (need.unit_positions * (2 * layers + 6) + LAYER_CACHE_BYTES as u64)
                        * threads as u64;
                    let (fresh, blocks) = if spilled {
                        (pair_values, 0)
                    } else {
                        let blocks = (positions * layers).div_ceil(LAYERED_ENTRIES_PER_BYTE);
                        (values_bytes(positions), blocks)
                    };
                    (fresh + blocks + unit).max(fresh + theory)
                }
            },
            None => theory,
        }
        .max(zeroing)
    };
    let with = |solve: u64, spilled: bool| {
        let bytes = solve - need.dependencies + shared + step(spilled);
        bytes + bytes / 4
    };
    let spills = plan.is_none_or(|plan| plan.cond().is_none());
    let spilled = if spills {
        with(need.spilled, true)
    } else {
        with(need.resident, false)
    };
    Ok(GroupNeed {
        resident: with(need.resident, false),
        spilled,
        streamed: spilled,
        least: spilled,
        other_units: 0,
        ..need
    })
}

/// Whether the rule build of the group headed by `head` reads its dependencies'
/// DTC tables: where the phase of the slice or its mirror can continue through a
/// conversion (otherwise only their RWDL tables).
pub(crate) fn reads_dependency_dtc<V: Variant>(
    rules: &RuleTablebase<V>,
    head: Slice,
) -> Result<bool, GenError> {
    for slice in [head, head.mirror()] {
        if rules
            .phase(slice.material())?
            .continues_through_conversions()
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Mebibytes, rounded up.
pub fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_core::{Russian, Slice};

    #[test]
    fn sizes_parse_with_binary_multiples() {
        assert_eq!(parse_size("600M"), Ok(600 << 20));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("4gib"), Ok(4 << 30));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("512K"), Ok(512 << 10));
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        for bad in ["", "G", "4X", "-1G", "0", "1e9"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn spilling_needs_less_than_keeping_everything() {
        let need = group_need::<Russian>("2M2K-1M1K".parse().unwrap(), 2).unwrap();
        assert!(need.spilled < need.resident);
        // Kings only: one sub-slice, nothing to gain.
        let kings: Slice = "0M3K-0M1K".parse().unwrap();
        let need = group_need_general::<Russian>(kings, 2).unwrap();
        assert_eq!(need.spilled, need.resident);
        // Solved for DTW, two bytes per position of the group in all.
        let dtw = group_need::<Russian>(kings, 2).unwrap();
        assert_eq!(
            dtw.resident,
            2 * 2 * 143_840 + dtw.dependencies + FIXED_BYTES
        );
        assert!(dtw.resident < need.resident);
    }
}
