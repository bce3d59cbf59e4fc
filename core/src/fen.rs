//! Positions in PDN FEN: `W:Wc3,Ke5:Bd6` (Russian) or `B:W31,K46:B19` (International).
//!
//! Reading accepts the `[FEN "..."]` wrapper, a trailing `.`, either colour's list
//! first, `K` before a king's square, and number ranges like `31-35`
//! (International). A colour with no pieces is written as its bare letter
//! (`B:WKc1:B`). Printing is canonical: White's list first, squares sorted in
//! notation order (Russian by file then rank, International by number), no ranges.
//!
//! A [`Position`] prints as its FEN (`Display`, and `Debug` as `Position(FEN)`)
//! and parses from one (`FromStr`); those impls live here.

use crate::color::Color;
use crate::error::FenError;
use crate::position::{PieceKind, Position};
use crate::variant::Variant;

/// Parses a PDN FEN string.
pub fn parse_fen<V: Variant>(text: &str) -> Result<Position<V>, FenError> {
    let body = unwrap_tag(text.trim())?;
    let body: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    let body = body.strip_suffix('.').unwrap_or(&body);
    if body.is_empty() {
        return Err(FenError::Malformed("empty input".into()));
    }
    let mut parts = body.split(':');
    let side = match parts.next().unwrap_or("") {
        "W" | "w" => Color::White,
        "B" | "b" => Color::Black,
        other => {
            return Err(FenError::Malformed(format!(
                "expected the side to move (`W` or `B`), found `{other}`"
            )))
        }
    };
    let mut pieces = Vec::new();
    let mut seen = [false; 2];
    for part in parts {
        let (color, list) = match part.chars().next() {
            Some('W' | 'w') => (Color::White, &part[1..]),
            Some('B' | 'b') => (Color::Black, &part[1..]),
            _ => {
                return Err(FenError::Malformed(format!(
                    "expected a piece list starting with `W` or `B`, found `{part}`"
                )))
            }
        };
        let slot = &mut seen[color as usize];
        if *slot {
            return Err(FenError::DuplicateSide(color));
        }
        *slot = true;
        if list.is_empty() {
            continue;
        }
        for entry in list.split(',') {
            parse_entry::<V>(color, entry, &mut pieces)?;
        }
    }
    for color in [Color::White, Color::Black] {
        if !seen[color as usize] {
            return Err(FenError::MissingSide(color));
        }
    }
    Ok(Position::from_pieces(side, pieces)?)
}

/// Strips an optional `[FEN "..."]` wrapper.
fn unwrap_tag(text: &str) -> Result<&str, FenError> {
    let Some(inner) = text.strip_prefix('[') else {
        return Ok(text);
    };
    let inner = inner
        .strip_suffix(']')
        .ok_or_else(|| FenError::Malformed("unclosed `[FEN` tag".into()))?
        .trim();
    let (tag, value) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| FenError::Malformed("`[FEN` tag without a value".into()))?;
    if !tag.eq_ignore_ascii_case("FEN") {
        return Err(FenError::Malformed(format!(
            "expected a `[FEN` tag, found `[{tag}`"
        )));
    }
    value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| FenError::Malformed("the FEN tag value must be quoted".into()))
}

/// Parses one list entry (`c3`, `Ke5`, `31`, `K46`, `31-35`) into pieces.
fn parse_entry<V: Variant>(
    color: Color,
    entry: &str,
    pieces: &mut Vec<(Color, PieceKind, usize)>,
) -> Result<(), FenError> {
    if entry.is_empty() {
        return Err(FenError::EmptyEntry(color));
    }
    let (kind, squares) = match entry.strip_prefix(['K', 'k']) {
        Some(rest) => (PieceKind::King, rest),
        None => (PieceKind::Man, entry),
    };
    let square = |name: &str| V::parse_square(name).ok_or(FenError::UnknownSquare(name.into()));
    match squares.split_once('-') {
        None => pieces.push((color, kind, square(squares)?)),
        Some((low, high)) => {
            let numbers = low.parse::<usize>().ok().zip(high.parse::<usize>().ok());
            let (low_n, high_n) =
                numbers.ok_or_else(|| FenError::UnknownSquare(entry.to_string()))?;
            if low_n > high_n {
                return Err(FenError::Malformed(format!("empty range `{entry}`")));
            }
            square(low)?;
            square(high)?;
            for n in low_n..=high_n {
                pieces.push((color, kind, square(&n.to_string())?));
            }
        }
    }
    Ok(())
}

