//! The table file format (version 2): compressed, checksummed blocks, read in place
//! from a memory map. `formats/FORMAT.md` specifies it byte by byte; this module is
//! its only implementation: header encoding and checks, the block table, the value
//! encodings of each [`ValueKind`], block compression, and a streaming
//! [`TableWriter`].
//!
//! Every function that reads a file checks before it trusts: lengths, offsets and
//! checksums, so a damaged or hostile file yields a [`TableFormatError`], never a
//! panic or a wrong value.

use std::cell::RefCell;
use std::io::{Seek, SeekFrom, Write};

use crate::value::{Value, Wdl};
use damka_core::position::Material;
use damka_core::slice::Slice;
use damka_core::variant::VariantKind;

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
/// Bytes per block table entry: the block's offset and its XXH3-64.
pub const BLOCK_ENTRY_LEN: usize = 16;
/// The alignment of the block table (a cache line, and a divisor of every page size).
pub const ALIGN: u64 = 64;
/// The file name extension.
pub const EXTENSION: &str = "dkt";
/// WDL entries per block (2 bits each: 16 KiB decompressed). Chosen by measurement,
/// see `formats/FORMAT.md`.
pub const WDL_BLOCK_ENTRIES: u32 = 1 << 16;
/// DTW entries per block (one byte each: 16 KiB decompressed, plus wide values).
pub const DTW_BLOCK_ENTRIES: u32 = 1 << 14;
/// The zstd level writers use for WDL blocks. Decompression speed does not depend
/// on it; see `formats/FORMAT.md` for the measured sizes and times per level (19 is
/// 1 % smaller and 3 times slower).
pub const WDL_ZSTD_LEVEL: i32 = 15;
/// The zstd level writers use for DTW blocks: lower than WDL's, because DTW
/// tables are four times larger raw; higher levels gain a few per cent for several
/// times the time.
pub const DTW_ZSTD_LEVEL: i32 = 6;
/// The DTW byte that says "look the value up in the block's wide list".
pub const DTW_ESCAPE: u8 = 0xFF;
/// The largest block a reader accepts, in entries; bounds every allocation a header
/// can ask for.
pub const MAX_BLOCK_ENTRIES: u32 = 1 << 24;

/// What a table file stores per position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// Win, draw or loss, two bits per position; capture positions hold
    /// don't-care values.
    Wdl,
    /// The full [`Value`] (WDL and DTW), one byte per position with an escape to
    /// a 16-bit value; exact for every position, capture positions included.
    Dtw,
    /// Distance to conversion under a rule set ([`crate::value::Dtc`]), encoded as
    /// [`ValueKind::Dtw`] is; exact for every position. The header names the rule
    /// set by its fingerprint.
    Dtc,
    /// The value under a rule set with fresh counters ([`crate::value::RuleWdl`]),
    /// encoded as [`ValueKind::Dtw`] is; exact for every position.
    RuleWdl,
    /// Distance to zeroing (the next capture, promotion or man move) under a rule
    /// set, a [`crate::value::Dtc`] value, encoded as [`ValueKind::Dtw`] is; exact
    /// for every position. Only materials in which a counter restarts on man moves
    /// have one.
    Dtz,
}

impl ValueKind {
    /// The code in the header's value-kind byte.
    pub fn code(self) -> u8 {
        match self {
            ValueKind::Wdl => 0,
            ValueKind::Dtw => 1,
            ValueKind::Dtc => 2,
            ValueKind::RuleWdl => 3,
            ValueKind::Dtz => 4,
        }
    }

    /// The kind with header code `code`.
    pub fn from_code(code: u8) -> Option<ValueKind> {
        match code {
            0 => Some(ValueKind::Wdl),
            1 => Some(ValueKind::Dtw),
            2 => Some(ValueKind::Dtc),
            3 => Some(ValueKind::RuleWdl),
            4 => Some(ValueKind::Dtz),
            _ => None,
        }
    }

