//! The probe library under damage and under load:
//!
//! - every byte of a table flipped in turn, every truncation, swapped headers and
//!   swapped files: each probe then returns an error or the right answer, never a
//!   panic or a wrong value, and every kind of damage is seen by some probe;
//! - many threads probing random positions through one small, thrashing cache get
//!   exactly the answers of one thread.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use damka_core::{build_order, Position, Russian, Slice, SliceIndexer};
use damka_formats::{table::table_file_name, table::ValueKind, table::HEADER_LEN};
use damka_formats::{Value, Wdl};
use damka_gen::verify::verify;
use damka_gen::{build, BuildOptions};
use damka_probe::{ProbeError, Tablebase};
use tempfile::TempDir;

/// A fresh temporary directory with the Russian tables of up to `pieces` pieces.
fn built(tag: &str, pieces: u32) -> TempDir {
    let prefix = format!("damka-robust-{tag}-");
    let dir = tempfile::Builder::new().prefix(&prefix).tempdir().unwrap();
    let options = BuildOptions {
        root: dir.path().to_path_buf(),
        max_pieces: pieces,
        only: None,
        with_dependencies: false,
        memory: None,
        progress: None,
    };
    build::<Russian>(&options, &mut |_| {}).unwrap();
    dir
}

fn wdl_path(dir: &Path, slice: Slice) -> PathBuf {
    dir.join("russian")
        .join(table_file_name(slice, ValueKind::Wdl))
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `count` random positions of the given slices, either side to move.
fn random_positions(slices: &[Slice], count: usize, seed: u64) -> Vec<Position<Russian>> {
    let indexers: Vec<SliceIndexer<Russian>> = slices
        .iter()
        .map(|&s| SliceIndexer::new(s).unwrap())
        .collect();
    let mut rng = Rng(seed);
    (0..count)
        .map(|_| {
            let indexer = &indexers[rng.below(indexers.len() as u64) as usize];
            let pos = indexer.position(rng.below(indexer.size()));
            if rng.below(2) == 0 {
                pos
            } else {
                pos.flipped()
            }
        })
        .collect()
}

/// Both probes of every position: WDL from the WDL tables, value from the DTW
/// tables.
type Answers = Vec<(Result<Wdl, String>, Result<Value, String>)>;

fn answers(tb: &Tablebase<Russian>, positions: &[Position<Russian>]) -> Answers {
    positions
        .iter()
        .map(|p| {
            (
                tb.probe_wdl(p).map_err(|e| e.to_string()),
                tb.probe_value(p).map_err(|e| e.to_string()),
            )
        })
        .collect()
}

/// Probes every position with a fresh tablebase (so nothing damaged is cached
/// from before) and checks each answer against the undamaged `reference`: an
/// error, or the same value. Returns the number of errors.
fn probe_damaged(dir: &Path, positions: &[Position<Russian>], reference: &Answers) -> usize {
    let tb = Tablebase::<Russian>::with_cache_bytes(dir, 1 << 20);
    let mut errors = 0;
    for (pos, (wdl, value)) in positions.iter().zip(reference) {
        match tb.probe_wdl(pos) {
            Ok(got) => assert_eq!(Ok(got), *wdl, "WDL of {pos} after damage"),
            Err(_) => errors += 1,
        }
        match tb.probe_value(pos) {
            Ok(got) => assert_eq!(Ok(got), *value, "value of {pos} after damage"),
            Err(_) => errors += 1,
        }
    }
    errors
}

#[test]
fn damaged_tables_give_errors_never_wrong_values() {
    let tmp = built("damage", 3);
    let dir = tmp.path().to_path_buf();
    let slice: Slice = "1M1K-1M0K".parse().unwrap();
    // Random positions of the damaged slice, either side to move, and of every
    // slice (some capture into it).
    let mut positions = random_positions(&[slice], 500, 0xD1CE);
    positions.extend(random_positions(&build_order::<Russian>(3), 300, 0x5EED));
    let reference = answers(&Tablebase::new(&dir), &positions);
    assert!(reference.iter().all(|(w, v)| w.is_ok() && v.is_ok()));

    // The slice's DTW file, and the WDL file of its solve group (this slice's or
    // its mirror's: the probe reaches either).
    let wdl_slice = if wdl_path(&dir, slice).exists() {
        slice
    } else {
        slice.mirror()
    };
    for (kind, file_slice) in [(ValueKind::Wdl, wdl_slice), (ValueKind::Dtw, slice)] {
        let path = dir.join("russian").join(table_file_name(file_slice, kind));
        let original = std::fs::read(&path).unwrap();
        // A flipped byte anywhere is seen by some probe: every byte of the header
        // and of the file's end (block table, padding), every fifth in between.
        let len = original.len();
        let offsets = (0..HEADER_LEN)
            .chain((HEADER_LEN..len).step_by(5))
            .chain(len.saturating_sub(96)..len);
        for at in offsets {
            let mut bytes = original.clone();
            bytes[at] ^= 1 << (at % 8);
            std::fs::write(&path, &bytes).unwrap();
            let errors = probe_damaged(&dir, &positions, &reference);
            assert!(errors > 0, "{kind:?}: flipping byte {at} went unnoticed");
        }
        // Every truncation makes every probe that reads the file fail.
        for len in (0..original.len()).step_by(11) {
            std::fs::write(&path, &original[..len]).unwrap();
            let errors = probe_damaged(&dir, &positions, &reference);
            assert!(errors > 0, "{kind:?}: truncation to {len} went unnoticed");
        }
        // An empty file and a file of garbage.
        for bytes in [Vec::new(), vec![0xA5; original.len()]] {
            std::fs::write(&path, &bytes).unwrap();
            assert!(probe_damaged(&dir, &positions, &reference) > 0);
        }
        std::fs::write(&path, &original).unwrap();
    }

    // Swapped headers: the WDL and DTW files of one slice, and the DTW files of
    // two slices.
    let pairs = [
        (
            table_file_name(wdl_slice, ValueKind::Wdl),
            table_file_name(wdl_slice, ValueKind::Dtw),
        ),
        (
            table_file_name(slice, ValueKind::Dtw),
            table_file_name(slice.mirror(), ValueKind::Dtw),
        ),
    ];
    for (a, b) in &pairs {
        let (pa, pb) = (dir.join("russian").join(a), dir.join("russian").join(b));
        let (oa, ob) = (std::fs::read(&pa).unwrap(), std::fs::read(&pb).unwrap());
        let mut na = oa.clone();
        let mut nb = ob.clone();
        na[..HEADER_LEN].copy_from_slice(&ob[..HEADER_LEN]);
        nb[..HEADER_LEN].copy_from_slice(&oa[..HEADER_LEN]);
        std::fs::write(&pa, &na).unwrap();
        std::fs::write(&pb, &nb).unwrap();
        assert!(probe_damaged(&dir, &positions, &reference) > 0, "{a} / {b}");
        // Whole files swapped: the header names the wrong slice or kind.
        std::fs::write(&pa, &ob).unwrap();
        std::fs::write(&pb, &oa).unwrap();
        assert!(
            probe_damaged(&dir, &positions, &reference) > 0,
            "{a} <-> {b}"
        );
        std::fs::write(&pa, &oa).unwrap();
        std::fs::write(&pb, &ob).unwrap();
    }
    assert_eq!(probe_damaged(&dir, &positions, &reference), 0);
}

#[test]
fn threads_get_the_answers_of_one_thread() {
    let tmp = built("threads", 4);
    let dir = tmp.path().to_path_buf();
    let slices = build_order::<Russian>(4);
    let positions = random_positions(&slices, 20_000, 0xC0FFEE);
    let reference = answers(&Tablebase::new(&dir), &positions);
    assert!(reference.iter().all(|(w, v)| w.is_ok() && v.is_ok()));
    // A cache far smaller than the tables, so threads evict each other's blocks.
    let shared = Arc::new(Tablebase::<Russian>::with_cache_bytes(&dir, 256 << 10));
    let positions = Arc::new(positions);
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let (tb, positions) = (Arc::clone(&shared), Arc::clone(&positions));
            std::thread::spawn(move || {
                // Each thread walks the positions from its own starting point.
                let n = positions.len();
                let order: Vec<usize> = (0..n).map(|i| (i + t * n / 4) % n).collect();
                let mut got = vec![None; n];
                for round in 0..2 {
                    for &i in &order {
                        let answer = (
                            tb.probe_wdl(positions[i]).map_err(|e| e.to_string()),
                            tb.probe_value(positions[i]).map_err(|e| e.to_string()),
                        );
                        if round == 1 {
                            assert_eq!(got[i].as_ref(), Some(&answer));
                        }
                        got[i] = Some(answer);
                    }
                }
                got.into_iter().map(Option::unwrap).collect::<Answers>()
            })
        })
        .collect();
    for thread in threads {
        assert_eq!(thread.join().unwrap(), reference);
    }
    assert!(shared.cache().bytes() <= shared.cache().budget());
}

