//! `damka moves`: lists the legal moves of positions, as text or JSON lines.

use std::process::ExitCode;

use damka_formats::{International, Position, Russian, Variant, VariantKind};
use damka_probe::{apply, legal_moves, notation, path, Move};
use serde::Serialize;

use super::input::inputs;

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
    let mut ok = true;
    for item in inputs(&args.fens) {
        let input = match item {
            Ok(input) => input,
            Err(message) => {
                eprintln!("damka: {message}");
                ok = false;
                break;
            }
        };
        match input.text.parse::<Position<V>>() {
            Ok(pos) => {
                let moves = legal_moves(&pos);
                if args.json {
                    let list: Vec<MoveJson> = moves.iter().map(|mv| move_json(&pos, mv)).collect();
                    println!("{}", serde_json::json!({"fen": input.text, "moves": list}));
                } else {
                    println!("{pos} ({} moves)", moves.len());
                    for mv in &moves {
                        println!("  {:<16} {}", notation(&pos, mv), apply(&pos, mv));
                    }
                }
            }
            Err(error) => {
                ok = false;
                if args.json {
                    println!(
                        "{}",
                        serde_json::json!({"fen": input.text, "error": error.to_string()})
                    );
                }
                eprintln!("damka: {}: {error}: `{}`", input.label, input.text);
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
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
