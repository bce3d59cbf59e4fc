//! Little-endian fields read from a byte slice, as the header, the block table and
//! DTW blocks store them. The callers check the bounds first.

/// The little-endian `u64` at `bytes[at..at + 8]`.
pub(super) fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// The little-endian `u32` at `bytes[at..at + 4]`.
pub(super) fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}
