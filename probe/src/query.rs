//! What a probe accepts: a position, or its PDN FEN.

use damka_core::{Position, Variant};

use crate::error::ProbeError;

/// A position to probe: a [`Position`] (by value or by reference) or its PDN FEN
/// (`&str` or `&String`). A FEN that cannot be read is [`ProbeError::Fen`].
pub trait Query<V: Variant> {
    /// The position asked about.
    fn position(self) -> Result<Position<V>, ProbeError>;
}

impl<V: Variant> Query<V> for Position<V> {
    #[inline]
    fn position(self) -> Result<Position<V>, ProbeError> {
        Ok(self)
    }
}

impl<V: Variant> Query<V> for &Position<V> {
    #[inline]
    fn position(self) -> Result<Position<V>, ProbeError> {
        Ok(*self)
    }
}

impl<V: Variant> Query<V> for &str {
    fn position(self) -> Result<Position<V>, ProbeError> {
        Ok(self.parse()?)
    }
}

impl<V: Variant> Query<V> for &String {
    fn position(self) -> Result<Position<V>, ProbeError> {
        self.as_str().position()
    }
}
