//! Concurrency tests of the parallel search: each checks an invariant that a lost update, a
//! leaked virtual loss, a double expansion or a retracted proof would break.

use super::{OneThread, ParallelSettings, Threads};
use crate::game::{Game, MoveBuffer};
use crate::games::breakthrough::Breakthrough;
use crate::games::tictactoe::TicTacToe;
use crate::rng::{below, seeded};
use crate::search::config::{MctsConfig, Valid};
use crate::search::mcts::{Mcts, SearchResult};
use crate::search::node::{Node, NodeId, Proven, flag};
use crate::search::pool::Pool;
use crate::search::{Budget, NoClock, ROOT_VISIT_LIMIT, StopReason, spec};
use std::vec;
use std::vec::Vec;

/// `n` scoped std threads (the kernel's `StdThreads` needs the `std` feature; tests have std).
pub(super) struct TestThreads(pub(super) u32);

impl Threads for TestThreads {
    fn count(&self) -> u32 {
        self.0
    }
    fn run(&mut self, helper: &(dyn Fn(u32) + Sync), main: &mut dyn FnMut()) {
        std::thread::scope(|s| {
            for i in 1..self.0 {
                s.spawn(move || helper(i));
            }
            main();
        });
    }
}

/// A host that claims `n` threads and starts none of the helpers: the parallel loop runs on
/// the calling thread alone.
pub(super) struct SkipsHelpers(pub(super) u32);

impl Threads for SkipsHelpers {
    fn count(&self) -> u32 {
        self.0
    }
    fn run(&mut self, _helper: &(dyn Fn(u32) + Sync), main: &mut dyn FnMut()) {
        main();
    }
}

fn parallel<G: Game>(
    game: &G,
    config: Valid<MctsConfig<G>>,
    budget: Budget,
    threads: u32,
    nodes: &mut [Node],
) -> SearchResult<G> {
    let mut g = game.clone();
    let mut m = Mcts::new(nodes, config);
    let r = m.search_parallel(
        &mut g,
        budget,
        &mut NoClock,
        &mut TestThreads(threads),
        ParallelSettings::default(),
    );
    assert_eq!(&g, game, "the search must leave the game as it was");
    r
}

/// Checks the counts of every node of the tree in `nodes[..len]` (no node priors): a node's
/// visits are at least the sum of its children's (simulations end at it or pass to one child),
/// the reward sum is within ±visits, and a proven node's value is its proven reward.
pub(super) fn check_counts(nodes: &mut [Node], len: u32) {
    let mut pool = Pool::new(nodes);
    assert!(pool.restore_len(len), "links stay inside the tree");
    let headers = pool.header_slots();
    for i in 0..len {
        if headers.binary_search(&(i as usize)).is_ok() {
            continue;
        }
        let n = *pool.get(NodeId(i));
        // Below the threshold the statistic is the sum (above it a mean, within ±1 by form).
        let sum = if n.visits < crate::search::stats::MEAN_FROM {
            n.stat
        } else {
            n.mean() * n.visits as f32
        };
        assert!(
            sum.abs() <= n.visits as f32 + 1e-3,
            "node {i}: reward {sum} over {} visits (a virtual loss left behind?)",
            n.visits
        );
        if let Some(r) = n.proven.reward() {
            assert_eq!(n.value, r, "node {i}: proven, value {}", n.value);
        }
        if n.is(flag::EXPANDED) {
            let sum: u64 = pool
                .children(NodeId(i))
                .iter()
                .map(|c| c.visits as u64)
                .sum();
            assert!(
                sum <= n.visits as u64,
                "node {i}: children have {sum} visits, the node {}",
                n.visits
            );
        }
    }
}

#[test]
fn every_simulation_is_counted_once_at_the_root_and_no_virtual_loss_remains() {
    for (threads, vl) in [(2, 1), (4, 1), (4, 3), (3, 0), (2, u32::MAX)] {
        let game = Breakthrough::new();
        let mut nodes = vec![Node::EMPTY; 400_000];
        let cfg = spec::parse_mcts::<Breakthrough>("mcts(im0.4,efLH)").unwrap();
        let mut g = game.clone();
        let mut m = Mcts::new(&mut nodes, cfg);
        let r = m.search_parallel(
            &mut g,
            Budget::iterations(6000),
            &mut NoClock,
            &mut TestThreads(threads),
            ParallelSettings {
                virtual_loss: vl,
                ..Default::default()
            },
        );
        assert_eq!(r.simulations, 6000);
        assert_eq!(r.stop, StopReason::Iterations);
        assert!(game.is_legal(r.best.unwrap()));
        let root = *m.pool().get(NodeId::ROOT);
        assert_eq!(root.visits, 6000, "{threads} threads, virtual loss {vl}");
        let children: u64 = m.root_children().map(|c| c.visits as u64).sum();
        assert_eq!(children, 6000, "every simulation passes one root child");
        let len = m.nodes_used();
        check_counts(&mut nodes, len);
    }
}

