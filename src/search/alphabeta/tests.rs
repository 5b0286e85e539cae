//! αβ tests on Breakthrough: constructed wins, agreement with a plain full-width negamax,
//! budgets, tables, determinism.

use super::*;
use crate::games::breakthrough::{Breakthrough, BreakthroughEval, Move, MoveList};
use crate::rng::{below, seeded};
use crate::search::NoClock;

/// [`super::search`] with a configuration the tests build by hand, validated first.
fn search<G: Game, C: Clock>(
    game: &mut G,
    config: &AlphaBetaConfig<G>,
    budget: Budget,
    tt: Option<&mut TranspositionTable<'_>>,
    clock: &mut C,
) -> AlphaBetaResult<G> {
    super::search(game, &config.validate().unwrap(), budget, tt, clock)
}

fn pos(text: &str) -> Breakthrough {
    Breakthrough::parse_position(text).expect("valid position")
}

fn sq(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[1] - b'1') * 8 + (b[0] - b'a')
}

fn config(max_depth: u32) -> AlphaBetaConfig<Breakthrough> {
    AlphaBetaConfig {
        max_depth,
        stop_on_single_move: false,
        ..AlphaBetaConfig::new(BreakthroughEval::Schadd)
    }
}

/// Plain full-width negamax with the documented scores: no pruning, no table, no ordering.
fn negamax(g: &mut Breakthrough, eval: BreakthroughEval, depth: u32, ply: u32) -> f32 {
    let side = g.side_to_move();
    if let Some(o) = g.outcome() {
        return terminal_score(o, side, ply);
    }
    if depth == 0 {
        return heuristic_score(g.evaluate(eval, side));
    }
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let mut best = -2.0f32;
    for &mv in &list {
        let u = g.make(mv);
        let v = -negamax(g, eval, depth - 1, ply + 1);
        g.undo(mv, u);
        best = best.max(v);
    }
    best
}

