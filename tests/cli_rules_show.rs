//! `damka rules --show` as a user runs it: presets and TOML files as tables, and
//! its errors.

use crate::common;

use std::path::Path;

use tempfile::TempDir;

/// Runs `damka` with `args`: standard output, standard error, success.
fn damka(args: &[&str]) -> (String, String, bool) {
    let run = common::damka(args, "");
    (run.out, run.err, run.ok)
}

/// The table rows of the output, as cells (columns are two or more spaces apart).
fn rows(out: &str) -> Vec<Vec<String>> {
    let table: Vec<&str> = out
        .lines()
        .skip_while(|line| !line.starts_with("id "))
        .take_while(|line| !line.is_empty())
        .collect();
    assert!(table.len() >= 2, "no table in:\n{out}");
    assert!(
        table[1].starts_with("--"),
        "no rule under the header:\n{out}"
    );
    table
        .iter()
        .map(|line| {
            line.split("  ")
                .map(str::trim)
                .filter(|cell| !cell.is_empty())
                .map(String::from)
                .collect()
        })
        .collect()
}

/// A scratch directory for one test, removed when dropped.
struct Scratch(TempDir);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        Scratch(common::temp_dir(tag))
    }

    /// Writes `text` to the file `name` in the directory; returns its path.
    fn file(&self, name: &str, text: &str) -> String {
        let path = self.0.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    }
}

#[test]
fn russian_is_shown_as_one_row_per_counter_and_band() {
    let (out, err, ok) = damka(&["rules", "--show", "russian"]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("rule set: russian\nvariant:  russian\n"),
        "{out}"
    );
    assert!(out.contains("Limits are in moves; one move is a turn of each player, 2 plies."));
    let table = rows(&out);
    assert_eq!(
        table[0],
        [
            "id",
            "applies to",
            "condition",
            "resets on",
            "limit (moves)",
            "limit (plies)",
            "draws"
        ]
    );
    let expected = [
        [
            "R1",
            "3+ kings v lone king",
            "-",
            "capture, promotion",
            "15",
            "30",
            "yes",
        ],
        [
            "R2",
            "both sides have kings, 2-3 pieces",
            "-",
            "capture, promotion",
            "5",
            "10",
            "yes",
        ],
        [
            "R2",
            "both sides have kings, 4-5 pieces",
            "-",
            "capture, promotion",
            "30",
            "60",
            "yes",
        ],
        [
            "R2",
            "both sides have kings, 6-7 pieces",
            "-",
            "capture, promotion",
            "60",
            "120",
            "yes",
        ],
        [
            "R3",
            "3 kings, 2 kings + 1 man or 1 king + 2 men v lone king",
            "lone king on the main road",
            "nothing",
            "5",
            "10",
            "yes",
        ],
        [
            "R4",
            "any material",
            "-",
            "capture, man move",
            "15",
            "30",
            "yes",
        ],
    ];
    assert_eq!(table[2..], expected.map(|row| row.map(String::from)));
    for id in ["R1", "R2", "R3", "R4"] {
        assert!(
            out.lines()
                .any(|line| line.starts_with(&format!("{id}  ")) && !line.contains("  -  ")),
            "no description for {id}:\n{out}"
        );
    }
    assert!(
        out.contains("the lone king on the main road (a1-h8)"),
        "R3's start is documented"
    );
}

#[test]
fn the_other_presets_show() {
    let (out, _, ok) = damka(&["rules", "--show", "fmjd"]);
    assert!(ok);
    assert!(out.contains("variant:  international\n"));
    let table = rows(&out);
    let ids: Vec<&str> = table[2..].iter().map(|row| row[0].as_str()).collect();
    assert_eq!(ids, ["I1", "I2", "I3"]);
    assert_eq!(table[3][4..6], ["16", "32"]);
    assert_eq!(table[3][3], "nothing");
    assert_eq!(table[4][1], "2 kings, 1 king + 1 man or 1 king v lone king");

    let (out, _, ok) = damka(&["rules", "--show", "none"]);
    assert!(ok);
    assert!(out.contains("variant:  any\n"));
    assert!(out.contains("No counters"));
}

