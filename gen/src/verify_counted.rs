//! Verification of the counted DTC tables (`damka verify --rules SET`): every
//! stored `D(p, c, k)` re-derived from the successors of `p` as the module docs of
//! `damka_probe::limits::counted` define it, read from the tables, and the RWDL
//! value with fresh counts checked against it.
//!
//! A conversion is valued by the probe's own reading of the table it leads to
//! (the RWDL table at an exit, the counted table of the material a promotion keeps
//! the conditional counter running into); a quiet move by the stored `D` of the
//! position it reaches, at the layer and conditional counts it leaves, one ply
//! further; a position without a move is a loss in 0. In a kings-only material only
//! layer 0 is stored, and `D(q, c, k)` is `D(q, 0, k)` when that fits the `H - c`
//! plies left, else a draw. The check is complete by induction on the layer count
//! from `H` down and on the stored distance, as for DTW.
//!
//! A counted table holds `H * K` states per position, too many to decode whole
//! for the large slices (50 states a position under I1). The check keeps only
//! layer 0 of the slice and of its mirror in memory, `K` states a position, which
//! is all that quiet man moves reach (they restart the layer count). A king move
//! keeps the men, so it reaches the one sub-slice of the mirror with the same men
//! flipped: its states are read through a block cache sized for a few such
//! sub-slices ([`cache_bytes`]), which holds the sub-slices the threads are in as
//! they walk the slice in index order.

use damka_core::huge::HugeArray;
use damka_core::{apply, generate, Move, Position, Slice, SliceIndexer, Variant};
use damka_formats::{Dtc, RuleWdl};
use damka_probe::limits::{is_exit, Counted, RuleSet, RuleTablebase, MAX_COUNTERS};
use damka_probe::DEFAULT_CACHE_BYTES;
use rayon::prelude::*;

use crate::best::Best;
use crate::error::GenError;

/// Positions whose states are decoded at a time while layer 0 is gathered.
const LAYER0_POSITIONS: u64 = 1 << 20;

/// One move as the check reads it.
enum Step {
    /// A conversion, worth these values for the mover by conditional count (one
    /// value when the counts do not matter).
    Conversion(Vec<Dtc>),
    /// A quiet move: the stored states of the position it reaches, from offset
    /// `at` of the position's state list (every state after a king move in a
    /// material with men, else the `K` states of layer 0), whether a king moved,
    /// and whether the condition holds after it.
    Quiet { at: usize, king: bool, after: bool },
}

/// The counted table of one slice of the checked pair: the slice, its index,
/// and its layer-0 states (`K` per position, by position then `k`).
struct Table<V: Variant> {
    slice: Slice,
    indexer: SliceIndexer<V>,
    layer0: HugeArray<u16>,
}

/// The counted-table checks of one slice.
pub(crate) struct CountedChecker<'a, V: Variant> {
    rules: &'a RuleTablebase<V>,
    plan: &'a Counted,
    /// The slice's counted table, then its mirror's unless the slice is its own.
    tables: Vec<Table<V>>,
}

/// The block-cache budget for checking `slice` under `set`: room for the
/// king-move successors of the sub-slices that every thread and one more are
/// in (about a byte per state, see the module docs), on top of the default.
pub(crate) fn cache_bytes<V: Variant>(set: &RuleSet, slice: Slice) -> Result<usize, GenError> {
    let Some(plan) = Counted::of(set, &slice.material()).filter(Counted::men) else {
        return Ok(DEFAULT_CACHE_BYTES);
    };
    let states = SliceIndexer::<V>::new(slice)?.king_placements() * u64::from(plan.sheets());
    let bytes = (rayon::current_num_threads() as u64 + 1) * states * 9 / 8;
    Ok(DEFAULT_CACHE_BYTES.saturating_add(usize::try_from(bytes).unwrap_or(usize::MAX)))
}

