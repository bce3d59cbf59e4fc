//! Which materials a counter applies to: [`SidePattern`] (what one side has) and
//! [`MaterialClass`] (a colour-symmetric predicate over a slice's four counts),
//! with their TOML forms.

use std::fmt;

use damka_core::Material;
use serde::{Deserialize, Serialize};

use super::count::Count;

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
