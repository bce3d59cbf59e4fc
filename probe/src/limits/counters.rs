//! How much of each counter's limit has been played.

use std::collections::BTreeMap;
use std::fmt;

/// The counts of a set's counters in one position, in plies, by counter id.
///
/// A counter that is absent has count 0, which is also the count of every counter
/// not in force. Counts are read and printed in moves: `R1=9` is 9 moves (18
/// plies), `R1=9.5` is 19 plies (the side that started the count has made one move
/// more).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counters {
    plies: BTreeMap<String, u32>,
}

/// Why a list of counts such as `R1=9,R4=3` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CountersError {
    /// An item that is not `ID=MOVES`.
    #[error("`{0}` is not of the form ID=MOVES (as in `R1=9`)")]
    Syntax(String),
    /// An id the rule set does not have.
    #[error("rule set `{set}` has no counter `{id}` (its counters: {known})")]
    UnknownId {
        /// The id as given.
        id: String,
        /// The rule set's name.
        set: String,
        /// The set's ids, comma-separated, or `none`.
        known: String,
    },
    /// A count that is not a whole number of moves, optionally ending in `.5`.
    #[error(
        "`{text}` is not a count of moves for {id}: expected a whole number of moves \
         (`9`), or one ending in `.5` for one ply more (`9.5`)"
    )]
    BadNumber {
        /// The counter.
        id: String,
        /// The count as given.
        text: String,
    },
    /// The same id twice.
    #[error("counter {0} is given twice")]
    Duplicate(String),
}

impl Counters {
    /// No counts: every counter at 0.
    pub fn new() -> Counters {
        Counters::default()
    }

    /// The count of counter `id`, in plies.
    pub fn plies(&self, id: &str) -> u32 {
        self.plies.get(id).copied().unwrap_or(0)
    }

    /// Sets the count of counter `id`, in plies.
    pub fn set_plies(&mut self, id: &str, plies: u32) {
        if plies == 0 {
            self.plies.remove(id);
        } else {
            self.plies.insert(id.to_string(), plies);
        }
    }

    /// Sets the count of counter `id` to whole moves (2 plies each).
    pub fn set_moves(&mut self, id: &str, moves: u32) {
        self.set_plies(id, moves.saturating_mul(2));
    }

    /// Whether every counter is at 0.
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// The non-zero counts as `(id, plies)`, by id.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32)> {
        self.plies.iter().map(|(id, &plies)| (id.as_str(), plies))
    }

    /// Reads `ID=MOVES` items separated by commas (`R1=9,R4=3.5`; spaces allowed,
    /// empty text for no counts), checking every id against `ids`, the counters of
    /// the rule set called `set`. `RuleSet::parse_counters` reads counts with it.
    pub(crate) fn parse_for(
        text: &str,
        set: &str,
        ids: &[&str],
    ) -> Result<Counters, CountersError> {
        let mut counters = Counters::new();
        let mut seen = Vec::new();
        for item in text.split(',').map(str::trim) {
            if item.is_empty() && text.trim().is_empty() {
                continue;
            }
            let (id, count) = item
                .split_once('=')
                .ok_or_else(|| CountersError::Syntax(item.to_string()))?;
            let (id, count) = (id.trim(), count.trim());
            if id.is_empty() {
                return Err(CountersError::Syntax(item.to_string()));
            }
            if !ids.contains(&id) {
                return Err(CountersError::UnknownId {
                    id: id.to_string(),
                    set: set.to_string(),
                    known: if ids.is_empty() {
                        "none".to_string()
                    } else {
                        ids.join(", ")
                    },
                });
            }
            if seen.contains(&id) {
                return Err(CountersError::Duplicate(id.to_string()));
            }
            seen.push(id);
            let plies = parse_moves(count).ok_or_else(|| CountersError::BadNumber {
                id: id.to_string(),
                text: count.to_string(),
            })?;
            counters.set_plies(id, plies);
        }
        Ok(counters)
    }
}

/// `9` → 18 plies, `9.5` → 19 plies.
fn parse_moves(text: &str) -> Option<u32> {
    let (whole, half) = match text.strip_suffix(".5") {
        Some(whole) => (whole, 1),
        None => (text, 0),
    };
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    whole.parse::<u32>().ok()?.checked_mul(2)?.checked_add(half)
}

impl fmt::Display for Counters {
    /// `R1=9,R4=3.5`, in moves; empty when every count is 0.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = self
            .iter()
            .map(|(id, plies)| {
                let half = if plies % 2 == 1 { ".5" } else { "" };
                format!("{id}={}{half}", plies / 2)
            })
            .collect();
        f.write_str(&items.join(","))
    }
}
