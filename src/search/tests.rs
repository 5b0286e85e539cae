//! Search tests: solver proofs, implicit minimax against explicit minimax, the pool, reuse,
//! determinism, player specs.

use super::config::{Expansion, MctsConfig, PlayoutPolicy, ValueMode};
use super::mcts::Mcts;
use super::node::{Node, NodeId, Proven};
#[cfg(not(feature = "compact-code"))]
use super::pool::Pool;
use super::{Budget, NoClock, StopReason, spec};
use crate::game::{Game, MoveBuffer, Player};
use crate::games::breakthrough::{Breakthrough, BreakthroughEval, MoveList};
use crate::rng::{below, seeded};

use std::vec;
use std::vec::Vec;

fn pos(s: &str) -> Breakthrough {
    Breakthrough::parse_position(s).unwrap()
}

fn random_position(seed: u64, plies: u32) -> Breakthrough {
    let mut rng = seeded(seed);
    let mut p = Breakthrough::new();
    let mut list = MoveList::new();
    for _ in 0..plies {
        p.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let mv = list[below(&mut rng, list.len() as u32) as usize];
        let u = p.make(mv);
        if p.is_terminal() {
            p.undo(mv, u);
            break;
        }
    }
    p
}

fn search(
    p: &Breakthrough,
    cfg: MctsConfig<Breakthrough>,
    sims: u64,
    nodes: &mut [Node],
) -> super::mcts::SearchResult<Breakthrough> {
    let mut g = p.clone();
    let mut m = Mcts::new(nodes, cfg.validate().unwrap());
    let r = m.search(&mut g, Budget::iterations(sims), &mut NoClock);
    assert_eq!(&g, p, "search must leave the game as it was");
    r
}

/// Breakthrough descends on a copy of the root instead of undoing its path
/// (`Game::DESCEND_ON_COPY`), rebuilding a position from the root when the solver step needs
/// one: the searches are the ones the undoing descent gives, node for node, over positions
/// where the solver step runs (which the rebuild count shows).
#[test]
fn descending_on_a_copy_searches_as_undoing_the_path() {
    use super::mcts::simulate_test_hooks as hooks;
    let before = hooks::rebuilds();
    for seed in 0..24u64 {
        let p = random_position(300 + seed, 30 + (seed as u32 % 20));
        if p.is_terminal() {
            continue;
        }
        let spec_text = ["mcts", "mcts(ipp,im0.4)", "mcts(efLH,bl')"][seed as usize % 3];
        let cfg = spec::parse_mcts::<Breakthrough>(spec_text)
            .unwrap()
            .into_inner();
        let mut a = vec![Node::EMPTY; 200_000];
        let mut b = vec![Node::EMPTY; 200_000];
        let ra = search(&p, cfg, 3_000, &mut a);
        hooks::force_undo(true);
        let rb = search(&p, cfg, 3_000, &mut b);
        hooks::force_undo(false);
        assert_eq!(
            (ra.best, ra.proven, ra.nodes_used),
            (rb.best, rb.proven, rb.nodes_used)
        );
        assert_eq!(ra.value.to_bits(), rb.value.to_bits());
        let n = ra.nodes_used as usize;
        assert!(a[..n] == b[..n], "seed {seed}: the trees differ");
    }
    assert!(
        hooks::rebuilds() > before,
        "no solver step rebuilt a position"
    );
}

/// The selections that take the child cached in a block's header ([`ScanCache`]) search as
/// scanning every child at every selection: the same results and trees node for node (the
/// headers aside, which only the caching search fills), over middle-game and late positions
/// where the solver step runs, for the presets with and without node priors and implicit
/// minimax, with the code's ties and with random ones; and the cache is taken often.
///
/// [`ScanCache`]: super::node::ScanCache
#[test]
#[cfg(not(feature = "compact-code"))]
fn selection_skips_search_as_the_full_scan() {
    use super::mcts::select_test_hooks as hooks;
    let specs = [
        "mcts",
        "mcts(ipp,im0.4)",
        "mcts(efLH,bl')",
        "mcts(efLH,bl',im0.6)",
        "mcts(bl,im0.4)",
        "mcts(efLH,bl',random-ties)",
        "mcts(ipp,im0.4,random-ties)",
    ];
    let (mut skips, mut selections) = (0u64, 0u64);
    for seed in 0..28u64 {
        let p = random_position(500 + seed, 20 + (seed as u32 % 5) * 10);
        if p.is_terminal() {
            continue;
        }
        let spec_text = specs[seed as usize % specs.len()];
        let cfg = spec::parse_mcts::<Breakthrough>(spec_text)
            .unwrap()
            .into_inner();
        let mut a = vec![Node::EMPTY; 300_000];
        let mut b = vec![Node::EMPTY; 300_000];
        let before = hooks::skips();
        let ra = search(&p, cfg, 6_000, &mut a);
        skips += hooks::skips() - before;
        hooks::set_skips_off(true);
        let rb = search(&p, cfg, 6_000, &mut b);
        hooks::set_skips_off(false);
        assert_eq!(
            (ra.best, ra.proven, ra.nodes_used, ra.simulations),
            (rb.best, rb.proven, rb.nodes_used, rb.simulations),
            "seed {seed}, {spec_text}"
        );
        assert_eq!(ra.value.to_bits(), rb.value.to_bits());
        let n = ra.nodes_used as usize;
        let mut pool = Pool::new(&mut a);
        assert!(pool.restore_len(n as u32));
        for h in pool.header_slots() {
            *pool.get_mut(NodeId(h as u32)) = Node::EMPTY;
        }
        assert!(
            a[..n] == b[..n],
            "seed {seed}, {spec_text}: the trees differ"
        );
        selections += ra.simulations;
    }
    assert!(
        skips * 4 > selections,
        "the cache was taken {skips} times in {selections} simulations"
    );
}