#[test]
fn a_group_without_a_wdl_file_is_a_missing_table() {
    // As a directory looks while `damka gen` is writing a group: both DTW files
    // there, neither WDL file yet. Each side of the group would look to the
    // other for its WDL values; the probe must say the table is missing (it
    // once asked back and forth until the stack overflowed).
    let tmp = built("no-wdl", 3);
    let dir = tmp.path().to_path_buf();
    let slice: Slice = "1M1K-1M0K".parse().unwrap();
    for side in [slice, slice.mirror()] {
        let _ = std::fs::remove_file(wdl_path(&dir, side));
    }
    let tb = Tablebase::<Russian>::new(&dir);
    let positions = random_positions(&[slice, slice.mirror()], 200, 0xBAD);
    let mut missing = 0;
    for pos in &positions {
        assert!(
            tb.probe_value(pos).is_ok(),
            "the DTW files are there: {pos}"
        );
        match tb.probe_wdl(pos) {
            Err(ProbeError::MissingTable { .. }) => missing += 1,
            Err(other) => panic!("{pos}: {other}"),
            Ok(_) => {}
        }
    }
    assert!(missing > 0, "positions without a capture need the WDL file");
    let verified = verify::<Russian>(&dir, Some(slice), None, None);
    assert!(
        verified.is_err(),
        "verifying the group names the missing file"
    );
}

