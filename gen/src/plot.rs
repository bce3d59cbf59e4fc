//! Figures for papers: the distance distribution per piece count and the
//! win/draw/loss shares per slice of one piece count, as SVG or PNG.
//!
//! Written with plotters; text is laid out with the font shipped in `gen/assets/`.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::full_palette::{GREEN_600, GREY_400, RED_600};

use crate::error::GenError;
use crate::stats::StatsReport;

/// DejaVu Sans, shipped with the program (licence in `gen/assets/`), so figures
/// render the same on every machine.
const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// Draws both figures, one above the other, into `path` (`.svg` or `.png`). The
/// bar chart shows the slices with `pieces` pieces.
pub fn plot(report: &StatsReport, pieces: u32, path: &Path) -> Result<(), GenError> {
    let size = (1200, 1400);
    let fail = |e: String| GenError::Write {
        path: path.to_path_buf(),
        message: e,
    };
    register_font().map_err(fail)?;
    match path.extension().and_then(|e| e.to_str()) {
        Some("svg") => {
            let root = SVGBackend::new(path, size).into_drawing_area();
            draw(&root, report, pieces).map_err(fail)?;
            root.present().map_err(|e| fail(e.to_string()))
        }
        Some("png") => {
            let root = BitMapBackend::new(path, size).into_drawing_area();
            draw(&root, report, pieces).map_err(fail)?;
            root.present().map_err(|e| fail(e.to_string()))
        }
        _ => Err(GenError::Usage(format!(
            "plot file {} must end in .svg or .png",
            path.display()
        ))),
    }
}

/// Makes the shipped font the chart's `sans-serif`.
fn register_font() -> Result<(), String> {
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| "cannot load the shipped font".to_string())
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    report: &StatsReport,
    pieces: u32,
) -> Result<(), String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (top, bottom) = root.split_vertically(700);
    distance_chart(&top, report).map_err(|e| e.to_string())?;
    wdl_chart(&bottom, report, pieces).map_err(|e| e.to_string())
}

/// Line chart: decided positions per distance, one line per piece count, log scale.
fn distance_chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    report: &StatsReport,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let longest = report
        .totals
        .iter()
        .map(|t| t.counts.histogram.len())
        .max()
        .unwrap_or(1) as u32;
    let most = report
        .totals
        .iter()
        .flat_map(|t| t.counts.histogram.iter().copied())
        .max()
        .unwrap_or(1)
        .max(10);
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("Distance to win, {} draughts", report.variant),
            ("sans-serif", 28),
        )
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d(0u32..longest, (1u64..most * 2).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("distance to win (plies)")
        .y_desc("positions (log scale)")
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 20))
        .draw()?;
    for (i, total) in report.totals.iter().enumerate() {
        let color = Palette99::pick(i).stroke_width(2);
        let points: Vec<(u32, u64)> = total
            .counts
            .histogram
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(d, &n)| (d as u32, n))
            .collect();
        chart
            .draw_series(LineSeries::new(points, color))?
            .label(format!("{} pieces", total.pieces))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font(("sans-serif", 18))
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
}

/// Stacked bars: the win, draw and loss shares (percent) of each slice.
fn wdl_chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    report: &StatsReport,
    pieces: u32,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let slices: Vec<_> = report.slices.iter().filter(|s| s.pieces == pieces).collect();
    let count = slices.len().max(1) as u32;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("Win / draw / loss for the side to move, {pieces}-piece slices"),
            ("sans-serif", 28),
        )
        .margin(20)
        .x_label_area_size(140)
        .y_label_area_size(90)
        .build_cartesian_2d((0u32..count).into_segmented(), 0f64..100f64)?;
    let names: Vec<String> = slices.iter().map(|s| s.slice.clone()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("slice (side to move first)")
        .y_desc("share of positions (%)")
        .x_labels(names.len())
        .x_label_formatter(&|x| match x {
            SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .x_label_style(
            ("sans-serif", 13)
                .into_font()
                .transform(FontTransform::Rotate90),
        )
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 20))
        .draw()?;
    let shares: Vec<(f64, f64, f64)> = slices
        .iter()
        .map(|s| {
            let n = s.counts.positions.max(1) as f64;
            (
                100.0 * s.counts.wins as f64 / n,
                100.0 * s.counts.draws as f64 / n,
                100.0 * s.counts.losses as f64 / n,
            )
        })
        .collect();
    let layers: [(&str, RGBColor, fn(&(f64, f64, f64)) -> (f64, f64)); 3] = [
        ("win", GREEN_600, |&(w, _, _)| (0.0, w)),
        ("draw", GREY_400, |&(w, d, _)| (w, w + d)),
        ("loss", RED_600, |&(w, d, l)| (w + d, w + d + l)),
    ];
    for (label, color, span) in layers {
        chart
            .draw_series(shares.iter().enumerate().map(|(i, share)| {
                let (low, high) = span(share);
                let i = i as u32;
                Rectangle::new(
                    [(SegmentValue::Exact(i), low), (SegmentValue::Exact(i + 1), high)],
                    color.filled(),
                )
            }))?
            .label(label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], color.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font(("sans-serif", 18))
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
}
