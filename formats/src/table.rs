//! The simple, uncompressed table file (format version 1).
//!
//! One file per slice, named `<slice>.dkt` (for example `1M2K-0M1K.dkt`), in a
//! directory per variant. All integers are little-endian.
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0      | 8    | magic `DAMKATB1` |
//! | 8      | 4    | format version (1) |
//! | 12     | 1    | variant: 0 Russian, 1 International |
//! | 13     | 1    | value kind: 0 WDL+DTW as [`crate::value::Value`] |
//! | 14     | 2    | index scheme version ([`INDEX_SCHEME`]) |
//! | 16     | 4    | material: white men, white kings, black men, black kings |
//! | 20     | 4    | reserved, zero |
//! | 24     | 8    | number of entries |
//! | 32     | 8    | XXH3-64 of the payload |
//! | 40     | 8    | XXH3-64 of bytes 0..40 |
//! | 48     | 16   | reserved, zero |
//! | 64     | 2·n  | payload: one `u16` value per index |
//!
//! The payload starts at a 64-byte boundary so a memory map can be read in place.

use crate::position::Material;
use crate::slice::Slice;
use crate::variant::VariantKind;

/// The magic bytes at the start of every table file.
pub const MAGIC: [u8; 8] = *b"DAMKATB1";
/// The format version this code writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// The version of the index scheme of [`crate::index`]; a file built with another
/// scheme numbers its positions differently and must not be read.
pub const INDEX_SCHEME: u16 = 1;
/// The header length; the payload starts here.
pub const HEADER_LEN: usize = 64;
/// The file name extension.
pub const EXTENSION: &str = "dkt";

/// What a table file stores per position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// WDL and DTW as one [`crate::value::Value`] per position.
    WdlDtw,
}

/// The facts a table header records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableHeader {
    /// The variant the table belongs to.
    pub variant: VariantKind,
    /// The slice it covers.
    pub slice: Slice,
    /// What it stores.
    pub kind: ValueKind,
    /// The number of entries (the slice's index size).
    pub entries: u64,
    /// XXH3-64 of the payload bytes.
    pub payload_hash: u64,
}

/// Why a table file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableFormatError {
    /// Shorter than its header or its payload.
    #[error("truncated table: {0}")]
    Truncated(String),
    /// Not a Damka table.
    #[error("not a Damka table (bad magic bytes)")]
    BadMagic,
    /// Written by another format or index scheme version.
    #[error("unsupported version: {0}")]
    Version(String),
    /// The header's checksum does not match.
    #[error("corrupt table header (checksum mismatch)")]
    CorruptHeader,
    /// The payload's checksum does not match.
    #[error("corrupt table payload (checksum mismatch)")]
    CorruptPayload,
    /// A field holds a value no writer produces.
    #[error("invalid header field: {0}")]
    Invalid(String),
}

/// The file name of a slice's table.
pub fn file_name(slice: Slice) -> String {
    format!("{}.{EXTENSION}", slice.name())
}

