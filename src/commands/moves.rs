//! `damka moves`: lists the legal moves of positions, as text or JSON lines.

use std::process::ExitCode;

use damka_core::{apply, legal_moves, notation};
use damka_core::{International, Position, Russian, Variant, VariantKind};
use damka_server::json::MovesJson;

use super::input::{answer_each, Output};

/// Arguments of `damka moves`.
#[derive(Debug, clap::Args)]
pub struct MovesArgs {
    /// The variant: `russian` or `international`.
    #[arg(long)]
    pub variant: VariantKind,
    /// Print one JSON object per input line.
    #[arg(long)]
    pub json: bool,
    /// Positions in PDN FEN; when none are given, one per line is read from stdin.
    pub fens: Vec<String>,
}

/// Lists the moves of every input; fails if any input was bad.
pub fn run(args: &MovesArgs) -> anyhow::Result<ExitCode> {
    Ok(match args.variant {
        VariantKind::Russian => run_variant::<Russian>(args),
        VariantKind::International => run_variant::<International>(args),
    })
}

fn run_variant<V: Variant>(args: &MovesArgs) -> ExitCode {
    answer_each(&args.fens, args.json, |text| {
        let pos: Position<V> = text.parse()?;
        let moves = legal_moves(&pos);
        let mut lines = vec![format!("{pos} ({} moves)", moves.len())];
        for mv in &moves {
            lines.push(format!("  {:<16} {}", notation(&pos, mv), apply(&pos, mv)));
        }
        Ok(Output {
            json: serde_json::to_value(MovesJson::of(text, &pos))?,
            text: lines.join("\n"),
        })
    })
}
