//! The rule-set types, their TOML form, validation and loading.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use damka_core::{Bits, Color, Material, Position, Variant, VariantKind};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::counters::{Counters, CountersError};
use super::presets;
use damka_core::moves::{apply, Move};

/// A constraint on a number of pieces: exactly `n`, at least `n`, or a range.
///
/// In TOML it is a number (`3`, exactly three), a string ending in `+` (`"3+"`,
/// three or more) or a range string (`"2-3"`, two or three).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Count {
    min: u32,
    max: Option<u32>,
}

/// Why a [`Count`] could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    /// Not of the form `3`, `3+` or `2-3`.
    #[error("bad count `{0}`: expected a number (`3`), a minimum (`3+`) or a range (`2-3`)")]
    Syntax(String),
    /// A range whose first number is larger than its last.
    #[error("empty range `{0}`: its first number is larger than its last")]
    EmptyRange(String),
}

impl Count {
    /// Exactly `n`.
    pub const fn exactly(n: u32) -> Count {
        Count {
            min: n,
            max: Some(n),
        }
    }

    /// `n` or more.
    pub const fn at_least(n: u32) -> Count {
        Count { min: n, max: None }
    }

    /// From `min` to `max`, both included.
    pub fn between(min: u32, max: u32) -> Result<Count, CountError> {
        if min > max {
            return Err(CountError::EmptyRange(format!("{min}-{max}")));
        }
        Ok(Count {
            min,
            max: Some(max),
        })
    }

    /// From `min` to `max`, both included, for constants known to be ordered.
    pub(crate) const fn span(min: u32, max: u32) -> Count {
        assert!(min <= max, "a span needs min <= max");
        Count {
            min,
            max: Some(max),
        }
    }

    /// The smallest number allowed.
    pub fn min(self) -> u32 {
        self.min
    }

    /// The largest number allowed, or `None` when there is no upper bound.
    pub fn max(self) -> Option<u32> {
        self.max
    }

    /// Whether `n` is allowed.
    pub fn contains(self, n: u32) -> bool {
        n >= self.min
            && match self.max {
                Some(max) => n <= max,
                None => true,
            }
    }

    /// Whether some number is allowed by both.
    pub fn overlaps(self, other: Count) -> bool {
        let below = |count: Count, n: u32| match count.max {
            Some(max) => n <= max,
            None => true,
        };
        below(self, other.min) && below(other, self.min)
    }

    /// Whether exactly `n` and nothing else is allowed.
    pub fn is_exactly(self, n: u32) -> bool {
        self.min == n && self.max == Some(n)
    }
}

impl fmt::Display for Count {
    /// `3`, `3+` or `2-3`: the TOML form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.max {
            Some(max) if max == self.min => write!(f, "{max}"),
            Some(max) => write!(f, "{}-{max}", self.min),
            None => write!(f, "{}+", self.min),
        }
    }
}

impl FromStr for Count {
    type Err = CountError;

    fn from_str(text: &str) -> Result<Count, CountError> {
        let bad = || CountError::Syntax(text.to_string());
        let number = |s: &str| -> Result<u32, CountError> {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            s.parse().map_err(|_| bad())
        };
        let text = text.trim();
        if let Some(min) = text.strip_suffix('+') {
            return Ok(Count::at_least(number(min)?));
        }
        if let Some((min, max)) = text.split_once('-') {
            return Count::between(number(min)?, number(max)?);
        }
        Ok(Count::exactly(number(text)?))
    }
}

impl Serialize for Count {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.max {
            Some(max) if max == self.min => serializer.serialize_u32(max),
            _ => serializer.collect_str(self),
        }
    }
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Count, D::Error> {
        struct CountVisitor;

        impl Visitor<'_> for CountVisitor {
            type Value = Count;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a piece count: a number (3), a minimum (\"3+\") or a range (\"2-3\")")
            }

            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Count, E> {
                u32::try_from(n)
                    .map(Count::exactly)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(n), &self))
            }

            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Count, E> {
                u32::try_from(n)
                    .map(Count::exactly)
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(n), &self))
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Count, E> {
                text.parse().map_err(E::custom)
            }
        }

        deserializer.deserialize_any(CountVisitor)
    }
}

fn no_pieces() -> Count {
    Count::exactly(0)
}

