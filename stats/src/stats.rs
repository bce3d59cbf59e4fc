//! Endgame statistics from built tables: per slice and per piece count, the win,
//! draw and loss counts, the capture positions, the longest win and loss with an
//! example, and the distribution of distances: distances to win from the DTW
//! tables, or moves to conversion from the MTC tables ([`Metric`]).
//!
//! Every figure is for the side to move of the slice (White, by the slice
//! convention: a slice's mirror holds the same material with the other side to
//! move), with no move-limit rules.

use std::path::Path;

use damka_core::has_capture;
use damka_core::{BlockWalk, Slice, Variant};
use damka_formats::{table::hash, table::ValueKind};
use damka_formats::{Dtc, Value, Wdl};
use damka_probe::Tablebase;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::StatsError;
use crate::tables::tables_in;

/// The distance a report counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Distance to win, from the DTW tables.
    Dtw,
    /// Moves to conversion, from the MTC tables (`formats/FORMAT.md`, "MTC
    /// tables"): the longest win per slice is Kingsrow's "HighMtc".
    Mtc,
}

impl Metric {
    /// `dtw` or `mtc`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Dtw => "dtw",
            Metric::Mtc => "mtc",
        }
    }

    /// `distance to win` or `moves to conversion`.
    pub fn distance(self) -> &'static str {
        match self {
            Metric::Dtw => "distance to win",
            Metric::Mtc => "moves to conversion",
        }
    }

    /// The kind of the tables it reads.
    fn kind(self) -> ValueKind {
        match self {
            Metric::Dtw => ValueKind::Dtw,
            Metric::Mtc => ValueKind::Mtc,
        }
    }
}

/// The longest win or loss of a slice, with one position that has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Extreme {
    /// The distance in plies.
    pub plies: u16,
    /// A position at that distance (canonical FEN).
    pub fen: String,
}

/// Counts over a set of positions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Positions.
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// Positions whose side to move must capture.
    pub captures: u64,
    /// The longest win.
    pub longest_win: Option<Extreme>,
    /// The longest loss.
    pub longest_loss: Option<Extreme>,
    /// `histogram[d]`: decided positions at distance `d` plies.
    pub histogram: Vec<u64>,
}

impl Counts {
    /// Adds one position, `wdl` at distance `distance` (`None` for a draw).
    fn add(
        &mut self,
        wdl: Wdl,
        distance: Option<u16>,
        capture: bool,
        fen: impl FnOnce() -> String,
    ) {
        self.positions += 1;
        self.captures += capture as u64;
        let Some(d) = distance else {
            self.draws += 1;
            return;
        };
        if self.histogram.len() <= d as usize {
            self.histogram.resize(d as usize + 1, 0);
        }
        self.histogram[d as usize] += 1;
        let (count, extreme) = match wdl {
            Wdl::Win => (&mut self.wins, &mut self.longest_win),
            _ => (&mut self.losses, &mut self.longest_loss),
        };
        *count += 1;
        if extreme.as_ref().is_none_or(|e| d > e.plies) {
            *extreme = Some(Extreme {
                plies: d,
                fen: fen(),
            });
        }
    }

    /// Folds another set of counts into this one. Of two extremes of equal length,
    /// the one already here is kept, so results do not depend on thread timing when
    /// merged in index order.
    pub fn merge(&mut self, other: &Counts) {
        self.positions += other.positions;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.captures += other.captures;
        for (mine, theirs) in [
            (&mut self.longest_win, &other.longest_win),
            (&mut self.longest_loss, &other.longest_loss),
        ] {
            if let Some(t) = theirs {
                if mine.as_ref().is_none_or(|m| t.plies > m.plies) {
                    *mine = Some(t.clone());
                }
            }
        }
        if self.histogram.len() < other.histogram.len() {
            self.histogram.resize(other.histogram.len(), 0);
        }
        for (mine, theirs) in self.histogram.iter_mut().zip(&other.histogram) {
            *mine += theirs;
        }
    }
}

