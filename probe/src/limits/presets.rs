//! The built-in rule sets, with every interpretation choice written next to the
//! counter it concerns (each counter's `notes`, which `damka rules --show` prints).
//!
//! | name | variant | counters |
//! | --- | --- | --- |
//! | `russian` | Russian | R1–R4 of RULES.md section 2 |
//! | `russian-1900` | Russian | the older limits of `seeds/003_*` items 20–22 |
//! | `fmjd` | International | I1–I3 of RULES.md section 3 |
//! | `none` | both | no counter: plain game-theoretic values |
//!
//! Sources are cited as in RULES.md: `seeds/000_*` (the Ukrainian rules, §1.9.1 and
//! §7.2), `seeds/003_*` (the old numbered rules), `seeds/004_*` (the section
//! «Ничья»). Where the seeds disagree, RULES.md decides.

use damka_core::VariantKind;

use super::condition::PositionCondition;
use super::count::Count;
use super::counter::Counter;
use super::events::Events;
use super::limit::{Band, Limit};
use super::material_class::{MaterialClass, SidePattern};
use super::ruleset::RuleSet;

/// The names [`by_name`] knows.
pub const NAMES: [&str; 4] = ["russian", "russian-1900", "fmjd", "none"];

/// The preset called `name` (ASCII case ignored).
pub fn by_name(name: &str) -> Option<RuleSet> {
    match name.to_ascii_lowercase().as_str() {
        "russian" => Some(russian()),
        "russian-1900" => Some(russian_1900()),
        "fmjd" => Some(fmjd()),
        "none" => Some(none()),
        _ => None,
    }
}

fn strings(lines: &[&str]) -> Vec<String> {
    lines.iter().map(|line| line.to_string()).collect()
}

const CAPTURE_OR_PROMOTION: Events = Events {
    capture: true,
    promotion: true,
    man_move: false,
};

const CAPTURE_OR_MAN_MOVE: Events = Events {
    capture: true,
    promotion: false,
    man_move: true,
};

/// Three or more kings and no men.
const THREE_PLUS_KINGS: SidePattern = SidePattern::new(Count::exactly(0), Count::at_least(3));

/// Three kings, two kings and a man, or a king and two men: the stronger side of
/// R3 and I2.
const THREE_PIECES_WITH_A_KING: [SidePattern; 3] = [
    SidePattern::exactly(0, 3),
    SidePattern::exactly(1, 2),
    SidePattern::exactly(2, 1),
];