#[test]
fn node_is_at_most_32_bytes() {
    assert_eq!(core::mem::size_of::<Node>(), 24);
    assert!(core::mem::size_of::<Node>() <= 32);
}

#[test]
fn solver_proves_wins_in_1_3_and_5_plies_and_plays_them() {
    // The moves that win at once, where there are any (either may come first by the tie-break).
    let cases: [(&str, &[&str]); 4] = [
        ("7p/P7/8/8/8/8/8/8 w", &["a7-a8", "a7-b8"]),
        ("7p/8/P7/8/8/8/8/8 w", &[]),
        ("7p/8/8/P7/8/8/8/8 w", &[]),
        // Black to move wins by capturing the only White piece that could stop it.
        ("8/8/8/8/8/1p6/P7/8 b", &["b3xa2"]),
    ];
    for (text, want) in cases {
        let p = pos(text);
        let mut nodes = vec![Node::EMPTY; 200_000];
        let r = search(&p, MctsConfig::default(), 200_000, &mut nodes);
        assert_eq!(r.proven, Proven::Win, "{text}");
        assert_eq!(r.stop, StopReason::Proven, "{text}");
        assert_eq!(r.value, 1.0);
        let best = r.best.unwrap();
        assert!(
            wins_within(&mut p.clone(), best, 5),
            "{text}: {best:?} does not win"
        );
        if !want.is_empty() {
            let played = crate::game::move_string(&p, best);
            assert!(want.contains(&played.as_str()), "{text}: {played}");
        }
    }
}

#[test]
fn solver_proves_a_loss_and_still_returns_a_legal_move() {
    let mut nodes = vec![Node::EMPTY; 100_000];
    // White on h7 wins first with h7-h8, before Black's a2 piece gets to move.
    let p = pos("8/7P/8/8/8/8/p7/8 w");
    let r = search(&p, MctsConfig::default(), 100_000, &mut nodes);
    assert_eq!(r.proven, Proven::Win);
    // One rank further back, White cannot stop Black's a2 piece from reaching a1 next move.
    let p = pos("8/8/7P/8/8/8/p7/8 w");
    let r = search(&p, MctsConfig::default(), 100_000, &mut nodes);
    assert_eq!(r.proven, Proven::Loss);
    assert!(p.is_legal(r.best.unwrap()));
}

/// Whether playing `mv` wins for the mover against every defence within `plies` plies
/// (exhaustive, independent of the search).
fn wins_within(game: &mut Breakthrough, mv: crate::games::breakthrough::Move, plies: u32) -> bool {
    let me = game.side_to_move();
    let u = game.make(mv);
    let won = match game.outcome() {
        Some(o) => o.winner() == Some(me),
        None if plies < 3 => false,
        None => {
            let mut replies = MoveList::new();
            game.legal_moves(&mut replies);
            replies.clone().iter().all(|&r| {
                let ur = game.make(r);
                let mut mine = MoveList::new();
                game.legal_moves(&mut mine);
                let ok = game.outcome().is_none()
                    && mine
                        .clone()
                        .iter()
                        .any(|&m2| wins_within(game, m2, plies - 2));
                game.undo(r, ur);
                ok
            })
        }
    };
    game.undo(mv, u);
    won
}

/// Explicit negamax over the built tree: leaves evaluated afresh from the game state.
fn explicit_minimax(
    m: &Mcts<'_, Breakthrough>,
    id: NodeId,
    game: &mut Breakthrough,
    eval: BreakthroughEval,
) -> f32 {
    let pool = m.pool();
    let n = *pool.get(id);
    let children = pool.children(id);
    if children.is_empty() {
        let mover = n.mover();
        return match game.outcome() {
            Some(o) => o.reward(mover),
            None => game.evaluate(eval, mover),
        };
    }
    let first = n.first_child_index();
    let mut best = f32::NEG_INFINITY;
    let mut child_mover = Player::First;
    for i in 0..children.len() as u32 {
        let c = *pool.get(NodeId(first + i));
        child_mover = c.mover();
        let mv = Breakthrough::decode_move(c.move_code()).unwrap();
        let u = game.make(mv);
        let v = explicit_minimax(m, NodeId(first + i), game, eval);
        game.undo(mv, u);
        best = best.max(v);
    }
    if child_mover == n.mover() {
        best
    } else {
        -best
    }
}

fn check_implicit(
    m: &Mcts<'_, Breakthrough>,
    id: NodeId,
    game: &mut Breakthrough,
    eval: BreakthroughEval,
) {
    let pool = m.pool();
    let n = *pool.get(id);
    let want = explicit_minimax(m, id, game, eval);
    assert!(
        (n.value() - want).abs() < 1e-6,
        "node {id:?}: implicit {} vs explicit {want}",
        n.value()
    );
    let first = n.first_child_index();
    for i in 0..pool.children(id).len() as u32 {
        let c = *pool.get(NodeId(first + i));
        let mv = Breakthrough::decode_move(c.move_code()).unwrap();
        let u = game.make(mv);
        check_implicit(m, NodeId(first + i), game, eval);
        game.undo(mv, u);
    }
}

