//! A decoded block, [`Block`], as readers keep it in their caches: packed WDL codes
//! or a [`DtwBlock`].

use super::dtw::DtwBlock;
use super::wdl::wdl_of_code;
use crate::value::{Value, Wdl};

/// One decoded block, as readers keep it in their caches.
#[derive(Debug, Clone)]
pub enum Block {
    /// Packed two-bit WDL codes.
    Wdl(Box<[u8]>),
    /// DTW bytes with their wide values.
    Dtw(DtwBlock),
}

impl Block {
    /// The WDL value at offset `local` of a WDL block, or of a DTW block.
    #[inline]
    pub fn wdl(&self, local: usize) -> Wdl {
        match self {
            Block::Wdl(codes) => wdl_of_code(codes[local / 4] >> (2 * (local % 4)) & 3),
            Block::Dtw(block) => block.value(local).wdl(),
        }
    }

    /// The raw `u16` at offset `local` of a block of any kind but WDL (a raw
    /// [`Value`], [`crate::value::Dtc`] or [`crate::value::RuleWdl`] code); `None`
    /// for a WDL block.
    #[inline]
    pub fn raw(&self, local: usize) -> Option<u16> {
        match self {
            Block::Dtw(block) => Some(block.value(local).raw()),
            Block::Wdl(_) => None,
        }
    }

    /// Writes the raw `u16`s from offset `local` on into `out` (whose length
    /// says how many, inside the block) for a block of any kind but WDL; false
    /// for a WDL block.
    #[inline]
    pub fn raw_range(&self, local: usize, out: &mut [u16]) -> bool {
        match self {
            Block::Dtw(block) => {
                block.expand_range_into(local, out);
                true
            }
            Block::Wdl(_) => false,
        }
    }

    /// The value at offset `local` of a DTW block; `None` for a WDL block.
    #[inline]
    pub fn value(&self, local: usize) -> Option<Value> {
        match self {
            Block::Dtw(block) => Some(block.value(local)),
            Block::Wdl(_) => None,
        }
    }

    /// The heap bytes it holds (for cache budgets).
    pub fn heap_bytes(&self) -> usize {
        match self {
            Block::Wdl(codes) => codes.len(),
            Block::Dtw(block) => block.heap_bytes(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::compress::{compress, decompress};
    use crate::table::wdl::{check_wdl_codes, pack_wdl};

    #[test]
    fn wdl_codes_pack_and_check() {
        let codes: Vec<u8> = (0..103).map(|i| (i % 3) as u8).collect();
        let packed = pack_wdl(&codes);
        let raw = decompress(&compress(&packed, 3).unwrap(), packed.len()).unwrap();
        check_wdl_codes(&raw, codes.len()).unwrap();
        let block = Block::Wdl(raw.into_boxed_slice());
        for (i, &c) in codes.iter().enumerate() {
            assert_eq!(block.wdl(i), wdl_of_code(c));
        }
        assert!(check_wdl_codes(&[0b1100_0000], 4).is_err());
    }

    #[test]
    fn raw_ranges_equal_the_values_one_by_one() {
        let values: Vec<u16> = (0..500u16)
            .map(|i| if i % 7 == 3 { 300 + i } else { i % 200 })
            .collect();
        let raw = crate::table::dtw::encode_dtw(&values);
        let block = Block::Dtw(crate::table::dtw::DtwBlock::parse(raw, values.len()).unwrap());
        for (local, len) in [(0, 500), (3, 1), (4, 3), (10, 97), (499, 1), (250, 0)] {
            let mut out = vec![u16::MAX; len];
            assert!(block.raw_range(local, &mut out));
            assert_eq!(out, values[local..local + len], "{len} values at {local}");
        }
        assert!(!Block::Wdl(vec![0; 4].into_boxed_slice()).raw_range(0, &mut [0; 2]));
    }
}
