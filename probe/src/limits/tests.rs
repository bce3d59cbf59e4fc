use std::path::PathBuf;

use damka_core::{International, Material, Position, Russian, Variant, VariantKind};

use super::*;
use damka_core::moves::{apply, parse_move};

/// White men, white kings, black men, black kings.
fn m(white_men: u32, white_kings: u32, black_men: u32, black_kings: u32) -> Material {
    Material {
        white_men,
        white_kings,
        black_men,
        black_kings,
    }
}

fn pos<V: Variant>(fen: &str) -> Position<V> {
    fen.parse().unwrap()
}

fn counter<'a>(set: &'a RuleSet, id: &str) -> &'a Counter {
    set.counter(id)
        .unwrap_or_else(|| panic!("{} has no {id}", set.name))
}

const CAPTURE: Events = Events {
    capture: true,
    promotion: false,
    man_move: false,
};
const KING_CAPTURE: Events = CAPTURE;
const MAN_CAPTURE: Events = Events {
    capture: true,
    promotion: false,
    man_move: true,
};
const QUIET_MAN_MOVE: Events = Events {
    capture: false,
    promotion: false,
    man_move: true,
};
const PROMOTION: Events = Events {
    capture: false,
    promotion: true,
    man_move: true,
};
const KING_MOVE: Events = Events::NONE;

/// The limit in moves and in plies of a counter for a material.
fn limits(c: &Counter, material: Material) -> Option<(u32, u32)> {
    Some((c.limit_moves(&material)?, c.limit_plies(&material)?))
}

#[test]
fn russian_r1_is_three_or_more_kings_against_a_lone_king() {
    let set = presets::russian();
    let r1 = counter(&set, "R1");
    for yes in [m(0, 3, 0, 1), m(0, 1, 0, 3), m(0, 4, 0, 1), m(0, 5, 0, 1)] {
        assert!(r1.applies(&yes), "{yes:?}");
        assert_eq!(limits(r1, yes), Some((15, 30)));
    }
    for no in [
        m(0, 2, 0, 1),
        m(1, 3, 0, 1),
        m(0, 3, 1, 1),
        m(0, 3, 0, 2),
        m(0, 3, 1, 0),
    ] {
        assert!(!r1.applies(&no), "{no:?}");
        assert_eq!(r1.limit_moves(&no), None);
    }
    assert!(r1.resets_on(KING_CAPTURE));
    assert!(r1.resets_on(PROMOTION));
    assert!(!r1.resets_on(KING_MOVE));
    assert!(!r1.resets_on(QUIET_MAN_MOVE));
}

#[test]
fn russian_r2_limit_depends_on_the_piece_count() {
    let set = presets::russian();
    let r2 = counter(&set, "R2");
    let cases = [
        (m(0, 1, 0, 1), Some((5, 10))),
        (m(0, 2, 0, 1), Some((5, 10))),
        (m(1, 1, 0, 1), Some((5, 10))),
        (m(0, 2, 0, 2), Some((30, 60))),
        (m(1, 3, 0, 1), Some((30, 60))),
        (m(2, 2, 1, 1), Some((60, 120))),
        (m(0, 4, 2, 1), Some((60, 120))),
        (m(0, 4, 0, 4), None),
        (m(1, 1, 1, 0), None),
        (m(2, 0, 1, 0), None),
    ];
    for (material, expected) in cases {
        assert_eq!(limits(r2, material), expected, "{material:?}");
        assert_eq!(r2.applies(&material), expected.is_some(), "{material:?}");
    }
    assert!(r2.resets_on(CAPTURE));
    assert!(r2.resets_on(PROMOTION));
    assert!(!r2.resets_on(QUIET_MAN_MOVE));
    assert!(!r2.resets_on(KING_MOVE));
}

