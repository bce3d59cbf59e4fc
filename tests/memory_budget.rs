//! The memory budget of `damka gen`: groups solved with their sub-slices spilled
//! to disk write the same bytes as groups solved in memory, a budget too small
//! for any group is refused before anything is built (naming the smallest budget
//! that works; the rule tables' build too), rule groups solved spilled write the
//! same bytes too, groups that read their dependencies a block at a time write
//! the same bytes and stop with a clear error when the blocks do not fit, and a
//! build killed in the middle of a group resumes to the same bytes.

use crate::common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{damka, russian_files as files, temp_dir};
use damka_core::{build_order, dependencies, Russian, Slice};
use damka_gen::solve::{Dtw, Group};
use damka_gen::store::{FileStore, SolvedSlice, TableStore};
use damka_probe::{PageBudget, ProbeError, Tablebase};

/// The arguments of `damka gen` building Russian up to 4 pieces into `dir`.
fn gen_args(dir: &Path) -> Vec<String> {
    [
        "gen",
        "--variant",
        "russian",
        "--pieces",
        "4",
        "--quiet",
        "--dir",
    ]
    .iter()
    .map(|a| a.to_string())
    .chain([dir.to_str().unwrap().to_string()])
    .collect()
}

/// Runs `damka gen` building Russian up to 4 pieces into `dir`, with `extra`.
fn gen(dir: &Path, extra: &[&str]) -> common::Run {
    let args = gen_args(dir);
    let args: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .chain(extra.iter().copied())
        .collect();
    damka(&args, "")
}

/// A Russian ≤ 4 build in a new directory, and an empty directory to solve its
/// groups again into, some other way.
struct Rebuild {
    reference_tmp: tempfile::TempDir,
    tablebase: Tablebase<Russian>,
    tmp: tempfile::TempDir,
    store: FileStore,
}

impl Rebuild {
    fn new(tag: &str) -> Rebuild {
        let reference_tmp = temp_dir(&format!("{tag}-reference"));
        let r = gen(reference_tmp.path(), &[]);
        assert!(r.ok, "{}", r.err);
        let tmp = temp_dir(tag);
        let store = FileStore::new(
            &tmp.path().join("russian"),
            damka_core::VariantKind::Russian,
        )
        .unwrap();
        Rebuild {
            tablebase: Tablebase::<Russian>::new(reference_tmp.path()),
            reference_tmp,
            tmp,
            store,
        }
    }

    /// Where the group solved again spills or streams.
    fn dir(&self) -> &Path {
        self.tmp.path()
    }

    /// Solves `group` and writes its tables; no temporary file may be left.
    fn solve(&self, mut group: Group<Russian, Dtw<Russian>>) {
        group.solve(&|_| {}).unwrap();
        let slots = group.into_slots();
        let tables: Vec<SolvedSlice<'_>> = slots.iter().map(|s| (s.slice(), s.values())).collect();
        self.store.write_group(&tables).unwrap();
        drop(slots);
        let leftovers = std::fs::read_dir(self.dir())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .count();
        assert_eq!(leftovers, 0, "temporary files left");
    }

    /// Every file solved again is the reference's, byte for byte.
    fn assert_same(&self, how: &str) {
        let (a, b) = (files(self.reference_tmp.path()), files(self.dir()));
        assert_eq!(a.len(), b.len());
        for ((name_a, bytes_a), (name_b, bytes_b)) in a.iter().zip(&b) {
            assert_eq!(name_a, name_b);
            assert!(bytes_a == bytes_b, "{name_a} differs when {how}");
        }
    }
}

/// The groups up to 4 pieces, by their first slice.
fn heads() -> Vec<Slice> {
    build_order::<Russian>(4)
        .into_iter()
        .filter(|h| *h <= h.mirror())
        .collect()
}

#[test]
fn spilled_groups_write_the_same_bytes() {
    let rebuild = Rebuild::new("budget-spilled");
    let mut several_keys = 0;
    for head in heads() {
        let deps = dependencies(head)
            .into_iter()
            .map(|d| rebuild.tablebase.slice_table(d).unwrap())
            .collect();
        let group =
            Group::with_spill(head, Dtw::<Russian>::new(deps), Some(rebuild.dir())).unwrap();
        if head.men() > 0 {
            several_keys += 1;
        }
        rebuild.solve(group);
    }
    assert!(several_keys > 10);
    rebuild.assert_same("spilled");
}

