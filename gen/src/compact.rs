//! Compact DTW sets (`damka compact`, issue 18): from the exact tables that
//! `damka gen` writes, a set whose DTW files leave out what a probe finds by a
//! search (`formats/FORMAT.md`, "Compact DTW files"):
//!
//! - capture positions: their entries are don't-care, each filled with the
//!   value before it in its block (the probe searches their captures);
//! - one side of each slice pair: only the side whose file compresses smaller
//!   has one (the probe resolves the other by a one-ply search).
//!
//! Every other file (WDL, rule and MTC tables) is hard-linked into the new set,
//! or copied where a link cannot be made. The generator, verification of the
//! exact set and statistics keep reading the exact files: a compact set is for
//! probing. Each file lands atomically, and a set left half-written is finished
//! by running the command again (finished pairs are skipped).

use std::fs;
use std::path::Path;

use damka_core::{has_capture, Slice, SliceIndexer, Variant};
use damka_formats::table::{compress, encode_dtw, table_file_name, ValueKind, DTW_ZSTD_LEVEL};
use damka_probe::{SliceTable, Tablebase};
use rayon::prelude::*;

use crate::error::GenError;
use crate::progress::{send, OnProgress, Progress};
use crate::store::FileStore;
use crate::verify::tables_in;

/// What a compaction did.
#[derive(Debug, Clone, Default)]
pub struct CompactReport {
    /// Slice pairs (or slices that are their own mirror) compacted now.
    pub pairs: usize,
    /// Pairs whose compact file was there already.
    pub skipped: usize,
    /// Positions of the pairs compacted now, both sides counted.
    pub positions: u64,
    /// Bytes of their exact DTW files.
    pub exact_bytes: u64,
    /// Bytes of their compact DTW files.
    pub compact_bytes: u64,
    /// Other files linked or copied now.
    pub linked: usize,
}

/// Writes under `to` the compact set of the exact tables of variant `V` under
/// `from` (both are roots: the files are in `<root>/<variant>/`), for slices
/// of at most `max_pieces` pieces when given.
pub fn compact<V: Variant>(
    from: &Path,
    to: &Path,
    max_pieces: Option<u32>,
    progress: Option<OnProgress<'_>>,
) -> Result<CompactReport, GenError> {
    let tablebase = Tablebase::<V>::new(from);
    let source = tablebase.dir().to_path_buf();
    let target = Tablebase::<V>::variant_dir(to);
    let store = FileStore::new(&target, V::KIND)?;
    if same_directory(&source, &target) {
        return Err(GenError::Usage(format!(
            "the compact set must go to another directory than the exact one ({})",
            source.display()
        )));
    }
    let fits = |slice: &Slice| max_pieces.is_none_or(|max| slice.pieces() <= max);
    let mut report = CompactReport {
        linked: link_others(&source, &target, &fits)?,
        ..CompactReport::default()
    };
    let heads: Vec<Slice> = tables_in(&source)?
        .into_iter()
        .filter(|s| fits(s) && (s.is_self_mirror() || s.name() < s.mirror().name()))
        .collect();
    for head in heads {
        let sides: Vec<Slice> = if head.is_self_mirror() {
            vec![head]
        } else {
            vec![head, head.mirror()]
        };
        if sides
            .iter()
            .any(|&s| target.join(table_file_name(s, ValueKind::Dtw)).is_file())
        {
            report.skipped += 1;
            continue;
        }
        // The side to keep: its slice, its compressed blocks and their bytes.
        let mut best: Option<(Slice, Vec<Vec<u8>>, usize)> = None;
        for &slice in &sides {
            let table = tablebase.slice_table(slice)?;
            let positions = table.len() as u64;
            send(progress, Progress::GroupStarted { slice, positions });
            let blocks = compact_blocks(&table, &target)?;
            send(progress, Progress::Advanced { slice, positions });
            send(progress, Progress::GroupFinished { slice });
            report.positions += positions;
            report.exact_bytes += file_len(&tablebase.path(slice, ValueKind::Dtw))?;
            let bytes: usize = blocks.iter().map(Vec::len).sum();
            if best
                .as_ref()
                .is_none_or(|&(_, _, smallest)| bytes < smallest)
            {
                best = Some((slice, blocks, bytes));
            }
        }
        if let Some((slice, blocks, _)) = best {
            let entries = SliceIndexer::<V>::new(slice)?.size() as usize;
            store.write_compact_dtw(slice, entries, &blocks)?;
            report.compact_bytes += file_len(&target.join(table_file_name(slice, ValueKind::Dtw)))?;
            report.pairs += 1;
        }
    }
    Ok(report)
}