#[test]
fn one_thread_is_the_single_threaded_search_bit_for_bit() {
    let game = Breakthrough::new();
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(ipp,im0.4)").unwrap();
    let mut a = vec![Node::EMPTY; 100_000];
    let mut b = vec![Node::EMPTY; 100_000];
    let (ra, rb) = {
        let mut ga = game.clone();
        let mut gb = game.clone();
        let mut ma = Mcts::new(&mut a, cfg);
        let mut mb = Mcts::new(&mut b, cfg);
        let ra = ma.search(&mut ga, Budget::iterations(3000), &mut NoClock);
        let rb = mb.search_parallel(
            &mut gb,
            Budget::iterations(3000),
            &mut NoClock,
            &mut OneThread,
            ParallelSettings::default(),
        );
        (ra, rb)
    };
    assert_eq!(ra, rb);
    assert_eq!(a, b);
}

/// Tic-Tac-Toe positions `plies` random moves from the start (not finished).
pub(super) fn ttt_positions() -> Vec<TicTacToe> {
    let mut out = Vec::new();
    for seed in 0..12u64 {
        let mut rng = seeded(seed);
        let mut g = TicTacToe::new();
        let plies = 1 + seed % 5;
        let mut list = <TicTacToe as Game>::MoveList::default();
        for _ in 0..plies {
            g.legal_moves(&mut list);
            let mv = list.moves()[below(&mut rng, list.moves().len() as u32) as usize];
            let before = g;
            g.make(mv);
            if g.outcome().is_some() {
                g = before;
                break;
            }
        }
        out.push(g);
    }
    out
}

#[test]
fn solver_proofs_agree_with_the_single_threaded_search_on_tic_tac_toe() {
    for (i, game) in ttt_positions().into_iter().enumerate() {
        for label in ["mcts", "mcts(im0.3)"] {
            let cfg = spec::parse_mcts::<TicTacToe>(label).unwrap();
            let mut one = vec![Node::EMPTY; 200_000];
            let mut g = game;
            let single =
                Mcts::new(&mut one, cfg).search(&mut g, Budget::iterations(200_000), &mut NoClock);
            assert_eq!(single.stop, StopReason::Proven, "position {i}: {game:?}");
            for threads in [2, 4] {
                let mut nodes = vec![Node::EMPTY; 200_000];
                let r = parallel(&game, cfg, Budget::iterations(200_000), threads, &mut nodes);
                assert_eq!(
                    r.stop,
                    StopReason::Proven,
                    "position {i}, {threads} threads"
                );
                assert_eq!(r.proven, single.proven, "position {i}, {threads} threads");
                assert_eq!(r.value, single.value, "position {i}, {threads} threads");
                if single.proven == Proven::Win {
                    // The move played must itself be a proven win.
                    let mut g = game;
                    g.make(r.best.unwrap());
                    let mut check = vec![Node::EMPTY; 200_000];
                    let after = Mcts::new(&mut check, cfg).search(
                        &mut g,
                        Budget::iterations(200_000),
                        &mut NoClock,
                    );
                    assert!(
                        after.proven == Proven::Loss || g.outcome().is_some(),
                        "position {i}: the chosen move does not win"
                    );
                }
                let len = r.nodes_used;
                check_counts(&mut nodes, len);
            }
        }
    }
}