/// What one side has: a [`Count`] of men and one of kings.
///
/// In TOML, `{ men = 1, kings = 2 }`; a count left out is zero, so `{ kings = 1 }`
/// is a lone king and `{ kings = "3+" }` is three or more kings and no men.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SidePattern {
    /// How many men the side has.
    #[serde(default = "no_pieces")]
    pub men: Count,
    /// How many kings the side has.
    #[serde(default = "no_pieces")]
    pub kings: Count,
}

impl SidePattern {
    /// A side with these counts of men and kings.
    pub const fn new(men: Count, kings: Count) -> SidePattern {
        SidePattern { men, kings }
    }

    /// A side with exactly these numbers of men and kings.
    pub const fn exactly(men: u32, kings: u32) -> SidePattern {
        SidePattern::new(Count::exactly(men), Count::exactly(kings))
    }

    /// A side whose only piece is one king.
    pub const fn lone_king() -> SidePattern {
        SidePattern::exactly(0, 1)
    }

    /// Whether a side with `men` men and `kings` kings matches.
    pub fn matches(&self, men: u32, kings: u32) -> bool {
        self.men.contains(men) && self.kings.contains(kings)
    }
}

impl fmt::Display for SidePattern {
    /// `3+ kings`, `2 kings + 1 man`, `1 king + 1+ men`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let noun = |count: Count, one: &str, many: &str| {
            let word = if count.is_exactly(1) { one } else { many };
            format!("{count} {word}")
        };
        let mut parts = Vec::new();
        if !self.kings.is_exactly(0) {
            parts.push(noun(self.kings, "king", "kings"));
        }
        if !self.men.is_exactly(0) {
            parts.push(noun(self.men, "man", "men"));
        }
        if parts.is_empty() {
            f.write_str("no pieces")
        } else {
            f.write_str(&parts.join(" + "))
        }
    }
}

/// Which materials a counter applies to: a predicate over a slice's four counts,
/// written as data.
///
/// Every class is symmetric in colour. In TOML it is a table with a `class` key:
///
/// ```toml
/// applies = { class = "any" }
/// applies = { class = "both-sides-have-kings" }
/// applies = { class = "versus", strong = [{ kings = 3 }, { men = 1, kings = 2 }], weak = { kings = 1 } }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "class", rename_all = "kebab-case", try_from = "ClassTable")]
pub enum MaterialClass {
    /// Every material.
    Any,
    /// Both sides have at least one king.
    BothSidesHaveKings,
    /// One side (either colour) matches one of the `strong` patterns and the other
    /// side matches `weak`: "three kings, two kings and a man, or a king and two men
    /// against a lone king".
    Versus {
        /// The stronger side's possible materials.
        strong: Vec<SidePattern>,
        /// The weaker side's material.
        weak: SidePattern,
    },
}

/// The TOML table of a [`MaterialClass`] as written, before the keys are checked
/// against the class (serde's tagged enums let extra keys of a unit variant pass).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassTable {
    class: ClassName,
    strong: Option<Vec<SidePattern>>,
    weak: Option<SidePattern>,
}

/// The `class` key of a [`MaterialClass`].
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum ClassName {
    Any,
    BothSidesHaveKings,
    Versus,
}

impl TryFrom<ClassTable> for MaterialClass {
    type Error = String;

    fn try_from(table: ClassTable) -> Result<MaterialClass, String> {
        match (table.class, table.strong, table.weak) {
            (ClassName::Any, None, None) => Ok(MaterialClass::Any),
            (ClassName::BothSidesHaveKings, None, None) => Ok(MaterialClass::BothSidesHaveKings),
            (ClassName::Versus, Some(strong), Some(weak)) => {
                Ok(MaterialClass::Versus { strong, weak })
            }
            (ClassName::Versus, _, _) => {
                Err("class `versus` needs both `strong` and `weak`".to_string())
            }
            (ClassName::Any, _, _) => Err("class `any` takes no `strong` or `weak`".to_string()),
            (ClassName::BothSidesHaveKings, _, _) => {
                Err("class `both-sides-have-kings` takes no `strong` or `weak`".to_string())
            }
        }
    }
}

