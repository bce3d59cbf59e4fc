//! `/api/board`: a variant's board (its dark squares, their names and places), and
//! a position's pieces, so that the page draws both variants from the program's
//! own geometry and FEN reader.

use damka_core::{Color, PieceKind};
use damka_probe::{Position, Variant};
use serde::Serialize;

use crate::error::ApiError;

/// A board and, when a FEN was given, the position on it.
#[derive(Debug, Clone, Serialize)]
pub struct BoardJson {
    /// Squares per side (8 or 10).
    pub width: u32,
    /// The dark squares in notation order, the order a canonical FEN lists
    /// pieces in (Russian by file, then rank; International by number).
    pub squares: Vec<SquareJson>,
    /// The position, when a FEN was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<PositionJson>,
}

/// One dark square.
#[derive(Debug, Clone, Serialize)]
pub struct SquareJson {
    /// Its name in notation (`a1`, `46`).
    pub name: String,
    /// Its file, 0 for the a-file (White's left).
    pub file: u32,
    /// Its rank, 0 for White's back rank.
    pub rank: u32,
}

/// A position's pieces.
#[derive(Debug, Clone, Serialize)]
pub struct PositionJson {
    /// The position in canonical PDN FEN.
    pub fen: String,
    /// `white` or `black`: the side to move.
    pub side: &'static str,
    /// The pieces, in square order.
    pub pieces: Vec<PieceJson>,
}

/// One piece.
#[derive(Debug, Clone, Serialize)]
pub struct PieceJson {
    /// The square's name.
    pub square: String,
    /// `white` or `black`.
    pub color: &'static str,
    /// Whether it is a king.
    pub king: bool,
}

/// The board of `V`, with the position `fen` on it when given.
pub fn board<V: Variant>(fen: Option<&str>) -> Result<BoardJson, ApiError> {
    let g = V::GEOMETRY;
    let mut squares: Vec<SquareJson> = (0..g.squares)
        .map(|s| SquareJson {
            name: V::square_name(s),
            file: g.file(s),
            rank: g.rank(s),
        })
        .collect();
    squares.sort_by(|a, b| (a.name.len(), &a.name).cmp(&(b.name.len(), &b.name)));
    let position = match fen {
        None => None,
        Some(text) => Some(position_json(&text.parse::<Position<V>>()?)),
    };
    Ok(BoardJson {
        width: g.width,
        squares,
        position,
    })
}

/// The pieces of `pos`.
fn position_json<V: Variant>(pos: &Position<V>) -> PositionJson {
    let pieces = (0..V::GEOMETRY.squares)
        .filter_map(|s| {
            pos.piece_at(s).map(|(color, kind)| PieceJson {
                square: V::square_name(s),
                color: color_name(color),
                king: kind == PieceKind::King,
            })
        })
        .collect();
    PositionJson {
        fen: pos.to_string(),
        side: color_name(pos.side()),
        pieces,
    }
}

/// `white` or `black`.
fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}
