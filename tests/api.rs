//! The public probe API as an embedder uses it: opening a directory, probing by
//! FEN or position, the principal variations, the rule answer, and the errors.

use crate::common;

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use common::{build_rule_tables, temp_dir};
use damka_core::{apply, legal_moves};
use damka_probe::limits::{RuleAnswer, RuleSet, RuleTablebase, CANCELLED, TIME_LIMIT};
use damka_probe::{International, Position, ProbeError, Russian, Tablebase, Wdl};
use tempfile::TempDir;

/// Petrov's triangle material with the lone king off the main road.
const THREE_KINGS: &str = "W:WKa1,Kc1,Ke1:BKh2";

/// The tables `scripts/quickstart.sh` builds for the embedding example (up to 3
/// pieces and three kings against one, with the `russian` rule tables), built
/// once for the tests of this file.
fn quickstart_tables() -> &'static Path {
    static TABLES: OnceLock<TempDir> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            let tmp = temp_dir("api");
            build_rule_tables::<Russian>(tmp.path(), 3, &["0M3K-0M1K"], "russian");
            tmp
        })
        .path()
}

#[test]
fn the_probe_api_answers_by_fen_and_by_position() {
    let dir = quickstart_tables();

    let tables = Tablebase::<Russian>::open(dir).unwrap();
    assert_eq!(tables.max_pieces(), 4);
    assert!(tables.slices().iter().any(|s| s.name() == "0M3K-0M1K"));
    assert!(!tables.slices().iter().any(|s| s.name() == "0M2K-0M2K"));

    let pos: Position<Russian> = THREE_KINGS.parse().unwrap();
    assert_eq!(tables.probe_wdl(THREE_KINGS).unwrap(), Wdl::Win);
    assert_eq!(tables.probe_wdl(pos).unwrap(), Wdl::Win);
    let dtw = tables.probe_dtw(pos).unwrap().unwrap();
    assert_eq!(tables.probe_dtw(THREE_KINGS).unwrap(), Some(dtw));
    let best = tables.best_move(THREE_KINGS).unwrap().unwrap();
    let pv = tables.pv(THREE_KINGS).unwrap();
    assert_eq!(pv.len(), dtw as usize, "a won line lasts its DTW");
    assert_eq!(pv[0], best);

    // Errors name the problem.
    let bad_fen = tables.probe_wdl("W:Wz9:Bh8").unwrap_err();
    assert!(matches!(bad_fen, ProbeError::Fen(_)), "{bad_fen}");
    let too_many = tables.probe_wdl("W:WKa1,Kc1,Ke1:BKh2,Kh8").unwrap_err();
    assert!(
        too_many
            .to_string()
            .contains("these tables cover up to 4 pieces"),
        "{too_many}"
    );
    let missing = tables.probe_wdl("W:WKa1,Kc1:BKh2,Kh8").unwrap_err();
    assert!(
        matches!(missing, ProbeError::MissingTable { .. }),
        "{missing}"
    );

    // Under the rules: R1 (three kings against one) is in force; R3 is not, with the
    // lone king off the main road.
    let set = RuleSet::preset("russian").unwrap();
    let rules = RuleTablebase::<Russian>::open(dir, set).unwrap();
    let fresh = rules.set().parse_counters("").unwrap();
    let played = rules.set().parse_counters("R1=4").unwrap();
    let outcome = rules.probe_rules(THREE_KINGS, &played).unwrap();
    let RuleAnswer::Win { distance } = outcome.answer() else {
        panic!("{:?}", outcome.answer())
    };
    assert!(distance as u32 <= 30 - 8, "inside R1's remaining 11 moves");
    let line = rules.pv_rules(THREE_KINGS, &played).unwrap();
    assert_eq!(line.len(), distance as usize);
    assert!(
        line.last().unwrap().is_capture(),
        "the phase ends by capturing"
    );
    let late = rules.set().parse_counters("R1=14.5").unwrap();
    assert!(matches!(
        rules.probe_rules(THREE_KINGS, &late).unwrap().answer(),
        RuleAnswer::CursedWin { ref rule } if rule == "R1"
    ));
    assert!(fresh.is_empty());
    let not_in_force = rules.set().parse_counters("R3=2").unwrap();
    let refused = rules.probe_rules(THREE_KINGS, &not_in_force).unwrap_err();
    assert!(
        matches!(refused, ProbeError::NotInForce { ref id, .. } if id == "R3"),
        "{refused}"
    );

    // A set made in code is validated too: its name becomes part of file names.
    let mut escaping = RuleSet::preset("russian").unwrap();
    escaping.name = "../x".into();
    let refused = RuleTablebase::<Russian>::open(dir, escaping)
        .err()
        .expect("a set named ../x is refused");
    assert!(
        matches!(refused, ProbeError::InvalidRuleSet(_)),
        "{refused}"
    );
}

