//! Writing a table file, [`TableWriter`]: streaming, block by block.

use std::io::{Seek, SeekFrom, Write};

use damka_core::slice::Slice;
use damka_core::variant::VariantKind;

use super::checksum::{hash, Hasher};
use super::encoding::Encoding;
use super::header::{TableHeader, HEADER_LEN};
use super::kind::ValueKind;
use super::layout::{ALIGN, BLOCK_ENTRY_LEN};

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
                encoding: Encoding::Exact,
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

    /// Records which entries the table stores exactly (by default, all).
    pub fn set_encoding(&mut self, encoding: Encoding) {
        self.header.encoding = encoding;
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
