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
//! layer 0 of the mirror slice in memory, `K` states a position, which is all
//! that quiet man moves reach (they restart the layer count). A king move keeps
//! the men, so it reaches the one block of the mirror with the same men flipped:
//! its states are read with the block's other entries (`crate::rule_reads`), or,
//! where blocks are too large for that, through a block cache sized for a few
//! such blocks ([`cache_bytes`]).
//!
//! The best of the moves' values is taken as ranks ([`rank`]), one per layer
//! count, with the moves worth the same at every count taken once.

use damka_core::huge::HugeArray;
use damka_core::{Position, Slice, SliceIndexer, Variant};
use damka_formats::{Dtc, RuleWdl};
use damka_probe::limits::{Counted, RuleSet, RuleTablebase, MAX_COUNTERS};
use damka_probe::DEFAULT_CACHE_BYTES;
use rayon::prelude::*;

use crate::best::{self, rank, rank_back, unrank};
use crate::error::GenError;
use crate::rule_reads::{window_block, Layout, Reader, Successor};

/// Positions whose states are decoded at a time while layer 0 is gathered.
const LAYER0_POSITIONS: u64 = 1 << 20;

/// One move as the check reads it.
enum Step {
    /// A conversion, worth for the mover the `len` values from offset `at` of
    /// the check's values, by conditional count (one value when the counts do
    /// not matter).
    Conversion { at: usize, len: usize },
    /// A quiet move: the stored states of the position it reaches, from offset
    /// `at` of the position's state list (every state after a king move in a
    /// material with men, else the `K` states of layer 0), whether a king moved,
    /// and whether the condition holds after it.
    Quiet { at: usize, king: bool, after: bool },
}

/// What the check of one position fills, kept from one position to the next.
#[derive(Default)]
pub(crate) struct Scratch {
    steps: Vec<Step>,
    /// The values of conversions.
    values: Vec<Dtc>,
    /// The states quiet moves reach.
    reached: Vec<u16>,
    /// `D` by layer count, for one conditional count, as ranks.
    best: Vec<i32>,
}

/// The counted-table checks of one slice.
pub(crate) struct CountedChecker<'a, V: Variant> {
    rules: &'a RuleTablebase<V>,
    plan: &'a Counted,
    /// The layer-0 states of the mirror slice's counted table (the slice's own
    /// if it is its own mirror), `K` per position: all that quiet moves reach.
    layer0: HugeArray<u16>,
}

/// The block cache of the check of a material with men and a counted table
/// whose blocks are read in windows (`crate::rule_reads`), where the available
/// memory allows: the blocks the windows of neighbouring men placements share
/// stay decoded between them. `2M1K-1M1K` under `fmjd` on one thread decoded
/// 29.6 GB with the default 256 MiB and 19.9 GB with 1 GiB, in 212.8 and 216.5
/// s of CPU against 224.9 and 260.4 s (README, session 38).
const WINDOWED_CACHE_BYTES: usize = 1 << 30;

/// The block-cache budget for checking `slice` under `set`, whose rule tables
/// hold `layout`: where its blocks are read in windows (`crate::rule_reads`),
/// [`WINDOWED_CACHE_BYTES`] but at most `quarter` bytes (a quarter of the
/// check's memory, where it has a bound), and never less than the default;
/// else room for the king-move successors of the blocks that every thread and
/// one more are in (about a byte per state, see the module docs), on top of the
/// default.
pub(crate) fn cache_bytes<V: Variant>(
    set: &RuleSet,
    slice: Slice,
    layout: Layout,
    quarter: Option<u64>,
) -> Result<usize, GenError> {
    let Some(plan) = Counted::of(set, &slice.material()).filter(Counted::men) else {
        return Ok(DEFAULT_CACHE_BYTES);
    };
    let block = SliceIndexer::<V>::new(slice)?.king_placements();
    if window_block(block, layout) > 0 {
        let quarter = quarter.map_or(usize::MAX, |bytes| {
            usize::try_from(bytes).unwrap_or(usize::MAX)
        });
        return Ok(WINDOWED_CACHE_BYTES.min(quarter).max(DEFAULT_CACHE_BYTES));
    }
    let states = block * u64::from(plan.sheets());
    let bytes = (rayon::current_num_threads() as u64 + 1) * states * 9 / 8;
    Ok(DEFAULT_CACHE_BYTES.saturating_add(usize::try_from(bytes).unwrap_or(usize::MAX)))
}

