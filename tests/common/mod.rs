//! Shared by the integration tests: running the `damka` binary, building tables
//! into a temporary directory, and a deliberately naive solver — every position in
//! a `HashMap`, plain iteration to a fixed point, nothing shared with the generator
//! but the move generator. The submodules add a naive solver of the game under a
//! rule set ([`rules_naive`]), a naive solver of moves to conversion
//! ([`mtc_naive`]), constructed move-limit cases
//! ([`rule_cases_data`]) and the C programs of the C ABI's tests ([`c_abi`]).

pub mod c_abi;
pub mod mtc_naive;
pub mod rule_cases_data;
pub mod rules_naive;

use std::collections::HashMap;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use tempfile::TempDir;

use damka_core::{apply, legal_moves};
use damka_core::{Color, Move, PieceKind, Position, Slice, Variant};
use damka_formats::Value;
use damka_gen::verify::VerifyReport;
use damka_gen::verify_rules::{verify_rules, verify_rules_windowed};
use damka_gen::{build, BuildOptions, BuildReport, BuiltGroup, GenError};

/// What a run of the `damka` binary printed, and whether it succeeded.
pub struct Run {
    /// Standard output.
    pub out: String,
    /// Standard error.
    pub err: String,
    /// Exit status 0.
    pub ok: bool,
}

/// Runs `damka` with `args`, feeding `stdin`.
pub fn damka(args: &[&str], stdin: &str) -> Run {
    run_program(Path::new(env!("CARGO_BIN_EXE_damka")), args, stdin)
}

/// The Python interpreter the tests start: `DAMKA_PYTHON`, or `python3`.
pub fn python() -> String {
    std::env::var("DAMKA_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// Runs the program `exe` with `args`, feeding `stdin`.
pub fn run_program(exe: &Path, args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        out: String::from_utf8(out.stdout).unwrap(),
        err: String::from_utf8(out.stderr).unwrap(),
        ok: out.status.success(),
    }
}

/// A fresh temporary directory for one test, removed when dropped, whether the
/// test passes or fails.
pub fn temp_dir(tag: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("damka-{tag}-"))
        .tempdir()
        .unwrap()
}

/// Builds every table of up to `pieces` pieces into `dir`, then the slices
/// `extra` (in order, each with its dependencies already built).
pub fn build_tables<V: Variant>(dir: &Path, pieces: u32, extra: &[&str]) {
    build_tables_by(build::<V>, dir, pieces, extra);
}