#[test]
fn a_full_pool_gives_a_legal_move_and_a_sound_tree() {
    for pool in [49u32, 60, 500, 3000] {
        let game = Breakthrough::new();
        let cfg = spec::parse_mcts::<Breakthrough>("mcts(im0.4)").unwrap();
        let mut nodes = vec![Node::EMPTY; pool as usize];
        let r = parallel(&game, cfg, Budget::iterations(5000), 4, &mut nodes);
        assert!(game.is_legal(r.best.unwrap()), "pool {pool}");
        assert!(r.pool_full, "pool {pool}");
        assert!(r.nodes_used <= pool);
        assert_eq!(r.simulations, 5000);
        check_counts(&mut nodes, r.nodes_used);
        assert_eq!(nodes[0].visits, 5000);
    }
    // Stop when full: every thread stops, the move is still legal.
    let game = Breakthrough::new();
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(stopfull)").unwrap();
    let mut nodes = vec![Node::EMPTY; 2000];
    let r = parallel(&game, cfg, Budget::iterations(1_000_000), 3, &mut nodes);
    assert_eq!(r.stop, StopReason::PoolFull);
    assert!(r.simulations < 1_000_000);
    assert!(game.is_legal(r.best.unwrap()));
    check_counts(&mut nodes, r.nodes_used);
}

/// Six moves of `mcts(ipp,im0.4,reuse)` searched on `threads` threads with `settings`, each
/// followed by `advance`: each move is legal, the reused root starts with the visits its
/// subtree had, and the tree never holds more than `max_nodes`.
pub(super) fn reuse_over_six_moves(threads: u32, settings: ParallelSettings, max_nodes: u32) {
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(ipp,im0.4,reuse)").unwrap();
    let mut nodes = vec![Node::EMPTY; 300_000];
    let mut game = Breakthrough::new();
    let mut m = Mcts::new(&mut nodes, cfg);
    let mut threads = TestThreads(threads);
    for ply in 0..6 {
        let budget = Budget::iterations(3000);
        let r = m.search_parallel(&mut game, budget, &mut NoClock, &mut threads, settings);
        let best = r.best.unwrap();
        assert!(game.is_legal(best), "ply {ply}");
        assert!(m.nodes_used() <= max_nodes, "ply {ply}: {}", m.nodes_used());
        let kept = m.root_children().find(|c| c.mv == best).unwrap().visits;
        m.advance(best);
        game.make(best);
        assert_eq!(m.pool().get(NodeId::ROOT).visits, kept, "ply {ply}");
    }
}

#[test]
fn tree_reuse_keeps_the_played_subtree_across_parallel_searches() {
    reuse_over_six_moves(3, ParallelSettings::default(), 300_000);
}

#[test]
fn node_and_time_limits_stop_every_thread() {
    let game = Breakthrough::new();
    let cfg = spec::parse_mcts::<Breakthrough>("mcts").unwrap();
    let mut nodes = vec![Node::EMPTY; 400_000];
    let r = parallel(
        &game,
        cfg,
        Budget {
            iterations: None,
            nodes: Some(20_000),
            time_us: None,
        },
        4,
        &mut nodes,
    );
    assert_eq!(r.stop, StopReason::Nodes);
    // Each thread may add one expansion after the limit was seen by another.
    assert!(r.nodes_used < 20_000 + 4 * 48, "{}", r.nodes_used);
    // A clock read only by the calling thread, advancing one unit a reading: the search ends
    // after about 1000 readings of the calling thread, whatever the others do.
    let mut t = 0u64;
    let mut clock = || {
        t += 1;
        t
    };
    let mut g = game.clone();
    let mut m = Mcts::new(&mut nodes, cfg);
    let r = m.search_parallel(
        &mut g,
        Budget {
            iterations: None,
            nodes: None,
            time_us: Some(1000),
        },
        &mut clock,
        &mut TestThreads(2),
        ParallelSettings::default(),
    );
    assert_eq!(r.stop, StopReason::Time);
    assert!(r.simulations > 0);
}

#[test]
fn code_ties_order_the_children_of_every_node_in_the_parallel_search_too() {
    // `code-ties` sorts a node's children into the paper's code's order when they are created;
    // the parallel expansion must do it as the one-thread one does, at every level.
    let game = Breakthrough::new();
    let mut nodes = vec![Node::EMPTY; 200_000];
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(code-ties)").unwrap();
    parallel(&game, cfg, Budget::iterations(3000), 2, &mut nodes);
    let mut pool = Pool::new(&mut nodes);
    assert!(pool.restore_len(200_000.min(pool.capacity())));
    let mut stack = vec![(NodeId::ROOT, game)];
    let mut sorted_nodes = 0;
    while let Some((id, pos)) = stack.pop() {
        let n = *pool.get(id);
        if !n.is(flag::EXPANDED) || n.children < 2 {
            continue;
        }
        let kids = pool.children(id);
        let keys: Vec<u16> = kids
            .iter()
            .map(|c| pos.paper_code_order(Breakthrough::decode_move(c.mv).unwrap()))
            .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:?}");
        sorted_nodes += 1;
        for (i, c) in kids.iter().enumerate() {
            if c.is(flag::EXPANDED) {
                let mut next = pos.clone();
                next.make(Breakthrough::decode_move(c.mv).unwrap());
                stack.push((NodeId(n.first_child + i as u32), next));
            }
        }
    }
    assert!(sorted_nodes > 100, "{sorted_nodes} expanded nodes checked");
}

