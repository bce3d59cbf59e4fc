//! Legal move generation for both variants, one generic implementation.
//!
//! Captures are found by a depth-first search over jump sequences that follows
//! RULES.md exactly: men capture forward and backward; kings fly and may land on any
//! empty square behind the captured piece, except that when some landing squares
//! let the capture go on, the king must land on one of those; jumped pieces stay on
//! the board until the move is over (Turkish strike), so they block and cannot be
//! jumped twice; the moving piece's start square counts as empty. The variant
//! decides promotion during a capture (Russian) and the majority rule
//! (International). Sequences that differ only in their path are one move.
//!
//! The [`Move`] type the generator produces is defined here; [`crate::moves`]
//! re-exports it with making moves and their notation.

use crate::color::Color;
use crate::position::{Bits, Position};
use crate::rays::Rays;
use crate::variant::Variant;

/// A legal move, in the padded bit layout of its variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
    crowned: bool,
    captured: u64,
}

impl Move {
    /// Builds a move from bit numbers (for the move generator).
    #[inline]
    pub(crate) fn new(from: u32, to: u32, captured: u64, crowned: bool) -> Move {
        Move {
            from: from as u8,
            to: to as u8,
            crowned,
            captured,
        }
    }

    /// The start square index.
    pub fn from_square<V: Variant>(&self) -> usize {
        V::GEOMETRY.square_of[self.from as usize] as usize
    }

    /// The end square index.
    pub fn to_square<V: Variant>(&self) -> usize {
        V::GEOMETRY.square_of[self.to as usize] as usize
    }

    /// The bit of the start square.
    #[inline]
    pub fn from_bit(&self) -> u32 {
        self.from as u32
    }

    /// The bit of the end square.
    #[inline]
    pub fn to_bit(&self) -> u32 {
        self.to as u32
    }

    /// The captured pieces as a padded bitboard.
    #[inline]
    pub fn captured(&self) -> u64 {
        self.captured
    }

    /// Whether this move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Whether a man is crowned by this move.
    #[inline]
    pub fn is_promotion(&self) -> bool {
        self.crowned
    }

    /// The captured square indices, in increasing order.
    pub fn captured_squares<V: Variant>(&self) -> Vec<usize> {
        let mut squares: Vec<usize> = Bits(self.captured)
            .map(|b| V::GEOMETRY.square_of[b as usize] as usize)
            .collect();
        squares.sort_unstable();
        squares
    }
}

/// The longest capture path: one jump per opposing piece, plus the start square.
pub(crate) const MAX_PATH: usize = 24;

/// Diagonal steps in the padded bit layout: up-left, up-right, down-left,
/// down-right (see `crate::variant`).
#[doc(hidden)]
#[inline(always)]
pub fn directions<V: Variant>() -> [i32; 4] {
    let h = V::GEOMETRY.half as i32;
    [h, h + 1, -(h + 1), -h]
}

/// The two forward steps of a colour's men.
#[inline(always)]
fn forward<V: Variant>(color: Color) -> [i32; 2] {
    let d = directions::<V>();
    match color {
        Color::White => [d[0], d[1]],
        Color::Black => [d[2], d[3]],
    }
}

/// The rank on which a colour's men promote.
#[doc(hidden)]
#[inline(always)]
pub fn promotion_rank<V: Variant>(color: Color) -> u64 {
    match color {
        Color::White => V::GEOMETRY.top_rank,
        Color::Black => V::GEOMETRY.bottom_rank,
    }
}

/// Shifts a bitboard one diagonal step; squares that leave the board vanish.
#[doc(hidden)]
#[inline(always)]
pub fn shift<V: Variant>(bb: u64, d: i32) -> u64 {
    (if d >= 0 { bb << d } else { bb >> -d }) & V::GEOMETRY.mask
}

/// The side to move's pieces, the opponent's pieces and the empty squares.
#[inline(always)]
fn sides<V: Variant>(pos: &Position<V>) -> (u64, u64, u64) {
    let own = pos.pieces(pos.side());
    let opp = pos.pieces(pos.side().opposite());
    (own, opp, pos.empty())
}

