//! Endgame statistics under a rule set, from the RWDL tables: per slice and per
//! piece count, how many positions are wins, cursed wins (theoretical wins the
//! rules draw), draws, blessed losses and losses, with fresh counters.
//!
//! A report can grow across machines: given an earlier report, a slice whose
//! RWDL file still has the checksum the report names is taken from it, and a
//! slice the report has but the directory does not is *carried*, as counted
//! where its file was. A set built group by group on machines that keep only
//! the groups at hand (`scripts/rules-by-group.sh`) is published this way.

use std::fmt::Write;
use std::path::Path;

use damka_core::{Slice, Variant};
use damka_formats::table::ValueKind;
use damka_formats::RuleWdl;
use damka_probe::{limits::RuleSet, limits::RuleTablebase};
use serde::{Deserialize, Serialize};

use crate::error::StatsError;
use crate::report::Format;
use crate::stats::checksum_of;
use crate::tables::tables_in;

/// The five counts of a set of positions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleCounts {
    /// Positions.
    pub positions: u64,
    /// Wins inside the rules.
    pub wins: u64,
    /// Theoretical wins drawn by the rules.
    pub cursed_wins: u64,
    /// Theoretical draws.
    pub draws: u64,
    /// Theoretical losses drawn by the rules.
    pub blessed_losses: u64,
    /// Losses inside the rules.
    pub losses: u64,
}

impl RuleCounts {
    fn add(&mut self, value: RuleWdl, n: u64) {
        self.positions += n;
        *match value {
            RuleWdl::Win => &mut self.wins,
            RuleWdl::CursedWin => &mut self.cursed_wins,
            RuleWdl::Draw => &mut self.draws,
            RuleWdl::BlessedLoss => &mut self.blessed_losses,
            RuleWdl::Loss => &mut self.losses,
        } += n;
    }

    fn merge(&mut self, other: &RuleCounts) {
        self.positions += other.positions;
        self.wins += other.wins;
        self.cursed_wins += other.cursed_wins;
        self.draws += other.draws;
        self.blessed_losses += other.blessed_losses;
        self.losses += other.losses;
    }
}

/// The rule statistics of one slice.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RuleSliceStats {
    /// The slice's name.
    pub slice: String,
    /// Its number of pieces.
    pub pieces: u32,
    /// The counts.
    #[serde(flatten)]
    pub counts: RuleCounts,
    /// XXH3-64 of the RWDL file, in hex.
    pub checksum: String,
}

/// The rule statistics of one piece count.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RulePieceStats {
    /// The number of pieces.
    pub pieces: u32,
    /// Slices counted.
    pub slices: usize,
    /// The counts.
    #[serde(flatten)]
    pub counts: RuleCounts,
}

/// A whole rule statistics report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RuleStatsReport {
    /// The Damka version that computed it.
    pub damka_version: String,
    /// The variant.
    pub variant: String,
    /// The rule set's name.
    pub rules: String,
    /// The rule set's fingerprint, as recorded in its tables.
    pub fingerprint: String,
    /// Per slice, smallest first.
    pub slices: Vec<RuleSliceStats>,
    /// Per piece count.
    pub totals: Vec<RulePieceStats>,
    /// The slices taken from an earlier report whose RWDL files were not in
    /// the directory: counted on another machine.
    #[serde(default)]
    pub carried: Vec<String>,
}

/// Counts the RWDL tables of `set` for every slice of variant `V` under `root`
/// with at most `max_pieces` pieces that has one, taking from `earlier` (a
/// report of the same variant and rule set) every slice whose file still has
/// the checksum it names, and carrying over those of its slices whose files
/// are not under `root`.
pub fn rule_stats<V: Variant>(
    root: &Path,
    set: RuleSet,
    max_pieces: Option<u32>,
    earlier: Option<&RuleStatsReport>,
    mut progress: impl FnMut(Slice),
) -> Result<RuleStatsReport, StatsError> {
    let name = set.name.clone();
    let fingerprint = format!("{:016x}", set.fingerprint());
    if let Some(e) = earlier {
        if e.variant != V::KIND.name() || e.rules != name || e.fingerprint != fingerprint {
            return Err(StatsError::Usage(format!(
                "the earlier report is of {} under `{}` (fingerprint {}), not {} under `{name}` (fingerprint {fingerprint})",
                e.variant,
                e.rules,
                e.fingerprint,
                V::KIND.name()
            )));
        }
    }
    let tables = RuleTablebase::<V>::new(root, set);
    let dir = tables.tablebase().dir().to_path_buf();
    let wanted = |s: &Slice| max_pieces.is_none_or(|m| s.pieces() <= m);
    let here: Vec<Slice> = if dir.is_dir() {
        tables_in(&dir)?
            .into_iter()
            .filter(|s| wanted(s) && tables.path(*s, ValueKind::RuleWdl).is_file())
            .collect()
    } else {
        Vec::new()
    };
    let before = earlier.map_or(&[][..], |e| e.slices.as_slice());
    let mut carried = Vec::new();
    for known in before {
        let slice: Slice = known.slice.parse().map_err(|_| {
            StatsError::Usage(format!(
                "the earlier report names `{}`, which is not a slice",
                known.slice
            ))
        })?;
        if wanted(&slice) && !here.contains(&slice) {
            carried.push((slice, known.clone()));
        }
    }
    if here.is_empty() && carried.is_empty() {
        return Err(StatsError::Usage(format!(
            "no {} tables in {} (build them with `damka gen --rules {name}`)",
            V::KIND,
            dir.display()
        )));
    }
    let mut slices = Vec::new();
    for slice in here {
        progress(slice);
        let checksum = checksum_of(&tables.path(slice, ValueKind::RuleWdl))?;
        let name = slice.name();
        let stats = match before
            .iter()
            .find(|s| s.slice == name && s.checksum == checksum)
        {
            Some(known) => known.clone(),
            None => RuleSliceStats {
                slice: name,
                pieces: slice.pieces(),
                counts: count_slice(&tables, slice)?,
                checksum,
            },
        };
        slices.push((slice, stats));
    }
    let carried_names = carried.iter().map(|(_, s)| s.slice.clone()).collect();
    slices.extend(carried);
    slices.sort_by_key(|(s, _)| (s.pieces(), s.men(), *s));
    let mut report = RuleStatsReport {
        damka_version: env!("CARGO_PKG_VERSION").to_string(),
        variant: V::KIND.name().to_string(),
        rules: name,
        fingerprint,
        slices: Vec::new(),
        totals: Vec::new(),
        carried: carried_names,
    };
    for (_, stats) in slices {
        match report.totals.last_mut() {
            Some(total) if total.pieces == stats.pieces => {
                total.slices += 1;
                total.counts.merge(&stats.counts);
            }
            _ => report.totals.push(RulePieceStats {
                pieces: stats.pieces,
                slices: 1,
                counts: stats.counts.clone(),
            }),
        }
        report.slices.push(stats);
    }
    Ok(report)
}

