//! `damka`: build and probe endgame tablebases for Russian and International draughts.

mod commands;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Endgame tablebases for Russian (8x8) and International (10x10) draughts.
#[derive(Debug, Parser)]
#[command(name = "damka", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaf nodes of the move tree (move generator check).
    Perft(commands::perft::PerftArgs),
    /// List the legal moves of positions.
    Moves(commands::moves::MovesArgs),
    /// Build tables by retrograde analysis.
    Gen(commands::gen::GenArgs),
    /// Value, distance and best move of positions.
    Probe(commands::probe::ProbeArgs),
    /// Re-derive every stored value from its successors.
    Verify(commands::verify::VerifyArgs),
    /// Write the compact set of built tables: smaller DTW files for probing.
    Compact(commands::compact::CompactArgs),
    /// Endgame statistics from built tables, as tables and plots.
    Stats(commands::stats::StatsArgs),
    /// List the material slices up to a number of pieces, in build order.
    Slices(commands::slices::SlicesArgs),
    /// Write the build as a task graph: JSON, a Makefile or a Slurm script.
    Plan(commands::plan::PlanArgs),
    /// Show a move-limit rule set (a preset or a TOML file) as a table.
    Rules(commands::rules::RulesArgs),
    /// Serve a web page with a board, and a JSON API, over the tables.
    Serve(commands::serve::ServeArgs),
}

fn main() -> ExitCode {
    quiet_broken_pipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => commands::perft::run(&args),
        Command::Moves(args) => commands::moves::run(&args),
        Command::Gen(args) => commands::gen::run(&args),
        Command::Probe(args) => commands::probe::run(&args),
        Command::Verify(args) => commands::verify::run(&args),
        Command::Compact(args) => commands::compact::run(&args),
        Command::Stats(args) => commands::stats::run(&args),
        Command::Slices(args) => commands::slices::run(&args),
        Command::Rules(args) => commands::rules::run(&args),
        Command::Plan(args) => commands::plan::run(&args),
        Command::Serve(args) => commands::serve::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("damka: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Restores the default action of `SIGPIPE`, which Rust programs ignore, so that
/// `damka slices ... | head` stops quietly when `head` has read enough, like any
/// Unix filter, instead of panicking in `println!` on the closed pipe.
fn quiet_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: sets a signal disposition first thing in `main`, before any other
    // thread exists; `SIG_DFL` is a valid disposition for `SIGPIPE`.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
