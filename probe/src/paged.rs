//! A DTW table decoded a block at a time, on first use, under a shared byte
//! budget: how the generator reads the dependencies of a group too large for
//! them to be decoded whole (International 7 pieces).
//!
//! The blocks of the file are the pages. A page is decoded the first time one of
//! its entries is asked for ([`PagedValues::load`]) and stays until
//! [`PagedValues::release`], which the generator calls between sub-slices, when
//! no thread reads: the conversions from one sub-slice reach only part of each
//! dependency, so a sub-slice at a time holds only that part.
//!
//! A page is a `OnceLock`, so once decoded it is read with one atomic load and
//! no lock. Loading can fail (a corrupt block, or the budget spent): the page
//! then reads as a draw, and the failure is kept for the caller to collect with
//! [`PagedValues::release`] or [`PageBudget::failure`] before trusting anything it
//! computed.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use damka_formats::table::{Block, DtwBlock};

use crate::error::ProbeError;
use crate::table::TableFile;

/// The bytes that the pages of several tables may take together, and the first
/// failure of any of them.
#[derive(Debug)]
pub struct PageBudget {
    /// At most this many bytes of decoded pages at once.
    limit: u64,
    /// Bytes of decoded pages now.
    used: AtomicU64,
    /// The most bytes held at once since the budget was made.
    peak: AtomicU64,
    /// Bytes of the pages that did not fit since the budget was made.
    shortfall: AtomicU64,
    /// The first page that could not be decoded, and why.
    failure: Mutex<Option<ProbeError>>,
}

impl PageBudget {
    /// A budget of `limit` bytes of decoded pages.
    pub fn new(limit: u64) -> PageBudget {
        PageBudget {
            limit,
            used: AtomicU64::new(0),
            peak: AtomicU64::new(0),
            shortfall: AtomicU64::new(0),
            failure: Mutex::new(None),
        }
    }

    /// The most bytes of decoded pages held at once so far.
    pub fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }

    /// Why some page could not be loaded since the budget was made: the first
    /// block that could not be decoded, else the budget spent (with the bytes of
    /// every page that did not fit, each counted once).
    pub fn failure(&self) -> Option<ProbeError> {
        if let Some(error) = self.lock().clone() {
            return Some(error);
        }
        let short = self.shortfall.load(Ordering::Relaxed);
        (short > 0).then(|| ProbeError::PageBudget {
            limit_mib: self.limit.div_ceil(1 << 20),
            short_mib: short.div_ceil(1 << 20),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<ProbeError>> {
        self.failure
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Takes `bytes` from the budget, or says it has not got them.
    fn take(&self, bytes: u64) -> bool {
        let used = self.used.fetch_add(bytes, Ordering::Relaxed) + bytes;
        if used > self.limit {
            self.used.fetch_sub(bytes, Ordering::Relaxed);
            return false;
        }
        self.peak.fetch_max(used, Ordering::Relaxed);
        true
    }

    fn give_back(&self, bytes: u64) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
    }

    fn fail(&self, error: ProbeError) {
        self.lock().get_or_insert(error);
    }
}

/// Bytes a table decoded a block at a time holds per block of its file besides
/// the decoded pages: the page's slot, and the block's entry in the file's
/// block table, mapped while the block is decoded.
pub const PAGE_SLOT_BYTES: u64 = 16 + 16;

/// One table's pages.
#[derive(Debug)]
pub(crate) struct PagedValues {
    file: TableFile,
    /// Entries per page (the file's blocks): a power of two.
    shift: u32,
    /// Boxed, so that a page not decoded costs [`PAGE_SLOT_BYTES`].
    pages: Box<[OnceLock<Option<Box<DtwBlock>>>]>,
    budget: std::sync::Arc<PageBudget>,
}

impl PagedValues {
    /// The pages of the DTW-encoded table `file`, none decoded yet; `None` if
    /// the file's blocks do not hold a power of two of entries (every writer
    /// writes 16,384).
    pub(crate) fn new(file: TableFile, budget: std::sync::Arc<PageBudget>) -> Option<PagedValues> {
        let per_block = file.header().block_entries;
        if !per_block.is_power_of_two() {
            return None;
        }
        let pages = (0..file.header().blocks())
            .map(|_| OnceLock::new())
            .collect();
        Some(PagedValues {
            shift: per_block.trailing_zeros(),
            file,
            pages,
            budget,
        })
    }

    /// The raw value at `index` (below the table's entries), its page decoded
    /// first if it is not yet; 0 (a draw) if that fails.
    #[inline]
    pub(crate) fn raw_at(&self, index: usize) -> u16 {
        match self.load(index) {
            Some(page) => page.value(self.offset(index)).raw(),
            None => 0,
        }
    }

    /// The offset of entry `index` in its page.
    #[inline]
    pub(crate) fn offset(&self, index: usize) -> usize {
        index & ((1 << self.shift) - 1)
    }

    /// The page of entry `index`, decoded if it is not yet: `None` if it could
    /// not be (the failure is kept).
    #[inline]
    pub(crate) fn load(&self, index: usize) -> Option<&DtwBlock> {
        self.pages[index >> self.shift]
            .get_or_init(|| self.decode((index >> self.shift) as u64))
            .as_deref()
    }

    fn decode(&self, block: u64) -> Option<Box<DtwBlock>> {
        let page = match self.file.decode_block_unmapped(block) {
            Ok(Block::Dtw(page)) if page.len() == self.file.header().entries_in(block) => page,
            Ok(_) => {
                self.budget.fail(ProbeError::CorruptTable {
                    path: self.file.path().to_path_buf(),
                    reason: format!("block {block} is not a DTW block of its length"),
                });
                return None;
            }
            Err(error) => {
                self.budget.fail(error);
                return None;
            }
        };
        let bytes = (page.heap_bytes() + std::mem::size_of::<DtwBlock>()) as u64;
        if !self.budget.take(bytes) {
            self.budget.shortfall.fetch_add(bytes, Ordering::Relaxed);
            return None;
        }
        Some(Box::new(page))
    }

    /// Drops every decoded page, gives its bytes back to the budget and lets the
    /// kernel drop the file's mapped pages; returns the first failure to load a
    /// page since the budget was made.
    pub(crate) fn release(&mut self) -> Result<(), ProbeError> {
        let mut freed = 0;
        for page in self.pages.iter_mut() {
            if let Some(Some(block)) = page.take() {
                freed += (block.heap_bytes() + std::mem::size_of::<DtwBlock>()) as u64;
            }
        }
        self.budget.give_back(freed);
        self.file.drop_mapped_pages();
        match self.budget.failure() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// Number of entries.
    pub(crate) fn len(&self) -> usize {
        self.file.header().entries as usize
    }

    /// Bytes of the pages decoded now.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.pages
            .iter()
            .filter_map(|p| p.get().and_then(Option::as_ref))
            .map(|block| block.heap_bytes() + std::mem::size_of::<DtwBlock>())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_slot_takes_what_the_budget_counts() {
        assert!(
            std::mem::size_of::<OnceLock<Option<Box<DtwBlock>>>>() as u64 <= PAGE_SLOT_BYTES - 16
        );
    }
}
