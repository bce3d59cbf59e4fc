//! The README's "Embedding" program is `examples/embedding.rs` word for word
//! (`cargo test` builds every example), and it runs: on the tables
//! `scripts/quickstart.sh` builds, it prints the value, the DTW, the best move and
//! the answer under the Russian rules.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use common::{build_rule_tables, temp_dir};
use damka_core::Russian;

/// The first `rust` code block after the heading `## Embedding` of the README.
fn readme_program() -> String {
    let readme = include_str!("../README.md");
    let section = readme
        .split("\n## Embedding\n")
        .nth(1)
        .expect("the README has an Embedding section");
    let block = section
        .split("```rust\n")
        .nth(1)
        .expect("the Embedding section has a rust block");
    block.split("```").next().unwrap().to_string()
}

/// The example binary beside this test: a whole `cargo test` builds it, and a
/// filtered one (`cargo test --test integration embedding::`) gets it built here.
fn example_binary() -> PathBuf {
    let deps = std::env::current_exe().unwrap();
    let profile = deps.parent().unwrap().parent().unwrap();
    let binary = profile.join("examples").join("embedding");
    if !binary.exists() {
        let mut build = Command::new(env!("CARGO"));
        build
            .args(["build", "--quiet", "--example", "embedding"])
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if profile.file_name().is_some_and(|name| name == "release") {
            build.arg("--release");
        }
        let status = build.status().expect("cargo starts");
        assert!(status.success(), "cargo build --example embedding failed");
    }
    binary
}

#[test]
fn the_readme_program_is_the_example() {
    assert_eq!(
        readme_program(),
        include_str!("../examples/embedding.rs"),
        "README's Embedding program and examples/embedding.rs differ"
    );
}

#[test]
fn the_example_runs_on_the_quickstart_tables() {
    let tmp = temp_dir("embedding");
    let dir = tmp.path();
    let tables = dir.join("tables");
    build_rule_tables::<Russian>(&tables, 3, &["0M3K-0M1K"], "russian");
    let run = Command::new(example_binary())
        .current_dir(dir)
        .output()
        .expect("examples/embedding starts");
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "value: win");
    assert!(
        lines[1].starts_with("DTW: ") && lines[1].ends_with(" plies"),
        "{out}"
    );
    assert!(lines[2].starts_with("best move: "), "{out}");
    assert!(
        lines[3].starts_with("under russian, R1=4: win in "),
        "{out}"
    );
}