#[test]
fn implicit_values_equal_explicit_minimax_over_the_built_tree() {
    for seed in 0..40u64 {
        let p = random_position(seed, (seed % 30) as u32);
        for (expansion, eval) in [
            (Expansion::AllChildren, BreakthroughEval::Schadd),
            (Expansion::OneChild, BreakthroughEval::LorentzHorey),
        ] {
            // The text's reading of proven nodes (`text-proven`): the paper's code keeps a
            // proven node's heuristic value, which is not the minimax of the tree
            // (`a_proven_node_keeps_its_heuristic_value_unless_text_proven`).
            let cfg = MctsConfig::<Breakthrough> {
                value_mode: ValueMode::Implicit,
                alpha: 0.4,
                eval,
                expansion,
                seed,
                text_proven: true,
                ..MctsConfig::default()
            };
            let mut nodes = vec![Node::EMPTY; 60_000];
            let mut g = p.clone();
            let mut m = Mcts::new(&mut nodes, cfg.validate().unwrap());
            let r = m.search(&mut g, Budget::iterations(800), &mut NoClock);
            if r.stop == StopReason::SingleMove {
                continue;
            }
            check_implicit(&m, NodeId::ROOT, &mut g, eval);
            assert_eq!(g, p);
        }
    }
}

/// Explicit negamax values of every node of the tree, indexed by node id.
fn explicit_all(
    m: &Mcts<'_, Breakthrough>,
    id: NodeId,
    game: &mut Breakthrough,
    out: &mut Vec<f32>,
) -> f32 {
    let pool = m.pool();
    let n = *pool.get(id);
    let count = pool.children(id).len() as u32;
    let v = if count == 0 {
        match game.outcome() {
            Some(o) => o.reward(n.mover()),
            None => game.evaluate(BreakthroughEval::Schadd, n.mover()),
        }
    } else {
        let first = n.first_child_index();
        let mut best = f32::NEG_INFINITY;
        let mut same = false;
        for i in 0..count {
            let c = *pool.get(NodeId(first + i));
            same = c.mover() == n.mover();
            let mv = Breakthrough::decode_move(c.move_code()).unwrap();
            let u = game.make(mv);
            best = best.max(explicit_all(m, NodeId(first + i), game, out));
            game.undo(mv, u);
        }
        if same { best } else { -best }
    };
    out[id.0 as usize] = v;
    v
}

#[test]
fn alpha_one_and_c_zero_follow_the_minimax_line_of_the_evaluation() {
    // Best-first minimax: with α = 1 and C = 0, selection descends along argmax v, and v is the
    // minimax of v0 over the tree. After building a tree, one more simulation must walk down a
    // line where every step maximises the explicit minimax of the tree as it was.
    for seed in 0..10u64 {
        let p = random_position(100 + seed, 12);
        let cfg = MctsConfig::<Breakthrough> {
            value_mode: ValueMode::Implicit,
            alpha: 1.0,
            uct_c: 0.0,
            solver: false,
            reuse_tree: true,
            seed,
            ..MctsConfig::default()
        };
        let mut nodes = vec![Node::EMPTY; 200_000];
        let mut g = p.clone();
        let mut m = Mcts::new(&mut nodes, cfg.validate().unwrap());
        m.search(&mut g, Budget::iterations(3000), &mut NoClock);
        let len = m.nodes_used() as usize;
        let visits: Vec<u32> = (0..len as u32)
            .map(|i| m.pool().get(NodeId(i)).visits())
            .collect();
        let mut explicit = vec![0.0f32; len];
        explicit_all(&m, NodeId::ROOT, &mut g, &mut explicit);
        assert_eq!(g, p);
        m.search(&mut g, Budget::iterations(1), &mut NoClock);
        let mut id = NodeId::ROOT;
        let mut steps = 0;
        loop {
            let first = m.pool().get(id).first_child_index();
            let count = m.pool().children(id).len() as u32;
            let old = |c: u32| (c as usize) < len;
            let Some(t) = (0..count)
                .map(|i| first + i)
                .find(|&c| old(c) && m.pool().get(NodeId(c)).visits() == visits[c as usize] + 1)
            else {
                break;
            };
            id = NodeId(t);
            steps += 1;
            // Unvisited children come first (Algorithm 1's selection rule); only among visited
            // siblings does argmax v decide.
            if (0..count).any(|i| visits[(first + i) as usize] == 0) {
                assert_eq!(
                    visits[t as usize], 0,
                    "seed {seed}: an unvisited child goes first"
                );
                continue;
            }
            let max = (0..count)
                .map(|i| first + i)
                .filter(|&c| old(c))
                .map(|c| explicit[c as usize])
                .fold(f32::NEG_INFINITY, f32::max);
            assert!(
                (explicit[t as usize] - max).abs() < 1e-6,
                "seed {seed} step {steps}: took {} but the minimax best is {max}",
                explicit[t as usize]
            );
        }
        assert!(steps >= 2, "seed {seed}: the line should go below the root");
    }
}

#[test]
fn a_full_pool_never_panics_and_returns_a_legal_move() {
    for cap in [0usize, 1, 2, 5, 23, 40, 100, 500] {
        for spec_text in [
            "mcts",
            "mcts(ipp,im0.4)",
            "mcts(bl,np10)",
            "mcts(one,im0.2)",
            "mcts(stopfull)",
        ] {
            let cfg = spec::parse_mcts::<Breakthrough>(spec_text).unwrap();
            for seed in 0..3 {
                let p = random_position(seed, 10 + seed as u32);
                let mut nodes = vec![Node::EMPTY; cap];
                let r = search(&p, *cfg, 300, &mut nodes);
                let best = r.best.expect("a move");
                assert!(p.is_legal(best), "cap {cap} {spec_text}");
                assert!(r.nodes_used as usize <= cap);
                if cap < 30 {
                    assert!(r.pool_full);
                }
            }
        }
    }
}