    /// `wdl`, `dtw`, `dtc`, `rwdl` or `dtz`: the part of the file name before the
    /// extension.
    pub fn name(self) -> &'static str {
        match self {
            ValueKind::Wdl => "wdl",
            ValueKind::Dtw => "dtw",
            ValueKind::Dtc => "dtc",
            ValueKind::RuleWdl => "rwdl",
            ValueKind::Dtz => "dtz",
        }
    }

    /// The zstd level writers use for this kind.
    pub fn zstd_level(self) -> i32 {
        match self {
            ValueKind::Wdl | ValueKind::RuleWdl => WDL_ZSTD_LEVEL,
            ValueKind::Dtw | ValueKind::Dtc | ValueKind::Dtz => DTW_ZSTD_LEVEL,
        }
    }

    /// Entries per block that writers use for this kind.
    pub fn block_entries(self) -> u32 {
        match self {
            ValueKind::Wdl => WDL_BLOCK_ENTRIES,
            ValueKind::Dtw | ValueKind::Dtc | ValueKind::RuleWdl | ValueKind::Dtz => {
                DTW_BLOCK_ENTRIES
            }
        }
    }
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
}

/// Why a table file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableFormatError {
    /// Shorter than its header, its block table or a block says.
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
    /// The block table's checksum does not match.
    #[error("corrupt block table (checksum mismatch)")]
    CorruptBlockTable,
    /// A block's checksum does not match.
    #[error("corrupt block {0} (checksum mismatch)")]
    CorruptBlock(u64),
    /// The whole-file checksum does not match.
    #[error("corrupt table (whole-file checksum mismatch)")]
    CorruptFile,
    /// A block passed its checksum but does not decode to what the header says.
    #[error("undecodable block {block}: {reason}")]
    BadBlock {
        /// The block.
        block: u64,
        /// What was wrong.
        reason: String,
    },
    /// A field holds a value no writer produces.
    #[error("invalid header field: {0}")]
    Invalid(String),
}

/// The file name of a slice's table of kind `kind`, e.g. `1M2K-0M1K.wdl.dkt`.
pub fn table_file_name(slice: Slice, kind: ValueKind) -> String {
    format!("{}.{}.{EXTENSION}", slice.name(), kind.name())
}

/// The file name of the table that holds every value of `slice` exactly: its DTW
/// table.
pub fn file_name(slice: Slice) -> String {
    table_file_name(slice, ValueKind::Dtw)
}

/// The file name of a slice's table of kind `kind` built under the rule set
/// called `rules`, e.g. `1M2K-0M1K.russian.dtc.dkt`.
pub fn rule_table_file_name(slice: Slice, rules: &str, kind: ValueKind) -> String {
    format!("{}.{rules}.{}.{EXTENSION}", slice.name(), kind.name())
}

