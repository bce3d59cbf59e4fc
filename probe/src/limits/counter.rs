//! [`Counter`]: one move-limit rule (its material class, position condition,
//! reset events, limit and whether it draws), with its TOML form (one
//! `[[counter]]` table).

use damka_core::{Material, Position, Variant};
use serde::{Deserialize, Serialize};

use super::condition::PositionCondition;
use super::events::Events;
use super::limit::Limit;
use super::material_class::MaterialClass;
use damka_core::moves::Move;

fn yes() -> bool {
    true
}

/// One move-limit rule: which material it watches, what restarts its count, and
/// after how many moves it draws. See the [module docs](super) for how it counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counter {
    /// A short name, unique in its set (`R1`): letters, digits, `-` and `_`. The
    /// played counts name counters by it (`R1=9`).
    pub id: String,
    /// One sentence saying what the rule is.
    #[serde(default)]
    pub description: String,
    /// The materials the counter applies to.
    pub applies: MaterialClass,
    /// A condition on the placement, when the material alone does not decide.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<PositionCondition>,
    /// The move events that restart the count while the counter stays in force.
    pub resets: Events,
    /// The limit, in moves (TOML key `limit_moves`).
    #[serde(rename = "limit_moves")]
    pub limit: Limit,
    /// Whether reaching the limit draws the game (default `true`). A counter that
    /// does not draw is only counted and reported.
    #[serde(default = "yes")]
    pub draws: bool,
    /// The interpretation choices behind the counter, with their sources.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Counter {
    /// Whether the counter applies to `material`: the class matches and the limit
    /// covers its piece count. A counter with a [`condition`](Self::condition) also
    /// needs the condition to hold; see [`applies_at`](Self::applies_at).
    pub fn applies(&self, material: &Material) -> bool {
        self.applies.matches(material) && self.limit.moves_for(material.pieces()).is_some()
    }

    /// Whether the counter is in force in `pos`: it applies to the material and its
    /// position condition, if any, holds.
    pub fn applies_at<V: Variant>(&self, pos: &Position<V>) -> bool {
        self.applies(&pos.material())
            && match self.condition {
                Some(condition) => condition.holds(pos),
                None => true,
            }
    }

    /// The limit in moves (one move of each player) for `material`, or `None` when
    /// the counter does not apply to it.
    pub fn limit_moves(&self, material: &Material) -> Option<u32> {
        if self.applies.matches(material) {
            self.limit.moves_for(material.pieces())
        } else {
            None
        }
    }

    /// The limit in plies (twice [`limit_moves`](Self::limit_moves)), or `None`
    /// when the counter does not apply to `material`.
    pub fn limit_plies(&self, material: &Material) -> Option<u32> {
        self.limit_moves(material)
            .map(|moves| moves.saturating_mul(2))
    }

    /// Whether a move with these events restarts the count.
    pub fn resets_on(&self, events: Events) -> bool {
        self.resets.intersects(events)
    }

    /// Whether `mv`, a legal move from `pos`, restarts the count.
    pub fn resets_on_move<V: Variant>(&self, pos: &Position<V>, mv: &Move) -> bool {
        self.resets_on(Events::of_move(pos, mv))
    }
}
