//! `damka probe`: value, distance and best move of positions.

use std::path::PathBuf;
use std::process::ExitCode;

use damka_formats::{International, Position, Russian, Variant, VariantKind};
use damka_probe::{apply, notation, Tablebase};

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
    /// Also print the principal variation (best line to the end of the game).
    #[arg(long)]
    pub pv: bool,
    /// Positions in PDN FEN; when none are given, one per line is read from stdin.
    pub fens: Vec<String>,
}

/// Plies of a drawn line that `--pv` prints.
const DRAW_PV_PLIES: usize = 10;

/// Probes every input; fails if any input could not be answered.
pub fn run(args: &ProbeArgs) -> anyhow::Result<ExitCode> {
    Ok(match args.variant {
        VariantKind::Russian => run_variant::<Russian>(args),
        VariantKind::International => run_variant::<International>(args),
    })
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

fn run_variant<V: Variant>(args: &ProbeArgs) -> ExitCode {
    let tb = Tablebase::<V>::new(&args.dir);
    answer_each(&args.fens, args.json, |text| answer(&tb, text, args.pv))
}