/// Prints a position as canonical FEN.
pub fn to_fen<V: Variant>(position: &Position<V>) -> String {
    let mut out = String::new();
    out.push(position.side().letter());
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.letter());
        let mut entries: Vec<(String, bool)> = (0..V::GEOMETRY.squares)
            .filter_map(|s| match position.piece_at(s) {
                Some((c, kind)) if c == color => Some((V::square_name(s), kind == PieceKind::King)),
                _ => None,
            })
            .collect();
        entries.sort_by(|a, b| (a.0.len(), &a.0).cmp(&(b.0.len(), &b.0)));
        let list: Vec<String> = entries
            .into_iter()
            .map(|(name, king)| if king { format!("K{name}") } else { name })
            .collect();
        out.push_str(&list.join(","));
    }
    out
}

impl<V: Variant> std::str::FromStr for Position<V> {
    type Err = FenError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_fen(s)
    }
}

impl<V: Variant> std::fmt::Debug for Position<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", to_fen(self))
    }
}

impl<V: Variant> std::fmt::Display for Position<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&to_fen(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::PositionError;
    use crate::variant::{International, Russian};

    fn ru(s: &str) -> Result<Position<Russian>, FenError> {
        parse_fen(s)
    }

    fn intl(s: &str) -> Result<Position<International>, FenError> {
        parse_fen(s)
    }

    #[test]
    fn reads_and_prints_canonically() {
        assert_eq!(ru("W:Wc3,Ke5:Bd6").unwrap().to_string(), "W:Wc3,Ke5:Bd6");
        assert_eq!(ru("W:Bd6:We5,c3").unwrap().to_string(), "W:Wc3,e5:Bd6");
        assert_eq!(intl("B:W31,K46:B19").unwrap().to_string(), "B:W31,K46:B19");
        assert_eq!(
            intl("[FEN \"W:W35-31:B1\"]").unwrap_err(),
            FenError::Malformed("empty range `35-31`".into())
        );
        assert_eq!(
            intl("[FEN \"W:W31-35,K40:B1-3.\"]").unwrap().to_string(),
            "W:W31,32,33,34,35,K40:B1,2,3"
        );
        assert_eq!(ru("B:WKc1:B").unwrap().to_string(), "B:WKc1:B");
    }

    #[test]
    fn names_each_problem() {
        assert_eq!(
            ru("W:Wc3,i9:B").unwrap_err(),
            FenError::UnknownSquare("i9".into())
        );
        assert_eq!(
            ru("W:Wc4:B").unwrap_err(),
            FenError::UnknownSquare("c4".into())
        );
        assert_eq!(
            ru("W:Wc3:Bc3").unwrap_err(),
            FenError::Position(PositionError::Occupied("c3".into()))
        );
        assert_eq!(
            ru("W:Wb8:Bc7").unwrap_err(),
            FenError::Position(PositionError::ManOnPromotionRow("b8".into()))
        );
        assert_eq!(
            ru("W:Wa1:Ba1").unwrap_err(),
            FenError::Position(PositionError::Occupied("a1".into()))
        );
        assert!(matches!(
            intl("W:WK1-50:B").unwrap_err(),
            FenError::Position(PositionError::TooManyPieces { .. })
        ));
        assert!(matches!(
            intl("W:W6-26:B").unwrap_err(),
            FenError::Position(PositionError::TooManyPieces { count: 21, .. })
        ));
        assert_eq!(
            ru("W:Wc3").unwrap_err(),
            FenError::MissingSide(Color::Black)
        );
        assert_eq!(
            ru("W:Wc3,,e3:B").unwrap_err(),
            FenError::EmptyEntry(Color::White)
        );
        assert_eq!(
            ru("W:Wc3:Wd4:B").unwrap_err(),
            FenError::DuplicateSide(Color::White)
        );
        assert!(matches!(ru("hello").unwrap_err(), FenError::Malformed(_)));
        assert!(matches!(ru("").unwrap_err(), FenError::Malformed(_)));
        assert!(matches!(ru("W:Xc3:B").unwrap_err(), FenError::Malformed(_)));
        assert!(matches!(
            ru("[FEN \"W:Wc3:B\"").unwrap_err(),
            FenError::Malformed(_)
        ));
        assert_eq!(
            ru("W:Wa1-c3:B").unwrap_err(),
            FenError::UnknownSquare("a1-c3".into())
        );
    }
}