#[test]
fn russian_r3_needs_the_listed_material_and_the_lone_king_on_the_main_road() {
    let set = presets::russian();
    let r3 = counter(&set, "R3");
    for yes in [m(0, 3, 0, 1), m(1, 2, 0, 1), m(2, 1, 0, 1), m(0, 1, 0, 3)] {
        assert!(r3.applies(&yes), "{yes:?}");
        assert_eq!(limits(r3, yes), Some((5, 10)));
    }
    for no in [m(0, 4, 0, 1), m(3, 0, 0, 1), m(1, 3, 0, 1), m(0, 3, 0, 2)] {
        assert!(!r3.applies(&no), "{no:?}");
    }
    let on_road = pos::<Russian>("W:WKa3,Kc5,Kg1:BKd4");
    let off_road = pos::<Russian>("W:WKa3,Kc5,Kg1:BKb4");
    let man_and_kings = pos::<Russian>("B:Wc3,Ka5,Kg3:BKh8");
    assert!(r3.applies_at(&on_road));
    assert!(!r3.applies_at(&off_road));
    assert!(r3.applies_at(&man_and_kings));
    assert!(r3.applies_at(&on_road.flipped()));
    assert!(r3.resets == Events::NONE);
    assert!(!r3.resets_on(PROMOTION));
}

#[test]
fn russian_r4_counts_king_moves_and_restarts_on_man_moves_and_captures() {
    let set = presets::russian();
    let r4 = counter(&set, "R4");
    for material in [m(0, 1, 0, 1), m(3, 1, 2, 2), m(5, 0, 5, 0)] {
        assert!(r4.applies(&material));
        assert_eq!(limits(r4, material), Some((15, 30)));
    }
    assert!(r4.resets_on(KING_CAPTURE));
    assert!(r4.resets_on(MAN_CAPTURE));
    assert!(r4.resets_on(QUIET_MAN_MOVE));
    assert!(r4.resets_on(PROMOTION), "a promotion is a man move");
    assert!(!r4.resets_on(KING_MOVE));
}

#[test]
fn russian_1900_has_the_old_limits() {
    let set = presets::russian_1900();
    assert_eq!(set.variant, Some(VariantKind::Russian));
    let ids: Vec<&str> = set.counters.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["A20", "A21"]);
    let a20 = counter(&set, "A20");
    let a21 = counter(&set, "A21");
    assert_eq!(limits(a20, m(0, 3, 0, 1)), Some((15, 30)));
    assert_eq!(limits(a20, m(0, 4, 0, 1)), Some((15, 30)));
    assert_eq!(limits(a21, m(0, 3, 0, 1)), None);
    for yes in [m(0, 3, 1, 1), m(0, 3, 3, 1), m(2, 1, 0, 3), m(0, 4, 1, 1)] {
        assert_eq!(limits(a21, yes), Some((30, 60)), "{yes:?}");
        assert!(!a20.applies(&yes), "{yes:?}");
    }
    for no in [m(0, 3, 1, 2), m(0, 3, 2, 0), m(1, 3, 1, 1), m(0, 2, 1, 1)] {
        assert!(!a21.applies(&no), "{no:?}");
    }
    for c in [a20, a21] {
        assert!(c.resets_on(CAPTURE));
        assert!(c.resets_on(PROMOTION));
        assert!(!c.resets_on(QUIET_MAN_MOVE));
    }
}

#[test]
fn fmjd_has_i1_to_i3() {
    let set = presets::fmjd();
    assert_eq!(set.variant, Some(VariantKind::International));
    let i1 = counter(&set, "I1");
    let i2 = counter(&set, "I2");
    let i3 = counter(&set, "I3");
    assert_eq!(limits(i1, m(4, 2, 3, 1)), Some((25, 50)));
    assert!(i1.resets_on(QUIET_MAN_MOVE) && i1.resets_on(KING_CAPTURE));
    assert!(!i1.resets_on(KING_MOVE));
    for yes in [m(0, 3, 0, 1), m(1, 2, 0, 1), m(2, 1, 0, 1), m(0, 1, 1, 2)] {
        assert_eq!(limits(i2, yes), Some((16, 32)), "{yes:?}");
        assert!(!i3.applies(&yes));
    }
    for yes in [m(0, 2, 0, 1), m(1, 1, 0, 1), m(0, 1, 0, 1), m(0, 1, 0, 2)] {
        assert_eq!(limits(i3, yes), Some((5, 10)), "{yes:?}");
        assert!(!i2.applies(&yes));
    }
    for no in [m(0, 4, 0, 1), m(3, 0, 0, 1), m(0, 3, 1, 1), m(2, 0, 0, 1)] {
        assert!(!i2.applies(&no) && !i3.applies(&no), "{no:?}");
    }
    for c in [i2, i3] {
        assert!(
            !c.resets_on(PROMOTION),
            "{}: a promotion keeps the count",
            c.id
        );
        assert!(!c.resets_on(CAPTURE), "{}: a capture keeps the count", c.id);
    }
}