/// Russian draughts, R1–R4 of RULES.md section 2.
pub fn russian() -> RuleSet {
    RuleSet {
        name: "russian".into(),
        description: "Russian draughts: R1-R4 of RULES.md section 2 (seeds/000 §1.9.1 and §7.2, seeds/004 «Ничья»).".into(),
        variant: Some(VariantKind::Russian),
        notes: strings(&[
            "seeds/000 §7.2.8 (two kings, a king and a man, or a king against a lone king: 5 moves) and §7.2.9 (fast time controls) are not in RULES.md and not in this set; a custom file can add them.",
        ]),
        counters: vec![
            Counter {
                id: "R1".into(),
                description: "Three kings or more against a lone king: the stronger side must capture the lone king by its 15th move, counted from the moment the material arose.".into(),
                applies: MaterialClass::Versus {
                    strong: vec![THREE_PLUS_KINGS],
                    weak: SidePattern::lone_king(),
                },
                condition: None,
                resets: CAPTURE_OR_PROMOTION,
                limit: Limit::Moves(15),
                draws: true,
                notes: strings(&[
                    "Sources: seeds/000 §1.9.1 and §7.2.4, seeds/004 «Ничья».",
                    "The stronger side has kings only: the texts say «three kings (or more) against one king». With a man beside the kings R1 does not apply; R2 still limits that material.",
                    "The count starts at 0 in the position where the material arose. «By its 15th move» is within 30 plies whichever side moved first.",
                    "A capture restarts the count: when the lone king takes one of four kings, three against one is a newly established balance of forces («вважаючи з встановлення співвідношення сил»). A promotion cannot happen inside this material; it is listed for the same reason.",
                ]),
            },
            Counter {
                id: "R2".into(),
                description: "Kings on both sides and unchanged material (no capture, no man promoted): a draw after 5 moves with 2-3 pieces, 30 moves with 4-5 pieces, 60 moves with 6-7 pieces.".into(),
                applies: MaterialClass::BothSidesHaveKings,
                condition: None,
                resets: CAPTURE_OR_PROMOTION,
                limit: Limit::ByPieces(vec![
                    Band { pieces: Count::span(2, 3), moves: 5 },
                    Band { pieces: Count::span(4, 5), moves: 30 },
                    Band { pieces: Count::span(6, 7), moves: 60 },
                ]),
                draws: true,
                notes: strings(&[
                    "Sources: seeds/000 §1.9.1 and §7.2.6, seeds/004 «Ничья». §7.2.6 leaves out the 2-3-piece band; RULES.md and the other texts keep it.",
                    "One counter with a limit per piece count, not one counter per band: the piece count changes only by a capture or a promotion, which restart the count anyway, so one id is enough and a played count (`R2=9`) need not name a band.",
                    "The count starts at 0 at the last capture or promotion, or where both sides first have kings (which is a promotion, or the start of the position).",
                    "A man move that does not promote leaves the count running: only the balance of forces matters.",
                    "With 8 pieces or more no band applies and R2 sets no limit.",
                ]),
            },
            Counter {
                id: "R3".into(),
                description: "Lone king on the main road against three kings, two kings and a man, or a king and two men: the stronger side must reach a won position by its 5th move.".into(),
                applies: MaterialClass::Versus {
                    strong: THREE_PIECES_WITH_A_KING.to_vec(),
                    weak: SidePattern::lone_king(),
                },
                condition: Some(PositionCondition::LoneKingOnMainRoad),
                resets: Events::NONE,
                limit: Limit::Moves(5),
                draws: true,
                notes: strings(&[
                    "Sources: seeds/000 §1.9.1 and §7.2.7, seeds/004 «Ничья». §1.9.1 and seeds/004 also list three men; §7.2.7 and RULES.md do not, so three men are left out (a custom file can add them to `strong`).",
                    "The stronger side has exactly one of the three listed materials; with four kings R1 applies instead.",
                    "Where the count starts: at 0 in the first position with the listed material and the lone king on the main road (a1-h8), whether the material arose with the king already there or the king stepped onto the road later.",
                    "«Reach a won position»: the counter is in force only while the lone king stands on the main road. Leaving the road ends it (a later return starts a fresh count); the stronger side meets the rule by reaching, within 10 plies, a position off the road or with other material that is still a win under the rest of the set.",
                    "Nothing restarts the count inside the class: a promotion (a king and two men, then two kings and a man, then three kings) keeps the 5 moves running, because the rule names the three materials together and restarting would stretch 5 moves to 15. A capture always leaves the class or ends the game.",
                ]),
            },
            Counter {
                id: "R4".into(),
                description: "Kings only: a draw after 15 moves in which both players moved only kings, with no man moved and no capture made.".into(),
                applies: MaterialClass::Any,
                condition: None,
                resets: CAPTURE_OR_MAN_MOVE,
                limit: Limit::Moves(15),
                draws: true,
                notes: strings(&[
                    "Sources: seeds/000 §1.9.1 and §7.2.5, seeds/004 «Ничья».",
                    "Applies to every material: a side with only men must move a man every turn, which restarts the count, so in practice it limits positions where both sides have kings.",
                    "A promotion is a man move, so it restarts the count too.",
                ]),
            },
        ],
    }
}

