//! The slice index is a bijection onto legal positions, with the sizes a closed
//! formula predicts; sub-slices partition it in the promised way.

use damka_core::{
    advancement, build_order, Color, International, PieceKind, Position, Russian, Slice,
    SliceIndexer, Variant,
};

/// SplitMix64: a small deterministic generator for sampling.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }
}

fn slices_with<V: Variant>(pieces: std::ops::RangeInclusive<u32>) -> Vec<Slice> {
    build_order::<V>(*pieces.end())
        .into_iter()
        .filter(|s| pieces.contains(&s.pieces()))
        .collect()
}

/// Checks that `position(i)` is a legal White-to-move position of the slice and
/// that `index` inverts it.
fn check_index<V: Variant>(indexer: &SliceIndexer<V>, index: u64) {
    let p = indexer.position(index);
    let legal = Position::<V>::from_bitboards(p.white(), p.black(), p.kings(), p.side())
        .unwrap_or_else(|e| panic!("{} index {index}: {p:?} is illegal: {e}", indexer.slice()));
    assert_eq!(legal.side(), Color::White);
    assert_eq!(legal.material(), indexer.slice().material(), "{p:?}");
    assert_eq!(indexer.index(&legal), index, "{} {p:?}", indexer.slice());
}

fn exhaustive<V: Variant>() {
    for slice in slices_with::<V>(2..=4) {
        let indexer = SliceIndexer::<V>::new(slice).unwrap();
        for index in 0..indexer.size() {
            check_index(&indexer, index);
        }
    }
}

#[test]
fn russian_index_is_a_bijection_up_to_4_pieces() {
    exhaustive::<Russian>();
}

#[test]
fn international_index_is_a_bijection_up_to_4_pieces() {
    exhaustive::<International>();
}

/// A uniformly random placement of the slice's pieces (by rejection).
fn random_position<V: Variant>(slice: Slice, rng: &mut Rng) -> Position<V> {
    let squares = V::GEOMETRY.squares as u64;
    loop {
        let mut pieces = Vec::new();
        let mut used = 0u64;
        let groups = [
            (Color::White, PieceKind::Man, slice.white_men()),
            (Color::White, PieceKind::King, slice.white_kings()),
            (Color::Black, PieceKind::Man, slice.black_men()),
            (Color::Black, PieceKind::King, slice.black_kings()),
        ];
        for (color, kind, count) in groups {
            for _ in 0..count {
                let mut s = rng.below(squares);
                while used >> s & 1 != 0 {
                    s = rng.below(squares);
                }
                used |= 1 << s;
                pieces.push((color, kind, s as usize));
            }
        }
        if let Ok(p) = Position::from_pieces(Color::White, pieces) {
            return p;
        }
    }
}

fn sampled<V: Variant>(seed: u64) {
    let mut rng = Rng(seed);
    for slice in slices_with::<V>(5..=7) {
        let indexer = SliceIndexer::<V>::new(slice).unwrap();
        check_index(&indexer, 0);
        check_index(&indexer, indexer.size() - 1);
        for _ in 0..2000 {
            check_index(&indexer, rng.below(indexer.size()));
            let p = random_position::<V>(slice, &mut rng);
            let index = indexer.index(&p);
            assert!(index < indexer.size());
            assert_eq!(indexer.position(index), p);
        }
    }
}

#[test]
fn russian_index_round_trips_on_samples_of_5_to_7_pieces() {
    sampled::<Russian>(1);
}

#[test]
fn international_index_round_trips_on_samples_of_5_to_7_pieces() {
    sampled::<International>(2);
}

/// Counts the legal positions of a slice by trying every placement of its pieces,
/// one piece kind at a time in increasing squares.
fn brute_force_count<V: Variant>(slice: Slice) -> u64 {
    fn place<V: Variant>(groups: &[(Color, PieceKind, u32)], from: usize, bits: [u64; 3]) -> u64 {
        let Some(&(color, kind, count)) = groups.first() else {
            return Position::<V>::from_bitboards(bits[0], bits[1], bits[2], Color::White).is_ok()
                as u64;
        };
        if count == 0 {
            return place::<V>(&groups[1..], 0, bits);
        }
        let g = V::GEOMETRY;
        let mut total = 0;
        for s in from..g.squares {
            let bit = 1u64 << g.bit_of[s];
            if (bits[0] | bits[1]) & bit != 0 {
                continue;
            }
            let mut next = bits;
            next[(color == Color::Black) as usize] |= bit;
            if kind == PieceKind::King {
                next[2] |= bit;
            }
            let mut rest = groups.to_vec();
            rest[0].2 -= 1;
            total += place::<V>(&rest, s + 1, next);
        }
        total
    }
    let groups = [
        (Color::White, PieceKind::Man, slice.white_men()),
        (Color::White, PieceKind::King, slice.white_kings()),
        (Color::Black, PieceKind::Man, slice.black_men()),
        (Color::Black, PieceKind::King, slice.black_kings()),
    ];
    place::<V>(&groups, 0, [0; 3])
}