/// Solves the group of `head` (its dependencies built in `tablebase`) with its
/// sub-slices spilled into `spill` and its dependencies decoded a block at a
/// time within `pages`, and writes its tables into `store`.
fn solve_paged(
    tablebase: &Tablebase<Russian>,
    head: Slice,
    pages: &Arc<PageBudget>,
    (spill, store): (&Path, &FileStore),
) -> Result<(), damka_gen::GenError> {
    let deps = dependencies(head)
        .into_iter()
        .map(|d| Arc::new(tablebase.paged_slice_table(d, pages.clone()).unwrap()))
        .collect();
    let mut group = Group::with_spill(head, Dtw::<Russian>::new(deps), Some(spill))?;
    group.solve(&|_| {})?;
    let slots = group.into_slots();
    let tables: Vec<SolvedSlice<'_>> = slots.iter().map(|s| (s.slice(), s.values())).collect();
    store.write_group(&tables)
}

#[test]
fn groups_reading_their_dependencies_a_block_at_a_time_write_the_same_bytes() {
    let rebuild = Rebuild::new("pages");
    let tablebase = &rebuild.tablebase;
    let (dir, store) = (rebuild.dir(), &rebuild.store);
    let mut bounded = 0;
    for head in heads() {
        let whole: u64 = dependencies(head)
            .iter()
            .map(|&d| tablebase.slice_table(d).unwrap().heap_bytes() as u64)
            .sum();
        let pages = Arc::new(PageBudget::new(1 << 20));
        solve_paged(tablebase, head, &pages, (dir, store)).unwrap();
        assert!(pages.peak() <= 1 << 20);
        // Some groups hold less than their whole dependencies at once: a
        // sub-slice's blocks are dropped before the next is solved.
        if pages.peak() < whole {
            bounded += 1;
        }
    }
    assert!(
        bounded > 5,
        "{bounded} groups held less than their dependencies"
    );
    rebuild.assert_same("paged");
    let reference = rebuild.reference_tmp.path().to_path_buf();
    // Too few bytes for one sub-slice's blocks: an error that says how many
    // more were needed, and no table written.
    let head: Slice = "1M1K-1M1K".parse().unwrap();
    let short_tmp = temp_dir("pages-short");
    let short = short_tmp.path().to_path_buf();
    let store = FileStore::new(&short.join("russian"), damka_core::VariantKind::Russian).unwrap();
    let pages = Arc::new(PageBudget::new(20 << 10));
    let error = solve_paged(tablebase, head, &pages, (&short, &store)).unwrap_err();
    match error {
        damka_gen::GenError::Probe(ProbeError::PageBudget { short_mib, .. }) => {
            assert!(short_mib > 0)
        }
        other => panic!("{other}"),
    }
    assert!(files(&short).is_empty());
    // A corrupt block of a dependency, found only when a sub-slice reads it:
    // the checksum error, and no table written.
    let corrupt_tmp = temp_dir("pages-corrupt");
    let corrupt = corrupt_tmp.path().to_path_buf();
    std::fs::create_dir_all(corrupt.join("russian")).unwrap();
    for (name, mut bytes) in files(&reference) {
        if dependencies(head)
            .iter()
            .any(|d| name == format!("{d}.dtw.dkt"))
        {
            bytes[130] ^= 0x40;
        }
        std::fs::write(corrupt.join("russian").join(name), bytes).unwrap();
    }
    let broken = Tablebase::<Russian>::new(&corrupt);
    let pages = Arc::new(PageBudget::new(1 << 20));
    let error = solve_paged(&broken, head, &pages, (&short, &store)).unwrap_err();
    assert!(
        matches!(
            error,
            damka_gen::GenError::Probe(ProbeError::CorruptBlock { .. })
        ),
        "{error}"
    );
    assert!(files(&short).is_empty());
}

#[test]
fn streamed_groups_write_the_same_bytes() {
    let rebuild = Rebuild::new("streamed");
    for (n, head) in heads().into_iter().enumerate() {
        // Every other group reads its dependencies a block at a time too.
        let deps = dependencies(head)
            .into_iter()
            .map(|d| match n % 2 {
                0 => rebuild.tablebase.slice_table(d).unwrap(),
                _ => Arc::new(
                    rebuild
                        .tablebase
                        .paged_slice_table(d, Arc::new(PageBudget::new(1 << 20)))
                        .unwrap(),
                ),
            })
            .collect();
        let mut group = Group::streamed(head, Dtw::<Russian>::new(deps), rebuild.dir()).unwrap();
        // And every third solves its units one at a time.
        if n % 3 == 0 {
            group = group.one_unit_at_a_time();
        }
        rebuild.solve(group);
    }
    rebuild.assert_same("streamed");
}