/// The five counts of the RWDL table of `slice`.
fn count_slice<V: Variant>(
    tables: &RuleTablebase<V>,
    slice: Slice,
) -> Result<RuleCounts, StatsError> {
    // Decoded one slice at a time and dropped: the set's RWDL tables together
    // take a byte per position (36.8 GB for Russian up to 7 pieces).
    let table = tables.decoded_table(slice, ValueKind::RuleWdl)?;
    let mut tally = [0u64; 5];
    for code in table.raw_values() {
        tally[usize::from(code.min(4))] += 1;
    }
    let mut counts = RuleCounts::default();
    for value in RuleWdl::ALL {
        counts.add(value, tally[value.code() as usize]);
    }
    Ok(counts)
}

/// The share of theoretical wins that the rules draw, in per cent.
fn cursed_share(c: &RuleCounts) -> String {
    let wins = c.wins + c.cursed_wins;
    if wins == 0 {
        "-".into()
    } else {
        format!("{:.3}", 100.0 * c.cursed_wins as f64 / wins as f64)
    }
}

fn cells(c: &RuleCounts) -> String {
    format!(
        "{} | {} | {} | {} | {} | {} | {}",
        c.positions,
        c.wins,
        c.cursed_wins,
        c.draws,
        c.blessed_losses,
        c.losses,
        cursed_share(c)
    )
}

/// Renders a rule report in `format`; `command` is the command line that made it.
pub fn render_rule_stats(report: &RuleStatsReport, format: Format, command: &str) -> String {
    let mut out = String::new();
    match format {
        Format::Json => {
            let mut value = serde_json::to_value(report).expect("a report serialises");
            value["command"] = serde_json::Value::String(command.to_string());
            out = serde_json::to_string_pretty(&value).expect("a report serialises") + "\n";
        }
        Format::Csv => {
            out.push_str("scope,name,positions,wins,cursed_wins,draws,blessed_losses,losses\n");
            let rows = report
                .slices
                .iter()
                .map(|s| ("slice", s.slice.clone(), &s.counts));
            let totals = report
                .totals
                .iter()
                .map(|t| ("pieces", t.pieces.to_string(), &t.counts));
            for (scope, name, c) in rows.chain(totals) {
                let _ = writeln!(
                    out,
                    "{scope},{name},{},{},{},{},{},{}",
                    c.positions, c.wins, c.cursed_wins, c.draws, c.blessed_losses, c.losses
                );
            }
        }
        Format::Markdown => {
            let _ = writeln!(
                out,
                "## Damka rule statistics: {} under `{}`\n",
                report.variant, report.rules
            );
            let _ = writeln!(
                out,
                "- Made by `{command}` with Damka {}.",
                report.damka_version
            );
            let _ = writeln!(
                out,
                "- Values with fresh counters, for the side to move of each slice (White); rule set fingerprint `{}`.",
                report.fingerprint
            );
            if !report.carried.is_empty() {
                let _ = writeln!(
                    out,
                    "- {} of the slices were carried from an earlier report: counted on other machines, from the RWDL files whose XXH3 the last column gives.",
                    report.carried.len()
                );
            }
            let _ = writeln!(out, "- Cursed win: a theoretical win the rules draw; blessed loss: a theoretical loss the rules draw.\n");
            let head = "| positions | wins | cursed wins | draws | blessed losses | losses | cursed % of wins |";
            let rule = "|---:|---:|---:|---:|---:|---:|---:|";
            let _ = writeln!(
                out,
                "### Per piece count\n\n| pieces | slices {head}\n|---:|---:{rule}"
            );
            for t in &report.totals {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} |",
                    t.pieces,
                    t.slices,
                    cells(&t.counts)
                );
            }
            let _ = writeln!(
                out,
                "\n### Per slice\n\n| slice {head} rwdl xxh3 |\n|---{rule}---|"
            );
            for s in &report.slices {
                let _ = writeln!(
                    out,
                    "| {} | {} | `{}` |",
                    s.slice,
                    cells(&s.counts),
                    s.checksum
                );
            }
        }
    }
    out
}
