//! Generation throughput: solving one 4-piece Russian solve group of each kind,
//! with its dependencies already built: kings only (`0M2K-0M2K`), men and kings
//! (`1M1K-1M1K`) and men only (`2M0K-2M0K`). Criterion reports positions solved
//! per second (the solve alone; writing the tables is not timed).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damka_core::{dependencies, Russian, Slice};
use damka_gen::solve::{Dtw, Group};
use damka_gen::{build, BuildOptions};
use damka_probe::Tablebase;

fn generate(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("damka-bench-gen-{}", std::process::id()));
    let options = BuildOptions {
        root: dir.clone(),
        max_pieces: 4,
        only: None,
        with_dependencies: false,
        memory: None,
        progress: None,
    };
    build::<Russian>(&options, &mut |_| {}).unwrap();
    let tablebase = Tablebase::<Russian>::new(&dir);
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    for (kind, name) in [
        ("kings-only", "0M2K-0M2K"),
        ("men-and-kings", "1M1K-1M1K"),
        ("men-only", "2M0K-2M0K"),
    ] {
        let slice: Slice = name.parse().unwrap();
        let deps: Vec<_> = dependencies(slice)
            .into_iter()
            .map(|d| tablebase.slice_table(d).unwrap())
            .collect();
        let positions = Group::new(slice, Dtw::<Russian>::new(deps.clone()))
            .unwrap()
            .positions();
        group.throughput(Throughput::Elements(positions));
        group.bench_function(format!("russian/{kind}/{name}"), |b| {
            b.iter(|| {
                let mut g = Group::new(slice, Dtw::<Russian>::new(deps.clone())).unwrap();
                g.solve(&|_| {}).unwrap();
                g
            })
        });
    }
    group.finish();
    std::fs::remove_dir_all(&dir).unwrap();
}

criterion_group!(benches, generate);
criterion_main!(benches);
