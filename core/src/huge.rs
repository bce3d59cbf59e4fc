//! Large zero-filled arrays on transparent huge pages.
//!
//! The generator reads and writes its big arrays (a unit's working cells, a
//! group's values, its dependencies' decoded tables) at random. With 4 KiB pages
//! nearly every such access also misses the TLB, and on a virtual machine a TLB
//! miss is a two-level page walk. A 2 MiB page covers 512 times as much, so an
//! array of a few hundred MiB fits the TLB. This machine's kernel gives huge
//! pages only to memory that asks for them (`madvise` mode), so a large array is
//! an anonymous memory map advised with `MADV_HUGEPAGE`; a small one stays on
//! the heap, where a map would cost more than it saves. Measured in the README
//! (Generation, session 7): 12 % less CPU on a kings-only group.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8};

/// A type whose all-zero bytes are a valid value (integers, atomics, and
/// structs of them).
///
/// # Safety
/// Implement it only for types for which a zero-filled memory region is a valid,
/// initialised value.
pub unsafe trait Zeroed: Sized {}

// SAFETY: zero is a valid integer and a valid atomic integer.
unsafe impl Zeroed for u8 {}
// SAFETY: as above.
unsafe impl Zeroed for u16 {}
// SAFETY: as above.
unsafe impl Zeroed for AtomicU8 {}
// SAFETY: as above.
unsafe impl Zeroed for AtomicU16 {}
// SAFETY: as above.
unsafe impl Zeroed for AtomicU64 {}

/// Arrays at least this large (in bytes) go on huge pages.
pub const HUGE_ARRAY_BYTES: usize = 4 << 20;

/// A zero-filled array of `T`, on huge pages when large (see the module docs).
pub struct HugeArray<T: Zeroed> {
    storage: Storage<T>,
}

/// Where a [`HugeArray`]'s elements are.
enum Storage<T> {
    /// A small array.
    Heap(Vec<T>),
    /// An anonymous map holding `len` elements.
    Mapped { map: memmap2::MmapMut, len: usize },
}

impl<T: Zeroed> HugeArray<T> {
    /// `len` zero elements.
    pub fn zeroed(len: usize) -> HugeArray<T> {
        let bytes = len.saturating_mul(std::mem::size_of::<T>());
        if bytes >= HUGE_ARRAY_BYTES && std::mem::align_of::<T>() <= 4096 {
            if let Ok(map) = memmap2::MmapOptions::new().len(bytes).map_anon() {
                // Only a hint: without huge pages the array works the same.
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                return HugeArray {
                    storage: Storage::Mapped { map, len },
                };
            }
        }
        // SAFETY: `T: Zeroed`, so zero bytes are a valid `T`.
        let heap = (0..len).map(|_| unsafe { std::mem::zeroed() }).collect();
        HugeArray {
            storage: Storage::Heap(heap),
        }
    }
}

impl<T: Zeroed> Deref for HugeArray<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match &self.storage {
            Storage::Heap(v) => v,
            // SAFETY: the map is page-aligned (so aligned for `T`), holds
            // `len * size_of::<T>()` bytes, was zero-filled by the kernel (valid
            // `T`s, as `T: Zeroed`) and lives as long as `self`.
            Storage::Mapped { map, len } => unsafe {
                std::slice::from_raw_parts(map.as_ptr().cast::<T>(), *len)
            },
        }
    }
}

impl<T: Zeroed> DerefMut for HugeArray<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.storage {
            Storage::Heap(v) => v,
            // SAFETY: as in `deref`, and `&mut self` makes the borrow unique.
            Storage::Mapped { map, len } => unsafe {
                std::slice::from_raw_parts_mut(map.as_mut_ptr().cast::<T>(), *len)
            },
        }
    }
}

/// An empty array, to be replaced by a sized one when the need is known.
impl<T: Zeroed> Default for HugeArray<T> {
    fn default() -> Self {
        HugeArray::zeroed(0)
    }
}

impl<T: Zeroed + std::fmt::Debug> std::fmt::Debug for HugeArray<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HugeArray")
            .field("len", &self.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_arrays_start_zero_and_keep_writes() {
        for len in [0, 5, HUGE_ARRAY_BYTES / 2 + 7] {
            let mut a = HugeArray::<u16>::zeroed(len);
            assert_eq!(a.len(), len);
            assert!(a.iter().all(|&x| x == 0));
            for (i, x) in a.iter_mut().enumerate() {
                *x = i as u16;
            }
            assert!(a.iter().enumerate().all(|(i, &x)| x == i as u16));
        }
    }
}