#[test]
fn fmjd_i2_count_runs_through_a_promotion() {
    let set = presets::fmjd();
    let p = pos::<International>("W:W6,K46,K47:BK45");
    assert_eq!(
        set.in_force(&p).map(|c| c.id.as_str()).collect::<Vec<_>>(),
        ["I1", "I2"]
    );
    let played = set.parse_counters("I1=3,I2=4").unwrap();
    let after = set.advance(&played, &p, &parse_move(&p, "6-1").unwrap());
    assert_eq!(after.to_string(), "I2=4.5", "I1 restarts, I2 runs on");
}

#[test]
fn none_has_no_counter_and_fits_both_variants() {
    let set = presets::none();
    assert!(set.counters.is_empty());
    assert_eq!(set.variant, None);
    assert!(set.check_variant(VariantKind::Russian).is_ok());
    assert!(set.check_variant(VariantKind::International).is_ok());
    assert_eq!(
        set.limit_reached(&Counters::new(), &Position::<Russian>::initial()),
        None
    );
}

#[test]
fn every_preset_loads_by_name_and_validates() {
    for name in presets::NAMES {
        let set = RuleSet::preset(name).unwrap();
        assert_eq!(set.name, name);
        assert_eq!(set.validate(), Ok(()), "{name}");
        assert_eq!(RuleSet::load(name).unwrap(), set);
        assert!(!set.description.is_empty());
        for c in &set.counters {
            assert!(!c.description.is_empty() && !c.notes.is_empty(), "{}", c.id);
            assert!(c.draws);
        }
    }
    assert_eq!(RuleSet::preset("FMJD").unwrap().name, "fmjd");
}

#[test]
fn every_preset_round_trips_through_toml() {
    for name in presets::NAMES {
        let set = RuleSet::preset(name).unwrap();
        let text = set.to_toml().unwrap();
        let back = RuleSet::from_toml_str(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(back, set, "{name}:\n{text}");
    }
}

/// A custom set: R3 with the three men of §1.9.1, and seeds/000 §7.2.8.
const CUSTOM: &str = r#"
name = "russian-club"
description = "R3 with three men, plus the two-king rule of seeds/000 §7.2.8."
variant = "russian"

[[counter]]
id = "R3-men"
description = "Main road, three men included."
applies = { class = "versus", strong = [{ kings = 3 }, { men = 1, kings = 2 }, { men = 2, kings = 1 }, { men = 3 }], weak = { kings = 1 } }
condition = "lone-king-on-main-road"
resets = []
limit_moves = 5

[[counter]]
id = "K2"
applies = { class = "versus", strong = [{ kings = "1-2" }, { men = 1, kings = 1 }], weak = { kings = 1 } }
resets = ["capture", "promotion"]
limit_moves = [{ pieces = "2-3", moves = 5 }]
draws = false
notes = ["Only counted, not a draw."]
"#;

#[test]
fn a_custom_toml_set_reads_as_written() {
    let set = RuleSet::from_toml_str(CUSTOM).unwrap();
    assert_eq!(set.name, "russian-club");
    assert_eq!(set.variant, Some(VariantKind::Russian));
    let road = counter(&set, "R3-men");
    assert_eq!(road.condition, Some(PositionCondition::LoneKingOnMainRoad));
    assert!(road.applies(&m(3, 0, 0, 1)));
    assert!(road.applies(&m(0, 1, 0, 3)));
    assert!(road.applies_at(&pos::<Russian>("W:Wc3,e3,g3:BKa1")));
    assert!(!road.applies_at(&pos::<Russian>("W:Wc3,e3,g3:BKa7")));
    assert_eq!(road.description, "Main road, three men included.");
    let k2 = counter(&set, "K2");
    assert!(!k2.draws);
    assert_eq!(k2.description, "");
    assert_eq!(k2.notes, ["Only counted, not a draw."]);
    assert_eq!(limits(k2, m(0, 2, 0, 1)), Some((5, 10)));
    assert_eq!(limits(k2, m(0, 1, 0, 1)), Some((5, 10)));
    assert_eq!(limits(k2, m(0, 3, 0, 1)), None);
    assert_eq!(
        k2.resets,
        Events {
            capture: true,
            promotion: true,
            man_move: false
        }
    );
    let played = set.parse_counters("K2=5").unwrap();
    assert_eq!(
        set.limit_reached(&played, &pos::<Russian>("W:WKa3,Kc5:BKh8")),
        None,
        "a counter that does not draw never draws"
    );
    assert_eq!(
        RuleSet::from_toml_str(&set.to_toml().unwrap()).unwrap(),
        set
    );
}

fn example_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/rules/example.toml")
}

