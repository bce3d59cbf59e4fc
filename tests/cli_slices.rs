//! The `slices` command as users and scripts run it.

mod common;

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