/// The statistics of one slice.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SliceStats {
    /// The slice's name.
    pub slice: String,
    /// Its number of pieces.
    pub pieces: u32,
    /// The figures.
    #[serde(flatten)]
    pub counts: Counts,
    /// XXH3-64 of the table file, in hex, so a figure can be traced to its file.
    pub checksum: String,
}

/// The totals of one piece count.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PieceStats {
    /// The number of pieces.
    pub pieces: u32,
    /// Slices counted.
    pub slices: usize,
    /// The figures.
    #[serde(flatten)]
    pub counts: Counts,
}

/// A whole statistics report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StatsReport {
    /// The Damka version that computed it.
    pub damka_version: String,
    /// The variant.
    pub variant: String,
    /// The rule semantics of the values.
    pub rules: String,
    /// The distance counted: `dtw` or `mtc` ([`Metric::name`]).
    pub metric: String,
    /// What the distances are: `distance to win` or `moves to conversion`.
    pub distance: String,
    /// Per slice, smallest first.
    pub slices: Vec<SliceStats>,
    /// Per piece count.
    pub totals: Vec<PieceStats>,
}

/// Computes the statistics of one slice's table of `metric`.
pub fn slice_stats<V: Variant>(
    tablebase: &Tablebase<V>,
    slice: Slice,
    metric: Metric,
) -> Result<SliceStats, StatsError> {
    slice_stats_reusing(tablebase, slice, metric, &[])
}

/// [`slice_stats`], or the figures `earlier` holds for the slice when its table
/// file has the checksum they were counted from (the file is hashed once either
/// way).
fn slice_stats_reusing<V: Variant>(
    tablebase: &Tablebase<V>,
    slice: Slice,
    metric: Metric,
    earlier: &[SliceStats],
) -> Result<SliceStats, StatsError> {
    let path = tablebase.path(slice, metric.kind());
    let name = slice.name();
    let mut checksum = None;
    if !earlier.is_empty() && path.is_file() {
        let sum = checksum_of(&path)?;
        if let Some(known) = earlier
            .iter()
            .find(|s| s.slice == name && s.checksum == sum)
        {
            return Ok(known.clone());
        }
        checksum = Some(sum);
    }
    let table = tablebase.decoded_table(slice, metric.kind())?;
    let indexer = table.indexer();
    const CHUNK: u64 = 1 << 15;
    let k = indexer.king_placements();
    let parts: Vec<Counts> = (0..indexer.size().div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut counts = Counts::default();
            // The positions in index order, walked block by block (no unranking).
            let (first, end) = (c * CHUNK, ((c + 1) * CHUNK).min(indexer.size()));
            let mut index = first;
            while index < end {
                let (men, offset) = (index / k, index % k);
                let span = (k - offset).min(end - index);
                for (i, pos) in BlockWalk::new(indexer, men, offset)
                    .take(span as usize)
                    .enumerate()
                {
                    let raw = table.raw_at((index + i as u64) as usize);
                    // Both kinds hold every position exactly, capture positions included.
                    let (wdl, distance) = match metric {
                        Metric::Dtw => {
                            let value = Value::from_raw(raw);
                            (value.wdl(), value.dtw())
                        }
                        Metric::Mtc => {
                            let value = Dtc::from_raw(raw);
                            (value.wdl(), value.distance())
                        }
                    };
                    counts.add(wdl, distance, has_capture(&pos), || pos.to_string());
                }
                index += span;
            }
            counts
        })
        .collect();
    let mut counts = Counts::default();
    for part in &parts {
        counts.merge(part);
    }
    Ok(SliceStats {
        slice: name,
        pieces: slice.pieces(),
        counts,
        checksum: match checksum {
            Some(sum) => sum,
            None => checksum_of(&path)?,
        },
    })
}

