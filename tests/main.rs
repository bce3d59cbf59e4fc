//! The `damka` package's integration tests, compiled as one binary.
//!
//! Each module is one theme (`tests/perft.rs`, `tests/rules.rs`, …) and
//! `common` holds what they share. One binary instead of one per file: every
//! file used to link its own optimised copy of the generator and the probe, and
//! that linking was most of the test suite's compile time. Run one theme with
//! `cargo test --test integration perft::`.

mod common;

mod api;
mod c_abi;
mod cli_rules;
mod cli_rules_show;
mod cli_slices;
mod cli_tables;
mod compact;
mod embedding;
mod endgame_theory;
mod kings_only;
mod memory_budget;
mod module_graph;
mod mtc;
mod naive_solver;
mod perft;
mod plan;
mod probe_robustness;
mod properties;
mod python;
mod rule_cases;
mod rule_limit_cases;
mod rule_limits;
mod rule_stats;
mod rules;
mod rules_counted;
mod rules_layered;
mod rules_naive_check;
mod rules_probe;
mod rules_verify;
mod stats;