#[test]
fn the_documented_example_file_is_the_russian_1900_set() {
    let path = example_path();
    let example = RuleSet::load(path.to_str().unwrap()).unwrap();
    let preset = presets::russian_1900();
    assert_eq!(example.variant, preset.variant);
    assert_eq!(example.counters.len(), preset.counters.len());
    for (mine, theirs) in example.counters.iter().zip(&preset.counters) {
        assert_eq!(mine.id, theirs.id);
        assert_eq!(mine.applies, theirs.applies, "{}", mine.id);
        assert_eq!(mine.condition, theirs.condition, "{}", mine.id);
        assert_eq!(mine.resets, theirs.resets, "{}", mine.id);
        assert_eq!(mine.limit, theirs.limit, "{}", mine.id);
        assert_eq!(mine.draws, theirs.draws, "{}", mine.id);
    }
    assert!(RuleSet::load_for(path.to_str().unwrap(), VariantKind::Russian).is_ok());
}

#[test]
fn an_unknown_preset_is_an_error() {
    let error = RuleSet::load("russain").unwrap_err();
    assert_eq!(error, RulesError::UnknownPreset("russain".into()));
    let message = error.to_string();
    assert!(message.contains("`russain`") && message.contains("russian-1900, fmjd, none"));
    assert!(matches!(
        RuleSet::preset("ru.toml"),
        Err(RulesError::UnknownPreset(_))
    ));
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let error = RuleSet::load("no/such/rules.toml").unwrap_err();
    assert!(matches!(error, RulesError::Read { .. }), "{error:?}");
    assert!(error.to_string().contains("no/such/rules.toml"), "{error}");
}

