//! `/api/counters`: the counters of a rule set and which of them are in force in
//! a position, with their limits there, so that the page asks for the moves
//! already played of exactly those.

use damka_core::VariantKind;
use damka_probe::limits::RuleSet;
use damka_probe::{Position, Variant};
use serde::Serialize;

use crate::error::ApiError;

/// A rule set's counters in one position.
#[derive(Debug, Clone, Serialize)]
pub struct CountersJson {
    /// The rule set's name.
    pub set: String,
    /// Every counter of the set, in the set's order.
    pub counters: Vec<CounterJson>,
}

/// One counter.
#[derive(Debug, Clone, Serialize)]
pub struct CounterJson {
    /// Its id (`R1`).
    pub id: String,
    /// What it says.
    pub description: String,
    /// Whether it is in force in the position.
    pub in_force: bool,
    /// Its limit in moves for the position's material, if it has one there.
    pub limit_moves: Option<u32>,
    /// Whether reaching the limit draws the game.
    pub draws: bool,
}

/// The counters of the preset `rules` (written for `variant`) in the position
/// `fen`.
pub fn counters<V: Variant>(rules: &str, fen: &str) -> Result<CountersJson, ApiError> {
    let set = preset_for(rules, V::KIND)?;
    let pos: Position<V> = fen.parse()?;
    let material = pos.material();
    let counters = set
        .counters
        .iter()
        .map(|c| CounterJson {
            id: c.id.clone(),
            description: c.description.clone(),
            in_force: c.applies_at(&pos),
            limit_moves: c.limit_moves(&material),
            draws: c.draws,
        })
        .collect();
    Ok(CountersJson {
        set: set.name,
        counters,
    })
}

/// The preset `name`, which must be written for `variant`.
fn preset_for(name: &str, variant: VariantKind) -> Result<RuleSet, ApiError> {
    let set = RuleSet::preset(name)?;
    set.check_variant(variant)?;
    Ok(set)
}