/// Fills `out` with every legal move of `pos`: the captures if there is one,
/// otherwise the quiet moves. Most positions have no capture, and the bitboard
/// test [`has_capture`] says so far faster than the capture search finds none.
pub fn generate<V: Variant>(pos: &Position<V>, out: &mut Vec<Move>) {
    out.clear();
    if has_capture(pos) {
        generate_captures(pos, out);
    } else {
        generate_quiet(pos, out);
    }
}

/// Returns the legal moves of `pos` in a new vector.
pub fn legal_moves<V: Variant>(pos: &Position<V>) -> Vec<Move> {
    let mut out = Vec::with_capacity(32);
    generate(pos, &mut out);
    out
}

/// The number of legal moves, without building the quiet moves (bulk counting).
#[doc(hidden)]
pub fn count_moves<V: Variant>(pos: &Position<V>, scratch: &mut Vec<Move>) -> u64 {
    scratch.clear();
    generate_captures(pos, scratch);
    if !scratch.is_empty() {
        return scratch.len() as u64;
    }
    let (own, _, empty) = sides(pos);
    let men = own & !pos.kings();
    let mut count = 0u64;
    for d in forward::<V>(pos.side()) {
        count += (shift::<V>(men, d) & empty).count_ones() as u64;
    }
    count + count_king_moves(pos) as u64
}

/// The number of quiet king moves of the side to move (whether or not a capture
/// makes them illegal).
#[doc(hidden)]
#[inline]
pub fn count_king_moves<V: Variant>(pos: &Position<V>) -> u32 {
    let (own, _, empty) = sides(pos);
    let occupied = V::GEOMETRY.mask & !empty;
    let mut count = 0;
    for king in Bits(own & pos.kings()) {
        for d in 0..4 {
            count += Rays::<V>::reach(king, d, occupied).0.count_ones();
        }
    }
    count
}

/// Whether the side to move must capture.
pub fn has_capture<V: Variant>(pos: &Position<V>) -> bool {
    let (own, opp, empty) = sides(pos);
    let men = own & !pos.kings();
    for d in directions::<V>() {
        if shift::<V>(shift::<V>(men, d) & opp, d) & empty != 0 {
            return true;
        }
    }
    let occupied = V::GEOMETRY.mask & !empty;
    for king in Bits(own & pos.kings()) {
        for (d, step) in directions::<V>().into_iter().enumerate() {
            let (_, blocker) = Rays::<V>::reach(king, d, occupied);
            if blocker & opp != 0 && shift::<V>(blocker, step) & empty != 0 {
                return true;
            }
        }
    }
    false
}

/// Appends the quiet (non-capturing) moves of `pos`.
#[doc(hidden)]
pub fn generate_quiet<V: Variant>(pos: &Position<V>, out: &mut Vec<Move>) {
    generate_man_moves(pos, out);
    let (own, _, empty) = sides(pos);
    let occupied = V::GEOMETRY.mask & !empty;
    for king in Bits(own & pos.kings()) {
        for d in 0..4 {
            let (reach, _) = Rays::<V>::reach(king, d, occupied);
            for to in Rays::<V>::nearest_first(reach, d) {
                out.push(Move::new(king, to, 0, false));
            }
        }
    }
}

/// Appends the quiet moves of the men of the side to move.
#[doc(hidden)]
#[inline]
pub fn generate_man_moves<V: Variant>(pos: &Position<V>, out: &mut Vec<Move>) {
    let (own, _, empty) = sides(pos);
    let men = own & !pos.kings();
    let promotion = promotion_rank::<V>(pos.side());
    for d in forward::<V>(pos.side()) {
        for to in Bits(shift::<V>(men, d) & empty) {
            let from = (to as i32 - d) as u32;
            out.push(Move::new(from, to, 0, (1u64 << to) & promotion != 0));
        }
    }
}

/// Appends the capture moves of `pos`, deduplicated and, where the variant has it,
/// filtered by the majority rule.
#[doc(hidden)]
pub fn generate_captures<V: Variant>(pos: &Position<V>, out: &mut Vec<Move>) {
    let start = out.len();
    let mut best = 0u32;
    for_each_capture_sequence(pos, |from, to, captured, promotes, _path| {
        let count = captured.count_ones();
        if V::MAJORITY_RULE {
            if count < best {
                return;
            }
            if count > best {
                best = count;
                out.truncate(start);
            }
        }
        let mv = Move::new(from, to, captured, promotes);
        if !out[start..].contains(&mv) {
            out.push(mv);
        }
    });
}

