//! [`Count`]: a constraint on a number of pieces (exactly `n`, `n` or more, or a
//! range), with its TOML form (`3`, `"3+"`, `"2-3"`).

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

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
#[non_exhaustive]
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