/// Russian draughts under the older limits of `seeds/003_*` items 20–22.
pub fn russian_1900() -> RuleSet {
    RuleSet {
        name: "russian-1900".into(),
        description: "Russian draughts under the older limits of seeds/003 items 20-22: 15 moves for three kings against one, 30 moves when the lone king still has men.".into(),
        variant: Some(VariantKind::Russian),
        notes: strings(&[
            "Item 22: «when the win is not reached in both last cases, the game is a draw». The old text has no kings-only or unchanged-material rule.",
        ]),
        counters: vec![
            Counter {
                id: "A20".into(),
                description: "Three kings against one: at most 15 moves for the win.".into(),
                applies: MaterialClass::Versus {
                    strong: vec![THREE_PLUS_KINGS],
                    weak: SidePattern::lone_king(),
                },
                condition: None,
                resets: CAPTURE_OR_PROMOTION,
                limit: Limit::Moves(15),
                draws: true,
                notes: strings(&[
                    "Source: seeds/003 items 20 and 22.",
                    "«Three kings against one» is read as three or more kings and no men against a lone king, as R1 reads it: a fourth king only makes the win easier.",
                    "Counted, like R1, from the moment the material arose; a capture (the lone king taking one of four kings) starts a new fight and a new count.",
                ]),
            },
            Counter {
                id: "A21".into(),
                description: "Three kings against a king that still has men: at most 30 moves for the win, until the balance of forces changes.".into(),
                applies: MaterialClass::Versus {
                    strong: vec![THREE_PLUS_KINGS],
                    weak: SidePattern::new(Count::at_least(1), Count::exactly(1)),
                },
                condition: None,
                resets: CAPTURE_OR_PROMOTION,
                limit: Limit::Moves(30),
                draws: true,
                notes: strings(&[
                    "Source: seeds/003 items 21 and 22: «if the one king still has one or several pieces».",
                    "The other pieces are men: the weaker side is described as having one king, so a second king would contradict the text. It has exactly one king and one man or more.",
                    "The stronger side is item 20's (three kings or more, no men): item 22 treats items 20 and 21 as two cases of one fight, and item 21 only adds pieces to the lone king's side.",
                    "«Until the balance of forces changes»: a capture or a promotion restarts the count. When the weaker side's last man is captured, A20 takes over with a fresh count; when a man promotes, the weaker side has two kings and no limit applies.",
                    "Man moves of the weaker side leave the count running.",
                ]),
            },
        ],
    }
}

/// International draughts, I1–I3 of RULES.md section 3 (official FMJD rules).
pub fn fmjd() -> RuleSet {
    RuleSet {
        name: "fmjd".into(),
        description: "International draughts: I1-I3 of RULES.md section 3 (official FMJD rules).".into(),
        variant: Some(VariantKind::International),
        notes: Vec::new(),
        counters: vec![
            Counter {
                id: "I1".into(),
                description: "Kings only: a draw after 25 moves in which only kings moved, with no man move and no capture.".into(),
                applies: MaterialClass::Any,
                condition: None,
                resets: CAPTURE_OR_MAN_MOVE,
                limit: Limit::Moves(25),
                draws: true,
                notes: strings(&[
                    "Applies to every material, like R4: a side with only men restarts the count with each move.",
                    "A promotion is a man move, so it restarts the count too.",
                ]),
            },
            Counter {
                id: "I2".into(),
                description: "Three kings, two kings and a man, or a king and two men against a lone king: a draw after each player has made 16 moves from the moment that material arose.".into(),
                applies: MaterialClass::Versus {
                    strong: THREE_PIECES_WITH_A_KING.to_vec(),
                    weak: SidePattern::lone_king(),
                },
                condition: None,
                resets: Events::NONE,
                limit: Limit::Moves(16),
                draws: true,
                notes: strings(&[
                    "A promotion does not restart the count: FMJD names the three materials as one situation and counts from the moment it arose; restarting at each promotion would stretch 16 moves to 48 for a king and two men.",
                    "No capture can keep the material inside the class: the stronger side capturing the lone king ends the game, the lone king capturing leaves the class.",
                    "When the lone king captures into I3's material, I2 ends and I3 starts its own count at 0; the reading in which I2's remaining moves carry over is not modelled.",
                    "The stronger side has exactly one of the listed materials; four kings against one are limited by I1 only.",
                ]),
            },
            Counter {
                id: "I3".into(),
                description: "Two kings, a king and a man, or a king against a lone king: a draw after each player has made 5 moves.".into(),
                applies: MaterialClass::Versus {
                    strong: vec![
                        SidePattern::exactly(0, 2),
                        SidePattern::exactly(1, 1),
                        SidePattern::exactly(0, 1),
                    ],
                    weak: SidePattern::lone_king(),
                },
                condition: None,
                resets: Events::NONE,
                limit: Limit::Moves(5),
                draws: true,
                notes: strings(&[
                    "Counted from the moment the material arose. As with I2, nothing inside the class restarts it: neither the lone king capturing one of two kings (two kings, then one) nor a man promoting (a king and a man, then two kings).",
                ]),
            },
        ],
    }
}

/// No move limits: the plain game-theoretic values. Fits both variants.
pub fn none() -> RuleSet {
    RuleSet {
        name: "none".into(),
        description: "No move-limit rules: every table value is the plain game-theoretic one."
            .into(),
        variant: None,
        notes: Vec::new(),
        counters: Vec::new(),
    }
}
