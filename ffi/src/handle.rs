//! The handle C holds: the tables of one variant, chosen at run time, and the
//! rule tablebases opened for it so far.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use damka_probe::limits::{RuleSet, RuleTablebase};
use damka_probe::{International, ProbeError, Russian, Tablebase, Variant};

use crate::error::{Failure, DAMKA_ERR_BAD_ARGUMENT};

/// An open directory of tables (`damka_tb` in C): create it with `damka_open`,
/// free it with `damka_close`. Opaque to C.
#[allow(non_camel_case_types)]
pub struct damka_tb {
    /// The tables, of the variant given to `damka_open`.
    pub(crate) tables: AnyTables,
}

/// The tables of the variant chosen at run time.
pub(crate) enum AnyTables {
    /// Russian draughts.
    Russian(Tables<Russian>),
    /// International draughts.
    International(Tables<International>),
}

/// Runs `$body` with `$tables` bound to the handle's [`Tables`], whatever its
/// variant: the body is compiled once per variant.
macro_rules! with_tables {
    ($handle:expr, $tables:ident => $body:expr) => {
        match &$handle.tables {
            $crate::handle::AnyTables::Russian($tables) => $body,
            $crate::handle::AnyTables::International($tables) => $body,
        }
    };
}
pub(crate) use with_tables;

/// The rule tablebases opened so far, by the rule-set text that named them.
type RuleCache<V> = Mutex<Vec<(String, Arc<RuleTablebase<V>>)>>;

/// The tables of variant `V` under one root directory.
pub(crate) struct Tables<V: Variant> {
    /// The root given to `damka_open` (it holds `<variant>/`).
    root: PathBuf,
    /// The game-theoretic tables.
    pub tablebase: Tablebase<V>,
    /// Each rule set's tablebase, opened on first use and kept, so that its block
    /// cache stays warm between calls.
    rules: RuleCache<V>,
}

impl<V: Variant> Tables<V> {
    /// Opens the tables under `root/<variant>/`.
    pub fn open(root: &Path) -> Result<Tables<V>, ProbeError> {
        Ok(Tables {
            root: root.to_path_buf(),
            tablebase: Tablebase::open(root)?,
            rules: Mutex::new(Vec::new()),
        })
    }

    /// The tablebase of the rule set `spec` (a preset name or a TOML file),
    /// opening it on first use.
    pub fn rules(&self, spec: &str) -> Result<Arc<RuleTablebase<V>>, Failure> {
        let mut opened = self.rules.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, rules)) = opened.iter().find(|(name, _)| name == spec) {
            return Ok(Arc::clone(rules));
        }
        let set = RuleSet::load_for(spec, V::KIND)?;
        let rules = Arc::new(RuleTablebase::open(&self.root, set)?);
        opened.push((spec.to_string(), Arc::clone(&rules)));
        Ok(rules)
    }
}

/// The handle behind `tb`.
///
/// # Safety
///
/// `tb` must be NULL or a handle from `damka_open` not yet closed.
pub(crate) unsafe fn handle<'a>(tb: *const damka_tb) -> Result<&'a damka_tb, Failure> {
    // SAFETY: a live handle by the caller's contract, or NULL.
    unsafe { tb.as_ref() }.ok_or_else(|| Failure::new(DAMKA_ERR_BAD_ARGUMENT, "tb is NULL"))
}