/// Calls `sink(from, to, captured, promotes, path)` for every complete capture
/// sequence of the side to move, before the majority rule and before merging
/// sequences that differ only in path. `path` lists the bits visited, start first.
#[doc(hidden)]
pub fn for_each_capture_sequence<V: Variant>(
    pos: &Position<V>,
    mut sink: impl FnMut(u32, u32, u64, bool, &[u8]),
) {
    let (own, opp, empty) = sides(pos);
    let kings = pos.kings();
    let side = pos.side();
    for from in Bits(own) {
        let from_bit = 1u64 << from;
        let mut search = CaptureSearch::<V, _> {
            opp,
            empty: empty | from_bit,
            promotion: promotion_rank::<V>(side),
            from,
            path: [0; MAX_PATH],
            sink: &mut sink,
            variant: std::marker::PhantomData,
        };
        search.path[0] = from as u8;
        if kings & from_bit != 0 {
            search.king(from, 0, 1, false);
        } else {
            search.man(from, 0, 1);
        }
    }
}

/// The state of one piece's capture search.
struct CaptureSearch<'a, V, F> {
    /// Opposing pieces; jumped ones stay here (Turkish strike).
    opp: u64,
    /// Empty squares, including the moving piece's start square.
    empty: u64,
    /// The moving side's promotion rank.
    promotion: u64,
    /// The start square's bit.
    from: u32,
    /// The squares visited so far.
    path: [u8; MAX_PATH],
    /// Receives each finished sequence.
    sink: &'a mut F,
    variant: std::marker::PhantomData<V>,
}

impl<V: Variant, F: FnMut(u32, u32, u64, bool, &[u8])> CaptureSearch<'_, V, F> {
    /// Extends a man's sequence at bit `at`; returns whether any jump was possible.
    fn man(&mut self, at: u32, captured: u64, depth: usize) -> bool {
        let mut found = false;
        for d in directions::<V>() {
            let victim = shift::<V>(1u64 << at, d) & self.opp & !captured;
            let landing = shift::<V>(victim, d) & self.empty;
            if landing == 0 {
                continue;
            }
            found = true;
            let to = landing.trailing_zeros();
            let captured = captured | victim;
            self.path[depth] = to as u8;
            let crowned = landing & self.promotion != 0;
            if crowned && V::PROMOTE_DURING_CAPTURE {
                if !self.king(to, captured, depth + 1, true) {
                    self.finish(to, captured, true, depth + 1);
                }
            } else if !self.man(to, captured, depth + 1) {
                self.finish(to, captured, crowned, depth + 1);
            }
        }
        found
    }

    /// Extends a king's sequence at bit `at`; returns whether any jump was possible.
    /// `crowned` tells that the piece was a man promoted during this capture.
    fn king(&mut self, at: u32, captured: u64, depth: usize, crowned: bool) -> bool {
        let occupied = V::GEOMETRY.mask & !self.empty;
        let mut found = false;
        for d in 0..4 {
            let (_, victim) = Rays::<V>::reach(at, d, occupied);
            if victim & self.opp & !captured == 0 {
                continue;
            }
            let (landings, _) = Rays::<V>::reach(victim.trailing_zeros(), d, occupied);
            if landings == 0 {
                continue;
            }
            found = true;
            let captured = captured | victim;
            let mut continued = false;
            for to in Rays::<V>::nearest_first(landings, d) {
                self.path[depth] = to as u8;
                continued |= self.king(to, captured, depth + 1, crowned);
            }
            if !continued {
                for to in Rays::<V>::nearest_first(landings, d) {
                    self.path[depth] = to as u8;
                    self.finish(to, captured, crowned, depth + 1);
                }
            }
        }
        found
    }

    /// Reports a finished sequence.
    #[inline]
    fn finish(&mut self, to: u32, captured: u64, crowned: bool, len: usize) {
        (self.sink)(self.from, to, captured, crowned, &self.path[..len]);
    }
}
