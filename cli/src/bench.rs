//! `imcts bench`: a fixed set of searches whose node counts form a signature of the search's
//! behaviour (Stockfish's `bench`).
//!
//! Every entry is a position of one game (openings, middle games, and endings whose result is
//! known, written beside them), a player spec and a fixed budget. Each search runs on one thread
//! with a fresh node pool (or a fresh transposition table for αβ) and the spec's fixed seed, so
//! the counts are the same on every run and every platform: the kernel computes its floats with
//! `libm`, and the signature holds only integers.
//!
//! Entries with a known result (a win in 3, a lost position, …) also check that the search
//! proves it; a wrong proof is an error.
//!
//! The last lines are `Bench: <N>`, the sum of the nodes every search used (MCTS: pool slots in
//! use when it stopped, the children blocks' header slots included; αβ: nodes searched), and the
//! simulations per second of the MCTS searches. A change of behaviour changes `N`:
//! `.ci/bench-signature` holds the current value, and `.ci/run` compares it, so such a change
//! has to update it on purpose.

use clap::Args;
use imcts::Game;
use imcts::search::{Budget, NoClock, Proven};
use imcts::session::Player;
use std::time::Instant;

/// Arguments of `imcts bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// One JSON object (every position and the totals) instead of the table.
    #[arg(long)]
    json: bool,
}

/// One search of the bench.
struct Entry {
    /// The game's command-line name.
    game: &'static str,
    /// A short name for the position.
    name: &'static str,
    /// The position string, `None` for the initial position.
    position: Option<&'static str>,
    /// The player spec.
    player: &'static str,
    /// MCTS simulations, or the αβ node cap.
    budget: u64,
    /// The known result for the side to move (`"win"`, `"loss"`), which the search must prove;
    /// `None` where the result is unknown or not expected to be proven within the budget.
    known: Option<&'static str>,
}

/// Node pool capacity cap per search (24 MiB); small budgets get a pool sized to the budget.
const MAX_POOL: usize = 1 << 20;

const BREAKTHROUGH_MIDDLE: &str = "pppppppp/1ppp1ppp/4p3/p7/2P1P3/1P6/P2P1PPP/PPPPPPP1 w";
const LINES_OF_ACTION_MIDDLE: &str = "1XXX1XX1/O6O/O1X1O3/O6O/O1O4O/O2X3O/7O/1XX1XXX1 b";
const GOMOKU_LATE: &str = "O3XXXX2O2OX/2OX3OX1XX3/1O4XX2OO1X1/15/1X4OO1OO1OO1/O2XX1O3X4/2X1O2O6X/X4O1XXX3OX/1OO2X1O2O1X2/2XXO1XO3OXX1/X3X1O4O1X1/XO1O2XX4XO1/OO2O1O3OO1X1/O2O1OOXXO3X1/4XX3XX2OO b";

