//! Perft: the number of leaf nodes of the legal move tree, for checking the move
//! generator against published counts.

use crate::position::Position;
use crate::variant::Variant;

use crate::movegen::{count_moves, generate, Move};
use crate::moves::apply;

/// Counts the positions reached after exactly `depth` plies of legal moves, with
/// capture routes that differ only in path counted once. Single-threaded, with bulk
/// counting at the last ply; callers that want threads split the root moves.
pub fn perft<V: Variant>(pos: &Position<V>, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(64)).collect();
    walk(pos, depth, &mut buffers)
}

/// The recursive walk; `buffers[d]` is the move list of the node at remaining depth d.
fn walk<V: Variant>(pos: &Position<V>, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(pos, &mut buffers[0]),
        _ => {
            let (below, here) = buffers.split_at_mut(depth as usize - 1);
            let moves = &mut here[0];
            generate(pos, moves);
            let mut total = 0;
            for mv in moves.iter() {
                total += walk(&apply(pos, mv), depth - 1, below);
            }
            total
        }
    }
}
