//! No import cycles between the modules of a crate.
//!
//! For every crate of the workspace (each member listed in the root `Cargo.toml`,
//! plus the root package) this reads the files under `src/` and builds a graph:
//!
//! - a node per module file, named by its path: `lib.rs` or `main.rs` is `crate`,
//!   `a.rs` is `crate::a`, `dir/b.rs` is `crate::dir::b`, `dir/mod.rs` is
//!   `crate::dir` (`src/bin/`, which holds other crates, is skipped);
//! - an edge a → b when file a names a path, in a `use` or inline, that starts
//!   with `crate::`, `super::`, `self::` or one of a's child modules (as in
//!   `pub use child::X`), and b is the longest prefix of that path that is a
//!   module. So `crate::dir::X` is an edge to `dir` even when `dir` re-exports `X`
//!   from a child, and `crate::X` is an edge to the crate root, which re-exports
//!   from its modules: a module imports an item from the module defining it, not
//!   through a re-export of its parent. `mod x;` declarations are not edges.
//!
//! Comments, string and character literals are ignored. Test code counts:
//! `#[cfg(test)]` modules are compiled into the crate, so a unit test that uses a
//! module depending on the one it tests is a cycle too. Inline modules
//! (`mod tests { .. }`) are followed so that `super::` inside them resolves.
//!
//! The test fails listing every cycle (strongly connected component of more than
//! one module) with its crate and the edges inside it, each with a path naming it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module's path from the crate root: `["crate", "dir", "b"]`.
type Module = Vec<String>;

/// The workspace's crates as `(package name, src directory)`.
fn crates(root: &Path) -> Vec<(String, PathBuf)> {
    let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let list = manifest.split_once("members").expect("a `members` list").1;
    let list = &list[list.find('[').unwrap() + 1..list.find(']').unwrap()];
    let members = list.split(',').map(|m| m.trim().trim_matches('"'));
    let mut dirs = vec![root.to_path_buf()];
    dirs.extend(members.filter(|m| !m.is_empty()).map(|m| root.join(m)));
    let name = |dir: PathBuf| {
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).ok()?;
        let mut lines = manifest.split_once("[package]")?.1.lines();
        let name = lines.find(|l| l.trim_start().starts_with("name"))?;
        Some((name.split('"').nth(1)?.to_string(), dir.join("src")))
    };
    dirs.into_iter().filter_map(name).collect()
}

/// Every `.rs` file under `dir` with its module.
fn module_files(dir: &Path, module: &[String], out: &mut Vec<(Module, PathBuf)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let mut child = module.to_vec();
        if path.is_dir() && !(name == "bin" && module.len() == 1) {
            child.push(name);
            module_files(&path, &child, out);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            let root = module.len() == 1 && (stem == "lib" || stem == "main");
            if !root && stem != "mod" {
                child.push(stem.into());
            }
            out.push((child, path));
        }
    }
}

/// The identifiers, `::` and other punctuation characters of Rust source, without
/// whitespace, comments, string and character literals, or lifetimes' quotes.
fn tokens(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or(' ');
    // The position after the next `end` from `i`, stepping over escapes if `escapes`.
    let past = |mut i: usize, end: &[char], escapes: bool| {
        while i < c.len() && !c[i..].starts_with(end) {
            i += if escapes && c[i] == '\\' { 2 } else { 1 };
        }
        i + end.len()
    };
    let word = |x: char| x.is_alphanumeric() || x == '_';
    let (mut out, mut i) = (Vec::new(), 0);
    while i < c.len() {
        // A raw string is `r` or `br`, then hashes and a quote.
        let r = i + (at(i) == 'b') as usize;
        let hashes = (r + 1..c.len()).take_while(|&j| c[j] == '#').count();
        let raw_end: Vec<char> = std::iter::once('"').chain(vec!['#'; hashes]).collect();
        let (next, keep) = match (at(i), at(i + 1)) {
            ('/', '/') => (past(i, &['\n'], false), false),
            ('/', '*') => (past(i, &['*', '/'], false), false),
            _ if at(r) == 'r' && at(r + 1 + hashes) == '"' => {
                (past(r + 2 + hashes, &raw_end, false), false)
            }
            ('"', _) => (past(i + 1, &['"'], true), false),
            // A character literal; `'\''` leaves a quote, skipped below as a lifetime's.
            ('\'', x) if x == '\\' || at(i + 2) == '\'' => (past(i + 2, &['\''], false), false),
            ('\'', _) => (i + 1, false),
            (':', ':') => (i + 2, true),
            (x, _) if word(x) => ((i..).find(|&j| !word(at(j))).unwrap(), true),
            (x, _) => (i + 1, !x.is_whitespace()),
        };
        if keep {
            out.push(c[i..next].iter().collect());
        }
        i = next;
    }
    out
}

/// Whether a token is an identifier or keyword (not a number or punctuation).
fn is_ident(token: &str) -> bool {
    token.starts_with(|c: char| c.is_alphabetic() || c == '_')
}

