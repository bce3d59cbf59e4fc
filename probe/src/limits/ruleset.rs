//! [`RuleSet`]: a named list of counters, with its validation, its fingerprint
//! and how it counts a move ([`RuleSet::advance`], [`RuleSet::limit_reached`]).
//! Loading and writing sets (presets, TOML files) is in `load.rs`, above the
//! presets.

use std::collections::BTreeSet;

use damka_core::{Position, Variant, VariantKind};
use serde::{Deserialize, Serialize};

use super::counter::Counter;
use super::counters::{Counters, CountersError};
use super::events::Events;
use super::fingerprint::canonical_bytes;
use super::limit::Limit;
use super::material_class::MaterialClass;
use damka_core::moves::{apply, Move};

/// A set of move-limit draw rules: a name, the variant it is written for, and its
/// counters. Built-in sets come from the `presets` module; others are read from TOML.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSet {
    /// The set's name (`russian`): 1 to 32 ASCII letters, digits, `-` and `_`,
    /// starting with a letter or a digit, because it is part of the file names of
    /// the set's rule tables.
    pub name: String,
    /// One sentence saying where the set comes from.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The variant the set is written for; `None` for a set that fits both (such as
    /// `none`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<VariantKind>,
    /// Choices that concern the whole set (rules of the sources left out, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The counters, in the order they are shown (TOML: one `[[counter]]` table
    /// each).
    #[serde(default, rename = "counter", skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<Counter>,
}

/// The most counters a rule set may have (the rule probe keeps a state's counts
/// in a fixed array).
pub const MAX_COUNTERS: usize = 8;

/// The counts of a set's counters in one position, in plies, by counter number in
/// the set: a plain array, so a search step allocates nothing.
pub type Counts = [u32; MAX_COUNTERS];

/// Why a rule set is not usable, whatever its source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValidationError {
    /// The name is empty.
    #[error("the rule set has no name")]
    NoName,
    /// A name that is not a short identifier: it becomes part of table file names.
    #[error(
        "rule set name `{0}` is not 1 to 32 ASCII letters, digits, `-` and `_` starting \
         with a letter or a digit (the name becomes part of table file names)"
    )]
    BadName(String),
    /// More counters than [`MAX_COUNTERS`].
    #[error("the rule set has {0} counters; at most 8 are supported")]
    TooManyCounters(usize),
    /// An id with characters other than letters, digits, `-` and `_`, or empty.
    #[error("counter id `{0}` is not a word of letters, digits, `-` and `_`")]
    BadId(String),
    /// Two counters share an id.
    #[error("counter id `{0}` appears twice")]
    DuplicateId(String),
    /// A `versus` class with an empty `strong` list.
    #[error("counter {0}: class `versus` needs at least one pattern in `strong`")]
    NoStrongSide(String),
    /// A limit of zero moves.
    #[error("counter {0}: a limit must be at least 1 move")]
    ZeroLimit(String),
    /// A band list with no band.
    #[error("counter {0}: `limit_moves` is an empty list of bands")]
    NoBands(String),
    /// Two bands that cover the same piece count.
    #[error("counter {id}: two bands of `limit_moves` both cover {pieces} pieces")]
    OverlappingBands {
        /// The counter.
        id: String,
        /// The smallest piece count both cover.
        pieces: u32,
    },
}

/// The longest name a rule set may have, in characters.
const MAX_NAME_LEN: usize = 32;

