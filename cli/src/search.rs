//! `imcts search`: one search from a position, with a table (or JSON) of the root's children.

use clap::Args;
use imcts::Game;
use imcts::search::alphabeta::{self, AlphaBetaConfig, TranspositionTable, TtEntry};
use imcts::search::config::Valid;
use imcts::search::mcts::Mcts;
use imcts::search::node::{Node, Proven};
use imcts::search::spec;
use imcts::search::{Budget, StopReason};
use std::time::Instant;

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
    /// The kernel budget.
    pub fn budget(&self) -> Budget {
        Budget {
            iterations: self.sims,
            nodes: self.nodes,
            time_us: self.ms.map(|m| m * 1000),
        }
    }
}

/// Arguments of `imcts search`.
#[derive(Args)]
pub struct SearchArgs {
    /// Game: breakthrough, loa, kalah, tictactoe, gomoku.
    game: String,
    /// Player spec, e.g. 'mcts(ipp,im0.4)' (see the README for the grammar).
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
    /// Node pool capacity (24 bytes a node).
    #[arg(long, default_value_t = DEFAULT_POOL)]
    pool: usize,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

/// Default node capacity: 2 Mi nodes, 48 MiB.
pub const DEFAULT_POOL: usize = 1 << 21;

pub fn run(args: &SearchArgs) -> Result<(), String> {
    crate::with_game!(args.game.as_str(), G => run_game::<G>(args))
}

/// A microsecond clock for the kernel, from `Instant`.
pub fn wall_clock() -> impl FnMut() -> u64 {
    let t0 = Instant::now();
    move || t0.elapsed().as_micros() as u64
}

fn proven_name(p: Proven) -> &'static str {
    match p {
        Proven::Unknown => "",
        Proven::Win => "win",
        Proven::Loss => "loss",
        Proven::Draw => "draw",
    }
}

fn run_game<G: Game>(args: &SearchArgs) -> Result<(), String> {
    let mut game: G = crate::games::position_or_start(args.position.as_deref())?;
    let parsed = spec::parse::<G>(&args.player).map_err(|e| format!("bad player spec {e}"))?;
    let mut config = match parsed {
        spec::PlayerSpec::Mcts(c) => c,
        spec::PlayerSpec::AlphaBeta(c, tt) => return run_alphabeta(args, game, c, tt),
    };
    if let Some(s) = args.seed {
        config = config.with_seed(s);
    }
    if args.pool == 0 {
        return Err("--pool must be at least 1".into());
    }
    let mut nodes = vec![Node::EMPTY; args.pool];
    let mut mcts = Mcts::new(&mut nodes, config);
    let mut clock = wall_clock();
    let t = Instant::now();
    let r = mcts.search(&mut game, args.budget.budget(), &mut clock);
    let secs = t.elapsed().as_secs_f64();
    let sims_per_s = if secs > 0.0 {
        r.simulations as f64 / secs
    } else {
        0.0
    };
    let best = r.best.map(|m| crate::games::move_string(&game, m));
    let mut children: Vec<_> = mcts.root_children().collect();
    children.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.mean.total_cmp(&a.mean)));
    let mut pv = heapless::Vec::<G::Move, 32>::new();
    mcts.principal_variation(&mut pv);
    let mut pv_text = Vec::new();
    let mut g = game.clone();
    for &mv in &pv {
        pv_text.push(crate::games::move_string(&g, mv));
        g.make(mv);
    }
    if args.json {
        let kids: Vec<_> = children
            .iter()
            .map(|c| {
                serde_json::json!({
                    "move": crate::games::move_string(&game, c.mv),
                    "visits": c.visits, "mean": c.mean, "value": c.value,
                    "proven": proven_name(c.proven),
                })
            })
            .collect();
        let obj = serde_json::json!({
            "game": G::NAME, "player": args.player, "best": best, "value": r.value,
            "proven": proven_name(r.proven), "sims": r.simulations,
            "sims_per_s": sims_per_s.round(), "nodes": r.nodes_used, "pool_full": r.pool_full,
            "stop": r.stop.name(), "ms": (secs * 1e6).round() / 1e3, "pv": pv_text,
            "children": kids,
        });
        println!("{obj}");
    } else {
        println!("player      {}", args.player);
        println!(
            "best        {}",
            best.as_deref().unwrap_or("(none: game over)")
        );
        println!(
            "value       {:+.4}{}",
            r.value,
            match r.proven {
                Proven::Unknown => String::new(),
                p => format!(" (proven {})", proven_name(p)),
            }
        );
        println!("sims        {} ({:.0}/s)", r.simulations, sims_per_s);
        println!(
            "nodes       {} of {}{}",
            r.nodes_used,
            mcts.capacity(),
            if r.pool_full { " (pool full)" } else { "" }
        );
        println!("stop        {}", r.stop.name());
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
                proven_name(c.proven)
            );
        }
    }
    if r.stop == StopReason::GameOver && r.best.is_none() {
        eprintln!("note: the position is already finished");
    }
    Ok(())
}

fn run_alphabeta<G: Game>(
    args: &SearchArgs,
    mut game: G,
    config: Valid<AlphaBetaConfig<G>>,
    tt_entries: usize,
) -> Result<(), String> {
    let mut entries = vec![TtEntry::EMPTY; tt_entries];
    let mut tt = TranspositionTable::new(&mut entries);
    let mut clock = wall_clock();
    let t = Instant::now();
    let r = alphabeta::search(
        &mut game,
        &config,
        args.budget.budget(),
        Some(&mut tt),
        &mut clock,
    );
    let secs = t.elapsed().as_secs_f64();
    let per_s = if secs > 0.0 {
        r.nodes as f64 / secs
    } else {
        0.0
    };
    let best = r.best_move.map(|m| crate::games::move_string(&game, m));
    let mut pv_text = Vec::new();
    let mut g = game.clone();
    for &mv in &r.pv {
        pv_text.push(crate::games::move_string(&g, mv));
        g.make(mv);
    }
    let proven = match alphabeta::proven_plies(r.value) {
        Some(p) if r.value > 0.0 => format!("win in {}", p.abs()),
        Some(p) => format!("loss in {}", p.abs()),
        None => String::new(),
    };
    if args.json {
        let obj = serde_json::json!({
            "game": G::NAME, "player": args.player, "best": best, "value": r.value,
            "proven": proven, "sims": r.nodes, "sims_per_s": per_s.round(), "nodes": r.nodes,
            "depth": r.depth, "stop": r.stop.name(), "ms": (secs * 1e6).round() / 1e3,
            "pv": pv_text, "children": [],
        });
        println!("{obj}");
    } else {
        println!("player      {}", args.player);
        println!(
            "best        {}",
            best.as_deref().unwrap_or("(none: game over)")
        );
        println!(
            "value       {:+.4}{}",
            r.value,
            if proven.is_empty() {
                String::new()
            } else {
                format!(" ({proven})")
            }
        );
        println!("nodes       {} ({:.0}/s)", r.nodes, per_s);
        println!("depth       {}", r.depth);
        println!("stop        {}", r.stop.name());
        println!("time        {:.1} ms", secs * 1e3);
        println!("pv          {}", pv_text.join(" "));
    }
    Ok(())
}