/// A seeded random game prefix of up to `plies` plies that is not finished.
fn random_position(seed: u64, plies: u32) -> Breakthrough {
    let mut rng = seeded(seed);
    let mut p = Breakthrough::start();
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

fn no_tt_search(
    g: &mut Breakthrough,
    cfg: &AlphaBetaConfig<Breakthrough>,
    budget: Budget,
) -> AlphaBetaResult<Breakthrough> {
    search(g, cfg, budget, None, &mut NoClock)
}

fn assert_pv_legal(g: &Breakthrough, pv: &[Move]) {
    let mut p = g.clone();
    for &mv in pv {
        assert!(p.is_legal(mv), "illegal PV move {mv:?} in {p:?}");
        p.make(mv);
    }
}

#[test]
fn finds_win_in_one() {
    // White a7 reaches rank 8 at once; Black h2 would win next move.
    let mut g = pos("8/P7/8/8/8/8/7p/8 w");
    let before = g.clone();
    let r = no_tt_search(
        &mut g,
        &AlphaBetaConfig::default(),
        Budget::iterations(100_000),
    );
    assert_eq!(g, before);
    let mv = r.best_move.expect("a move");
    assert!(mv.to >= 56, "{mv:?} does not reach rank 8");
    assert_eq!(r.value, 1.0 - WIN_PLY_STEP);
    assert_eq!(proven_plies(r.value), Some(1));
    assert_eq!(r.stop, StopReason::Proven);
    assert_eq!(r.depth, 1);
    assert_eq!(r.pv.as_slice(), &[mv]);
}

#[test]
fn finds_win_in_three_plies() {
    // White h6, Black g8. h6-h7 is captured by g8xh7 (and White has no pieces left); h6-g7 is
    // safe (g8 attacks f7 and h7 only) and reaches rank 8 next move whatever Black does.
    let mut g = pos("6p1/8/7P/8/8/8/8/8 w");
    let mut entries = [TtEntry::EMPTY; 256];
    for with_tt in [false, true] {
        let mut table = TranspositionTable::new(&mut entries);
        let tt = with_tt.then_some(&mut table);
        let r = search(
            &mut g,
            &AlphaBetaConfig::default(),
            Budget::iterations(100_000),
            tt,
            &mut NoClock,
        );
        assert_eq!(
            r.best_move,
            Some(Move {
                from: sq("h6"),
                to: sq("g7")
            })
        );
        assert_eq!(proven_plies(r.value), Some(3));
        assert_eq!(r.stop, StopReason::Proven);
        assert_eq!(r.depth, 3);
        assert_eq!(r.pv.len(), 3);
        assert_pv_legal(&g, &r.pv);
    }
    // And after h6-h7?: Black captures the last White piece and wins at once.
    let mut g = pos("6p1/7P/8/8/8/8/8/8 b");
    let r = no_tt_search(
        &mut g,
        &AlphaBetaConfig::default(),
        Budget::iterations(1000),
    );
    assert_eq!(
        r.best_move,
        Some(Move {
            from: sq("g8"),
            to: sq("h7")
        })
    );
    assert_eq!(proven_plies(r.value), Some(1));
}

#[test]
fn lost_position_prefers_the_slowest_loss() {
    // Black g8 to move against White g6, which attacks f7 and h7. g8-f7 and g8-h7 are captured
    // by the last-piece capture (lost after 2 plies); g8-g7 blocks g6 and loses only after 4
    // plies (g6-f7 or g6-h7, any Black move, promotion).
    let mut g = pos("6p1/8/6P1/8/8/8/8/8 b");
    let r = no_tt_search(&mut g, &config(8), Budget::iterations(1_000_000));
    let exact = negamax(&mut g, BreakthroughEval::Schadd, r.depth, 0);
    assert_eq!(r.value, exact);
    let plies = proven_plies(r.value).expect("proven");
    assert_eq!(plies, -4);
    assert_eq!(
        r.best_move,
        Some(Move {
            from: sq("g8"),
            to: sq("g7")
        })
    );
    assert_eq!(r.stop, StopReason::Proven);
    // No move loses more slowly.
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    for &mv in &list {
        let u = g.make(mv);
        let v = -negamax(&mut g, BreakthroughEval::Schadd, r.depth - 1, 1);
        g.undo(mv, u);
        assert!(v <= r.value);
    }
}

#[test]
fn agrees_with_full_width_negamax_with_and_without_table() {
    let mut entries = [TtEntry::EMPTY; 4096];
    let mut positions = 0;
    for seed in 0..60u64 {
        let plies = 6 + (seed * 37 % 50) as u32;
        let mut g = random_position(seed, plies);
        if g.is_terminal() {
            continue;
        }
        positions += 1;
        let eval = if seed % 2 == 0 {
            BreakthroughEval::Schadd
        } else {
            BreakthroughEval::LorentzHorey
        };
        let before = g.clone();
        for depth in 1..=4 {
            let exact = negamax(&mut g, eval, depth, 0);
            let cfg = AlphaBetaConfig {
                eval,
                ..config(depth)
            };
            let plain = no_tt_search(&mut g, &cfg, Budget::iterations(u64::MAX));
            let mut table = TranspositionTable::new(&mut entries);
            table.clear();
            let with_tt = search(
                &mut g,
                &cfg,
                Budget::iterations(u64::MAX),
                Some(&mut table),
                &mut NoClock,
            );
            assert_eq!(g, before, "seed {seed} depth {depth}: state changed");
            for (name, r) in [("plain", &plain), ("tt", &with_tt)] {
                assert_eq!(r.value, exact, "seed {seed} depth {depth} {name}");
                let mv = r.best_move.expect("a move");
                assert!(g.is_legal(mv));
                // The chosen move really achieves the value.
                let u = g.make(mv);
                let child = -negamax(&mut g, eval, depth - 1, 1);
                g.undo(mv, u);
                if r.stop == StopReason::Proven {
                    // Stopped early on a proven result: the move achieves it at its own depth.
                    assert!(r.depth <= depth);
                    let u = g.make(mv);
                    let c = -negamax(&mut g, eval, r.depth - 1, 1);
                    g.undo(mv, u);
                    assert_eq!(c, r.value, "seed {seed} depth {depth} {name} proven");
                } else {
                    assert_eq!(r.depth, depth, "seed {seed} {name}");
                    assert_eq!(r.stop, StopReason::MaxDepth);
                    assert_eq!(child, exact, "seed {seed} depth {depth} {name} move");
                }
                assert_eq!(r.pv.first(), Some(&mv));
                assert_pv_legal(&g, &r.pv);
            }
        }
    }
    assert!(positions >= 50, "only {positions} positions");
}

#[test]
fn node_budget_is_respected_and_state_restored() {
    for seed in 0..10u64 {
        let mut g = random_position(seed + 100, 20);
        let before = g.clone();
        for budget in [0u64, 1, 2, 7, 50, 333, 1000, 12_345] {
            let r = no_tt_search(&mut g, &config(64), Budget::iterations(budget));
            assert_eq!(g, before);
            assert!(r.nodes <= budget, "{} > {budget}", r.nodes);
            let mv = r.best_move.expect("a move");
            assert!(g.is_legal(mv));
            assert_pv_legal(&g, &r.pv);
            if r.stop == StopReason::Iterations {
                assert_eq!(r.nodes, budget, "a spent budget is spent exactly");
            }
            // Budget::nodes limits αβ nodes too.
            let b = Budget {
                nodes: Some(budget),
                ..Budget::default()
            };
            let r = no_tt_search(&mut g, &config(64), b);
            assert!(r.nodes <= budget);
            assert!(matches!(
                r.stop,
                StopReason::Nodes | StopReason::Proven | StopReason::MaxDepth
            ));
        }
    }
}

#[test]
fn time_budget_stops_the_search() {
    let mut g = Breakthrough::start();
    let before = g.clone();
    let mut t = 0u64;
    let mut clock = || {
        t += 10;
        t
    };
    let r = search(
        &mut g,
        &AlphaBetaConfig {
            clock_interval: 64,
            ..config(64)
        },
        Budget::millis(5),
        None,
        &mut clock,
    );
    assert_eq!(g, before);
    assert_eq!(r.stop, StopReason::Time);
    assert!(r.best_move.is_some());
    // 5000 µs at 10 µs a reading every 64 nodes: about 32,000 nodes.
    assert!(r.nodes <= 500 * 64 + 64, "{}", r.nodes);
}

#[test]
fn unlimited_budget_runs_one_iteration() {
    let mut g = Breakthrough::start();
    let r = no_tt_search(&mut g, &config(64), Budget::default());
    assert_eq!(r.depth, 1);
    assert_eq!(r.stop, StopReason::Iterations);
    assert!(r.best_move.is_some());
}

#[test]
fn finished_root_reports_game_over() {
    // White reached rank 8 / Black has no pieces left; Black to move has lost either way.
    for text in ["P7/8/8/8/8/8/p7/8 b", "8/8/8/8/8/8/P7/8 b"] {
        let mut g = pos(text);
        assert!(g.is_terminal(), "{text}");
        let r = no_tt_search(&mut g, &config(4), Budget::iterations(100));
        assert_eq!(r.best_move, None);
        assert_eq!(r.stop, StopReason::GameOver);
        assert_eq!(r.nodes, 0);
        assert!(r.pv.is_empty());
        assert_eq!(r.value, -1.0, "{text}: Black to move has lost");
    }
}

#[test]
fn single_move_stops_after_one_iteration() {
    // White's only piece on h2 with h3 blocked: only h2-g3.
    let mut g = pos("p7/8/8/8/8/7p/7P/8 w");
    let r = no_tt_search(
        &mut g,
        &AlphaBetaConfig::default(),
        Budget::iterations(10_000),
    );
    assert_eq!(
        r.best_move,
        Some(Move {
            from: sq("h2"),
            to: sq("g3")
        })
    );
    assert_eq!(r.stop, StopReason::SingleMove);
    assert_eq!(r.depth, 1);
}

#[test]
fn tiny_and_empty_tables_work() {
    for seed in 0..12u64 {
        let mut g = random_position(seed + 500, 15 + seed as u32);
        let before = g.clone();
        let cfg = config(4);
        let plain = no_tt_search(&mut g, &cfg, Budget::iterations(u64::MAX));
        let mut one = [TtEntry::EMPTY; 1];
        let mut none: [TtEntry; 0] = [];
        for entries in [&mut one[..], &mut none[..]] {
            let mut table = TranspositionTable::new(entries);
            let r = search(
                &mut g,
                &cfg,
                Budget::iterations(u64::MAX),
                Some(&mut table),
                &mut NoClock,
            );
            assert_eq!(g, before);
            assert_eq!(r.value, plain.value, "seed {seed}");
            assert!(g.is_legal(r.best_move.unwrap()));
            if table.is_empty() {
                assert_eq!(r, plain, "an empty table is no table");
            }
        }
    }
}

#[test]
fn table_entries_with_illegal_moves_are_ignored() {
    let mut g = random_position(77, 12);
    let cfg = config(3);
    let plain = no_tt_search(&mut g, &cfg, Budget::iterations(u64::MAX));
    let mut entries = [TtEntry::EMPTY; 1];
    let mut table = TranspositionTable::new(&mut entries);
    // The root's key with a garbage move code and a shallow depth (so no cutoff): a1-h8.
    table.store(
        g.key(),
        0,
        0.0,
        Bound::Lower,
        Some(sq("a1") as u16 | (sq("h8") as u16) << 6),
        false,
    );
    let r = search(
        &mut g,
        &cfg,
        Budget::iterations(u64::MAX),
        Some(&mut table),
        &mut NoClock,
    );
    assert_eq!(r.value, plain.value);
    assert!(g.is_legal(r.best_move.unwrap()));
    // A code that decodes to no move at all.
    table.clear();
    table.store(g.key(), 0, 0.0, Bound::Lower, Some(u16::MAX), false);
    let r = search(
        &mut g,
        &cfg,
        Budget::iterations(u64::MAX),
        Some(&mut table),
        &mut NoClock,
    );
    assert_eq!(r.value, plain.value);
}

#[test]
fn table_reuse_across_searches_keeps_results_sound() {
    // A second search with the table of the first searches fewer nodes and still plays legal
    // moves; a proven result stays proven.
    let mut entries = [TtEntry::EMPTY; 1 << 12];
    let mut table = TranspositionTable::new(&mut entries);
    let mut g = random_position(3, 30);
    let cfg = config(5);
    let a = search(
        &mut g,
        &cfg,
        Budget::iterations(u64::MAX),
        Some(&mut table),
        &mut NoClock,
    );
    let b = search(
        &mut g,
        &cfg,
        Budget::iterations(u64::MAX),
        Some(&mut table),
        &mut NoClock,
    );
    assert!(table.occupied() > 0);
    assert!(b.nodes <= a.nodes, "{} > {}", b.nodes, a.nodes);
    assert!(g.is_legal(b.best_move.unwrap()));
}

#[test]
fn deterministic() {
    for seed in 0..8u64 {
        let mut g = random_position(seed + 900, 25);
        let cfg = config(64);
        let mut e1 = [TtEntry::EMPTY; 1024];
        let mut e2 = [TtEntry::EMPTY; 1024];
        let r1 = search(
            &mut g,
            &cfg,
            Budget::iterations(20_000),
            Some(&mut TranspositionTable::new(&mut e1)),
            &mut NoClock,
        );
        let r2 = search(
            &mut g,
            &cfg,
            Budget::iterations(20_000),
            Some(&mut TranspositionTable::new(&mut e2)),
            &mut NoClock,
        );
        assert_eq!(r1, r2);
        assert_eq!(e1, e2);
        let p1 = no_tt_search(&mut g, &cfg, Budget::iterations(20_000));
        let p2 = no_tt_search(&mut g, &cfg, Budget::iterations(20_000));
        assert_eq!(p1, p2);
    }
}

#[test]
fn move_order_is_the_paper_order_and_stable() {
    // White: a decisive move (b7-a8/b8/c8), a capture of a defended and an undefended piece.
    let g = pos("8/1P6/8/3p4/2P1p3/1p3P2/P7/8 w");
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let mut order = MoveOrder::new(&g, &list, None);
    let mut seen = heapless::Vec::<Move, 64>::new();
    while let Some(m) = order.next(&g, &list) {
        seen.push(m).unwrap();
    }
    assert_eq!(seen.len(), list.len());
    let classes: heapless::Vec<u8, 64> = seen.iter().map(|&m| g.order_class(m)).collect();
    assert!(classes.windows(2).all(|w| w[0] >= w[1]), "{classes:?}");
    // Stable: within a class, generation order.
    for c in 0..=4u8 {
        let gen_order = list.iter().filter(|&&m| g.order_class(m) == c);
        let ours = seen.iter().filter(|&&m| g.order_class(m) == c);
        assert!(gen_order.eq(ours), "class {c}");
    }
    // A first move goes first and is not repeated.
    let first = *list.last().unwrap();
    let mut order = MoveOrder::new(&g, &list, Some(first));
    assert_eq!(order.next(&g, &list), Some(first));
    let mut n = 1;
    while let Some(m) = order.next(&g, &list) {
        assert_ne!(m, first);
        n += 1;
    }
    assert_eq!(n, list.len());
}

#[test]
fn score_helpers() {
    assert_eq!(heuristic_score(f32::NAN), 0.0);
    assert_eq!(heuristic_score(3.0), HEURISTIC_SCALE);
    assert_eq!(
        proven_plies(terminal_score(
            Outcome::Win(Player::First),
            Player::First,
            5
        )),
        Some(5)
    );
    assert_eq!(
        proven_plies(terminal_score(
            Outcome::Win(Player::First),
            Player::Second,
            6
        )),
        Some(-6)
    );
    assert_eq!(proven_plies(0.5), None);
    assert_eq!(proven_plies(0.0), None);
    for ply in 0..=MAX_DEPTH {
        let w = terminal_score(Outcome::Win(Player::First), Player::First, ply);
        assert_eq!(from_tt(to_tt(w, ply), ply), w);
        assert_eq!(from_tt(to_tt(-w, ply), ply), -w);
    }
}

/// A tiny game with draws: four plies, each player adds 0 or 1 to their own score twice; the
/// higher score wins, equal scores draw. Best play (always 1) draws.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct Bits {
    score: [u8; 2],
    ply: u8,
}

