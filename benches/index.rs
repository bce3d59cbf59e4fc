//! Throughput of the slice index, single-threaded: `index` (position to number)
//! and `position` (number to position) over a batch of random positions of a
//! 6-piece and a 7-piece slice of each variant. Criterion reports elements
//! (positions) per second.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damka_core::{International, Russian, SliceIndexer, Variant};

/// Positions per measured batch.
const BATCH: usize = 4096;

fn bench_slice<V: Variant>(c: &mut Criterion, variant: &str, name: &str) {
    let indexer = SliceIndexer::<V>::new(name.parse().unwrap()).unwrap();
    // A fixed spread of indices over the whole slice (golden-ratio stepping).
    let step = (indexer.size() as f64 * 0.618_033_988_7) as u64 | 1;
    let indices: Vec<u64> = (0..BATCH as u64)
        .map(|i| i.wrapping_mul(step) % indexer.size())
        .collect();
    let positions: Vec<_> = indices.iter().map(|&i| indexer.position(i)).collect();
    let mut group = c.benchmark_group(format!("{variant}/{name}"));
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("index", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for p in black_box(&positions) {
                sum = sum.wrapping_add(indexer.index(p));
            }
            sum
        })
    });
    group.bench_function("position", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &i in black_box(&indices) {
                let p = indexer.position(i);
                sum = sum.wrapping_add(p.white() ^ p.black() ^ p.kings());
            }
            sum
        })
    });
    group.finish();
}

fn index_benches(c: &mut Criterion) {
    for name in ["2M1K-2M1K", "2M2K-2M1K", "4M0K-3M0K"] {
        bench_slice::<Russian>(c, "russian", name);
    }
    for name in ["2M1K-2M1K", "2M2K-2M1K", "4M0K-3M0K"] {
        bench_slice::<International>(c, "international", name);
    }
}

criterion_group!(benches, index_benches);
criterion_main!(benches);
