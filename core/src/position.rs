//! A draughts position as three bitboards and a side to move.
//!
//! Positions print and parse as FEN through the `Display`, `Debug` and `FromStr`
//! impls in [`crate::fen`].

use std::marker::PhantomData;

// Re-exported so that `position::Color` still names it.
pub use crate::color::Color;
use crate::error::PositionError;
use crate::variant::Variant;

/// The kind of a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PieceKind {
    /// Moves one square forward, captures forward and backward.
    Man,
    /// Flies along diagonals.
    King,
}

/// The four piece counts of a position, White's first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Material {
    /// White men.
    pub white_men: u32,
    /// White kings.
    pub white_kings: u32,
    /// Black men.
    pub black_men: u32,
    /// Black kings.
    pub black_kings: u32,
}

impl Material {
    /// Total number of pieces.
    pub fn pieces(&self) -> u32 {
        self.white_men + self.white_kings + self.black_men + self.black_kings
    }

    /// The same material with the colours swapped.
    pub fn flipped(&self) -> Material {
        Material {
            white_men: self.black_men,
            white_kings: self.black_kings,
            black_men: self.white_men,
            black_kings: self.white_kings,
        }
    }
}

/// A position of variant `V`: bitboards in the padded layout of
/// [`crate::variant`], plus the side to move.
///
/// Invariants, upheld by every constructor: the colour sets are disjoint and inside
/// the board mask, `kings` is a subset of the pieces, no man stands on its own
/// promotion rank, and neither side exceeds the variant's piece count.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position<V: Variant> {
    white: u64,
    black: u64,
    kings: u64,
    side: Color,
    variant: PhantomData<V>,
}

/// Rotates a padded bitboard by 180 degrees.
#[inline]
pub fn rotate<V: Variant>(bb: u64) -> u64 {
    bb.reverse_bits() >> (64 - V::GEOMETRY.bits)
}

impl<V: Variant> Position<V> {
    /// Builds a position from bitboards, checking every invariant.
    pub fn from_bitboards(
        white: u64,
        black: u64,
        kings: u64,
        side: Color,
    ) -> Result<Self, PositionError> {
        let g = V::GEOMETRY;
        if (white | black | kings) & !g.mask != 0 {
            return Err(PositionError::OffBoard);
        }
        if white & black != 0 {
            let s = g.square_of[(white & black).trailing_zeros() as usize] as usize;
            return Err(PositionError::Occupied(V::square_name(s)));
        }
        if kings & !(white | black) != 0 {
            return Err(PositionError::KingWithoutPiece);
        }
        let wrong_men = (white & !kings & g.top_rank) | (black & !kings & g.bottom_rank);
        if wrong_men != 0 {
            let s = g.square_of[wrong_men.trailing_zeros() as usize] as usize;
            return Err(PositionError::ManOnPromotionRow(V::square_name(s)));
        }
        for (color, set) in [(Color::White, white), (Color::Black, black)] {
            let count = set.count_ones();
            if count > V::MAX_PIECES_PER_SIDE {
                return Err(PositionError::TooManyPieces {
                    color,
                    count,
                    max: V::MAX_PIECES_PER_SIDE,
                });
            }
        }
        Ok(Self::from_bitboards_unchecked(white, black, kings, side))
    }

    /// Builds a position from bitboards the caller knows to be valid (the move
    /// generator and the indexer, on their hot paths).
    #[inline]
    pub fn from_bitboards_unchecked(white: u64, black: u64, kings: u64, side: Color) -> Self {
        Position {
            white,
            black,
            kings,
            side,
            variant: PhantomData,
        }
    }

    /// Builds a position from a list of `(colour, kind, square index)`.
    pub fn from_pieces(
        side: Color,
        pieces: impl IntoIterator<Item = (Color, PieceKind, usize)>,
    ) -> Result<Self, PositionError> {
        let g = V::GEOMETRY;
        let (mut white, mut black, mut kings) = (0u64, 0u64, 0u64);
        for (color, kind, square) in pieces {
            if square >= g.squares {
                return Err(PositionError::OffBoard);
            }
            let bit = 1u64 << g.bit_of[square];
            if (white | black) & bit != 0 {
                return Err(PositionError::Occupied(V::square_name(square)));
            }
            match color {
                Color::White => white |= bit,
                Color::Black => black |= bit,
            }
            if kind == PieceKind::King {
                kings |= bit;
            }
        }
        Self::from_bitboards(white, black, kings, side)
    }

