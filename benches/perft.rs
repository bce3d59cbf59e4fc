//! Perft throughput of the move generator, single-threaded, with bulk counting at
//! the last ply. Criterion reports elements (leaf nodes) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damka_core::perft;
use damka_core::{International, Position, Russian, Variant};

fn bench_variant<V: Variant>(c: &mut Criterion, name: &str, fen: &str, depth: u32) {
    let pos: Position<V> = fen.parse().unwrap();
    let nodes = perft(&pos, depth);
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function(format!("{name}/depth{depth}"), |b| {
        b.iter(|| perft(std::hint::black_box(&pos), depth))
    });
    group.finish();
}

fn perft_benches(c: &mut Criterion) {
    bench_variant::<Russian>(
        c,
        "russian_initial",
        "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8",
        8,
    );
    bench_variant::<International>(c, "international_initial", "W:W31-50:B1-20", 7);
    bench_variant::<International>(
        c,
        "international_woldouby",
        "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
        9,
    );
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
