//! Tests of the places where imcts follows the paper authors' code rather than a loose reading
//! of the paper's text (`docs/reproduction.md` lists each difference and its measured effect).

use super::config::{MctsConfig, PlayoutPolicy};
use super::mcts::Mcts;
use super::node::{Node, NodeId};
use super::{Budget, NoClock, playout, spec};
use crate::game::{Game, MoveBuffer, Player, move_string};
use crate::games::breakthrough::{Breakthrough, BreakthroughEval, MoveList};
use crate::rng::seeded;
use std::string::{String, ToString};
use std::vec;
use std::vec::Vec;

fn pos(s: &str) -> Breakthrough {
    Breakthrough::parse_position(s).unwrap()
}

/// How often each move (by notation) is chosen by `pick` over `n` draws.
fn frequencies(
    g: &Breakthrough,
    n: u32,
    mut pick: impl FnMut(&mut crate::SearchRng) -> crate::games::breakthrough::Move,
) -> std::collections::HashMap<String, f64> {
    let mut rng = seeded(11);
    let mut counts = std::collections::HashMap::new();
    for _ in 0..n {
        let mv = pick(&mut rng);
        *counts
            .entry(move_string(g, mv).as_str().to_string())
            .or_insert(0.0) += 1.0 / n as f64;
    }
    counts
}

/// White captures on e5 (d6 and f6 empty: undefended in the code's sense, weight 5) or on h5
/// (g6 holds a Black piece: defended, weight 2); both captures evaluate the same, every other
/// move (four quiet steps) evaluates lower.
const TWO_CAPTURES: &str = "8/8/6p1/4p2p/3P2P1/p7/8/8 w";

#[test]
fn greedy_draws_among_tied_moves_instead_of_taking_the_first() {
    let g = pos(TWO_CAPTURES);
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(ege0.1)").unwrap();
    assert_eq!(cfg.playout.policy, PlayoutPolicy::Random);
    let f = frequencies(&g, 4000, |rng| {
        playout::greedy(&mut g.clone(), list.moves(), &cfg, rng)
    });
    // Uniform over the two tied captures, nothing else.
    assert_eq!(f.len(), 2, "{f:?}");
    for mv in ["d4xe5", "g4xh5"] {
        assert!((f[mv] - 0.5).abs() < 0.03, "{mv}: {f:?}");
    }
}

#[test]
fn greedy_weights_ties_as_the_informed_policy_lists_them() {
    let g = pos(TWO_CAPTURES);
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(bl)").unwrap();
    assert_eq!(
        cfg.playout.policy,
        PlayoutPolicy::Informed,
        "bl includes ipp"
    );
    let f = frequencies(&g, 7000, |rng| {
        playout::greedy(&mut g.clone(), list.moves(), &cfg, rng)
    });
    // The code's list holds the undefended capture 5 times, the defended one twice.
    assert!((f["d4xe5"] - 5.0 / 7.0).abs() < 0.03, "{f:?}");
    assert!((f["g4xh5"] - 2.0 / 7.0).abs() < 0.03, "{f:?}");
}

#[test]
fn forced_anti_decisive_captures_tie_once_each_as_in_the_codes_list() {
    // Black threatens to win from a2 and from e2 (a lost position: only one can be taken), so
    // ipp's candidates are b1xa2 and f1xe2, which efMS values alike. b3 covers a2 and nothing
    // covers e2: outside the forced list ipp would weigh them 2 and 5, but the code's forced
    // list holds each capture once, so its greedy step draws them evenly.
    let g = pos("8/8/8/8/8/1p6/p3p3/1P3P2 w");
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(bl)").unwrap();
    let f = frequencies(&g, 6000, |rng| {
        playout::greedy(&mut g.clone(), list.moves(), &cfg, rng)
    });
    assert_eq!(f.len(), 2, "{f:?}");
    assert!((f["b1xa2"] - 0.5).abs() < 0.03, "{f:?}");
    assert!((f["f1xe2"] - 0.5).abs() < 0.03, "{f:?}");
    // The weights the generic greedy step counts ties with agree.
    let (a, e) = (
        g.parse_move("b1xa2").unwrap(),
        g.parse_move("f1xe2").unwrap(),
    );
    assert_eq!((g.informed_weight(a), g.informed_weight(e)), (1, 1));
}

