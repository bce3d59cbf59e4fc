//! `damka probe`: value, distance and best move of positions.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use damka_core::{apply, notation};
use damka_core::{International, Position, Russian, Variant, VariantKind};
use damka_probe::Tablebase;
use damka_probe::{rules::Counters, rules::RuleSet, rules::RuleTablebase};

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

/// Plies of a drawn line that `--pv` prints.
const DRAW_PV_PLIES: usize = 10;

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
    let value = tb.probe_value(&pos)?;
    let best_move = tb.best_move(&pos)?.map(|mv| notation(&pos, &mv));
    let mut pv = Vec::new();
    if with_pv {
        let mut current = pos;
        for mv in tb.principal_variation(&pos, DRAW_PV_PLIES)? {
            pv.push(notation(&current, &mv));
            current = apply(&current, &mv);
        }
    }
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
    check_in_force(rules.set(), &pos, played)?;
    let outcome = rules.probe_rules(&pos, played)?;
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
        let pv = rule_line(rules, &pos, played)?;
        line.push_str(&format!("\n  rules pv: {}", pv.join(" ")));
        output.json["rules"]["pv"] = serde_json::json!(pv);
    }
    output.text.push_str(&line);
    Ok(output)
}

/// Refuses a played count for a counter that is not in force in `pos`: the count
/// could only be a mistake (a wrong counter or a wrong position), and ignoring it
/// would answer another question than the one asked.
fn check_in_force<V: Variant>(
    set: &RuleSet,
    pos: &Position<V>,
    played: &Counters,
) -> anyhow::Result<()> {
    let in_force: Vec<&str> = set.in_force(pos).map(|c| c.id.as_str()).collect();
    if let Some((id, _)) = played
        .iter()
        .find(|&(id, plies)| plies > 0 && !in_force.contains(&id))
    {
        let list = if in_force.is_empty() {
            "none".to_string()
        } else {
            in_force.join(", ")
        };
        anyhow::bail!(
            "--played {id}: {id} is not in force in this position (in force under {}: {list})",
            set.name
        );
    }
    Ok(())
}

/// The line of rule-aware best moves from `pos` to the end of the game or of
/// the phase, at most [`DRAW_PV_PLIES`] moves for a draw.
fn rule_line<V: Variant>(
    rules: &RuleTablebase<V>,
    pos: &Position<V>,
    played: &Counters,
) -> anyhow::Result<Vec<String>> {
    let (mut current, mut counts) = (*pos, played.clone());
    let mut line = Vec::new();
    for _ in 0..200 {
        let outcome = rules.probe_rules(&current, &counts)?;
        let Some(mv) = outcome.best_move else { break };
        if outcome.distance.is_none() && line.len() >= DRAW_PV_PLIES {
            break;
        }
        line.push(notation(&current, &mv));
        counts = rules.set().advance(&counts, &current, &mv);
        let converted = mv.is_capture() || mv.is_promotion();
        current = apply(&current, &mv);
        if converted && counts.is_empty() {
            break;
        }
    }
    Ok(line)
}

fn run_variant<V: Variant>(args: &ProbeArgs) -> anyhow::Result<ExitCode> {
    let Some(spec) = &args.rules else {
        let tb = Tablebase::<V>::new(&args.dir);
        return Ok(answer_each(&args.fens, args.json, |text| {
            answer(&tb, text, args.pv)
        }));
    };
    let set = RuleSet::load_for(spec, V::KIND)?;
    let played = set.parse_counters(&args.played).context("bad --played")?;
    let rules = RuleTablebase::<V>::new(&args.dir, set);
    Ok(answer_each(&args.fens, args.json, |text| {
        answer_rules(&rules, &played, text, args.pv)
    }))
}
