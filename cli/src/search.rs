//! `imcts search`: one search from a position, with a table (or JSON) of the root's children.

use clap::Args;
use imcts::Game;
use imcts::search::parallel::{ParallelMode, ParallelSettings, StdThreads};
use imcts::search::{Budget, Proven, StopReason};
use imcts::session::{Decision, Player};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Instant;

/// The most threads `--search-threads` accepts.
pub const MAX_SEARCH_THREADS: u32 = 256;

/// `--search-threads N` (search, match, engine and the protocols).
#[derive(Args, Clone, Copy, Debug)]
pub struct SearchThreadsArgs {
    /// Threads searching one MCTS tree together (tree parallelism with virtual loss; see
    /// docs/parallel.md). αβ players, and MCTS with one-child expansion or BBQ options, search
    /// on one thread. More than one thread makes searches non-reproducible.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_SEARCH_THREADS as i64))]
    pub search_threads: u32,
    /// How several search threads divide a search: `tree` (one shared tree, virtual loss) or
    /// `root` (a tree per thread in its share of --pool, root statistics added at the end;
    /// reproducible with --sims). See docs/parallel.md.
    #[arg(long, value_enum, default_value_t = Parallel::Tree)]
    pub parallel: Parallel,
}

/// `--parallel`: the kernel's [`ParallelMode`] on the command line.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallel {
    /// One tree shared by every thread (tree parallelism with virtual loss).
    Tree,
    /// A tree per thread, merged at the root (root parallelism).
    Root,
}

impl Parallel {
    /// The kernel's mode.
    pub fn mode(self) -> ParallelMode {
        match self {
            Parallel::Tree => ParallelMode::Tree,
            Parallel::Root => ParallelMode::Root,
        }
    }
}

/// The protocols' thread count (`engine`, `uci`, `gtp`, `gomocup` serve one engine per
/// process): set once from `--search-threads` before serving.
static PROTOCOL_THREADS: AtomicU32 = AtomicU32::new(1);

/// Sets the thread count the protocol commands search with.
pub fn set_protocol_threads(n: u32) {
    PROTOCOL_THREADS.store(n.max(1), Ordering::Relaxed);
}

/// The threads a protocol command's search runs on.
pub fn protocol_threads() -> StdThreads {
    StdThreads(PROTOCOL_THREADS.load(Ordering::Relaxed))
}

/// Whether the protocols search with root parallelism (`--parallel root`), set once before
/// serving as [`PROTOCOL_THREADS`] is.
static PROTOCOL_ROOT: AtomicBool = AtomicBool::new(false);

/// Sets the thread count and the parallel mode the protocol commands search with.
pub fn set_protocol_search(args: &SearchThreadsArgs) {
    set_protocol_threads(args.search_threads);
    PROTOCOL_ROOT.store(args.parallel == Parallel::Root, Ordering::Relaxed);
}

/// The parallel search's settings for `mode` (the kernel's defaults otherwise: a virtual loss
/// of one).
pub fn parallel_settings(mode: Parallel) -> ParallelSettings {
    ParallelSettings {
        mode: mode.mode(),
        ..ParallelSettings::default()
    }
}

/// The protocols' parallel settings ([`set_protocol_search`]).
pub fn protocol_parallel_settings() -> ParallelSettings {
    parallel_settings(if PROTOCOL_ROOT.load(Ordering::Relaxed) {
        Parallel::Root
    } else {
        Parallel::Tree
    })
}

/// Budget flags shared by search, match and tournament commands.
#[derive(Args, Clone, Copy, Debug)]
#[group(required = true, multiple = true)]
pub struct BudgetArgs {
    /// Simulations per move (αβ: nodes).
    #[arg(long)]
    pub sims: Option<u64>,
    /// Milliseconds per move.
    #[arg(long)]
    pub ms: Option<u64>,
    /// Stop once this many tree nodes are in use (MCTS only).
    #[arg(long)]
    pub nodes: Option<u64>,
}