#[test]
fn ipp_follows_the_code_and_text_ipp_the_text() {
    let g = pos(TWO_CAPTURES);
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    assert_eq!(list.len(), 6);
    // Code: 5 for the undefended capture, 2 for the defended one, 1 for each of 4 quiet moves.
    let f = frequencies(&g, 11_000, |rng| g.informed_playout_move(&list, rng));
    assert!((f["d4xe5"] - 5.0 / 11.0).abs() < 0.03, "{f:?}");
    assert!((f["g4xh5"] - 2.0 / 11.0).abs() < 0.03, "{f:?}");
    assert!((f["d4-d5"] - 1.0 / 11.0).abs() < 0.02, "{f:?}");
    // Text: undefended captures 4× any other move (the defended capture counts 1).
    let f = frequencies(&g, 9_000, |rng| g.informed_playout_move_text(&list, rng));
    assert!((f["d4xe5"] - 4.0 / 9.0).abs() < 0.03, "{f:?}");
    assert!((f["g4xh5"] - 1.0 / 9.0).abs() < 0.02, "{f:?}");
}

#[test]
fn an_own_piece_ahead_makes_a_capture_defended_only_for_the_code() {
    // White d4 takes e5; f6 holds a White piece. The code finds f6 not empty ("defended"), the
    // text's reading (no Black piece could recapture) finds e5 undefended.
    let g = pos("7p/8/5P2/4p3/3P4/8/8/8 w");
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let cap = g.parse_move("d4xe5").unwrap();
    assert_eq!(g.informed_weight(cap), 2);
    let f = frequencies(&g, 6000, |rng| g.informed_playout_move_text(&list, rng));
    // Text: the capture 4, the five quiet moves (d4-d5, d4-c5, f6-f7, f6-e7, f6-g7) 1 each.
    assert_eq!(list.len(), 6);
    assert!((f["d4xe5"] - 4.0 / 9.0).abs() < 0.03, "{f:?}");
}

#[test]
fn informed_candidates_keep_a_decisive_move_then_the_anti_decisive_captures() {
    let mut out = MoveList::new();
    let mut list = MoveList::new();
    // g7 can step onto the goal rank: that move alone.
    let g = pos("8/6P1/8/8/8/8/p7/1P6 w");
    g.legal_moves(&mut list);
    g.informed_candidates(&list, &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].to / 8, 7);
    // A Black piece on a2 threatens to win; b1xa2 is the only candidate.
    let g = pos("8/8/8/3P4/8/8/p7/1P6 w");
    g.legal_moves(&mut list);
    g.informed_candidates(&list, &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(move_string(&g, out[0]).as_str(), "b1xa2");
    // No decisive or anti-decisive move: every move.
    let g = pos(TWO_CAPTURES);
    g.legal_moves(&mut list);
    g.informed_candidates(&list, &mut out);
    assert_eq!(out.len(), list.len());
}

#[test]
fn det_needs_a_value_past_the_threshold_unless_text_det() {
    assert_eq!(playout::det_verdict(0.5, 0.5, false), None);
    assert_eq!(playout::det_verdict(0.5001, 0.5, false), Some(1.0));
    assert_eq!(playout::det_verdict(-0.5001, 0.5, false), Some(-1.0));
    assert_eq!(playout::det_verdict(0.5, 0.5, true), Some(1.0));
    assert_eq!(playout::det_verdict(-0.5, 0.5, true), Some(-1.0));
    assert_eq!(playout::det_verdict(0.2, 0.5, true), None);
    let c = spec::parse_mcts::<Breakthrough>("mcts(bl,text-det)").unwrap();
    assert!(c.playout.text_det && !c.playout.text_ipp);
    assert!(
        spec::parse_mcts::<Breakthrough>("mcts(ipp,text-ipp)")
            .unwrap()
            .playout
            .text_ipp
    );
    assert!(spec::parse_mcts::<crate::games::kalah::Kalah>("mcts(text-ipp)").is_err());
}

