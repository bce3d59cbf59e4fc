//! Figures for papers: the distance distribution per piece count and the
//! win/draw/loss shares per slice of one piece count, as SVG or PNG.
//!
//! Written with plotters; text is laid out with the font shipped in `stats/assets/`.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::full_palette::{GREEN_600, GREY_400, RED_600};

use crate::error::StatsError;
use crate::stats::StatsReport;

/// DejaVu Sans, shipped with the program (licence in `stats/assets/`), so figures
/// render the same on every machine.
const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// Height in pixels of the distance chart; the bar chart below it grows with the
/// number of slices so that every label stays readable.
const DISTANCE_HEIGHT: u32 = 700;

/// Distinct, print-safe line colours (Okabe–Ito), one per piece count.
const LINE_COLORS: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(0, 0, 0),
];

/// Draws both figures, one above the other, into `path` (`.svg` or `.png`). The
/// bar chart shows the slices with `pieces` pieces.
pub fn plot(report: &StatsReport, pieces: u32, path: &Path) -> Result<(), StatsError> {
    let bars = report.slices.iter().filter(|s| s.pieces == pieces).count() as u32;
    let size = (1200, DISTANCE_HEIGHT + (22 * bars + 200).max(700));
    let fail = |e: String| StatsError::Write {
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
        _ => Err(StatsError::Usage(format!(
            "plot file {} must end in .svg or .png",
            path.display()
        ))),
    }
}

/// `text` with its first letter upper-case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
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
    let (top, bottom) = root.split_vertically(DISTANCE_HEIGHT);
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
            format!(
                "{}, {} draughts",
                capitalized(&report.distance),
                report.variant
            ),
            ("sans-serif", 28),
        )
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d(0u32..longest, (1u64..most * 2).log_scale())?;
    chart
        .configure_mesh()
        .x_desc(format!("{} (plies)", report.distance))
        .y_desc("positions (log scale)")
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 20))
        .draw()?;
    for (i, total) in report.totals.iter().enumerate() {
        let color = LINE_COLORS[i % LINE_COLORS.len()].stroke_width(3);
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

/// Horizontal stacked bars: the win, draw and loss shares (percent) of each slice,
/// with the legend beside the chart.
fn wdl_chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    report: &StatsReport,
    pieces: u32,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let slices: Vec<_> = report
        .slices
        .iter()
        .filter(|s| s.pieces == pieces)
        .collect();
    let count = slices.len().max(1) as u32;
    let (width, _) = area.dim_in_pixel();
    let (left, legend) = area.split_horizontally(width.saturating_sub(160));
    let mut chart = ChartBuilder::on(&left)
        .caption(
            format!("Win / draw / loss for the side to move, {pieces}-piece slices"),
            ("sans-serif", 28),
        )
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(120)
        .build_cartesian_2d(0f64..100f64, (0u32..count).into_segmented())?;
    let names: Vec<String> = slices.iter().map(|s| s.slice.clone()).collect();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc("share of positions (%)")
        .y_desc("slice (side to move first)")
        .y_labels(names.len())
        .y_label_formatter(&|y| match y {
            SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 20))
        .draw()?;
    let shares: Vec<[f64; 3]> = slices
        .iter()
        .map(|s| {
            let n = s.counts.positions.max(1) as f64;
            let c = &s.counts;
            [c.wins, c.draws, c.losses].map(|x| 100.0 * x as f64 / n)
        })
        .collect();
    let layers = [("win", GREEN_600), ("draw", GREY_400), ("loss", RED_600)];
    for (layer, (_, color)) in layers.iter().enumerate() {
        chart.draw_series(shares.iter().enumerate().map(|(i, share)| {
            let low: f64 = share[..layer].iter().sum();
            let high = low + share[layer];
            let i = i as u32;
            Rectangle::new(
                [
                    (low, SegmentValue::Exact(i)),
                    (high, SegmentValue::Exact(i + 1)),
                ],
                color.filled(),
            )
        }))?;
    }
    for (row, (label, color)) in layers.iter().enumerate() {
        let y = 80 + 30 * row as i32;
        legend.draw(&Rectangle::new([(10, y), (30, y + 20)], color.filled()))?;
        legend.draw(&Text::new(*label, (40, y + 2), ("sans-serif", 18)))?;
    }
    Ok(())
}
