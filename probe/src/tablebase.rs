//! A directory of tables and the probe API: value, distance and best move of any
//! position the tables cover.
//!
//! Tables live in `<dir>/<variant>/<slice>.dkt`. A table is opened on first use.
//! A position whose side to move must capture is resolved by a search over its
//! captures, whose successors lie in smaller slices, so the answer never depends on
//! what a table stores for a capture position.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use damka_formats::table::file_name;
use damka_formats::{Color, Position, Slice, SliceIndexer, Value, Variant, Wdl};

use crate::error::ProbeError;
use crate::movegen::{generate, has_capture};
use crate::moves::{apply, Move};
use crate::table::Table;

/// One opened table with the index of its slice.
#[derive(Debug)]
pub struct SliceTable<V: Variant> {
    indexer: SliceIndexer<V>,
    table: Table,
}

impl<V: Variant> SliceTable<V> {
    /// The stored value of a White-to-move position of this slice.
    #[inline]
    pub fn value(&self, pos: &Position<V>) -> Value {
        self.table.get(self.indexer.index(pos))
    }

    /// The slice's index.
    pub fn indexer(&self) -> &SliceIndexer<V> {
        &self.indexer
    }

    /// The table file.
    pub fn table(&self) -> &Table {
        &self.table
    }
}

/// A set of tables of variant `V` in one directory. `Send + Sync`: share it
/// between threads behind an `Arc` or a reference.
#[derive(Debug)]
pub struct Tablebase<V: Variant> {
    dir: PathBuf,
    tables: RwLock<HashMap<Slice, Arc<SliceTable<V>>>>,
}

impl<V: Variant> Tablebase<V> {
    /// Uses the tables under `root/<variant>/`. Nothing is opened yet.
    pub fn new(root: &Path) -> Tablebase<V> {
        Tablebase {
            dir: Self::variant_dir(root),
            tables: RwLock::new(HashMap::new()),
        }
    }

    /// The directory holding this variant's tables under `root`.
    pub fn variant_dir(root: &Path) -> PathBuf {
        root.join(V::KIND.name())
    }

    /// The directory this tablebase reads.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The table of `slice`, opening it on first use.
    pub fn slice_table(&self, slice: Slice) -> Result<Arc<SliceTable<V>>, ProbeError> {
        if let Some(table) = self.tables.read().expect("table map poisoned").get(&slice) {
            return Ok(Arc::clone(table));
        }
        let path = self.dir.join(file_name(slice));
        let table = Table::open(&path, V::KIND, slice)?;
        let indexer = SliceIndexer::new(slice).map_err(|e| ProbeError::CorruptTable {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        if indexer.size() != table.entries() {
            return Err(ProbeError::CorruptTable {
                path,
                reason: format!(
                    "{} entries, the slice has {} positions",
                    table.entries(),
                    indexer.size()
                ),
            });
        }
        let entry = Arc::new(SliceTable { indexer, table });
        let mut map = self.tables.write().expect("table map poisoned");
        Ok(Arc::clone(map.entry(slice).or_insert(entry)))
    }

    /// The value a table stores for `pos`, either side to move. The side to move
    /// must have pieces and so must the other side.
    pub fn stored_value(&self, pos: &Position<V>) -> Result<Value, ProbeError> {
        let pos = if pos.side() == Color::White {
            *pos
        } else {
            pos.flipped()
        };
        let slice = Slice::of(&pos).map_err(|e| ProbeError::InvalidPosition(e.to_string()))?;
        Ok(self.slice_table(slice)?.value(&pos))
    }

    /// The value of `pos` for its side to move: WDL and DTW, with no move limits.
    pub fn probe_value(&self, pos: &Position<V>) -> Result<Value, ProbeError> {
        if pos.pieces(pos.side()) == 0 {
            return Ok(Value::LOST);
        }
        if pos.pieces(pos.side().opposite()) == 0 {
            return Err(ProbeError::InvalidPosition(format!(
                "{} has no pieces but {} is to move",
                pos.side().opposite(),
                pos.side()
            )));
        }
        if has_capture(pos) {
            let mut moves = Vec::new();
            generate(pos, &mut moves);
            return Ok(self.best(pos, &moves)?.map_or(Value::LOST, |(_, v)| v));
        }
        self.stored_value(pos)
    }

    /// Win, draw or loss for the side to move.
    pub fn probe_wdl(&self, pos: &Position<V>) -> Result<Wdl, ProbeError> {
        Ok(self.probe_value(pos)?.wdl())
    }

    /// The distance to win in plies, or `None` for a draw.
    pub fn probe_dtw(&self, pos: &Position<V>) -> Result<Option<u16>, ProbeError> {
        Ok(self.probe_value(pos)?.dtw())
    }

    /// A best move: the shortest win, else a drawing move, else the longest loss.
    /// `None` when the side to move has no legal move.
    pub fn best_move(&self, pos: &Position<V>) -> Result<Option<Move>, ProbeError> {
        let mut moves = Vec::new();
        generate(pos, &mut moves);
        Ok(self.best(pos, &moves)?.map(|(mv, _)| mv))
    }

    /// The line of best moves from `pos` to the end of the game; for a draw, at most
    /// `draw_plies` moves of it.
    pub fn principal_variation(
        &self,
        pos: &Position<V>,
        draw_plies: usize,
    ) -> Result<Vec<Move>, ProbeError> {
        let limit = match self.probe_value(pos)?.dtw() {
            Some(dtw) => dtw as usize,
            None => draw_plies,
        };
        let mut line = Vec::new();
        let mut current = *pos;
        while line.len() < limit {
            let Some(mv) = self.best_move(&current)? else {
                break;
            };
            current = apply(&current, &mv);
            line.push(mv);
        }
        Ok(line)
    }

    /// The best of `moves` with the value it gives the side to move.
    fn best(&self, pos: &Position<V>, moves: &[Move]) -> Result<Option<(Move, Value)>, ProbeError> {
        let mut best: Option<(Move, Value)> = None;
        for mv in moves {
            let value = self.probe_value(&apply(pos, mv))?.back();
            if best.is_none_or(|(_, b)| value.better_than(b)) {
                best = Some((*mv, value));
            }
        }
        Ok(best)
    }
}