#[test]
fn seeded_search_repeats_bit_identically() {
    for spec_text in [
        "mcts",
        "mcts(ipp,im0.4)",
        "mcts(bl,mb100)",
        "mcts(bl',im0.4,np)",
        "mcts(one,pb)",
    ] {
        let cfg = spec::parse_mcts::<Breakthrough>(spec_text).unwrap();
        let p = random_position(7, 9);
        let run = || {
            let mut nodes = vec![Node::EMPTY; 100_000];
            let mut g = p.clone();
            let mut m = Mcts::new(&mut nodes, cfg.validate().unwrap());
            let r = m.search(&mut g, Budget::iterations(3000), &mut NoClock);
            let kids: Vec<_> = m
                .root_children()
                .map(|c| (c.mv, c.visits, c.mean.to_bits(), c.value.to_bits()))
                .collect();
            (r.best, r.value.to_bits(), r.nodes_used, kids)
        };
        assert_eq!(run(), run(), "{spec_text}");
    }
}

/// The subtree under `id` in pre-order: (move, visits, reward bits, value bits, proven).
fn subtree(pool: &super::pool::Pool<'_>, id: NodeId, out: &mut Vec<(u16, u32, u32, u32, Proven)>) {
    let n = pool.get(id);
    out.push((
        n.move_code(),
        n.visits(),
        n.mean().to_bits(),
        n.value().to_bits(),
        n.proven(),
    ));
    let first = n.first_child_index();
    for i in 0..pool.children(id).len() as u32 {
        subtree(pool, NodeId(first + i), out);
    }
}

#[test]
fn tree_reuse_keeps_the_played_subtree_exactly() {
    let cfg = MctsConfig::<Breakthrough> {
        reuse_tree: true,
        value_mode: ValueMode::Implicit,
        alpha: 0.4,
        playout: super::config::PlayoutConfig {
            policy: PlayoutPolicy::Informed,
            ..Default::default()
        },
        ..MctsConfig::default()
    };
    let mut nodes = vec![Node::EMPTY; 300_000];
    let mut m = Mcts::new(&mut nodes, cfg.validate().unwrap());
    let mut g = Breakthrough::new();
    let r = m.search(&mut g, Budget::iterations(5000), &mut NoClock);
    let best = r.best.unwrap();
    // The subtree under the best move, before compaction.
    let root = *m.pool().get(NodeId::ROOT);
    let first = root.first_child_index();
    let child = (0..root_children_len(&m))
        .map(|i| NodeId(first + i))
        .find(|&c| m.pool().get(c).move_code() == Breakthrough::encode_move(best))
        .unwrap();
    let mut before = Vec::new();
    subtree(m.pool(), child, &mut before);
    m.advance(best);
    g.make(best);
    let mut after = Vec::new();
    subtree(m.pool(), NodeId::ROOT, &mut after);
    assert_eq!(before, after);
    // Every kept node, and a header slot in front of each kept block that has one.
    let headers = m.pool().header_slots().len();
    assert_eq!(m.nodes_used() as usize, after.len() + headers);
    // And the search goes on from the kept tree: the root's visits carry over.
    let visits_before = m.pool().get(NodeId::ROOT).visits();
    let r2 = m.search(&mut g, Budget::iterations(1000), &mut NoClock);
    assert!(g.is_legal(r2.best.unwrap()));
    assert_eq!(m.pool().get(NodeId::ROOT).visits(), visits_before + 1000);
    // A move the tree does not know forgets the tree; a search then starts afresh.
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    m.advance(list.moves()[0]);
    g.make(list.moves()[0]);
    let r3 = m.search(&mut g, Budget::iterations(100), &mut NoClock);
    assert!(g.is_legal(r3.best.unwrap()));
}

fn root_children_len(m: &Mcts<'_, Breakthrough>) -> u32 {
    m.pool().children(NodeId::ROOT).len() as u32
}

#[test]
fn node_priors_seed_virtual_visits() {
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(np50)").unwrap();
    let mut nodes = vec![Node::EMPTY; 10_000];
    let mut g = Breakthrough::new();
    let mut m = Mcts::new(&mut nodes, cfg.validate().unwrap());
    m.search(&mut g, Budget::iterations(1), &mut NoClock);
    for c in m.root_children() {
        assert!(c.visits >= 50);
    }
    // From the start every move is safe with 5 ranks to go (a2-a3 style) or 6.
    let kids: Vec<_> = m.root_children().collect();
    assert!(kids.iter().any(|c| c.visits == 50 || c.visits == 51));
}

#[test]
fn eval_priors_seed_virtual_visits_at_the_evaluation_and_steer_the_first_choice() {
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(ep5,c0)").unwrap();
    let mut nodes = vec![Node::EMPTY; 10_000];
    let mut g = pos("8/1pp3p1/pppp1ppp/1p1p1p1p/1P1P1P1P/PPPP1PPP/P3P2P/8 w");
    let mut m = Mcts::new(&mut nodes, cfg.validate().unwrap());
    m.search(&mut g, Budget::iterations(1), &mut NoClock);
    let kids: Vec<_> = m.root_children().collect();
    let best = kids
        .iter()
        .map(|c| c.value)
        .fold(f32::NEG_INFINITY, f32::max);
    let mut entered = 0;
    for c in &kids {
        if c.visits == 6 {
            // The one simulation went to a child of the highest evaluation (C = 0: greedy).
            entered += 1;
            assert_eq!(c.value, best);
        } else {
            assert_eq!(c.visits, 5);
            assert!((c.mean - c.value).abs() < 1e-6);
        }
    }
    assert_eq!(entered, 1);
    // Without the priors every child is visited once before any twice.
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(im0.5,c0)").unwrap();
    let mut m = Mcts::new(&mut nodes, cfg.validate().unwrap());
    m.search(&mut g, Budget::iterations(kids.len() as u64), &mut NoClock);
    assert!(m.root_children().all(|c| c.visits == 1));
}