#[test]
fn a_malformed_file_is_an_error_naming_the_file_and_the_problem() {
    let dir = std::env::temp_dir().join(format!("damka-rules-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.toml");
    std::fs::write(
        &path,
        "name = \"broken\"\n[[counter]]\nid = \"X1\"\nlimit_moves = \n",
    )
    .unwrap();
    let error = RuleSet::load(path.to_str().unwrap()).unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, RulesError::Parse { .. }), "{error:?}");
    assert!(message.contains("broken.toml"), "{message}");
    assert!(message.contains("line 4"), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The error message of a TOML text that does not read.
fn parse_error(text: &str) -> String {
    match RuleSet::from_toml_str(text) {
        Err(error @ RulesError::Parse { .. }) => error.to_string(),
        other => panic!("expected a parse error, got {other:?}"),
    }
}

const ONE_COUNTER: &str = r#"
name = "t"
[[counter]]
id = "X1"
applies = { class = "any" }
resets = ["capture"]
limit_moves = 10
"#;

#[test]
fn typos_and_bad_values_are_reported() {
    assert!(RuleSet::from_toml_str(ONE_COUNTER).is_ok());
    let cases = [
        ("limit_moves = 10", "limit_move = 10", "limit_move"),
        ("class = \"any\"", "class = \"all\"", "all"),
        ("[\"capture\"]", "[\"captures\"]", "captures"),
        ("limit_moves = 10", "limit_moves = -3", "-3"),
        (
            "limit_moves = 10",
            "limit_moves = \"ten\"",
            "number of moves",
        ),
        (
            "{ class = \"any\" }",
            "{ class = \"versus\", strong = [{ kings = \"3++\" }], weak = { kings = 1 } }",
            "3++",
        ),
        (
            "{ class = \"any\" }",
            "{ class = \"versus\", strong = [{ kings = \"4-3\" }], weak = { kings = 1 } }",
            "4-3",
        ),
        (
            "{ class = \"any\" }",
            "{ class = \"versus\", strong = [{ queens = 3 }], weak = { kings = 1 } }",
            "queens",
        ),
        (
            "name = \"t\"",
            "name = \"t\"\nvariant = \"english\"",
            "english",
        ),
        (
            "{ class = \"any\" }",
            "{ class = \"any\", weak = { kings = 1 } }",
            "class `any` takes no `strong` or `weak`",
        ),
        (
            "{ class = \"any\" }",
            "{ class = \"versus\", strong = [{ kings = 2 }] }",
            "needs both `strong` and `weak`",
        ),
        (
            "{ class = \"any\" }",
            "{ class = \"versus\", strong = [{ kings = 2 }], weak = { kings = 1 }, extra = 1 }",
            "extra",
        ),
        ("resets = [\"capture\"]", "", "resets"),
    ];
    for (from, to, needle) in cases {
        let message = parse_error(&ONE_COUNTER.replacen(from, to, 1));
        assert!(message.contains(needle), "`{to}`: {message}");
        assert!(message.contains("malformed rule set text"), "{message}");
    }
}

#[test]
fn invalid_sets_are_reported() {
    let invalid = |text: String| match RuleSet::from_toml_str(&text) {
        Err(RulesError::Invalid { problem, .. }) => problem,
        other => panic!("expected an invalid set, got {other:?}"),
    };
    assert_eq!(
        invalid(ONE_COUNTER.replace("name = \"t\"", "name = \"\"")),
        ValidationError::NoName
    );
    assert_eq!(
        invalid(ONE_COUNTER.replace("\"X1\"", "\"X=1\"")),
        ValidationError::BadId("X=1".into())
    );
    let second = &ONE_COUNTER[ONE_COUNTER.find("[[counter]]").unwrap()..];
    assert_eq!(
        invalid(format!("{ONE_COUNTER}{second}")),
        ValidationError::DuplicateId("X1".into())
    );
    assert_eq!(
        invalid(ONE_COUNTER.replace("limit_moves = 10", "limit_moves = 0")),
        ValidationError::ZeroLimit("X1".into())
    );
    assert_eq!(
        invalid(ONE_COUNTER.replace("limit_moves = 10", "limit_moves = []")),
        ValidationError::NoBands("X1".into())
    );
    assert_eq!(
        invalid(ONE_COUNTER.replace(
            "limit_moves = 10",
            "limit_moves = [{ pieces = \"2-4\", moves = 5 }, { pieces = \"4+\", moves = 9 }]"
        )),
        ValidationError::OverlappingBands {
            id: "X1".into(),
            pieces: 4
        }
    );
    assert_eq!(
        invalid(ONE_COUNTER.replace(
            "{ class = \"any\" }",
            "{ class = \"versus\", strong = [], weak = { kings = 1 } }"
        )),
        ValidationError::NoStrongSide("X1".into())
    );
}

#[test]
fn a_set_for_the_other_variant_is_an_error() {
    let error = RuleSet::load_for("fmjd", VariantKind::Russian).unwrap_err();
    assert_eq!(
        error,
        RulesError::WrongVariant {
            name: "fmjd".into(),
            bound: VariantKind::International,
            requested: VariantKind::Russian
        }
    );
    assert_eq!(
        error.to_string(),
        "rule set `fmjd` is for international draughts, not russian"
    );
    assert!(RuleSet::load_for("russian", VariantKind::International).is_err());
    assert!(RuleSet::load_for("russian-1900", VariantKind::Russian).is_ok());
    assert!(RuleSet::load_for("none", VariantKind::International).is_ok());
}

#[test]
fn counters_read_and_print_moves_and_keep_plies() {
    let set = presets::russian();
    let played = set.parse_counters("R1=9,R4=3.5").unwrap();
    assert_eq!(played.plies("R1"), 18);
    assert_eq!(played.plies("R4"), 7);
    assert_eq!(played.plies("R2"), 0);
    assert_eq!(played.to_string(), "R1=9,R4=3.5");
    assert_eq!(set.parse_counters(&played.to_string()).unwrap(), played);
    assert_eq!(
        set.parse_counters(" R2 = 0 , R3=4 ").unwrap().to_string(),
        "R3=4"
    );
    assert!(set.parse_counters("").unwrap().is_empty());
    let mut counters = Counters::new();
    counters.set_moves("R2", 12);
    assert_eq!(counters.plies("R2"), 24);
    counters.set_plies("R2", 0);
    assert!(counters.is_empty());
}

#[test]
fn counters_reject_unknown_ids_and_bad_numbers() {
    let set = presets::russian();
    assert_eq!(
        set.parse_counters("R1=9,R9=3"),
        Err(CountersError::UnknownId {
            id: "R9".into(),
            set: "russian".into(),
            known: "R1, R2, R3, R4".into()
        })
    );
    assert_eq!(
        set.parse_counters("R9=3").unwrap_err().to_string(),
        "rule set `russian` has no counter `R9` (its counters: R1, R2, R3, R4)"
    );
    for bad in ["x", "-1", "9.25", "9.", ".5", "1e3", "99999999999", ""] {
        assert_eq!(
            set.parse_counters(&format!("R1={bad}")),
            Err(CountersError::BadNumber {
                id: "R1".into(),
                text: bad.into()
            }),
            "{bad}"
        );
    }
    assert_eq!(
        set.parse_counters("R1"),
        Err(CountersError::Syntax("R1".into()))
    );
    assert_eq!(
        set.parse_counters("=3"),
        Err(CountersError::Syntax("=3".into()))
    );
    assert_eq!(
        set.parse_counters("R1=3,"),
        Err(CountersError::Syntax("".into()))
    );
    assert_eq!(
        set.parse_counters("R1=3,R1=4"),
        Err(CountersError::Duplicate("R1".into()))
    );
    assert!(matches!(
        presets::none().parse_counters("R1=1"),
        Err(CountersError::UnknownId { known, .. }) if known == "none"
    ));
}

#[test]
fn events_of_a_move_tell_man_moves_captures_and_promotions() {
    let events = |fen: &str, text: &str| {
        let p = pos::<Russian>(fen);
        Events::of_move(&p, &parse_move(&p, text).unwrap())
    };
    assert_eq!(events("W:Wc3,g7,Ka1:Bd4,Kh4", "c3:e5"), MAN_CAPTURE);
    assert_eq!(events("W:Wc3,g7,Ka1:BKh4", "c3-d4"), QUIET_MAN_MOVE);
    assert_eq!(events("W:Wc3,g7,Ka1:BKh4", "g7-h8"), PROMOTION);
    assert_eq!(events("W:Wc3,g7,Ka1:BKh4", "a1-b2"), KING_MOVE);
    assert_eq!(events("W:WKa1:Bc3,Kh8", "a1:d4"), KING_CAPTURE);
    assert_eq!(KING_MOVE.to_string(), "nothing");
    assert_eq!(PROMOTION.to_string(), "promotion, man move");
}

#[test]
fn advancing_counts_plies_restarts_on_events_and_drops_counters_out_of_force() {
    let set = presets::russian();
    let ids =
        |p: &Position<Russian>| -> Vec<String> { set.in_force(p).map(|c| c.id.clone()).collect() };
    let advance = |played: &str, fen: &str, text: &str| {
        let p = pos::<Russian>(fen);
        let played = set.parse_counters(played).unwrap();
        set.advance(&played, &p, &parse_move(&p, text).unwrap())
            .to_string()
    };
    // Two kings and a man against a lone king on the main road: R2 (4 pieces), R3
    // and R4 are in force.
    let white = "W:We1,Ka3,Kh2:BKd4";
    assert_eq!(ids(&pos(white)), ["R2", "R3", "R4"]);
    let played = "R2=3,R3=2,R4=1";
    assert_eq!(advance(played, white, "a3-b4"), "R2=3.5,R3=2.5,R4=1.5");
    // A quiet man move restarts R4 only.
    assert_eq!(advance(played, white, "e1-f2"), "R2=3.5,R3=2.5");
    // A promotion restarts R2 and R4; three kings are still in R3's class, and R1
    // comes into force at 0.
    let promoting = "W:Wc7,Ka3,Kh2:BKd4";
    assert_eq!(advance(played, promoting, "c7-d8"), "R3=2.5");
    // The lone king leaving the main road ends R3.
    let black = "B:We1,Ka3,Kh2:BKd4";
    assert_eq!(advance(played, black, "d4-e5"), "R2=3.5,R3=2.5,R4=1.5");
    assert_eq!(advance(played, black, "d4-e3"), "R2=3.5,R4=1.5");
    // A counter comes into force at 0: the king steps onto the road.
    let off_road = pos::<Russian>("B:We1,Ka3,Kh2:BKe3");
    assert_eq!(ids(&off_road), ["R2", "R4"]);
    let mv = parse_move(&off_road, "e3-d4").unwrap();
    let after = set.advance(&Counters::new(), &off_road, &mv);
    assert_eq!(after.to_string(), "R2=0.5,R4=0.5");
    assert!(counter(&set, "R3").applies_at(&apply(&off_road, &mv)));
    assert_eq!(after.plies("R3"), 0);
}

#[test]
fn the_limit_draws_when_the_count_reaches_it() {
    let set = presets::russian();
    let p = pos::<Russian>("W:WKa3,Kc5,Kg1:BKb4");
    let reached = |text: &str| {
        set.limit_reached(&set.parse_counters(text).unwrap(), &p)
            .map(|c| c.id.clone())
    };
    assert_eq!(reached("R1=14.5,R2=29,R4=14"), None);
    assert_eq!(reached("R1=15").as_deref(), Some("R1"));
    assert_eq!(reached("R2=30").as_deref(), Some("R2"));
    assert_eq!(reached("R4=15").as_deref(), Some("R4"));
    assert_eq!(
        reached("R3=5"),
        None,
        "R3 is not in force off the main road"
    );
    let set = presets::fmjd();
    let p = pos::<International>("W:WK46,K47:BK3");
    let played = set.parse_counters("I3=5").unwrap();
    assert_eq!(
        set.limit_reached(&played, &p).map(|c| c.id.as_str()),
        Some("I3")
    );
}

#[test]
fn the_main_road_is_the_long_diagonal_in_both_variants() {
    let road = PositionCondition::LoneKingOnMainRoad;
    for (fen, holds) in [
        ("W:WKc1,Ke1:BKa1", true),
        ("W:WKc1,Ke1:BKh8", true),
        ("W:WKc1,Ke1:BKe5", true),
        ("W:WKc1,Ke1:BKb8", false),
        ("W:WKh8:BKc3,Ke1", true),
        ("W:WKb2,c3:BKa7", false),
        ("W:Wb2:BKa7,c7", false),
    ] {
        assert_eq!(road.holds(&pos::<Russian>(fen)), holds, "{fen}");
    }
    for (fen, holds) in [
        ("W:WK1,K2:BK46", true),
        ("W:WK1,K2:BK5", true),
        ("W:WK1,K2:BK28", true),
        ("W:WK1,K2:BK45", false),
        ("W:WK1,K2:B28", false),
    ] {
        assert_eq!(road.holds(&pos::<International>(fen)), holds, "{fen}");
    }
}

#[test]
fn a_set_name_must_be_a_short_identifier() {
    let named = |name: &str| {
        let mut set = presets::none();
        set.name = name.to_string();
        set.validate()
    };
    for good in ["russian", "fmjd", "my-set_2", "R", &"a".repeat(32)] {
        assert_eq!(named(good), Ok(()), "`{good}`");
    }
    assert_eq!(named(""), Err(ValidationError::NoName));
    assert_eq!(named("  "), Err(ValidationError::NoName));
    let long = "a".repeat(100);
    for bad in [
        "../x",
        "a/b",
        "a\\b",
        "..",
        ".hidden",
        "-x",
        "_x",
        "a b",
        " russian",
        "russian.toml",
        "дамка",
        &"a".repeat(33),
        &long,
    ] {
        assert_eq!(
            named(bad),
            Err(ValidationError::BadName(bad.to_string())),
            "`{bad}`"
        );
    }
    for name in presets::NAMES {
        assert_eq!(RuleSet::preset(name).unwrap().validate(), Ok(()), "{name}");
    }
    // A file naming its set `../x` is refused before any table file is named.
    match RuleSet::from_toml_str(&ONE_COUNTER.replace("name = \"t\"", "name = \"../x\"")) {
        Err(RulesError::Invalid { problem, .. }) => {
            assert_eq!(problem, ValidationError::BadName("../x".into()));
            assert!(problem.to_string().contains("`../x`"), "{problem}");
            assert!(problem.to_string().contains("file names"), "{problem}");
        }
        other => panic!("expected an invalid set, got {other:?}"),
    }
}

#[test]
fn the_fingerprint_covers_what_decides_the_values_and_nothing_else() {
    let set = presets::russian();
    let same = |change: &dyn Fn(&mut RuleSet)| {
        let mut other = set.clone();
        change(&mut other);
        assert_ne!(other, set, "the change changed nothing");
        other.fingerprint() == set.fingerprint()
    };
    // Words, names and the variant binding do not change a table's values.
    assert!(same(&|s| s.description.push_str(" Typo fixed.")));
    assert!(same(&|s| s.notes.push("Another note.".into())));
    assert!(same(&|s| s.counters[0].description.push('!')));
    assert!(same(&|s| s.counters[1].notes[0] = "Rewritten.".into()));
    assert!(same(&|s| s.counters[2].notes.clear()));
    assert!(same(&|s| s.name = "russian-copy".into()));
    assert!(same(&|s| s.variant = None));
    assert!(same(&|s| s.counters[0].id = "Q1".into()));
    // Everything a counter counts or draws by does.
    assert!(!same(&|s| s.counters[0].limit = Limit::Moves(16)));
    assert!(!same(&|s| {
        if let Limit::ByPieces(bands) = &mut s.counters[1].limit {
            bands[2].moves = 61;
        }
    }));
    assert!(!same(&|s| {
        if let Limit::ByPieces(bands) = &mut s.counters[1].limit {
            bands[2].pieces = Count::at_least(6);
        }
    }));
    assert!(!same(&|s| s.counters[0].resets = Events::NONE));
    assert!(!same(&|s| s.counters[3].resets.promotion = true));
    assert!(!same(&|s| s.counters[2].condition = None));
    assert!(!same(&|s| s.counters[3].draws = false));
    assert!(!same(
        &|s| s.counters[3].applies = MaterialClass::BothSidesHaveKings
    ));
    assert!(!same(&|s| {
        if let MaterialClass::Versus { strong, .. } = &mut s.counters[2].applies {
            strong.pop();
        }
    }));
    assert!(!same(&|s| {
        if let MaterialClass::Versus { weak, .. } = &mut s.counters[0].applies {
            *weak = SidePattern::exactly(1, 1);
        }
    }));
    assert!(!same(&|s| s.counters.swap(0, 3)));
    assert!(!same(&|s| {
        s.counters.pop();
    }));
    // The same set read back from TOML has the same fingerprint, and the presets
    // all differ.
    let back = RuleSet::from_toml_str(&set.to_toml().unwrap()).unwrap();
    assert_eq!(back.fingerprint(), set.fingerprint());
    let prints: std::collections::BTreeSet<u64> = presets::NAMES
        .iter()
        .map(|name| RuleSet::preset(name).unwrap().fingerprint())
        .collect();
    assert_eq!(prints.len(), presets::NAMES.len());
    assert!(!prints.contains(&0));
}
