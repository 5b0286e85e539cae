//! Players as the command line runs them: an MCTS searcher or an αβ searcher, each with memory
//! it owns, behind one interface that matches, tournaments and the engine protocol share.

use imcts::Game;
use imcts::search::alphabeta::{self, AlphaBetaConfig, TranspositionTable, TtEntry};
use imcts::search::config::Valid;
use imcts::search::mcts::{Mcts, MctsState};
use imcts::search::node::{Node, Proven};
use imcts::search::spec::{self, PlayerSpec};
use imcts::search::{Budget, Clock, StopReason};

/// Default node capacity when the budget does not bound the tree: 2 Mi nodes (48 MiB).
pub const DEFAULT_NODES: usize = 1 << 21;

/// What a player decided, with the statistics matches report.
#[derive(Clone, Debug)]
pub struct Thought<M> {
    /// The move (always legal for a non-finished position).
    pub mv: M,
    /// Value for the side to move in `[-1, 1]`.
    pub value: f32,
    /// Simulations (MCTS) or nodes (αβ) spent.
    pub work: u64,
    /// Tree nodes in use (MCTS) or completed depth (αβ).
    pub size: u64,
    /// Why the search stopped.
    pub stop: StopReason,
    /// Whether the result is a solver proof ("win", "loss", "draw") or a heuristic value ("").
    pub proven: &'static str,
}

/// A player with its own memory.
pub struct Agent<G: Game> {
    spec_text: String,
    kind: Kind<G>,
    nodes: Vec<Node>,
    tt: Vec<TtEntry>,
}

enum Kind<G: Game> {
    Mcts(Option<MctsState<G>>),
    AlphaBeta(Valid<AlphaBetaConfig<G>>),
}

fn proven_name(p: Proven) -> &'static str {
    match p {
        Proven::Unknown => "",
        Proven::Win => "win",
        Proven::Loss => "loss",
        Proven::Draw => "draw",
    }
}

/// Node capacity that fits a budget: every simulation adds at most one expanded node's
/// children, so `sims × MAX_MOVES` bounds the tree.
pub fn nodes_for<G: Game>(budget: &Budget) -> usize {
    let by_budget = budget.iterations.map(|s| {
        (s as usize)
            .saturating_mul(G::MAX_MOVES)
            .saturating_add(G::MAX_MOVES + 1)
    });
    let by_nodes = budget.nodes.map(|n| n as usize + G::MAX_MOVES + 1);
    [by_budget, by_nodes]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(DEFAULT_NODES)
        .min(DEFAULT_NODES)
}

impl<G: Game> Agent<G> {
    /// A player from a spec string, with memory sized for `budget` (or `pool` nodes if given).
    /// `seed` overrides the spec's seed.
    pub fn new(
        spec_text: &str,
        budget: &Budget,
        pool: Option<usize>,
        seed: Option<u64>,
    ) -> Result<Self, String> {
        let parsed = spec::parse::<G>(spec_text).map_err(|e| format!("bad player spec {e}"))?;
        Ok(match parsed {
            PlayerSpec::Mcts(cfg) => {
                let cfg = match seed {
                    Some(s) => cfg.with_seed(s),
                    None => cfg,
                };
                let n = pool.unwrap_or_else(|| nodes_for::<G>(budget)).max(1);
                Agent {
                    spec_text: spec_text.to_string(),
                    kind: Kind::Mcts(Some(MctsState::new(cfg))),
                    nodes: vec![Node::EMPTY; n],
                    tt: Vec::new(),
                }
            }
            PlayerSpec::AlphaBeta(cfg, tt) => Agent {
                spec_text: spec_text.to_string(),
                kind: Kind::AlphaBeta(cfg),
                nodes: Vec::new(),
                tt: vec![TtEntry::EMPTY; tt],
            },
        })
    }

    /// The spec this player was made from.
    pub fn spec(&self) -> &str {
        &self.spec_text
    }

    /// Chooses a move for `game` (not finished) within `budget`.
    pub fn think<C: Clock>(
        &mut self,
        game: &mut G,
        budget: Budget,
        clock: &mut C,
    ) -> Option<Thought<G::Move>> {
        match &mut self.kind {
            Kind::Mcts(state) => {
                let st = state.take().expect("state is always put back");
                let mut m = Mcts::resume(&mut self.nodes, st);
                let r = m.search(game, budget, clock);
                let size = r.nodes_used as u64;
                *state = Some(m.suspend());
                Some(Thought {
                    mv: r.best?,
                    value: r.value,
                    work: r.simulations,
                    size,
                    stop: r.stop,
                    proven: proven_name(r.proven),
                })
            }
            Kind::AlphaBeta(cfg) => {
                let mut tt = TranspositionTable::new(&mut self.tt);
                let r = alphabeta::search(game, cfg, budget, Some(&mut tt), clock);
                let proven = match alphabeta::proven_plies(r.value) {
                    Some(_) if r.value > 0.0 => "win",
                    Some(_) => "loss",
                    None => "",
                };
                Some(Thought {
                    mv: r.best_move?,
                    value: r.value,
                    work: r.nodes,
                    size: r.depth as u64,
                    stop: r.stop,
                    proven,
                })
            }
        }
    }

    /// Tells the player that `mv` was played (by either side): MCTS keeps the subtree when its
    /// spec asks for tree reuse.
    pub fn observe(&mut self, mv: G::Move) {
        if let Kind::Mcts(state) = &mut self.kind {
            let st = state.take().expect("state is always put back");
            let mut m = Mcts::resume(&mut self.nodes, st);
            m.advance(mv);
            *state = Some(m.suspend());
        }
    }

    /// Forgets any tree (a new game starts).
    pub fn reset(&mut self) {
        if let Kind::Mcts(state) = &mut self.kind {
            let st = state.take().expect("state is always put back");
            let mut m = Mcts::resume(&mut self.nodes, st);
            m.clear();
            *state = Some(m.suspend());
        }
    }
}
