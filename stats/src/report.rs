//! Statistics reports as Markdown, CSV or JSON.

use std::fmt::Write;

use crate::stats::{Counts, Extreme, StatsReport};

/// The output formats of `damka stats`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Markdown tables, for READMEs and papers.
    Markdown,
    /// One CSV row per slice and per piece count.
    Csv,
    /// The whole report as one JSON document.
    Json,
}

/// Renders `report` in `format`; `command` is the command line that made it.
pub fn render(report: &StatsReport, format: Format, command: &str) -> String {
    match format {
        Format::Markdown => markdown(report, command),
        Format::Csv => csv(report),
        Format::Json => {
            let mut value = serde_json::to_value(report).expect("a report serialises");
            value["command"] = serde_json::Value::String(command.to_string());
            serde_json::to_string_pretty(&value).expect("a report serialises") + "\n"
        }
    }
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.2}", 100.0 * part as f64 / whole as f64)
    }
}

fn plies(extreme: &Option<Extreme>) -> String {
    extreme.as_ref().map_or("-".into(), |e| e.plies.to_string())
}

fn example(extreme: &Option<Extreme>) -> String {
    extreme
        .as_ref()
        .map_or("-".into(), |e| format!("`{}`", e.fen))
}

fn count_cells(c: &Counts) -> String {
    format!(
        "{} | {} | {} | {} | {} | {} | {}",
        c.positions,
        c.wins,
        c.draws,
        c.losses,
        percent(c.wins, c.positions),
        percent(c.draws, c.positions),
        c.captures
    )
}

fn markdown(report: &StatsReport, command: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## Damka endgame statistics: {}\n", report.variant);
    let _ = writeln!(
        out,
        "- Made by `{command}` with Damka {}.",
        report.damka_version
    );
    let _ = writeln!(out, "- Rules: {}.", report.rules);
    let _ = writeln!(
        out,
        "- Distances: {} ({} tables).",
        report.distance, report.metric
    );
    let _ = writeln!(
        out,
        "- Values are for the side to move of each slice (White; a slice's mirror has the other side to move). Distances in plies.\n"
    );
    let _ = writeln!(out, "### Per piece count\n");
    let _ = writeln!(
        out,
        "| pieces | slices | positions | wins | draws | losses | win % | draw % | must capture | longest win | longest loss |"
    );
    let _ = writeln!(
        out,
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for t in &report.totals {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            t.pieces,
            t.slices,
            count_cells(&t.counts),
            plies(&t.counts.longest_win),
            plies(&t.counts.longest_loss)
        );
    }
    let _ = writeln!(out, "\n### Per slice\n");
    let _ = writeln!(
        out,
        "| slice | positions | wins | draws | losses | win % | draw % | must capture | longest win | example | longest loss | example | table xxh3 |"
    );
    let _ = writeln!(
        out,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---|"
    );
    for s in &report.slices {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | `{}` |",
            s.slice,
            count_cells(&s.counts),
            plies(&s.counts.longest_win),
            example(&s.counts.longest_win),
            plies(&s.counts.longest_loss),
            example(&s.counts.longest_loss),
            s.checksum
        );
    }
    let _ = writeln!(out, "\n### Distance histogram per piece count\n");
    let _ = writeln!(
        out,
        "Decided positions by {} (plies: positions).\n",
        report.distance
    );
    for t in &report.totals {
        let cells: Vec<String> = t
            .counts
            .histogram
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(d, n)| format!("{d}: {n}"))
            .collect();
        let _ = writeln!(out, "- {} pieces: {}", t.pieces, cells.join(", "));
    }
    out
}

fn csv(report: &StatsReport) -> String {
    let mut out = String::from(
        "kind,name,pieces,positions,wins,draws,losses,captures,longest_win,longest_win_fen,longest_loss,longest_loss_fen,checksum,histogram\n",
    );
    let fen = |e: &Option<Extreme>| e.as_ref().map_or(String::new(), |e| e.fen.clone());
    let row =
        |out: &mut String, kind: &str, name: &str, pieces: u32, c: &Counts, checksum: &str| {
            let histogram: Vec<String> = c.histogram.iter().map(u64::to_string).collect();
            let _ = writeln!(
                out,
                "{kind},{name},{pieces},{},{},{},{},{},{},{},{},{},{checksum},{}",
                c.positions,
                c.wins,
                c.draws,
                c.losses,
                c.captures,
                c.longest_win
                    .as_ref()
                    .map_or(String::new(), |e| e.plies.to_string()),
                fen(&c.longest_win),
                c.longest_loss
                    .as_ref()
                    .map_or(String::new(), |e| e.plies.to_string()),
                fen(&c.longest_loss),
                histogram.join(";")
            );
        };
    for s in &report.slices {
        row(
            &mut out,
            "slice",
            &s.slice,
            s.pieces,
            &s.counts,
            &s.checksum,
        );
    }
    for t in &report.totals {
        row(
            &mut out,
            "total",
            &format!("{} pieces", t.pieces),
            t.pieces,
            &t.counts,
            "",
        );
    }
    out
}