#[test]
fn det_checks_after_playout_moves_never_at_the_leaf() {
    // White is far ahead (efMS well past 0.5) but nothing is decided yet.
    let g = pos("8/pp6/8/8/8/8/PPPPPPPP/PPPPPPPP b");
    assert!(g.evaluate(BreakthroughEval::Schadd, Player::First) > 0.5);
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(det0.5)").unwrap();
    let mut rng = seeded(5);
    for _ in 0..50 {
        let (r, plies) = playout::run(&mut g.clone(), &cfg, &mut rng);
        // The first check comes after 5 moves (the game cannot end sooner from here).
        assert!(plies >= 5, "stopped after {plies} moves with {r}");
    }
}

#[test]
fn node_priors_count_in_the_parents_visits_but_not_for_finished_children() {
    // White wins at once with g7-g8 (or the captures onto rank 8): those children are finished
    // and get no prior visits; the others get 10 each, and UCT's parent count is their sum.
    let g = pos("p7/6P1/8/8/8/8/8/1P6 b");
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(np10)").unwrap();
    let mut nodes = vec![Node::EMPTY; 10_000];
    let mut m = Mcts::new(&mut nodes, cfg);
    let mut game = g.clone();
    m.search(&mut game, Budget::iterations(200), &mut NoClock);
    let sum: u32 = m.root_children().map(|c| c.visits).sum();
    assert_eq!(m.uct_parent_visits(NodeId::ROOT), sum);
    assert!(sum > m.pool().get(NodeId::ROOT).visits(), "priors count");

    let w = pos("p7/6P1/8/8/8/8/8/8 w");
    let mut m = Mcts::new(&mut nodes, cfg);
    let mut game = w.clone();
    let r = m.search(&mut game, Budget::iterations(10), &mut NoClock);
    assert_eq!(r.best.map(|b| b.to / 8), Some(7));
    for c in m.root_children() {
        let finished = {
            let mut x = w.clone();
            x.make(c.mv);
            x.is_terminal()
        };
        assert_eq!(c.visits == 0, finished, "{c:?}");
    }
    // Without node priors the parent's count is its own visits.
    let plain = MctsConfig::<Breakthrough>::default().validate().unwrap();
    let mut m = Mcts::new(&mut nodes, plain);
    let mut game = g.clone();
    m.search(&mut game, Budget::iterations(50), &mut NoClock);
    assert_eq!(
        m.uct_parent_visits(NodeId::ROOT),
        m.pool().get(NodeId::ROOT).visits()
    );
}

#[test]
fn a_lost_child_gets_its_siblings_expanded_unless_text_solver() {
    // White (e3, h3) has five moves and every one loses at once to b2-b1. Unvisited children go
    // first, so five simulations visit each child once; the sixth expands one of them and proves
    // it lost. The paper's code then expands the siblings in order and proves the root at once;
    // MCTS-Solver as published needs a second visit to every child.
    let g = pos("p7/8/8/8/8/4P2P/1p6/8 w");
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    assert_eq!(list.len(), 5);
    let mut nodes = vec![Node::EMPTY; 10_000];
    for (spec, proven) in [
        ("mcts", super::node::Proven::Loss),
        ("mcts(text-solver)", super::node::Proven::Unknown),
    ] {
        let cfg = spec::parse_mcts::<Breakthrough>(spec).unwrap();
        assert_eq!(cfg.text_solver, spec.contains("text-solver"));
        let mut m = Mcts::new(&mut nodes, cfg);
        let mut game = g.clone();
        let r = m.search(&mut game, Budget::iterations(6), &mut NoClock);
        assert_eq!(r.proven, proven, "{spec}");
        assert_eq!(r.simulations, 6, "{spec}");
        assert_eq!(game, g, "{spec}: the position is restored");
        let lost = m
            .root_children()
            .filter(|c| c.proven == super::node::Proven::Loss)
            .count();
        assert_eq!(lost, if spec == "mcts" { 5 } else { 1 }, "{spec}");
    }
    // Where one move saves the game (a1xb2), the siblings are expanded only up to the first
    // child that is not lost, and the search goes on to find and play the saving move.
    let g = pos("p7/8/8/8/8/4P2P/1p6/P7 w");
    let cfg = spec::parse_mcts::<Breakthrough>("mcts").unwrap();
    let mut m = Mcts::new(&mut nodes, cfg);
    let mut game = g.clone();
    let r = m.search(&mut game, Budget::iterations(300), &mut NoClock);
    assert_eq!(r.proven, super::node::Proven::Unknown);
    assert_eq!(move_string(&g, r.best.unwrap()).as_str(), "a1xb2");
}