#[test]
fn sizes_match_brute_force_counts_up_to_3_pieces() {
    for slice in slices_with::<Russian>(2..=3) {
        let size = SliceIndexer::<Russian>::new(slice).unwrap().size();
        assert_eq!(size, brute_force_count::<Russian>(slice), "{slice}");
    }
    for slice in slices_with::<International>(2..=3) {
        let size = SliceIndexer::<International>::new(slice).unwrap().size();
        assert_eq!(size, brute_force_count::<International>(slice), "{slice}");
    }
}

#[test]
fn two_piece_russian_total_by_hand() {
    // Two kings: 32 * 31. A man and a king: 28 * 31, twice. Two men: 28 * 28 minus
    // the 24 squares both may use.
    let total: u64 = slices_with::<Russian>(2..=2)
        .into_iter()
        .map(|s| SliceIndexer::<Russian>::new(s).unwrap().size())
        .sum();
    assert_eq!(total, 992 + 2 * 868 + 760);
}

/// `C(n, k)` by the multiplicative formula, independent of the crate's table.
fn choose(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
}

/// Positions with `pieces` pieces and White to move, counted Black's men first
/// (the index places White's first): `t` of Black's men stand on rank
/// `WIDTH - 1`, where White's men may not go, the other `bm - t` on the shared
/// ranks, and White's men choose among the `N - H` squares open to them minus
/// those `bm - t`.
fn closed_form_total<V: Variant>(pieces: u32) -> u128 {
    let g = V::GEOMETRY;
    let (n, h) = (g.squares as u64, g.half as u64);
    let shared = n - 2 * h;
    let max = V::MAX_PIECES_PER_SIDE;
    let mut total = 0;
    for white in 1..pieces {
        let black = pieces - white;
        if white > max || black > max {
            continue;
        }
        for wm in 0..=white as u64 {
            for bm in 0..=black as u64 {
                let (wk, bk) = (white as u64 - wm, black as u64 - bm);
                let men: u128 = (0..=bm)
                    .map(|t| {
                        choose(h, t)
                            * choose(shared, bm - t)
                            * choose((n - h).saturating_sub(bm - t), wm)
                    })
                    .sum();
                let free = n - wm - bm;
                total += men * choose(free, wk) * choose(free - wk, bk);
            }
        }
    }
    total
}

fn totals_match<V: Variant>() {
    for pieces in 2..=7 {
        let total: u128 = slices_with::<V>(pieces..=pieces)
            .into_iter()
            .map(|s| SliceIndexer::<V>::new(s).unwrap().size() as u128)
            .sum();
        assert_eq!(total, closed_form_total::<V>(pieces), "{pieces} pieces");
    }
}

#[test]
fn russian_totals_match_the_closed_form() {
    totals_match::<Russian>();
}

#[test]
fn international_totals_match_the_closed_form() {
    totals_match::<International>();
}

/// Every men placement of every sub-slice is found exactly once, with the key it
/// claims, and the counts agree with `sub_slices`.
fn sub_slices_partition<V: Variant>(slice: Slice) {
    let indexer = SliceIndexer::<V>::new(slice).unwrap();
    let mut seen = vec![false; indexer.men_placements() as usize];
    let sub_slices = indexer.sub_slices();
    assert!(sub_slices.windows(2).all(|w| w[0].key > w[1].key));
    for sub in &sub_slices {
        let mut count = 0;
        for men in indexer.men_indices(sub.key) {
            assert!(
                !seen[men.index as usize],
                "{slice} men index {} twice",
                men.index
            );
            seen[men.index as usize] = true;
            assert_eq!(indexer.men(men.index), (men.white_men, men.black_men));
            assert_eq!(indexer.men_key(men.index), sub.key);
            assert_eq!(advancement::<V>(men.white_men, men.black_men), sub.key);
            count += 1;
        }
        assert_eq!(count, sub.men_placements, "{slice} key {}", sub.key);
        assert_eq!(sub.positions, count * indexer.king_placements());
    }
    assert!(
        seen.iter().all(|&s| s),
        "{slice}: a men index has no sub-slice"
    );
    let max_key = slice.men() * (V::GEOMETRY.width - 2);
    for key in [max_key + 1, max_key + 7] {
        assert_eq!(indexer.men_indices(key).count(), 0);
    }
}

#[test]
fn sub_slices_partition_the_men_placements() {
    for slice in slices_with::<Russian>(2..=5) {
        sub_slices_partition::<Russian>(slice);
    }
    for slice in slices_with::<International>(2..=4) {
        sub_slices_partition::<International>(slice);
    }
    for name in ["2M1K-2M0K", "3M0K-2M0K", "1M1K-3M0K"] {
        sub_slices_partition::<International>(name.parse().unwrap());
    }
}

