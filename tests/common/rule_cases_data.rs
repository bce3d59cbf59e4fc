//! Constructed positions for the move-limit rules R1–R4 (preset `russian`) and
//! I1–I3 (preset `fmjd`), with their values under the rules, found by search with
//! the naive rule solver (`rules_naive.rs`) and checked by `tests/rule_limits.rs`.
//!
//! For each rule there are three kinds of case ([`Shows`]):
//!
//! - the largest played count for which a theoretical win (or loss) still holds;
//! - the same position with one **ply** more: drawn by the rule;
//! - for the rules whose count restarts (R1, R2, R4, I1), a count at or next to its
//!   limit where the winning move restarts it and the win survives only because of
//!   that; for the rules that never restart inside their material (R3, I2, I3), a
//!   count that runs on through a promotion or a capture, so the position is drawn.
//!
//! Positions have at most four pieces, so the solver settles each in about a
//! second or less; the one exception is R1's restart case, since a capture that
//! keeps R1's material needs four kings against one.
//!
//! Counts are written as `RuleSet::parse_counters` reads them, in moves (`R1=11.5`
//! is 23 plies). Only the counter a case is about is given; every other counter is
//! at 0, so the case tests that rule alone. (In a real game some of these
//! combinations cannot arise: with kings on both sides R2 is never below R4, and in
//! three kings against one R1 and R4 are always equal and never below R3.)

use damka_core::VariantKind;
use damka_formats::Wdl;

/// What a [`RuleCase`] shows about its rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shows {
    /// A theoretical win or loss that survives the limit exactly: the played count
    /// is the largest for which the value still holds.
    LastCount,
    /// A [`Shows::LastCount`] case with one ply more played: drawn by the rule.
    OnePlyMore,
    /// The counter is at or next to its limit, the winning move restarts it, and
    /// the win survives only because of the restart.
    ResetSaves,
    /// The count runs on through a promotion or a capture, which do not restart
    /// it, and so a theoretical win or loss is drawn.
    CountRunsOn,
}

/// One constructed position with its played counts and its value under a preset.
#[derive(Debug, Clone, Copy)]
pub struct RuleCase {
    /// The counter the case is about (`R1`).
    pub rule: &'static str,
    /// The variant of the position.
    pub variant: VariantKind,
    /// The position, in PDN FEN.
    pub fen: &'static str,
    /// The rule-set preset (`russian` or `fmjd`).
    pub set: &'static str,
    /// The counts already played, as `RuleSet::parse_counters` reads them.
    pub counters: &'static str,
    /// The value for the side to move under the rules.
    pub expected: Wdl,
    /// What the case shows.
    pub shows: Shows,
    /// One line on why the value is what it is.
    pub comment: &'static str,
}