/// The bench. Changing this list changes the signature: update `.ci/bench-signature` with it.
const ENTRIES: &[Entry] = &[
    // ----- Breakthrough
    Entry {
        game: "breakthrough",
        name: "start",
        position: None,
        player: "mcts",
        budget: 20_000,
        known: None,
    },
    Entry {
        game: "breakthrough",
        name: "start",
        position: None,
        player: "mcts(ipp,im0.4,np)",
        budget: 10_000,
        known: None,
    },
    Entry {
        game: "breakthrough",
        name: "middle",
        position: Some(BREAKTHROUGH_MIDDLE),
        player: "mcts(bl,im0.4)",
        budget: 5_000,
        known: None,
    },
    Entry {
        game: "breakthrough",
        name: "middle",
        position: Some(BREAKTHROUGH_MIDDLE),
        player: "mcts(bl',im0.4)",
        budget: 10_000,
        known: None,
    },
    // White wins in 3 plies: e6-e7, any, e7-e8; the solver proves it.
    Entry {
        game: "breakthrough",
        name: "win-in-3",
        position: Some("p6p/8/4P3/8/8/8/8/P7 w"),
        player: "mcts(im0.4)",
        budget: 5_000,
        known: Some("win"),
    },
    // Black to move loses in 2 plies whatever it does: White's e7 reaches rank 8 next.
    Entry {
        game: "breakthrough",
        name: "lost-in-2",
        position: Some("p6p/4P3/8/8/8/8/8/P7 b"),
        player: "mcts",
        budget: 5_000,
        known: Some("loss"),
    },
    Entry {
        game: "breakthrough",
        name: "middle",
        position: Some(BREAKTHROUGH_MIDDLE),
        player: "ab(depth4,tt65536)",
        budget: 2_000_000,
        known: None,
    },
    // ----- Lines of Action
    Entry {
        game: "loa",
        name: "start",
        position: None,
        player: "mcts(ipp)",
        budget: 3_000,
        known: None,
    },
    Entry {
        game: "loa",
        name: "middle",
        position: Some(LINES_OF_ACTION_MIDDLE),
        player: "mcts(ipp,im0.2,pb)",
        budget: 3_000,
        known: None,
    },
    Entry {
        game: "loa",
        name: "middle",
        position: Some(LINES_OF_ACTION_MIDDLE),
        player: "mcts(ipp,one,fet20,im0.2)",
        budget: 3_000,
        known: None,
    },
    // Black wins in 1 ply: c1-b2 joins a1, a2 and b2.
    Entry {
        game: "loa",
        name: "win-in-1",
        position: Some("4O2O/8/8/7O/8/8/X7/X1X5 b"),
        player: "mcts(ipp)",
        budget: 2_000,
        known: Some("win"),
    },
    Entry {
        game: "loa",
        name: "middle",
        position: Some(LINES_OF_ACTION_MIDDLE),
        player: "ab(depth3,tt65536)",
        budget: 2_000_000,
        known: None,
    },
    // ----- Kalah
    Entry {
        game: "kalah",
        name: "start",
        position: None,
        player: "mcts",
        budget: 20_000,
        known: None,
    },
    Entry {
        game: "kalah",
        name: "start",
        position: None,
        player: "mcts(im0.3)",
        budget: 20_000,
        known: None,
    },
    // South to move loses whatever it plays (checked by an exhaustive search of the
    // reference rules); the solver proves it.
    Entry {
        game: "kalah",
        name: "ending",
        position: Some("0,0,1,0,2,1/1,0,0,0,1,0/20-22 s"),
        player: "mcts(im0.3)",
        budget: 10_000,
        known: Some("loss"),
    },
    Entry {
        game: "kalah",
        name: "start",
        position: None,
        player: "ab(depth8,tt65536)",
        budget: 2_000_000,
        known: None,
    },
    // ----- Tic-Tac-Toe
    // A draw with perfect play.
    Entry {
        game: "tictactoe",
        name: "start",
        position: None,
        player: "mcts",
        budget: 20_000,
        known: None,
    },
    // Paper 003, Fig. 5(b): X wins with every move except B2, which only draws.
    Entry {
        game: "tictactoe",
        name: "fig5b",
        position: Some("XOO/.../.X. x"),
        player: "mcts(im0.5)",
        budget: 5_000,
        known: Some("win"),
    },
    // A draw with perfect play: αβ resolves the whole tree.
    Entry {
        game: "tictactoe",
        name: "start",
        position: None,
        player: "ab(tt65536)",
        budget: 2_000_000,
        known: None,
    },
    // ----- Outer-Open Gomoku
    Entry {
        game: "gomoku",
        name: "start",
        position: None,
        player: "mcts",
        budget: 2_000,
        known: None,
    },
    Entry {
        game: "gomoku",
        name: "late",
        position: Some(GOMOKU_LATE),
        player: "mcts(im0.4)",
        budget: 5_000,
        known: None,
    },
    Entry {
        game: "gomoku",
        name: "late",
        position: Some(GOMOKU_LATE),
        player: "ab(depth3,tt65536)",
        budget: 2_000_000,
        known: None,
    },
];

