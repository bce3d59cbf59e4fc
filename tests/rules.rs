//! One test per rule case of `shared/RULES.md`, on positions built for it.

use std::collections::BTreeSet;

use damka_core::{apply, legal_moves, notation};
use damka_core::{International, PieceKind, Position, Russian, Variant};

/// The legal moves of `fen` in the variant's notation, as a sorted set.
fn moves<V: Variant>(fen: &str) -> BTreeSet<String> {
    let pos: Position<V> = fen.parse().unwrap();
    legal_moves(&pos)
        .iter()
        .map(|mv| notation(&pos, mv))
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The position after the only legal move of `fen`.
fn only_move_result<V: Variant>(fen: &str) -> Position<V> {
    let pos: Position<V> = fen.parse().unwrap();
    let list = legal_moves(&pos);
    assert_eq!(list.len(), 1, "{fen} should have exactly one move");
    apply(&pos, &list[0])
}

#[test]
fn a_man_moves_one_square_diagonally_forward() {
    assert_eq!(moves::<Russian>("W:Wc3:Bh8"), set(&["c3-b4", "c3-d4"]));
    assert_eq!(moves::<Russian>("B:Wh2:Bd6"), set(&["d6-c5", "d6-e5"]));
    assert_eq!(moves::<International>("W:W28:B1"), set(&["28-22", "28-23"]));
    assert_eq!(
        moves::<International>("B:W50:B23"),
        set(&["23-28", "23-29"])
    );
}

#[test]
fn a_king_flies_along_the_diagonals() {
    assert_eq!(
        moves::<Russian>("W:WKa1:Bh8"),
        set(&["a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7"])
    );
    assert_eq!(moves::<International>("W:WK46:B1").len(), 9);
}

#[test]
fn capture_is_compulsory_and_beats_quiet_moves() {
    assert_eq!(moves::<Russian>("W:Wa1,c3:Bd4"), set(&["c3:e5"]));
    assert_eq!(moves::<International>("W:W28,46:B23"), set(&["28x19"]));
}

#[test]
fn a_man_captures_backward() {
    assert_eq!(moves::<Russian>("W:Wd4:Bc3"), set(&["d4:b2"]));
    assert_eq!(moves::<International>("W:W28:B33"), set(&["28x39"]));
}

#[test]
fn a_king_captures_at_a_distance_and_lands_on_any_empty_square_behind() {
    assert_eq!(
        moves::<Russian>("W:WKa1:Bc3"),
        set(&["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"])
    );
}

#[test]
fn a_king_cannot_capture_without_an_empty_square_behind() {
    assert_eq!(moves::<Russian>("W:WKa1:Bc3,d4"), set(&["a1-b2"]));
}

#[test]
fn a_king_must_land_where_its_capture_continues() {
    // From f6 the king can go on to take e7; from d4, e5, g7 and h8 it cannot.
    assert_eq!(moves::<Russian>("W:WKa1:Bc3,e7"), set(&["a1:f6:d8"]));
}

#[test]
fn a_capture_continues_while_it_can() {
    assert_eq!(moves::<Russian>("W:Wa1:Bb2,d4"), set(&["a1:c3:e5"]));
}

#[test]
fn routes_that_differ_only_in_path_are_one_move() {
    // The king may land on d4, e5 or f6 and then take g7: three routes, one move.
    let pos: Position<Russian> = "W:WKa1:Bc3,g7".parse().unwrap();
    let list = legal_moves(&pos);
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].captured_squares::<Russian>().len(), 2);
    assert_eq!(Russian::square_name(list[0].to_square::<Russian>()), "h8");
}

#[test]
fn turkish_strike_jumped_pieces_stay_until_the_move_is_over() {
    // A man cannot jump the same piece twice: on c7 it is back beside d6, which it
    // has already jumped, and d4 still stands between e5 and c3.
    assert_eq!(moves::<Russian>("W:Wc3:Bd4,d6"), set(&["c3:e5:c7"]));
    // A jumped piece blocks the diagonal it stands on: on c1 the king faces b2 and
    // d2, both already jumped, so the move ends there.
    let after = only_move_result::<Russian>("W:WKc1:Bb2,b4,e5,d2");
    assert_eq!(after.to_string(), "B:WKc1:B");
}

#[test]
fn the_start_square_counts_as_empty() {
    // The king's capture passes its start square and ends there.
    let after = only_move_result::<International>("W:WK2:B7,8,17,18");
    assert_eq!(after.to_string(), "B:WK2:B");
}

#[test]
fn a_side_with_no_legal_move_has_no_moves() {
    assert!(moves::<Russian>("W:Wa1:Bb2,c3").is_empty());
    assert!(moves::<Russian>("B:Wa1:B").is_empty());
}

#[test]
fn russian_free_choice_of_capture() {
    // Taking two pieces is not compulsory in Russian draughts.
    assert_eq!(
        moves::<Russian>("W:We3:Bd4,f4,b6"),
        set(&["e3:c5:a7", "e3:g5"])
    );
}

#[test]
fn russian_promotion_during_a_capture_continues_as_a_king() {
    let after = moves::<Russian>("W:Wb6:Bc7,f6");
    assert_eq!(after, set(&["b6:d8:g5", "b6:d8:h4"]));
    let pos = only_move_result::<Russian>("W:Wb6:Bc7");
    assert_eq!(pos.to_string(), "B:WKd8:B");
}

#[test]
fn promotion_by_a_quiet_move_ends_the_move() {
    let pos: Position<Russian> = "W:Wc7:Bf6".parse().unwrap();
    let list = legal_moves(&pos);
    let to_d8 = list
        .iter()
        .find(|mv| notation(&pos, mv) == "c7-d8")
        .unwrap();
    let after = apply(&pos, to_d8);
    assert_eq!(after.to_string(), "B:WKd8:Bf6");
    let d8 = Russian::parse_square("d8").unwrap();
    assert_eq!(after.piece_at(d8).unwrap().1, PieceKind::King);
}

#[test]
fn international_majority_rule() {
    // 28x17 takes one piece, 28x19x8 takes two: only the longer one is legal.
    assert_eq!(moves::<International>("W:W28:B22,23,13"), set(&["28x19x8"]));
}

#[test]
fn international_kings_and_men_count_the_same() {
    // One king or two men: the two men must be taken.
    assert_eq!(
        moves::<International>("W:W28:BK22,23,13"),
        set(&["28x19x8"])
    );
}

#[test]
fn international_no_promotion_in_passing() {
    let passed = only_move_result::<International>("W:W15:B9,10");
    assert_eq!(passed.to_string(), "B:W13:B");
    let ended = only_move_result::<International>("W:W15:B10");
    assert_eq!(ended.to_string(), "B:WK4:B");
}
