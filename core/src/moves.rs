//! Making a move, and move notation: printing a move's route and reading a move,
//! which both need the move generator.
//!
//! A move is identified by its start square, end square, set of captured squares and
//! whether the piece is crowned. Capture routes that differ only in path are one
//! move; its printed path is the first route the generator finds. The move type is
//! the generator's ([`crate::movegen`]), re-exported here.

use crate::color::Color;
use crate::position::Position;
use crate::variant::Variant;

use crate::movegen::{for_each_capture_sequence, generate, MAX_PATH};
// Re-exported so that `moves::Move` still names it.
pub use crate::movegen::Move;

/// Plays `mv` on `pos` and returns the position after it, with the other side to
/// move. `mv` must be legal in `pos`.
#[inline]
pub fn apply<V: Variant>(pos: &Position<V>, mv: &Move) -> Position<V> {
    let from = 1u64 << mv.from_bit();
    let to = 1u64 << mv.to_bit();
    let side = pos.side();
    let own = pos.pieces(side) & !from | to;
    let opp = pos.pieces(side.opposite()) & !mv.captured();
    let moved_king = pos.kings() & from != 0;
    let mut kings = pos.kings() & !mv.captured() & !from;
    if moved_king || mv.is_promotion() {
        kings |= to;
    }
    let (white, black) = match side {
        Color::White => (own, opp),
        Color::Black => (opp, own),
    };
    Position::from_bitboards_unchecked(white, black, kings, side.opposite())
}

/// The squares (indices) a move passes through, start and end included: one
/// route of the move for printing.
pub fn path<V: Variant>(pos: &Position<V>, mv: &Move) -> Vec<usize> {
    let g = V::GEOMETRY;
    let mut bits: Vec<u8> = vec![mv.from_bit() as u8, mv.to_bit() as u8];
    if mv.is_capture() {
        let mut found = false;
        for_each_capture_sequence(pos, |from, to, captured, crowned, route| {
            if !found && Move::new(from, to, captured, crowned) == *mv {
                found = true;
                bits = route.to_vec();
            }
        });
    }
    bits.iter()
        .map(|&b| g.square_of[b as usize] as usize)
        .collect()
}

/// The move in the variant's notation: `c3-d4`, `c3:e5:g3` (Russian) or `32-28`,
/// `28x19x8` (International).
pub fn notation<V: Variant>(pos: &Position<V>, mv: &Move) -> String {
    let mut text = String::new();
    write_notation(pos, mv, &mut text).expect("a String takes any text");
    text
}

/// Writes the move in the variant's notation to `out`, as [`notation`] returns it,
/// without allocating: for callers that print into a fixed buffer (the C ABI).
/// Fails only when `out` does.
pub fn write_notation<V: Variant>(
    pos: &Position<V>,
    mv: &Move,
    out: &mut impl std::fmt::Write,
) -> std::fmt::Result {
    let mut route = [0u8; MAX_PATH];
    route[0] = mv.from_bit() as u8;
    route[1] = mv.to_bit() as u8;
    let mut len = 2;
    let mut separator = '-';
    if mv.is_capture() {
        separator = V::CAPTURE_SEPARATOR;
        let mut found = false;
        for_each_capture_sequence(pos, |from, to, captured, crowned, path| {
            if !found && Move::new(from, to, captured, crowned) == *mv {
                found = true;
                route[..path.len()].copy_from_slice(path);
                len = path.len();
            }
        });
    }
    let g = V::GEOMETRY;
    for (i, &bit) in route[..len].iter().enumerate() {
        if i > 0 {
            out.write_char(separator)?;
        }
        V::write_square_name(g.square_of[bit as usize] as usize, out)?;
    }
    Ok(())
}

/// Why a move could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoveParseError {
    /// The text is not a list of squares joined by `-`, `:` or `x`.
    #[error("malformed move `{0}`")]
    Malformed(String),
    /// A square name the variant does not have.
    #[error("unknown square `{0}` in move")]
    UnknownSquare(String),
    /// No legal move matches.
    #[error("`{0}` is not a legal move here")]
    Illegal(String),
    /// Several legal moves match; the text must name more squares.
    #[error("`{0}` is ambiguous: give the intermediate squares")]
    Ambiguous(String),
}

/// Reads a move in the variant's notation and finds it among the legal moves.
///
/// A capture may be written with its full route (any route of the move) or with
/// just its start and end squares when that is unambiguous.
pub fn parse_move<V: Variant>(pos: &Position<V>, text: &str) -> Result<Move, MoveParseError> {
    let text = text.trim();
    let parts: Vec<&str> = text.split(['-', ':', 'x', 'X']).collect();
    if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
        return Err(MoveParseError::Malformed(text.to_string()));
    }
    let mut squares = Vec::with_capacity(parts.len());
    for part in &parts {
        let s =
            V::parse_square(part).ok_or_else(|| MoveParseError::UnknownSquare(part.to_string()))?;
        squares.push(V::GEOMETRY.bit_of[s]);
    }
    let legal = {
        let mut v = Vec::new();
        generate(pos, &mut v);
        v
    };
    // Exact routes first; the start-and-end shortcut only when no route matches.
    let mut exact: Vec<Move> = Vec::new();
    let mut shortcut: Vec<Move> = Vec::new();
    let mut consider = |mv: Move, route: &[u8]| {
        if !legal.contains(&mv) {
            return;
        }
        let list = if route == squares.as_slice() {
            &mut exact
        } else if squares.len() == 2
            && squares[0] as u32 == mv.from_bit()
            && squares[1] as u32 == mv.to_bit()
        {
            &mut shortcut
        } else {
            return;
        };
        if !list.contains(&mv) {
            list.push(mv);
        }
    };
    if legal.first().is_some_and(Move::is_capture) {
        for_each_capture_sequence(pos, |from, to, captured, crowned, route| {
            consider(Move::new(from, to, captured, crowned), route);
        });
    } else {
        for mv in &legal {
            consider(*mv, &[mv.from_bit() as u8, mv.to_bit() as u8]);
        }
    }
    let matches = if exact.is_empty() { shortcut } else { exact };
    match matches.len() {
        0 => Err(MoveParseError::Illegal(text.to_string())),
        1 => Ok(matches[0]),
        _ => Err(MoveParseError::Ambiguous(text.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::variant::{International, Russian};

    /// The notation `path` gives: the route's square names joined.
    fn joined<V: Variant>(pos: &Position<V>, mv: &Move) -> String {
        let separator = if mv.is_capture() {
            V::CAPTURE_SEPARATOR
        } else {
            '-'
        };
        let names: Vec<String> = path(pos, mv).into_iter().map(V::square_name).collect();
        names.join(&separator.to_string())
    }

    fn check<V: Variant>(fen: &str, expected: &[&str]) {
        let pos: Position<V> = fen.parse().unwrap();
        let mut printed: Vec<String> = legal_moves(&pos)
            .iter()
            .map(|mv| {
                let text = notation(&pos, mv);
                assert_eq!(text, joined(&pos, mv));
                text
            })
            .collect();
        printed.sort();
        assert_eq!(printed, expected);
    }

    #[test]
    fn written_notation_follows_the_route() {
        check::<Russian>("W:Wc3:Bd4,f6", &["c3:e5:g7"]);
        check::<Russian>("W:Wa1:Bh8", &["a1-b2"]);
        check::<International>("W:W32:B28,18", &["32x23x12"]);
        check::<International>("W:W32:B5", &["32-27", "32-28"]);
    }
}
