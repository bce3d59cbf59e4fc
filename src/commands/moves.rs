//! `damka moves`: lists the legal moves of positions, as text or JSON lines.

use std::process::ExitCode;

use damka_core::{apply, legal_moves, notation, path, Move};
use damka_core::{International, Position, Russian, Variant, VariantKind};
use serde::Serialize;

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

/// One move as printed by `--json`.
#[derive(Serialize)]
struct MoveJson {
    from: String,
    to: String,
    captures: Vec<String>,
    path: Vec<String>,
    notation: String,
    after: String,
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
        let list: Vec<MoveJson> = moves.iter().map(|mv| move_json(&pos, mv)).collect();
        let mut lines = vec![format!("{pos} ({} moves)", moves.len())];
        for mv in &moves {
            lines.push(format!("  {:<16} {}", notation(&pos, mv), apply(&pos, mv)));
        }
        Ok(Output {
            json: serde_json::json!({"fen": text, "moves": list}),
            text: lines.join("\n"),
        })
    })
}

fn move_json<V: Variant>(pos: &Position<V>, mv: &Move) -> MoveJson {
    let name = |s: &usize| V::square_name(*s);
    let mut captures: Vec<String> = mv.captured_squares::<V>().iter().map(name).collect();
    captures.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
    MoveJson {
        from: V::square_name(mv.from_square::<V>()),
        to: V::square_name(mv.to_square::<V>()),
        captures,
        path: path(pos, mv).iter().map(name).collect(),
        notation: notation(pos, mv),
        after: apply(pos, mv).to_string(),
    }
}
