//! The bit layout of `damka_probe_bits`, and its conversion to the padded layout
//! of [`damka_core::variant`]. The layout is drawn in the doc comment of
//! [`crate::damka_probe_bits`] (and so in the header).
//!
//! - Russian: bit `i` is the `i`-th dark square counted rank by rank from White's
//!   side, left to right: a1 = 0, c1 = 1, e1 = 2, g1 = 3, b2 = 4, ..., h8 = 31.
//!   That is core's square index.
//! - International: bit `i` is square `i + 1` of the standard numbering 1–50,
//!   which counts from Black's side (square 1 is b10, square 46 is a1).

use damka_core::{Bits, Color, Position, Variant, VariantKind};

use crate::error::{Failure, DAMKA_ERR_IMPOSSIBLE_POSITION};

/// The four piece sets of a position in the C layout.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sets {
    /// White's men.
    pub white_men: u64,
    /// White's kings.
    pub white_kings: u64,
    /// Black's men.
    pub black_men: u64,
    /// Black's kings.
    pub black_kings: u64,
}

/// Core's square index of bit `bit` of the C layout of `V`.
#[inline]
fn square_of_bit<V: Variant>(bit: u32) -> usize {
    let g = V::GEOMETRY;
    let bit = bit as usize;
    match V::KIND {
        VariantKind::Russian => bit,
        VariantKind::International => {
            let half = g.half as usize;
            let row_from_top = bit / half;
            (g.width as usize - 1 - row_from_top) * half + bit % half
        }
    }
}

/// One set of the C layout in core's padded layout, or `None` when it has a bit
/// past the board's last square.
#[inline]
fn padded<V: Variant>(set: u64) -> Option<u64> {
    let g = V::GEOMETRY;
    if set >> g.squares != 0 {
        return None;
    }
    Some(
        Bits(set)
            .map(|bit| 1u64 << g.bit_of[square_of_bit::<V>(bit)])
            .fold(0, |all, bit| all | bit),
    )
}

/// The position the C layout's sets give, with the side to move; every invariant
/// of [`Position`] is checked. Allocates nothing unless it fails.
#[inline]
pub(crate) fn position<V: Variant>(sets: Sets, side: Color) -> Result<Position<V>, Failure> {
    let off_board = || {
        Failure::new(
            DAMKA_ERR_IMPOSSIBLE_POSITION,
            format!(
                "invalid position: a bit past square {} of the {} board",
                V::GEOMETRY.squares,
                V::KIND
            ),
        )
    };
    let [white_men, white_kings, black_men, black_kings] = [
        sets.white_men,
        sets.white_kings,
        sets.black_men,
        sets.black_kings,
    ]
    .map(padded::<V>);
    let (wm, wk) = (
        white_men.ok_or_else(off_board)?,
        white_kings.ok_or_else(off_board)?,
    );
    let (bm, bk) = (
        black_men.ok_or_else(off_board)?,
        black_kings.ok_or_else(off_board)?,
    );
    for (color, men, kings) in [(Color::White, wm, wk), (Color::Black, bm, bk)] {
        if men & kings != 0 {
            let square = V::GEOMETRY.square_of[(men & kings).trailing_zeros() as usize];
            return Err(Failure::new(
                DAMKA_ERR_IMPOSSIBLE_POSITION,
                format!(
                    "invalid position: {color} has a man and a king on square {}",
                    V::square_name(square as usize)
                ),
            ));
        }
    }
    Ok(Position::from_bitboards(wm | wk, bm | bk, wk | bk, side)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_core::{International, Russian};

    fn lone_king<V: Variant>(bit: u32) -> Position<V> {
        let sets = Sets {
            white_men: 0,
            white_kings: 1 << bit,
            black_men: 0,
            black_kings: 0,
        };
        position(sets, Color::White).unwrap()
    }

    /// The name the layout gives bit `bit` of the Russian board, worked out from
    /// the layout's definition alone.
    fn russian_name(bit: u32) -> String {
        let rank = bit / 4;
        let file = 2 * (bit % 4) + rank % 2;
        format!("{}{}", (b'a' + file as u8) as char, rank + 1)
    }

    #[test]
    fn russian_bits_count_dark_squares_from_a1() {
        assert_eq!(russian_name(0), "a1");
        assert_eq!(russian_name(1), "c1");
        assert_eq!(russian_name(3), "g1");
        assert_eq!(russian_name(4), "b2");
        assert_eq!(russian_name(31), "h8");
        for bit in 0..32 {
            let fen = lone_king::<Russian>(bit).to_string();
            assert_eq!(fen, format!("W:WK{}:B", russian_name(bit)));
        }
    }

    #[test]
    fn international_bits_are_the_standard_numbers() {
        for bit in 0..50 {
            let fen = lone_king::<International>(bit).to_string();
            assert_eq!(fen, format!("W:WK{}:B", bit + 1));
        }
    }

    #[test]
    fn men_sit_where_the_fen_says() {
        let sets = Sets {
            white_men: 1 << 8 | 1 << 9,
            white_kings: 1 << 0,
            black_men: 1 << 20,
            black_kings: 1 << 31,
        };
        let pos: Position<Russian> = position(sets, Color::Black).unwrap();
        assert_eq!(pos, "B:WKa1,a3,c3:BKh8,b6".parse().unwrap());
        let sets = Sets {
            white_men: 1 << 31,
            white_kings: 0,
            black_men: 1 << 18,
            black_kings: 1 << 45,
        };
        let pos: Position<International> = position(sets, Color::White).unwrap();
        assert_eq!(pos, "W:W32:B19,K46".parse().unwrap());
    }

    #[test]
    fn impossible_sets_are_refused() {
        let refused = |sets: Sets| {
            let error = position::<Russian>(sets, Color::White).unwrap_err();
            assert_eq!(error.code, DAMKA_ERR_IMPOSSIBLE_POSITION);
            error.message
        };
        let base = Sets {
            white_men: 1 << 9,
            white_kings: 0,
            black_men: 0,
            black_kings: 1 << 31,
        };
        let off = refused(Sets {
            white_men: 1 << 32,
            ..base
        });
        assert!(off.contains("past square 32"), "{off}");
        let both = refused(Sets {
            white_kings: 1 << 9,
            ..base
        });
        assert!(both.contains("man and a king on square c3"), "{both}");
        let twice = refused(Sets {
            black_men: 1 << 9,
            ..base
        });
        assert!(twice.contains("c3"), "{twice}");
        let promoted = refused(Sets {
            white_men: 1 << 28,
            ..base
        });
        assert!(promoted.contains("promotion row"), "{promoted}");
        let err = position::<International>(
            Sets {
                white_men: 1 << 50,
                ..base
            },
            Color::White,
        )
        .unwrap_err();
        assert!(err.message.contains("past square 50"), "{}", err.message);
    }
}
