//! Typed errors for notation and positions.

use crate::color::Color;

/// Why a set of pieces is not a legal position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
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
#[non_exhaustive]
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

/// Why a material slice could not be built or named.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SliceError {
    /// The text is not a canonical slice name such as `1M2K-0M2K`.
    #[error("malformed slice name `{0}` (expected the form `1M2K-0M2K`)")]
    Name(String),
    /// A side has no pieces: the game is over, so there is no table.
    #[error("{0} has no pieces; such positions are lost, not a slice")]
    NoPieces(Color),
    /// More pieces on one side than any board has squares.
    #[error("{color} has {count} pieces, more than the 64 any board holds")]
    TooManyPieces {
        /// The side with too many pieces.
        color: Color,
        /// How many it has.
        count: u32,
    },
}

/// Why a slice cannot be indexed, or a position not indexed in a slice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IndexError {
    /// The slice's pieces do not fit the variant: a side has more pieces than the
    /// variant starts with, or the men do not fit on their legal squares.
    #[error("slice {slice} does not fit the {variant} board")]
    DoesNotFit {
        /// The slice's name.
        slice: String,
        /// The variant's name.
        variant: &'static str,
    },
    /// The slice has more positions than a `u64` counts.
    #[error("slice {0} has more than 2^64 positions")]
    TooLarge(String),
    /// The position has Black to move; look up its colour-flipped twin instead.
    #[error("the position has Black to move; index its flipped twin")]
    BlackToMove,
    /// The position's material is not the slice's.
    #[error("the position's material {found} is not the slice's {expected}")]
    WrongMaterial {
        /// The slice's name.
        expected: String,
        /// The name of the position's material.
        found: String,
    },
    /// An index outside `0..size`.
    #[error("index {index} is outside the slice's {size} positions")]
    OutOfRange {
        /// The index asked for.
        index: u64,
        /// The slice's size.
        size: u64,
    },
}
