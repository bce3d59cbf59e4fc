//! `damka probe`: value, distance and best move of positions.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use damka_core::{International, Position, Russian, Variant, VariantKind};
use damka_probe::limits::{Counters, RuleSet, RuleTablebase};
use damka_probe::Tablebase;
use damka_server::json::{ProbeJson, RulesJson};

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
    let json = ProbeJson::of(tb, text, &pos, with_pv)?;
    let distance = json
        .dtw
        .map(|d| format!(" in {d} plies"))
        .unwrap_or_default();
    let best = json
        .best_move
        .as_ref()
        .map(|m| format!(", best move {m}"))
        .unwrap_or_default();
    let mtc = match json.mtc {
        Some(Some(d)) => format!(", MTC {d} plies"),
        _ => String::new(),
    };
    let mut text = format!("{text}: {}{distance}{mtc}{best}", json.wdl);
    if let Some(pv) = &json.pv {
        text.push_str(&format!("\n  pv: {}", pv.join(" ")));
    }
    Ok(Output {
        json: serde_json::to_value(&json)?,
        text,
    })
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
    let json = RulesJson::of(rules, &mut rules.session(None), played, &pos, with_pv)?;
    let mut line = format!("\n  rules {}: {}", json.set, json.wdl);
    if let Some(rule) = &json.rule {
        line.push_str(&format!(" (drawn by {rule})"));
    }
    if let Some(d) = json.distance {
        line.push_str(&format!(", {d} plies to the end of the phase"));
    }
    if let Some(mv) = &json.best_move {
        line.push_str(&format!(", best move {mv}"));
    }
    if let Some(d) = json.dtz {
        line.push_str(&format!(", DTZ {d} plies"));
    }
    if let Some(reason) = &json.reason {
        line.push_str(&format!(" ({reason})"));
    }
    if let Some(pv) = &json.pv {
        line.push_str(&format!("\n  rules pv: {}", pv.join(" ")));
    }
    output.json["rules"] = serde_json::to_value(&json)?;
    output.text.push_str(&line);
    Ok(output)
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