/// The XXH3-64 hash used for every checksum.
pub fn hash(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// An incremental [`hash`], for writers that stream the payload.
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

impl TableHeader {
    /// Encodes the header into its 64 bytes.
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        out[0..8].copy_from_slice(&MAGIC);
        out[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        out[12] = match self.variant {
            VariantKind::Russian => 0,
            VariantKind::International => 1,
        };
        out[13] = match self.kind {
            ValueKind::WdlDtw => 0,
        };
        out[14..16].copy_from_slice(&INDEX_SCHEME.to_le_bytes());
        let m = self.slice.material();
        out[16] = m.white_men as u8;
        out[17] = m.white_kings as u8;
        out[18] = m.black_men as u8;
        out[19] = m.black_kings as u8;
        out[24..32].copy_from_slice(&self.entries.to_le_bytes());
        out[32..40].copy_from_slice(&self.payload_hash.to_le_bytes());
        let header_hash = hash(&out[0..40]);
        out[40..48].copy_from_slice(&header_hash.to_le_bytes());
        out
    }

    /// Decodes and checks a header from the start of a file.
    pub fn decode(bytes: &[u8]) -> Result<TableHeader, TableFormatError> {
        if bytes.len() < HEADER_LEN {
            return Err(TableFormatError::Truncated(format!(
                "{} bytes, shorter than the {HEADER_LEN}-byte header",
                bytes.len()
            )));
        }
        if bytes[0..8] != MAGIC {
            return Err(TableFormatError::BadMagic);
        }
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        if hash(&bytes[0..40]) != u64_at(40) {
            return Err(TableFormatError::CorruptHeader);
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
        if version != FORMAT_VERSION {
            return Err(TableFormatError::Version(format!(
                "format {version}, this program reads {FORMAT_VERSION}"
            )));
        }
        let scheme = u16::from_le_bytes(bytes[14..16].try_into().unwrap());
        if scheme != INDEX_SCHEME {
            return Err(TableFormatError::Version(format!(
                "index scheme {scheme}, this program uses {INDEX_SCHEME}"
            )));
        }
        let variant = match bytes[12] {
            0 => VariantKind::Russian,
            1 => VariantKind::International,
            v => return Err(TableFormatError::Invalid(format!("variant code {v}"))),
        };
        let kind = match bytes[13] {
            0 => ValueKind::WdlDtw,
            v => return Err(TableFormatError::Invalid(format!("value kind {v}"))),
        };
        let material = Material {
            white_men: bytes[16] as u32,
            white_kings: bytes[17] as u32,
            black_men: bytes[18] as u32,
            black_kings: bytes[19] as u32,
        };
        let slice = Slice::from_material(material)
            .map_err(|e| TableFormatError::Invalid(format!("material: {e}")))?;
        Ok(TableHeader {
            variant,
            slice,
            kind,
            entries: u64_at(24),
            payload_hash: u64_at(32),
        })
    }

    /// The payload length in bytes.
    pub fn payload_len(&self) -> u64 {
        self.entries * 2
    }

    /// Checks that `file` (header and payload) is whole and its payload hash matches.
    pub fn check_payload(&self, file: &[u8]) -> Result<(), TableFormatError> {
        let expected = HEADER_LEN as u64 + self.payload_len();
        if (file.len() as u64) != expected {
            return Err(TableFormatError::Truncated(format!(
                "{} bytes, expected {expected}",
                file.len()
            )));
        }
        if hash(&file[HEADER_LEN..]) != self.payload_hash {
            return Err(TableFormatError::CorruptPayload);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (TableHeader, Vec<u8>) {
        let payload: Vec<u8> = (0u16..100).flat_map(|v| v.to_le_bytes()).collect();
        let header = TableHeader {
            variant: VariantKind::Russian,
            slice: "0M2K-0M1K".parse().unwrap(),
            kind: ValueKind::WdlDtw,
            entries: 100,
            payload_hash: hash(&payload),
        };
        let mut file = header.encode().to_vec();
        file.extend_from_slice(&payload);
        (header, file)
    }

    #[test]
    fn header_round_trips_and_checks() {
        let (header, file) = sample();
        assert_eq!(TableHeader::decode(&file).unwrap(), header);
        header.check_payload(&file).unwrap();
    }

    #[test]
    fn damage_is_detected() {
        let (header, file) = sample();
        assert!(matches!(
            TableHeader::decode(&file[..10]),
            Err(TableFormatError::Truncated(_))
        ));
        let mut bad = file.clone();
        bad[0] = b'X';
        assert_eq!(TableHeader::decode(&bad), Err(TableFormatError::BadMagic));
        let mut bad = file.clone();
        bad[17] ^= 1;
        assert_eq!(
            TableHeader::decode(&bad),
            Err(TableFormatError::CorruptHeader)
        );
        let mut bad = file.clone();
        bad[100] ^= 1;
        assert_eq!(
            header.check_payload(&bad),
            Err(TableFormatError::CorruptPayload)
        );
        assert!(matches!(
            header.check_payload(&file[..150]),
            Err(TableFormatError::Truncated(_))
        ));
    }
}
