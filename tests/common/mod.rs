//! Shared by the integration tests: a deliberately naive solver — every position in
//! a `HashMap`, plain iteration to a fixed point, nothing shared with the generator
//! but the move generator.

use std::collections::HashMap;

use damka_formats::{Color, PieceKind, Position, Value, Variant};
use damka_probe::{apply, legal_moves};

/// Every legal position with 1 to `max_pieces` pieces, either side to move; with
/// `kings_only`, kings only.
pub fn all_positions<V: Variant>(max_pieces: usize, kings_only: bool) -> Vec<Position<V>> {
    let squares = V::GEOMETRY.squares;
    let kinds: &[(Color, PieceKind)] = if kings_only {
        &[
            (Color::White, PieceKind::King),
            (Color::Black, PieceKind::King),
        ]
    } else {
        &[
            (Color::White, PieceKind::Man),
            (Color::White, PieceKind::King),
            (Color::Black, PieceKind::Man),
            (Color::Black, PieceKind::King),
        ]
    };
    let mut out = Vec::new();
    let mut chosen: Vec<(Color, PieceKind, usize)> = Vec::new();
    fn place<V: Variant>(
        start: usize,
        left: usize,
        squares: usize,
        kinds: &[(Color, PieceKind)],
        chosen: &mut Vec<(Color, PieceKind, usize)>,
        out: &mut Vec<Position<V>>,
    ) {
        if !chosen.is_empty() {
            for side in [Color::White, Color::Black] {
                if let Ok(pos) = Position::from_pieces(side, chosen.iter().copied()) {
                    out.push(pos);
                }
            }
        }
        if left == 0 {
            return;
        }
        for square in start..squares {
            for &(color, kind) in kinds {
                chosen.push((color, kind, square));
                place(square + 1, left - 1, squares, kinds, chosen, out);
                chosen.pop();
            }
        }
    }
    place(0, max_pieces, squares, kinds, &mut chosen, &mut out);
    out
}

/// Solves `positions` (closed under moves, apart from positions whose side to move
/// has no pieces) by iterating to a fixed point: in round `d`, a position becomes a
/// win in `d` if a successor is a loss in `d - 1`, and a loss in `d` if all its
/// successors are wins, the longest in `d - 1`.
pub fn naive_solve<V: Variant>(positions: &[Position<V>]) -> HashMap<Position<V>, Value> {
    let id: HashMap<Position<V>, usize> =
        positions.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    // Successor ids; `None` marks a successor whose side to move has no pieces.
    let successors: Vec<Vec<Option<usize>>> = positions
        .iter()
        .map(|p| {
            legal_moves(p)
                .iter()
                .map(|mv| {
                    let next = apply(p, mv);
                    if next.pieces(next.side()) == 0 {
                        None
                    } else {
                        Some(id[&next])
                    }
                })
                .collect()
        })
        .collect();
    let mut dtw: Vec<Option<u16>> = vec![None; positions.len()];
    let successor_dtw = |dtw: &Vec<Option<u16>>, s: &Option<usize>| match s {
        None => Some(0),
        Some(i) => dtw[*i],
    };
    let mut quiet_rounds = 0;
    let mut d: u16 = 0;
    while quiet_rounds < 2 {
        let mut found = Vec::new();
        for (i, succ) in successors.iter().enumerate() {
            if dtw[i].is_some() {
                continue;
            }
            let decided = if d % 2 == 1 {
                succ.iter().any(|s| successor_dtw(&dtw, s) == Some(d - 1))
            } else {
                succ.iter()
                    .all(|s| successor_dtw(&dtw, s).is_some_and(|x| x % 2 == 1 && x < d))
                    && (succ.is_empty()
                        || succ.iter().any(|s| successor_dtw(&dtw, s) == Some(d - 1)))
            };
            if decided {
                found.push(i);
            }
        }
        quiet_rounds = if found.is_empty() {
            quiet_rounds + 1
        } else {
            0
        };
        for i in found {
            dtw[i] = Some(d);
        }
        d += 1;
    }
    positions
        .iter()
        .zip(dtw)
        .map(|(p, d)| (*p, d.map_or(Value::DRAW, Value::decided)))
        .collect()
}
