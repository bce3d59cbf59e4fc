//! Reading a table file in place, as methods of the [`TableHeader`] decoded from its
//! start: the checks of its layout and block table, of each block and of the whole
//! file, and the decoding of a block into a [`Block`].

use super::block::Block;
use super::bytes::u64_at;
use super::checksum::hash;
use super::compress::decompress;
use super::dtw::{dtw_capacity, DtwBlock};
use super::error::TableFormatError;
use super::header::{TableHeader, HEADER_LEN};
use super::kind::ValueKind;
use super::layout::{ALIGN, BLOCK_ENTRY_LEN};
use super::wdl::check_wdl_codes;

impl TableHeader {
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
        let bounds = self.block_bounds(file, block)?;
        let entry = self.table_offset as usize + block as usize * BLOCK_ENTRY_LEN;
        let stored_hash = u64_at(file, entry + 8);
        let bytes = &file[bounds];
        if hash(bytes) != stored_hash {
            return Err(TableFormatError::CorruptBlock(block));
        }
        Ok(bytes)
    }

    /// Where the compressed bytes of block `block` lie in `file` (not checked
    /// against the block's checksum). `file` must have passed
    /// [`TableHeader::check_layout`]; bounds are checked again anyway.
    pub fn block_bounds(
        &self,
        file: &[u8],
        block: u64,
    ) -> Result<std::ops::Range<usize>, TableFormatError> {
        if block >= self.blocks() || file.len() as u64 != self.file_len() {
            return Err(TableFormatError::Invalid(format!("block {block}")));
        }
        let entry = self.table_offset as usize + block as usize * BLOCK_ENTRY_LEN;
        let start = u64_at(file, entry);
        let end = u64_at(file, entry + BLOCK_ENTRY_LEN);
        if start > end || end > self.table_offset {
            return Err(TableFormatError::Invalid(format!("block {block} bounds")));
        }
        Ok(start as usize..end as usize)
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
            ValueKind::Dtw
            | ValueKind::Dtc
            | ValueKind::RuleWdl
            | ValueKind::Dtz
            | ValueKind::CountedDtc
            | ValueKind::Mtc => {
                let raw = decompress(compressed, dtw_capacity(entries)).map_err(bad)?;
                DtwBlock::parse(raw, entries).map(Block::Dtw).map_err(bad)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::compress::compress;
    use crate::table::dtw::{encode_dtw, DTW_BLOCK_ENTRIES};
    use crate::table::encoding::Encoding;
    use crate::table::writer::TableWriter;
    use damka_core::variant::VariantKind;
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

    /// `file` with header byte `at` set to `value` and the header checksum
    /// made right again.
    fn with_header_byte(file: &[u8], at: usize, value: u8) -> Vec<u8> {
        let mut bytes = file.to_vec();
        bytes[at] = value;
        let hash = crate::table::checksum::hash(&bytes[..HEADER_LEN - 8]);
        bytes[HEADER_LEN - 8..HEADER_LEN].copy_from_slice(&hash.to_le_bytes());
        bytes
    }

    #[test]
    fn the_entry_encoding_is_recorded_and_checked() {
        let (_, file) = sample(100);
        assert_eq!(file[21], 0);
        assert_eq!(
            TableHeader::decode(&file).unwrap().encoding,
            Encoding::Exact
        );
        let compact = with_header_byte(&file, 21, 1);
        let header = TableHeader::decode(&compact).unwrap();
        assert_eq!(header.encoding, Encoding::Compact);
        assert_eq!(header.encode().as_slice(), &compact[..HEADER_LEN]);
        // Compact is for DTW files only; 2 is no encoding at all.
        let wdl = with_header_byte(&compact, 13, ValueKind::Wdl.code());
        let unknown = with_header_byte(&file, 21, 2);
        for bad in [wdl, unknown] {
            match TableHeader::decode(&bad) {
                Err(TableFormatError::Version(reason)) => {
                    assert!(reason.contains("entry encoding"), "{reason}")
                }
                other => panic!("{other:?}"),
            }
        }
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