impl Game for Bits {
    type Move = u8;
    type Undo = ();
    type MoveList = heapless::Vec<u8, 2>;
    type Eval = ();
    const NAME: &'static str = "bits";
    const EVALS: &'static [(&'static str, ())] = &[("none", ())];
    const MAX_MOVES: usize = 2;

    fn new() -> Self {
        Bits::default()
    }
    fn side_to_move(&self) -> Player {
        Player::BOTH[self.ply as usize % 2]
    }
    fn legal_moves(&self, out: &mut Self::MoveList) {
        out.clear();
        if self.ply < 4 {
            out.extend_from_slice(&[0, 1]).unwrap();
        }
    }
    fn make(&mut self, mv: u8) {
        self.score[self.ply as usize % 2] += mv;
        self.ply += 1;
    }
    fn undo(&mut self, mv: u8, _: ()) {
        self.ply -= 1;
        self.score[self.ply as usize % 2] -= mv;
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.ply >= 4).then(|| match self.score[0].cmp(&self.score[1]) {
            core::cmp::Ordering::Greater => Outcome::Win(Player::First),
            core::cmp::Ordering::Less => Outcome::Win(Player::Second),
            core::cmp::Ordering::Equal => Outcome::Draw,
        })
    }
    fn evaluate(&self, _: (), player: Player) -> f32 {
        let d = self.score[0] as f32 - self.score[1] as f32;
        let v = d / 4.0;
        if player == Player::First { v } else { -v }
    }
    fn key(&self) -> u64 {
        self.score[0] as u64 | (self.score[1] as u64) << 8 | (self.ply as u64) << 16
    }
    fn encode_move(mv: u8) -> u16 {
        mv as u16
    }
    fn decode_move(code: u16) -> Option<u8> {
        (code < 2).then_some(code as u8)
    }
    fn parse_move(&self, _: &str) -> Result<u8, crate::ParseError> {
        Err(crate::ParseError::new("move", crate::Problem::Illegal))
    }
    fn write_move<W: core::fmt::Write>(&self, mv: u8, out: &mut W) -> core::fmt::Result {
        write!(out, "{mv}")
    }
    fn parse_position(_: &str) -> Result<Self, crate::ParseError> {
        Err(crate::ParseError::new("position", crate::Problem::Empty))
    }
    fn write_position<W: core::fmt::Write>(&self, out: &mut W) -> core::fmt::Result {
        write!(out, "{self:?}")
    }
}

#[test]
fn resolved_draw_stops_deepening() {
    let mut g = Bits::new();
    let mut entries = [TtEntry::EMPTY; 64];
    for with_tt in [false, true] {
        let mut table = TranspositionTable::new(&mut entries);
        let tt = with_tt.then_some(&mut table);
        let r = search(
            &mut g,
            &AlphaBetaConfig::<Bits>::default(),
            Budget::iterations(1_000_000),
            tt,
            &mut NoClock,
        );
        assert_eq!(g, Bits::new());
        assert_eq!(r.value, 0.0, "tt {with_tt}");
        assert_eq!(r.best_move, Some(1), "tt {with_tt}");
        assert_eq!(r.depth, 4, "tt {with_tt}: stops once the tree is resolved");
        assert_eq!(r.stop, StopReason::MaxDepth, "tt {with_tt}");
        // Without a table the PV is the whole line; a table hit may cut it short.
        assert!(
            r.pv.len() == 4 || (with_tt && !r.pv.is_empty()),
            "{:?}",
            r.pv
        );
    }
}
