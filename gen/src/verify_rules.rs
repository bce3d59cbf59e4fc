//! Verification of the rule tables of one rule set (`damka verify --rules SET`).
//!
//! - **DTC** and **DTZ** values are re-derived from the successors, as the DTW
//!   values are ([`crate::verify`]): a move that ends the count (for DTC an exit,
//!   for DTZ any capture, promotion or man move) is valued by the RWDL table of the
//!   position it reaches; any other move by the same table one ply back. The check
//!   is complete for the same reason: by induction on the stored distance.
//! - **Counted DTC** values, where a material has them, are re-derived from the
//!   successors at every layer and conditional count (`crate::verify_counted`).
//! - **RWDL** values depend on counters, which a position does not hold, so they
//!   cannot be re-derived one ply at a time. Each is checked against the
//!   game-theoretic value (a rule only turns a win or a loss into a draw), against
//!   the DTC value wherever [`Phase::decide`] decides from it alone, and, where the
//!   material has a DTZ table, against it: a win or loss under the rules must zero
//!   within the budget of the counters man moves restart.
//!
//! [`Phase::decide`]: damka_probe::limits::Phase::decide

use std::path::Path;
use std::sync::Arc;

use damka_core::enumerate::successors;
use damka_core::{apply, generate};
use damka_core::{IndexWalk, Material, Move, Position, Slice, SliceIndexer, Variant};
use damka_formats::table::ValueKind;
use damka_formats::{Dtc, RuleWdl, Wdl};
use damka_probe::limits::{Counted, Phase, RuleSet, RuleTablebase, Verdict};
use damka_probe::SliceTable;

use crate::best::{reached, Best};
use crate::budget::default_budget;
use crate::checkpoint::{slice_checkpoint, Checkpoint};
use crate::error::GenError;
use crate::progress::OnProgress;
use crate::rule_reads::{grown_window_entries, Layout, Reader, Successor, Targets, WINDOW_ENTRIES};
use crate::verify::{check_chunks, record, recorded, tables_in, Found, Mismatch, VerifyReport};
use crate::verify_counted::{self, CountedChecker};

/// Verifies the rule tables of `set` for every slice under `root` that has them,
/// reporting progress to `progress` (one group per slice).
pub fn verify_rules<V: Variant>(
    root: &Path,
    set: &RuleSet,
    progress: Option<OnProgress<'_>>,
) -> Result<VerifyReport, GenError> {
    verify_rules_of::<V>(root, set, None, progress, None, None)
}

/// Verifies the rule tables of `set` under `root` like [`verify_rules`], of the
/// slice `only` and its mirror if given (their dependencies' rule tables must be
/// there), else of every slice that has them; with `checkpoint`, records the
/// rounds checked there and skips those it records ([`crate::checkpoint`]).
///
/// `memory` (bytes) bounds what each slice's check sizes to the room it has: its
/// read windows take at most half of it, its block cache and the conversion
/// tables it decodes whole at most a quarter each. The slice's own decoded DTW
/// table and counted layer come on top. Without it, the room is the memory
/// available when the slice's check starts, less a margin
/// ([`default_budget`]). Less room means smaller windows and more reads
/// through the block cache: slower, the same result.
pub fn verify_rules_of<V: Variant>(
    root: &Path,
    set: &RuleSet,
    only: Option<Slice>,
    progress: Option<OnProgress<'_>>,
    checkpoint: Option<&Checkpoint>,
    memory: Option<u64>,
) -> Result<VerifyReport, GenError> {
    let room = Room::Bytes(memory);
    verify_rules_in::<V>(root, set, only, room, (progress, checkpoint))
}

/// [`verify_rules_of`] with windows of at most `window_entries` entries
/// (`crate::rule_reads`; 0 reads every entry through the block cache): for the
/// tests, which check that both ways find the same.
#[doc(hidden)]
pub fn verify_rules_windowed<V: Variant>(
    root: &Path,
    set: &RuleSet,
    only: Option<Slice>,
    window_entries: u64,
    progress: Option<OnProgress<'_>>,
) -> Result<VerifyReport, GenError> {
    let room = Room::Windows(window_entries);
    verify_rules_in::<V>(root, set, only, room, (progress, None))
}