/// A build of the generator: `damka_gen::build` or `damka_gen::build_mtc`.
pub type Builder =
    fn(&BuildOptions<'_>, &mut dyn FnMut(&BuiltGroup)) -> Result<BuildReport, GenError>;

/// [`build_tables`] by `builder`.
pub fn build_tables_by(builder: Builder, dir: &Path, pieces: u32, extra: &[&str]) {
    let options = BuildOptions {
        root: dir.to_path_buf(),
        max_pieces: pieces,
        only: None,
        with_dependencies: false,
        memory: None,
        progress: None,
    };
    builder(&options, &mut |_| {}).unwrap();
    for name in extra {
        let slice: Slice = name.parse().unwrap();
        let only = BuildOptions {
            max_pieces: slice.pieces(),
            only: Some(slice),
            with_dependencies: false,
            ..options.clone()
        };
        builder(&only, &mut |_| {}).unwrap();
    }
}

/// Builds the tables of every slice of up to `pieces` pieces and the rule tables
/// of `set` for them into `dir`, then the slices `extra` (in order, each with its
/// dependencies already built), with their rule tables.
pub fn build_rule_tables<V: Variant>(dir: &Path, pieces: u32, extra: &[&str], set: &str) {
    let set = damka_probe::limits::RuleSet::load_for(set, V::KIND).unwrap();
    let tables = BuildOptions {
        root: dir.to_path_buf(),
        max_pieces: pieces,
        only: None,
        with_dependencies: false,
        memory: None,
        progress: None,
    };
    let options = damka_gen::RuleBuildOptions {
        tables: tables.clone(),
        set,
    };
    damka_gen::build_rules::<V>(&options, &mut |_| {}).unwrap();
    for name in extra {
        let slice: Slice = name.parse().unwrap();
        let only = damka_gen::RuleBuildOptions {
            tables: BuildOptions {
                max_pieces: slice.pieces(),
                only: Some(slice),
                with_dependencies: false,
                ..tables.clone()
            },
            set: options.set.clone(),
        };
        damka_gen::build_rules::<V>(&only, &mut |_| {}).unwrap();
    }
}

/// Every legal position with 1 to `max_pieces` pieces, either side to move; with
/// `kings_only`, kings only.
pub fn all_positions<V: Variant>(max_pieces: usize, kings_only: bool) -> Vec<Position<V>> {
    let squares = V::GEOMETRY.squares;
    let kinds: &[(Color, PieceKind)] = if kings_only {
        &[
            (Color::White, PieceKind::King),
            (Color::Black, PieceKind::King),
        ]
    } else {
        &[
            (Color::White, PieceKind::Man),
            (Color::White, PieceKind::King),
            (Color::Black, PieceKind::Man),
            (Color::Black, PieceKind::King),
        ]
    };
    let mut out = Vec::new();
    let mut chosen: Vec<(Color, PieceKind, usize)> = Vec::new();
    fn place<V: Variant>(
        start: usize,
        left: usize,
        squares: usize,
        kinds: &[(Color, PieceKind)],
        chosen: &mut Vec<(Color, PieceKind, usize)>,
        out: &mut Vec<Position<V>>,
    ) {
        if !chosen.is_empty() {
            for side in [Color::White, Color::Black] {
                if let Ok(pos) = Position::from_pieces(side, chosen.iter().copied()) {
                    out.push(pos);
                }
            }
        }
        if left == 0 {
            return;
        }
        for square in start..squares {
            for &(color, kind) in kinds {
                chosen.push((color, kind, square));
                place(square + 1, left - 1, squares, kinds, chosen, out);
                chosen.pop();
            }
        }
    }
    place(0, max_pieces, squares, kinds, &mut chosen, &mut out);
    out
}

/// Solves `positions` (closed under moves, apart from positions whose side to move
/// has no pieces) by iterating to a fixed point: in round `d`, a position becomes a
/// win in `d` if a successor is a loss in `d - 1`, and a loss in `d` if all its
/// successors are wins, the longest in `d - 1`.
pub fn naive_solve<V: Variant>(positions: &[Position<V>]) -> HashMap<Position<V>, Value> {
    // Successor ids; `None` marks a successor whose side to move has no pieces.
    let successors = each_move(positions, |_, _, next, id| {
        (next.pieces(next.side()) != 0).then(|| id[&next])
    });
    let successor_dtw = |dtw: &[Option<u16>], s: &Option<usize>| match s {
        None => Some(0),
        Some(i) => dtw[*i],
    };
    let dtw = in_rounds(positions.len(), |i, d, dtw| {
        let succ = &successors[i];
        let decided = if d % 2 == 1 {
            succ.iter().any(|s| successor_dtw(dtw, s) == Some(d - 1))
        } else {
            succ.iter()
                .all(|s| successor_dtw(dtw, s).is_some_and(|x| x % 2 == 1 && x < d))
                && (succ.is_empty() || succ.iter().any(|s| successor_dtw(dtw, s) == Some(d - 1)))
        };
        decided.then_some(d)
    });
    positions
        .iter()
        .zip(dtw)
        .map(|(p, d)| (*p, d.map_or(Value::DRAW, Value::decided)))
        .collect()
}

/// For every position of `positions`, `step(position, move, reached, ids)` of
/// each of its legal moves, where `ids` numbers `positions` by their order.
pub fn each_move<V: Variant, T>(
    positions: &[Position<V>],
    step: impl Fn(&Position<V>, &Move, Position<V>, &HashMap<Position<V>, usize>) -> T,
) -> Vec<Vec<T>> {
    let id: HashMap<Position<V>, usize> =
        positions.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    positions
        .iter()
        .map(|p| {
            legal_moves(p)
                .iter()
                .map(|mv| step(p, mv, apply(p, mv), &id))
                .collect()
        })
        .collect()
}

/// Decides `n` positions in rounds `d` = 0, 1, ...: in round `d`, `decide(i, d,
/// values)` gives the value of each undecided position `i` that round `d`
/// decides, from the values of the earlier rounds (`values`, by position), or
/// `None`. Stops after two rounds in a row decide nothing; positions never
/// decided are `None`.
pub fn in_rounds<T: Copy>(
    n: usize,
    mut decide: impl FnMut(usize, u16, &[Option<T>]) -> Option<T>,
) -> Vec<Option<T>> {
    let mut values = vec![None; n];
    let (mut quiet_rounds, mut d) = (0, 0u16);
    while quiet_rounds < 2 {
        let found: Vec<(usize, T)> = (0..n)
            .filter(|&i| values[i].is_none())
            .filter_map(|i| decide(i, d, &values).map(|v| (i, v)))
            .collect();
        quiet_rounds = if found.is_empty() {
            quiet_rounds + 1
        } else {
            0
        };
        for (i, value) in found {
            values[i] = Some(value);
        }
        d += 1;
    }
    values
}

/// Every file of `dir/russian`, sorted by name, with its bytes.
pub fn russian_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir.join("russian"))
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Both sides to move of every `step`-th position of `slice`, from `start`.
pub fn sampled_positions<V: Variant>(slice: &str, start: u64, step: usize) -> Vec<Position<V>> {
    let slice: Slice = slice.parse().unwrap();
    let indexer = damka_core::SliceIndexer::<V>::new(slice).unwrap();
    (start..indexer.size())
        .step_by(step)
        .map(|i| indexer.position(i))
        .flat_map(|p| [p, p.flipped()])
        .collect()
}