impl BudgetArgs {
    /// The kernel budget. A zero limit is refused: it would stop every search before its first
    /// simulation.
    pub fn budget(&self) -> Result<Budget, String> {
        for (flag, value) in [
            ("--sims", self.sims),
            ("--ms", self.ms),
            ("--nodes", self.nodes),
        ] {
            if value == Some(0) {
                return Err(format!("{flag} must be at least 1"));
            }
        }
        Ok(Budget {
            iterations: self.sims,
            nodes: self.nodes,
            time_us: self.ms.map(|m| m.saturating_mul(1000)),
        })
    }
}

/// Arguments of `imcts search`.
#[derive(Args)]
#[command(after_long_help = crate::player::labels_help())]
pub struct SearchArgs {
    /// Game: breakthrough, loa, kalah, tictactoe, gomoku.
    game: String,
    /// Player spec, e.g. 'mcts(ipp,im0.4)' (`--help` lists the labels; grammar in the README).
    #[arg(long, default_value = "mcts")]
    player: String,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Search from this position string instead of the initial position.
    #[arg(long)]
    position: Option<String>,
    /// Seed of the search's random generator (overrides a seed in the spec).
    #[arg(long)]
    seed: Option<u64>,
    /// Node pool capacity (24 bytes a node). Default: at least 2 Mi nodes (48 MiB), more for a
    /// time budget (12 million nodes a second of it, up to 8 Mi nodes) so that the tree does not
    /// fill the pool before the time is up.
    #[arg(long)]
    pool: Option<usize>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    threads: SearchThreadsArgs,
}

/// The most nodes a pool can use (node ids are 32-bit); larger `--pool` values are refused.
pub const MAX_POOL: usize = u32::MAX as usize - 1;

pub fn run(args: &SearchArgs) -> Result<(), String> {
    crate::with_game!(args.game.as_str(), G => run_game::<G>(args))
}

/// A microsecond clock for the kernel, from `Instant`.
pub fn wall_clock() -> impl FnMut() -> u64 {
    let t0 = Instant::now();
    move || t0.elapsed().as_micros() as u64
}