impl MaterialClass {
    /// Whether `material` belongs to the class.
    pub fn matches(&self, material: &Material) -> bool {
        match self {
            MaterialClass::Any => true,
            MaterialClass::BothSidesHaveKings => {
                material.white_kings > 0 && material.black_kings > 0
            }
            MaterialClass::Versus { strong, weak } => {
                let white = (material.white_men, material.white_kings);
                let black = (material.black_men, material.black_kings);
                [(white, black), (black, white)]
                    .into_iter()
                    .any(|((sm, sk), (wm, wk))| {
                        weak.matches(wm, wk) && strong.iter().any(|p| p.matches(sm, sk))
                    })
            }
        }
    }
}

impl fmt::Display for MaterialClass {
    /// `any material`, `both sides have kings`, or `3 kings or 2 kings + 1 man v lone king`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaterialClass::Any => f.write_str("any material"),
            MaterialClass::BothSidesHaveKings => f.write_str("both sides have kings"),
            MaterialClass::Versus { strong, weak } => {
                let names: Vec<String> = strong.iter().map(ToString::to_string).collect();
                let strong = match names.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} or {last}", rest.join(", "))
                    }
                    _ => names.join(""),
                };
                if *weak == SidePattern::lone_king() {
                    write!(f, "{strong} v lone king")
                } else {
                    write!(f, "{strong} v {weak}")
                }
            }
        }
    }
}

/// A condition on the placement, on top of the material, for a counter to be in
/// force.
///
/// In TOML, `condition = "lone-king-on-main-road"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PositionCondition {
    /// A side whose only piece is a king has that king on the main road: the long
    /// diagonal from White's lower-left corner (a1–h8 in Russian draughts, 46–5 in
    /// International draughts).
    LoneKingOnMainRoad,
}

impl PositionCondition {
    /// Whether the condition holds in `pos`.
    pub fn holds<V: Variant>(self, pos: &Position<V>) -> bool {
        match self {
            PositionCondition::LoneKingOnMainRoad => {
                [Color::White, Color::Black].into_iter().any(|color| {
                    let pieces = pos.pieces(color);
                    pieces.count_ones() == 1
                        && pieces & pos.kings() != 0
                        && Bits(pieces).all(|bit| on_main_road::<V>(bit))
                })
            }
        }
    }
}

/// Whether a padded bit lies on the long diagonal through White's lower-left corner.
fn on_main_road<V: Variant>(bit: u32) -> bool {
    let g = V::GEOMETRY;
    let square = g.square_of[bit as usize] as usize;
    g.file(square) == g.rank(square)
}

impl fmt::Display for PositionCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionCondition::LoneKingOnMainRoad => f.write_str("lone king on the main road"),
        }
    }
}

/// One thing a move can do that may restart a counter.
///
/// In TOML, `"capture"`, `"promotion"` or `"man-move"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Event {
    /// The move captures one or more pieces.
    Capture,
    /// The move crowns a man.
    Promotion,
    /// The moving piece is a man (a promotion and a capture by a man are man moves
    /// too).
    ManMove,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Event::Capture => "capture",
            Event::Promotion => "promotion",
            Event::ManMove => "man move",
        })
    }
}

/// A set of [`Event`]s: what a move does ([`Events::of_move`]), or what restarts a
/// counter ([`Counter::resets`]).
///
/// In TOML, a list: `resets = ["capture", "promotion"]`; `resets = []` when
/// nothing inside the class restarts the count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "Vec<Event>", into = "Vec<Event>")]
pub struct Events {
    /// A capture.
    pub capture: bool,
    /// A promotion.
    pub promotion: bool,
    /// A move of a man.
    pub man_move: bool,
}

impl Events {
    /// No event.
    pub const NONE: Events = Events {
        capture: false,
        promotion: false,
        man_move: false,
    };

    /// What `mv`, a legal move from `pos`, does. The moved piece is a man when its
    /// start square holds no king.
    pub fn of_move<V: Variant>(pos: &Position<V>, mv: &Move) -> Events {
        Events {
            capture: mv.is_capture(),
            promotion: mv.is_promotion(),
            man_move: pos.kings() >> mv.from_bit() & 1 == 0,
        }
    }

    /// Whether `event` is in the set.
    pub fn contains(self, event: Event) -> bool {
        match event {
            Event::Capture => self.capture,
            Event::Promotion => self.promotion,
            Event::ManMove => self.man_move,
        }
    }