/// Plays the best move of `pos` with `counts`, whose answer under the rules is
/// `wdl` at `distance`, and checks that the answer after it continues the same
/// line: a win in `d` becomes a loss in `d - 1` for the other side, a draw stays
/// a draw (a conversion ends the phase: not followed).
pub fn keeps_rule_line<V: Variant>(
    tables: &damka_probe::limits::RuleTablebase<V>,
    pos: &Position<V>,
    counts: &damka_probe::limits::Counters,
    wdl: Option<damka_formats::RuleWdl>,
    distance: Option<u16>,
) {
    let outcome = tables.probe_rules(*pos, counts).unwrap();
    let Some(mv) = outcome.best_move else {
        return;
    };
    if mv.is_capture() || mv.is_promotion() {
        return;
    }
    let after = apply(pos, &mv);
    let next = tables.set().advance(counts, pos, &mv);
    let reply = tables.probe_rules(after, &next).unwrap();
    let ruled = wdl.unwrap().ruled();
    assert_eq!(
        reply.wdl.map(|w| w.ruled()),
        Some(ruled.negate()),
        "{pos} with {counts}: {mv:?} does not keep {ruled}"
    );
    if ruled != damka_formats::Wdl::Draw {
        assert_eq!(reply.distance.map(|d| d + 1), distance, "{pos} {mv:?}");
    }
}

/// The rule verification of every table under `dir` under `set`, checked to find
/// the same mismatches with each block read whole (the default) and with every
/// entry read through the block cache (the way of slices too large for that).
pub fn verify_rules_both(dir: &Path, set: &damka_probe::limits::RuleSet) -> VerifyReport {
    let windowed = verify_rules::<damka_core::Russian>(dir, set, None).unwrap();
    let single = verify_rules_windowed::<damka_core::Russian>(dir, set, None, 0, None).unwrap();
    assert_eq!(
        (windowed.positions, windowed.mismatches),
        (single.positions, single.mismatches),
        "windows {:?}, single entries {:?}",
        windowed.examples,
        single.examples
    );
    windowed
}
