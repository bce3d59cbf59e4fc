//! A sharded LRU cache of decoded blocks with a byte budget.
//!
//! A key picks one of [`SHARDS`] shards, each an [`lru::LruCache`] behind its own
//! mutex, so threads probing different blocks rarely meet on a lock, and none is
//! global. A hit reads the block under the shard's lock (a few nanoseconds), so no
//! reference count changes hands on the hot path. A miss decodes the block with no
//! lock held, then inserts it and evicts the least recently used blocks of that
//! shard until the shard is within its share of the budget. Two threads missing the
//! same block may both decode it; the second insert replaces the first.

use std::sync::{Mutex, MutexGuard};

use damka_formats::table::Block;
use lru::LruCache;

/// Number of shards: a power of two, well above the thread counts that probe.
pub const SHARDS: usize = 64;
/// Bookkeeping bytes charged per cached block on top of its data.
const ENTRY_OVERHEAD: usize = 96;

/// Which block: the table's number in its tablebase and the block's number.
pub type BlockKey = (u32, u64);

struct Shard {
    blocks: LruCache<BlockKey, Block>,
    bytes: usize,
}

/// The cache; see the module docs.
pub struct BlockCache {
    shards: Box<[Mutex<Shard>]>,
    shard_budget: usize,
}

impl std::fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockCache")
            .field("budget", &(self.shard_budget * SHARDS))
            .field("bytes", &self.bytes())
            .finish()
    }
}

fn charge(block: &Block) -> usize {
    block.heap_bytes() + ENTRY_OVERHEAD
}

impl BlockCache {
    /// A cache holding at most about `budget` bytes of decoded blocks.
    pub fn new(budget: usize) -> BlockCache {
        let shards = (0..SHARDS)
            .map(|_| {
                Mutex::new(Shard {
                    blocks: LruCache::unbounded(),
                    bytes: 0,
                })
            })
            .collect();
        BlockCache {
            shards,
            shard_budget: budget / SHARDS,
        }
    }

    fn shard(&self, key: BlockKey) -> MutexGuard<'_, Shard> {
        let mixed = (key.1 ^ (key.0 as u64) << 40).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let shard = &self.shards[(mixed >> 58) as usize % SHARDS];
        // A panic while holding the lock cannot leave a shard inconsistent in a way
        // that matters: at worst its byte count is off until blocks are evicted.
        shard
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Reads the block `key` with `read`, decoding it with `load` first if it is
    /// not cached.
    #[inline]
    pub fn read<R, E>(
        &self,
        key: BlockKey,
        load: impl FnOnce() -> Result<Block, E>,
        read: impl FnOnce(&Block) -> R,
    ) -> Result<R, E> {
        if let Some(block) = self.shard(key).blocks.get(&key) {
            return Ok(read(block));
        }
        self.miss(key, load, read)
    }

    #[cold]
    fn miss<R, E>(
        &self,
        key: BlockKey,
        load: impl FnOnce() -> Result<Block, E>,
        read: impl FnOnce(&Block) -> R,
    ) -> Result<R, E> {
        let block = load()?;
        let result = read(&block);
        let size = charge(&block);
        if size > self.shard_budget {
            return Ok(result);
        }
        let mut shard = self.shard(key);
        shard.bytes += size;
        if let Some(old) = shard.blocks.put(key, block) {
            shard.bytes -= charge(&old);
        }
        while shard.bytes > self.shard_budget {
            match shard.blocks.pop_lru() {
                Some((_, evicted)) => shard.bytes -= charge(&evicted),
                None => break,
            }
        }
        Ok(result)
    }

    /// Bytes of blocks held now, overhead included.
    pub fn bytes(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|p| p.into_inner()).bytes)
            .sum()
    }

    /// The byte budget.
    pub fn budget(&self) -> usize {
        self.shard_budget * SHARDS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(n: usize) -> Block {
        Block::Wdl(vec![0x55; n].into_boxed_slice())
    }

    #[test]
    fn stays_within_budget_and_hits() {
        let cache = BlockCache::new(SHARDS * 4096);
        for b in 0..1000u64 {
            let got: Result<usize, ()> =
                cache.read((1, b), || Ok(block(1000)), |blk| blk.heap_bytes());
            assert_eq!(got, Ok(1000));
            assert!(cache.bytes() <= cache.budget());
        }
        let hit: Result<usize, ()> = cache.read(
            (1, 999),
            || panic!("the newest block was evicted"),
            |blk| blk.heap_bytes(),
        );
        assert_eq!(hit, Ok(1000));
    }

    #[test]
    fn load_errors_pass_through_and_are_not_cached() {
        let cache = BlockCache::new(1 << 20);
        let got: Result<(), &str> = cache.read((0, 0), || Err("bad"), |_| ());
        assert_eq!(got, Err("bad"));
        let got: Result<usize, &str> = cache.read((0, 0), || Ok(block(8)), |b| b.heap_bytes());
        assert_eq!(got, Ok(8));
    }
}
