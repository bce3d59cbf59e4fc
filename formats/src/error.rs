//! Typed errors for notation and positions.

use crate::position::Color;

/// Why a set of pieces is not a legal position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A bit outside the board's dark squares.
    #[error("a piece lies off the board")]
    OffBoard,
    /// Two pieces on one square.
    #[error("square {0} is occupied twice")]
    Occupied(String),
    /// A king marker on an empty square.
    #[error("a king marker has no piece under it")]
    KingWithoutPiece,
    /// A man standing on the rank where it would already have promoted.
    #[error("a man stands on its own promotion row at {0}")]
    ManOnPromotionRow(String),
    /// More pieces than the variant starts with.
    #[error("{color} has {count} pieces, more than the {max} the variant allows")]
    TooManyPieces {
        /// The side with too many pieces.
        color: Color,
        /// How many it has.
        count: u32,
        /// The variant's limit.
        max: u32,
    },
}

/// Why a FEN string could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text does not have the shape `W:W...:B...`.
    #[error("malformed FEN: {0}")]
    Malformed(String),
    /// A square name the variant does not have.
    #[error("unknown square `{0}`")]
    UnknownSquare(String),
    /// A colour's piece list is missing.
    #[error("the piece list for {0} is missing")]
    MissingSide(Color),
    /// A colour's piece list appears twice.
    #[error("the piece list for {0} appears twice")]
    DuplicateSide(Color),
    /// An empty entry inside a piece list, as in `Wc3,,e5`.
    #[error("empty entry in the piece list for {0}")]
    EmptyEntry(Color),
    /// The pieces do not form a legal position.
    #[error(transparent)]
    Position(#[from] PositionError),
}
