//! The DTW block codec, shared by every kind but WDL: one byte per entry, with an
//! escape to a sorted list of 16-bit values, and [`DtwBlock`], a decoded block.

use super::bytes::u32_at;
use crate::value::Value;

/// DTW entries per block (one byte each: 16 KiB decompressed, plus wide values).
pub const DTW_BLOCK_ENTRIES: u32 = 1 << 14;
/// Counted DTC entries per block: dozens per position, so larger blocks than
/// DTW's (64 KiB decompressed), which compress better (see
/// [`ValueKind::compress_block`](super::ValueKind::compress_block)).
pub const COUNTED_BLOCK_ENTRIES: u32 = 1 << 16;
/// The DTW byte that says "look the value up in the block's wide list".
pub const DTW_ESCAPE: u8 = 0xFF;

/// Encodes the raw [`Value`]s of a DTW block: one byte each (the raw value, or
/// [`DTW_ESCAPE`] for raw values of 255 and more), then a little-endian `u32` count
/// of escaped entries, then each as `u32` offset in the block and `u16` raw value,
/// by increasing offset.
pub fn encode_dtw(values: &[u16]) -> Vec<u8> {
    let escape = u16::from(DTW_ESCAPE);
    // Straight loops the compiler vectorizes: the rule build encodes every entry
    // of its counted tables, dozens per position, and most blocks have no wide
    // value, so the search for them runs only where the maximum says so.
    let mut out = Vec::with_capacity(values.len() + 4);
    out.extend(values.iter().map(|&v| v.min(escape) as u8));
    let widest = values.iter().fold(0, |m, &v| m.max(v));
    let mut wide = Vec::new();
    if widest >= escape {
        for (i, &v) in values.iter().enumerate() {
            if v >= escape {
                wide.push((i as u32, v));
            }
        }
    }
    out.extend_from_slice(&(wide.len() as u32).to_le_bytes());
    for (offset, value) in wide {
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&value.to_le_bytes());
    }
    out
}

/// The most bytes a DTW block of `entries` entries decodes to.
pub(super) fn dtw_capacity(entries: usize) -> usize {
    entries + 4 + 6 * entries
}

/// A decoded DTW block: a byte per entry and the sorted wide values.
#[derive(Debug, Clone)]
pub struct DtwBlock {
    bytes: Box<[u8]>,
    wide: Box<[(u32, u16)]>,
}

impl DtwBlock {
    /// Splits and checks a decompressed DTW block of `entries` entries: every
    /// escape byte has exactly one wide value, at increasing offsets, each wide.
    pub(super) fn parse(raw: Vec<u8>, entries: usize) -> Result<DtwBlock, String> {
        if raw.len() < entries + 4 {
            return Err(format!("{} bytes for {entries} DTW entries", raw.len()));
        }
        let count = u32_at(&raw, entries) as usize;
        let tail = &raw[entries + 4..];
        if tail.len() != 6 * count {
            return Err(format!("{} wide values in {} bytes", count, tail.len()));
        }
        let mut wide = Vec::with_capacity(count);
        for item in tail.chunks_exact(6) {
            let offset = u32_at(item, 0);
            let value = u16::from_le_bytes([item[4], item[5]]);
            let in_order = !matches!(wide.last(), Some(&(o, _)) if o >= offset);
            if !in_order
                || offset as usize >= entries
                || raw[offset as usize] != DTW_ESCAPE
                || value < DTW_ESCAPE as u16
            {
                return Err(format!("bad wide value at offset {offset}"));
            }
            wide.push((offset, value));
        }
        let escapes = raw[..entries].iter().filter(|&&b| b == DTW_ESCAPE).count();
        if escapes != count {
            return Err(format!("{escapes} escape bytes, {count} wide values"));
        }
        // A copy of exactly the entries, not `raw` shrunk in place: shrinking
        // would leave the rest of `raw`'s capacity as a hole in the heap that the
        // next block's buffer does not fit, and a table decoded a block at a time
        // would hold a hole beside each block.
        Ok(DtwBlock {
            bytes: raw[..entries].into(),
            wide: wide.into_boxed_slice(),
        })
    }

    /// The value at offset `local`.
    #[inline]
    pub fn value(&self, local: usize) -> Value {
        let byte = self.bytes[local];
        if byte != DTW_ESCAPE {
            return Value::from_raw(byte as u16);
        }
        let at = self
            .wide
            .binary_search_by_key(&(local as u32), |&(o, _)| o)
            .expect("a checked block has a wide value for every escape");
        Value::from_raw(self.wide[at].1)
    }

    /// The block's values as bytes, when none needs more than one (no escape).
    pub fn narrow(&self) -> Option<&[u8]> {
        self.wide.is_empty().then_some(&self.bytes)
    }

    /// Writes every value of the block into `out` (as long as the block).
    pub fn expand_into(&self, out: &mut [u16]) {
        self.expand_range_into(0, out);
    }

    /// Writes the values from offset `local` on into `out`, whose length says
    /// how many (they must lie inside the block).
    pub fn expand_range_into(&self, local: usize, out: &mut [u16]) {
        let end = local + out.len();
        for (o, &b) in out.iter_mut().zip(self.bytes[local..end].iter()) {
            *o = b as u16;
        }
        let first = self.wide.partition_point(|&(o, _)| (o as usize) < local);
        for &(offset, value) in self.wide[first..].iter() {
            if offset as usize >= end {
                break;
            }
            out[offset as usize - local] = value;
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the block has no entries.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The heap bytes it holds (for cache budgets): the bytes and the wide values.
    pub fn heap_bytes(&self) -> usize {
        self.bytes.len() + 8 * self.wide.len()
    }

    /// The byte of each entry: its raw value, or [`DTW_ESCAPE`] where the value
    /// needs two bytes ([`DtwBlock::value`] finds it).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The encoding as its doc comment defines it, one entry at a time.
    fn encode_by_definition(values: &[u16]) -> Vec<u8> {
        let mut out: Vec<u8> = values
            .iter()
            .map(|&v| if v >= 255 { DTW_ESCAPE } else { v as u8 })
            .collect();
        let wide: Vec<(usize, u16)> = (0..values.len())
            .filter(|&i| values[i] >= 255)
            .map(|i| (i, values[i]))
            .collect();
        out.extend_from_slice(&(wide.len() as u32).to_le_bytes());
        for (offset, value) in wide {
            out.extend_from_slice(&(offset as u32).to_le_bytes());
            out.extend_from_slice(&value.to_le_bytes());
        }
        out
    }

    proptest! {
        /// Blocks of small values (no wide value), of values up to the escape
        /// itself, and of any value encode as the definition says, and decode back.
        #[test]
        fn encoding_follows_the_definition(
            small in prop::collection::vec(0u16..255, 0..600),
            near in prop::collection::vec(250u16..=255, 0..600),
            any in prop::collection::vec(any::<u16>(), 0..600),
        ) {
            for values in [small, near, any] {
                let encoded = encode_dtw(&values);
                prop_assert_eq!(&encoded, &encode_by_definition(&values));
                let block = DtwBlock::parse(encoded, values.len()).unwrap();
                let mut decoded = vec![0; values.len()];
                block.expand_into(&mut decoded);
                prop_assert_eq!(decoded, values);
            }
        }
    }
}
