//! The WDL block codec: two-bit codes (loss 0, draw 1, win 2), four to a byte,
//! lowest bits first.

use crate::value::Wdl;

/// WDL entries per block (2 bits each: 16 KiB decompressed). Chosen by measurement,
/// see `formats/FORMAT.md`.
pub const WDL_BLOCK_ENTRIES: u32 = 1 << 16;

/// The two-bit code of a WDL value in a WDL block.
#[inline]
pub fn wdl_code(wdl: Wdl) -> u8 {
    match wdl {
        Wdl::Loss => 0,
        Wdl::Draw => 1,
        Wdl::Win => 2,
    }
}

/// The WDL value of a two-bit code (3 never occurs in a checked block).
#[inline]
pub fn wdl_of_code(code: u8) -> Wdl {
    match code {
        0 => Wdl::Loss,
        1 => Wdl::Draw,
        _ => Wdl::Win,
    }
}

/// Packs two-bit codes, four to a byte, lowest bits first.
pub fn pack_wdl(codes: &[u8]) -> Vec<u8> {
    codes
        .chunks(4)
        .map(|c| c.iter().rev().fold(0u8, |acc, &code| acc << 2 | code))
        .collect()
}

/// Fails if a packed WDL block has the wrong length or holds code 3.
pub(super) fn check_wdl_codes(raw: &[u8], entries: usize) -> Result<(), String> {
    if raw.len() != entries.div_ceil(4) {
        return Err(format!("{} bytes for {entries} WDL entries", raw.len()));
    }
    // Code 3 is the only code with both bits set.
    if raw.iter().any(|&b| b & (b >> 1) & 0x55 != 0) {
        return Err("invalid WDL code 3".into());
    }
    Ok(())
}
