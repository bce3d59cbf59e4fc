//! The two board geometries and the rule differences between the variants.
//!
//! # Bit layout
//!
//! Dark squares are numbered densely from White's lower-left corner (a1), row by
//! row: the *square index* `s = rank * H + k`, where `H = WIDTH / 2` and `k` is the
//! position of the dark square within its rank. Bitboards use a *padded* layout with
//! one unused ("ghost") bit after every second rank:
//!
//! ```text
//! bit(s) = s + (rank + 1) / 2
//! ```
//!
//! With that padding every diagonal step is a constant shift, whatever the rank:
//! up-left `+H`, up-right `+H + 1`, down-left `-(H + 1)`, down-right `-H`. A step
//! off the board lands on a ghost bit or outside [`Geometry::mask`], so a shift and a
//! mask are all a move generator needs. Rotating the board by 180° maps bit `b` to
//! `BITS - 1 - b`, which is a bit reversal.

use std::fmt::Debug;
use std::hash::Hash;

/// The variant chosen at run time, for the command line and file headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VariantKind {
    /// Russian draughts on the 8x8 board.
    Russian,
    /// International draughts on the 10x10 board.
    International,
}

impl VariantKind {
    /// The lowercase name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            VariantKind::Russian => "russian",
            VariantKind::International => "international",
        }
    }
}

impl std::fmt::Display for VariantKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for VariantKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "russian" | "ru" => Ok(VariantKind::Russian),
            "international" | "intl" | "int" => Ok(VariantKind::International),
            other => Err(format!(
                "unknown variant `{other}` (expected `russian` or `international`)"
            )),
        }
    }
}

/// Precomputed facts about a board of a given width, built at compile time.
#[derive(Debug, Clone, Copy)]
pub struct Geometry {
    /// Board width and height in squares (8 or 10).
    pub width: u32,
    /// Dark squares per rank (`width / 2`).
    pub half: u32,
    /// Number of dark squares.
    pub squares: usize,
    /// Number of bits the padded layout spans.
    pub bits: u32,
    /// All bits that hold a real square.
    pub mask: u64,
    /// The bit of each square index (`u8::MAX` past the end).
    pub bit_of: [u8; 64],
    /// The square index of each bit (`u8::MAX` for ghost and unused bits).
    pub square_of: [u8; 64],
    /// The top rank: where White's men promote.
    pub top_rank: u64,
    /// The bottom rank: where Black's men promote.
    pub bottom_rank: u64,
}

impl Geometry {
    /// Builds the geometry of a `width` x `width` board.
    pub const fn new(width: u32) -> Geometry {
        let half = width / 2;
        let squares = (width * half) as usize;
        let mut bit_of = [u8::MAX; 64];
        let mut square_of = [u8::MAX; 64];
        let mut mask = 0u64;
        let mut top_rank = 0u64;
        let mut bottom_rank = 0u64;
        let mut s = 0;
        let mut bits = 0;
        while s < squares {
            let rank = s as u32 / half;
            let b = s as u32 + rank.div_ceil(2);
            bit_of[s] = b as u8;
            square_of[b as usize] = s as u8;
            mask |= 1 << b;
            if rank == 0 {
                bottom_rank |= 1 << b;
            }
            if rank == width - 1 {
                top_rank |= 1 << b;
            }
            bits = b + 1;
            s += 1;
        }
        Geometry {
            width,
            half,
            squares,
            bits,
            mask,
            bit_of,
            square_of,
            top_rank,
            bottom_rank,
        }
    }

    /// The rank (0 = White's back rank) of a square index.
    pub const fn rank(&self, square: usize) -> u32 {
        square as u32 / self.half
    }

    /// The file (0 = the a-file) of a square index.
    pub const fn file(&self, square: usize) -> u32 {
        let rank = self.rank(square);
        let k = square as u32 % self.half;
        2 * k + (rank % 2)
    }

    /// The square index at `(file, rank)`, if that is a dark square on the board.
    pub const fn square_at(&self, file: u32, rank: u32) -> Option<usize> {
        if file >= self.width || rank >= self.width || (file + rank) % 2 != 0 {
            return None;
        }
        Some((rank * self.half + file / 2) as usize)
    }
}

/// A draughts variant: a board geometry plus the rule differences RULES.md lists.
///
/// Implemented by the zero-sized types [`Russian`] and [`International`]; every board,
/// move generator and index in the project is generic over it, so there is one copy
/// of each algorithm.
pub trait Variant:
    Copy + Clone + Debug + Default + PartialEq + Eq + Hash + Send + Sync + 'static
{
    /// The run-time tag of this variant.
    const KIND: VariantKind;
    /// The board geometry.
    const GEOMETRY: Geometry;
    /// Most pieces one side may have (the starting count).
    const MAX_PIECES_PER_SIDE: u32;
    /// International majority rule: a capture must take as many pieces as possible.
    const MAJORITY_RULE: bool;
    /// Russian rule: a man that reaches the last rank during a capture promotes at once
    /// and continues capturing as a king. When false (International), it promotes only
    /// if the move ends on the last rank.
    const PROMOTE_DURING_CAPTURE: bool;
    /// The separator printed between the squares of a capture (`:` or `x`).
    const CAPTURE_SEPARATOR: char;

    /// The printed name of a square index.
    fn square_name(square: usize) -> String;
    /// Writes the printed name of a square index to `out`, as [`Variant::square_name`]
    /// returns it; both variants do it without allocating.
    fn write_square_name(square: usize, out: &mut dyn std::fmt::Write) -> std::fmt::Result {
        out.write_str(&Self::square_name(square))
    }
    /// Parses a square name into a square index.
    fn parse_square(text: &str) -> Option<usize>;
}

