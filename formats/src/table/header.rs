//! The table header: its [`HEADER_LEN`] bytes at the start of every file, how they
//! encode a [`TableHeader`], and the checks of decoding (magic bytes, header
//! checksum, versions, every field's range). Also what the header says about the
//! file's shape: the number of blocks, entries per block and the file's length.

use damka_core::position::Material;
use damka_core::slice::Slice;
use damka_core::variant::VariantKind;

use super::bytes::{u32_at, u64_at};
use super::checksum::hash;
use super::encoding::Encoding;
use super::error::TableFormatError;
use super::kind::ValueKind;
use super::layout::{ALIGN, BLOCK_ENTRY_LEN, MAX_BLOCK_ENTRIES};

/// The magic bytes at the start of every table file.
pub const MAGIC: [u8; 8] = *b"DAMKA-TB";
/// The magic bytes of the retired uncompressed format 1, recognised only to say so.
const MAGIC_V1: [u8; 8] = *b"DAMKATB1";
/// The format version this code writes and reads.
pub const FORMAT_VERSION: u32 = 2;
/// The version of the index scheme of [`damka_core::index`]; a file built with another
/// scheme numbers its positions differently and must not be read.
pub const INDEX_SCHEME: u16 = 1;
/// The header length; the first block starts here.
pub const HEADER_LEN: usize = 128;

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
    /// Entries per block; the last block may hold fewer.
    pub block_entries: u32,
    /// Where the block table starts (a multiple of [`ALIGN`]).
    pub table_offset: u64,
    /// XXH3-64 of the block table.
    pub table_hash: u64,
    /// XXH3-64 of every byte after the header: the blocks, padding and block table.
    pub file_hash: u64,
    /// The fingerprint of the rule set a [`ValueKind::Dtc`] or
    /// [`ValueKind::RuleWdl`] table was built under; 0 for the other kinds.
    pub rules: u64,
    /// Which entries hold their exact values.
    pub encoding: Encoding,
}

impl TableHeader {
    /// The number of blocks.
    pub fn blocks(&self) -> u64 {
        self.entries.div_ceil(self.block_entries as u64)
    }

    /// The number of entries in block `block`.
    pub fn entries_in(&self, block: u64) -> usize {
        let start = block * self.block_entries as u64;
        (self.entries - start).min(self.block_entries as u64) as usize
    }

    /// The file's length: the block table ends it.
    pub fn file_len(&self) -> u64 {
        self.table_offset + (self.blocks() + 1) * BLOCK_ENTRY_LEN as u64
    }

    /// Encodes the header into its [`HEADER_LEN`] bytes.
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        out[0..8].copy_from_slice(&MAGIC);
        out[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        out[12] = match self.variant {
            VariantKind::Russian => 0,
            VariantKind::International => 1,
        };
        out[13] = self.kind.code();
        out[14..16].copy_from_slice(&INDEX_SCHEME.to_le_bytes());
        let m = self.slice.material();
        out[16] = m.white_men as u8;
        out[17] = m.white_kings as u8;
        out[18] = m.black_men as u8;
        out[19] = m.black_kings as u8;
        // 20: layout 0 (whole slice, index order); 22: compression 1 (zstd); 23:
        // dictionary 0 (none).
        out[21] = self.encoding.code();
        out[22] = 1;
        out[24..32].copy_from_slice(&self.entries.to_le_bytes());
        out[32..36].copy_from_slice(&self.block_entries.to_le_bytes());
        out[36..40].copy_from_slice(&(self.blocks() as u32).to_le_bytes());
        out[40..48].copy_from_slice(&self.table_offset.to_le_bytes());
        out[48..56].copy_from_slice(&self.table_hash.to_le_bytes());
        out[56..64].copy_from_slice(&self.file_hash.to_le_bytes());
        out[64..72].copy_from_slice(&self.rules.to_le_bytes());
        let header_hash = hash(&out[0..HEADER_LEN - 8]);
        out[HEADER_LEN - 8..].copy_from_slice(&header_hash.to_le_bytes());
        out
    }

    /// Decodes and checks a header from the start of a file: magic bytes, header
    /// checksum, versions and every field's range. Does not look past the header.
    pub fn decode(bytes: &[u8]) -> Result<TableHeader, TableFormatError> {
        if bytes.len() >= 8 && bytes[0..8] == MAGIC_V1 {
            return Err(TableFormatError::Version(format!(
                "format 1 (uncompressed), this program reads {FORMAT_VERSION}; rebuild the table"
            )));
        }
        if bytes.len() < HEADER_LEN {
            return Err(TableFormatError::Truncated(format!(
                "{} bytes, shorter than the {HEADER_LEN}-byte header",
                bytes.len()
            )));
        }
        if bytes[0..8] != MAGIC {
            return Err(TableFormatError::BadMagic);
        }
        if hash(&bytes[0..HEADER_LEN - 8]) != u64_at(bytes, HEADER_LEN - 8) {
            return Err(TableFormatError::CorruptHeader);
        }
        let version = u32_at(bytes, 8);
        if version != FORMAT_VERSION {
            return Err(TableFormatError::Version(format!(
                "format {version}, this program reads {FORMAT_VERSION}"
            )));
        }
        let scheme = u16::from_le_bytes([bytes[14], bytes[15]]);
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
        let kind = ValueKind::from_code(bytes[13])
            .ok_or_else(|| TableFormatError::Invalid(format!("value kind {}", bytes[13])))?;
        let (layout, encoding, compression, dictionary) =
            (bytes[20], bytes[21], bytes[22], bytes[23]);
        if layout != 0 || compression != 1 || dictionary != 0 {
            return Err(TableFormatError::Version(format!(
                "layout {layout}, compression {compression}, dictionary {dictionary}; this \
                 program reads 0, 1, 0"
            )));
        }
        let encoding = Encoding::from_code(encoding, kind).ok_or_else(|| {
            TableFormatError::Version(format!(
                "entry encoding {encoding} for a {} table; this program reads 0, and 1 for DTW",
                kind.name()
            ))
        })?;
        let material = Material {
            white_men: bytes[16] as u32,
            white_kings: bytes[17] as u32,
            black_men: bytes[18] as u32,
            black_kings: bytes[19] as u32,
        };
        let slice = Slice::from_material(material)
            .map_err(|e| TableFormatError::Invalid(format!("material: {e}")))?;
        let header = TableHeader {
            variant,
            slice,
            kind,
            entries: u64_at(bytes, 24),
            block_entries: u32_at(bytes, 32),
            table_offset: u64_at(bytes, 40),
            table_hash: u64_at(bytes, 48),
            file_hash: u64_at(bytes, 56),
            rules: u64_at(bytes, 64),
            encoding,
        };
        if header.block_entries == 0
            || header.block_entries > MAX_BLOCK_ENTRIES
            || header.block_entries % 4 != 0
        {
            return Err(TableFormatError::Invalid(format!(
                "{} entries per block",
                header.block_entries
            )));
        }
        if header.blocks() != u32_at(bytes, 36) as u64 {
            return Err(TableFormatError::Invalid(format!(
                "{} blocks for {} entries of {} per block",
                u32_at(bytes, 36),
                header.entries,
                header.block_entries
            )));
        }
        if header.table_offset < HEADER_LEN as u64
            || header.table_offset % ALIGN != 0
            || header.table_offset > 1 << 56
        {
            return Err(TableFormatError::Invalid(format!(
                "block table offset {}",
                header.table_offset
            )));
        }
        Ok(header)
    }
}
