//! Compact sets (`damka compact`, `formats/FORMAT.md` "Compact DTW files"): the
//! probe gives the exact set's answers from them, `damka verify` checks them and
//! finds a wrong entry, damage gives errors and never wrong values, and the
//! readers that need exact files (the generator, statistics) refuse them.

use crate::common;

use std::path::Path;

use common::{build_tables, damka, temp_dir};
use damka_core::{build_order, Position, Russian, Slice, SliceIndexer, VariantKind};
use damka_formats::table::{
    compress, encode_dtw, table_file_name, ValueKind, DTW_BLOCK_ENTRIES, DTW_ZSTD_LEVEL, HEADER_LEN,
};
use damka_gen::store::FileStore;
use damka_probe::{ProbeError, Tablebase};
use tempfile::TempDir;

/// `damka compact` of the Russian tables in `exact` into `compact`.
fn compact_into(exact: &Path, compact: &Path) -> common::Run {
    damka(
        &[
            "compact",
            "--variant",
            "russian",
            "--dir",
            exact.to_str().unwrap(),
            "--out",
            compact.to_str().unwrap(),
            "--quiet",
        ],
        "",
    )
}

/// The exact Russian tables of up to `pieces` pieces and their compact set.
fn compacted(tag: &str, pieces: u32) -> (TempDir, TempDir) {
    let exact = temp_dir(&format!("{tag}-exact"));
    let compact = temp_dir(&format!("{tag}-compact"));
    build_tables::<Russian>(exact.path(), pieces, &[]);
    let run = compact_into(exact.path(), compact.path());
    assert!(run.ok, "{}", run.err);
    assert!(run.out.contains("compacted"), "{}", run.out);
    (exact, compact)
}

fn dtw_path(root: &Path, slice: Slice) -> std::path::PathBuf {
    root.join("russian")
        .join(table_file_name(slice, ValueKind::Dtw))
}

/// The slice of `slice`'s pair whose DTW file the compact set keeps.
fn kept(root: &Path, slice: Slice) -> Slice {
    if dtw_path(root, slice).exists() {
        slice
    } else {
        slice.mirror()
    }
}

#[test]
fn compact_set_probes_like_the_exact_set() {
    let (exact, compact) = compacted("same", 4);
    let (mut exact_bytes, mut compact_bytes) = (0, 0);
    for slice in build_order::<Russian>(4) {
        exact_bytes += std::fs::metadata(dtw_path(exact.path(), slice))
            .unwrap()
            .len();
        let own = dtw_path(compact.path(), slice).exists();
        let mirror = dtw_path(compact.path(), slice.mirror()).exists();
        if slice.is_self_mirror() {
            assert!(own, "{slice}");
        } else {
            assert!(own != mirror, "{slice}: one DTW file per pair");
        }
        if own {
            compact_bytes += std::fs::metadata(dtw_path(compact.path(), slice))
                .unwrap()
                .len();
        }
    }
    // Of each pair the smaller side is kept: about 0.29 of the exact bytes up to
    // 4 pieces, 0.39 if the larger side were.
    assert!(
        compact_bytes * 3 < exact_bytes,
        "compact {compact_bytes} bytes, exact {exact_bytes}"
    );

    let exact = Tablebase::<Russian>::open(exact.path()).unwrap();
    let compact = Tablebase::<Russian>::open(compact.path()).unwrap();
    let mut compared = 0;
    for slice in build_order::<Russian>(4) {
        let indexer = SliceIndexer::<Russian>::new(slice).unwrap();
        for index in (0..indexer.size()).step_by(3) {
            let pos: Position<Russian> = indexer.position(index);
            let value = exact.probe_value(pos).unwrap();
            assert_eq!(compact.probe_value(pos).unwrap(), value, "{pos}");
            assert_eq!(compact.probe_wdl(pos).unwrap(), value.wdl(), "{pos}");
            if index % 5 == 0 {
                let best = exact.best_move(pos).unwrap();
                assert_eq!(compact.best_move(pos).unwrap(), best, "{pos}");
            }
            compared += 1;
        }
    }
    assert!(compared > 2_000_000, "{compared} positions compared");
}

#[test]
fn verify_checks_a_compact_set_and_finds_a_wrong_entry() {
    let (_exact, compact) = compacted("verify", 3);
    let root = compact.path().to_str().unwrap();
    let checkpoint = compact.path().join("verify.checkpoint");
    let checkpoint = checkpoint.to_str().unwrap();
    let verify = ["verify", "--variant", "russian", "--dir", root, "--quiet"];
    let verify = [&verify[..], &["--checkpoint", checkpoint]].concat();
    let run = damka(&verify, "");
    assert!(run.ok, "{}{}", run.out, run.err);
    assert!(run.out.contains(" 0 mismatches"), "{}", run.out);
    let again = damka(&verify, "");
    assert!(again.ok && again.out.contains("resumed: "), "{}", again.out);

    // Two kings against one, every entry stored as a draw: a well-formed file
    // with wrong values.
    let slice = kept(compact.path(), "0M2K-0M1K".parse().unwrap());
    let entries = SliceIndexer::<Russian>::new(slice).unwrap().size() as usize;
    let per_block = DTW_BLOCK_ENTRIES as usize;
    let blocks: Vec<Vec<u8>> = (0..entries.div_ceil(per_block))
        .map(|b| {
            let len = per_block.min(entries - b * per_block);
            compress(&encode_dtw(&vec![0; len]), DTW_ZSTD_LEVEL).unwrap()
        })
        .collect();
    let store = FileStore::new(&compact.path().join("russian"), VariantKind::Russian).unwrap();
    store.write_compact_dtw(slice, entries, &blocks).unwrap();
    let run = damka(&verify, "");
    assert!(!run.ok, "{}", run.out);
    let line = format!("mismatch {slice} dtw");
    assert!(run.out.contains(&line), "{}", run.out);
    assert!(!run.out.contains(" 0 mismatches"), "{}", run.out);
}