    /// The variant's starting position: each side's men fill its nearest
    /// `(width - 2) / 2` ranks (3 in Russian, 4 in International), White to move.
    pub fn initial() -> Self {
        let g = V::GEOMETRY;
        let rows = (g.width - 2) / 2;
        let (mut white, mut black) = (0u64, 0u64);
        for s in 0..g.squares {
            let bit = 1u64 << g.bit_of[s];
            let rank = g.rank(s);
            if rank < rows {
                white |= bit;
            } else if rank >= g.width - rows {
                black |= bit;
            }
        }
        Self::from_bitboards_unchecked(white, black, 0, Color::White)
    }

    /// White's pieces.
    #[inline]
    pub fn white(&self) -> u64 {
        self.white
    }

    /// Black's pieces.
    #[inline]
    pub fn black(&self) -> u64 {
        self.black
    }

    /// All kings of both colours.
    #[inline]
    pub fn kings(&self) -> u64 {
        self.kings
    }

    /// The side to move.
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }

    /// The pieces of one colour.
    #[inline]
    pub fn pieces(&self, color: Color) -> u64 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.white | self.black
    }

    /// Every empty square.
    #[inline]
    pub fn empty(&self) -> u64 {
        V::GEOMETRY.mask & !(self.white | self.black)
    }

    /// The piece on a square index, if any.
    pub fn piece_at(&self, square: usize) -> Option<(Color, PieceKind)> {
        let bit = 1u64 << V::GEOMETRY.bit_of[square];
        let kind = if self.kings & bit != 0 {
            PieceKind::King
        } else {
            PieceKind::Man
        };
        if self.white & bit != 0 {
            Some((Color::White, kind))
        } else if self.black & bit != 0 {
            Some((Color::Black, kind))
        } else {
            None
        }
    }

    /// The material counts.
    pub fn material(&self) -> Material {
        Material {
            white_men: (self.white & !self.kings).count_ones(),
            white_kings: (self.white & self.kings).count_ones(),
            black_men: (self.black & !self.kings).count_ones(),
            black_kings: (self.black & self.kings).count_ones(),
        }
    }

    /// The colour-flipped twin: the board rotated by 180°, the colours swapped and
    /// the other side to move. Its value for its side to move equals this one's.
    pub fn flipped(&self) -> Self {
        Self::from_bitboards_unchecked(
            rotate::<V>(self.black),
            rotate::<V>(self.white),
            rotate::<V>(self.kings),
            self.side.opposite(),
        )
    }

    /// The same placement with the other side to move.
    pub fn with_side(&self, side: Color) -> Self {
        Self::from_bitboards_unchecked(self.white, self.black, self.kings, side)
    }
}

/// Iterates the set bits of a bitboard, lowest first.
#[derive(Debug, Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(b)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{International, Russian};

    #[test]
    fn flip_twice_is_identity() {
        let p: Position<Russian> = "W:Wa1,Kc3:Bh8,Kd6".parse().unwrap();
        assert_eq!(p.flipped().flipped(), p);
        assert_eq!(p.flipped().to_string(), "B:Wa1,Ke3:BKf6,h8");
        let q: Position<International> = "B:W31,K46:B19".parse().unwrap();
        assert_eq!(q.flipped().flipped(), q);
        assert_eq!(q.flipped().material(), q.material().flipped());
    }

    #[test]
    fn initial_positions_match_the_reference() {
        assert_eq!(
            Position::<Russian>::initial().to_string(),
            "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8"
        );
        let intl: Position<International> = "W:W31-50:B1-20".parse().unwrap();
        assert_eq!(Position::<International>::initial(), intl);
    }

    #[test]
    fn invariants_are_checked() {
        let g = Russian::GEOMETRY;
        let a1 = 1u64 << g.bit_of[0];
        let h8 = 1u64 << g.bit_of[31];
        assert!(matches!(
            Position::<Russian>::from_bitboards(a1, a1, 0, Color::White),
            Err(PositionError::Occupied(_))
        ));
        assert!(matches!(
            Position::<Russian>::from_bitboards(h8, a1, 0, Color::White),
            Err(PositionError::ManOnPromotionRow(_))
        ));
        assert!(Position::<Russian>::from_bitboards(h8, a1, h8 | a1, Color::White).is_ok());
        assert!(matches!(
            Position::<Russian>::from_bitboards(1 << 4, 0, 0, Color::White),
            Err(PositionError::OffBoard)
        ));
    }
}