/// The slice and kind a table file name stands for, if it is one.
pub fn parse_file_name(name: &str) -> Option<(Slice, ValueKind)> {
    let stem = name.strip_suffix(EXTENSION)?.strip_suffix('.')?;
    for kind in [ValueKind::Wdl, ValueKind::Dtw] {
        if let Some(slice) = stem
            .strip_suffix(kind.name())
            .and_then(|s| s.strip_suffix('.'))
        {
            return slice.parse().ok().map(|slice| (slice, kind));
        }
    }
    None
}

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

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
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
        // 20: layout 0 (whole slice, index order); 21: encoding 0; 22: compression
        // 1 (zstd); 23: dictionary 0 (none).
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
        if layout != 0 || encoding != 0 || compression != 1 || dictionary != 0 {
            return Err(TableFormatError::Version(format!(
                "layout {layout}, encoding {encoding}, compression {compression}, dictionary \
                 {dictionary}; this program reads 0, 0, 1, 0"
            )));
        }
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

    /// Checks that `file` has the length the header says and that its block table
    /// is intact and well formed (offsets within the file, in order). Cheap: reads
    /// only the header and the block table, so a reader calls it on opening.
    pub fn check_layout(&self, file: &[u8]) -> Result<(), TableFormatError> {
        if file.len() as u64 != self.file_len() {
            return Err(TableFormatError::Truncated(format!(
                "{} bytes, the header says {}",
                file.len(),
                self.file_len()
            )));
        }
        let table = &file[self.table_offset as usize..];
        if hash(table) != self.table_hash {
            return Err(TableFormatError::CorruptBlockTable);
        }
        let mut previous = HEADER_LEN as u64;
        for entry in table.chunks_exact(BLOCK_ENTRY_LEN) {
            let offset = u64_at(entry, 0);
            if offset < previous || offset > self.table_offset {
                return Err(TableFormatError::Invalid(format!(
                    "block offset {offset} out of order or outside the blocks"
                )));
            }
            previous = offset;
        }
        let padding = &file[previous as usize..self.table_offset as usize];
        if padding.len() as u64 >= ALIGN || padding.iter().any(|&b| b != 0) {
            return Err(TableFormatError::Invalid(
                "bad padding between the last block and the block table".into(),
            ));
        }
        Ok(())
    }

    /// The compressed bytes of block `block`, after checking its checksum. `file`
    /// must have passed [`TableHeader::check_layout`]; bounds are checked again
    /// anyway, so a violated precondition gives an error, not a panic.
    pub fn block<'a>(&self, file: &'a [u8], block: u64) -> Result<&'a [u8], TableFormatError> {
        if block >= self.blocks() || file.len() as u64 != self.file_len() {
            return Err(TableFormatError::Invalid(format!("block {block}")));
        }
        let entry = self.table_offset as usize + block as usize * BLOCK_ENTRY_LEN;
        let start = u64_at(file, entry);
        let stored_hash = u64_at(file, entry + 8);
        let end = u64_at(file, entry + BLOCK_ENTRY_LEN);
        if start > end || end > self.table_offset {
            return Err(TableFormatError::Invalid(format!("block {block} bounds")));
        }
        let bytes = &file[start as usize..end as usize];
        if hash(bytes) != stored_hash {
            return Err(TableFormatError::CorruptBlock(block));
        }
        Ok(bytes)
    }

    /// Checks every block's checksum and the whole-file checksum.
    pub fn check_all(&self, file: &[u8]) -> Result<(), TableFormatError> {
        self.check_layout(file)?;
        for block in 0..self.blocks() {
            self.block(file, block)?;
        }
        if hash(&file[HEADER_LEN..]) != self.file_hash {
            return Err(TableFormatError::CorruptFile);
        }
        Ok(())
    }

    /// Decompresses and decodes block `block` of `file` (see [`TableHeader::block`]
    /// for the checks).
    pub fn decode_block(&self, file: &[u8], block: u64) -> Result<Block, TableFormatError> {
        let compressed = self.block(file, block)?;
        let entries = self.entries_in(block);
        let bad = |reason: String| TableFormatError::BadBlock { block, reason };
        match self.kind {
            ValueKind::Wdl => {
                let raw = decompress(compressed, entries.div_ceil(4)).map_err(bad)?;
                check_wdl_codes(&raw, entries).map_err(bad)?;
                Ok(Block::Wdl(raw.into_boxed_slice()))
            }
            ValueKind::Dtw | ValueKind::Dtc | ValueKind::RuleWdl | ValueKind::Dtz => {
                let raw = decompress(compressed, dtw_capacity(entries)).map_err(bad)?;
                DtwBlock::parse(raw, entries).map(Block::Dtw).map_err(bad)
            }
        }
    }
}

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
fn check_wdl_codes(raw: &[u8], entries: usize) -> Result<(), String> {
    if raw.len() != entries.div_ceil(4) {
        return Err(format!("{} bytes for {entries} WDL entries", raw.len()));
    }
    // Code 3 is the only code with both bits set.
    if raw.iter().any(|&b| b & (b >> 1) & 0x55 != 0) {
        return Err("invalid WDL code 3".into());
    }
    Ok(())
}

/// Encodes the raw [`Value`]s of a DTW block: one byte each (the raw value, or
/// [`DTW_ESCAPE`] for raw values of 255 and more), then a little-endian `u32` count
/// of escaped entries, then each as `u32` offset in the block and `u16` raw value,
/// by increasing offset.
pub fn encode_dtw(values: &[u16]) -> Vec<u8> {
    let mut out: Vec<u8> = values
        .iter()
        .map(|&v| {
            if v >= DTW_ESCAPE as u16 {
                DTW_ESCAPE
            } else {
                v as u8
            }
        })
        .collect();
    let wide: Vec<(u32, u16)> = values
        .iter()
        .enumerate()
        .filter(|(_, &v)| v >= DTW_ESCAPE as u16)
        .map(|(i, &v)| (i as u32, v))
        .collect();
    out.extend_from_slice(&(wide.len() as u32).to_le_bytes());
    for (offset, value) in wide {
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&value.to_le_bytes());
    }
    out
}