#[test]
fn eval_priors_work_without_node_priors_and_not_with_them() {
    use crate::games::lines_of_action::LinesOfAction;
    let cfg = spec::parse_mcts::<LinesOfAction>("mcts(fet0,im0.6,ep3)").unwrap();
    let mut nodes = vec![Node::EMPTY; 50_000];
    let mut g = LinesOfAction::new();
    let mut m = Mcts::new(&mut nodes, cfg.validate().unwrap());
    let r = m.search(&mut g, Budget::iterations(500), &mut NoClock);
    assert!(g.is_legal(r.best.unwrap()));
    let sum: u32 = m.root_children().map(|c| c.visits).sum();
    // Every root child carries its 3 virtual visits besides the simulations through it.
    assert_eq!(sum, 3 * m.root_children().count() as u32 + 500);
    let e = spec::parse_mcts::<Breakthrough>("mcts(np,ep)").unwrap_err();
    assert_eq!(e.label, "ep", "{e}");
}

#[test]
fn budgets_are_respected() {
    let p = Breakthrough::new();
    let mut nodes = vec![Node::EMPTY; 100_000];
    let r = search(&p, MctsConfig::default(), 777, &mut nodes);
    assert_eq!(r.simulations, 777);
    assert_eq!(r.stop, StopReason::Iterations);
    let mut g = p.clone();
    let mut m = Mcts::new(&mut nodes, Default::default());
    let r = m.search(
        &mut g,
        Budget {
            nodes: Some(5000),
            ..Budget::default()
        },
        &mut NoClock,
    );
    assert_eq!(r.stop, StopReason::Nodes);
    assert!(r.nodes_used < 5000 + 50);
    // A fake clock advancing 1 ms per read stops a 10 ms search after about 10 reads.
    let mut t = 0u64;
    let mut clock = || {
        t += 1000;
        t
    };
    let r = m.search(&mut g, Budget::millis(10), &mut clock);
    assert_eq!(r.stop, StopReason::Time);
    assert!(r.simulations <= 11 * 64);
}

#[test]
fn finished_and_single_move_positions() {
    let won = pos("P7/8/8/8/8/8/7p/8 b");
    let mut nodes = vec![Node::EMPTY; 100];
    let r = search(&won, MctsConfig::default(), 10, &mut nodes);
    assert_eq!((r.best, r.stop), (None, StopReason::GameOver));
    assert_eq!(r.value, -1.0);
    // One White piece on a1 blocked ahead, only a1-b2 possible.
    let single = pos("7p/8/8/8/8/8/p7/P7 w");
    let r = search(&single, MctsConfig::default(), 10, &mut nodes);
    assert_eq!(r.stop, StopReason::SingleMove);
    assert_eq!(
        crate::game::move_string(&single, r.best.unwrap()).as_str(),
        "a1-b2"
    );
}

