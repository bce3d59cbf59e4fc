//! Move-limit draw rules as data: rule sets, their counters, presets and TOML files.
//!
//! A [`RuleSet`] is a list of [`Counter`]s. Each counter says which material it
//! applies to ([`MaterialClass`], plus an optional [`PositionCondition`]), which
//! move events restart it ([`Events`]), its limit in moves ([`Limit`]) and whether
//! reaching the limit draws. The built-in sets are in [`presets`]; any set can be
//! written to and read from TOML (`docs/rules/example.toml` is a documented
//! example).
//!
//! # Units
//!
//! Every limit is stored in **moves**, as the rule texts give it: one move of each
//! player, that is **2 plies**. [`Counter::limit_plies`] converts. The counts that
//! have been played ([`Counters`]) are kept in plies, because a position between
//! the two halves of a move has played an odd number of plies; they are read and
//! printed in moves (`R1=9` is 18 plies, `R1=9.5` is 19).
//!
//! # How a counter counts
//!
//! These are the semantics the presets are written against; every preset's notes
//! only say where a rule text needed a choice on top of them.
//!
//! - A counter is **in force** in a position when its material class holds for the
//!   position's material, a limit exists for its number of pieces, and its position
//!   condition (if any) holds ([`Counter::applies_at`]).
//! - A counter that is not in force has count 0. In the position where it comes
//!   into force (the material "arose", or the condition started to hold) its count
//!   is 0: the count starts there.
//! - Each ply played from a position where the counter is in force, to a position
//!   where it is still in force, adds 1 to the count, unless the move has one of the
//!   counter's reset events ([`Counter::resets_on`]); then the count is 0 again.
//!   [`RuleSet::advance`] applies this to every counter of a set.
//! - A counter whose `draws` flag is set **draws the game** in the first position
//!   where its count, in plies, equals its limit in plies
//!   ([`RuleSet::limit_reached`]), unless the side to move there has no legal move
//!   (then it has lost: the win came in time).
//! - "The stronger side must win by its N-th move" is the same as "within 2N plies":
//!   the weaker side cannot end the game in the stronger side's favour on its own
//!   ply, so whichever side moves first, the stronger side's N-th move is at the
//!   latest the 2N-th ply.
//! - Counters are independent: several may be in force at once, and the first one
//!   to reach its limit draws.
//! - Every class is symmetric in colour: "the stronger side" may be White or Black,
//!   so a position and its colour-flipped twin have the same counters in force.
//!
//! A win that needs more moves than a counter allows is a *cursed win* under that
//! set, and the matching loss a *blessed loss* (see GLOSSARY.md).

mod condition;
mod count;
mod counted;
mod counted_probe;
mod counter;
mod counters;
mod events;
mod fingerprint;
mod limit;
mod load;
mod material_class;
#[doc(hidden)]
pub mod phase;
pub mod presets;
mod ruleset;
mod search;
mod session;
mod tables;

pub use condition::PositionCondition;
pub use count::{Count, CountError};
#[doc(hidden)]
pub use counted::Counted;
pub use counter::Counter;
pub use counters::{Counters, CountersError};
pub use events::{Event, Events};
pub use limit::{Band, Limit};
pub use load::RulesError;
pub use material_class::{MaterialClass, SidePattern};
#[doc(hidden)]
pub use phase::{is_exit, ExitTest, Phase, Role, Verdict};
#[doc(hidden)]
pub use ruleset::Counts;
pub use ruleset::{RuleSet, ValidationError, MAX_COUNTERS};
pub use search::{RuleAnswer, RuleOutcome, CANCELLED, DEPTH_LIMIT, NODE_LIMIT, TIME_LIMIT};
pub use session::RuleSession;
pub use tables::RuleTablebase;

#[cfg(test)]
mod tests;