/// Adds the paths of the use tree at `t[start]` under `prefix` to `out`; returns
/// the position after the tree.
fn use_tree(t: &[String], start: usize, mut prefix: Module, out: &mut Vec<Module>) -> usize {
    let tok = |i: usize| t.get(i).map_or(";", String::as_str);
    let mut i = start;
    loop {
        match tok(i) {
            "{" => {
                i = use_tree(t, i + 1, prefix.clone(), out);
                while tok(i) == "," {
                    i = use_tree(t, i + 1, prefix.clone(), out);
                }
                return i + 1;
            }
            "as" => i += 2,
            "self" if !prefix.is_empty() => i += 1,
            "::" | "*" => i += 1,
            s if is_ident(s) => {
                prefix.push(s.into());
                i += 1;
            }
            _ => {
                // Not after a trailing comma, as in `{a, b,}`.
                if i > start {
                    out.push(prefix);
                }
                return i;
            }
        }
    }
}

/// The crate's `known` modules that the source of `module` names, other than
/// itself, each with the first path naming it.
fn references(module: &[String], text: &str, known: &BTreeSet<Module>) -> BTreeMap<Module, String> {
    let t = tokens(text);
    let tok = |i: usize| t.get(i).map_or("", String::as_str);
    let mut here = module.to_vec(); // with the inline modules open at `t[i]`
    let mut inline = Vec::new(); // the brace depth outside each of those
    let (mut out, mut depth, mut i) = (BTreeMap::new(), 0, 0);
    while i < t.len() {
        let mut paths = Vec::new();
        match tok(i) {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if inline.last() == Some(&depth) {
                    inline.pop();
                    here.pop();
                }
            }
            "mod" if tok(i + 2) == "{" => {
                inline.push(depth);
                here.push(tok(i + 1).to_string());
            }
            "use" => i = use_tree(&t, i + 1, Vec::new(), &mut paths) - 1,
            s if is_ident(s) && tok(i + 1) == "::" && (i == 0 || tok(i - 1) != "::") => {
                let mut path = vec![s.to_string()];
                while tok(i + 1) == "::" && is_ident(tok(i + 2)) {
                    path.push(tok(i + 2).to_string());
                    i += 2;
                }
                paths.push(path);
            }
            _ => {}
        }
        for path in paths.into_iter().filter(|p| !p.is_empty()) {
            let ups = path.iter().take_while(|s| *s == "super").count();
            let (base, rest) = match path[0].as_str() {
                "crate" => (0, &path[..]),
                "self" => (here.len(), &path[1..]),
                _ => (here.len().saturating_sub(ups).max(1), &path[ups..]),
            };
            let mut target: Module = here[..base].iter().chain(rest).cloned().collect();
            while !known.contains(&target) {
                target.pop();
            }
            if target != module {
                out.entry(target).or_insert_with(|| path.join("::"));
            }
        }
        i += 1;
    }
    out
}

#[test]
fn no_import_cycles_between_modules() {
    let mut problems = Vec::new();
    for (name, src) in crates(Path::new(env!("CARGO_MANIFEST_DIR"))) {
        let mut files = Vec::new();
        module_files(&src, &["crate".into()], &mut files);
        let known: BTreeSet<Module> = files.iter().map(|f| f.0.clone()).collect();
        let nodes: Vec<&Module> = known.iter().collect();
        let index = |m: &Module| nodes.binary_search(&m).unwrap();
        let mut edges = BTreeMap::new();
        for (module, path) in &files {
            let text = fs::read_to_string(path).unwrap();
            for (to, via) in references(module, &text, &known) {
                edges.insert((index(module), index(&to)), via);
            }
        }
        // reach[a][b]: module a reaches b, by transitive closure (the graphs are small).
        let n = nodes.len();
        let mut reach = vec![vec![false; n]; n];
        edges.keys().for_each(|&(a, b)| reach[a][b] = true);
        for k in 0..n {
            for a in 0..n {
                for b in 0..n {
                    reach[a][b] |= reach[a][k] && reach[k][b];
                }
            }
        }
        let show = |a: usize| nodes[a].join("::");
        for (a, row) in reach.iter().enumerate() {
            // Each cycle once, from its first module.
            let cycle: Vec<usize> = (0..n).filter(|&b| row[b] && reach[b][a]).collect();
            if cycle.first() != Some(&a) {
                continue;
            }
            let names: Vec<String> = cycle.iter().map(|&b| show(b)).collect();
            problems.push(format!("{name}: cycle among {}", names.join(", ")));
            for ((from, to), via) in &edges {
                if cycle.contains(from) && cycle.contains(to) {
                    problems.push(format!("    {} -> {}  ({via})", show(*from), show(*to)));
                }
            }
        }
    }
    let problems = problems.join("\n");
    assert!(
        problems.is_empty(),
        "import cycles between modules:\n{problems}"
    );
}