/// A man and a king against a man with 14.5 of R4's 15 moves played: Black has
/// only men, so R4 (which a man move restarts) binds only if White's next move
/// is a king move, and the probe searches.
const SEARCHED: &str = "W:Wb4,Kh2:Bf6";

/// A rule query with a deadline stops its search there and answers unknown, so
/// the thread is free again, and so does a cancelled session; a session's
/// answers are those of separate queries.
#[test]
fn rule_queries_stop_at_their_deadline_and_sessions_agree() {
    let rules =
        RuleTablebase::<Russian>::open(quickstart_tables(), RuleSet::preset("russian").unwrap())
            .unwrap();
    let r4 = rules.set().parse_counters("R4=14.5").unwrap();
    let exact = rules.probe_rules(SEARCHED, &r4).unwrap();
    assert!(exact.wdl.is_some(), "{exact:?}");

    // A deadline already passed: the search gives up at its first state.
    let cut = rules
        .probe_rules_until(SEARCHED, &r4, Instant::now())
        .unwrap();
    assert_eq!(cut.wdl, None, "{cut:?}");
    assert_eq!(cut.unknown.as_deref(), Some(TIME_LIMIT));
    assert_eq!(cut.theory, exact.theory);
    // A session cancelled from elsewhere gives up at once.
    let cancelled = rules
        .session(None)
        .cancel_on(Arc::new(AtomicBool::new(true)))
        .probe_rules(SEARCHED, &r4)
        .unwrap();
    assert_eq!(
        cancelled.unknown.as_deref(),
        Some(CANCELLED),
        "{cancelled:?}"
    );
    // A deadline far away changes nothing.
    let later = Instant::now() + Duration::from_secs(3600);
    assert_eq!(
        rules.probe_rules_until(SEARCHED, &r4, later).unwrap(),
        exact
    );
    let played = rules.set().parse_counters("R1=4").unwrap();
    assert_eq!(
        rules.pv_rules_until(THREE_KINGS, &played, later).unwrap(),
        rules.pv_rules(THREE_KINGS, &played).unwrap()
    );

    // One session: a position, then three of its moves, as separate queries
    // answer them (without the best move where only the value was asked).
    for (fen, counts) in [(SEARCHED, &r4), (THREE_KINGS, &played)] {
        let pos: Position<Russian> = fen.parse().unwrap();
        let mut session = rules.session(None);
        assert_eq!(
            session.probe_rules(pos, counts).unwrap(),
            rules.probe_rules(pos, counts).unwrap()
        );
        for mv in legal_moves(&pos).iter().take(3) {
            let after = apply(&pos, mv);
            let next = rules.set().advance(counts, &pos, mv);
            let alone = rules.probe_rules(after, &next).unwrap();
            let shared = session.probe_rules_value(after, &next).unwrap();
            assert_eq!(shared.best_move, None);
            assert_eq!(
                shared,
                damka_probe::limits::RuleOutcome {
                    best_move: None,
                    ..alone
                }
            );
        }
    }
}

#[test]
fn opening_a_directory_without_tables_fails() {
    let tmp = temp_dir("api-empty");
    let dir = tmp.path();
    let missing = Tablebase::<Russian>::open(dir).unwrap_err();
    assert!(matches!(missing, ProbeError::NoTables { .. }), "{missing}");
    std::fs::create_dir_all(dir.join("russian")).unwrap();
    std::fs::write(dir.join("russian").join("notes.txt"), "not a table").unwrap();
    let empty = Tablebase::<Russian>::open(dir).unwrap_err();
    assert!(
        empty.to_string().contains("no russian tables in"),
        "{empty}"
    );
    let other = Tablebase::<International>::open(dir).unwrap_err();
    assert!(matches!(other, ProbeError::NoTables { .. }), "{other}");
}