fn run_game<G: Game>(args: &SearchArgs) -> Result<(), String> {
    let mut game: G = crate::games::position_or_start(args.position.as_deref())?;
    let budget = args.budget.budget()?;
    let spec = crate::player::parse::<G>(&args.player, args.seed)?;
    if args.pool.is_some_and(|p| p == 0 || p > MAX_POOL) {
        return Err(format!(
            "--pool must be between 1 and {MAX_POOL} nodes (the kernel's limit)"
        ));
    }
    let pool = args
        .pool
        .unwrap_or_else(|| crate::player::default_pool::<G>(&budget));
    let mut memory = crate::player::memory_for(&spec, &budget, Some(pool))?;
    let mut player = Player::new(spec);
    let mut clock = wall_clock();
    let t = Instant::now();
    let d = player.search_parallel(
        &mut game,
        budget,
        &mut clock,
        &mut memory,
        &mut StdThreads(args.threads.search_threads),
        parallel_settings(args.threads.parallel),
    );
    let secs = t.elapsed().as_secs_f64();
    let per_s = if secs > 0.0 {
        d.simulations as f64 / secs
    } else {
        0.0
    };
    let best = d.best.map(|m| crate::games::move_string(&game, m));
    // The principal variation: αβ's own, MCTS's from its tree.
    let pv = if player.is_mcts() {
        player.principal_variation(&mut memory)
    } else {
        d.pv.clone()
    };
    let mut pv_text = Vec::new();
    let mut g = game.clone();
    for &mv in pv.iter().take(32) {
        pv_text.push(crate::games::move_string(&g, mv));
        g.make(mv);
    }
    if !player.is_mcts() {
        print_alphabeta(args, &d, best, pv_text, secs, per_s);
        return Ok(());
    }
    let (mut children, capacity) = player
        .inspect_mcts(&mut memory, |m| {
            (m.root_children().collect::<Vec<_>>(), m.capacity())
        })
        .unwrap_or_default();
    children.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.mean.total_cmp(&a.mean)));
    if args.json {
        let kids: Vec<_> = children
            .iter()
            .map(|c| {
                serde_json::json!({
                    "move": crate::games::move_string(&game, c.mv),
                    "visits": c.visits, "mean": c.mean, "value": c.value,
                    "proven": c.proven.name(),
                })
            })
            .collect();
        let obj = serde_json::json!({
            "game": G::NAME, "player": args.player, "best": best, "value": d.value,
            "proven": d.proven.name(), "sims": d.simulations,
            "sims_per_s": per_s.round(), "nodes": d.nodes, "pool_full": d.pool_full,
            "stop": d.stop.name(), "ms": (secs * 1e6).round() / 1e3, "pv": pv_text,
            "children": kids,
        });
        println!("{obj}");
    } else {
        let proven = match d.proven {
            Proven::Unknown => String::new(),
            p => format!("proven {}", p.name()),
        };
        print_head(args, best.as_deref(), d.value, &proven);
        println!("sims        {} ({:.0}/s)", d.simulations, per_s);
        println!(
            "nodes       {} of {}{}",
            d.nodes,
            capacity,
            if d.pool_full { " (pool full)" } else { "" }
        );
        println!("stop        {}", d.stop.name());
        println!("time        {:.1} ms", secs * 1e3);
        println!("pv          {}", pv_text.join(" "));
        println!();
        println!(
            "{:<8} {:>10} {:>9} {:>9}  proven",
            "move", "visits", "mean", "v"
        );
        for c in children.iter().take(12) {
            println!(
                "{:<8} {:>10} {:>+9.4} {:>+9.4}  {}",
                crate::games::move_string(&game, c.mv),
                c.visits,
                c.mean,
                c.value,
                c.proven.name()
            );
        }
    }
    if d.stop == StopReason::GameOver && d.best.is_none() {
        eprintln!("note: the position is already finished");
    }
    Ok(())
}

/// The αβ report: no children table; the depth, and the proven result with its distance.
fn print_alphabeta<G: Game>(
    args: &SearchArgs,
    d: &Decision<G>,
    best: Option<String>,
    pv_text: Vec<String>,
    secs: f64,
    per_s: f64,
) {
    let proven = match (d.proven, d.proven_in) {
        (Proven::Unknown, _) => String::new(),
        (p, Some(plies)) => format!("{} in {plies}", p.name()),
        (p, None) => p.name().to_string(),
    };
    if args.json {
        let obj = serde_json::json!({
            "game": G::NAME, "player": args.player, "best": best, "value": d.value,
            "proven": proven, "sims": d.nodes, "sims_per_s": per_s.round(), "nodes": d.nodes,
            "depth": d.depth, "stop": d.stop.name(), "ms": (secs * 1e6).round() / 1e3,
            "pv": pv_text, "children": [],
        });
        println!("{obj}");
    } else {
        print_head(args, best.as_deref(), d.value, &proven);
        println!("nodes       {} ({:.0}/s)", d.nodes, per_s);
        println!("depth       {}", d.depth);
        println!("stop        {}", d.stop.name());
        println!("time        {:.1} ms", secs * 1e3);
        println!("pv          {}", pv_text.join(" "));
    }
}

/// The first lines of the table: player, best move, value with the proven result if any.
fn print_head(args: &SearchArgs, best: Option<&str>, value: f32, proven: &str) {
    println!("player      {}", args.player);
    println!("best        {}", best.unwrap_or("(none: game over)"));
    if proven.is_empty() {
        println!("value       {value:+.4}");
    } else {
        println!("value       {value:+.4} ({proven})");
    }
}