/// How much a slice's check may hold.
#[derive(Clone, Copy)]
enum Room {
    /// Windows of at most this many entries, and the default cache and
    /// conversion tables (the tests).
    Windows(u64),
    /// Windows as large as the slice's blocks need where half this many bytes
    /// (or of the available memory) holds them ([`grown_window_entries`]), and
    /// a quarter each for the block cache and the conversion tables.
    Bytes(Option<u64>),
}

/// [`verify_rules_of`], its windows, cache and conversion tables sized by `room`.
fn verify_rules_in<V: Variant>(
    root: &Path,
    set: &RuleSet,
    only: Option<Slice>,
    room: Room,
    (progress, checkpoint): (Option<OnProgress<'_>>, Option<&Checkpoint>),
) -> Result<VerifyReport, GenError> {
    let mut report = VerifyReport::default();
    let files = RuleTablebase::<V>::new(root, set.clone());
    let dir = files.tablebase().dir().to_path_buf();
    for slice in tables_in(&dir)? {
        if only.is_some_and(|s| slice != s && slice != s.mirror())
            || !files.path(slice, ValueKind::RuleWdl).is_file()
        {
            continue;
        }
        // A reader of its own per slice, its block cache sized for the slice's
        // check: the tables it decodes whole (the slice's and its successors')
        // are kept for as long as it lives, so one reader for the whole run
        // would end up holding every table of the set.
        let (layout, budget) = match room {
            Room::Windows(entries) => (layout(set, &slice.material(), entries), None),
            Room::Bytes(memory) => {
                let budget = memory.or_else(default_budget);
                let fixed = layout(set, &slice.material(), WINDOW_ENTRIES);
                let block = SliceIndexer::<V>::new(slice)?.king_placements();
                let threads = rayon::current_num_threads() as u64;
                let half = budget.map_or(0, |bytes| bytes / 2);
                let white_men = slice.material().white_men;
                let entries = grown_window_entries((block, white_men), fixed, threads, half);
                (layout(set, &slice.material(), entries), budget)
            }
        };
        let tables = 2 + usize::from(layout.dtz) + usize::from(layout.sheets > 0);
        let size = SliceIndexer::<V>::new(slice)?.size();
        let scope = (format!("rules:{}", set.name), format!("{}.", set.name));
        let resume = slice_checkpoint(checkpoint, (&scope.0, Some(&scope.1)), &dir, slice, size)?;
        if let Some(checked) = recorded(size, resume.as_ref()) {
            report.add(tables, size, checked);
            continue;
        }
        let quarter = budget.map(|bytes| bytes / 4);
        let cache = verify_counted::cache_bytes::<V>(set, slice, layout, quarter)?;
        let rules = RuleTablebase::<V>::with_cache_bytes(root, set.clone(), cache);
        let preload = quarter.map_or(PRELOAD_POSITIONS, |bytes| bytes.min(PRELOAD_POSITIONS));
        let targets = preload_conversions(&rules, slice, preload)?;
        let checker = Checker::new(&rules, slice, layout, targets)?;
        let chunk = checker.scratch().reader.chunk(size);
        let chunks = check_chunks(
            slice,
            (size, chunk),
            (progress, resume.as_ref()),
            || checker.scratch(),
            |index, found, scratch| checker.check(index, found, scratch),
        )?;
        report.add(tables, size, chunks);
    }
    Ok(report)
}

/// Most positions whose RWDL values [`preload_conversions`] decodes for one
/// slice's check (a byte each).
const PRELOAD_POSITIONS: u64 = 4 << 30;

/// Decodes whole, before the walk, the RWDL tables of the slices that a capture
/// or a promotion from `slice` reaches, as far as `limit` positions (a byte
/// each) allow (the reader reads the others through the block cache). The walk
/// reads them at random, one entry per capture; through the block cache each
/// read took a lock, a hash and an LRU update, a quarter of the time of a
/// Russian 7-piece check.
fn preload_conversions<V: Variant>(
    rules: &RuleTablebase<V>,
    slice: Slice,
    limit: u64,
) -> Result<Targets<V>, GenError> {
    let mut targets = Vec::new();
    let mut left = limit;
    for target in successors(slice) {
        if target == slice.mirror() || !rules.path(target, ValueKind::RuleWdl).is_file() {
            continue;
        }
        let size = SliceIndexer::<V>::new(target)?.size();
        if size <= left {
            left -= size;
            targets.push((target, rules.table(target, ValueKind::RuleWdl)?));
        }
    }
    Ok(targets)
}

/// The rule tables `set` has for `material`, read in windows of at most
/// `window_entries` entries.
fn layout(set: &RuleSet, material: &Material, window_entries: u64) -> Layout {
    Layout {
        dtz: Phase::of(set, material).zeroing(set),
        sheets: Counted::of(set, material).map_or(0, |plan| u64::from(plan.sheets())),
        window_entries,
    }
}

/// The checks of one slice.
struct Checker<'a, V: Variant> {
    rules: &'a RuleTablebase<V>,
    slice: Slice,
    /// The index of the mirror slice, where quiet moves lead.
    mirror: SliceIndexer<V>,
    layout: Layout,
    /// The slice's DTW table, decoded.
    theory: Arc<SliceTable<V>>,
    /// The phase analysis of the material.
    phase: &'a Phase,
    /// The plies a win may take to its next man move or conversion with fresh
    /// counters, where the material has a DTZ table.
    budget: Option<u32>,
    /// The checks of its counted table, if it has one.
    counted: Option<CountedChecker<'a, V>>,
    /// The RWDL tables of the slices its conversions reach, decoded.
    targets: Targets<V>,
}

