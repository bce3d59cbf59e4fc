//! Binomial coefficients and the combinatorial number system on bit sets.
//!
//! A set of `k` numbers `c_1 < c_2 < … < c_k` has the *colex rank*
//! `C(c_1, 1) + C(c_2, 2) + … + C(c_k, k)`. Over all `k`-subsets of `0..n` the ranks
//! are exactly `0..C(n, k)`, with no holes; that is the whole trick behind the slice
//! index. Sets are `u64` bit masks; the tables cover every `n, k ≤ 64`, and every
//! entry fits in a `u64` (the largest, `C(64, 32)`, is below `2^61`).

/// `BINOMIAL[k][n]` is `C(n, k)`, zero when `k > n`. Indexed by `k` first so that the
/// entries one rank/unrank step reads for small `k` share a few cache lines.
pub static BINOMIAL: [[u64; 65]; 65] = build();

const fn build() -> [[u64; 65]; 65] {
    let mut table = [[0u64; 65]; 65];
    let mut n = 0;
    while n <= 64 {
        table[0][n] = 1;
        let mut k = 1;
        while k <= n {
            table[k][n] = table[k - 1][n - 1] + table[k][n - 1];
            k += 1;
        }
        n += 1;
    }
    table
}

/// `C(n, k)`, zero when `k > n`. Both must be at most 64.
#[inline]
pub fn binomial(n: u32, k: u32) -> u64 {
    BINOMIAL[k as usize][n as usize]
}

/// The colex rank of a set: `Σ C(c_i, i)` over its members `c_1 < c_2 < …`.
#[inline]
pub fn colex_rank(set: u64) -> u64 {
    let mut rest = set;
    let mut rank = 0;
    let mut i = 1;
    while rest != 0 {
        rank += BINOMIAL[i][rest.trailing_zeros() as usize];
        rest &= rest - 1;
        i += 1;
    }
    rank
}

/// The colex rank of `set` as a subset of the squares in `domain`: each member
/// counts as its position among the domain's members (how many of them lie below
/// it). `set` must be a subset of `domain`.
#[inline]
pub fn colex_rank_in(set: u64, domain: u64) -> u64 {
    let mut rest = set;
    let mut rank = 0;
    let mut i = 1;
    while rest != 0 {
        let below = (rest & rest.wrapping_neg()) - 1;
        rank += BINOMIAL[i][(domain & below).count_ones() as usize];
        rest &= rest - 1;
        i += 1;
    }
    rank
}

/// The `k`-subset of `0..n` with colex rank `rank` (which must be below `C(n, k)`).
///
/// Each member above the lowest two is the largest `c` with `C(c, i) <= rank`,
/// found by a binary search over the whole row of the table in six fixed steps,
/// written so that it compiles to arithmetic instead of unpredictable branches. The
/// lowest two come from one lookup in a table of all pairs.
#[inline]
pub fn colex_unrank(mut rank: u64, k: u32, n: u32) -> u64 {
    debug_assert!(n <= 64 && rank < binomial(n, k));
    let mut set = 0;
    let mut i = k as usize;
    while i > 2 {
        let row = &BINOMIAL[i];
        // C(c, i) does not decrease with c and exceeds `rank` from c = n on.
        let mut c = 0;
        for step in [32, 16, 8, 4, 2, 1] {
            c += step * usize::from(row[c + step] <= rank);
        }
        rank -= row[c];
        set |= 1 << c;
        i -= 1;
    }
    if i == 2 {
        let pair = PAIRS[rank as usize];
        set |= 1 << (pair >> 8) | 1 << (pair & 0xFF);
    } else if i == 1 {
        set |= 1 << rank;
    }
    set
}

/// The 2-subsets of `0..64` by colex rank: `PAIRS[C(b, 2) + a] = b << 8 | a` for
/// `a < b`.
static PAIRS: [u16; 2016] = pairs();

const fn pairs() -> [u16; 2016] {
    let mut table = [0; 2016];
    let mut b = 1;
    while b < 64 {
        let mut a = 0;
        while a < b {
            table[b * (b - 1) / 2 + a] = (b << 8 | a) as u16;
            a += 1;
        }
        b += 1;
    }
    table
}

/// The `k`-subset of the squares in `domain` whose [`colex_rank_in`] is `rank`.
/// `domain` must have at least `k` members and `rank` must be below
/// `C(|domain|, k)`.
#[inline]
pub fn colex_unrank_in(rank: u64, k: u32, domain: u64) -> u64 {
    let positions = colex_unrank(rank, k, 64);
    debug_assert!(rank < binomial(domain.count_ones(), k));
    let mut rest = positions;
    let mut set = 0;
    let taken = !domain;
    while rest != 0 {
        set |= 1 << select_free(rest.trailing_zeros(), taken);
        rest &= rest - 1;
    }
    set
}

/// The square of the `position`-th (from 0) bit not in `taken`: the least `s`
/// with `s = position + |taken ∩ 0..=s|`, found by iterating that equation from
/// below; it takes at most one round per taken bit under the answer, usually one.
#[inline]
fn select_free(position: u32, taken: u64) -> u32 {
    let mut s = position;
    loop {
        let up_to = u64::MAX >> (63 - s);
        let next = position + (taken & up_to).count_ones();
        if next == s {
            return s;
        }
        s = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pascal_values() {
        assert_eq!(binomial(0, 0), 1);
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(2, 5), 0);
        assert_eq!(binomial(50, 7), 99_884_400);
        assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
        assert_eq!(binomial(64, 64), 1);
    }

    #[test]
    fn colex_is_a_bijection_on_small_sets() {
        for n in 0..=12u32 {
            for k in 0..=n {
                let mut seen = vec![false; binomial(n, k) as usize];
                for set in 0u64..1 << n {
                    if set.count_ones() != k {
                        continue;
                    }
                    let rank = colex_rank(set);
                    assert!(!seen[rank as usize]);
                    seen[rank as usize] = true;
                    assert_eq!(colex_unrank(rank, k, n), set);
                }
                assert!(seen.iter().all(|&s| s));
            }
        }
    }

    #[test]
    fn ranks_within_a_domain() {
        let domain = 0b1011_0110_1101u64;
        let members = domain.count_ones();
        for k in 0..=members {
            for rank in 0..binomial(members, k) {
                let set = colex_unrank_in(rank, k, domain);
                assert_eq!(set & !domain, 0);
                assert_eq!(set.count_ones(), k);
                assert_eq!(colex_rank_in(set, domain), rank);
            }
        }
    }
}
