//! `damka stats` against figures computed here from the naive solver of
//! `tests/common`, and its handling of empty or partial table directories.

use crate::common;

use common::{all_positions, build_tables, damka, naive_solve, temp_dir, Run};
use damka_core::has_capture;
use damka_core::{Color, International, Position, Russian, Slice, Variant};
use damka_formats::Wdl;
use damka_stats::stats::stats;

fn check_against_naive<V: Variant>(pieces: u32) {
    let tmp = temp_dir(&format!("stats-{}", V::KIND));
    let dir = tmp.path().to_path_buf();
    build_tables::<V>(&dir, pieces, &[]);
    let report = stats::<V>(&dir, None, |_| {}).unwrap();
    let naive = naive_solve::<V>(&all_positions(pieces as usize, false));
    assert!(!report.slices.is_empty());
    for s in &report.slices {
        let slice: Slice = s.slice.parse().unwrap();
        let positions: Vec<(&Position<V>, _)> = naive
            .iter()
            .filter(|(p, _)| p.side() == Color::White && Slice::of(*p).ok() == Some(slice))
            .collect();
        let count = |w: Wdl| positions.iter().filter(|(_, v)| v.wdl() == w).count() as u64;
        assert_eq!(s.counts.positions, positions.len() as u64, "{slice}");
        assert_eq!(s.counts.wins, count(Wdl::Win), "{slice} wins");
        assert_eq!(s.counts.draws, count(Wdl::Draw), "{slice} draws");
        assert_eq!(s.counts.losses, count(Wdl::Loss), "{slice} losses");
        let captures = positions.iter().filter(|(p, _)| has_capture(*p)).count() as u64;
        assert_eq!(s.counts.captures, captures, "{slice} captures");
        for (wdl, extreme) in [
            (Wdl::Win, &s.counts.longest_win),
            (Wdl::Loss, &s.counts.longest_loss),
        ] {
            let longest = positions
                .iter()
                .filter(|(_, v)| v.wdl() == wdl)
                .filter_map(|(_, v)| v.dtw())
                .max();
            assert_eq!(
                extreme.as_ref().map(|e| e.plies),
                longest,
                "{slice} longest {wdl}"
            );
            if let Some(e) = extreme {
                let pos: Position<V> = e.fen.parse().unwrap();
                assert_eq!(
                    naive[&pos].dtw(),
                    Some(e.plies),
                    "{slice}: example {}",
                    e.fen
                );
            }
        }
        let mut histogram = vec![0u64; s.counts.histogram.len()];
        for (_, v) in &positions {
            if let Some(d) = v.dtw() {
                histogram[d as usize] += 1;
            }
        }
        assert_eq!(s.counts.histogram, histogram, "{slice} histogram");
    }
    let total: u64 = report.totals.iter().map(|t| t.counts.positions).sum();
    let by_slice: u64 = report.slices.iter().map(|s| s.counts.positions).sum();
    assert_eq!(total, by_slice);
}

#[test]
fn russian_stats_match_the_naive_solver() {
    check_against_naive::<Russian>(3);
}

#[test]
fn international_stats_match_the_naive_solver() {
    check_against_naive::<International>(2);
}

