//! `imcts perft`: move-generation counts, with bulk counting at the last ply.

use clap::Args;
use imcts::{Game, MoveBuffer, perft};
use std::time::Instant;

/// Arguments of `imcts perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Game: breakthrough, loa, kalah, tictactoe, gomoku.
    game: String,
    /// Count sequences of exactly this many plies; every depth from 1 up to it is reported.
    depth: u32,
    /// Start from this position string instead of the initial position.
    #[arg(long)]
    position: Option<String>,
    /// Also print the count below each legal move at the final depth.
    #[arg(long)]
    divide: bool,
    /// One JSON object per line and depth: {"game","depth","nodes","ms"}.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &PerftArgs) -> Result<(), String> {
    crate::with_game!(args.game.as_str(), G => run_game::<G>(args))
}

fn run_game<G: Game>(args: &PerftArgs) -> Result<(), String> {
    if args.depth > 64 {
        return Err(format!("depth {} is too large (at most 64)", args.depth));
    }
    let mut pos: G = crate::games::position_or_start(args.position.as_deref())?;
    if !args.json {
        println!(
            "{:>5} {:>16} {:>12} {:>16}",
            "depth", "nodes", "time ms", "leaves/s"
        );
    }
    for depth in 1..=args.depth {
        let t = Instant::now();
        let nodes = perft(&mut pos, depth);
        let secs = t.elapsed().as_secs_f64();
        let ms = secs * 1000.0;
        if args.json {
            let obj = serde_json::json!({
                "game": G::NAME, "depth": depth, "nodes": nodes, "ms": (ms * 1000.0).round() / 1000.0,
            });
            println!("{obj}");
        } else {
            let rate = if secs > 0.0 {
                nodes as f64 / secs
            } else {
                f64::INFINITY
            };
            println!("{depth:>5} {nodes:>16} {ms:>12.1} {rate:>16.3e}");
        }
    }
    if args.divide && args.depth > 0 {
        let mut list = G::MoveList::default();
        pos.legal_moves(&mut list);
        let mut total = 0;
        for &mv in list.moves() {
            let name = crate::games::move_string(&pos, mv);
            let u = pos.make(mv);
            let n = perft(&mut pos, args.depth - 1);
            pos.undo(mv, u);
            total += n;
            if args.json {
                println!("{}", serde_json::json!({"move": name, "nodes": n}));
            } else {
                println!("{name} {n}");
            }
        }
        if !args.json {
            println!("total {total}");
        }
    }
    Ok(())
}
