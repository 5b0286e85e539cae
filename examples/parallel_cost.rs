//! What a simulation costs in CPU time with the parallel search, separated into its two parts:
//! the atomic operations themselves, and the threads meeting on shared nodes. Runs the same
//! search (fresh tree, seed 1) in three modes, alternating, and prints each mode's median CPU
//! time per simulation over the repeats:
//!
//! - `serial`: [`Mcts::search`], the single-threaded loop (plain loads and stores);
//! - `atomic1`: [`Mcts::search_parallel`] asked for two threads by a host that starts none (the
//!   search is correct with any number of threads), so the parallel loop runs on one thread:
//!   every atomic read-modify-write and virtual loss, but no other thread to contend with.
//!   Deterministic, so `valgrind --tool=callgrind` counts it exactly;
//! - `par2`: two threads on one tree, each thread's CPU time summed.
//!
//! `atomic1 / serial` is the price of the atomics, `par2 / atomic1` the price of contention
//! (cache lines moving between cores). CPU time, not wall clock, so the other processes of a
//! shared machine change it less (they still share its caches). Linux only (it reads
//! `/proc/thread-self/schedstat`); elsewhere the times are 0.
//!
//! ```sh
//! cargo run --release --example parallel_cost -- kalah 'mcts(fet4)' 300000 2000000 5
//! cargo run --release --example parallel_cost -- kalah 'mcts(fet4)' 300000 2000000 1 atomic1
//! ```
//!
//! Arguments: game (`breakthrough` or `kalah`), player spec, simulations, pool nodes, repeats,
//! and optionally one mode to run alone (for callgrind). docs/performance.md ("Kalah tree,
//! session 6") uses it.

use imcts::Game;
use imcts::games::{breakthrough::Breakthrough, kalah::Kalah};
use imcts::search::node::NodeId;
use imcts::search::parallel::{ParallelSettings, Threads};
use imcts::search::pool::Pool;
use imcts::search::{Budget, NoClock, mcts::Mcts, node::Node, spec::parse_mcts};
use std::sync::atomic::{AtomicU64, Ordering};

/// The calling thread's CPU time in nanoseconds (the first field of its `schedstat`).
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// `n` threads (`std::thread::scope`), or with `skip` a host that claims two and starts none;
/// adds every thread's CPU time to `cpu`.
struct Timed<'a> {
    n: u32,
    skip: bool,
    cpu: &'a AtomicU64,
}

impl Threads for Timed<'_> {
    fn count(&self) -> u32 {
        self.n
    }
    fn run(&mut self, helper: &(dyn Fn(u32) + Sync), main: &mut dyn FnMut()) {
        let cpu = self.cpu;
        let timed_main = |main: &mut dyn FnMut()| {
            let t = cpu_ns();
            main();
            cpu.fetch_add(cpu_ns() - t, Ordering::Relaxed);
        };
        if self.skip {
            timed_main(main);
            return;
        }
        std::thread::scope(|s| {
            for i in 1..self.n {
                s.spawn(move || {
                    let t = cpu_ns();
                    helper(i);
                    cpu.fetch_add(cpu_ns() - t, Ordering::Relaxed);
                });
            }
            timed_main(main);
        });
    }
}

/// How much two simulations of this tree have in common, if each follows the visit
/// distribution: the mean depth of a simulation's path in the tree (nodes below the root), and
/// the expected number of those nodes that two independent simulations both pass through,
/// `sum over nodes of (n / N)^2` (`N` the root's children's visits). Each such node is one a
/// second thread writes (virtual loss, backup) while the first reads its block of siblings.
fn sharing(pool: &Pool<'_>) -> (f64, f64) {
    let total: f64 = pool
        .children(NodeId::ROOT)
        .iter()
        .map(|c| c.visits() as f64)
        .sum();
    let (mut depth, mut shared) = (0.0, 0.0);
    let mut stack = vec![NodeId::ROOT];
    while let Some(id) = stack.pop() {
        let first = pool.get(id).first_child_index();
        for (i, c) in pool.children(id).iter().enumerate() {
            let p = c.visits() as f64 / total;
            depth += p;
            shared += p * p;
            stack.push(NodeId(first + i as u32));
        }
    }
    (depth, shared)
}