#[test]
fn player_specs_parse_the_papers_labels() {
    let ok = [
        "mcts",
        "MCTS",
        "mcts(ipp)",
        "mcts(ipp,im0.4)",
        "mcts(ege0.1,det0.5)",
        "mcts(bl)",
        "mcts(bl,im0.6,np10)",
        "mcts(ipp,fet20,np)",
        "mcts(bl')",
        "mcts(bl,mb1000)",
        "mcts(bl,cb0.4)",
        "mcts(bl,pbim0.4)",
        "mcts(pb)",
        "mcts(efLH)",
        "mcts(c0.8)",
        "mcts(one)",
        "mcts(bl', im0.4, np)",
        "mcts(pd20)",
        "mcts(det0.5,detk3)",
    ];
    for s in ok {
        spec::parse_mcts::<Breakthrough>(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    }
    let c = spec::parse_mcts::<Breakthrough>("mcts(bl,im0.6,np10)").unwrap();
    assert_eq!(c.playout.epsilon_greedy, Some(0.1));
    assert_eq!(c.playout.dynamic_cutoff, Some(0.5));
    assert_eq!(
        (c.value_mode, c.alpha, c.node_priors),
        (ValueMode::Implicit, 0.6, Some(10))
    );
    let c = spec::parse_mcts::<Breakthrough>("mcts(bl',im0.4,np50)").unwrap();
    assert_eq!(c.node_priors, Some(50));
    assert_eq!(c.playout.fixed_cutoff, Some(20));
    assert_eq!(c.playout.policy, PlayoutPolicy::Informed);
    assert_eq!(
        spec::parse_mcts::<Breakthrough>("mcts(efLH)").unwrap().eval,
        BreakthroughEval::LorentzHorey
    );
    assert_eq!(spec::parse_mcts::<Breakthrough>("mcts").unwrap().uct_c, 0.8);

    let bad = [
        ("mcts(foo)", "foo"),
        ("mcts(im0.4,cb0.2)", "cb0.2"),
        ("mcts(ipp,ipp)", "ipp"),
        ("mcts(im1.5)", "im1.5"),
        ("mcts(imx)", "imx"),
        ("mcts(ipp", "mcts(ipp"),
        ("uct(ipp)", "uct"),
        ("mcts(c-1)", "c-1"),
    ];
    for (s, label) in bad {
        let e = spec::parse_mcts::<Breakthrough>(s).unwrap_err();
        assert_eq!(e.label, label, "{s}: {e}");
    }
}

#[test]
fn suspend_and_resume_keep_the_tree_and_the_generator() {
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(ipp,im0.4,reuse)").unwrap();
    let p = random_position(3, 8);
    // One searcher run straight through ...
    let mut nodes_a = vec![Node::EMPTY; 50_000];
    let mut g = p.clone();
    let mut a = Mcts::new(&mut nodes_a, cfg.validate().unwrap());
    a.search(&mut g, Budget::iterations(500), &mut NoClock);
    let ra = a.search(&mut g, Budget::iterations(500), &mut NoClock);
    let kids_a: Vec<_> = a
        .root_children()
        .map(|c| (c.visits, c.mean.to_bits()))
        .collect();
    // ... and one put away and taken up again between its two searches.
    let mut nodes_b = vec![Node::EMPTY; 50_000];
    let state = {
        let mut b = Mcts::new(&mut nodes_b, cfg.validate().unwrap());
        b.search(&mut g, Budget::iterations(500), &mut NoClock);
        b.suspend()
    };
    let mut b = Mcts::resume(&mut nodes_b, state);
    let rb = b.search(&mut g, Budget::iterations(500), &mut NoClock);
    let kids_b: Vec<_> = b
        .root_children()
        .map(|c| (c.visits, c.mean.to_bits()))
        .collect();
    assert_eq!((ra.best, ra.nodes_used), (rb.best, rb.nodes_used));
    assert_eq!(kids_a, kids_b);
    // A buffer too short for the tree drops it instead of reading out of bounds.
    let state = b.suspend();
    let mut short = vec![Node::EMPTY; 10];
    let mut c = Mcts::resume(&mut short, state);
    assert_eq!(c.nodes_used(), 0);
    let r = c.search(&mut g, Budget::iterations(50), &mut NoClock);
    assert!(g.is_legal(r.best.unwrap()));
}

#[test]
fn alphabeta_specs_parse() {
    match spec::parse::<Breakthrough>("ab(efLH)").unwrap() {
        spec::PlayerSpec::AlphaBeta(c, tt) => {
            assert_eq!(c.eval, BreakthroughEval::LorentzHorey);
            assert_eq!(tt, spec::DEFAULT_TT_ENTRIES);
        }
        _ => panic!("expected ab"),
    }
    match spec::parse::<Breakthrough>("ab(efMS,depth4,tt0)").unwrap() {
        spec::PlayerSpec::AlphaBeta(c, tt) => assert_eq!((c.max_depth, tt), (4, 0)),
        _ => panic!("expected ab"),
    }
    assert!(matches!(
        spec::parse::<Breakthrough>("mcts(ipp)").unwrap(),
        spec::PlayerSpec::Mcts(_)
    ));
    assert_eq!(
        spec::parse::<Breakthrough>("ab(ipp)").unwrap_err().label,
        "ipp"
    );
    assert_eq!(
        spec::parse::<Breakthrough>("ab(depth0)").unwrap_err().label,
        "depth0"
    );
}

// ----- Games where a player may move several times in a row (Kalah) -----

use crate::games::kalah::Kalah;

/// Explicit negamax over a built tree for any game: leaves evaluated from the game state.
fn explicit_generic<G: Game>(m: &Mcts<'_, G>, id: NodeId, game: &mut G, eval: G::Eval) -> f32 {
    let pool = m.pool();
    let n = *pool.get(id);
    let count = pool.children(id).len() as u32;
    if count == 0 {
        return match game.outcome() {
            Some(o) => o.reward(n.mover()),
            None => game.evaluate(eval, n.mover()),
        };
    }
    let first = n.first_child_index();
    let mut best = f32::NEG_INFINITY;
    let mut same = false;
    for i in 0..count {
        let c = *pool.get(NodeId(first + i));
        same = c.mover() == n.mover();
        let mv = G::decode_move(c.move_code()).unwrap();
        let u = game.make(mv);
        best = best.max(explicit_generic(m, NodeId(first + i), game, eval));
        game.undo(mv, u);
    }
    if same { best } else { -best }
}

fn check_generic<G: Game>(m: &Mcts<'_, G>, id: NodeId, game: &mut G, eval: G::Eval) -> usize {
    let n = *m.pool().get(id);
    let want = explicit_generic(m, id, game, eval);
    assert!(
        (n.value() - want).abs() < 1e-6,
        "implicit {} vs explicit {want}",
        n.value()
    );
    let first = n.first_child_index();
    let mut same_mover_edges = 0;
    for i in 0..m.pool().children(id).len() as u32 {
        let c = *m.pool().get(NodeId(first + i));
        if id != NodeId::ROOT && c.mover() == n.mover() {
            same_mover_edges += 1;
        }
        let mv = G::decode_move(c.move_code()).unwrap();
        let u = game.make(mv);
        same_mover_edges += check_generic(m, NodeId(first + i), game, eval);
        game.undo(mv, u);
    }
    same_mover_edges
}

#[test]
fn kalah_extra_turns_keep_implicit_values_equal_to_explicit_minimax() {
    let mut same_mover_edges = 0;
    for seed in 0..20u64 {
        let mut rng = seeded(seed);
        let p = Kalah::random_board(&mut rng);
        let cfg = MctsConfig::<Kalah> {
            value_mode: ValueMode::Implicit,
            alpha: 0.3,
            seed,
            ..MctsConfig::default()
        };
        let mut nodes = vec![Node::EMPTY; 100_000];
        let mut g = p;
        let mut m = Mcts::new(&mut nodes, cfg.validate().unwrap());
        let r = m.search(&mut g, Budget::iterations(1500), &mut NoClock);
        assert!(p.is_legal(r.best.unwrap()));
        same_mover_edges += check_generic(&m, NodeId::ROOT, &mut g, Default::default());
        assert_eq!(g, p);
    }
    // The test means something only if extra turns happened inside the trees.
    assert!(same_mover_edges > 50, "{same_mover_edges}");
}

/// Exact negamax value of a Kalah position for the side to move (extra turns: no sign flip).
fn kalah_value(g: &mut Kalah) -> i32 {
    if let Some(o) = g.outcome() {
        return o.reward(g.side_to_move()) as i32;
    }
    let me = g.side_to_move();
    let mut list = <Kalah as Game>::MoveList::default();
    g.legal_moves(&mut list);
    let mut best = -2;
    for &mv in list.moves() {
        let u = g.make(mv);
        let v = if g.side_to_move() == me {
            kalah_value(g)
        } else {
            -kalah_value(g)
        };
        g.undo(mv, u);
        best = best.max(v);
    }
    best
}

#[test]
fn kalah_solver_agrees_with_exhaustive_negamax_on_small_endgames() {
    let mut proven = 0;
    for seed in 0..60u64 {
        // Few stones left: small trees with many extra turns.
        let mut rng = seeded(1000 + seed);
        let mut houses = [[0u8; 6]; 2];
        let mut left = 7;
        while left > 0 {
            let side = below(&mut rng, 2) as usize;
            let h = below(&mut rng, 6) as usize;
            houses[side][h] += 1;
            left -= 1;
        }
        if houses[0].iter().all(|&s| s == 0) || houses[1].iter().all(|&s| s == 0) {
            continue;
        }
        let stores = [20, 21];
        let side = if seed % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        let Ok(p) = Kalah::from_board(houses, stores, side, Default::default()) else {
            continue;
        };
        let exact = kalah_value(&mut p.clone());
        let mut nodes = vec![Node::EMPTY; 400_000];
        let mut g = p;
        let mut m = Mcts::new(&mut nodes, Default::default());
        let r = m.search(&mut g, Budget::iterations(100_000), &mut NoClock);
        if r.stop == StopReason::SingleMove {
            continue;
        }
        let mut pos_text = std::string::String::new();
        p.write_position(&mut pos_text).unwrap();
        assert_eq!(
            r.proven,
            match exact {
                1 => Proven::Win,
                0 => Proven::Draw,
                _ => Proven::Loss,
            },
            "seed {seed} {pos_text}: stop {:?} after {} sims, {} nodes",
            r.stop,
            r.simulations,
            r.nodes_used
        );
        proven += 1;
        // A proven win must be played as one.
        if exact == 1 {
            let mut g = p;
            let me = g.side_to_move();
            let u = g.make(r.best.unwrap());
            let v = if g.side_to_move() == me {
                kalah_value(&mut g)
            } else {
                -kalah_value(&mut g)
            };
            g.undo(r.best.unwrap(), u);
            assert_eq!(v, 1, "seed {seed}: the chosen move must keep the win");
        }
    }
    assert!(proven >= 30, "{proven}");
}

#[test]
fn alphabeta_agrees_with_exhaustive_negamax_across_kalah_extra_turns() {
    use super::alphabeta::{self, AlphaBetaConfig, TranspositionTable, TtEntry};
    let mut checked = 0;
    for seed in 0..60u64 {
        let mut rng = seeded(5000 + seed);
        let mut houses = [[0u8; 6]; 2];
        for _ in 0..7 {
            houses[below(&mut rng, 2) as usize][below(&mut rng, 6) as usize] += 1;
        }
        let side = if seed % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        let Ok(p) = Kalah::from_board(houses, [20, 21], side, Default::default()) else {
            continue;
        };
        if p.is_terminal() {
            continue;
        }
        let exact = kalah_value(&mut p.clone());
        for tt_size in [0usize, 4096] {
            let mut entries = vec![TtEntry::EMPTY; tt_size];
            let mut tt = TranspositionTable::new(&mut entries);
            let mut g = p;
            let cfg = AlphaBetaConfig::<Kalah> {
                stop_on_single_move: false,
                ..AlphaBetaConfig::default()
            };
            let r = alphabeta::search(
                &mut g,
                &cfg.validate().unwrap(),
                Budget::iterations(5_000_000),
                Some(&mut tt),
                &mut NoClock,
            );
            assert_eq!(g, p);
            let got = match alphabeta::proven_plies(r.value) {
                Some(_) if r.value > 0.0 => 1,
                Some(_) => -1,
                None => 0,
            };
            assert_eq!(
                got, exact,
                "seed {seed}, tt {tt_size}: value {} depth {} stop {:?} nodes {}",
                r.value, r.depth, r.stop, r.nodes
            );
        }
        checked += 1;
    }
    assert!(checked >= 40, "{checked}");
}

#[test]
fn empty_labels_are_errors_but_empty_lists_are_not() {
    assert!(spec::parse_mcts::<Breakthrough>("mcts()").is_ok());
    assert!(spec::parse::<Breakthrough>("ab()").is_ok());
    let e = spec::parse_mcts::<Breakthrough>("mcts(ipp,,im0.4)").unwrap_err();
    assert_eq!((e.label, e.problem), ("mcts(ipp,,im0.4)", "empty label"));
    assert_eq!(
        spec::parse::<Breakthrough>("ab(efMS,)")
            .unwrap_err()
            .problem,
        "empty label"
    );
}

#[test]
fn a_budget_spent_before_the_first_simulation_is_reported_as_such() {
    // Issue 13: `nodes 1` and zero budgets used to report `pool-full` with room to spare.
    let p = Breakthrough::new();
    for budget in [
        Budget {
            iterations: None,
            nodes: Some(1),
            time_us: None,
        },
        Budget::iterations(0),
    ] {
        let mut nodes = vec![Node::EMPTY; 1000];
        let mut g = p.clone();
        let mut m = Mcts::new(
            &mut nodes,
            MctsConfig::<Breakthrough>::default().validate().unwrap(),
        );
        let r = m.search(&mut g, budget, &mut NoClock);
        assert_eq!(r.simulations, 0);
        assert!(!r.pool_full, "{budget:?}");
        let want = if budget.nodes.is_some() {
            StopReason::Nodes
        } else {
            StopReason::Iterations
        };
        assert_eq!(r.stop, want);
        assert!(p.is_legal(r.best.expect("a move")));
    }
}

#[test]
fn specs_that_could_not_search_fail_to_parse_and_say_the_range() {
    // Issue 13 item 3: these parsed, then failed (or misbehaved) at search time.
    for s in [
        "mcts(pbnan)",
        "mcts(pbinf)",
        "mcts(pb-inf)",
        "mcts(pb1e39)",
        "mcts(c1e39)",
    ] {
        let e = spec::parse::<Breakthrough>(s).unwrap_err();
        assert!(e.problem.contains("finite"), "{s}: {e}");
    }
    for s in ["ab(depth65)", "ab(depth100)", "ab(depth4294967295)"] {
        let e = spec::parse::<Breakthrough>(s).unwrap_err();
        assert!(e.problem.contains("1 to 64"), "{s}: {e}");
    }
    assert!(spec::parse::<Breakthrough>("ab(depth64)").is_ok());
    // Item 8: numbers out of their type's range name the range.
    for (s, range) in [
        ("mcts(np99999999999)", "to 65535"),
        ("mcts(mb99999999999)", "to 4294967295"),
        ("mcts(fet-1)", "to 4294967295"),
        ("mcts(seed-1)", "to 18446744073709551615"),
        ("mcts(dist256)", "to 255"),
        ("ab(tt-1)", "to 18446744073709551615"),
    ] {
        let e = spec::parse::<Breakthrough>(s).unwrap_err();
        assert!(e.problem.contains(range), "{s}: {e}");
    }
}

/// The backup's incremental max (`Mcts::refresh_after`) leaves every unproven node's implicit
/// value bit-identical to a rescan of its children, `±max_c v(c)` folded with `f32::max` in
/// child order, as `refresh` computes it: in games with and without extra moves (Kalah), with
/// all-children and one-child expansion, with and without the solver, and across tree reuse.
#[test]
fn incremental_implicit_backup_equals_a_rescan_to_the_bit() {
    fn check<G: Game>(p: &G, spec_text: &str, sims: u64) -> usize {
        let cfg = spec::parse_mcts::<G>(spec_text).unwrap();
        let mut nodes = vec![Node::EMPTY; 200_000];
        let mut m = Mcts::new(&mut nodes, cfg);
        let mut g = p.clone();
        let mut checked = 0;
        for _ in 0..3 {
            let Some(best) = m
                .search(&mut g, Budget::iterations(sims), &mut NoClock)
                .best
            else {
                break;
            };
            let pool = m.pool();
            for i in 0..pool.len() {
                let n = *pool.get(NodeId(i));
                let children = pool.children(NodeId(i));
                if children.is_empty() || n.proven != Proven::Unknown {
                    continue;
                }
                let max = children
                    .iter()
                    .map(|c| c.value)
                    .fold(f32::NEG_INFINITY, f32::max);
                let want = if children[0].mover() == n.mover() {
                    max
                } else {
                    -max
                };
                assert_eq!(n.value.to_bits(), want.to_bits(), "{spec_text} node {i}");
                checked += 1;
            }
            m.advance(best);
            g.make(best);
            if g.is_terminal() {
                break;
            }
        }
        checked
    }
    let kalah = crate::games::kalah::Kalah::new();
    let tic_tac_toe = crate::games::tictactoe::TicTacToe::new();
    let mut checked = 0;
    for s in [
        "mcts(im0.4,reuse)",
        "mcts(im0.4,one,reuse,seed3)",
        "mcts(im1,nosolver,reuse)",
    ] {
        checked += check(&Breakthrough::new(), s, 3000);
        checked += check(
            &pos("8/1pp3p1/pppp1ppp/1p1p1p1p/1P1P1P1P/PPPP1PPP/P3P2P/8 w"),
            s,
            3000,
        );
    }
    for s in [
        "mcts(fet4,im0.3,reuse)",
        "mcts(fet4,im0.3,one,nosolver,reuse)",
    ] {
        checked += check(&kalah, s, 5000);
    }
    checked += check(&tic_tac_toe, "mcts(im0.5,reuse)", 2000);
    assert!(checked > 1000, "{checked} nodes checked");
}