/// The most bytes a DTW block of `entries` entries decodes to.
fn dtw_capacity(entries: usize) -> usize {
    entries + 4 + 6 * entries
}

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
            Block::Dtw(block) => block.bytes.len() + 8 * block.wide.len(),
        }
    }
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
    fn parse(mut raw: Vec<u8>, entries: usize) -> Result<DtwBlock, String> {
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
        raw.truncate(entries);
        Ok(DtwBlock {
            bytes: raw.into_boxed_slice(),
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
        for (o, &b) in out.iter_mut().zip(self.bytes.iter()) {
            *o = b as u16;
        }
        for &(offset, value) in self.wide.iter() {
            out[offset as usize] = value;
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
}

thread_local! {
    /// One zstd decompression context per thread, reused: creating one costs more
    /// than decompressing a small block.
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { RefCell::new(None) };
}

/// Decompresses a block that must decode to at most `capacity` bytes.
pub fn decompress(compressed: &[u8], capacity: usize) -> Result<Vec<u8>, String> {
    // Writers record the decompressed size in the frame: allocate just that.
    let capacity = match zstd::zstd_safe::get_frame_content_size(compressed) {
        Ok(Some(size)) if size <= capacity as u64 => size as usize,
        Ok(Some(size)) => {
            return Err(format!(
                "frame of {size} bytes, at most {capacity} expected"
            ))
        }
        _ => capacity,
    };
    DECOMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(zstd::bulk::Decompressor::new().map_err(|e| e.to_string())?);
        }
        let decompressor = slot.as_mut().expect("just created");
        let mut out = Vec::with_capacity(capacity);
        decompressor
            .decompress_to_buffer(compressed, &mut out)
            .map_err(|e| format!("zstd: {e}"))?;
        Ok(out)
    })
}

/// Compresses one block's raw bytes with zstd at `level`, without zstd's own
/// checksum (the block table holds an XXH3 of the compressed bytes).
pub fn compress(raw: &[u8], level: i32) -> std::io::Result<Vec<u8>> {
    let mut compressor = zstd::bulk::Compressor::new(level)?;
    compressor.include_checksum(false)?;
    compressor.compress(raw)
}

/// Writes a table file block by block: the blocks as they come, then the block
/// table, then the header over the placeholder at the start. Holds only the
/// block table in memory.
pub struct TableWriter<W: Write + Seek> {
    out: W,
    header: TableHeader,
    table: Vec<u8>,
    position: u64,
    file_hasher: Hasher,
}

impl<W: Write + Seek> TableWriter<W> {
    /// Starts a table of `entries` entries for `slice` in `out`, with the block
    /// size of `kind`.
    pub fn new(
        mut out: W,
        variant: VariantKind,
        slice: Slice,
        kind: ValueKind,
        entries: u64,
    ) -> std::io::Result<TableWriter<W>> {
        out.write_all(&[0u8; HEADER_LEN])?;
        Ok(TableWriter {
            out,
            header: TableHeader {
                variant,
                slice,
                kind,
                entries,
                block_entries: kind.block_entries(),
                table_offset: 0,
                table_hash: 0,
                file_hash: 0,
                rules: 0,
            },
            table: Vec::new(),
            position: HEADER_LEN as u64,
            file_hasher: Hasher::default(),
        })
    }

    /// Records the fingerprint of the rule set the table is built under.
    pub fn set_rules(&mut self, fingerprint: u64) {
        self.header.rules = fingerprint;
    }

    /// Entries per block: every block but the last must hold exactly this many.
    pub fn block_entries(&self) -> u32 {
        self.header.block_entries
    }

    /// Appends the next block, compressed.
    pub fn push_block(&mut self, compressed: &[u8]) -> std::io::Result<()> {
        self.table.extend_from_slice(&self.position.to_le_bytes());
        self.table
            .extend_from_slice(&hash(compressed).to_le_bytes());
        self.out.write_all(compressed)?;
        self.file_hasher.update(compressed);
        self.position += compressed.len() as u64;
        Ok(())
    }

