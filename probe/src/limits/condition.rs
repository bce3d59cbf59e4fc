//! [`PositionCondition`]: a condition on the placement of the pieces, on top of the
//! material, for a counter to be in force (the lone king on the main road).

use std::fmt;

use damka_core::{Bits, Color, Position, Variant};
use serde::{Deserialize, Serialize};

/// A condition on the placement, on top of the material, for a counter to be in
/// force.
///
/// In TOML, `condition = "lone-king-on-main-road"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PositionCondition {
    /// A side whose only piece is a king has that king on the main road: the long
    /// diagonal from White's lower-left corner (a1–h8 in Russian draughts, 46–5 in
    /// International draughts).
    LoneKingOnMainRoad,
}

impl PositionCondition {
    /// Whether the condition holds in `pos`.
    pub fn holds<V: Variant>(self, pos: &Position<V>) -> bool {
        match self {
            PositionCondition::LoneKingOnMainRoad => {
                [Color::White, Color::Black].into_iter().any(|color| {
                    let pieces = pos.pieces(color);
                    pieces.count_ones() == 1
                        && pieces & pos.kings() != 0
                        && Bits(pieces).all(|bit| on_main_road::<V>(bit))
                })
            }
        }
    }
}

/// Whether a padded bit lies on the long diagonal through White's lower-left corner.
fn on_main_road<V: Variant>(bit: u32) -> bool {
    let g = V::GEOMETRY;
    let square = g.square_of[bit as usize] as usize;
    g.file(square) == g.rank(square)
}

impl fmt::Display for PositionCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionCondition::LoneKingOnMainRoad => f.write_str("lone king on the main road"),
        }
    }
}