impl<'a, V: Variant> CountedChecker<'a, V> {
    /// The checker of `slice`, or `None` when its material has no counted table.
    pub(crate) fn new(rules: &'a RuleTablebase<V>, slice: Slice) -> Result<Option<Self>, GenError> {
        let Some(plan) = rules.counted_plan(slice.material())? else {
            return Ok(None);
        };
        let mut slices = vec![slice];
        if slice.mirror() != slice {
            slices.push(slice.mirror());
        }
        let tables = slices
            .into_iter()
            .map(|s| {
                let indexer = SliceIndexer::<V>::new(s)?;
                let layer0 = layer0(rules, plan, s, indexer.size())?;
                Ok(Table {
                    slice: s,
                    indexer,
                    layer0,
                })
            })
            .collect::<Result<_, GenError>>()?;
        Ok(Some(CountedChecker {
            rules,
            plan,
            tables,
        }))
    }

    /// Checks every stored state of `pos` (White to move, at `index` of the
    /// slice) and its RWDL value `rwdl`; calls `record` with the table, the stored
    /// and the expected value of each that is wrong.
    pub(crate) fn check(
        &self,
        pos: &Position<V>,
        index: u64,
        rwdl: RuleWdl,
        record: &mut dyn FnMut(&'static str, String, String),
    ) -> Result<(), GenError> {
        let plan = self.plan;
        let sheets = u64::from(plan.sheets());
        let mut own = vec![0; sheets as usize];
        self.rules
            .counted_entries(self.tables[0].slice, index * sheets, &mut own)?;
        let mut reached = Vec::new();
        let steps = self.steps(pos, &mut reached)?;
        let holds = plan.cond_holds(self.rules.set(), pos);
        let mut best = vec![Best::default(); plan.layers() as usize];
        for k in 0..plan.cond_limit() {
            // Without the condition every `k` reads the states of `k = 0`.
            if k == 0 || holds {
                self.derive_layers(
                    &steps,
                    &reached,
                    if holds { k } else { 0 },
                    holds,
                    &mut best,
                );
            }
            for (c, best) in (0..).zip(&best) {
                let expected = best.value();
                let stored = Dtc::from_raw(own[plan.sheet(c, k) as usize]);
                if stored != expected {
                    record(
                        "cdtc",
                        format!("{stored:?} at c={c}, k={k}"),
                        format!("{expected:?}"),
                    );
                }
            }
        }
        let fresh = plan.decide(Dtc::from_raw(own[0]), &[0; MAX_COUNTERS]);
        if fresh.wdl() != rwdl.ruled() {
            record(
                "rwdl",
                format!("{rwdl:?}"),
                format!("{} (from the counted table)", fresh.wdl()),
            );
        }
        Ok(())
    }

    /// The moves of `pos` as the check reads them; the states of the positions
    /// quiet moves reach are appended to `reached`.
    fn steps(&self, pos: &Position<V>, reached: &mut Vec<u16>) -> Result<Vec<Step>, GenError> {
        let (set, plan) = (self.rules.set(), self.plan);
        let holds = plan.cond_holds(set, pos);
        let mut moves: Vec<Move> = Vec::new();
        generate(pos, &mut moves);
        let mut steps = Vec::with_capacity(moves.len());
        for mv in &moves {
            let after = apply(pos, mv);
            let step = if after.pieces(after.side()) == 0 || is_exit(set, pos, mv, &after) {
                Step::Conversion(vec![self.rules.counted_move(
                    pos,
                    &[0; MAX_COUNTERS],
                    mv,
                )?])
            } else if mv.is_capture() || mv.is_promotion() {
                let mut values = Vec::new();
                for k in 0..plan.cond_limit() {
                    let counts = plan.cond_counts(k, holds);
                    values.push(self.rules.counted_move(pos, &counts, mv)?);
                }
                Step::Conversion(values)
            } else {
                let next = after.flipped();
                let slice = Slice::of(&next)
                    .map_err(|e| damka_probe::ProbeError::InvalidPosition(e.to_string()))?;
                let table = &self.tables[usize::from(slice != self.tables[0].slice)];
                let index = table.indexer.index(&next);
                let king = pos.kings() & (1u64 << mv.from_bit()) != 0;
                let at = reached.len();
                if king && plan.men() {
                    let sheets = u64::from(plan.sheets());
                    reached.resize(at + sheets as usize, 0);
                    self.rules
                        .counted_entries(table.slice, index * sheets, &mut reached[at..])?;
                } else {
                    let k = u64::from(plan.cond_limit());
                    reached.extend_from_slice(&table.layer0[(index * k) as usize..][..k as usize]);
                }
                Step::Quiet {
                    at,
                    king,
                    after: plan.cond_holds(set, &after),
                }
            };
            steps.push(step);
        }
        Ok(steps)
    }

    /// `D(p, c, k)` for every layer count `c`, into `best` (one per layer), from
    /// the moves `steps` of `p` and the states they reach (`reached`), where the
    /// condition holds or not (`holds`).
    fn derive_layers(
        &self,
        steps: &[Step],
        reached: &[u16],
        k: u32,
        holds: bool,
        best: &mut [Best],
    ) {
        let plan = self.plan;
        let (big_h, big_k) = (plan.layer_limit(), plan.cond_limit());
        best.fill(Best::default());
        for step in steps {
            let (at, king, after) = match step {
                Step::Conversion(values) => {
                    let value = values[(k as usize).min(values.len() - 1)];
                    best.iter_mut().for_each(|b| b.add_dtc(value));
                    continue;
                }
                &Step::Quiet { at, king, after } => (at, king, after),
            };
            // Every state after a king move in a material with men, else layer 0
            // alone, where state `k * layers` is the `k`-th.
            let full = king && plan.men();
            let state = |sheet: u32| {
                let offset = if full { sheet } else { sheet / plan.layers() };
                Dtc::from_raw(reached[at + offset as usize])
            };
            let next_k = if after && holds { k + 1 } else { 0 };
            // What a move worth a limit reached is: a draw, or a win when the
            // position reached has no move.
            let limit = if state(0) != Dtc::loss(0) {
                Dtc::DRAW
            } else {
                Dtc::win(1)
            };
            for (c, best) in (0..).zip(best.iter_mut()) {
                let next_c = if king || !plan.men() { c + 1 } else { 0 };
                let value = if next_c >= big_h || (after && next_k >= big_k) {
                    limit
                } else if plan.men() {
                    state(plan.sheet(next_c, next_k)).back()
                } else {
                    let layer0 = state(plan.sheet(0, next_k));
                    match layer0.distance() {
                        Some(d) if u32::from(d) <= big_h - next_c => layer0.back(),
                        _ => Dtc::DRAW,
                    }
                };
                best.add_dtc(value);
            }
        }
    }
}

/// The layer-0 states of the counted table of `slice` (`size` positions), `K`
/// per position: the table decoded [`LAYER0_POSITIONS`] positions at a time.
fn layer0<V: Variant>(
    rules: &RuleTablebase<V>,
    plan: &Counted,
    slice: Slice,
    size: u64,
) -> Result<HugeArray<u16>, GenError> {
    let (sheets, layers) = (plan.sheets() as usize, plan.layers() as usize);
    let k = plan.cond_limit() as usize;
    let mut layer0 = HugeArray::<u16>::zeroed(size as usize * k);
    let mut states = vec![0; LAYER0_POSITIONS.min(size) as usize * sheets];
    for start in (0..size).step_by(LAYER0_POSITIONS as usize) {
        let n = LAYER0_POSITIONS.min(size - start) as usize;
        let part = &mut states[..n * sheets];
        rules.decode_counted(slice, start * sheets as u64, part)?;
        layer0[start as usize * k..][..n * k]
            .par_chunks_mut(k)
            .zip(part.par_chunks(sheets))
            .for_each(|(out, all)| {
                for (kk, value) in out.iter_mut().enumerate() {
                    *value = all[kk * layers];
                }
            });
    }
    Ok(layer0)
}