#[test]
fn a_toml_file_is_shown_like_a_preset() {
    let scratch = Scratch::new("rules-show");
    let file = scratch.file(
        "club.toml",
        r#"
name = "club"
variant = "russian"

[[counter]]
id = "K2"
description = "Two kings or fewer against a lone king."
applies = { class = "versus", strong = [{ kings = "1-2" }], weak = { kings = 1 } }
resets = ["capture"]
limit_moves = [{ pieces = "2", moves = 3 }, { pieces = "3", moves = 5 }]
draws = false
"#,
    );
    let (out, err, ok) = damka(&["rules", "--show", &file, "--variant", "russian"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("rule set: club\n"));
    let table = rows(&out);
    assert_eq!(
        table[2..],
        [
            [
                "K2",
                "1-2 kings v lone king, 2 pieces",
                "-",
                "capture",
                "3",
                "6",
                "no"
            ],
            [
                "K2",
                "1-2 kings v lone king, 3 pieces",
                "-",
                "capture",
                "5",
                "10",
                "no"
            ],
        ]
        .map(|row| row.map(String::from))
    );
    assert!(out.contains("K2  Two kings or fewer against a lone king."));
}

#[test]
fn the_documented_example_shows_the_russian_1900_limits() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules/example.toml");
    let (out, err, ok) = damka(&["rules", "--show", example.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (preset, _, _) = damka(&["rules", "--show", "russian-1900"]);
    assert_eq!(rows(&out), rows(&preset));
    assert_eq!(
        rows(&out)[2..],
        [
            [
                "A20",
                "3+ kings v lone king",
                "-",
                "capture, promotion",
                "15",
                "30",
                "yes"
            ],
            [
                "A21",
                "3+ kings v 1 king + 1+ men",
                "-",
                "capture, promotion",
                "30",
                "60",
                "yes"
            ],
        ]
        .map(|row| row.map(String::from))
    );
}

#[test]
fn toml_output_reads_back_to_the_same_table() {
    let scratch = Scratch::new("rules-toml");
    for preset in ["russian", "russian-1900", "fmjd", "none"] {
        let (toml, err, ok) = damka(&["rules", "--show", preset, "--toml"]);
        assert!(ok, "{err}");
        let file = scratch.file(&format!("{preset}.toml"), &toml);
        let (from_file, err, ok) = damka(&["rules", "--show", &file]);
        assert!(ok, "{preset}: {err}");
        let (from_preset, _, _) = damka(&["rules", "--show", preset]);
        assert_eq!(from_file, from_preset, "{preset}");
    }
}

#[test]
fn errors_name_the_problem() {
    let (out, err, ok) = damka(&["rules", "--show", "russain"]);
    assert!(!ok && out.is_empty());
    assert!(err.contains("unknown rule set `russain`"), "{err}");
    assert!(err.contains("russian, russian-1900, fmjd, none"), "{err}");

    let (_, err, ok) = damka(&["rules", "--show", "fmjd", "--variant", "russian"]);
    assert!(!ok);
    assert!(
        err.contains("rule set `fmjd` is for international draughts, not russian"),
        "{err}"
    );

    let scratch = Scratch::new("rules-errors");
    let file = scratch.file("broken.toml", "name = \"broken\"\n[[counter]]\nid = 7\n");
    let (_, err, ok) = damka(&["rules", "--show", &file]);
    assert!(!ok);
    assert!(
        err.contains("malformed rule set file") && err.contains("broken.toml"),
        "{err}"
    );
    assert!(err.contains("line 3"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let (_, err, ok) = damka(&["rules", "--show", "missing/rules.toml"]);
    assert!(!ok);
    assert!(
        err.contains("cannot read rule set file missing/rules.toml"),
        "{err}"
    );
}