/// What one thread keeps from one position to the next.
struct Scratch<'c, V: Variant> {
    reader: Reader<'c, V>,
    walk: IndexWalk<V>,
    generated: Vec<Move>,
    moves: Vec<Successor<V>>,
    /// The counted states of the position checked.
    states: Vec<u16>,
    counted: verify_counted::Scratch,
}

impl<'a, V: Variant> Checker<'a, V> {
    fn new(
        rules: &'a RuleTablebase<V>,
        slice: Slice,
        layout: Layout,
        targets: Targets<V>,
    ) -> Result<Self, GenError> {
        let phase = rules.phase(slice.material())?;
        let theory = rules.tablebase().slice_table(slice)?;
        Ok(Checker {
            rules,
            slice,
            mirror: SliceIndexer::new(slice.mirror())?,
            layout,
            theory,
            phase,
            budget: phase
                .zeroing_budget(rules.set(), &[])
                .map(|(_, budget)| budget),
            counted: CountedChecker::new(rules, slice)?,
            targets,
        })
    }

    /// Scratch for one thread.
    fn scratch(&self) -> Scratch<'_, V> {
        Scratch {
            reader: Reader::new(
                self.rules,
                (self.slice, &self.mirror),
                self.layout,
                &self.targets,
            ),
            walk: IndexWalk::default(),
            generated: Vec::new(),
            moves: Vec::new(),
            states: Vec::new(),
            counted: verify_counted::Scratch::default(),
        }
    }

    /// Checks the position at `index`, adding what is wrong to `found`.
    fn check(&self, index: u64, found: &mut Found, s: &mut Scratch<'_, V>) -> Result<(), GenError> {
        let pos = s.walk.position(self.theory.indexer(), index);
        let mut record = |table: &'static str, stored: String, expected: String| {
            record(found, || Mismatch {
                slice: self.slice,
                table,
                fen: pos.to_string(),
                stored,
                expected,
            })
        };
        let (dtc, dtz, rwdl) = s.reader.own(index, &pos, &mut s.states)?;
        s.reader.successors(&pos, &mut s.generated, &mut s.moves)?;
        if let Some(counted) = &self.counted {
            counted.prefetch(&s.moves);
        }
        let expected = self.expected(&s.reader, &s.moves, false)?;
        if dtc != expected {
            record("dtc", show(dtc), show(expected));
        }
        if let Some(stored) = dtz {
            let expected = self.expected(&s.reader, &s.moves, true)?;
            if stored != expected {
                record("dtz", show(stored), show(expected));
            }
        }
        if let Some(problem) = self.rwdl_problem(rwdl, self.theory.get(index).wdl(), dtc, dtz) {
            record("rwdl", format!("{rwdl:?}"), problem);
        }
        if let Some(counted) = &self.counted {
            let moves = (&s.reader, &s.moves[..]);
            counted.check(&pos, &s.states, moves, rwdl, &mut s.counted, &mut record)?;
        }
        Ok(())
    }

    /// What is wrong with the RWDL value `rwdl` of a position whose theoretical
    /// value is `theory` and whose DTC (and DTZ, where there is a table) values are
    /// given, if anything.
    fn rwdl_problem(
        &self,
        rwdl: RuleWdl,
        theory: Wdl,
        dtc: Dtc,
        dtz: Option<Dtc>,
    ) -> Option<String> {
        if RuleWdl::of(theory, rwdl.ruled()) != rwdl {
            return Some(format!("a value that fits the theoretical {theory}"));
        }
        if dtc != Dtc::loss(0) {
            if let Verdict::Decided(ruled, _, _) = self.phase.decide(dtc, &[], u32::MAX) {
                if ruled != rwdl.ruled() {
                    return Some(format!("{ruled} (from the DTC value {})", show(dtc)));
                }
            }
        }
        let (Some(dtz), Some(budget)) = (dtz, self.budget) else {
            return None;
        };
        let zeroes =
            dtz.wdl() == rwdl.ruled() && dtz.distance().is_some_and(|d| u32::from(d) <= budget);
        if rwdl.ruled() != Wdl::Draw && !zeroes {
            return Some(format!(
                "not a {}: DTZ {} exceeds the zeroing budget of {budget} plies",
                rwdl.ruled(),
                show(dtz)
            ));
        }
        None
    }

    /// The DTC value (`zeroing` false) or DTZ value (`zeroing` true) that the
    /// moves `moves` give (a position without a move: a loss in 0). A move that
    /// ends the count (for DTC an exit, for DTZ any capture or man move) is
    /// valued by the RWDL table of the position it reaches, any other by the
    /// same table.
    fn expected(
        &self,
        reader: &Reader<'_, V>,
        moves: &[Successor<V>],
        zeroing: bool,
    ) -> Result<Dtc, GenError> {
        let mut best = Best::default();
        for to in moves {
            let ends = if zeroing {
                to.mv.is_capture() || !to.king
            } else {
                to.exit
            };
            let value = if to.after.black() == 0 {
                Dtc::loss(0)
            } else if ends {
                reached(reader.rwdl(to)?.ruled())
            } else if zeroing {
                reader.dtz(to)?
            } else {
                reader.dtc(to)?
            };
            best.add_dtc(value.back());
        }
        Ok(best.value())
    }
}

/// The DTC-encoded value (DTC, DTZ or MTC) that the successors of `pos` give,
/// each valued by `value_of` from the move and the position it reaches: the
/// shortest win one ply back, else a draw, else the longest loss; a loss in 0
/// with no legal move.
pub(crate) fn derive<V: Variant>(
    pos: &Position<V>,
    mut value_of: impl FnMut(&Move, &Position<V>) -> Result<Dtc, GenError>,
) -> Result<Dtc, GenError> {
    let mut moves = Vec::new();
    generate(pos, &mut moves);
    let mut best = Best::default();
    for mv in &moves {
        best.add_dtc(value_of(mv, &apply(pos, mv))?.back());
    }
    Ok(best.value())
}

/// A DTC, DTZ or MTC value as text.
pub(crate) fn show(value: Dtc) -> String {
    match (value.wdl(), value.distance()) {
        (Wdl::Draw, _) | (_, None) => "draw".into(),
        (wdl, Some(d)) => format!("{wdl} in {d}"),
    }
}
