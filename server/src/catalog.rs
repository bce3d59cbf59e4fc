//! The tables a server answers from: for each variant whose tables are in the
//! directory, its game-theoretic tables and one rule tablebase per preset rule
//! set written for it. Opened once at start; read-only from then on.
//!
//! Requests name a rule set by preset name only ([`RuleSet::preset`]), never by
//! a path, so no request parameter reaches the file system.

use std::path::Path;

use damka_core::{International, Russian, VariantKind};
use damka_formats::table::{rule_table_file_name, ValueKind};
use damka_probe::limits::presets::NAMES;
use damka_probe::limits::{RuleSet, RuleTablebase, RulesError};
use damka_probe::{ProbeError, Tablebase, Variant};
use serde::Serialize;

use crate::error::{ApiError, ServeError};

/// The tables of one variant.
pub struct VariantTables<V: Variant> {
    /// The game-theoretic tables.
    pub tablebase: Tablebase<V>,
    /// One rule tablebase per preset written for the variant, in preset order.
    rules: Vec<RuleTablebase<V>>,
    /// What the directory held when it was opened.
    summary: VariantSummary,
}

/// What one variant's tables cover: the answer of `/api/health` for it.
#[derive(Debug, Clone, Serialize)]
pub struct VariantSummary {
    /// `russian` or `international`.
    pub variant: VariantKind,
    /// The most pieces of any table present.
    pub max_pieces: u32,
    /// The piece counts with at least one table present, smallest first.
    pub pieces: Vec<u32>,
    /// The slices present.
    pub slices: usize,
    /// The preset rule sets written for the variant, with their rule tables.
    pub rule_sets: Vec<RuleSetSummary>,
}

/// A preset rule set and how many of its rule tables are present.
#[derive(Debug, Clone, Serialize)]
pub struct RuleSetSummary {
    /// The preset's name.
    pub name: String,
    /// What the set is.
    pub description: String,
    /// The slices with an RWDL table of the set.
    pub slices: usize,
    /// The most pieces of a slice with an RWDL table of the set (0 if none).
    pub max_pieces: u32,
}

impl<V: Variant> VariantTables<V> {
    /// Opens the variant's tables under `root`; `None` when there are none.
    pub fn open(root: &Path) -> Result<Option<VariantTables<V>>, ProbeError> {
        let tablebase = match Tablebase::<V>::open(root) {
            Ok(tablebase) => tablebase,
            Err(ProbeError::NoTables { .. }) => return Ok(None),
            Err(other) => return Err(other),
        };
        let mut rules = Vec::new();
        let mut rule_sets = Vec::new();
        for set in NAMES.iter().filter_map(|name| RuleSet::preset(name).ok()) {
            if set.check_variant(V::KIND).is_err() {
                continue;
            }
            let with_tables: Vec<u32> = tablebase
                .slices()
                .iter()
                .filter(|slice| {
                    let name = rule_table_file_name(**slice, &set.name, ValueKind::RuleWdl);
                    tablebase.dir().join(name).is_file()
                })
                .map(|slice| slice.pieces())
                .collect();
            rule_sets.push(RuleSetSummary {
                name: set.name.clone(),
                description: set.description.clone(),
                slices: with_tables.len(),
                max_pieces: with_tables.iter().copied().max().unwrap_or(0),
            });
            rules.push(RuleTablebase::open(root, set)?);
        }
        let mut pieces: Vec<u32> = tablebase.slices().iter().map(|s| s.pieces()).collect();
        pieces.dedup();
        let summary = VariantSummary {
            variant: V::KIND,
            max_pieces: tablebase.max_pieces(),
            pieces,
            slices: tablebase.slices().len(),
            rule_sets,
        };
        Ok(Some(VariantTables {
            tablebase,
            rules,
            summary,
        }))
    }

    /// The rule tablebase of the preset called `name`; a name that is no preset,
    /// or a preset for the other variant, is a 400 saying which.
    pub fn rules(&self, name: &str) -> Result<&RuleTablebase<V>, ApiError> {
        if let Some(found) = self.rules.iter().find(|r| r.set().name == name) {
            return Ok(found);
        }
        // Every preset written for the variant is open, so the name is either no
        // preset or one for the other variant.
        let refusal = RuleSet::preset(name).and_then(|set| set.check_variant(V::KIND));
        Err(ApiError::from(refusal.err().unwrap_or_else(|| {
            RulesError::UnknownPreset(name.to_string())
        })))
    }

    /// What the tables cover.
    pub fn summary(&self) -> &VariantSummary {
        &self.summary
    }
}

/// The tables of both variants, as far as the directory holds them.
pub struct Catalog {
    /// The Russian tables, if any.
    pub russian: Option<VariantTables<Russian>>,
    /// The International tables, if any.
    pub international: Option<VariantTables<International>>,
}

impl Catalog {
    /// Opens the tables under `root` (`root/russian/`, `root/international/`);
    /// fails when neither variant has a table there.
    pub fn open(root: &Path) -> Result<Catalog, ServeError> {
        let catalog = Catalog {
            russian: VariantTables::open(root)?,
            international: VariantTables::open(root)?,
        };
        if catalog.russian.is_none() && catalog.international.is_none() {
            return Err(ServeError::NoTables(root.to_path_buf()));
        }
        Ok(catalog)
    }

    /// What each variant's tables cover, Russian first.
    pub fn summaries(&self) -> Vec<&VariantSummary> {
        let russian = self.russian.as_ref().map(|t| t.summary());
        let international = self.international.as_ref().map(|t| t.summary());
        russian.into_iter().chain(international).collect()
    }
}

/// The tables of `variant`, or a 404 naming it.
pub fn require<V: Variant>(
    tables: Option<&VariantTables<V>>,
) -> Result<&VariantTables<V>, ApiError> {
    tables.ok_or_else(|| {
        ApiError::new(
            axum::http::StatusCode::NOT_FOUND,
            "no_tables",
            format!("this server has no {} tables", V::KIND),
        )
    })
}