impl<'a, V: Variant> CountedChecker<'a, V> {
    /// The checker of `slice`, or `None` when its material has no counted table.
    pub(crate) fn new(rules: &'a RuleTablebase<V>, slice: Slice) -> Result<Option<Self>, GenError> {
        let Some(plan) = rules.counted_plan(slice.material())? else {
            return Ok(None);
        };
        let mirror = slice.mirror();
        let size = SliceIndexer::<V>::new(mirror)?.size();
        Ok(Some(CountedChecker {
            rules,
            plan,
            layer0: layer0(rules, plan, mirror, size)?,
        }))
    }

    /// Checks every stored state `own` of `pos` (White to move), whose moves are
    /// `moves` (read by `reader`), and its RWDL value `rwdl`; calls `record` with
    /// the table, the stored and the expected value of each that is wrong.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn check(
        &self,
        pos: &Position<V>,
        own: &[u16],
        (reader, moves): (&Reader<'_, V>, &[Successor<V>]),
        rwdl: RuleWdl,
        scratch: &mut Scratch,
        record: &mut dyn FnMut(&'static str, String, String),
    ) -> Result<(), GenError> {
        let plan = self.plan;
        self.steps(pos, reader, moves, scratch)?;
        let holds = plan.cond_holds(self.rules.set(), pos);
        for k in 0..plan.cond_limit() {
            // Without the condition every `k` reads the states of `k = 0`.
            if k == 0 || holds {
                self.derive_layers(scratch, if holds { k } else { 0 }, holds);
            }
            // The states of one `k` are consecutive: compared whole first, and
            // one by one only when one differs.
            let row = &own[plan.sheet(0, k) as usize..][..scratch.best.len()];
            let same = |(&state, &best): (&u16, &i32)| rank(Dtc::from_raw(state)) == best;
            if row.iter().zip(&scratch.best).all(same) {
                continue;
            }
            for (c, &best) in (0..).zip(&scratch.best) {
                let expected = unrank(best);
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

    /// Asks for the layer-0 states that the moves `moves` reach ahead of their
    /// reads in [`CountedChecker::check`]. Layer 0 is read at random: asked for
    /// as soon as the moves are known, before the position's other checks, its
    /// misses overlap each other and that work.
    pub(crate) fn prefetch(&self, moves: &[Successor<V>]) {
        let k = u64::from(self.plan.cond_limit());
        for to in moves {
            if let (Some(index), false) = (to.index, to.king && self.plan.men()) {
                damka_core::prefetch::prefetch(&self.layer0[(index * k) as usize]);
            }
        }
    }

    /// The moves `moves` of `pos` as the check reads them, into `scratch`, with
    /// the values of conversions and the states quiet moves reach.
    fn steps(
        &self,
        pos: &Position<V>,
        reader: &Reader<'_, V>,
        moves: &[Successor<V>],
        scratch: &mut Scratch,
    ) -> Result<(), GenError> {
        let (set, plan) = (self.rules.set(), self.plan);
        let holds = plan.cond_holds(set, pos);
        let Scratch {
            steps,
            values,
            reached,
            ..
        } = scratch;
        steps.clear();
        values.clear();
        reached.clear();
        let k = u64::from(plan.cond_limit());
        for to in moves {
            let at = values.len();
            let step = if to.after.pieces(to.after.side()) == 0 {
                values.push(Dtc::win(1));
                Step::Conversion { at, len: 1 }
            } else if to.exit {
                // The phase ends: the value of the position reached, with
                // fresh counters, one ply further.
                values.push(best::reached(reader.rwdl(to)?.ruled()).back());
                Step::Conversion { at, len: 1 }
            } else if let Some(index) = to.index {
                let at = reached.len();
                if to.king && plan.men() {
                    reader.states(index, reached)?;
                } else {
                    reached.extend_from_slice(&self.layer0[(index * k) as usize..][..k as usize]);
                }
                Step::Quiet {
                    at,
                    king: to.king,
                    after: plan.cond_holds(set, &to.after),
                }
            } else {
                for k in 0..plan.cond_limit() {
                    let counts = plan.cond_counts(k, holds);
                    values.push(self.rules.counted_move(pos, &counts, &to.mv)?);
                }
                Step::Conversion {
                    at,
                    len: plan.cond_limit() as usize,
                }
            };
            steps.push(step);
        }
        Ok(())
    }

    /// `D(p, c, k)` for every layer count `c`, into `scratch.best` (one rank
    /// per layer), from the moves of `p` and the states they reach (`scratch`),
    /// where the condition holds or not (`holds`).
    fn derive_layers(&self, scratch: &mut Scratch, k: u32, holds: bool) {
        let plan = self.plan;
        let (big_h, big_k, men) = (plan.layer_limit(), plan.cond_limit(), plan.men());
        let Scratch {
            steps,
            values,
            reached,
            best,
        } = scratch;
        // The moves worth the same at every layer count first: conversions, and
        // man moves, which restart the layer count. No move at all: lost in 0.
        let mut common = rank(Dtc::loss(0));
        for step in steps.iter() {
            common = common.max(match *step {
                Step::Conversion { at, len } => rank(values[at + (k as usize).min(len - 1)]),
                Step::Quiet { at, king, after } if men && !king => {
                    let next_k = if after && holds { k + 1 } else { 0 };
                    // Layer 0 alone was read: state `k` is at offset `k`.
                    if after && next_k >= big_k {
                        limit(Dtc::from_raw(reached[at]))
                    } else {
                        rank_back(reached[at + next_k as usize])
                    }
                }
                Step::Quiet { .. } => continue,
            });
        }
        best.clear();
        best.resize(plan.layers() as usize, common);
        for step in steps.iter() {
            let Step::Quiet { at, king, after } = *step else {
                continue;
            };
            if men && !king {
                continue;
            }
            // Every state after a king move in a material with men, else layer 0
            // alone, where state `k * layers` is the `k`-th.
            let state = |sheet: u32| {
                let offset = if men { sheet } else { sheet / plan.layers() };
                Dtc::from_raw(reached[at + offset as usize])
            };
            let next_k = if after && holds { k + 1 } else { 0 };
            let limit = limit(state(0));
            if after && next_k >= big_k {
                best.iter_mut().for_each(|b| *b = (*b).max(limit));
            } else if men {
                // Layer count `c` reaches `c + 1`; the last reaches the limit.
                let next = &reached[at + plan.sheet(1, next_k) as usize..][..best.len() - 1];
                for (b, &state) in best.iter_mut().zip(next) {
                    *b = (*b).max(rank_back(state));
                }
                let last = best.len() - 1;
                best[last] = best[last].max(limit);
            } else {
                // Kings only: layer 0 holds the value when it fits the plies left.
                let layer0 = state(plan.sheet(0, next_k));
                let value = match layer0.distance() {
                    Some(d) if u32::from(d) < big_h => rank(layer0.back()),
                    _ => rank(Dtc::DRAW),
                };
                best[0] = best[0].max(if big_h > 1 { value } else { limit });
            }
        }
    }
}

/// The rank, for the mover, of a move that reaches a limit, to a position whose
/// layer-0 state is `reached`: a draw, or a win when that position has no move.
fn limit(reached: Dtc) -> i32 {
    rank(if reached != Dtc::loss(0) {
        Dtc::DRAW
    } else {
        Dtc::win(1)
    })
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
