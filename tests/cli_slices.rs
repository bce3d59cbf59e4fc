//! The `slices` command as users and scripts run it.

use crate::common;

use common::{damka, Run};

#[test]
fn lists_slices_and_ends_with_the_total() {
    let Run { out, ok, .. } = damka(&["slices", "--variant", "russian", "--pieces", "2"], "");
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[0].starts_with("0M1K-0M1K "), "{out}");
    assert!(lines[0].contains(" 992 positions "), "{out}");
    assert!(lines[3].starts_with("1M0K-1M0K "), "{out}");
    assert!(lines[3].ends_with("depends on: 1M0K-0M1K"), "{out}");
    assert_eq!(lines[4], "total 4 slices 3488 positions");
}

#[test]
fn totals_up_to_7_pieces() {
    for (variant, total) in [
        ("russian", "total 259 slices 36815058944 positions"),
        ("international", "total 259 slices 1167503943565 positions"),
    ] {
        let Run { out, ok, .. } = damka(&["slices", "--variant", variant, "--pieces", "7"], "");
        assert!(ok);
        assert_eq!(out.lines().last(), Some(total), "{variant}");
    }
}

#[test]
fn json_lines_end_with_a_total_object() {
    let Run { out, ok, .. } = damka(
        &[
            "slices",
            "--variant",
            "international",
            "--pieces",
            "3",
            "--json",
        ],
        "",
    );
    assert!(ok);
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let (total, slices) = records.split_last().unwrap();
    assert_eq!(slices.len(), 16);
    assert_eq!(total["total"]["slices"], 16);
    assert_eq!(total["total"]["positions"], 8845 + 806_300);
    let sum: u64 = slices
        .iter()
        .map(|r| r["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 8845 + 806_300);
    assert_eq!(slices[0]["name"], "0M1K-0M1K");
    assert_eq!(slices[0]["dependencies"], serde_json::json!([]));
    assert_eq!(slices[3]["name"], "1M0K-1M0K");
    assert_eq!(slices[3]["sub_slices"], 17);
    assert_eq!(slices[3]["dependencies"], serde_json::json!(["1M0K-0M1K"]));
}

#[test]
fn rejects_a_bad_variant() {
    let Run { err, ok, .. } = damka(&["slices", "--variant", "chess", "--pieces", "3"], "");
    assert!(!ok);
    assert!(err.contains("unknown variant `chess`"), "{err}");
}

/// A reader that stops early (`damka slices ... | head -1`) ends the listing
/// quietly: no panic on the closed pipe. (The listing, 0.9 MB, is far larger
/// than a pipe's buffer, so the program does write into the closed pipe.)
#[test]
fn a_closed_pipe_ends_the_listing_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args([
            "slices",
            "--variant",
            "international",
            "--pieces",
            "12",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("0M1K-0M1K"), "{first}");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
}