/// A Breakthrough position `plies` random moves from the start (never a finished one).
fn random_position(seed: u64, plies: u32) -> Breakthrough {
    let mut rng = seeded(seed);
    let mut p = Breakthrough::new();
    let mut list = MoveList::new();
    for _ in 0..plies {
        p.legal_moves(&mut list);
        let mv = list[crate::rng::below(&mut rng, list.len() as u32) as usize];
        let u = p.make(mv);
        if p.is_terminal() {
            p.undo(mv, u);
            break;
        }
    }
    p
}

#[test]
fn a_proven_node_keeps_its_heuristic_value_unless_text_proven() {
    // Deep enough into random games that the solver proves nodes inside the tree. The code
    // leaves a proven node's v as it was before the proof; the text gives it ±1. Either way an
    // unproven node's v is the max over all its children's stored v, proven ones included.
    let mut nodes = vec![Node::EMPTY; 200_000];
    for spec in ["mcts(im0.6,efLH)", "mcts(im0.6,efLH,text-proven)"] {
        let text = spec.contains("text-proven");
        let cfg = spec::parse_mcts::<Breakthrough>(spec).unwrap();
        assert_eq!(cfg.text_proven, text);
        let (mut proven, mut stale) = (0, 0);
        for seed in 0..12u64 {
            let p = random_position(seed, 40 + (seed % 10) as u32);
            let mut m = Mcts::new(&mut nodes, cfg);
            let mut game = p.clone();
            m.search(&mut game, Budget::iterations(3000), &mut NoClock);
            let pool = m.pool();
            for i in 1..m.nodes_used() {
                let n = *pool.get(NodeId(i));
                let children = pool.children(NodeId(i));
                if children.is_empty() {
                    continue;
                }
                match n.proven().reward() {
                    Some(r) => {
                        proven += 1;
                        if n.value() != r {
                            stale += 1;
                        }
                    }
                    None => {
                        let same = children[0].mover() == n.mover();
                        let max = children
                            .iter()
                            .map(|c| c.value())
                            .fold(f32::NEG_INFINITY, f32::max);
                        assert_eq!(n.value(), if same { max } else { -max }, "{spec}");
                    }
                }
            }
        }
        assert!(proven > 50, "{spec}: only {proven} proven inner nodes");
        if text {
            assert_eq!(stale, 0, "{spec}");
        } else {
            assert!(stale > 0, "{spec}: every one of {proven} proofs set v");
        }
    }
}

