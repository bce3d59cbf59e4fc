//! The C ABI from C: the programs of `ffi/examples`, compiled with `cc` against
//! `libdamka_ffi.a`, answer as `damka probe --json` does on tables built here — by
//! FEN, by FEN under the Russian rules, and by bit sets from two threads at once
//! on one handle, in both variants.

use crate::common;

use std::path::Path;

use common::c_abi::{bits_line, compile, sample_positions, Sampler};
use common::{build_rule_tables, build_tables, damka, run_program, temp_dir};
use damka_core::{International, Position, Russian, Variant};
use serde_json::Value;

/// Runs `exe` with `args`, feeding `stdin`; returns its standard output and
/// whether it exited 0 (its standard error goes to the test's).
fn run(exe: &Path, args: &[&str], stdin: &str) -> (String, bool) {
    let run = run_program(exe, args, stdin);
    eprint!("{}", run.err);
    (run.out, run.ok)
}

/// The JSON lines of `text`.
fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// The fields both programs print, with an error reduced to its presence.
fn comparable(line: &Value) -> Value {
    if line.get("error").is_some() {
        return serde_json::json!({"fen": line["fen"], "error": true});
    }
    let mut out = serde_json::json!({
        "fen": line["fen"],
        "wdl": line["wdl"],
        "dtw": line["dtw"],
        "best_move": line["best_move"],
    });
    if let Some(rules) = line.get("rules") {
        out["rules"] = serde_json::json!({
            "wdl": rules["wdl"],
            "rule": rules["rule"],
            "distance": rules["distance"],
            "best_move": rules["best_move"],
        });
    }
    out
}

/// Feeds `fens` to `probe.c` and to `damka probe --json` with the same extra
/// arguments and checks that every line agrees; returns the C program's lines.
fn probe_both(
    probe: &Path,
    dir: &str,
    variant: &str,
    fens: &[String],
    rules: &[&str],
) -> Vec<Value> {
    let input = fens.join("\n") + "\n";
    let mut args = vec![dir, variant];
    args.extend_from_slice(rules);
    let (c_out, _) = run(probe, &args, &input);
    let mut cli_args = vec!["probe", "--json", "--dir", dir, "--variant", variant];
    if let [set, played @ ..] = rules {
        cli_args.extend_from_slice(&["--rules", set]);
        if let [played] = played {
            cli_args.extend_from_slice(&["--played", played]);
        }
    }
    let cli = damka(&cli_args, &input);
    let (c_lines, cli_lines) = (json_lines(&c_out), json_lines(&cli.out));
    assert_eq!(c_lines.len(), fens.len(), "{c_out}");
    assert_eq!(cli_lines.len(), fens.len(), "{}{}", cli.out, cli.err);
    for (c, cli) in c_lines.iter().zip(&cli_lines) {
        assert_eq!(
            comparable(c),
            comparable(cli),
            "probe.c and damka probe --json differ"
        );
    }
    c_lines
}

/// Checks `probe_threads.c` on 2 threads against `damka probe --json` on
/// `positions`.
fn probe_threads_agree<V: Variant>(exe: &Path, dir: &str, positions: &[Position<V>]) {
    let variant = V::KIND.name();
    let bits: Vec<String> = positions.iter().map(bits_line).collect();
    let (out, ok) = run(exe, &[dir, variant, "2"], &(bits.join("\n") + "\n"));
    assert!(ok, "probe_threads failed:\n{out}");
    let fens: Vec<String> = positions.iter().map(|p| p.to_string()).collect();
    let cli = damka(
        &["probe", "--json", "--dir", dir, "--variant", variant],
        &(fens.join("\n") + "\n"),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), positions.len());
    for ((line, expected), fen) in lines.iter().zip(json_lines(&cli.out)).zip(&fens) {
        let wanted = if expected.get("error").is_some() {
            "error".to_string()
        } else {
            format!(
                "{} {} {}",
                match expected["wdl"].as_str().unwrap() {
                    "win" => 1,
                    "loss" => -1,
                    _ => 0,
                },
                expected["dtw"].as_i64().unwrap_or(0),
                expected["best_move"].as_str().unwrap_or("-"),
            )
        };
        let got = if line.starts_with("error") {
            "error"
        } else {
            line
        };
        assert_eq!(
            got,
            wanted,
            "{fen}: {}",
            bits_line(&fen.parse::<Position<V>>().unwrap())
        );
    }
}

#[test]
fn c_programs_answer_as_damka_probe_json() {
    let tmp = temp_dir("c-abi");
    let tables = tmp.path().join("tables");
    build_tables::<Russian>(&tables, 4, &[]);
    build_rule_tables::<Russian>(&tables, 3, &[], "russian");
    build_tables::<International>(&tables, 3, &[]);
    let dir = tables.to_str().unwrap();
    let probe = compile("probe", tmp.path());
    let threads = compile("probe_threads", tmp.path());
    let bench = compile("bench_bits", tmp.path());

    let mut sampler = Sampler::new(0x5eed);
    let russian: Vec<Position<Russian>> = sample_positions(&mut sampler, 400, 2, 4);
    let mut fens: Vec<String> = russian.iter().map(|p| p.to_string()).collect();
    fens.extend(["W:Wz9:Bh8", "W:WKa1,Kc1,Ke1:BKh2,Kh8,a7", "W:WKa1,a1:Bh8"].map(String::from));
    let lines = probe_both(&probe, dir, "russian", &fens, &[]);
    let decided = lines
        .iter()
        .filter(|l| l["dtw"].as_i64().unwrap_or(0) > 0)
        .count();
    assert!(
        decided > 100,
        "too few decided positions to be a test: {decided}"
    );

    let small: Vec<Position<Russian>> = sample_positions(&mut sampler, 200, 2, 3);
    let fens: Vec<String> = small.iter().map(|p| p.to_string()).collect();
    probe_both(&probe, dir, "russian", &fens, &["russian"]);
    // R2 (kings on both sides) is in force where both sides have a king.
    let with_kings: Vec<String> = small
        .iter()
        .filter(|p| p.kings() & p.white() != 0 && p.kings() & p.black() != 0)
        .map(|p| p.to_string())
        .collect();
    let lines = probe_both(&probe, dir, "russian", &with_kings, &["russian", "R2=3"]);
    let answered = lines.iter().filter(|l| l.get("rules").is_some()).count();
    assert!(
        answered > 20,
        "too few rule answers to be a test: {answered}"
    );

    probe_threads_agree(&threads, dir, &russian);
    let international: Vec<Position<International>> = sample_positions(&mut sampler, 300, 2, 3);
    probe_threads_agree(&threads, dir, &international);

    let (out, ok) = run(&bench, &[dir, "international", "3", "300", "1"], "");
    assert!(
        ok && out.contains("ns per call"),
        "bench_bits failed:\n{out}"
    );
}