/// The constructed cases: three for each of R1–R4 and I1–I3.
pub const CASES: &[RuleCase] = &[
    // R1: three kings or more against a lone king, 15 moves, restarted by a capture.
    RuleCase {
        rule: "R1",
        variant: VariantKind::Russian,
        fen: "W:WKa5,Kb6,Kc7:BKg1",
        set: "russian",
        counters: "R1=11.5",
        expected: Wdl::Win,
        shows: Shows::LastCount,
        comment: "three kings take the lone king in 7 plies with no capture before: 23 + 7 = 30 plies, just in time",
    },
    RuleCase {
        rule: "R1",
        variant: VariantKind::Russian,
        fen: "W:WKa5,Kb6,Kc7:BKg1",
        set: "russian",
        counters: "R1=12",
        expected: Wdl::Draw,
        shows: Shows::OnePlyMore,
        comment: "one ply more than R1=11.5: the lone king is still on the board when the count reaches 15 moves",
    },
    RuleCase {
        rule: "R1",
        variant: VariantKind::Russian,
        fen: "B:WKa1,Ka3,Ka5,Kc7:BKd8",
        set: "russian",
        counters: "R1=14.5",
        expected: Wdl::Loss,
        shows: Shows::ResetSaves,
        comment: "five pieces (R1 needs four kings for a capture inside its material): d8:b6 is forced and restarts R1 for three kings against one, then a5:c7 wins; without the restart the count would reach 15 moves after d8:b6",
    },
    // R2: kings on both sides, unchanged material, 5 moves with 2-3 pieces.
    RuleCase {
        rule: "R2",
        variant: VariantKind::Russian,
        fen: "W:WKe1,Kg1:BKa7",
        set: "russian",
        counters: "R2=1.5",
        expected: Wdl::Win,
        shows: Shows::LastCount,
        comment: "two kings against one win in 7 plies with no capture before the last: 3 + 7 = 10 plies, just in time",
    },
    RuleCase {
        rule: "R2",
        variant: VariantKind::Russian,
        fen: "W:WKe1,Kg1:BKa7",
        set: "russian",
        counters: "R2=2",
        expected: Wdl::Draw,
        shows: Shows::OnePlyMore,
        comment: "one ply more than R2=1.5: the 5 moves run out before the lone king is taken",
    },
    RuleCase {
        rule: "R2",
        variant: VariantKind::Russian,
        fen: "W:WKa1,a7:BKh8",
        set: "russian",
        counters: "R2=4.5",
        expected: Wdl::Win,
        shows: Shows::ResetSaves,
        comment: "the promotion a7-b8 restarts R2, and every move of Kh8 then lands on the main road where Ka1 takes it; a king move instead reaches 5 moves",
    },
    // R3: lone king on the main road against three pieces with a king, 5 moves.
    RuleCase {
        rule: "R3",
        variant: VariantKind::Russian,
        fen: "W:WKb4,Ke5,Kf6:BKh8",
        set: "russian",
        counters: "R3=3.5",
        expected: Wdl::Win,
        shows: Shows::LastCount,
        comment: "a waiting move of Kb4 forces h8-g7 and Kf6:h8 follows: 7 + 3 plies, the capture comes at the 10th",
    },
    RuleCase {
        rule: "R3",
        variant: VariantKind::Russian,
        fen: "W:WKb4,Ke5,Kf6:BKh8",
        set: "russian",
        counters: "R3=4",
        expected: Wdl::Draw,
        shows: Shows::OnePlyMore,
        comment: "one ply more than R3=3.5: after the waiting move and h8-g7 the lone king has held the road for 5 moves",
    },
    RuleCase {
        rule: "R3",
        variant: VariantKind::Russian,
        fen: "W:Wa7,e5,Kf6:BKh8",
        set: "russian",
        counters: "R3=4.5",
        expected: Wdl::Draw,
        shows: Shows::CountRunsOn,
        comment: "a7-b8 (a king and two men become two kings and a man) would force h8-g7 and Kf6:h8, but the promotion does not restart R3: the count reaches 5 moves first",
    },
    // R4: kings only, 15 moves, restarted by a capture or a man move.
    RuleCase {
        rule: "R4",
        variant: VariantKind::Russian,
        fen: "W:WKb6,Ke5:BKa1,Kh8",
        set: "russian",
        counters: "R4=13.5",
        expected: Wdl::Win,
        shows: Shows::LastCount,
        comment: "two kings against two win in 5 plies; the first capture, which restarts R4, is White's second move, at the 30th ply",
    },
    RuleCase {
        rule: "R4",
        variant: VariantKind::Russian,
        fen: "W:WKb6,Ke5:BKa1,Kh8",
        set: "russian",
        counters: "R4=14",
        expected: Wdl::Draw,
        shows: Shows::OnePlyMore,
        comment: "one ply more than R4=13.5: 15 moves of kings only are played before White can capture",
    },
    RuleCase {
        rule: "R4",
        variant: VariantKind::Russian,
        fen: "W:WKa7,b6:BKb2,d8",
        set: "russian",
        counters: "R4=14.5",
        expected: Wdl::Win,
        shows: Shows::ResetSaves,
        comment: "the man move b6-c7 restarts R4 and forces d8:b6, then Ka7:d4:a1 takes both; a king move would reach 15 moves",
    },
    // I1: kings only, 25 moves, restarted by a capture or a man move.
    RuleCase {
        rule: "I1",
        variant: VariantKind::International,
        fen: "W:WK41,K46:BK28,K32",
        set: "fmjd",
        counters: "I1=24",
        expected: Wdl::Win,
        shows: Shows::LastCount,
        comment: "the sacrifice 41-37 forces 32x41, which restarts I1, and K46 takes both kings: the one quiet ply comes at the 49th ply, just in time",
    },
    RuleCase {
        rule: "I1",
        variant: VariantKind::International,
        fen: "W:WK41,K46:BK28,K32",
        set: "fmjd",
        counters: "I1=24.5",
        expected: Wdl::Draw,
        shows: Shows::OnePlyMore,
        comment: "one ply more than I1=24: 41-37 brings the count to 25 moves before Black's forced capture",
    },
    RuleCase {
        rule: "I1",
        variant: VariantKind::International,
        fen: "W:WK6,11:B2,K41",
        set: "fmjd",
        counters: "I1=24.5",
        expected: Wdl::Win,
        shows: Shows::ResetSaves,
        comment: "the man move 11-7 restarts I1 and forces 2x11, then 6x46 takes both; the only other move, 6-1, reaches 25 moves",
    },
    // I2: three pieces with a king against a lone king, 16 moves, never restarted.
    RuleCase {
        rule: "I2",
        variant: VariantKind::International,
        fen: "W:WK10,K38,K47:BK36",
        set: "fmjd",
        counters: "I2=14.5",
        expected: Wdl::Win,
        shows: Shows::LastCount,
        comment: "after 10-4 every move of the lone king is taken at once: 29 + 3 = 32 plies, just in time",
    },
    RuleCase {
        rule: "I2",
        variant: VariantKind::International,
        fen: "W:WK10,K38,K47:BK36",
        set: "fmjd",
        counters: "I2=15",
        expected: Wdl::Draw,
        shows: Shows::OnePlyMore,
        comment: "one ply more than I2=14.5: after 10-4 and a move of the lone king the count reaches 16 moves",
    },
    RuleCase {
        rule: "I2",
        variant: VariantKind::International,
        fen: "W:WK5,10,27:BK36",
        set: "fmjd",
        counters: "I2=15.5",
        expected: Wdl::Draw,
        shows: Shows::CountRunsOn,
        comment: "10-4 (a king and two men become two kings and a man) would force the lone king to take 27 and K4 to take it back, but the promotion does not restart I2: the count reaches 16 moves",
    },
    // I3: two kings, a king and a man, or a king against a lone king, 5 moves, never restarted.
    RuleCase {
        rule: "I3",
        variant: VariantKind::International,
        fen: "W:WK6,11:BK50",
        set: "fmjd",
        counters: "I3=1.5",
        expected: Wdl::Win,
        shows: Shows::LastCount,
        comment: "a king and a man win in 7 plies with no capture before the last: 3 + 7 = 10 plies, just in time",
    },
    RuleCase {
        rule: "I3",
        variant: VariantKind::International,
        fen: "W:WK6,11:BK50",
        set: "fmjd",
        counters: "I3=2",
        expected: Wdl::Draw,
        shows: Shows::OnePlyMore,
        comment: "one ply more than I3=1.5: the 5 moves run out before the lone king is taken",
    },
    RuleCase {
        rule: "I3",
        variant: VariantKind::International,
        fen: "B:WK2,K11:BK16",
        set: "fmjd",
        counters: "I3=4.5",
        expected: Wdl::Draw,
        shows: Shows::CountRunsOn,
        comment: "16x7 is forced and K2 could take the lone king back at once, but the capture (two kings, then one) does not restart I3: the count reaches 5 moves first",
    },
];
