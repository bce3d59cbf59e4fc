//! `damka rules`: shows a move-limit rule set, a preset or a TOML file, as a table.

use std::process::ExitCode;

use damka_core::VariantKind;
use damka_probe::{limits::Counter, limits::Limit, limits::RuleSet};

/// Arguments of `damka rules`.
#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    /// The rule set: a preset (`russian`, `russian-1900`, `fmjd`, `none`) or a TOML
    /// file (see docs/rules/example.toml).
    #[arg(long, value_name = "PRESET|FILE")]
    pub show: String,
    /// Fail unless the set is written for this variant (`russian` or `international`).
    #[arg(long)]
    pub variant: Option<VariantKind>,
    /// Print the set as TOML, a starting point for a custom file, instead of a table.
    #[arg(long)]
    pub toml: bool,
}

/// Prints the set: a header, one row per counter (one per band when the limit
/// depends on the piece count), then each counter's description and notes.
pub fn run(args: &RulesArgs) -> anyhow::Result<ExitCode> {
    let set = match args.variant {
        Some(variant) => RuleSet::load_for(&args.show, variant)?,
        None => RuleSet::load(&args.show)?,
    };
    if args.toml {
        print!("{}", set.to_toml()?);
    } else {
        print!("{}", render(&set));
    }
    Ok(ExitCode::SUCCESS)
}

/// Column titles of the table; the two limit columns say their unit.
const HEADER: [&str; 7] = [
    "id",
    "applies to",
    "condition",
    "resets on",
    "limit (moves)",
    "limit (plies)",
    "draws",
];

/// Width the description and notes are wrapped to.
const TEXT_WIDTH: usize = 88;

/// The whole text `damka rules --show` prints.
fn render(set: &RuleSet) -> String {
    let mut out = String::new();
    out.push_str(&format!("rule set: {}\n", set.name));
    let variant = set.variant.map_or("any", VariantKind::name);
    out.push_str(&format!("variant:  {variant}\n"));
    if !set.description.is_empty() {
        out.push_str(&wrap(&set.description, "about:    ", "          "));
    }
    out.push_str("Limits are in moves; one move is a turn of each player, 2 plies.\n\n");
    if set.counters.is_empty() {
        out.push_str("No counters: every value is the plain game-theoretic one.\n");
    } else {
        let rows: Vec<[String; 7]> = set.counters.iter().flat_map(rows).collect();
        out.push_str(&table(&rows));
    }
    for note in &set.notes {
        out.push('\n');
        out.push_str(&wrap(note, "note: ", "      "));
    }
    let id_width = set.counters.iter().map(|c| c.id.len()).max().unwrap_or(0);
    let indent = " ".repeat(id_width + 2);
    for counter in &set.counters {
        out.push('\n');
        let first = format!("{:<width$}", counter.id, width = indent.len());
        out.push_str(&wrap(&counter.description, &first, &indent));
        for note in &counter.notes {
            out.push_str(&wrap(note, &format!("{indent}- "), &format!("{indent}  ")));
        }
    }
    out
}

/// The table rows of one counter: one, or one per band of a piece-count limit.
fn rows(counter: &Counter) -> Vec<[String; 7]> {
    let condition = counter
        .condition
        .map_or_else(|| "-".to_string(), |c| c.to_string());
    let row = |applies: String, moves: u32| {
        [
            counter.id.clone(),
            applies,
            condition.clone(),
            counter.resets.to_string(),
            moves.to_string(),
            moves.saturating_mul(2).to_string(),
            if counter.draws { "yes" } else { "no" }.to_string(),
        ]
    };
    match &counter.limit {
        Limit::Moves(moves) => vec![row(counter.applies.to_string(), *moves)],
        Limit::ByPieces(bands) => bands
            .iter()
            .map(|band| {
                row(
                    format!("{}, {} pieces", counter.applies, band.pieces),
                    band.moves,
                )
            })
            .collect(),
    }
}

/// Columns padded to their widest cell, two spaces apart; numbers right-aligned.
fn table(rows: &[[String; 7]]) -> String {
    let mut widths = HEADER.map(str::len);
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let numeric = [false, false, false, false, true, true, false];
    let line = |cells: &[String; 7]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths)
            .zip(numeric)
            .map(|((cell, width), right)| {
                if right {
                    format!("{cell:>width$}")
                } else {
                    format!("{cell:<width$}")
                }
            })
            .collect();
        format!("{}\n", padded.join("  ").trim_end())
    };
    let mut out = line(&HEADER.map(String::from));
    out.push_str(&line(&widths.map(|w| "-".repeat(w))));
    for row in rows {
        out.push_str(&line(row));
    }
    out
}

/// `text` wrapped at word boundaries to [`TEXT_WIDTH`], the first line starting
/// with `first` and the others with `rest`.
fn wrap(text: &str, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.chars().count() + 1 + word.chars().count() > TEXT_WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}
