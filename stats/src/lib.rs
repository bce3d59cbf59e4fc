//! Damka's statistics: endgame statistics from built tables (game-theoretic values,
//! and the values under a rule set), rendered as Markdown, CSV or JSON reports and
//! drawn as figures.
//!
//! This is the researchers' tooling around the tables; it reads them through
//! `damka-probe` and does not depend on the generator.
#![warn(missing_docs)]

pub mod error;
pub mod plot;
pub mod report;
pub mod rule_stats;
pub mod stats;
mod tables;

pub use error::StatsError;