    /// Writes the block table and the header; returns the output and the header.
    pub fn finish(mut self) -> std::io::Result<(W, TableHeader)> {
        if (self.table.len() / BLOCK_ENTRY_LEN) as u64 != self.header.blocks() {
            return Err(std::io::Error::other(format!(
                "{} blocks written, the table has {}",
                self.table.len() / BLOCK_ENTRY_LEN,
                self.header.blocks()
            )));
        }
        self.table.extend_from_slice(&self.position.to_le_bytes());
        self.table.extend_from_slice(&0u64.to_le_bytes());
        let padding = vec![0u8; (self.position.next_multiple_of(ALIGN) - self.position) as usize];
        self.out.write_all(&padding)?;
        self.file_hasher.update(&padding);
        self.out.write_all(&self.table)?;
        self.file_hasher.update(&self.table);
        self.header.table_offset = self.position + padding.len() as u64;
        self.header.table_hash = hash(&self.table);
        self.header.file_hash = self.file_hasher.finish();
        self.out.seek(SeekFrom::Start(0))?;
        self.out.write_all(&self.header.encode())?;
        self.out.flush()?;
        Ok((self.out, self.header))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn dtw_values(n: usize) -> Vec<u16> {
        (0..n).map(|i| ((i * 37) % 300) as u16).collect()
    }

    /// A DTW table of `n` entries, written in blocks of [`DTW_BLOCK_ENTRIES`].
    fn sample(n: usize) -> (Vec<u16>, Vec<u8>) {
        let values = dtw_values(n);
        let mut writer = TableWriter::new(
            Cursor::new(Vec::new()),
            VariantKind::Russian,
            "0M2K-0M1K".parse().unwrap(),
            ValueKind::Dtw,
            n as u64,
        )
        .unwrap();
        for chunk in values.chunks(writer.block_entries() as usize) {
            writer
                .push_block(&compress(&encode_dtw(chunk), 3).unwrap())
                .unwrap();
        }
        let (out, _) = writer.finish().unwrap();
        (values, out.into_inner())
    }

    #[test]
    fn tables_round_trip() {
        let (values, file) = sample(40_000);
        let header = TableHeader::decode(&file).unwrap();
        header.check_all(&file).unwrap();
        assert_eq!(header.blocks(), 3);
        assert_eq!(file.len() as u64, header.file_len());
        assert_eq!(header.table_offset % ALIGN, 0);
        for block in 0..header.blocks() {
            let decoded = header.decode_block(&file, block).unwrap();
            let start = block as usize * DTW_BLOCK_ENTRIES as usize;
            for local in 0..header.entries_in(block) {
                assert_eq!(decoded.value(local).unwrap().raw(), values[start + local]);
            }
        }
    }

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
    fn file_names_round_trip() {
        let slice: Slice = "1M2K-0M1K".parse().unwrap();
        for kind in [ValueKind::Wdl, ValueKind::Dtw] {
            let name = table_file_name(slice, kind);
            assert_eq!(parse_file_name(&name), Some((slice, kind)));
        }
        assert_eq!(table_file_name(slice, ValueKind::Wdl), "1M2K-0M1K.wdl.dkt");
        assert_eq!(file_name(slice), "1M2K-0M1K.dtw.dkt");
        assert_eq!(parse_file_name("1M2K-0M1K.dkt"), None);
        assert_eq!(parse_file_name("1M2K-0M1K.wdl.dkt.tmp"), None);
    }

    /// What the fuzz target does: every check and decode of a damaged file returns,
    /// and a block that decodes after damage is one the damage did not touch.
    fn read_everything(bytes: &[u8]) -> Result<(), TableFormatError> {
        let header = TableHeader::decode(bytes)?;
        header.check_layout(bytes)?;
        for block in 0..header.blocks() {
            header.decode_block(bytes, block)?;
        }
        header.check_all(bytes)
    }

    proptest::proptest! {
        #[test]
        fn damaged_files_are_rejected_without_panics(
            flips in proptest::collection::vec((0usize..1 << 20, 1u8..=255), 0..4),
            cut in 0usize..1 << 20,
        ) {
            let (_, file) = sample(40_000);
            let mut bytes = file.clone();
            for &(at, mask) in &flips {
                let at = at % bytes.len();
                bytes[at] ^= mask;
            }
            bytes.truncate(cut.max(bytes.len() / 2) % (bytes.len() + 1));
            let result = read_everything(&bytes);
            proptest::prop_assert_eq!(result.is_ok(), bytes == file);
        }
    }

    #[test]
    fn damage_is_detected() {
        let (_, file) = sample(40_000);
        let header = TableHeader::decode(&file).unwrap();
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
        bad[HEADER_LEN + 5] ^= 1;
        assert_eq!(
            header.decode_block(&bad, 0).unwrap_err(),
            TableFormatError::CorruptBlock(0)
        );
        assert_eq!(
            header.check_all(&bad),
            Err(TableFormatError::CorruptBlock(0))
        );
        let mut bad = file.clone();
        let last = bad.len() - 20;
        bad[last] ^= 1;
        assert_eq!(
            header.check_layout(&bad),
            Err(TableFormatError::CorruptBlockTable)
        );
        assert!(matches!(
            header.check_layout(&file[..file.len() - 1]),
            Err(TableFormatError::Truncated(_))
        ));
        let mut old = file.clone();
        old[0..8].copy_from_slice(b"DAMKATB1");
        assert!(matches!(
            TableHeader::decode(&old),
            Err(TableFormatError::Version(_))
        ));
    }
}
