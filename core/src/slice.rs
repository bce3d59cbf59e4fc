//! Material slices: all positions with one material and White to move.
//!
//! A table covers one slice. A position with Black to move belongs to the
//! *mirror* slice: it is looked up as its colour-flipped twin
//! ([`Position::flipped`], see [`white_to_move`]), which has White to move and the
//! colours' counts swapped. A slice's canonical name lists White's men and kings
//! first, then Black's: `1M2K-0M2K` is one white man and two white kings against
//! two black kings. Every slice has at least one piece on each side; a side with
//! no pieces has lost, which needs no table.

use std::fmt;
use std::str::FromStr;

use crate::error::SliceError;
use crate::position::{Color, Material, Position};
use crate::variant::Variant;

/// One material with White to move: the unit a table covers.
///
/// Ordered by its four counts (White's men, White's kings, Black's men, Black's
/// kings); the build order is [`crate::enumerate::build_order`], not this one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slice {
    white_men: u8,
    white_kings: u8,
    black_men: u8,
    black_kings: u8,
}

/// The most pieces a side may have in a slice: no board has more squares.
const MAX_SIDE: u32 = 64;

impl Slice {
    /// The slice with these counts. Each side needs at least one piece.
    pub fn new(
        white_men: u32,
        white_kings: u32,
        black_men: u32,
        black_kings: u32,
    ) -> Result<Slice, SliceError> {
        for (color, men, kings) in [
            (Color::White, white_men, white_kings),
            (Color::Black, black_men, black_kings),
        ] {
            let count = men.saturating_add(kings);
            if count == 0 {
                return Err(SliceError::NoPieces(color));
            }
            if count > MAX_SIDE {
                return Err(SliceError::TooManyPieces { color, count });
            }
        }
        Ok(Slice {
            white_men: white_men as u8,
            white_kings: white_kings as u8,
            black_men: black_men as u8,
            black_kings: black_kings as u8,
        })
    }

    /// The slice of a material (taken as White to move).
    pub fn from_material(material: Material) -> Result<Slice, SliceError> {
        Slice::new(
            material.white_men,
            material.white_kings,
            material.black_men,
            material.black_kings,
        )
    }

    /// The slice holding a position's colour-normalised twin: its own material if
    /// White is to move, the flipped material if Black is.
    pub fn of<V: Variant>(position: &Position<V>) -> Result<Slice, SliceError> {
        let material = position.material();
        Slice::from_material(match position.side() {
            Color::White => material,
            Color::Black => material.flipped(),
        })
    }

    /// The four counts.
    pub fn material(self) -> Material {
        Material {
            white_men: self.white_men.into(),
            white_kings: self.white_kings.into(),
            black_men: self.black_men.into(),
            black_kings: self.black_kings.into(),
        }
    }

    /// White's men.
    #[inline]
    pub fn white_men(self) -> u32 {
        self.white_men.into()
    }

    /// White's kings.
    #[inline]
    pub fn white_kings(self) -> u32 {
        self.white_kings.into()
    }

    /// Black's men.
    #[inline]
    pub fn black_men(self) -> u32 {
        self.black_men.into()
    }

    /// Black's kings.
    #[inline]
    pub fn black_kings(self) -> u32 {
        self.black_kings.into()
    }

    /// All pieces on the board.
    pub fn pieces(self) -> u32 {
        self.men() + self.kings()
    }

    /// The men of both sides.
    pub fn men(self) -> u32 {
        self.white_men() + self.black_men()
    }

    /// The kings of both sides.
    pub fn kings(self) -> u32 {
        self.white_kings() + self.black_kings()
    }

    /// Whether the slice has no men.
    pub fn is_kings_only(self) -> bool {
        self.men() == 0
    }

    /// The slice of the colour-flipped twins: where Black-to-move positions of this
    /// material are stored, and where this slice's quiet moves lead.
    pub fn mirror(self) -> Slice {
        Slice {
            white_men: self.black_men,
            white_kings: self.black_kings,
            black_men: self.white_men,
            black_kings: self.white_kings,
        }
    }

    /// Whether the slice is its own mirror (both sides have the same pieces).
    pub fn is_self_mirror(self) -> bool {
        self == self.mirror()
    }

    /// The canonical name, as in `1M2K-0M2K`.
    pub fn name(self) -> String {
        self.to_string()
    }
}