/// The XXH3-64 of a table file, in hex.
pub(crate) fn checksum_of(path: &Path) -> Result<String, StatsError> {
    let bytes = std::fs::read(path)
        .map_err(|e| StatsError::Usage(format!("cannot read {}: {e}", path.display())))?;
    Ok(format!("{:016x}", hash(&bytes)))
}

/// Computes the statistics of every DTW table of variant `V` under `root` with
/// at most `max_pieces` pieces: [`metric_stats`] of [`Metric::Dtw`].
pub fn stats<V: Variant>(
    root: &Path,
    max_pieces: Option<u32>,
    progress: impl FnMut(Slice),
) -> Result<StatsReport, StatsError> {
    metric_stats::<V>(root, max_pieces, Metric::Dtw, progress)
}

/// Computes the statistics of every table of `metric` of variant `V` under `root`
/// with at most `max_pieces` pieces. Fails with a clear message when there is no
/// table, or when a table needed to resolve captures is missing.
pub fn metric_stats<V: Variant>(
    root: &Path,
    max_pieces: Option<u32>,
    metric: Metric,
    progress: impl FnMut(Slice),
) -> Result<StatsReport, StatsError> {
    metric_stats_reusing::<V>(root, max_pieces, metric, None, progress)
}

/// [`metric_stats`], taking the figures of a slice from the report `earlier`
/// (of the same variant and metric) wherever the slice's table file still has
/// the checksum it was counted from, so that a report can be built up over
/// several runs while the tables are being written.
pub fn metric_stats_reusing<V: Variant>(
    root: &Path,
    max_pieces: Option<u32>,
    metric: Metric,
    earlier: Option<&StatsReport>,
    mut progress: impl FnMut(Slice),
) -> Result<StatsReport, StatsError> {
    let earlier = match earlier {
        Some(report) if report.variant != V::KIND.name() || report.metric != metric.name() => {
            return Err(StatsError::Usage(format!(
                "the earlier report is of {} {} tables, not {} {}",
                report.variant,
                report.metric,
                V::KIND.name(),
                metric.name()
            )));
        }
        Some(report) => report.slices.as_slice(),
        None => &[],
    };
    let tablebase = Tablebase::<V>::new(root);
    let dir = tablebase.dir().to_path_buf();
    if !dir.is_dir() {
        return Err(StatsError::Usage(format!(
            "no {} tables: {} does not exist (build them with `damka gen`)",
            V::KIND,
            dir.display()
        )));
    }
    let slices: Vec<Slice> = tables_in(&dir)?
        .into_iter()
        .filter(|s| max_pieces.is_none_or(|m| s.pieces() <= m))
        .filter(|s| metric == Metric::Dtw || tablebase.path(*s, metric.kind()).is_file())
        .collect();
    if slices.is_empty() {
        let (what, how) = match metric {
            Metric::Dtw => ("", "damka gen"),
            Metric::Mtc => (" MTC", "damka gen --metric mtc"),
        };
        return Err(StatsError::Usage(format!(
            "no {}{what} tables in {} (build them with `{how}`)",
            V::KIND,
            dir.display()
        )));
    }
    let mut report = StatsReport {
        damka_version: env!("CARGO_PKG_VERSION").to_string(),
        variant: V::KIND.name().to_string(),
        rules: "none: game-theoretic values with no move-limit rules".to_string(),
        metric: metric.name().to_string(),
        distance: metric.distance().to_string(),
        slices: Vec::new(),
        totals: Vec::new(),
    };
    for slice in slices {
        progress(slice);
        let stats = slice_stats_reusing(&tablebase, slice, metric, earlier)?;
        match report.totals.last_mut() {
            Some(total) if total.pieces == stats.pieces => {
                total.slices += 1;
                total.counts.merge(&stats.counts);
            }
            _ => report.totals.push(PieceStats {
                pieces: stats.pieces,
                slices: 1,
                counts: stats.counts.clone(),
            }),
        }
        report.slices.push(stats);
    }
    Ok(report)
}
