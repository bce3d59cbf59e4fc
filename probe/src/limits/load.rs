//! Loading and writing rule sets: a preset by name or a TOML file by path
//! ([`RuleSet::load`]), TOML text both ways, the variant check, and the errors of
//! all of these ([`RulesError`]).
//!
//! This module sits above both the rule-set types and [`presets`](super::presets),
//! so that the types never depend on the presets built from them.

use std::path::{Path, PathBuf};

use damka_core::VariantKind;

use super::presets;
use super::ruleset::{RuleSet, ValidationError};

/// Why a rule set could not be loaded or used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// Neither a preset nor a file.
    #[error(
        "unknown rule set `{0}`: expected a preset ({names}) or a path to a .toml file",
        names = presets::NAMES.join(", ")
    )]
    UnknownPreset(String),
    /// The file could not be read.
    #[error("cannot read rule set file {}: {problem}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's message.
        problem: String,
    },
    /// The text is not TOML, or not a rule set.
    #[error("malformed rule set {origin}: {problem}")]
    Parse {
        /// Where the text came from (`file docs/rules/example.toml`).
        origin: String,
        /// The TOML reader's message, with line and column.
        problem: String,
    },
    /// The set reads but breaks a rule of [`RuleSet::validate`].
    #[error("invalid rule set {origin}: {problem}")]
    Invalid {
        /// Where the set came from.
        origin: String,
        /// What is wrong.
        problem: ValidationError,
    },
    /// The set is written for another variant.
    #[error("rule set `{name}` is for {bound} draughts, not {requested}")]
    WrongVariant {
        /// The set.
        name: String,
        /// The variant it is written for.
        bound: VariantKind,
        /// The variant it was loaded for.
        requested: VariantKind,
    },
    /// The set could not be written as TOML.
    #[error("cannot write rule set `{name}` as TOML: {problem}")]
    Serialize {
        /// The set.
        name: String,
        /// The TOML writer's message.
        problem: String,
    },
}

impl RuleSet {
    /// The built-in set called `name` (see [`presets::NAMES`]).
    pub fn preset(name: &str) -> Result<RuleSet, RulesError> {
        presets::by_name(name).ok_or_else(|| RulesError::UnknownPreset(name.to_string()))
    }

    /// A preset by name, else a TOML file by path.
    ///
    /// `spec` is read as a file when it is no preset name and it names an existing
    /// file, ends in `.toml` or contains a `/`; a file called like a preset can be
    /// reached as `./russian`.
    pub fn load(spec: &str) -> Result<RuleSet, RulesError> {
        if let Some(set) = presets::by_name(spec) {
            return Ok(set);
        }
        let path = Path::new(spec);
        if path.is_file() || spec.ends_with(".toml") || spec.contains('/') {
            return RuleSet::from_toml_file(path);
        }
        Err(RulesError::UnknownPreset(spec.to_string()))
    }

    /// [`load`](Self::load), then [`check_variant`](Self::check_variant).
    pub fn load_for(spec: &str, variant: VariantKind) -> Result<RuleSet, RulesError> {
        let set = RuleSet::load(spec)?;
        set.check_variant(variant)?;
        Ok(set)
    }

    /// Reads and validates a TOML file.
    pub fn from_toml_file(path: &Path) -> Result<RuleSet, RulesError> {
        let text = std::fs::read_to_string(path).map_err(|error| RulesError::Read {
            path: path.to_path_buf(),
            problem: error.to_string(),
        })?;
        RuleSet::parse_toml(&text, &format!("file {}", path.display()))
    }

    /// Reads and validates a rule set from TOML text.
    pub fn from_toml_str(text: &str) -> Result<RuleSet, RulesError> {
        RuleSet::parse_toml(text, "text")
    }

    fn parse_toml(text: &str, origin: &str) -> Result<RuleSet, RulesError> {
        let set: RuleSet = toml::from_str(text).map_err(|error| RulesError::Parse {
            origin: origin.to_string(),
            problem: error.to_string().trim_end().to_string(),
        })?;
        set.validate().map_err(|problem| RulesError::Invalid {
            origin: origin.to_string(),
            problem,
        })?;
        Ok(set)
    }

    /// The set as TOML text, which [`from_toml_str`](Self::from_toml_str) reads back
    /// to an equal set.
    pub fn to_toml(&self) -> Result<String, RulesError> {
        toml::to_string_pretty(self).map_err(|error| RulesError::Serialize {
            name: self.name.clone(),
            problem: error.to_string(),
        })
    }

    /// Fails when the set is written for a variant other than `variant`. A set with
    /// no variant fits both.
    pub fn check_variant(&self, variant: VariantKind) -> Result<(), RulesError> {
        match self.variant {
            Some(bound) if bound != variant => Err(RulesError::WrongVariant {
                name: self.name.clone(),
                bound,
                requested: variant,
            }),
            _ => Ok(()),
        }
    }
}
