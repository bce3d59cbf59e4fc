//! Diagonal rays of the padded layout, precomputed: a flying king's reach in one
//! direction is a mask and a bit scan instead of a step-by-step walk.
//!
//! The generator's forward pass counts the king moves and tests for captures of
//! every position, and searches the captures of many: in kings-only endings the
//! walk along each ray was a fifth of a build's time (README, Generation, session
//! 7). The directions are numbered as [`crate::movegen::directions`] lists them:
//! 0 and 1 step to higher bits, 2 and 3 to lower ones.

use std::marker::PhantomData;

use crate::variant::Variant;

/// The rays of a variant: for each bit and direction, every square strictly
/// beyond the bit in that direction, up to the board's edge.
pub struct Rays<V>(PhantomData<V>);

impl<V: Variant> Rays<V> {
    /// `TABLE[bit][direction]`.
    const TABLE: [[u64; 4]; 64] = build(V::GEOMETRY.mask, V::GEOMETRY.half as i32);

    /// The empty squares a piece on bit `from` reaches in direction `d`
    /// (stopping before the first occupied square), and that first occupied
    /// square's bit (0 when the ray reaches the edge). `occupied` is the
    /// occupied squares (no bit outside the board).
    #[inline(always)]
    pub fn reach(from: u32, d: usize, occupied: u64) -> (u64, u64) {
        let ray = Self::TABLE[from as usize][d];
        let blockers = ray & occupied;
        if blockers == 0 {
            return (ray, 0);
        }
        if d < 2 {
            let first = blockers & blockers.wrapping_neg();
            (ray & (first - 1), first)
        } else {
            let first = 1u64 << (63 - blockers.leading_zeros());
            (ray & !(first | (first - 1)), first)
        }
    }

    /// The squares of `set` (part of one ray in direction `d`), nearest to the
    /// ray's start first, one by one.
    #[inline(always)]
    pub fn nearest_first(set: u64, d: usize) -> impl Iterator<Item = u32> {
        let mut rest = set;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let bit = if d < 2 {
                rest.trailing_zeros()
            } else {
                63 - rest.leading_zeros()
            };
            rest &= !(1u64 << bit);
            Some(bit)
        })
    }
}

/// The rays of a layout with `half` dark squares per rank and real squares `mask`.
const fn build(mask: u64, half: i32) -> [[u64; 4]; 64] {
    let steps = [half, half + 1, -(half + 1), -half];
    let mut table = [[0u64; 4]; 64];
    let mut bit = 0;
    while bit < 64 {
        if mask >> bit & 1 == 1 {
            let mut d = 0;
            while d < 4 {
                let mut ray = 0u64;
                let mut at = bit as i32 + steps[d];
                while at >= 0 && at < 64 && mask >> at & 1 == 1 {
                    ray |= 1 << at;
                    at += steps[d];
                }
                table[bit][d] = ray;
                d += 1;
            }
        }
        bit += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Bits;
    use crate::variant::{International, Russian};

    /// One diagonal step of a bitboard, as the move generator shifts.
    fn shift<V: Variant>(bb: u64, d: i32) -> u64 {
        (if d >= 0 { bb << d } else { bb >> -d }) & V::GEOMETRY.mask
    }

    /// The rays equal walking step by step.
    fn rays_equal_walks<V: Variant>() {
        let mask = V::GEOMETRY.mask;
        let h = V::GEOMETRY.half as i32;
        for bit in Bits(mask) {
            for (d, step) in [h, h + 1, -(h + 1), -h].into_iter().enumerate() {
                // A few occupancies: empty board, and every single blocker.
                let mut occupancies = vec![0u64];
                occupancies.extend(Bits(mask).map(|b| 1u64 << b));
                for occupied in occupancies {
                    let occupied = occupied & !(1u64 << bit);
                    let (mut reach, mut blocker) = (0, 0);
                    let mut s = shift::<V>(1u64 << bit, step);
                    while s != 0 && s & occupied == 0 {
                        reach |= s;
                        s = shift::<V>(s, step);
                    }
                    if s & occupied != 0 {
                        blocker = s;
                    }
                    assert_eq!(Rays::<V>::reach(bit, d, occupied), (reach, blocker));
                    let order: Vec<u32> = Rays::<V>::nearest_first(reach, d).collect();
                    let mut walked = Vec::new();
                    let mut s = shift::<V>(1u64 << bit, step);
                    while s & reach != 0 {
                        walked.push(s.trailing_zeros());
                        s = shift::<V>(s, step);
                    }
                    assert_eq!(order, walked);
                }
            }
        }
    }

    #[test]
    fn rays_are_the_step_by_step_walks() {
        rays_equal_walks::<Russian>();
        rays_equal_walks::<International>();
    }
}
