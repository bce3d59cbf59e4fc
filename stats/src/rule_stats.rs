//! Endgame statistics under a rule set, from the RWDL tables: per slice and per
//! piece count, how many positions are wins, cursed wins (theoretical wins the
//! rules draw), draws, blessed losses and losses, with fresh counters.

use std::fmt::Write;
use std::path::Path;

use damka_core::{Slice, Variant};
use damka_formats::table::ValueKind;
use damka_formats::RuleWdl;
use damka_probe::{limits::RuleSet, limits::RuleTablebase};
use serde::Serialize;

use crate::error::StatsError;
use crate::report::Format;
use crate::stats::checksum_of;
use crate::tables::tables_in;

/// The five counts of a set of positions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
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
#[derive(Debug, Clone, Serialize)]
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
#[derive(Debug, Clone, Serialize)]
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
#[derive(Debug, Clone, Serialize)]
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
}

/// Counts the RWDL tables of `set` for every slice of variant `V` under `root`
/// with at most `max_pieces` pieces.
pub fn rule_stats<V: Variant>(
    root: &Path,
    set: RuleSet,
    max_pieces: Option<u32>,
    mut progress: impl FnMut(Slice),
) -> Result<RuleStatsReport, StatsError> {
    let name = set.name.clone();
    let fingerprint = set.fingerprint();
    let tables = RuleTablebase::<V>::new(root, set);
    let dir = tables.tablebase().dir().to_path_buf();
    let slices: Vec<Slice> = if dir.is_dir() {
        tables_in(&dir)?
            .into_iter()
            .filter(|s| max_pieces.is_none_or(|m| s.pieces() <= m))
            .collect()
    } else {
        Vec::new()
    };
    if slices.is_empty() {
        return Err(StatsError::Usage(format!(
            "no {} tables in {} (build them with `damka gen --rules {name}`)",
            V::KIND,
            dir.display()
        )));
    }
    let mut report = RuleStatsReport {
        damka_version: env!("CARGO_PKG_VERSION").to_string(),
        variant: V::KIND.name().to_string(),
        rules: name,
        fingerprint: format!("{fingerprint:016x}"),
        slices: Vec::new(),
        totals: Vec::new(),
    };
    for slice in slices {
        progress(slice);
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
        let checksum = checksum_of(&tables.path(slice, ValueKind::RuleWdl))?;
        match report.totals.last_mut() {
            Some(total) if total.pieces == slice.pieces() => {
                total.slices += 1;
                total.counts.merge(&counts);
            }
            _ => report.totals.push(RulePieceStats {
                pieces: slice.pieces(),
                slices: 1,
                counts: counts.clone(),
            }),
        }
        report.slices.push(RuleSliceStats {
            slice: slice.name(),
            pieces: slice.pieces(),
            counts,
            checksum,
        });
    }
    Ok(report)
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