/// Russian draughts: 8x8, free choice of capture, promotion during a capture.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Russian;

/// International draughts: 10x10, majority rule, no promotion in passing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct International;

impl Variant for Russian {
    const KIND: VariantKind = VariantKind::Russian;
    const GEOMETRY: Geometry = Geometry::new(8);
    const MAX_PIECES_PER_SIDE: u32 = 12;
    const MAJORITY_RULE: bool = false;
    const PROMOTE_DURING_CAPTURE: bool = true;
    const CAPTURE_SEPARATOR: char = ':';

    fn square_name(square: usize) -> String {
        let mut name = String::with_capacity(2);
        Self::write_square_name(square, &mut name).expect("a String takes any text");
        name
    }

    fn write_square_name(square: usize, out: &mut dyn std::fmt::Write) -> std::fmt::Result {
        let g = Self::GEOMETRY;
        let file = (b'a' + g.file(square) as u8) as char;
        write!(out, "{file}{}", g.rank(square) + 1)
    }

    fn parse_square(text: &str) -> Option<usize> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].to_ascii_lowercase().checked_sub(b'a')? as u32;
        let rank = bytes[1].checked_sub(b'1')? as u32;
        Self::GEOMETRY.square_at(file, rank)
    }
}

impl Variant for International {
    const KIND: VariantKind = VariantKind::International;
    const GEOMETRY: Geometry = Geometry::new(10);
    const MAX_PIECES_PER_SIDE: u32 = 20;
    const MAJORITY_RULE: bool = true;
    const PROMOTE_DURING_CAPTURE: bool = false;
    const CAPTURE_SEPARATOR: char = 'x';

    fn square_name(square: usize) -> String {
        international_number(square).to_string()
    }

    fn write_square_name(square: usize, out: &mut dyn std::fmt::Write) -> std::fmt::Result {
        write!(out, "{}", international_number(square))
    }

    fn parse_square(text: &str) -> Option<usize> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: usize = text.parse().ok()?;
        if !(1..=50).contains(&n) {
            return None;
        }
        // Number n counts from the top-left, row by row; rows are ranks 9 down to 0.
        let row = (n - 1) / 5;
        let k = (n - 1) % 5;
        Some((9 - row) * 5 + k)
    }
}

/// The FMJD number (1..=50) of an International square index.
pub fn international_number(square: usize) -> usize {
    let rank = square / 5;
    let k = square % 5;
    (9 - rank) * 5 + k + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_layout_is_padded_as_documented() {
        let g = Russian::GEOMETRY;
        assert_eq!(g.squares, 32);
        assert_eq!(g.bits, 36);
        assert_eq!(g.mask.count_ones(), 32);
        for ghost in [4, 13, 22, 31] {
            assert_eq!(g.mask >> ghost & 1, 0, "bit {ghost} must be a ghost");
        }
    }

    #[test]
    fn international_layout_is_padded_as_documented() {
        let g = International::GEOMETRY;
        assert_eq!(g.squares, 50);
        assert_eq!(g.bits, 55);
        for ghost in [5, 16, 27, 38, 49] {
            assert_eq!(g.mask >> ghost & 1, 0, "bit {ghost} must be a ghost");
        }
    }

    #[test]
    fn square_names_round_trip() {
        for s in 0..32 {
            assert_eq!(Russian::parse_square(&Russian::square_name(s)), Some(s));
        }
        for s in 0..50 {
            assert_eq!(
                International::parse_square(&International::square_name(s)),
                Some(s)
            );
        }
        assert_eq!(Russian::square_name(0), "a1");
        assert_eq!(Russian::square_name(31), "h8");
        assert_eq!(International::square_name(0), "46");
        assert_eq!(International::square_name(49), "5");
        assert_eq!(International::parse_square("1"), Some(45));
        assert_eq!(Russian::parse_square("a2"), None);
        assert_eq!(Russian::parse_square("i1"), None);
        assert_eq!(International::parse_square("51"), None);
        assert_eq!(International::parse_square("0"), None);
    }

    #[test]
    fn rotation_is_bit_reversal() {
        for g in [Russian::GEOMETRY, International::GEOMETRY] {
            for s in 0..g.squares {
                let b = g.bit_of[s] as u32;
                let rotated = g.bit_of[g.squares - 1 - s] as u32;
                assert_eq!(rotated, g.bits - 1 - b);
            }
        }
    }
}
