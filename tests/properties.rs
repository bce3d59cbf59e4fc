//! Property tests on random legal positions of both variants.

use damka_core::movegen::for_each_capture_sequence;
use damka_core::{apply, has_capture, legal_moves, notation, parse_move};
use damka_core::{Bits, Color, International, PieceKind, Position, Russian, Variant};
use proptest::prelude::*;

/// A random legal position: up to `max` pieces per side on distinct squares, men
/// kept off their own promotion row.
fn positions<V: Variant>(max: usize) -> impl Strategy<Value = Position<V>> {
    let squares = V::GEOMETRY.squares;
    (
        proptest::sample::subsequence((0..squares).collect::<Vec<_>>(), 0..=2 * max),
        proptest::collection::vec((any::<bool>(), any::<bool>()), 2 * max),
        any::<bool>(),
    )
        .prop_map(move |(chosen, flags, white_to_move)| {
            let g = V::GEOMETRY;
            let mut pieces = Vec::new();
            let (mut whites, mut blacks) = (0, 0);
            for (square, (white, king)) in chosen.into_iter().zip(flags) {
                let color = if white { Color::White } else { Color::Black };
                let count = if white { &mut whites } else { &mut blacks };
                if *count == max {
                    continue;
                }
                *count += 1;
                let rank = g.rank(square);
                let on_promotion_row = match color {
                    Color::White => rank == g.width - 1,
                    Color::Black => rank == 0,
                };
                let kind = if king || on_promotion_row {
                    PieceKind::King
                } else {
                    PieceKind::Man
                };
                pieces.push((color, kind, square));
            }
            let side = if white_to_move {
                Color::White
            } else {
                Color::Black
            };
            Position::from_pieces(side, pieces).unwrap()
        })
}

/// Checks one route of a capture by walking it: each leg runs along one diagonal
/// over exactly one opposing piece that was not jumped before, every other square
/// on the leg is empty (jumped pieces stay and block; the start square is empty),
/// and a man's leg is exactly two steps.
fn route_obeys_turkish_strike<V: Variant>(pos: &Position<V>, route: &[u8], captured: u64) -> bool {
    let g = V::GEOMETRY;
    let mover = pos.pieces(pos.side());
    let opp = pos.pieces(pos.side().opposite());
    let start = 1u64 << route[0];
    let occupied = (mover | opp) & !start;
    let mut is_king = pos.kings() & start != 0;
    let mut jumped = 0u64;
    let half = g.half as i32;
    for leg in route.windows(2) {
        let (a, b) = (leg[0] as i32, leg[1] as i32);
        let step = [half, half + 1, -(half + 1), -half].into_iter().find(|&d| {
            (b - a) % d == 0 && (b - a) / d > 0 && {
                let mut s = a;
                let mut ok = true;
                while s != b {
                    s += d;
                    ok &= s >= 0 && g.mask >> s & 1 == 1;
                }
                ok
            }
        });
        let Some(d) = step else { return false };
        let mut victims = 0;
        let mut s = a + d;
        while s != b {
            let bit = 1u64 << s;
            if jumped & bit != 0 || mover & bit & !start != 0 {
                return false;
            }
            if opp & bit != 0 {
                victims += 1;
                jumped |= bit;
            }
            s += d;
        }
        if victims != 1 || occupied & (1u64 << b) != 0 {
            return false;
        }
        if !is_king && (b - a) != 2 * d {
            return false;
        }
        let promotion = match pos.side() {
            Color::White => g.top_rank,
            Color::Black => g.bottom_rank,
        };
        if V::PROMOTE_DURING_CAPTURE && promotion >> b & 1 == 1 {
            is_king = true;
        }
    }
    jumped == captured
}

fn check_position<V: Variant>(pos: &Position<V>) -> Result<(), TestCaseError> {
    let text = pos.to_string();
    let reparsed: Position<V> = text.parse().unwrap();
    prop_assert_eq!(&reparsed, pos);
    let before = pos.material();
    for mv in legal_moves(pos) {
        let after = apply(pos, &mv);
        prop_assert!(Position::<V>::from_bitboards(
            after.white(),
            after.black(),
            after.kings(),
            after.side()
        )
        .is_ok());
        let m = after.material();
        let captured = mv.captured().count_ones();
        let (own_before, opp_before, own_after, opp_after) = match pos.side() {
            Color::White => (
                before.white_men + before.white_kings,
                before.black_men + before.black_kings,
                m.white_men + m.white_kings,
                m.black_men + m.black_kings,
            ),
            Color::Black => (
                before.black_men + before.black_kings,
                before.white_men + before.white_kings,
                m.black_men + m.black_kings,
                m.white_men + m.white_kings,
            ),
        };
        prop_assert_eq!(own_after, own_before);
        prop_assert_eq!(opp_after + captured, opp_before);
        let round_trip = parse_move(pos, &notation(pos, &mv));
        prop_assert_eq!(round_trip, Ok(mv));
    }
    let mut routes_ok = true;
    let mut any_capture = false;
    for_each_capture_sequence(pos, |_, _, captured, _, route| {
        routes_ok &= route_obeys_turkish_strike(pos, route, captured);
        any_capture = true;
    });
    prop_assert!(routes_ok, "a capture route breaks the rules in {}", pos);
    prop_assert_eq!(
        has_capture(pos),
        any_capture,
        "the bitboard capture test and the capture search disagree in {}",
        pos
    );
    for bit in Bits(pos.occupied()) {
        prop_assert!(V::GEOMETRY.square_of[bit as usize] != u8::MAX);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn russian_positions_behave(pos in positions::<Russian>(12)) {
        check_position(&pos)?;
    }

    #[test]
    fn international_positions_behave(pos in positions::<International>(20)) {
        check_position(&pos)?;
    }

    #[test]
    fn russian_sparse_positions_behave(pos in positions::<Russian>(4)) {
        check_position(&pos)?;
    }

    #[test]
    fn international_sparse_positions_behave(pos in positions::<International>(5)) {
        check_position(&pos)?;
    }
}