    /// Whether the two sets share an event.
    pub fn intersects(self, other: Events) -> bool {
        (self.capture && other.capture)
            || (self.promotion && other.promotion)
            || (self.man_move && other.man_move)
    }

    /// The events in the set, in the order capture, promotion, man move.
    pub fn iter(self) -> impl Iterator<Item = Event> {
        [Event::Capture, Event::Promotion, Event::ManMove]
            .into_iter()
            .filter(move |&e| self.contains(e))
    }
}

impl From<Vec<Event>> for Events {
    fn from(list: Vec<Event>) -> Events {
        Events {
            capture: list.contains(&Event::Capture),
            promotion: list.contains(&Event::Promotion),
            man_move: list.contains(&Event::ManMove),
        }
    }
}

impl From<Events> for Vec<Event> {
    fn from(events: Events) -> Vec<Event> {
        events.iter().collect()
    }
}

impl fmt::Display for Events {
    /// `capture, promotion`, or `nothing`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.iter().map(|e| e.to_string()).collect();
        if names.is_empty() {
            f.write_str("nothing")
        } else {
            f.write_str(&names.join(", "))
        }
    }
}

/// One entry of a piece-count-dependent limit: `moves` for materials with a
/// number of pieces (both sides together) in `pieces`.
///
/// In TOML, `{ pieces = "4-5", moves = 30 }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    /// The numbers of pieces, both sides together, this band covers.
    pub pieces: Count,
    /// The limit in moves (one move of each player = 2 plies).
    pub moves: u32,
}

/// A counter's limit, in moves (one move of each player = 2 plies).
///
/// In TOML, the `limit_moves` key: a number (`limit_moves = 15`) or a list of
/// [`Band`]s (`limit_moves = [{ pieces = "2-3", moves = 5 }, ...]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Limit {
    /// The same number of moves for every material of the class.
    Moves(u32),
    /// A number of moves per band of piece counts. A material whose piece count no
    /// band covers is outside the counter.
    ByPieces(Vec<Band>),
}

impl Limit {
    /// The limit in moves for a material of `pieces` pieces, if any.
    pub fn moves_for(&self, pieces: u32) -> Option<u32> {
        match self {
            Limit::Moves(moves) => Some(*moves),
            Limit::ByPieces(bands) => bands
                .iter()
                .find(|band| band.pieces.contains(pieces))
                .map(|band| band.moves),
        }
    }
}

impl Serialize for Limit {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Limit::Moves(moves) => serializer.serialize_u32(*moves),
            Limit::ByPieces(bands) => bands.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Limit {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Limit, D::Error> {
        struct LimitVisitor;

        impl<'de> Visitor<'de> for LimitVisitor {
            type Value = Limit;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a number of moves, or a list of bands such as [{ pieces = \"2-3\", moves = 5 }]",
                )
            }

            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Limit, E> {
                u32::try_from(n)
                    .map(Limit::Moves)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(n), &self))
            }

            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Limit, E> {
                u32::try_from(n)
                    .map(Limit::Moves)
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(n), &self))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Limit, A::Error> {
                let mut bands = Vec::new();
                while let Some(band) = seq.next_element::<Band>()? {
                    bands.push(band);
                }
                Ok(Limit::ByPieces(bands))
            }
        }

        deserializer.deserialize_any(LimitVisitor)
    }
}

fn yes() -> bool {
    true
}

