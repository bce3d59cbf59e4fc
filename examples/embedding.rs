use damka_probe::limits::{RuleSet, RuleTablebase};
use damka_probe::{notation, Position, Russian, Tablebase};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pos: Position<Russian> = "W:WKa1,Kc1,Ke1:BKh2".parse()?;
    let tables = Tablebase::open("tables")?;
    println!("value: {}", tables.probe_wdl(pos)?);
    println!("DTW: {} plies", tables.probe_dtw(pos)?.unwrap_or(0));
    if let Some(mv) = tables.best_move(pos)? {
        println!("best move: {}", notation(&pos, &mv));
    }
    let rules = RuleTablebase::open("tables", RuleSet::preset("russian")?)?;
    let played = rules.set().parse_counters("R1=4")?;
    println!(
        "under russian, R1=4: {}",
        rules.probe_rules(pos, &played)?.answer()
    );
    Ok(())
}
