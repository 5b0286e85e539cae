//! A search with a tiny pool and fuzz-chosen options never panics, leaves the position as it
//! was, and returns a legal move whenever the game is not over.
//!
//! The options come as a player spec string built from fuzz bytes (every label of the parser's
//! table, with fuzz-chosen numbers, sometimes raw fuzz text as the number), so the spec parser
//! is fuzzed too.
//! The pool has 0–200 nodes and the budget 0–255 simulations (optionally a node limit); a second
//! search follows a move with `advance`, exercising tree reuse. An αβ search with a fuzz-chosen
//! node budget, depth and a tiny transposition table runs on the same position.
#![no_main]

use imcts::Game;
use imcts::search::alphabeta::{self, AlphaBetaConfig, TranspositionTable, TtEntry};
use imcts::search::mcts::Mcts;
use imcts::search::node::Node;
use imcts::search::{Budget, NoClock, spec};
use imcts_fuzz::{Bytes, Checked, legal_moves, start_position, walk, with_game};
use libfuzzer_sys::fuzz_target;

/// The labels besides the parser's table ([`spec::MCTS_LABELS`], which the specs draw from so
/// that every label is fuzzed, the ones added later too): Breakthrough's presets, and nothing.
const EXTRA: &[&str] = &["bl", "bl'", ""];

/// A number for a label: usually formatted from a byte, sometimes raw fuzz text.
fn number(b: &mut Bytes) -> String {
    match b.u8() {
        0..=79 => format!("0.{}", b.u8()),
        80..=159 => format!("{}", b.u8()),
        160..=199 => String::new(),
        200..=219 => "1".into(),
        _ => b.text(8),
    }
}

fn player_spec<G: Game>(b: &mut Bytes) -> String {
    let mut s = String::from("mcts(");
    let n = b.u8() % 6;
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        let pick = b.u8() as usize;
        if pick % 8 == 7 && !G::EVALS.is_empty() {
            s.push_str(G::EVALS[pick / 8 % G::EVALS.len()].0);
        } else {
            let k = pick % (spec::MCTS_LABELS.len() + EXTRA.len());
            match spec::MCTS_LABELS.get(k) {
                Some(label) => {
                    s.push_str(label.name);
                    if label.number != spec::Number::None {
                        s.push_str(&number(b));
                    }
                }
                None => s.push_str(EXTRA[k - spec::MCTS_LABELS.len()]),
            }
        }
    }
    s.push(')');
    s
}

fn check<G: Checked>(b: &mut Bytes) {
    let start: G = start_position(b);
    let plies = b.u8() as usize;
    let mut g = walk(start, b, plies);
    let text = player_spec::<G>(b);
    let pool = b.u8() as usize % 201;
    let sims = b.u8() as u64;
    let node_limit = match b.u8() {
        0..=199 => None,
        n => Some((n - 200) as u64 * 4),
    };
    let budget = Budget {
        iterations: Some(sims),
        nodes: node_limit,
        time_us: None,
    };
    let over = g.outcome().is_some();
    // Many playouts an iteration (`playouts<N>` takes any N ≥ 1) only make a run slow.
    if let Some(cfg) = spec::parse_mcts::<G>(&text)
        .ok()
        .filter(|c| c.bbq.playouts <= 8)
    {
        let mut nodes = vec![Node::EMPTY; pool];
        let mut mcts = Mcts::new(&mut nodes, cfg);
        let before = g.clone();
        let r = mcts.search(&mut g, budget, &mut NoClock);
        assert_eq!(g, before, "{text}: search changed the position");
        assert!(r.nodes_used as usize <= pool);
        match r.best {
            Some(m) => assert!(g.is_legal(m), "{text}: illegal {m:?} in {g:?}"),
            None => assert!(over, "{text}: no move in {g:?}"),
        }
        assert!(r.value.is_finite() || r.value.is_nan(), "{text}");
        let mut pv = heapless::Vec::<G::Move, 16>::new();
        mcts.principal_variation(&mut pv);
        let _ = mcts.root_children().count();
        // Play a fuzz-chosen move, tell the searcher, search again.
        let moves = legal_moves(&g);
        if !moves.is_empty() {
            let mv = moves[b.u8() as usize % moves.len()];
            g.make(mv);
            mcts.advance(mv);
            let over = g.outcome().is_some();
            let r = mcts.search(&mut g, budget, &mut NoClock);
            match r.best {
                Some(m) => assert!(g.is_legal(m), "{text}: illegal {m:?} after reuse"),
                None => assert!(over, "{text}: no move after reuse in {g:?}"),
            }
        }
    }
    // αβ with a tiny budget and table.
    let max_depth = b.u8() as u32 % 70;
    let cfg = AlphaBetaConfig::<G> {
        max_depth,
        ..AlphaBetaConfig::default()
    };
    // Validation, not the search, refuses depths outside 1..=64.
    let Ok(cfg) = cfg.validate() else {
        assert!(
            max_depth == 0 || max_depth > 64,
            "depth {max_depth} refused"
        );
        return;
    };
    let mut entries = vec![TtEntry::EMPTY; b.u8() as usize % 64];
    let mut tt = TranspositionTable::new(&mut entries);
    let before = g.clone();
    let r = alphabeta::search(
        &mut g,
        &cfg,
        Budget::iterations(b.u16() as u64 % 4000),
        Some(&mut tt),
        &mut NoClock,
    );
    assert_eq!(g, before, "αβ changed the position");
    match r.best_move {
        Some(m) => assert!(g.is_legal(m), "αβ: illegal {m:?} in {g:?}"),
        None => assert!(g.outcome().is_some(), "αβ: no move in {g:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    with_game!(b.u8(), G => check::<G>(&mut b));
});