#[test]
fn the_parallel_loop_alone_is_the_single_threaded_search_solver_step_included() {
    // Without a virtual loss and below the batching threshold, the parallel loop on one thread
    // makes the same choices from the same random numbers as the one-thread loop: the same
    // tree, bit for bit, including the nodes the solver step (B16) expanded and proved. Sharp
    // middle games from random play, where proofs happen.
    let mut proofs = 0;
    for seed in 0..6u64 {
        let mut game = Breakthrough::new();
        let mut rng = seeded(100 + seed);
        let mut list = <Breakthrough as Game>::MoveList::default();
        for _ in 0..44 {
            game.legal_moves(&mut list);
            let mv = list.moves()[below(&mut rng, list.moves().len() as u32) as usize];
            let before = game.clone();
            game.make(mv);
            if game.outcome().is_some() {
                game = before;
                break;
            }
        }
        for label in ["mcts", "mcts(efLH,bl')"] {
            let cfg = spec::parse_mcts::<Breakthrough>(label).unwrap();
            let mut a = vec![Node::EMPTY; 200_000];
            let mut b = vec![Node::EMPTY; 200_000];
            let budget = Budget::iterations(3000);
            let mut g = game.clone();
            let ra = Mcts::new(&mut a, cfg).search(&mut g, budget, &mut NoClock);
            let rb = Mcts::new(&mut b, cfg).search_parallel(
                &mut g,
                budget,
                &mut NoClock,
                &mut SkipsHelpers(2),
                ParallelSettings {
                    virtual_loss: 0,
                    ..Default::default()
                },
            );
            assert_eq!(
                (ra.best, ra.value, ra.proven, ra.nodes_used),
                (rb.best, rb.value, rb.proven, rb.nodes_used),
                "seed {seed}, {label}"
            );
            // The one-thread search leaves scan caches in the blocks' headers, which the
            // parallel loop does not fill: the trees are compared without them.
            for nodes in [&mut a, &mut b] {
                let mut pool = Pool::new(nodes);
                pool.restore_len(ra.nodes_used);
                for h in pool.header_slots() {
                    *pool.get_mut(NodeId(h as u32)) = Node::EMPTY;
                }
            }
            assert!(a == b, "seed {seed}, {label}: the trees differ");
            proofs += a[..ra.nodes_used as usize]
                .iter()
                .filter(|n| n.proven != Proven::Unknown && !n.is(flag::TERMINAL))
                .count();
        }
    }
    assert!(proofs > 0, "the positions must exercise the solver");
}

/// A search stops when its root's visits reach [`ROOT_VISIT_LIMIT`] (`visit-limit`), on one
/// thread (with paper 003's playouts too, which add several visits a simulation) and on two
/// sharing the tree, where a count would otherwise wrap after some 4.2 billion simulations.
#[test]
fn searches_stop_at_the_root_visit_limit_before_a_count_can_wrap() {
    for (spec, per_simulation, threads) in [
        ("mcts(reuse)", 1, 1),
        ("mcts(reuse,playouts100)", 100, 1),
        ("mcts(reuse,im0.4,efLH)", 1, 2),
    ] {
        let game = Breakthrough::new();
        let mut nodes = vec![Node::EMPTY; 200_000];
        let cfg = spec::parse_mcts::<Breakthrough>(spec).unwrap();
        let mut g = game.clone();
        let mut m = Mcts::new(&mut nodes, cfg);
        let r = m.search(&mut g, Budget::iterations(300), &mut NoClock);
        assert_eq!(r.stop, StopReason::Iterations);
        // As if the reused tree had been searched for an hour: 1,000 simulations short.
        m.pool.get_mut(NodeId::ROOT).visits = ROOT_VISIT_LIMIT - 1000 * per_simulation;
        let r = m.search_parallel(
            &mut g,
            Budget::iterations(1_000_000),
            &mut NoClock,
            &mut TestThreads(threads),
            ParallelSettings::default(),
        );
        assert_eq!(r.stop, StopReason::VisitLimit, "{spec}");
        let root = *m.pool().get(NodeId::ROOT);
        assert!(
            root.visits >= ROOT_VISIT_LIMIT && root.visits - ROOT_VISIT_LIMIT < 1 << 20,
            "{spec}: {}",
            root.visits
        );
        if threads == 1 {
            assert_eq!(r.simulations, 1000, "{spec}");
        } else {
            // The root's count runs behind by the threads' batches.
            assert!((1000..1100).contains(&r.simulations), "{}", r.simulations);
        }
        assert!(game.is_legal(r.best.unwrap()));
    }
}