/// Writes counts in the canonical form of slice names; also used for materials
/// that are not slices, in error messages.
pub(crate) fn material_name(material: &Material) -> String {
    format!(
        "{}M{}K-{}M{}K",
        material.white_men, material.white_kings, material.black_men, material.black_kings
    )
}

impl fmt::Display for Slice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&material_name(&self.material()))
    }
}

impl FromStr for Slice {
    type Err = SliceError;

    /// Parses a canonical name: decimal counts without signs or leading zeros.
    fn from_str(text: &str) -> Result<Slice, SliceError> {
        let bad = || SliceError::Name(text.to_string());
        let (white, black) = text.split_once('-').ok_or_else(bad)?;
        let (white_men, white_kings) = parse_side(white).ok_or_else(bad)?;
        let (black_men, black_kings) = parse_side(black).ok_or_else(bad)?;
        Slice::new(white_men, white_kings, black_men, black_kings)
    }
}

/// Parses `{men}M{kings}K`.
fn parse_side(text: &str) -> Option<(u32, u32)> {
    let (men, rest) = text.split_once('M')?;
    let kings = rest.strip_suffix('K')?;
    Some((parse_count(men)?, parse_count(kings)?))
}

/// A count in canonical decimal: digits only, no leading zero, at most 64.
fn parse_count(text: &str) -> Option<u32> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'))
        && text.len() <= 2;
    if !canonical {
        return None;
    }
    text.parse().ok().filter(|&n| n <= MAX_SIDE)
}

impl serde::Serialize for Slice {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Slice {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The White-to-move representative of a position: itself if White is to move,
/// else its colour-flipped twin. Tables store only these.
#[inline]
pub fn white_to_move<V: Variant>(position: &Position<V>) -> Position<V> {
    match position.side() {
        Color::White => *position,
        Color::Black => position.flipped(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Russian;

    #[test]
    fn names_round_trip() {
        let slice = Slice::new(1, 2, 0, 2).unwrap();
        assert_eq!(slice.name(), "1M2K-0M2K");
        assert_eq!("1M2K-0M2K".parse::<Slice>(), Ok(slice));
        assert_eq!(slice.mirror().name(), "0M2K-1M2K");
        assert_eq!("12M0K-0M10K".parse::<Slice>().unwrap().pieces(), 22);
        assert!(Slice::new(1, 1, 1, 1).unwrap().is_self_mirror());
    }

    #[test]
    fn bad_names_are_typed_errors() {
        for bad in [
            "",
            "1M2K",
            "1M2K-0M2",
            "1m2k-0m2k",
            "01M2K-0M2K",
            "+1M2K-0M2K",
            "1M2K-0M2K ",
            "1K2M-0M2K",
            "1M2K--0M2K",
            "999M0K-0M1K",
            "aMbK-cMdK",
        ] {
            assert_eq!(
                bad.parse::<Slice>(),
                Err(SliceError::Name(bad.to_string())),
                "{bad:?}"
            );
        }
        assert_eq!(
            "0M0K-0M1K".parse::<Slice>(),
            Err(SliceError::NoPieces(Color::White))
        );
        assert_eq!(
            "1M0K-0M0K".parse::<Slice>(),
            Err(SliceError::NoPieces(Color::Black))
        );
        assert!(matches!(
            "64M1K-0M1K".parse::<Slice>(),
            Err(SliceError::TooManyPieces { .. })
        ));
    }

    #[test]
    fn black_to_move_positions_belong_to_the_mirror() {
        let p: Position<Russian> = "B:Wa1,Kc3:Bh6".parse().unwrap();
        let slice = Slice::of(&p).unwrap();
        assert_eq!(slice.name(), "1M0K-1M1K");
        let twin = white_to_move(&p);
        assert_eq!(twin.side(), Color::White);
        assert_eq!(Slice::of(&twin), Ok(slice));
        assert_eq!(Slice::from_material(twin.material()), Ok(slice));
    }

    #[test]
    fn serde_uses_the_name() {
        let slice: Slice = "2M0K-1M1K".parse().unwrap();
        let json = serde_json::to_string(&slice).unwrap();
        assert_eq!(json, "\"2M0K-1M1K\"");
        assert_eq!(serde_json::from_str::<Slice>(&json).unwrap(), slice);
    }
}
