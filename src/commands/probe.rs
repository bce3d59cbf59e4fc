//! `damka probe`: value, distance and best move of positions.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use damka_core::{apply, notation, Move};
use damka_core::{International, Position, Russian, Variant, VariantKind};
use damka_probe::limits::{Counters, RuleSet, RuleTablebase};
use damka_probe::Tablebase;

use super::input::{answer_each, Output};

/// Arguments of `damka probe`.
#[derive(Debug, clap::Args)]
pub struct ProbeArgs {
    /// The variant: `russian` or `international`.
    #[arg(long)]
    pub variant: VariantKind,
    /// The tables' root directory.
    #[arg(long, default_value = "tables")]
    pub dir: PathBuf,
    /// Print one JSON object per input line.
    #[arg(long)]
    pub json: bool,
    /// Also print the principal variation (best line to the end of the game;
    /// with `--rules`, the line under the rules to the end of the phase).
    #[arg(long)]
    pub pv: bool,
    /// Also answer under this rule set: a preset (`russian`, `russian-1900`,
    /// `fmjd`, `none`) or a TOML file. Needs its rule tables (`damka gen --rules`).
    #[arg(long)]
    pub rules: Option<String>,
    /// With `--rules`: the moves of each counter already played, e.g. `R1=9,R4=3`
    /// (`.5` for one ply more: `R1=9.5`).
    #[arg(long, default_value = "", requires = "rules")]
    pub played: String,
    /// Positions in PDN FEN; when none are given, one per line is read from stdin.
    pub fens: Vec<String>,
}

/// Probes every input; fails if any input could not be answered.
pub fn run(args: &ProbeArgs) -> anyhow::Result<ExitCode> {
    match args.variant {
        VariantKind::Russian => run_variant::<Russian>(args),
        VariantKind::International => run_variant::<International>(args),
    }
}

/// Probes one position.
fn answer<V: Variant>(tb: &Tablebase<V>, text: &str, with_pv: bool) -> anyhow::Result<Output> {
    let pos: Position<V> = text.parse()?;
    let value = tb.probe_value(pos)?;
    let best_move = tb.best_move(pos)?.map(|mv| notation(&pos, &mv));
    let pv = if with_pv {
        line_notation(&pos, &tb.pv(pos)?)
    } else {
        Vec::new()
    };
    let mut json = serde_json::json!({
        "fen": text,
        "wdl": value.wdl().name(),
        "dtw": value.dtw(),
        "best_move": best_move,
    });
    let distance = value
        .dtw()
        .map(|d| format!(" in {d} plies"))
        .unwrap_or_default();
    let best = best_move
        .map(|m| format!(", best move {m}"))
        .unwrap_or_default();
    let mut text = format!("{text}: {}{distance}{best}", value.wdl());
    if with_pv {
        json["pv"] = serde_json::json!(pv);
        text.push_str(&format!("\n  pv: {}", pv.join(" ")));
    }
    Ok(Output { json, text })
}

/// Probes one position under a rule set: the game-theoretic answer, then the
/// rule answer beside it.
fn answer_rules<V: Variant>(
    rules: &RuleTablebase<V>,
    played: &Counters,
    text: &str,
    with_pv: bool,
) -> anyhow::Result<Output> {
    let mut output = answer(rules.tablebase(), text, with_pv)?;
    let pos: Position<V> = text.parse()?;
    let outcome = rules.probe_rules(pos, played)?;
    let best_move = outcome.best_move.map(|mv| notation(&pos, &mv));
    let wdl = outcome.wdl.map_or("unknown", |w| w.name());
    let dtz = rules.dtz(&pos)?.and_then(|v| v.distance());
    output.json["rules"] = serde_json::json!({
        "set": rules.set().name,
        "played": played.to_string(),
        "wdl": wdl,
        "rule": outcome.rule,
        "distance": outcome.distance,
        "best_move": best_move,
        "dtz": dtz,
    });
    let mut line = format!("\n  rules {}: {wdl}", rules.set().name);
    if let Some(rule) = &outcome.rule {
        line.push_str(&format!(" (drawn by {rule})"));
    }
    if let Some(d) = outcome.distance {
        line.push_str(&format!(", {d} plies to the end of the phase"));
    }
    if let Some(mv) = &best_move {
        line.push_str(&format!(", best move {mv}"));
    }
    if let Some(d) = dtz {
        line.push_str(&format!(", DTZ {d} plies"));
    }
    if let Some(reason) = &outcome.unknown {
        output.json["rules"]["reason"] = serde_json::json!(reason);
        line.push_str(&format!(" ({reason})"));
    }
    if with_pv {
        let pv = line_notation(&pos, &rules.pv_rules(pos, played)?);
        line.push_str(&format!("\n  rules pv: {}", pv.join(" ")));
        output.json["rules"]["pv"] = serde_json::json!(pv);
    }
    output.text.push_str(&line);
    Ok(output)
}

/// The notation of each move of `line`, played from `pos`.
fn line_notation<V: Variant>(pos: &Position<V>, line: &[Move]) -> Vec<String> {
    let mut current = *pos;
    line.iter()
        .map(|mv| {
            let text = notation(&current, mv);
            current = apply(&current, mv);
            text
        })
        .collect()
}

fn run_variant<V: Variant>(args: &ProbeArgs) -> anyhow::Result<ExitCode> {
    let Some(spec) = &args.rules else {
        let tb = Tablebase::<V>::open(&args.dir)?;
        return Ok(answer_each(&args.fens, args.json, |text| {
            answer(&tb, text, args.pv)
        }));
    };
    let set = RuleSet::load_for(spec, V::KIND)?;
    let played = set.parse_counters(&args.played).context("bad --played")?;
    let rules = RuleTablebase::<V>::open(&args.dir, set)?;
    Ok(answer_each(&args.fens, args.json, |text| {
        answer_rules(&rules, &played, text, args.pv)
    }))
}
