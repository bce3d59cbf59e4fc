//! Probing a position for its value, distance to win and best move.

use std::ffi::{c_char, c_int};

use damka_core::{write_notation, Color};
use damka_probe::{Position, ProbeError, Tablebase, Variant, Wdl};

use crate::error::{Failure, DAMKA_ERR_BAD_ARGUMENT};
use crate::guard::guard;
use crate::handle::{damka_tb, handle, with_tables};
use crate::layout::{self, Sets};
use crate::text::{arg, FixedText};

/// The answer to a probe, for the side to move.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct damka_result {
    /// 1 win, 0 draw, -1 loss, for the side to move.
    pub wdl: i32,
    /// Plies to the end of the game under best play (distance to win); 0 for a
    /// draw, and for a loss with no legal move.
    pub dtw: i32,
    /// A best move in the variant's notation (`c3-d4`, `c3:e5:g7`, `32-28`,
    /// `28x19x8`), NUL-terminated; empty if the side to move has no legal move.
    pub best_move: [c_char; 64],
}

/// The answer for `pos`.
#[inline]
fn answer<V: Variant>(tb: &Tablebase<V>, pos: Position<V>) -> Result<damka_result, Failure> {
    let value = tb.probe_value(pos)?;
    let mut result = damka_result {
        wdl: wdl_code(value.wdl()),
        dtw: value.dtw().map_or(0, i32::from),
        best_move: [0; 64],
    };
    if let Some(mv) = tb.best_move(pos)? {
        FixedText::fill(&mut result.best_move, "the best move", |text| {
            write_notation(&pos, &mv, text)
        })?;
    }
    Ok(result)
}

/// The side to move of a C flag: nonzero for White.
fn side_to_move(white_to_move: c_int) -> Color {
    if white_to_move != 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// The failure for a NULL `out`.
pub(crate) fn null_out() -> Failure {
    Failure::new(DAMKA_ERR_BAD_ARGUMENT, "out is NULL")
}

/// Probes a position given as PDN FEN (`W:Wa1,Kc3:Bh8`; see the README): its value
/// for the side to move, its distance to win and a best move. Returns 0 and fills
/// `out`, or a negative `DAMKA_ERR_*` code and leaves `out` untouched.
///
/// # Safety
///
/// `tb` must be NULL or a handle from `damka_open` not yet closed; `fen` NULL or a
/// NUL-terminated string; `out` NULL or a writable `damka_result`.
#[no_mangle]
pub unsafe extern "C" fn damka_probe_fen(
    tb: *mut damka_tb,
    fen: *const c_char,
    out: *mut damka_result,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract, passed on.
        let (tb, fen) = unsafe { (handle(tb)?, arg(fen, "fen")?) };
        if out.is_null() {
            return Err(null_out());
        }
        let result = with_tables!(tb, t => {
            let pos = fen.parse().map_err(ProbeError::Fen)?;
            answer(&t.tablebase, pos)?
        });
        // SAFETY: `out` is non-NULL, so writable by the caller's contract.
        unsafe { out.write(result) };
        Ok(0)
    })
}

