//! Tests of the BBQ options (paper 003): each option on constructed positions, specs,
//! determinism. The experiments' tests (Tables 1 and 3 in small) are with the experiments, in
//! `cli/src/bbq_experiments.rs`.

use super::bbq::{BbqConfig, DEFAULT_MAX_DEPTH};
use super::config::{MctsConfig, Valid};
use super::mcts::{ChildStats, Mcts};
use super::node::{Node, Proven};
use super::{Budget, NoClock, playout, spec};
use crate::game::{Game, MoveBuffer, Outcome};
use crate::games::breakthrough::Breakthrough;
use crate::games::gomoku::{self, Gomoku};
use crate::games::kalah::Kalah;
use crate::games::tictactoe::{FIG5A, FIG5B, TicTacToe};
use crate::rng::{below, seeded};

use std::vec;
use std::vec::Vec;

fn cfg<G: Game>(s: &str) -> Valid<MctsConfig<G>> {
    spec::parse_mcts::<G>(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Searches `p` with `spec` for `sims` iterations and returns the root children's statistics.
fn children<G: Game>(p: &G, spec_text: &str, sims: u64) -> Vec<ChildStats<G::Move>> {
    let mut nodes = vec![Node::EMPTY; 200_000];
    let mut m = Mcts::new(&mut nodes, cfg::<G>(spec_text));
    let mut g = p.clone();
    m.search(&mut g, Budget::iterations(sims), &mut NoClock);
    assert_eq!(&g, p, "search must leave the game as it was");
    m.root_children().collect()
}

fn tic_tac_toe_move(p: &TicTacToe, sq: &str) -> <TicTacToe as Game>::Move {
    p.parse_move(sq).unwrap()
}

fn stat<M: PartialEq + Copy>(cs: &[ChildStats<M>], mv: M) -> ChildStats<M> {
    *cs.iter().find(|c| c.mv == mv).expect("move at the root")
}

// Means are sums of thousands of f32 rewards divided by the visits: allow for rounding.
const EPS: f32 = 1e-4;

#[test]
fn default_config_has_bbq_off() {
    let c = MctsConfig::<Breakthrough>::default();
    assert_eq!(c.bbq, BbqConfig::OFF);
    assert!(!c.bbq.is_active());
    assert_eq!(cfg::<Breakthrough>("mcts(ipp,im0.4)").bbq, BbqConfig::OFF);
    // playouts1 is the default, so it changes nothing.
    assert!(!cfg::<Breakthrough>("mcts(playouts1)").bbq.is_active());
}

#[test]
fn shape_discounts_by_depth_caps_and_scales_by_margin() {
    let quick = BbqConfig {
        quick: true,
        ..BbqConfig::OFF
    };
    assert_eq!(quick.depth_cap(), Some(DEFAULT_MAX_DEPTH));
    // r · (1 − d/D): a quicker win is worth more, a later loss costs less, a draw stays 0.
    assert!((quick.shape::<TicTacToe>(1.0, 1, None) - 0.98).abs() < EPS);
    assert!((quick.shape::<TicTacToe>(1.0, 5, None) - 0.90).abs() < EPS);
    assert!((quick.shape::<TicTacToe>(-1.0, 2, None) + 0.96).abs() < EPS);
    assert!(quick.shape::<TicTacToe>(-1.0, 4, None) > quick.shape::<TicTacToe>(-1.0, 2, None));
    assert_eq!(quick.shape::<TicTacToe>(0.0, 3, None), 0.0);
    assert_eq!(quick.shape::<TicTacToe>(1.0, 50, None), 0.0);
    assert_eq!(quick.shape::<TicTacToe>(1.0, 51, None), 0.0);
    let q30 = BbqConfig {
        max_depth: Some(30),
        ..quick
    };
    assert!((q30.shape::<TicTacToe>(1.0, 3, None) - 0.9).abs() < EPS);
    // A cap alone: results up to the cap count as they are, deeper ones are draws.
    let cap = BbqConfig {
        max_depth: Some(10),
        ..BbqConfig::OFF
    };
    assert_eq!(cap.shape::<TicTacToe>(-1.0, 10, None), -1.0);
    assert_eq!(cap.shape::<TicTacToe>(-1.0, 11, None), 0.0);
    // Big win: ½ + ½·m/MAX for the winner, the negative for the loser.
    let big = BbqConfig {
        big: true,
        ..BbqConfig::OFF
    };
    let max = Kalah::MAX_MARGIN;
    assert_eq!(max, 48);
    assert!((big.shape::<Kalah>(1.0, 7, Some(24)) - 0.75).abs() < EPS);
    assert!((big.shape::<Kalah>(1.0, 7, Some(max)) - 1.0).abs() < EPS);
    assert!(big.shape::<Kalah>(1.0, 7, Some(2)) < big.shape::<Kalah>(1.0, 7, Some(20)));
    assert!(big.shape::<Kalah>(1.0, 7, Some(2)) > 0.5);
    assert!(big.shape::<Kalah>(-1.0, 7, Some(-2)) > big.shape::<Kalah>(-1.0, 7, Some(-20)));
    assert_eq!(big.shape::<Kalah>(0.0, 7, Some(0)), 0.0);
    // Without a score (cutoff) or in unscored games it changes nothing.
    assert_eq!(big.shape::<Kalah>(0.3, 7, None), 0.3);
    assert_eq!(big.shape::<TicTacToe>(1.0, 7, Some(3)), 1.0);
    // Big and quick multiply.
    let bq = BbqConfig { quick: true, ..big };
    assert!((bq.shape::<Kalah>(1.0, 5, Some(24)) - 0.75 * 0.9).abs() < EPS);
}

#[test]
fn quick_win_separates_the_immediate_loss_from_the_delayed_one() {
    // Fig. 5(a): O loses wherever it plays; B2 loses at ply 2, C2 only at ply 4. With best win
    // over a fully explored tree the values are the depth-discounted minimax values exactly.
    let b2 = tic_tac_toe_move(&FIG5A, "B2");
    let c2 = tic_tac_toe_move(&FIG5A, "C2");
    let cs = children(&FIG5A, "mcts(nosolver,best,quick)", 3000);
    assert!((stat(&cs, b2).mean + 0.96).abs() < EPS, "{cs:?}");
    assert!((stat(&cs, c2).mean + 0.92).abs() < EPS, "{cs:?}");
    for c in &cs {
        if c.mv != c2 {
            assert!(
                (c.mean + 0.96).abs() < EPS,
                "every other move loses at ply 2: {cs:?}"
            );
        }
    }
    // Best win without depth rewards cannot tell them apart: all are -1.
    let cs = children(&FIG5A, "mcts(nosolver,best)", 3000);
    assert!(cs.iter().all(|c| (c.mean + 1.0).abs() < EPS), "{cs:?}");
}

#[test]
fn quick_win_prefers_the_faster_of_two_wins() {
    // X: A1, B1; O: A2, A3 (X to move). C1 wins at once (row 1); every other move (B2, C2, B3,
    // C3) also wins with best play, but two plies later (exhaustive search, Python, offline).
    let p = TicTacToe::parse_position("O../O../XX. x").unwrap();
    let c1 = tic_tac_toe_move(&p, "C1");
    let cs = children(&p, "mcts(nosolver,best,quick)", 3000);
    let best = cs
        .iter()
        .max_by(|a, b| a.mean.partial_cmp(&b.mean).unwrap())
        .unwrap();
    assert_eq!(best.mv, c1, "{cs:?}");
    assert!((stat(&cs, c1).mean - 0.98).abs() < EPS, "{cs:?}");
    for c in &cs {
        if c.mv != c1 {
            assert!(c.mean <= 0.94 + EPS, "no other move wins at ply 1: {cs:?}");
        }
    }
    // And the searcher plays it.
    let mut nodes = vec![Node::EMPTY; 10_000];
    let mut m = Mcts::new(&mut nodes, cfg::<TicTacToe>("mcts(nosolver,best,quick)"));
    let mut g = p;
    let r = m.search(&mut g, Budget::iterations(500), &mut NoClock);
    assert_eq!(r.best, Some(c1));
}

#[test]
fn best_win_backs_up_the_minimax_value_where_the_mean_does_not() {
    // Fig. 5(b): X wins with A1, C1, A2, C2 and only draws with B2.
    let moves: Vec<_> = ["A1", "C1", "A2", "C2"]
        .iter()
        .map(|s| tic_tac_toe_move(&FIG5B, s))
        .collect();
    let b2 = tic_tac_toe_move(&FIG5B, "B2");
    let cs = children(&FIG5B, "mcts(nosolver,best,c4)", 3000);
    for &mv in &moves {
        assert!((stat(&cs, mv).mean - 1.0).abs() < EPS, "{cs:?}");
    }
    assert!(stat(&cs, b2).mean.abs() < EPS, "{cs:?}");
    // The plain mean of a won move stays below 1: the average reward problem.
    let cs = children(&FIG5B, "mcts(nosolver)", 3000);
    assert!(moves.iter().any(|&mv| stat(&cs, mv).mean < 0.99), "{cs:?}");
}

#[test]
fn best_win_values_are_max_over_visited_children_in_the_tree() {
    // Check the stored invariant on every expanded node with a visited child: mean = the best
    // child's value with the mover's sign (here movers alternate).
    let mut nodes = vec![Node::EMPTY; 50_000];
    let mut m = Mcts::new(&mut nodes, cfg::<TicTacToe>("mcts(nosolver,best,one)"));
    let mut g = TicTacToe::new();
    m.search(&mut g, Budget::iterations(700), &mut NoClock);
    let pool = m.pool();
    let mut checked = 0;
    for i in 1..pool.len() {
        let n = *pool.get(super::node::NodeId(i));
        if n.first_child_index() == u32::MAX || n.visits() == 0 {
            continue;
        }
        let kids = pool.children(super::node::NodeId(i));
        let best = kids
            .iter()
            .filter(|c| c.visits() > 0)
            .map(|c| c.proven().reward().unwrap_or(c.mean()))
            .fold(f32::NEG_INFINITY, f32::max);
        if best == f32::NEG_INFINITY {
            continue;
        }
        assert!(
            (n.mean() + best).abs() < 1e-4,
            "node {i}: {} vs {}",
            n.mean(),
            -best
        );
        checked += 1;
    }
    assert!(checked > 50, "only {checked} nodes checked");
}

#[test]
fn depth_cap_makes_deep_simulations_draws() {
    // Breakthrough never ends within 2 plies of the start: with depth1 every simulation is a draw.
    let cs = children(&Breakthrough::new(), "mcts(depth1)", 400);
    assert!(cs.iter().any(|c| c.visits > 1));
    assert!(cs.iter().all(|c| c.mean == 0.0), "{cs:?}");
    // The playout itself stops at the cap with a draw.
    let c = cfg::<Breakthrough>("mcts(depth5)");
    let mut rng = seeded(3);
    for _ in 0..20 {
        let mut g = Breakthrough::new();
        assert_eq!(playout::run_within(&mut g, &c, &mut rng, 5), (0.0, 5));
    }
    // Tic-Tac-Toe with depth2: from Fig. 5(a) B2 still loses at ply 2; C2's loss comes later,
    // so it is a draw.
    let b2 = tic_tac_toe_move(&FIG5A, "B2");
    let c2 = tic_tac_toe_move(&FIG5A, "C2");
    let cs = children(&FIG5A, "mcts(nosolver,best,depth2)", 2000);
    assert_eq!(stat(&cs, b2).mean, -1.0, "{cs:?}");
    assert_eq!(stat(&cs, c2).mean, 0.0, "{cs:?}");
}

/// A Kalah position where some legal move ends the game, reached by random play.
fn kalah_near_end(seed: u64) -> Option<Kalah> {
    let mut rng = seeded(seed);
    let mut p = Kalah::new();
    let mut list = <Kalah as Game>::MoveList::default();
    for _ in 0..200 {
        p.legal_moves(&mut list);
        if list.moves().is_empty() {
            return None;
        }
        let ends = list.moves().iter().any(|&mv| {
            let mut q = p;
            q.make(mv);
            q.is_terminal()
        });
        if ends && list.moves().len() > 1 {
            return Some(p);
        }
        let mv = list.moves()[below(&mut rng, list.moves().len() as u32) as usize];
        p.make(mv);
    }
    None
}

#[test]
fn big_win_scales_finished_games_with_the_margin() {
    let mut checked = 0;
    for seed in 0..200 {
        let Some(p) = kalah_near_end(seed) else {
            continue;
        };
        let me = p.side_to_move();
        let cs = children(&p, "mcts(nosolver,big)", 200);
        let c = cfg::<Kalah>("mcts(big)");
        for s in &cs {
            let mut q = p;
            q.make(s.mv);
            let Some(o) = q.outcome() else { continue };
            let expected = c
                .bbq
                .shape::<Kalah>(o.reward(me), 1, Some(q.score_margin(me)));
            assert!((s.mean - expected).abs() < 1e-4, "{s:?} vs {expected}");
            if o != Outcome::Draw {
                let m = q.score_margin(me).unsigned_abs() as f32 / 48.0;
                assert!((s.mean.abs() - (0.5 + 0.5 * m)).abs() < 1e-4);
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} finished children checked");
    assert_eq!(
        spec::parse_mcts::<TicTacToe>("mcts(big)")
            .unwrap_err()
            .label,
        "big"
    );
}

#[test]
fn dist_restricts_expansion_and_playouts() {
    let p = Gomoku::parse_position("15/15/15/15/15/15/7X7/6OX7/15/15/15/15/15/15/15 w").unwrap();
    let mut cand = gomoku::MoveList::new();
    p.candidate_moves(1, &mut cand);
    let cs = children(&p, "mcts(dist1)", 300);
    assert_eq!(
        cs.len(),
        cand.len(),
        "root children are the Dist(1) candidates"
    );
    assert!(cs.iter().all(|c| cand.contains(&c.mv)));
    assert!(cand.len() < 20);
    // Default candidate moves of games without the notion are the legal moves.
    let mut a = <TicTacToe as Game>::MoveList::default();
    let mut b = <TicTacToe as Game>::MoveList::default();
    Game::candidate_moves(&FIG5A, 1, &mut a);
    FIG5A.legal_moves(&mut b);
    assert_eq!(a, b);
    // A one-move playout under dist1 plays next to a stone.
    let c = cfg::<Gomoku>("mcts(dist1)");
    let mut rng = seeded(9);
    for _ in 0..50 {
        let mut g = p;
        assert_eq!(playout::run_within(&mut g, &c, &mut rng, 1).1, 1);
        let placed = (0..=255u16)
            .filter_map(<Gomoku as Game>::decode_move)
            .find(|&m| p.is_legal(m) && !g.is_legal(m))
            .unwrap();
        assert!(cand.contains(&placed));
    }
}

#[test]
fn playouts_per_iteration_multiply_visits() {
    let mut nodes = vec![Node::EMPTY; 10_000];
    let mut m = Mcts::new(&mut nodes, cfg::<TicTacToe>("mcts(nosolver,playouts5)"));
    let mut g = TicTacToe::new();
    let r = m.search(&mut g, Budget::iterations(40), &mut NoClock);
    assert_eq!(r.simulations, 40);
    let visits: u32 = m.root_children().map(|c| c.visits).sum();
    assert_eq!(visits, 200);
    assert!(m.root_children().all(|c| c.visits % 5 == 0));
}

#[test]
fn bbq_searches_are_deterministic() {
    fn run<G: Game>(p: &G, s: &str) -> Vec<(u32, u32)> {
        children(p, s, 300)
            .iter()
            .map(|c| (c.visits, c.mean.to_bits()))
            .collect()
    }
    for s in [
        "mcts(best,quick)",
        "mcts(nosolver,one,best,quick,playouts5)",
        "mcts(quick,depth7,im0.3)",
    ] {
        assert_eq!(run(&FIG5B, s), run(&FIG5B, s), "{s}");
        assert_eq!(
            run(&Breakthrough::new(), s),
            run(&Breakthrough::new(), s),
            "{s}"
        );
    }
    let s = "mcts(best,quick,depth30,dist1,big,seed5)";
    assert_eq!(run(&Kalah::new(), s), run(&Kalah::new(), s));
    let s = "mcts(best,quick,depth50,dist1)";
    assert_eq!(run(&Gomoku::new(), s), run(&Gomoku::new(), s));
}

#[test]
fn bbq_specs_parse_and_reject() {
    let c = cfg::<Gomoku>("mcts(best, quick, depth40, dist2, playouts5)");
    assert_eq!(
        c.bbq,
        BbqConfig {
            best: true,
            quick: true,
            big: false,
            max_depth: Some(40),
            dist: Some(2),
            playouts: 5,
        }
    );
    assert!(cfg::<Kalah>("mcts(BIG,Best)").bbq.big);
    // They combine with everything else.
    let c = cfg::<Breakthrough>("mcts(bl',im0.4,best,quick,one,reuse)");
    assert!(c.bbq.best && c.bbq.quick && c.node_priors.is_some());
    for (s, label) in [
        ("mcts(dist0)", "dist0"),
        ("mcts(depth0)", "depth0"),
        ("mcts(playouts0)", "playouts0"),
        ("mcts(distx)", "distx"),
        ("mcts(best,best)", "best"),
        ("mcts(depth5,depth6)", "depth6"),
        ("mcts(big)", "big"),
    ] {
        assert_eq!(
            spec::parse_mcts::<Breakthrough>(s).unwrap_err().label,
            label,
            "{s}"
        );
    }
}

#[test]
fn solver_proves_tic_tac_toe_a_draw() {
    let mut nodes = vec![Node::EMPTY; 400_000];
    // The default configuration: proven draws are skipped in selection while unproven siblings
    // remain (draw bounds), so the proof completes (39,238 simulations when measured with
    // `imcts search tictactoe --sims 2000000`; before the draw bounds, 5M were not enough).
    let mut m = Mcts::new(&mut nodes, cfg::<TicTacToe>("mcts"));
    let mut g = TicTacToe::new();
    let r = m.search(&mut g, Budget::iterations(200_000), &mut NoClock);
    assert_eq!(r.proven, Proven::Draw, "{r:?}");
    assert_eq!(r.value, 0.0);
}

#[test]
fn a_time_budget_reads_the_clock_as_often_in_playouts_with_several_an_iteration() {
    // A clock that counts its reads and never advances: the search runs its iterations, and
    // the reads say how often a time budget would have been looked at.
    struct Counting(u64);
    impl super::Clock for Counting {
        fn now_us(&mut self) -> u64 {
            self.0 += 1;
            0
        }
    }
    let mut nodes = vec![Node::EMPTY; 100_000];
    let budget = Budget {
        iterations: Some(1280),
        nodes: None,
        time_us: Some(u64::MAX),
    };
    // (playouts an iteration, iterations between reads)
    // (More than 64 playouts an iteration also read it inside the iteration: the next test.)
    for (playouts, every) in [(1, 64), (2, 32), (3, 16), (5, 8), (64, 1)] {
        let mut m = Mcts::new(
            &mut nodes,
            cfg::<TicTacToe>(&std::format!("mcts(nosolver,playouts{playouts})")),
        );
        let mut clock = Counting(0);
        let r = m.search(&mut TicTacToe::new(), budget, &mut clock);
        assert_eq!(r.simulations, 1280, "playouts{playouts}");
        // The search's start and end, and the budget's test before every `every`-th
        // iteration.
        assert_eq!(clock.0, 2 + 1280 / every, "playouts{playouts}");
    }
}

/// A time budget ends paper 003's playouts inside an iteration: one of 65,535 playouts reads
/// the clock every 64 of them and stops once the time is spent, where it used to run them all
/// (4.5 s of Gomoku on a 100 ms budget). Not in `compact-code` builds, which leave it out.
#[test]
#[cfg(not(feature = "compact-code"))]
fn a_time_budget_ends_an_iterations_playouts_once_it_is_spent() {
    // A clock that advances one microsecond a reading.
    struct Ticking(u64);
    impl super::Clock for Ticking {
        fn now_us(&mut self) -> u64 {
            self.0 += 1;
            self.0
        }
    }
    let mut nodes = vec![Node::EMPTY; 100_000];
    let mut m = Mcts::new(&mut nodes, cfg::<TicTacToe>("mcts(nosolver,playouts65535)"));
    let mut clock = Ticking(0);
    let budget = Budget {
        iterations: None,
        nodes: None,
        time_us: Some(5),
    };
    let r = m.search(&mut TicTacToe::new(), budget, &mut clock);
    assert_eq!((r.stop, r.simulations), (super::StopReason::Time, 1));
    // The readings: the search's start (1), the budget's test before the first iteration (2:
    // 1 µs spent), the iteration's after 64, 128 and 192 playouts (3-5: 2-4 µs) and after 256
    // (6: 5 µs, spent), the test before a second iteration (7), the search's end (8).
    assert_eq!(clock.0, 8);
    assert!(r.best.is_some());
}
