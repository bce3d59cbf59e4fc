//! `damka perft`: counts the move tree, to check the move generator.

use std::process::ExitCode;

use anyhow::Context;
use damka_core::{apply, generate, perft, International, Position, Russian, Variant, VariantKind};
use rayon::prelude::*;

/// Arguments of `damka perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// The variant: `russian` or `international`.
    #[arg(long)]
    pub variant: VariantKind,
    /// The deepest depth to count; every depth from 1 is printed.
    #[arg(long)]
    pub depth: u32,
    /// The start position in PDN FEN (default: the initial position).
    #[arg(long)]
    pub fen: Option<String>,
}

/// Prints `perft <depth> <nodes>` for each depth from 1 to `--depth`.
pub fn run(args: &PerftArgs) -> anyhow::Result<ExitCode> {
    match args.variant {
        VariantKind::Russian => run_variant::<Russian>(args),
        VariantKind::International => run_variant::<International>(args),
    }
}

fn run_variant<V: Variant>(args: &PerftArgs) -> anyhow::Result<ExitCode> {
    let pos = match &args.fen {
        Some(fen) => fen
            .parse::<Position<V>>()
            .with_context(|| format!("bad --fen `{fen}`"))?,
        None => Position::initial(),
    };
    for depth in 1..=args.depth {
        println!("perft {depth} {}", parallel_perft(&pos, depth));
    }
    Ok(ExitCode::SUCCESS)
}

/// Perft with the root moves counted on all threads.
fn parallel_perft<V: Variant>(pos: &Position<V>, depth: u32) -> u64 {
    if depth < 2 {
        return perft(pos, depth);
    }
    let mut moves = Vec::new();
    generate(pos, &mut moves);
    moves
        .par_iter()
        .map(|mv| perft(&apply(pos, mv), depth - 1))
        .sum()
}