/// One search in `mode` on a fresh tree: (CPU ns per simulation, nodes used).
fn once<G: Game>(
    spec: &str,
    sims: u64,
    nodes: &mut [Node],
    mode: &str,
) -> Result<(f64, u32), String> {
    let mut config = parse_mcts::<G>(spec)
        .map_err(|e| e.to_string())?
        .into_inner();
    config.seed = 1;
    let config = config.validate().map_err(|e| format!("{e:?}"))?;
    let mut mcts = Mcts::new(nodes, config);
    let mut game = G::new();
    let cpu = AtomicU64::new(0);
    let r = match mode {
        "serial" => {
            let t = cpu_ns();
            let r = mcts.search(&mut game, Budget::iterations(sims), &mut NoClock);
            cpu.store(cpu_ns() - t, Ordering::Relaxed);
            r
        }
        "atomic1" | "par2" => {
            let mut threads = Timed {
                n: 2,
                skip: mode == "atomic1",
                cpu: &cpu,
            };
            mcts.search_parallel(
                &mut game,
                Budget::iterations(sims),
                &mut NoClock,
                &mut threads,
                ParallelSettings::default(),
            )
        }
        other => return Err(format!("unknown mode '{other}' (serial, atomic1 or par2)")),
    };
    assert_eq!(r.simulations, sims);
    if mode == "serial" {
        let (depth, shared) = sharing(mcts.pool());
        println!("path depth {depth:.2} nodes, shared by two simulations {shared:.2}");
    }
    let per = cpu.load(Ordering::Relaxed) as f64 / sims as f64;
    Ok((per, r.nodes_used))
}

fn run<G: Game>(
    spec: &str,
    sims: u64,
    pool: usize,
    repeats: usize,
    only: Option<&str>,
) -> Result<(), String> {
    let mut nodes = vec![Node::EMPTY; pool];
    let modes: Vec<&str> = match only {
        Some(m) => vec![m],
        None => vec!["serial", "atomic1", "par2"],
    };
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); modes.len()];
    for _ in 0..repeats {
        for (k, mode) in modes.iter().enumerate() {
            nodes.fill(Node::EMPTY);
            let (per, used) = once::<G>(spec, sims, &mut nodes, mode)?;
            println!("{mode} {per:.1} ns/simulation ({used} nodes)");
            times[k].push(per);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let meds: Vec<f64> = times.iter_mut().map(median).collect();
    for (mode, m) in modes.iter().zip(&meds) {
        println!("median {mode} {m:.1} ns/simulation");
    }
    if meds.len() == 3 {
        println!(
            "atomic1/serial {:.3}  par2/atomic1 {:.3}  par2/serial {:.3}  (2 x serial/par2 = {:.2})",
            meds[1] / meds[0],
            meds[2] / meds[1],
            meds[2] / meds[0],
            2.0 * meds[0] / meds[2]
        );
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: parallel_cost GAME SPEC SIMS POOL REPEATS [serial|atomic1|par2]";
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
    let (sims, pool, repeats) = (number(2), number(3) as usize, number(4) as usize);
    let only = args.get(5).map(String::as_str);
    let result = match args[0].as_str() {
        "breakthrough" => run::<Breakthrough>(&args[1], sims, pool, repeats, only),
        "kalah" => run::<Kalah>(&args[1], sims, pool, repeats, only),
        other => Err(format!("unknown game '{other}' (breakthrough or kalah)")),
    };
    if let Err(e) = result {
        eprintln!("parallel_cost: {e}");
        std::process::exit(2);
    }
}