#[test]
fn a_child_the_solver_step_expanded_is_played_out_from_on_its_first_visit() {
    // With node priors the children are not all visited first, so the code's solver step
    // (B16) expands children that were never simulated from. The code plays out from such a
    // child on its first visit, as from any other leaf, and descends into it only after that.
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(bl',im0.6,efLH,reuse)").unwrap();
    let mut nodes = vec![Node::EMPTY; 200_000];
    let mut first_visits = 0;
    for seed in 0..8u64 {
        let p = random_position(100 + seed, 40 + seed as u32);
        let mut m = Mcts::new(&mut nodes, cfg);
        let mut game = p.clone();
        let mut before: Vec<Node> = Vec::new();
        for _ in 0..1500 {
            let r = m.search(&mut game, Budget::iterations(1), &mut NoClock);
            if r.stop != super::StopReason::Iterations {
                break;
            }
            let pool = m.pool();
            for (i, old) in before.iter().enumerate().skip(1) {
                let now = *pool.get(NodeId(i as u32));
                // Expanded by the solver step, never entered, and entered now.
                if old.is(super::node::flag::EXPANDED)
                    && !old.is(super::node::flag::VISITED)
                    && now.is(super::node::flag::VISITED)
                {
                    first_visits += 1;
                    let first = now.first_child_index() as usize;
                    for k in 0..now.children as usize {
                        assert_eq!(
                            pool.get(NodeId((first + k) as u32)).visits(),
                            before[first + k].visits(),
                            "seed {seed}: a child of node {i} was entered on its first visit"
                        );
                    }
                }
            }
            before = (0..m.nodes_used()).map(|i| *pool.get(NodeId(i))).collect();
        }
    }
    assert!(
        first_visits > 0,
        "no child expanded by the solver step was entered"
    );
}

#[test]
fn a_simulation_adds_no_visit_to_the_nodes_it_proves_with_code_proof_visits() {
    // Black's b2 wins next move unless a1xb2 takes it, so every other White move is proven lost
    // when it is expanded (its second visit) or by the solver step. The paper's code returns at
    // a proof before updating the node: a lost child keeps the one visit of its playout and the
    // winning reply below it gets none. Without the label the proving simulation counts in both.
    let g = pos("p7/8/8/8/8/4P2P/1p6/P7 w");
    let mut nodes = vec![Node::EMPTY; 10_000];
    for spec in ["mcts", "mcts(code-proof-visits)"] {
        let code = spec.contains("code-proof-visits");
        let cfg = spec::parse_mcts::<Breakthrough>(spec).unwrap();
        assert_eq!(cfg.code_proof_visits, code);
        let mut m = Mcts::new(&mut nodes, cfg);
        let mut game = g.clone();
        let r = m.search(&mut game, Budget::iterations(300), &mut NoClock);
        assert_eq!(move_string(&g, r.best.unwrap()).as_str(), "a1xb2", "{spec}");
        let pool = m.pool();
        let root = *pool.get(NodeId::ROOT);
        let (mut lost, mut most, mut reply_visits) = (0, 0, 0);
        for i in 0..root.children as u32 {
            let c = *pool.get(NodeId(root.first_child_index() + i));
            if c.proven() != super::node::Proven::Loss {
                continue;
            }
            lost += 1;
            most = most.max(c.visits());
            for k in 0..c.children as u32 {
                let reply = pool.get(NodeId(c.first_child_index() + k));
                if reply.proven() == super::node::Proven::Win {
                    reply_visits += reply.visits();
                }
            }
        }
        assert_eq!(
            lost,
            root.children - 1,
            "{spec}: every move but a1xb2 is lost"
        );
        if code {
            assert_eq!(most, 1, "{spec}: a proven child counted its proving visit");
            assert_eq!(reply_visits, 0, "{spec}: a winning reply was counted");
        } else {
            assert_eq!(most, 2, "{spec}");
            assert!(reply_visits > 0, "{spec}");
        }
    }
}

#[test]
fn code_ties_put_children_in_the_paper_codes_order() {
    // The code's `getExpandMoves` scans from our rank 8 down to rank 1 for both sides, files
    // a to h, and per piece the diagonal towards file a, the one towards file h, then straight.
    // These lists are what its generator gives (`scripts/java/PaperRootStats.java` prints them).
    let cfg = spec::parse_mcts::<Breakthrough>("mcts(code-ties)").unwrap();
    let mut nodes = vec![Node::EMPTY; 10_000];
    for (position, first) in [
        (
            Breakthrough::start(),
            [
                "a2-b3", "a2-a3", "b2-a3", "b2-c3", "b2-b3", "c2-b3", "c2-d3",
            ],
        ),
        (
            pos("pppppppp/3Pp3/2p5/p6P/1P2P2P/1pPP2p1/8/PPPPPPP1 b"),
            [
                "a8-b7", "a8-a7", "b8-a7", "b8-c7", "b8-b7", "c8-b7", "c8xd7",
            ],
        ),
    ] {
        let mut m = Mcts::new(&mut nodes, cfg);
        let mut game = position.clone();
        m.search(&mut game, Budget::iterations(1), &mut NoClock);
        let order: Vec<String> = m
            .root_children()
            .map(|c| move_string(&position, c.mv).as_str().to_string())
            .collect();
        assert_eq!(order[..first.len()], first, "{order:?}");
        // and in the key's order throughout
        let keys: Vec<u16> = m
            .root_children()
            .map(|c| position.paper_code_order(c.mv))
            .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:?}");
    }
}