/// Whether `name` is a short identifier: 1 to [`MAX_NAME_LEN`] ASCII letters,
/// digits, `-` and `_`, starting with a letter or a digit. The name becomes part
/// of table file names, so it must not hold a path separator or a `..`.
fn is_identifier(name: &str) -> bool {
    let bytes = name.as_bytes();
    (1..=MAX_NAME_LEN).contains(&bytes.len())
        && bytes[0].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl RuleSet {
    /// Checks what the types cannot: a name that can be part of a file name,
    /// well-formed unique ids, a strong side in every `versus` class, limits of at
    /// least one move, bands that exist and do not overlap.
    pub fn validate(&self) -> Result<(), ValidationError> {
        if self.name.trim().is_empty() {
            return Err(ValidationError::NoName);
        }
        if !is_identifier(&self.name) {
            return Err(ValidationError::BadName(self.name.clone()));
        }
        if self.counters.len() > MAX_COUNTERS {
            return Err(ValidationError::TooManyCounters(self.counters.len()));
        }
        let mut seen = BTreeSet::new();
        for counter in &self.counters {
            let id = &counter.id;
            let well_formed = !id.is_empty()
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if !well_formed {
                return Err(ValidationError::BadId(id.clone()));
            }
            if !seen.insert(id.as_str()) {
                return Err(ValidationError::DuplicateId(id.clone()));
            }
            if let MaterialClass::Versus { strong, .. } = &counter.applies {
                if strong.is_empty() {
                    return Err(ValidationError::NoStrongSide(id.clone()));
                }
            }
            match &counter.limit {
                Limit::Moves(0) => return Err(ValidationError::ZeroLimit(id.clone())),
                Limit::Moves(_) => {}
                Limit::ByPieces(bands) => {
                    if bands.is_empty() {
                        return Err(ValidationError::NoBands(id.clone()));
                    }
                    if bands.iter().any(|band| band.moves == 0) {
                        return Err(ValidationError::ZeroLimit(id.clone()));
                    }
                    for (i, a) in bands.iter().enumerate() {
                        if let Some(b) = bands[i + 1..].iter().find(|b| a.pieces.overlaps(b.pieces))
                        {
                            return Err(ValidationError::OverlappingBands {
                                id: id.clone(),
                                pieces: a.pieces.min().max(b.pieces.min()),
                            });
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// A fingerprint of what decides the values of the set's rule tables, which
    /// rule tables record so that a table built under another set is never read.
    ///
    /// It is XXH3-64 of the set's canonical bytes (see `fingerprint.rs`): every
    /// counter's material class, position condition, reset events, limit and
    /// `draws` flag, in the set's order. The name (already part of every table's
    /// file name), the variant binding, the counters' ids and every description
    /// and note are left out, so editing a note or renaming a counter keeps the
    /// tables. Never 0 (which marks a table built under no rule set).
    pub fn fingerprint(&self) -> u64 {
        // Every field named, so that a field added later is decided on here.
        let RuleSet {
            name: _,
            description: _,
            variant: _,
            notes: _,
            counters,
        } = self;
        damka_formats::table::hash(&canonical_bytes(counters)).max(1)
    }

    /// The counter called `id`.
    pub fn counter(&self, id: &str) -> Option<&Counter> {
        self.counters.iter().find(|c| c.id == id)
    }

    /// The counters in force in `pos`, in the set's order.
    pub fn in_force<'a, V: Variant>(
        &'a self,
        pos: &'a Position<V>,
    ) -> impl Iterator<Item = &'a Counter> + 'a {
        self.counters.iter().filter(move |c| c.applies_at(pos))
    }

    /// `played` by counter number in the set, for the counters in force in `pos`
    /// (every other count is 0).
    #[doc(hidden)]
    pub fn counts<V: Variant>(&self, played: &Counters, pos: &Position<V>) -> Counts {
        let mut counts = [0; MAX_COUNTERS];
        for (i, counter) in self.counters.iter().enumerate() {
            if counter.applies_at(pos) {
                counts[i] = played.plies(&counter.id);
            }
        }
        counts
    }

    /// The counts after `mv`, a legal move from `pos` to `after`, given the counts
    /// in `pos`: a counter in force before and after the move, that the move does
    /// not reset, gains one ply; every other counter is 0. The one counting step
    /// of the crate: [`RuleSet::advance`] and the rule search both use it.
    #[doc(hidden)]
    pub fn advance_counts<V: Variant>(
        &self,
        counts: &Counts,
        pos: &Position<V>,
        mv: &Move,
        after: &Position<V>,
    ) -> Counts {
        let events = Events::of_move(pos, mv);
        let mut next = [0; MAX_COUNTERS];
        for (i, c) in self.counters.iter().enumerate() {
            if !c.resets_on(events) && c.applies_at(pos) && c.applies_at(after) {
                next[i] = counts[i].saturating_add(1);
            }
        }
        next
    }

    /// The number of the first drawing counter in force in `pos` whose count has
    /// reached its limit in plies: the game is drawn by that rule, unless the side
    /// to move has no legal move (which this does not look at).
    #[doc(hidden)]
    pub fn limit_reached_at<V: Variant>(
        &self,
        counts: &Counts,
        pos: &Position<V>,
    ) -> Option<usize> {
        let material = pos.material();
        self.counters.iter().enumerate().position(|(i, c)| {
            c.draws
                && counts[i] > 0
                && c.limit_plies(&material).is_some_and(|l| counts[i] >= l)
                && c.applies_at(pos)
        })
    }

    /// The counts after `mv`, a legal move from `pos`, is played, given the counts
    /// `played` in `pos` ([`RuleSet::advance_counts`] by counter id).
    pub fn advance<V: Variant>(&self, played: &Counters, pos: &Position<V>, mv: &Move) -> Counters {
        let after = apply(pos, mv);
        let next = self.advance_counts(&self.counts(played, pos), pos, mv, &after);
        let mut counters = Counters::new();
        for (counter, &plies) in self.counters.iter().zip(&next) {
            counters.set_plies(&counter.id, plies);
        }
        counters
    }

    /// The first drawing counter in force in `pos` whose count in `played` has
    /// reached its limit ([`RuleSet::limit_reached_at`] by counter id).
    pub fn limit_reached<V: Variant>(
        &self,
        played: &Counters,
        pos: &Position<V>,
    ) -> Option<&Counter> {
        let i = self.limit_reached_at(&self.counts(played, pos), pos)?;
        Some(&self.counters[i])
    }

    /// Reads counts such as `R1=9,R4=3.5` (moves) for this set's counters.
    pub fn parse_counters(&self, text: &str) -> Result<Counters, CountersError> {
        let ids: Vec<&str> = self.counters.iter().map(|c| c.id.as_str()).collect();
        Counters::parse_for(text, &self.name, &ids)
    }
}

impl Counters {
    /// Reads `ID=MOVES` items separated by commas (`R1=9,R4=3.5`; spaces allowed,
    /// empty text for no counts), checking every id against `rules`: the same as
    /// [`RuleSet::parse_counters`].
    pub fn parse(text: &str, rules: &RuleSet) -> Result<Counters, CountersError> {
        rules.parse_counters(text)
    }
}