#[test]
fn sub_slice_counts_add_up_to_7_pieces() {
    fn check<V: Variant>() {
        for slice in slices_with::<V>(2..=7) {
            let indexer = SliceIndexer::<V>::new(slice).unwrap();
            let subs = indexer.sub_slices();
            let men: u64 = subs.iter().map(|s| s.men_placements).sum();
            assert_eq!(men, indexer.men_placements(), "{slice}");
            let mirror = SliceIndexer::<V>::new(slice.mirror()).unwrap().sub_slices();
            let keys = |s: &[damka_core::SubSlice]| s.iter().map(|s| s.key).collect::<Vec<_>>();
            assert_eq!(
                keys(&subs),
                keys(&mirror),
                "{slice} and its mirror share keys"
            );
        }
    }
    check::<Russian>();
    check::<International>();
}

/// The key of a position's flipped twin is the same, and every quiet non-promoting
/// man move raises it by exactly 1.
fn key_properties<V: Variant>(slice: Slice) {
    let g = V::GEOMETRY;
    let indexer = SliceIndexer::<V>::new(slice).unwrap();
    let mirror = SliceIndexer::<V>::new(slice.mirror()).unwrap();
    let (up_left, up_right) = (g.half, g.half + 1);
    for index in 0..indexer.size() {
        let p = indexer.position(index);
        let key = indexer.key(&p);
        assert_eq!(key, indexer.men_key(index / indexer.king_placements()));
        assert_eq!(mirror.key(&p.flipped()), key);
        let men = p.white() & !p.kings();
        for from in damka_core::Bits(men) {
            for step in [up_left, up_right] {
                let to = from + step;
                if to >= 64 || (g.mask & !p.occupied()) >> to & 1 == 0 || g.top_rank >> to & 1 != 0
                {
                    continue;
                }
                let moved = p.white() & !(1 << from) | 1 << to;
                let after =
                    Position::<V>::from_bitboards(moved, p.black(), p.kings(), Color::Black)
                        .unwrap();
                let twin = after.flipped();
                assert_eq!(mirror.key(&twin), key + 1, "{p:?} -> {after:?}");
            }
        }
    }
}

#[test]
fn keys_survive_the_flip_and_grow_by_one_per_man_move() {
    for name in [
        "1M0K-1M0K",
        "2M0K-1M0K",
        "1M1K-2M0K",
        "2M0K-0M1K",
        "0M1K-3M0K",
    ] {
        key_properties::<Russian>(name.parse().unwrap());
    }
    for name in ["1M0K-1M0K", "2M0K-1M0K", "1M1K-1M0K"] {
        key_properties::<International>(name.parse().unwrap());
    }
}

#[test]
fn checked_entry_points_reject_what_does_not_belong() {
    let slice: Slice = "1M1K-0M1K".parse().unwrap();
    let indexer = SliceIndexer::<Russian>::new(slice).unwrap();
    let p: Position<Russian> = "W:Wc3,Ke5:BKa7".parse().unwrap();
    let index = indexer.try_index(&p).unwrap();
    assert_eq!(indexer.try_position(index), Ok(p));
    assert_eq!(
        indexer.try_index(&p.with_side(Color::Black)),
        Err(damka_core::IndexError::BlackToMove)
    );
    let other: Position<Russian> = "W:Wc3:BKa7".parse().unwrap();
    assert!(matches!(
        indexer.try_index(&other),
        Err(damka_core::IndexError::WrongMaterial { .. })
    ));
    assert!(indexer.try_position(indexer.size()).is_err());
    assert!(SliceIndexer::<Russian>::new("13M0K-0M1K".parse().unwrap()).is_err());
    assert!(matches!(
        SliceIndexer::<International>::new("10M10K-10M10K".parse().unwrap()),
        Err(damka_core::IndexError::TooLarge(_))
    ));
}

/// Per piece count 2..=7: (kings-only positions, all positions).
fn kings_only_totals<V: Variant>() -> Vec<(u64, u64)> {
    let mut totals = vec![(0, 0); 8];
    for slice in build_order::<V>(7) {
        let size = SliceIndexer::<V>::new(slice).unwrap().size();
        let entry = &mut totals[slice.pieces() as usize];
        entry.1 += size;
        if slice.is_kings_only() {
            entry.0 += size;
        }
    }
    totals.split_off(2)
}

/// The shares, in hundredths of a percent, quoted in the docs of `damka_core::index`.
#[test]
fn kings_only_share_is_small() {
    let documented = [
        (
            kings_only_totals::<Russian>(),
            [2844, 1518, 811, 433, 232, 124],
        ),
        (
            kings_only_totals::<International>(),
            [2770, 1459, 768, 405, 213, 112],
        ),
    ];
    for (totals, shares) in documented {
        for ((kings_only, all), share) in totals.into_iter().zip(shares) {
            assert_eq!((kings_only * 10_000 + all / 2) / all, share);
        }
    }
}
