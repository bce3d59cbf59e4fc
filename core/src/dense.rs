//! Conversion between padded bitboards and dense square masks.
//!
//! A padded bitboard (see [`crate::variant`]) has a ghost bit after every second
//! rank; a *dense* mask has bit `s` for square index `s`, with no gaps. Counting
//! "the squares below this one" is a popcount in the dense layout, which is what the
//! index needs. Each direction costs three operations per ghost bit (four on the
//! 8x8 board, five on the 10x10), with the ghost positions known at compile time.

use std::marker::PhantomData;

use crate::variant::Variant;

/// Compile-time facts about the ghost bits of a variant's padded layout.
struct Ghosts<V>(PhantomData<V>);

/// At most this many ghost bits (a 64-bit padded board has at most 8).
const MAX_GHOSTS: usize = 8;

impl<V: Variant> Ghosts<V> {
    /// Number of ghost bits below the top of the padded layout.
    const COUNT: usize = V::GEOMETRY.bits as usize - V::GEOMETRY.squares;
    /// For each ghost, highest first: the padded bits above it.
    const PADDED_ABOVE: [u64; MAX_GHOSTS] = padded_above(V::GEOMETRY.mask, V::GEOMETRY.bits);
    /// For each ghost, highest first: the dense bits at or above its insertion point.
    const DENSE_FROM: [u64; MAX_GHOSTS] = dense_from(V::GEOMETRY.mask, V::GEOMETRY.bits);
}

/// The ghost bits of a layout, lowest first, and how many there are.
const fn ghost_bits(mask: u64, bits: u32) -> ([u32; MAX_GHOSTS], usize) {
    let mut ghosts = [0; MAX_GHOSTS];
    let mut count = 0;
    let mut b = 0;
    while b < bits {
        if mask >> b & 1 == 0 {
            ghosts[count] = b;
            count += 1;
        }
        b += 1;
    }
    (ghosts, count)
}

const fn padded_above(mask: u64, bits: u32) -> [u64; MAX_GHOSTS] {
    let (ghosts, count) = ghost_bits(mask, bits);
    let mut out = [0; MAX_GHOSTS];
    let mut i = 0;
    while i < count {
        out[i] = !0u64 << ghosts[count - 1 - i] << 1;
        i += 1;
    }
    out
}

const fn dense_from(mask: u64, bits: u32) -> [u64; MAX_GHOSTS] {
    let (ghosts, count) = ghost_bits(mask, bits);
    let mut out = [0; MAX_GHOSTS];
    let mut i = 0;
    while i < count {
        let g = count - 1 - i;
        // Ghost g has g ghosts and ghosts[g] - g squares below it.
        out[i] = !0u64 << (ghosts[g] - g as u32);
        i += 1;
    }
    out
}

/// The dense square mask of a padded bitboard (which must have no ghost bits set).
#[inline]
pub fn to_dense<V: Variant>(padded: u64) -> u64 {
    let mut x = padded;
    let mut i = 0;
    while i < Ghosts::<V>::COUNT {
        x -= (x & Ghosts::<V>::PADDED_ABOVE[i]) >> 1;
        i += 1;
    }
    x
}

/// The padded bitboard of a dense square mask (which must lie below the variant's
/// square count).
#[inline]
pub fn to_padded<V: Variant>(dense: u64) -> u64 {
    let mut x = dense;
    let mut i = 0;
    while i < Ghosts::<V>::COUNT {
        x += x & Ghosts::<V>::DENSE_FROM[i];
        i += 1;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{International, Russian};

    fn round_trip<V: Variant>() {
        let g = V::GEOMETRY;
        assert_eq!(to_dense::<V>(g.mask), (1u64 << g.squares) - 1);
        assert_eq!(to_padded::<V>((1u64 << g.squares) - 1), g.mask);
        for s in 0..g.squares {
            let bit = 1u64 << g.bit_of[s];
            assert_eq!(to_dense::<V>(bit), 1 << s);
            assert_eq!(to_padded::<V>(1 << s), bit);
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            x = x.rotate_left(7).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            let padded = x & g.mask;
            assert_eq!(to_padded::<V>(to_dense::<V>(padded)), padded);
        }
    }

    #[test]
    fn russian_round_trip() {
        round_trip::<Russian>();
    }

    #[test]
    fn international_round_trip() {
        round_trip::<International>();
    }
}