/// The order `code-ties` gives a node's children is a stable sort of the legal moves by
/// [`Game::paper_code_order`], in every position of random games: Breakthrough's distinct keys
/// (the bit-set path) and Lines of Action's equal ones (the insertion sort, our order kept).
#[test]
fn the_paper_codes_order_is_a_stable_sort_by_its_key() {
    use super::mcts::in_paper_code_order;
    fn check<G: Game>(start: G, seed: u64) {
        let mut rng = seeded(seed);
        for _ in 0..20 {
            let mut g = start.clone();
            while !g.is_terminal() {
                let mut list = G::MoveList::default();
                g.legal_moves(&mut list);
                let moves = list.moves();
                let order = in_paper_code_order(&g, moves).unwrap();
                let ours: Vec<_> = (0..moves.len())
                    .map(|i| moves[usize::from(order[i])])
                    .collect();
                let mut expected = moves.to_vec();
                expected.sort_by_key(|&m| g.paper_code_order(m));
                assert_eq!(ours, expected);
                let mv = g.random_playout_move(&mut rng);
                g.make(mv);
            }
        }
    }
    check(Breakthrough::start(), 3);
    check(crate::games::lines_of_action::LinesOfAction::start(), 4);
}

#[test]
fn code_ties_leave_kalahs_children_in_the_paper_codes_order() {
    // The code's Kalah `getExpandMoves` scans the mover's houses from its own left (0..5 for
    // South, 6..11 for North), skipping empty ones. That is our generator's order, so Kalah
    // keeps the default key (0 for every move) and `code-ties` changes only the tie-break.
    use crate::games::kalah::Kalah;
    let cfg = spec::parse_mcts::<Kalah>("mcts(code-ties)").unwrap();
    let mut nodes = vec![Node::EMPTY; 10_000];
    for (text, expected) in [
        (
            "4,4,4,4,4,4/4,4,4,4,4,4/0-0 s",
            &["1", "2", "3", "4", "5", "6"][..],
        ),
        ("4,0,4,4,0,4/3,0,5,0,2,1/1-2 n", &["1", "3", "5", "6"][..]),
        ("0,2,0,7,1,0/4,4,4,4,4,4/3-5 s", &["2", "4", "5"][..]),
    ] {
        let position = Kalah::parse_position(text).unwrap();
        let mut m = Mcts::new(&mut nodes, cfg);
        let mut game = position;
        m.search(&mut game, Budget::iterations(1), &mut NoClock);
        let order: Vec<String> = m
            .root_children()
            .map(|c| move_string(&position, c.mv).as_str().to_string())
            .collect();
        assert_eq!(order, expected, "{text}");
    }
}

#[test]
fn code_ties_take_the_first_of_equal_scores_unless_unvisited() {
    use super::mcts::{score, uct_choice};
    let plain = MctsConfig::<Breakthrough> {
        code_ties: false,
        ..Default::default()
    }
    .validate()
    .unwrap();
    // Breakthrough's default.
    let code = MctsConfig::<Breakthrough> {
        code_ties: true,
        ..Default::default()
    }
    .validate()
    .unwrap();
    let g = Breakthrough::start();
    let mut kids = [Node::EMPTY; 6];
    for k in &mut kids {
        k.set_stats(4, 2.0);
    }
    kids[0].set_stats(4, -4.0); // worse than the five tied ones
    let explore = 0.8;
    let mut rng = seeded(5);
    let mut seen = [0u32; 6];
    for _ in 0..200 {
        assert_eq!(
            uct_choice::<_, _, { score::PLAIN }>(&code, &kids, explore, &g, &mut rng),
            1
        );
        seen[uct_choice::<_, _, { score::PLAIN }>(&plain, &kids, explore, &g, &mut rng)
            as usize] += 1;
    }
    assert_eq!(seen[0], 0);
    assert!(seen[1..].iter().all(|&n| n > 20), "random ties: {seen:?}");
    // Unvisited children are still drawn at random (the code scores them "infinity plus a
    // random number").
    for k in &mut kids[2..] {
        k.set_stats(0, 0.0);
    }
    let mut seen = [0u32; 6];
    for _ in 0..200 {
        seen[uct_choice::<_, _, { score::PLAIN }>(&code, &kids, explore, &g, &mut rng) as usize] +=
            1;
    }
    assert_eq!(seen[..2], [0, 0]);
    assert!(seen[2..].iter().all(|&n| n > 20), "{seen:?}");
}