/// The compressed blocks of the compact DTW file of `table`'s slice: capture
/// positions don't-care, each taking the value before it in its block (at a
/// block's start, the block's first value that is not don't-care). `target`
/// names the directory in errors.
fn compact_blocks<V: Variant>(
    table: &SliceTable<V>,
    target: &Path,
) -> Result<Vec<Vec<u8>>, GenError> {
    let per_block = ValueKind::Dtw.block_entries() as usize;
    let blocks = table.len().div_ceil(per_block);
    (0..blocks)
        .into_par_iter()
        .map(|block| {
            let range = block * per_block..((block + 1) * per_block).min(table.len());
            let cared: Vec<Option<u16>> = range
                .map(|i| {
                    let capture = has_capture(&table.indexer().position(i as u64));
                    (!capture).then(|| table.raw_at(i))
                })
                .collect();
            let first = cared.iter().find_map(|&v| v).unwrap_or(0);
            let values: Vec<u16> = cared
                .iter()
                .scan(first, |previous, &v| {
                    *previous = v.unwrap_or(*previous);
                    Some(*previous)
                })
                .collect();
            compress(&encode_dtw(&values), DTW_ZSTD_LEVEL).map_err(|e| GenError::Write {
                path: target.to_path_buf(),
                message: format!("zstd: {e}"),
            })
        })
        .collect()
}

/// Whether the tables of variant `V` under `root` are a compact set: the DTW
/// values of its first slice come from a compact file.
pub fn is_compact_set<V: Variant>(root: &Path) -> Result<bool, GenError> {
    let tablebase = Tablebase::<V>::new(root);
    match tables_in(tablebase.dir())?.first() {
        Some(&slice) => Ok(tablebase.is_compact(slice)?),
        None => Ok(false),
    }
}

/// Fails when the tables of variant `V` under `root` are a compact set: a build
/// reads and writes exact tables only.
pub(crate) fn refuse_compact_set<V: Variant>(root: &Path) -> Result<(), GenError> {
    if is_compact_set::<V>(root)? {
        return Err(GenError::Usage(format!(
            "{} holds a compact set (`damka compact`), which leaves out capture positions \
             and one side to move; build into the directory of the exact tables",
            Tablebase::<V>::variant_dir(root).display()
        )));
    }
    Ok(())
}

/// Links (or copies) into `target` every table file of `source` that is not a
/// DTW table and whose slice `fits`, unless it is there already; returns how
/// many it added.
fn link_others(
    source: &Path,
    target: &Path,
    fits: &dyn Fn(&Slice) -> bool,
) -> Result<usize, GenError> {
    let read = |e: std::io::Error| {
        GenError::Usage(format!(
            "cannot read table directory {}: {e}",
            source.display()
        ))
    };
    let mut linked = 0;
    for entry in fs::read_dir(source).map_err(read)? {
        let name = entry.map_err(read)?.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(slice) = name.split('.').next().and_then(|s| s.parse::<Slice>().ok()) else {
            continue;
        };
        let dtw = name == table_file_name(slice, ValueKind::Dtw);
        if dtw || !name.ends_with(".dkt") || !fits(&slice) || target.join(name).exists() {
            continue;
        }
        link_or_copy(&source.join(name), &target.join(name))?;
        linked += 1;
    }
    Ok(linked)
}

/// Hard-links `from` at `to`, or copies it there through a temporary file and a
/// rename when the two are on different file systems.
fn link_or_copy(from: &Path, to: &Path) -> Result<(), GenError> {
    if fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    let temporary = to.with_extension("dkt.tmp");
    let fail = |e: std::io::Error| GenError::Write {
        path: to.to_path_buf(),
        message: e.to_string(),
    };
    fs::copy(from, &temporary).map_err(fail)?;
    fs::File::open(&temporary)
        .and_then(|f| f.sync_all())
        .map_err(fail)?;
    fs::rename(&temporary, to).map_err(fail)
}

/// The length of the file at `path`.
fn file_len(path: &Path) -> Result<u64, GenError> {
    fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| GenError::Usage(format!("cannot read {}: {e}", path.display())))
}

/// Whether `a` and `b` name the same directory (`b` exists: it was created).
fn same_directory(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
