//! A counter's limit in moves: one number ([`Limit::Moves`]) or one per band of
//! piece counts ([`Band`]), with its TOML form (the `limit_moves` key).

use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::count::Count;

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