#[test]
fn code_ties_play_the_first_of_equally_visited_moves() {
    // As many simulations as the start has moves: every child gets one visit (unvisited
    // children first), so all are equally visited. The code plays the first (Breakthrough's
    // default); with random ties the higher mean decides.
    let start = Breakthrough::start();
    let mut list = MoveList::new();
    start.legal_moves(&mut list);
    let sims = list.len() as u64;
    let mut nodes = vec![Node::EMPTY; 10_000];
    for (spec, first) in [("mcts(seed3)", true), ("mcts(random-ties,seed3)", false)] {
        let cfg = spec::parse_mcts::<Breakthrough>(spec).unwrap();
        let mut m = Mcts::new(&mut nodes, cfg);
        let mut game = start.clone();
        let r = m.search(&mut game, Budget::iterations(sims), &mut NoClock);
        let kids: Vec<_> = m.root_children().collect();
        assert!(kids.iter().all(|c| c.visits == kids[0].visits), "{spec}");
        let best = r.best.unwrap();
        if first {
            assert_eq!(best, kids[0].mv, "{spec}");
        } else {
            let top = kids.iter().map(|c| c.mean).fold(f32::MIN, f32::max);
            let chosen = kids.iter().find(|c| c.mv == best).unwrap();
            assert_eq!(chosen.mean, top, "{spec}");
        }
    }
}

#[test]
fn code_end_eval_and_code_unproven_draws_start_finished_children_as_the_code() {
    // South's first house captures North's last three stones: the game ends, and with South's
    // two remaining stones swept in it is a draw at 24-24. The code's `expand` evaluates that
    // child on its unswept board (South 22, North 24: K4) and proves only wins and losses
    // (K5); South's other move goes on.
    use super::node::Proven;
    use crate::games::kalah::{Kalah, KalahEval};
    let position = Kalah::parse_position("1,0,0,2,0,0/0,0,0,0,3,0/18-24 s").unwrap();
    let ending = position.parse_move("1").unwrap();
    let unswept = { position }
        .paper_code_end_value(ending, KalahEval::StoreDiff, Player::First)
        .unwrap();
    assert_eq!(unswept.to_bits(), (-libm::tanhf(0.2)).to_bits());
    let mut nodes = vec![Node::EMPTY; 10_000];
    for (spec, value, proven) in [
        ("mcts(fet4,im0.3)", 0.0, Proven::Draw),
        ("mcts(fet4,im0.3,code-end-eval)", unswept, Proven::Draw),
        ("mcts(fet4,im0.3,code-unproven-draws)", 0.0, Proven::Unknown),
        (
            "mcts(fet4,im0.3,code-end-eval,code-unproven-draws)",
            unswept,
            Proven::Unknown,
        ),
        // Without implicit minimax no child is evaluated: the label changes nothing.
        ("mcts(fet4,code-end-eval)", 0.0, Proven::Draw),
    ] {
        let cfg = spec::parse_mcts::<Kalah>(spec).unwrap();
        let mut m = Mcts::new(&mut nodes, cfg);
        let mut game = position;
        m.search(&mut game, Budget::iterations(1), &mut NoClock);
        let children = m.pool().children(NodeId::ROOT);
        assert_eq!(children.len(), 2, "{spec}");
        let c = children
            .iter()
            .find(|c| Kalah::decode_move(c.move_code()) == Some(ending))
            .unwrap();
        assert_eq!(c.value().to_bits(), value.to_bits(), "{spec}");
        assert_eq!(c.proven(), proven, "{spec}");
        // The other child is the evaluation of an unfinished board either way.
        let other = children
            .iter()
            .find(|o| o.move_code() != c.move_code())
            .unwrap();
        assert_eq!(other.proven(), Proven::Unknown, "{spec}");
    }
    // A search with both labels never proves the root a draw: the drawn child stays open.
    let cfg = spec::parse_mcts::<Kalah>("mcts(fet4,im0.3,code-unproven-draws)").unwrap();
    let mut m = Mcts::new(&mut nodes, cfg);
    let mut game = position;
    m.search(&mut game, Budget::iterations(2000), &mut NoClock);
    assert!(
        m.pool()
            .children(NodeId::ROOT)
            .iter()
            .all(|c| c.proven() != Proven::Draw)
    );
}
