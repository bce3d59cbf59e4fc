//! `damka slices`: lists the material slices in build order.

use std::process::ExitCode;

use damka_core::{summaries, International, Russian, Slice, SliceSummary, Variant, VariantKind};
use damka_gen::budget::group_need;

/// Arguments of `damka slices`.
#[derive(Debug, clap::Args)]
pub struct SlicesArgs {
    /// The variant: `russian` or `international`.
    #[arg(long)]
    pub variant: VariantKind,
    /// The most pieces (both sides together) a listed slice has.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=12))]
    pub pieces: u32,
    /// Print one JSON object per slice and a final total object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// One slice, as a line of `--json` output.
#[derive(serde::Serialize)]
struct SliceRecord<'a> {
    name: Slice,
    pieces: u32,
    positions: u64,
    sub_slices: usize,
    dependencies: &'a [Slice],
    memory: Memory,
}

/// What solving the slice's group (it and its mirror) takes, in bytes, with one
/// unit per thread (`damka_gen::budget`).
#[derive(serde::Serialize, Clone, Copy)]
struct Memory {
    /// Every value in memory.
    resident: u64,
    /// Sub-slices spilled to disk, the dependencies decoded whole.
    spilled: u64,
    /// Blocks streamed to disk as they are solved, one sub-slice read back a
    /// byte per position, the dependencies decoded whole.
    streamed: u64,
    /// Blocks streamed, the dependencies decoded a block at a time in the
    /// least bytes `damka gen` tries (whether a sub-slice's blocks fit shows
    /// only while it is solved).
    least: u64,
    /// Positions of its largest unit.
    unit_positions: u64,
}

/// The last line of `--json` output.
#[derive(serde::Serialize)]
struct TotalRecord {
    total: Totals,
}

/// How many slices and positions were listed, and the group that needs the most
/// memory.
#[derive(serde::Serialize)]
struct Totals {
    slices: usize,
    positions: u128,
    largest_need: Option<(Slice, u64)>,
}

/// Prints every slice with at most `--pieces` pieces in build order, then
/// `total <slices> slices <positions> positions`.
pub fn run(args: &SlicesArgs) -> anyhow::Result<ExitCode> {
    let list = match args.variant {
        VariantKind::Russian => list::<Russian>(args.pieces)?,
        VariantKind::International => list::<International>(args.pieces)?,
    };
    let positions: u128 = list.iter().map(|s| u128::from(s.positions)).sum();
    let threads = rayon::current_num_threads();
    let needs = list
        .iter()
        .map(|s| {
            let need = match args.variant {
                VariantKind::Russian => group_need::<Russian>(s.slice, threads),
                VariantKind::International => group_need::<International>(s.slice, threads),
            }?;
            Ok(Memory {
                resident: need.resident,
                spilled: need.spilled,
                streamed: need.streamed,
                least: need.least,
                unit_positions: need.unit_positions,
            })
        })
        .collect::<Result<Vec<_>, damka_gen::GenError>>()?;
    let largest_need = list
        .iter()
        .zip(&needs)
        .max_by_key(|(_, m)| m.spilled)
        .map(|(s, m)| (s.slice, m.spilled));
    for (summary, &memory) in list.iter().zip(&needs) {
        if args.json {
            let record = SliceRecord {
                name: summary.slice,
                pieces: summary.slice.pieces(),
                positions: summary.positions,
                sub_slices: summary.sub_slices.len(),
                dependencies: &summary.dependencies,
                memory,
            };
            println!("{}", serde_json::to_string(&record)?);
        } else {
            let dependencies: Vec<String> =
                summary.dependencies.iter().map(|d| d.to_string()).collect();
            println!(
                "{:<11} {:>16} positions {:>4} sub-slices  depends on: {}",
                summary.slice.to_string(),
                summary.positions,
                summary.sub_slices.len(),
                if dependencies.is_empty() {
                    "-".to_string()
                } else {
                    dependencies.join(" ")
                }
            );
        }
    }
    if args.json {
        let total = TotalRecord {
            total: Totals {
                slices: list.len(),
                positions,
                largest_need,
            },
        };
        println!("{}", serde_json::to_string(&total)?);
    } else {
        println!("total {} slices {positions} positions", list.len());
    }
    Ok(ExitCode::SUCCESS)
}

fn list<V: Variant>(pieces: u32) -> anyhow::Result<Vec<SliceSummary>> {
    Ok(summaries::<V>(pieces)?)
}