#[test]
fn an_exact_set_missing_one_dtw_file_is_a_missing_table() {
    // Only a compact set (`damka compact`) keeps one DTW file per pair; an exact
    // set without one of them is damaged, and the probe says which file is
    // missing rather than searching into the mirror's.
    let tmp = built("no-dtw", 3);
    let dir = tmp.path().to_path_buf();
    let slice: Slice = "1M1K-1M0K".parse().unwrap();
    std::fs::remove_file(
        dir.join("russian")
            .join(table_file_name(slice, ValueKind::Dtw)),
    )
    .unwrap();
    let tb = Tablebase::<Russian>::new(&dir);
    let positions = random_positions(&[slice, slice.mirror()], 200, 0xD7);
    let (mut missing, mut mirror) = (0, 0);
    for pos in &positions {
        let white_side = damka_core::white_to_move(pos).material() == slice.material();
        match tb.probe_value(pos) {
            Err(ProbeError::MissingTable { slice: name, path }) => {
                assert_eq!(name, slice.name());
                assert!(path.ends_with(table_file_name(slice, ValueKind::Dtw)));
                missing += 1;
            }
            Err(other) => panic!("{pos}: {other}"),
            Ok(_) => mirror += usize::from(!white_side),
        }
    }
    assert!(missing > 0, "positions of the slice without its file");
    assert!(mirror > 0, "positions of the mirror, whose file is there");
}
