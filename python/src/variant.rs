//! The variant, chosen at run time: the tables of either variant behind one type.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use damka_probe::limits::{RuleSet, RuleTablebase};
use damka_probe::{International, ProbeError, Russian, Tablebase, Variant, VariantKind};
use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

use crate::errors::rules_error;

/// Reads a variant name (`russian`, `international`).
pub fn parse_variant(name: &str) -> PyResult<VariantKind> {
    name.parse().map_err(PyValueError::new_err)
}

/// The tables of the variant chosen at run time.
pub enum AnyTables {
    /// Russian draughts.
    Russian(Tables<Russian>),
    /// International draughts.
    International(Tables<International>),
}

/// Runs `$body` with `$tables` bound to the [`Tables`] of `$any`, whatever its
/// variant: the body is compiled once per variant.
macro_rules! with_tables {
    ($any:expr, $tables:ident => $body:expr) => {
        match $any {
            $crate::variant::AnyTables::Russian($tables) => $body,
            $crate::variant::AnyTables::International($tables) => $body,
        }
    };
}
pub(crate) use with_tables;

/// Runs `$body` with the type `$v` naming the variant `$kind`.
macro_rules! with_variant {
    ($kind:expr, $v:ident => $body:expr) => {
        match $kind {
            damka_probe::VariantKind::Russian => {
                type $v = damka_probe::Russian;
                $body
            }
            damka_probe::VariantKind::International => {
                type $v = damka_probe::International;
                $body
            }
        }
    };
}
pub(crate) use with_variant;

impl AnyTables {
    /// Opens the tables of `kind` under `root/<variant>/`.
    pub fn open(root: &Path, kind: VariantKind) -> Result<AnyTables, ProbeError> {
        Ok(match kind {
            VariantKind::Russian => AnyTables::Russian(Tables::open(root)?),
            VariantKind::International => AnyTables::International(Tables::open(root)?),
        })
    }
}

/// The rule tablebases opened so far, by the rule-set text that named them.
type RuleCache<V> = Mutex<Vec<(String, Arc<RuleTablebase<V>>)>>;

/// The tables of variant `V` under one root directory.
pub struct Tables<V: Variant> {
    /// The root directory (it holds `<variant>/`).
    pub root: PathBuf,
    /// The game-theoretic tables.
    pub tablebase: Tablebase<V>,
    /// Each rule set's tablebase, opened on first use and kept.
    rules: RuleCache<V>,
}

impl<V: Variant> Tables<V> {
    /// Opens the tables under `root/<variant>/`.
    fn open(root: &Path) -> Result<Tables<V>, ProbeError> {
        Ok(Tables {
            root: root.to_path_buf(),
            tablebase: Tablebase::open(root)?,
            rules: Mutex::new(Vec::new()),
        })
    }

    /// The tablebase of the rule set `spec` (a preset name or a TOML file),
    /// opening it on first use.
    pub fn rules(&self, spec: &str) -> PyResult<Arc<RuleTablebase<V>>> {
        let mut opened = self.rules.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, rules)) = opened.iter().find(|(name, _)| name == spec) {
            return Ok(Arc::clone(rules));
        }
        let set = RuleSet::load_for(spec, V::KIND).map_err(rules_error)?;
        let rules = RuleTablebase::open(&self.root, set).map_err(crate::errors::probe_error)?;
        let rules = Arc::new(rules);
        opened.push((spec.to_string(), Arc::clone(&rules)));
        Ok(rules)
    }
}
