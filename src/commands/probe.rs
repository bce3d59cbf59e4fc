//! `damka probe`: value, distance and best move of positions.

use std::path::PathBuf;
use std::process::ExitCode;

use damka_formats::{International, Position, Russian, Variant, VariantKind};
use damka_probe::{apply, notation, Tablebase};

use super::input::inputs;

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

/// The answer for one position.
struct Answer {
    value: damka_formats::Value,
    best_move: Option<String>,
    pv: Vec<String>,
}

fn answer<V: Variant>(tb: &Tablebase<V>, text: &str, with_pv: bool) -> anyhow::Result<Answer> {
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
    Ok(Answer {
        value,
        best_move,
        pv,
    })
}

fn run_variant<V: Variant>(args: &ProbeArgs) -> ExitCode {
    let tb = Tablebase::<V>::new(&args.dir);
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
        match answer(&tb, &input.text, args.pv) {
            Ok(a) => {
                if args.json {
                    let mut line = serde_json::json!({
                        "fen": input.text,
                        "wdl": a.value.wdl().name(),
                        "dtw": a.value.dtw(),
                        "best_move": a.best_move,
                    });
                    if args.pv {
                        line["pv"] = serde_json::json!(a.pv);
                    }
                    println!("{line}");
                } else {
                    let distance = match a.value.dtw() {
                        Some(d) => format!(" in {d} plies"),
                        None => String::new(),
                    };
                    let best = a
                        .best_move
                        .map(|m| format!(", best move {m}"))
                        .unwrap_or_default();
                    println!("{}: {}{distance}{best}", input.text, a.value.wdl());
                    if args.pv {
                        println!("  pv: {}", a.pv.join(" "));
                    }
                }
            }
            Err(error) => {
                ok = false;
                if args.json {
                    println!(
                        "{}",
                        serde_json::json!({"fen": input.text, "error": format!("{error:#}")})
                    );
                }
                eprintln!("damka: {}: {error:#}: `{}`", input.label, input.text);
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
