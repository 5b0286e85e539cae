//! How the cost of a simulation grows with the tree: one search, run in segments of `SEG`
//! simulations over the same tree (tree reuse at an unchanged root), printing after each
//! segment the simulations so far, the nodes in use, and the thread's CPU time per simulation
//! in that segment. CPU time, not wall clock, so that other processes on a shared machine
//! slow a segment less (they still share its caches). Linux only (it reads
//! `/proc/thread-self/schedstat`); elsewhere the time column is 0.
//!
//! ```sh
//! cargo run --release --example tree_growth -- kalah 'mcts(fet4)' 500000 4 5000000
//! cargo run --release --example tree_growth -- breakthrough mcts 500000 4 10000000 \
//!     '8/1pp3p1/pppp1ppp/1p1p1p1p/1P1P1P1P/PPPP1PPP/P3P2P/8 w'
//! ```
//!
//! Arguments: game (`breakthrough` or `kalah`), player spec, simulations a segment, segments,
//! pool nodes, and an optional position. The seed is 1, so a build gives the same tree every
//! run; docs/performance.md ("Issue 12, tree side (session 4)") uses it.

use imcts::Game;
use imcts::games::{breakthrough::Breakthrough, kalah::Kalah};
use imcts::search::{Budget, NoClock, mcts::Mcts, node::Node, spec::parse_mcts};

/// The calling thread's CPU time in nanoseconds (the first field of its `schedstat`).
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn run<G: Game>(mut game: G, spec: &str, seg: u64, segs: usize, pool: usize) -> Result<(), String> {
    let mut config = parse_mcts::<G>(spec)
        .map_err(|e| e.to_string())?
        .into_inner();
    config.reuse_tree = true;
    config.seed = 1;
    let config = config.validate().map_err(|e| format!("{e:?}"))?;
    let mut nodes = vec![Node::EMPTY; pool];
    let mut mcts = Mcts::new(&mut nodes, config);
    let mut total = 0u64;
    println!("simulations nodes cpu_ns_per_simulation");
    for _ in 0..segs {
        let t = cpu_ns();
        let r = mcts.search(&mut game, Budget::iterations(seg), &mut NoClock);
        let dt = cpu_ns().saturating_sub(t);
        total += r.simulations;
        let per = dt as f64 / r.simulations.max(1) as f64;
        println!("{total} {} {per:.1}", mcts.nodes_used());
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: tree_growth GAME SPEC SIMS_PER_SEGMENT SEGMENTS POOL [POSITION]";
    if args.len() < 5 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let number = |i: usize| -> u64 {
        args[i].parse().unwrap_or_else(|_| {
            eprintln!("{usage}: '{}' is not a number", args[i]);
            std::process::exit(2)
        })
    };
    let (seg, segs, pool) = (number(2), number(3) as usize, number(4) as usize);
    let position = args.get(5).map(String::as_str);
    fn start<G: Game>(position: Option<&str>) -> Result<G, String> {
        match position {
            None => Ok(G::new()),
            Some(p) => G::parse_position(p).map_err(|e| format!("bad position: {e:?}")),
        }
    }
    let result = match args[0].as_str() {
        "breakthrough" => {
            start::<Breakthrough>(position).and_then(|g| run(g, &args[1], seg, segs, pool))
        }
        "kalah" => start::<Kalah>(position).and_then(|g| run(g, &args[1], seg, segs, pool)),
        other => Err(format!("unknown game '{other}' (breakthrough or kalah)")),
    };
    if let Err(e) = result {
        eprintln!("tree_growth: {e}");
        std::process::exit(2);
    }
}
