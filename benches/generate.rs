//! Generation throughput: solving one mid-size solve group (Russian `1M1K-1M1K`,
//! 661,200 positions) with its dependencies already built. Criterion reports
//! positions solved per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damka_formats::{dependencies, Russian, Slice};
use damka_gen::solve::{Dtw, Group};
use damka_gen::{build, BuildOptions};
use damka_probe::Tablebase;

fn generate(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("damka-bench-gen-{}", std::process::id()));
    let options = BuildOptions {
        root: dir.clone(),
        max_pieces: 4,
        only: None,
        quiet: true,
    };
    build::<Russian>(&options, &mut |_| {}).unwrap();
    let tablebase = Tablebase::<Russian>::new(&dir);
    let slice: Slice = "1M1K-1M1K".parse().unwrap();
    let deps: Vec<_> = dependencies(slice)
        .into_iter()
        .map(|d| tablebase.slice_table(d).unwrap())
        .collect();
    let positions = Group::new(slice, Dtw::<Russian>::new(deps.clone()))
        .unwrap()
        .positions();
    let mut group = c.benchmark_group("generate");
    group.throughput(Throughput::Elements(positions));
    group.sample_size(10);
    group.bench_function("russian/1M1K-1M1K", |b| {
        b.iter(|| {
            let g = Group::new(slice, Dtw::<Russian>::new(deps.clone())).unwrap();
            g.solve(&|_| {});
            g
        })
    });
    group.finish();
    std::fs::remove_dir_all(&dir).unwrap();
}

criterion_group!(benches, generate);
criterion_main!(benches);