#[test]
fn children_past_the_mean_threshold_keep_their_means_through_a_search() {
    use crate::search::stats::MEAN_FROM;
    for (spec, threads) in [
        ("mcts(reuse)", 1),
        ("mcts(reuse,im0.4,efLH)", 2),
        ("mcts(reuse,np)", 2),
    ] {
        let game = Breakthrough::new();
        let mut nodes = vec![Node::EMPTY; 200_000];
        let cfg = spec::parse_mcts::<Breakthrough>(spec).unwrap();
        let mut g = game.clone();
        let mut m = Mcts::new(&mut nodes, cfg);
        m.search(&mut g, Budget::iterations(300), &mut NoClock);
        // As if searched for minutes: each root child's count scaled past the threshold (the
        // best ones past 2^24 of summed reward), its mean kept.
        let root = *m.pool.get(NodeId::ROOT);
        let mut before = Vec::new();
        let mut total = 0u32;
        for i in 0..u32::from(root.children) {
            let c = m.pool.get_mut(NodeId(root.first_child + i));
            let (v, mean) = (c.visits.max(1) * (1 << 19) + MEAN_FROM, c.mean());
            c.set_stats(v, mean * v as f32);
            assert!(c.visits >= MEAN_FROM);
            total += v;
            before.push((v, c.mean()));
        }
        m.pool.get_mut(NodeId::ROOT).visits = total + 1;
        let r = m.search_parallel(
            &mut g,
            Budget::iterations(2_000),
            &mut NoClock,
            &mut TestThreads(threads),
            ParallelSettings::default(),
        );
        let mut added = 0;
        for (i, &(v, mean)) in before.iter().enumerate() {
            let c = *m.pool().get(NodeId(root.first_child + i as u32));
            let more = c.visits - v;
            added += more;
            // The mean moved by at most what the new visits could move it.
            let bound = more as f32 * 2.0 / c.visits as f32 + 1e-6;
            assert!(
                (c.mean() - mean).abs() <= bound,
                "{spec}: child {i}: {} from {mean}",
                c.mean()
            );
        }
        assert_eq!(added as u64, r.simulations, "{spec}");
    }
}

#[test]
fn the_two_word_statistics_take_concurrent_updates_across_the_threshold() {
    // The form targets without 64-bit atomics use, from two threads: virtual losses put on and
    // taken back, and backups, over a count that crosses 2^22 both ways.
    use super::atomic_node::TwoWords;
    use crate::search::stats::MEAN_FROM;
    let s = TwoWords::new();
    let start = MEAN_FROM - 2_000;
    s.store(start, 0.5 * start as f32);
    let per_thread = 20_000u32;
    std::thread::scope(|scope| {
        for t in 0..2u32 {
            let s = &s;
            scope.spawn(move || {
                for i in 0..per_thread {
                    // Virtual loss of 3, then the backup: one visit, a win for even i.
                    s.add(3, -3.0);
                    let r = if (i + t) % 2 == 0 { 1.0 } else { 0.0 };
                    s.add(1u32.wrapping_sub(3), r + 3.0);
                }
            });
        }
    });
    let (n, stat) = s.load();
    assert_eq!(n, start + 2 * per_thread);
    // Half the new visits won, as half the old ones did: the mean stays 0.5 up to the
    // updates' rounding (a lost update would show in the count).
    let m = crate::search::stats::mean(n, stat);
    assert!((m - 0.5).abs() < 1e-5, "{m}");
    // Taken back below the threshold, the statistic is a sum again.
    s.add((3 * per_thread).wrapping_neg(), -1.5 * per_thread as f32);
    let (n2, stat2) = s.load();
    assert!(n2 < MEAN_FROM);
    assert!(
        (stat2 / n2 as f32 - 0.5).abs() < 1e-4,
        "{}",
        stat2 / n2 as f32
    );
}
