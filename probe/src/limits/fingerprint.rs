//! The canonical bytes of what decides a rule set's table values, which
//! `RuleSet::fingerprint` hashes.
//!
//! Rule tables store, per position, plies to the end of a phase (DTC, DTZ) and
//! values with fresh counters (RWDL). Those depend on each counter's material
//! class, position condition, reset events, limit and `draws` flag, and nothing
//! else. The bytes are written field by field, not through `Debug` or the TOML
//! form (whose text may change with a compiler or library upgrade, and holds the
//! descriptions and notes). Every struct is taken apart with all its fields
//! named (the set itself in `RuleSet::fingerprint`), so a field added later does
//! not compile until it is either written here or named as left out.
//!
//! Left out: the set's name (part of every table's file name already), its
//! variant binding (tables are kept per variant; the binding only says which
//! variants may load the set), the counters' ids (tables hold no counts and no
//! ids; played counts are named by id at query time, against the loaded set), and
//! every description and note.
//!
//! The layout, version 1 (every number a little-endian `u32`):
//!
//! - the tag `damka-rules/1`, then the number of counters;
//! - per counter, in the set's order:
//!   - class: `0` any, `1` both sides have kings, or `2` versus, then the number
//!     of strong patterns, each pattern, and the weak pattern; a pattern is its
//!     men's count then its kings' count; a count is its minimum, then `0` when
//!     it has no maximum or `1` and the maximum;
//!   - condition: `0` none, `1` lone king on the main road;
//!   - resets: a bit set, `1` capture, `2` promotion, `4` man move;
//!   - limit: `0` and the moves, or `1`, the number of bands, and per band its
//!     piece count and moves;
//!   - draws: `0` or `1`.

use super::condition::PositionCondition;
use super::count::Count;
use super::counter::Counter;
use super::events::Events;
use super::limit::{Band, Limit};
use super::material_class::{MaterialClass, SidePattern};

/// The first bytes, naming the layout.
const TAG: &[u8] = b"damka-rules/1";

/// The canonical bytes of a rule set whose counters are `counters` (see the
/// module docs).
pub(crate) fn canonical_bytes(counters: &[Counter]) -> Vec<u8> {
    let mut out = TAG.to_vec();
    put_len(&mut out, counters.len());
    for counter in counters {
        put_counter(&mut out, counter);
    }
    out
}

fn put_u32(out: &mut Vec<u8>, n: u32) {
    out.extend_from_slice(&n.to_le_bytes());
}

fn put_len(out: &mut Vec<u8>, len: usize) {
    put_u32(out, u32::try_from(len).unwrap_or(u32::MAX));
}

fn put_counter(out: &mut Vec<u8>, counter: &Counter) {
    let Counter {
        id: _,
        description: _,
        applies,
        condition,
        resets,
        limit,
        draws,
        notes: _,
    } = counter;
    put_class(out, applies);
    put_condition(out, *condition);
    put_events(out, *resets);
    put_limit(out, limit);
    put_u32(out, u32::from(*draws));
}

fn put_count(out: &mut Vec<u8>, count: Count) {
    put_u32(out, count.min());
    match count.max() {
        None => put_u32(out, 0),
        Some(max) => {
            put_u32(out, 1);
            put_u32(out, max);
        }
    }
}

fn put_pattern(out: &mut Vec<u8>, pattern: &SidePattern) {
    let SidePattern { men, kings } = *pattern;
    put_count(out, men);
    put_count(out, kings);
}

fn put_class(out: &mut Vec<u8>, class: &MaterialClass) {
    match class {
        MaterialClass::Any => put_u32(out, 0),
        MaterialClass::BothSidesHaveKings => put_u32(out, 1),
        MaterialClass::Versus { strong, weak } => {
            put_u32(out, 2);
            put_len(out, strong.len());
            for pattern in strong {
                put_pattern(out, pattern);
            }
            put_pattern(out, weak);
        }
    }
}

fn put_condition(out: &mut Vec<u8>, condition: Option<PositionCondition>) {
    put_u32(
        out,
        match condition {
            None => 0,
            Some(PositionCondition::LoneKingOnMainRoad) => 1,
        },
    );
}

fn put_events(out: &mut Vec<u8>, events: Events) {
    let Events {
        capture,
        promotion,
        man_move,
    } = events;
    put_u32(
        out,
        u32::from(capture) | u32::from(promotion) << 1 | u32::from(man_move) << 2,
    );
}

fn put_limit(out: &mut Vec<u8>, limit: &Limit) {
    match limit {
        Limit::Moves(moves) => {
            put_u32(out, 0);
            put_u32(out, *moves);
        }
        Limit::ByPieces(bands) => {
            put_u32(out, 1);
            put_len(out, bands.len());
            for band in bands {
                let Band { pieces, moves } = *band;
                put_count(out, pieces);
                put_u32(out, moves);
            }
        }
    }
}