#[test]
fn damaged_compact_files_give_errors_never_wrong_values() {
    let (exact, compact) = compacted("damage", 3);
    let reference = Tablebase::<Russian>::open(exact.path()).unwrap();
    let slice: Slice = "1M1K-1M0K".parse().unwrap();
    let path = dtw_path(compact.path(), kept(compact.path(), slice));
    assert!(std::fs::metadata(&path).unwrap().len() > 1000);
    // Every 4th position of the side with the file, every 16th of the other.
    let stored = kept(compact.path(), slice);
    let positions: Vec<Position<Russian>> = [(stored, 4), (stored.mirror(), 16)]
        .iter()
        .flat_map(|&(s, step)| {
            let indexer = SliceIndexer::<Russian>::new(s).unwrap();
            (0..indexer.size())
                .step_by(step)
                .map(move |i| indexer.position(i))
        })
        .collect();
    let values: Vec<_> = positions
        .iter()
        .map(|&p| reference.probe_value(p).unwrap())
        .collect();
    let errors = || {
        let damaged = Tablebase::<Russian>::with_cache_bytes(compact.path(), 1 << 20);
        let mut errors = 0;
        for (pos, value) in positions.iter().zip(&values) {
            match damaged.probe_value(pos) {
                Ok(got) => assert_eq!(got, *value, "value of {pos} after damage"),
                Err(_) => errors += 1,
            }
        }
        errors
    };
    assert_eq!(errors(), 0);
    let original = std::fs::read(&path).unwrap();
    let len = original.len();
    let offsets = (0..HEADER_LEN)
        .chain((HEADER_LEN..len).step_by(23))
        .chain(len.saturating_sub(64)..len);
    for at in offsets {
        let mut bytes = original.clone();
        bytes[at] ^= 1 << (at % 8);
        std::fs::write(&path, &bytes).unwrap();
        assert!(errors() > 0, "flipping byte {at} went unnoticed");
    }
    for cut in (0..len).step_by(37) {
        std::fs::write(&path, &original[..cut]).unwrap();
        assert!(errors() > 0, "truncation to {cut} went unnoticed");
    }
    std::fs::write(&path, &original).unwrap();
    assert_eq!(errors(), 0);
}

#[test]
fn readers_of_exact_tables_refuse_a_compact_set() {
    let (_exact, compact) = compacted("refuse", 3);
    let root = compact.path().to_str().unwrap();
    let tablebase = Tablebase::<Russian>::open(compact.path()).unwrap();
    let slice = kept(compact.path(), "1M1K-1M0K".parse().unwrap());
    match tablebase.slice_table(slice) {
        Err(ProbeError::Version { reason, .. }) => assert!(reason.contains("compact"), "{reason}"),
        other => panic!("decoded a compact table whole: {other:?}"),
    }
    let gen = damka(
        &[
            "gen",
            "--variant",
            "russian",
            "--dir",
            root,
            "--pieces",
            "4",
        ],
        "",
    );
    assert!(!gen.ok);
    assert!(gen.err.contains("compact set"), "{}", gen.err);
    let stats = damka(&["stats", "--variant", "russian", "--dir", root], "");
    assert!(!stats.ok);
    assert!(stats.err.contains("compact DTW table"), "{}", stats.err);
    // The same directory twice.
    let same = damka(
        &[
            "compact",
            "--variant",
            "russian",
            "--dir",
            root,
            "--out",
            root,
        ],
        "",
    );
    assert!(!same.ok);
    assert!(same.err.contains("another directory"), "{}", same.err);
}

#[test]
fn an_interrupted_compaction_resumes_to_the_same_bytes() {
    let (exact, compact) = compacted("resume", 3);
    let files = || common::russian_files(compact.path());
    let whole = files();
    // A run killed while writing one pair: its file missing, a temporary left.
    let slice = kept(compact.path(), "1M1K-1M0K".parse().unwrap());
    let path = dtw_path(compact.path(), slice);
    std::fs::remove_file(&path).unwrap();
    std::fs::write(path.with_extension("dkt.tmp"), b"half a table").unwrap();
    let run = compact_into(exact.path(), compact.path());
    assert!(run.ok, "{}", run.err);
    assert!(run.out.starts_with("compacted 1 pairs"), "{}", run.out);
    assert_eq!(files(), whole);
}
