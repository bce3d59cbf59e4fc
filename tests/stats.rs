//! `damka stats` against figures computed here from the naive solver of
//! `tests/common`, and its handling of empty or partial table directories.

mod common;

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
