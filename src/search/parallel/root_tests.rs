//! Tests of root parallelism ([`ParallelMode::Root`]): reproducible, every simulation counted,
//! proofs as the single-threaded search's, the calling thread's tree kept for reuse.

use super::tests::{SkipsHelpers, TestThreads, check_counts, reuse_over_six_moves, ttt_positions};
use super::{OneThread, ParallelMode, ParallelSettings, Threads};
use crate::game::Game;
use crate::games::breakthrough::Breakthrough;
use crate::games::tictactoe::TicTacToe;
use crate::search::config::{MctsConfig, Valid};
use crate::search::mcts::{ChildStats, Mcts, SearchResult};
use crate::search::node::{Node, NodeId, Proven};
use crate::search::{Budget, NoClock, StopReason, spec};
use std::vec;
use std::vec::Vec;

const ROOT: ParallelSettings = ParallelSettings {
    virtual_loss: 1,
    mode: ParallelMode::Root,
};

/// A root-parallel search of `game` on `threads` threads over `nodes`: the result and the
/// root children's statistics.
fn root_search<G: Game, T: Threads>(
    game: &G,
    config: Valid<MctsConfig<G>>,
    budget: Budget,
    threads: &mut T,
    nodes: &mut [Node],
) -> (SearchResult<G>, Vec<ChildStats<G::Move>>) {
    let mut g = game.clone();
    let mut m = Mcts::new(nodes, config);
    let r = m.search_parallel(&mut g, budget, &mut NoClock, threads, ROOT);
    assert_eq!(&g, game, "the search must leave the game as it was");
    let children = m.root_children().collect();
    (r, children)
}

#[test]
fn a_root_parallel_search_is_reproducible_and_counts_every_simulation() {
    let game = Breakthrough::new();
    for (label, threads) in [
        ("mcts(efLH,im0.4)", 2),
        ("mcts(efLH,bl',im0.6)", 3),
        ("mcts", 4),
    ] {
        let cfg = spec::parse_mcts::<Breakthrough>(label).unwrap();
        let mut a = vec![Node::EMPTY; 200_000];
        let mut b = vec![Node::EMPTY; 200_000];
        let budget = Budget::iterations(6001);
        let (ra, ca) = root_search(&game, cfg, budget, &mut TestThreads(threads), &mut a);
        let (rb, cb) = root_search(&game, cfg, budget, &mut TestThreads(threads), &mut b);
        assert_eq!(
            (ra.best, ra.value, ra.simulations),
            (rb.best, rb.value, rb.simulations)
        );
        assert_eq!(ca, cb, "{threads} threads: the same statistics twice");
        assert_eq!(ra.simulations, 6001);
        assert!(game.is_legal(ra.best.unwrap()));
        // The root and its children add up every tree's simulations.
        assert_eq!(a[0].visits, 6001, "{threads} threads");
        let sum: u64 = ca.iter().map(|c| u64::from(c.visits)).sum();
        if !label.contains("bl'") {
            // (`bl'` has node priors: prior visits on every child.)
            assert_eq!(sum, 6001, "{label}: each simulation passes one root child");
            check_counts(&mut a, ra.nodes_used);
        }
        // Different from one tree of the same budget: the helpers' trees were added.
        let mut one = vec![Node::EMPTY; 200_000];
        let (_, c1) = root_search(&game, cfg, budget, &mut OneThread, &mut one);
        assert_ne!(ca, c1);
    }
}

#[test]
fn a_root_parallel_search_keeps_the_calling_threads_tree_for_reuse() {
    // The calling thread's tree stays in its half of the 300,000 nodes.
    reuse_over_six_moves(2, ROOT, 150_000);
}

#[test]
fn root_parallel_proofs_agree_with_the_single_threaded_search_on_tic_tac_toe() {
    for (i, game) in ttt_positions().into_iter().enumerate() {
        // (`text-proven`: a proven node's value is its proven reward, which `check_counts`
        // checks.)
        let cfg = spec::parse_mcts::<TicTacToe>("mcts(im0.3,text-proven)").unwrap();
        let mut one = vec![Node::EMPTY; 200_000];
        let mut g = game;
        let single =
            Mcts::new(&mut one, cfg).search(&mut g, Budget::iterations(100_000), &mut NoClock);
        assert_eq!(single.stop, StopReason::Proven, "position {i}");
        let mut nodes = vec![Node::EMPTY; 400_000];
        let budget = Budget::iterations(200_000);
        let (r, children) = root_search(&game, cfg, budget, &mut TestThreads(2), &mut nodes);
        assert_eq!(r.proven, single.proven, "position {i}: {game:?}");
        if single.proven == Proven::Win {
            let mv = r.best.unwrap();
            let c = children.iter().find(|c| c.mv == mv).unwrap();
            assert_eq!(c.proven, Proven::Win, "position {i}: the move played wins");
        }
        check_counts(&mut nodes, r.nodes_used);
    }
}

#[test]
fn small_pools_budgets_and_missing_threads_still_give_a_sound_search() {
    let game = Breakthrough::new();
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(im0.4)").unwrap();
    // Too little memory for a second tree, or a budget smaller than the thread count: the
    // single-threaded search, bit for bit.
    for (pool, sims) in [(60usize, 5000u64), (100_000, 3)] {
        let mut a = vec![Node::EMPTY; pool];
        let mut b = vec![Node::EMPTY; pool];
        let budget = Budget::iterations(sims);
        let (ra, ca) = root_search(&game, cfg, budget, &mut TestThreads(4), &mut a);
        let (rb, cb) = root_search(&game, cfg, budget, &mut OneThread, &mut b);
        assert_eq!((ra.best, ra.simulations, ca), (rb.best, rb.simulations, cb));
        assert_eq!(a, b, "pool {pool}, {sims} simulations");
    }
    // A host that starts no helper: the calling thread's share alone, still a legal move.
    let mut nodes = vec![Node::EMPTY; 100_000];
    let budget = Budget::iterations(4000);
    let (r, _) = root_search(&game, cfg, budget, &mut SkipsHelpers(4), &mut nodes);
    assert_eq!(r.simulations, 1000);
    assert!(game.is_legal(r.best.unwrap()));
    // Full parts: each tree stops growing, the move is legal and the tree sound.
    let mut nodes = vec![Node::EMPTY; 600];
    let (r, _) = root_search(&game, cfg, budget, &mut TestThreads(3), &mut nodes);
    assert!(r.pool_full && game.is_legal(r.best.unwrap()));
    assert_eq!(r.simulations, 4000);
    check_counts(&mut nodes, r.nodes_used);
}

#[test]
fn a_time_budget_stops_the_helpers_when_the_calling_thread_stops() {
    let game = Breakthrough::new();
    let cfg = spec::parse_mcts::<Breakthrough>("mcts").unwrap();
    let mut nodes = vec![Node::EMPTY; 400_000];
    // A clock read only by the calling thread, one unit a reading.
    let mut t = 0u64;
    let mut clock = || {
        t += 1;
        t
    };
    let mut g = game.clone();
    let mut m = Mcts::new(&mut nodes, cfg);
    let budget = Budget {
        iterations: None,
        nodes: None,
        time_us: Some(200),
    };
    let r = m.search_parallel(&mut g, budget, &mut clock, &mut TestThreads(3), ROOT);
    assert_eq!(r.stop, StopReason::Time);
    assert!(game.is_legal(r.best.unwrap()));
    assert_eq!(u64::from(m.pool().get(NodeId::ROOT).visits), r.simulations);
}