/// What one search of the bench reports.
struct Line {
    best: String,
    /// Simulations (MCTS) or nodes (αβ).
    sims: u64,
    /// Tree nodes used (MCTS) or nodes searched (αβ): the part of the signature.
    nodes: u64,
    value: f32,
    proven: &'static str,
    stop: &'static str,
    secs: f64,
    mcts: bool,
}

fn run_entry<G: Game>(e: &Entry) -> Result<Line, String> {
    let mut game: G = crate::games::position_or_start(e.position)?;
    let before = game.clone();
    let spec = crate::player::parse::<G>(e.player, None)?;
    let budget = Budget::iterations(e.budget);
    let pool = (e.budget as usize)
        .saturating_mul(G::MAX_MOVES + 1)
        .saturating_add(G::MAX_MOVES + 2)
        .min(MAX_POOL);
    let mut memory = crate::player::memory_for(&spec, &budget, Some(pool))?;
    let mut player = Player::new(spec);
    let t = Instant::now();
    let d = player.search(&mut game, budget, &mut NoClock, &mut memory);
    let secs = t.elapsed().as_secs_f64();
    let line = Line {
        best: d
            .best
            .map_or("-".into(), |m| crate::games::move_string(&game, m)),
        sims: d.simulations,
        nodes: d.nodes,
        value: d.value,
        proven: match d.proven {
            Proven::Unknown => "-",
            p => p.name(),
        },
        stop: d.stop.name(),
        secs,
        mcts: player.is_mcts(),
    };
    if game != before {
        return Err(format!(
            "{} {}: the search changed the position",
            e.game, e.name
        ));
    }
    Ok(line)
}

/// Runs the bench and prints a line per search and the `Bench:` signature.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let mut total_nodes = 0u64;
    let (mut mcts_sims, mut mcts_secs, mut all_secs) = (0u64, 0f64, 0f64);
    let mut rows = Vec::new();
    if !args.json {
        println!(
            "{:<13} {:<10} {:<26} {:<8} {:>8} {:>9} {:>8} {:<6} {:<11} {:>8}",
            "game", "position", "player", "best", "sims", "nodes", "value", "proven", "stop", "ms"
        );
    }
    for e in ENTRIES {
        let l = crate::with_game!(e.game, G => run_entry::<G>(e))?;
        if let Some(known) = e.known {
            if l.proven != known {
                return Err(format!(
                    "{} {} {}: proved '{}', but the known result is '{known}'",
                    e.game, e.name, e.player, l.proven
                ));
            }
        }
        total_nodes += l.nodes;
        all_secs += l.secs;
        if l.mcts {
            mcts_sims += l.sims;
            mcts_secs += l.secs;
        }
        if args.json {
            rows.push(serde_json::json!({
                "game": e.game, "position": e.name, "player": e.player, "best": l.best,
                "sims": l.sims, "nodes": l.nodes, "value": format!("{:+.4}", l.value),
                "proven": l.proven, "stop": l.stop, "ms": (l.secs * 1e6).round() / 1e3,
            }));
        } else {
            println!(
                "{:<13} {:<10} {:<26} {:<8} {:>8} {:>9} {:>+8.4} {:<6} {:<11} {:>8.1}",
                e.game,
                e.name,
                e.player,
                l.best,
                l.sims,
                l.nodes,
                l.value,
                l.proven,
                l.stop,
                l.secs * 1e3
            );
        }
    }
    let sims_per_s = if mcts_secs > 0.0 {
        (mcts_sims as f64 / mcts_secs).round()
    } else {
        0.0
    };
    if args.json {
        let obj = serde_json::json!({
            "positions": rows, "bench": total_nodes, "mcts_sims": mcts_sims,
            "sims_per_s": sims_per_s, "ms": (all_secs * 1e6).round() / 1e3,
        });
        println!("{obj}");
    } else {
        println!();
        println!("Searches      : {}", ENTRIES.len());
        println!("MCTS sims     : {mcts_sims}");
        println!("MCTS sims/s   : {sims_per_s}");
        println!("Total time ms : {:.0}", all_secs * 1e3);
        println!("Bench: {total_nodes}");
    }
    Ok(())
}