#[test]
fn formats_plots_and_bad_directories() {
    let tmp = temp_dir("stats-cli");
    let dir = tmp.path().to_path_buf();
    let d = dir.to_str().unwrap();
    let Run { err, ok, .. } = damka(&["stats", "--variant", "russian", "--dir", d], "");
    assert!(!ok);
    assert!(
        err.contains("no russian tables") && err.contains("damka gen"),
        "{err}"
    );

    assert!(
        damka(
            &[
                "gen",
                "--variant",
                "russian",
                "--pieces",
                "3",
                "--quiet",
                "--dir",
                d
            ],
            ""
        )
        .ok
    );
    let Run { out: md, ok, .. } = damka(&["stats", "--variant", "russian", "--dir", d], "");
    assert!(ok);
    assert!(
        md.contains("Made by `damka stats --variant russian"),
        "{md}"
    );
    assert!(md.contains("no move-limit rules"));
    assert!(md.contains("| 3 | 12 | 196032 |"), "{md}");
    let Run { out: csv, ok, .. } = damka(
        &[
            "stats",
            "--variant",
            "russian",
            "--dir",
            d,
            "--format",
            "csv",
        ],
        "",
    );
    assert!(ok);
    assert_eq!(csv.lines().count(), 1 + 16 + 2);
    let json_path = dir.join("stats.json");
    let svg = dir.join("stats.svg");
    let png = dir.join("stats.png");
    let Run { err, ok, .. } = damka(
        &[
            "stats",
            "--variant",
            "russian",
            "--dir",
            d,
            "--format",
            "json",
            "--out",
            json_path.to_str().unwrap(),
            "--plot",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{err}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    assert_eq!(json["totals"][1]["positions"], 196032);
    assert!(json["slices"][0]["checksum"].as_str().unwrap().len() == 16);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.contains("distance to win (plies)") && picture.contains("3 pieces"));
    let Run { err, ok, .. } = damka(
        &[
            "stats",
            "--variant",
            "russian",
            "--dir",
            d,
            "--plot",
            png.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));

    // A partial directory: a table needed to resolve captures is gone.
    std::fs::remove_file(dir.join("russian").join("0M1K-0M1K.dtw.dkt")).unwrap();
    let Run { err, ok, .. } = damka(&["stats", "--variant", "russian", "--dir", d], "");
    assert!(!ok);
    assert!(err.contains("missing table 0M1K-0M1K"), "{err}");
}

#[test]
fn an_earlier_report_is_reused_where_the_files_are_unchanged() {
    let tmp = temp_dir("stats-reuse");
    let dir = tmp.path().to_path_buf();
    let d = dir.to_str().unwrap();
    let gen = ["gen", "--variant", "russian", "--pieces", "3", "--quiet"];
    assert!(damka(&[&gen[..], &["--dir", d]].concat(), "").ok);
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let json_of = |reuse: Option<&str>, out: &str| {
        let mut args = vec!["stats", "--variant", "russian", "--dir", d];
        args.extend(["--format", "json", "--out", out]);
        if let Some(earlier) = reuse {
            args.extend(["--reuse", earlier]);
        }
        let Run { err, ok, .. } = damka(&args, "");
        assert!(ok, "{err}");
        let mut json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
        json.as_object_mut().unwrap().remove("command");
        json
    };
    let (first, again) = (path("first.json"), path("again.json"));
    let full = json_of(None, &first);
    assert_eq!(json_of(Some(&first), &again), full, "the same figures");

    // A slice whose file has the checksum the earlier report names is taken
    // from there, not counted again: a figure changed in the report shows.
    let mut earlier = full.clone();
    earlier["slices"][3]["wins"] = serde_json::json!(999_999);
    let edited = path("edited.json");
    std::fs::write(&edited, earlier.to_string()).unwrap();
    let reused = json_of(Some(&edited), &again);
    assert_eq!(reused["slices"][3]["wins"], 999_999);
    assert_eq!(reused["slices"][2], full["slices"][2]);
    // With another checksum it is counted again.
    earlier["slices"][3]["checksum"] = serde_json::json!("0000000000000000");
    std::fs::write(&edited, earlier.to_string()).unwrap();
    assert_eq!(json_of(Some(&edited), &again), full);

    // Bad earlier reports are refused, saying why.
    let stats = ["stats", "--variant", "russian", "--dir", d, "--reuse"];
    let Run { err, ok, .. } = damka(&[&stats[..], &[d]].concat(), "");
    assert!(
        !ok && err.contains("cannot read the earlier report"),
        "{err}"
    );
    std::fs::write(&edited, "{ not json").unwrap();
    let Run { err, ok, .. } = damka(&[&stats[..], &[edited.as_str()]].concat(), "");
    assert!(
        !ok && err.contains("is not a report of `damka stats"),
        "{err}"
    );
    let mut other = full.clone();
    other["variant"] = serde_json::json!("international");
    std::fs::write(&edited, other.to_string()).unwrap();
    let Run { err, ok, .. } = damka(&[&stats[..], &[edited.as_str()]].concat(), "");
    assert!(!ok && err.contains("of international dtw tables"), "{err}");
}