/// Probes a position given as four piece sets: the engine's hot path, which reads
/// no FEN and allocates nothing beyond what the probe itself does (the best move's
/// move list; reading and decoding a block not yet cached). Returns 0 and fills `out`, or a negative `DAMKA_ERR_*` code
/// and leaves `out` untouched. `white_to_move` is nonzero for White to move.
///
/// The bit layout (bit 0 is the least significant; a set with a bit past the
/// last square is `DAMKA_ERR_IMPOSSIBLE_POSITION`, as are overlapping sets):
///
/// Russian (8x8): bit `i` is the `i`-th dark square counted rank by rank from
/// White's side, left to right: a1 = 0, c1 = 1, e1 = 2, g1 = 3, b2 = 4, ..., h8 = 31.
///
/// ```text
///        a   b   c   d   e   f   g   h
///   8    .  28   .  29   .  30   .  31      Black's side
///   7   24   .  25   .  26   .  27   .
///   6    .  20   .  21   .  22   .  23
///   5   16   .  17   .  18   .  19   .
///   4    .  12   .  13   .  14   .  15
///   3    8   .   9   .  10   .  11   .
///   2    .   4   .   5   .   6   .   7
///   1    0   .   1   .   2   .   3   .      White's side
/// ```
///
/// International (10x10): bit `i` is square `i + 1` of the standard numbering
/// (square 1 is b10 on Black's side, square 50 is i1 on White's side).
///
/// ```text
///         a   b   c   d   e   f   g   h   i   j
///   10    .   0   .   1   .   2   .   3   .   4      Black's side
///    9    5   .   6   .   7   .   8   .   9   .
///    8    .  10   .  11   .  12   .  13   .  14
///    7   15   .  16   .  17   .  18   .  19   .
///    6    .  20   .  21   .  22   .  23   .  24
///    5   25   .  26   .  27   .  28   .  29   .
///    4    .  30   .  31   .  32   .  33   .  34
///    3   35   .  36   .  37   .  38   .  39   .
///    2    .  40   .  41   .  42   .  43   .  44
///    1   45   .  46   .  47   .  48   .  49   .      White's side
/// ```
///
/// # Safety
///
/// `tb` must be NULL or a handle from `damka_open` not yet closed; `out` NULL or a
/// writable `damka_result`.
#[no_mangle]
pub unsafe extern "C" fn damka_probe_bits(
    tb: *mut damka_tb,
    white_men: u64,
    white_kings: u64,
    black_men: u64,
    black_kings: u64,
    white_to_move: c_int,
    out: *mut damka_result,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract, passed on.
        let tb = unsafe { handle(tb)? };
        if out.is_null() {
            return Err(null_out());
        }
        let sets = Sets {
            white_men,
            white_kings,
            black_men,
            black_kings,
        };
        let side = side_to_move(white_to_move);
        let result = with_tables!(tb, t => answer(&t.tablebase, layout::position(sets, side)?)?);
        // SAFETY: `out` is non-NULL, so writable by the caller's contract.
        unsafe { out.write(result) };
        Ok(0)
    })
}

/// Probes only the value of a position given as four piece sets, in the layout
/// `damka_probe_bits` draws: 1 win, 0 draw, -1 loss for the side to move, stored
/// in `*wdl`. The fastest probe (one table lookup, no best move, no distance):
/// for an engine's search. Returns 0, or a negative `DAMKA_ERR_*` code and leaves
/// `*wdl` untouched.
///
/// # Safety
///
/// `tb` must be NULL or a handle from `damka_open` not yet closed; `wdl` NULL or a
/// writable `int32_t`.
#[no_mangle]
pub unsafe extern "C" fn damka_probe_wdl_bits(
    tb: *mut damka_tb,
    white_men: u64,
    white_kings: u64,
    black_men: u64,
    black_kings: u64,
    white_to_move: c_int,
    wdl: *mut i32,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract, passed on.
        let tb = unsafe { handle(tb)? };
        if wdl.is_null() {
            return Err(Failure::new(DAMKA_ERR_BAD_ARGUMENT, "wdl is NULL"));
        }
        let sets = Sets {
            white_men,
            white_kings,
            black_men,
            black_kings,
        };
        let side = side_to_move(white_to_move);
        let value = with_tables!(tb, t => t.tablebase.probe_wdl(layout::position(sets, side)?)?);
        // SAFETY: `wdl` is non-NULL, so writable by the caller's contract.
        unsafe { wdl.write(wdl_code(value)) };
        Ok(0)
    })
}

/// 1 win, 0 draw, -1 loss.
fn wdl_code(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Win => 1,
        Wdl::Draw => 0,
        Wdl::Loss => -1,
    }
}