/// One move-limit rule: which material it watches, what restarts its count, and
/// after how many moves it draws. See the [module docs](super) for how it counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counter {
    /// A short name, unique in its set (`R1`): letters, digits, `-` and `_`. The
    /// played counts name counters by it (`R1=9`).
    pub id: String,
    /// One sentence saying what the rule is.
    #[serde(default)]
    pub description: String,
    /// The materials the counter applies to.
    pub applies: MaterialClass,
    /// A condition on the placement, when the material alone does not decide.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<PositionCondition>,
    /// The move events that restart the count while the counter stays in force.
    pub resets: Events,
    /// The limit, in moves (TOML key `limit_moves`).
    #[serde(rename = "limit_moves")]
    pub limit: Limit,
    /// Whether reaching the limit draws the game (default `true`). A counter that
    /// does not draw is only counted and reported.
    #[serde(default = "yes")]
    pub draws: bool,
    /// The interpretation choices behind the counter, with their sources.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Counter {
    /// Whether the counter applies to `material`: the class matches and the limit
    /// covers its piece count. A counter with a [`condition`](Self::condition) also
    /// needs the condition to hold; see [`applies_at`](Self::applies_at).
    pub fn applies(&self, material: &Material) -> bool {
        self.applies.matches(material) && self.limit.moves_for(material.pieces()).is_some()
    }

    /// Whether the counter is in force in `pos`: it applies to the material and its
    /// position condition, if any, holds.
    pub fn applies_at<V: Variant>(&self, pos: &Position<V>) -> bool {
        self.applies(&pos.material())
            && match self.condition {
                Some(condition) => condition.holds(pos),
                None => true,
            }
    }

    /// The limit in moves (one move of each player) for `material`, or `None` when
    /// the counter does not apply to it.
    pub fn limit_moves(&self, material: &Material) -> Option<u32> {
        if self.applies.matches(material) {
            self.limit.moves_for(material.pieces())
        } else {
            None
        }
    }

    /// The limit in plies (twice [`limit_moves`](Self::limit_moves)), or `None`
    /// when the counter does not apply to `material`.
    pub fn limit_plies(&self, material: &Material) -> Option<u32> {
        self.limit_moves(material)
            .map(|moves| moves.saturating_mul(2))
    }

    /// Whether a move with these events restarts the count.
    pub fn resets_on(&self, events: Events) -> bool {
        self.resets.intersects(events)
    }

    /// Whether `mv`, a legal move from `pos`, restarts the count.
    pub fn resets_on_move<V: Variant>(&self, pos: &Position<V>, mv: &Move) -> bool {
        self.resets_on(Events::of_move(pos, mv))
    }
}

/// A set of move-limit draw rules: a name, the variant it is written for, and its
/// counters. Built-in sets come from [`presets`]; others are read from TOML.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSet {
    /// The set's name (`russian`).
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

/// Why a rule set is not usable, whatever its source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    /// The name is empty.
    #[error("the rule set has no name")]
    NoName,
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

/// Why a rule set could not be loaded or used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
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

    /// Checks what the types cannot: a name, well-formed unique ids, a strong side
    /// in every `versus` class, limits of at least one move, bands that exist and do
    /// not overlap.
    pub fn validate(&self) -> Result<(), ValidationError> {
        if self.name.trim().is_empty() {
            return Err(ValidationError::NoName);
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

    /// A fingerprint of the whole set (XXH3-64 of its TOML form), which rule
    /// tables record so that a table built under another set is never read.
    pub fn fingerprint(&self) -> u64 {
        let text = self.to_toml().unwrap_or_else(|_| format!("{self:?}"));
        damka_formats::table::hash(text.as_bytes()).max(1)
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

    /// The counts after `mv`, a legal move from `pos`, is played, given the counts
    /// `played` in `pos`: a counter in force before and after the move, that the
    /// move does not reset, gains one ply; every other counter is 0.
    pub fn advance<V: Variant>(&self, played: &Counters, pos: &Position<V>, mv: &Move) -> Counters {
        let after = apply(pos, mv);
        let events = Events::of_move(pos, mv);
        let mut next = Counters::new();
        for counter in &self.counters {
            if counter.applies_at(pos) && counter.applies_at(&after) && !counter.resets_on(events) {
                next.set_plies(&counter.id, played.plies(&counter.id).saturating_add(1));
            }
        }
        next
    }

    /// The first drawing counter in force in `pos` whose count in `played` has
    /// reached its limit in plies: the game is drawn by that rule, unless the side
    /// to move has no legal move (which this does not look at).
    pub fn limit_reached<V: Variant>(
        &self,
        played: &Counters,
        pos: &Position<V>,
    ) -> Option<&Counter> {
        let material = pos.material();
        self.counters.iter().find(|c| {
            c.draws
                && c.applies_at(pos)
                && c.limit_plies(&material)
                    .is_some_and(|limit| played.plies(&c.id) >= limit)
        })
    }

    /// Reads counts such as `R1=9,R4=3.5` (moves) for this set's counters.
    pub fn parse_counters(&self, text: &str) -> Result<Counters, CountersError> {
        Counters::parse(text, self)
    }
}