/// The `--memory` value that a refusal names as the smallest budget that works.
fn named_budget(err: &str) -> String {
    err.split("--memory ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .expect("the message names a --memory value")
        .to_string()
}

#[test]
fn a_budget_too_small_is_refused_before_building() {
    let tmp = temp_dir("budget-small");
    let dir = tmp.path().to_path_buf();
    let r = gen(&dir, &["--memory", "1M"]);
    assert!(!r.ok);
    assert!(r.err.contains("memory budget (1 MiB"), "{}", r.err);
    assert!(r.err.contains("the smallest budget"), "{}", r.err);
    // The budget it names works.
    let smallest = named_budget(&r.err);
    assert!(!dir.join("russian").exists() || files(&dir).is_empty());
    let r = gen(&dir, &["--memory", &smallest]);
    assert!(r.ok, "{}", r.err);
    for bad in ["lots", "12X", "0"] {
        let r = gen(&dir, &["--memory", bad]);
        assert!(!r.ok && r.err.contains("size"), "{bad}: {}", r.err);
    }
}

#[test]
fn a_budget_too_small_for_the_rule_tables_is_refused_before_building_anything() {
    let tmp = temp_dir("budget-rules");
    let dir = tmp.path().to_path_buf();
    let gen = |extra: &[&str]| {
        let mut args = vec!["gen", "--variant", "russian", "--pieces", "3", "--quiet"];
        args.extend(["--dir", dir.to_str().unwrap()]);
        args.extend(extra);
        damka(&args, "")
    };
    let rules = |extra: &[&str]| gen(&[&["--rules", "russian"], extra].concat());
    // Enough for the game-theoretic tables, not for the rule tables: refused
    // before the game-theoretic tables are built.
    let r = rules(&["--memory", "100M"]);
    assert!(!r.ok);
    assert!(r.err.contains("too small for the rule tables"), "{}", r.err);
    assert!(
        !dir.join("russian").exists() || files(&dir).is_empty(),
        "nothing is written"
    );
    let r = gen(&["--memory", "100M"]);
    assert!(r.ok, "{}", r.err);
    let tables = files(&dir).len();
    let r = rules(&["--memory", "1M"]);
    assert!(!r.ok);
    assert!(
        r.err.contains("memory budget (1 MiB") && r.err.contains("too small for the rule tables"),
        "{}",
        r.err
    );
    assert_eq!(files(&dir).len(), tables, "nothing is written");
    let smallest = named_budget(&r.err);
    let r = rules(&["--memory", &smallest]);
    assert!(r.ok, "{}", r.err);
    let names: Vec<String> = files(&dir).into_iter().map(|(name, _)| name).collect();
    assert!(
        names.iter().any(|n| n.ends_with(".russian.rwdl.dkt")),
        "{names:?}"
    );
}

/// `damka gen --variant russian --pieces 4 --rules russian` into `dir`, with
/// `extra` arguments.
fn gen_rules(dir: &Path, extra: &[&str]) -> common::Run {
    let mut args = vec!["gen", "--variant", "russian", "--pieces", "4"];
    args.extend(["--dir", dir.to_str().unwrap(), "--rules", "russian"]);
    args.extend(extra);
    damka(&args, "")
}

/// A directory with every file of `reference` (a Russian ≤ 4 build with its
/// `russian` rule tables) but those `left_out` picks by name.
fn copy_but(reference: &Path, tag: &str, left_out: impl Fn(&str) -> bool) -> tempfile::TempDir {
    let tmp = temp_dir(tag);
    std::fs::create_dir_all(tmp.path().join("russian")).unwrap();
    for (name, bytes) in files(reference) {
        if !left_out(&name) {
            std::fs::write(tmp.path().join("russian").join(name), bytes).unwrap();
        }
    }
    tmp
}

#[test]
fn spilled_rule_groups_write_the_same_bytes() {
    let reference_tmp = temp_dir("budget-rules-reference");
    let reference = reference_tmp.path().to_path_buf();
    let r = gen_rules(&reference, &["--quiet"]);
    assert!(r.ok, "{}", r.err);
    // Every table but the rule tables of one layered group, men of both sides on
    // several sub-slices: only that group is left to build.
    let left = "1M1K-1M1K.russian.";
    let tmp = copy_but(&reference, "budget-rules-spilled", |name| {
        name.starts_with(left)
    });
    let dir = tmp.path().to_path_buf();
    // A killed build of the group left a spill file; the next build removes it.
    let spill = dir.join("russian").join("spill-rules-russian");
    std::fs::create_dir_all(&spill).unwrap();
    std::fs::write(spill.join("1M1K-1M1K.values.tmp"), b"left by a kill").unwrap();
    // The smallest budget for it is its need with its solves spilled, less than
    // its need in memory: at that budget it spills, and writes the same bytes.
    let r = gen_rules(&dir, &["--memory", "1M"]);
    assert!(!r.ok && r.err.contains("1M1K-1M1K"), "{}", r.err);
    let smallest = named_budget(&r.err);
    let r = gen_rules(&dir, &["--memory", &smallest]);
    assert!(r.ok, "{}", r.err);
    assert!(
        r.out.contains("1M1K-1M1K") && r.out.contains("spilled to disk"),
        "{}",
        r.out
    );
    assert!(
        files(&dir) == files(&reference),
        "a spilled rule group differs"
    );
    assert!(!spill.exists(), "the spill directory outlived the build");
}

/// Starts `damka gen` into `dir` in the background, its output discarded.
fn spawn_gen(dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(gen_args(dir))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn a_build_killed_in_a_group_resumes_to_the_same_bytes() {
    let reference_tmp = temp_dir("resume-reference");
    let reference = reference_tmp.path().to_path_buf();
    let killed_tmp = temp_dir("resume-killed");
    let killed = killed_tmp.path().to_path_buf();
    let r = gen(&reference, &[]);
    assert!(r.ok, "{}", r.err);
    // Kill the build as soon as a table is half written (a temporary file is
    // there), several times, resuming in between.
    let mut kills = 0;
    for _ in 0..3 {
        let mut child = spawn_gen(&killed);
        let started = Instant::now();
        loop {
            let partial = std::fs::read_dir(killed.join("russian"))
                .map(|entries| {
                    entries
                        .filter_map(|e| e.ok())
                        .any(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
                })
                .unwrap_or(false);
            if partial {
                child.kill().unwrap();
                kills += 1;
                break;
            }
            if child.try_wait().unwrap().is_some() || started.elapsed() > Duration::from_secs(60) {
                break;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        child.wait().unwrap();
    }
    assert!(kills > 0, "the build was never caught mid-table");
    // Kill it at fixed times too, wherever it is then (loading dependencies,
    // solving two groups at once, writing), resuming in between.
    for delay_ms in [15, 40, 90, 200] {
        let mut child = spawn_gen(&killed);
        std::thread::sleep(Duration::from_millis(delay_ms));
        child.kill().unwrap();
        child.wait().unwrap();
    }
    let r = gen(&killed, &[]);
    assert!(r.ok, "{}", r.err);
    // Every table is there, byte for byte, and no temporary file is left.
    assert!(files(&killed) == files(&reference));
}

/// A rule group whose build stopped once its DTC tables were written (the
/// solve, about half of its time) reads its solve back from them, in memory and
/// with its sub-slices spilled, and writes the same bytes as a build that never
/// stopped.
#[test]
fn a_rule_group_stopped_after_its_dtc_tables_reads_its_solve_back() {
    let reference_tmp = temp_dir("resume-rules-reference");
    let reference = reference_tmp.path().to_path_buf();
    let r = gen_rules(&reference, &["--quiet"]);
    assert!(r.ok, "{}", r.err);
    // The layered group 1M1K-1M1K (counted, RWDL and DTZ tables after its DTC
    // tables) and the group of 2M0K-1M1K (RWDL and DTZ tables): everything of
    // theirs but the DTC tables is gone.
    let stopped = |name: &str| {
        ["1M1K-1M1K.", "2M0K-1M1K.", "1M1K-2M0K."]
            .iter()
            .any(|g| name.starts_with(g) && name.contains(".russian.") && !name.contains(".dtc."))
    };
    for spilled in [false, true] {
        let tmp = copy_but(&reference, "resume-rules", stopped);
        let dir = tmp.path().to_path_buf();
        let r = if spilled {
            let r = gen_rules(&dir, &["--memory", "1M"]);
            assert!(!r.ok, "{}", r.out);
            gen_rules(&dir, &["--memory", &named_budget(&r.err)])
        } else {
            gen_rules(&dir, &["--quiet"])
        };
        assert!(r.ok, "{}", r.err);
        let resumed: Vec<&str> = r
            .out
            .lines()
            .filter(|l| {
                l.starts_with("rules russian") && l.contains("read back from the DTC tables")
            })
            .collect();
        assert_eq!(resumed.len(), 2, "{}", r.out);
        if spilled {
            assert!(
                resumed
                    .iter()
                    .any(|l| l.contains("1M1K-1M1K") && l.contains("spilled")),
                "{}",
                r.out
            );
        }
        assert!(
            files(&dir) == files(&reference),
            "a resumed rule group differs"
        );
    }
}
