//! The checksum of the table format: XXH3-64, over the header, the block table,
//! every compressed block and the whole file after the header.

/// The XXH3-64 hash used for every checksum.
pub fn hash(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// An incremental [`hash`], for writers that stream.
#[derive(Default, Clone)]
pub struct Hasher(xxhash_rust::xxh3::Xxh3);

impl Hasher {
    /// Feeds more bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The hash of everything fed so far.
    pub fn finish(&self) -> u64 {
        self.0.digest()
    }
}
