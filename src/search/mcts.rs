//! MCTS with implicit minimax backups (Lanctot et al., Algorithm 1), MCTS-Solver, node priors,
//! progressive bias, max-backprop and the paper's ablations, over a caller-provided node pool.
//!
//! Conventions: every node stores `n`, `r` and `v` from the point of view of the player who
//! moved into it (negamax). Where the same player moves again (Kalah), no sign flips: signs come
//! from comparing movers, never from depth parity. Rewards travel up the path as the first
//! player's reward and are turned into each node's mover's view on update.

use super::config::{Expansion, MctsConfig, Valid, ValueMode};
use super::math::{inv_sqrt, sqrt_ln};
use super::node::{Node, NodeId, Proven, flag};
use super::pool::Pool;
use super::{Budget, Clock, StopReason, playout};
use crate::SearchRng;
use crate::game::{Game, MoveBuffer, Player};
use crate::rng::{below, seeded};

/// The deepest path a simulation follows in the tree; deeper nodes are treated as leaves.
pub const MAX_TREE_DEPTH: usize = 128;

/// How often (in simulations) the clock is read.
const CLOCK_INTERVAL: u64 = 64;

/// What a search returns. Per-child statistics and the principal variation are read from the
/// [`Mcts`] afterwards ([`Mcts::root_children`], [`Mcts::principal_variation`]), so the result
/// stays small on microcontrollers.
#[derive(Debug, PartialEq)]
pub struct SearchResult<G: Game> {
    /// The chosen move: a proven win first, otherwise the most visited child. `None` only if
    /// the root position is finished.
    pub best: Option<G::Move>,
    /// The value of the root for the side to move, in `[-1, 1]`: the proven value if the root
    /// is proven, else the chosen child's mean reward.
    pub value: f32,
    /// The solver's value of the root for the side to move.
    pub proven: Proven,
    /// Simulations run by this search.
    pub simulations: u64,
    /// Nodes in use in the pool when the search stopped.
    pub nodes_used: u32,
    /// Whether the pool ran out of room during this search.
    pub pool_full: bool,
    /// Why the search stopped.
    pub stop: StopReason,
    /// Microseconds spent, by the host clock (`0` with [`super::NoClock`]).
    pub elapsed_us: u64,
}

// Manual impls: a derive would demand `G: Copy`, but only `G::Move` is stored.
impl<G: Game> Clone for SearchResult<G> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G: Game> Copy for SearchResult<G> {}

/// Statistics of one root child, for display and analysis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChildStats<M> {
    /// The move.
    pub mv: M,
    /// Visits, including node-prior virtual visits.
    pub visits: u32,
    /// Mean reward for the side to move at the root.
    pub mean: f32,
    /// Implicit minimax value (or static evaluation) for the side to move at the root.
    pub value: f32,
    /// Solver value for the side to move at the root.
    pub proven: Proven,
}

/// Everything a searcher keeps between calls except the node memory itself: lets a host
/// that cannot hold a borrow (a C ABI handle, a struct that owns its pool) put the searcher
/// away with [`Mcts::suspend`] and take it up again with [`Mcts::resume`] over the same memory.
pub struct MctsState<G: Game> {
    config: MctsConfig<G>,
    rng: SearchRng,
    root_state: Option<G>,
    len: u32,
}

impl<G: Game> Clone for MctsState<G> {
    fn clone(&self) -> Self {
        MctsState {
            config: self.config,
            rng: self.rng.clone(),
            root_state: self.root_state.clone(),
            len: self.len,
        }
    }
}

impl<G: Game> MctsState<G> {
    /// A fresh state: no tree, generator seeded from `config.seed`.
    pub fn new(config: Valid<MctsConfig<G>>) -> Self {
        let config = config.into_inner();
        MctsState {
            rng: seeded(config.seed),
            config,
            root_state: None,
            len: 0,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MctsConfig<G> {
        &self.config
    }

    /// The configuration, validated (it was when the state was made).
    pub fn valid_config(&self) -> Valid<MctsConfig<G>> {
        Valid::checked(self.config)
    }

    /// Takes the searcher up over `nodes` (the memory it was last suspended from), runs `f`
    /// and puts it away again: [`Mcts::resume`], `f`, [`Mcts::suspend`] without moving the
    /// state out.
    pub fn run<R>(&mut self, nodes: &mut [Node], f: impl FnOnce(&mut Mcts<'_, G>) -> R) -> R {
        let mut pool = Pool::new(nodes);
        let mut root_state = self.root_state.take();
        if !pool.restore_len(self.len) {
            root_state = None;
        }
        let mut m = Mcts {
            pool,
            config: self.config,
            rng: self.rng.clone(),
            root_state,
        };
        let r = f(&mut m);
        self.len = m.pool.len();
        self.config = m.config;
        self.rng = m.rng;
        self.root_state = m.root_state;
        r
    }
}

/// One step of a simulation's path: the node entered, the move that entered it, its undo.
type PathStep<G> = (NodeId, <G as Game>::Move, <G as Game>::Undo);

/// An MCTS searcher over a node pool in caller memory.
///
/// ```
/// use imcts::games::breakthrough::Breakthrough;
/// use imcts::search::{Budget, NoClock, mcts::Mcts, node::Node, config::MctsConfig};
/// use imcts::Game;
///
/// let mut nodes = [Node::EMPTY; 4096];
/// let config = MctsConfig::<Breakthrough>::default().validate().unwrap();
/// let mut mcts = Mcts::new(&mut nodes, config);
/// let mut game = Breakthrough::new();
/// let result = mcts.search(&mut game, Budget::iterations(1000), &mut NoClock);
/// assert!(game.is_legal(result.best.unwrap()));
/// ```
pub struct Mcts<'a, G: Game> {
    pool: Pool<'a>,
    config: MctsConfig<G>,
    rng: SearchRng,
    /// The position the tree in the pool belongs to, if any.
    root_state: Option<G>,
}

impl<'a, G: Game> Mcts<'a, G> {
    /// A searcher using `nodes` as its tree memory. At least `1 + G::MAX_MOVES` nodes are needed
    /// to build a tree; with fewer, searches fall back to the best one-ply evaluation.
    pub fn new(nodes: &'a mut [Node], config: Valid<MctsConfig<G>>) -> Self {
        let config = config.into_inner();
        Mcts {
            pool: Pool::new(nodes),
            rng: seeded(config.seed),
            config,
            root_state: None,
        }
    }

    /// Puts the searcher away, keeping its tree (in the node memory), generator and root.
    pub fn suspend(self) -> MctsState<G> {
        MctsState {
            len: self.pool.len(),
            config: self.config,
            rng: self.rng,
            root_state: self.root_state,
        }
    }

    /// Takes a suspended searcher up again over `nodes`, which must be the memory it was
    /// suspended from, unchanged. If `nodes` is shorter than the tree, the tree is dropped
    /// (memory safety never depends on this, but a foreign buffer gives a meaningless tree).
    pub fn resume(nodes: &'a mut [Node], state: MctsState<G>) -> Self {
        let mut pool = Pool::new(nodes);
        let mut root_state = state.root_state;
        if !pool.restore_len(state.len) {
            root_state = None;
        }
        Mcts {
            pool,
            config: state.config,
            rng: state.rng,
            root_state,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MctsConfig<G> {
        &self.config
    }

    /// Replaces the configuration and forgets the tree (its statistics depend on it). The
    /// random generator is reseeded from the new configuration's seed.
    pub fn set_config(&mut self, config: Valid<MctsConfig<G>>) {
        let config = config.into_inner();
        self.config = config;
        self.rng = seeded(config.seed);
        self.clear();
    }

    /// Forgets the tree.
    pub fn clear(&mut self) {
        self.pool.clear();
        self.root_state = None;
    }

    /// The node pool, for inspection (tests, analysis tools).
    pub fn pool(&self) -> &Pool<'a> {
        &self.pool
    }

    /// Nodes in use.
    pub fn nodes_used(&self) -> u32 {
        self.pool.len()
    }

    /// Node capacity of the pool.
    pub fn capacity(&self) -> u32 {
        self.pool.capacity()
    }

    /// Tells the searcher that `mv` was played from the position of the current tree. With tree
    /// reuse on, the subtree under `mv` becomes the tree (compacted to the front of the pool);
    /// otherwise, or if `mv` is not in the tree, the tree is forgotten.
    pub fn advance(&mut self, mv: G::Move) {
        let Some(state) = self.root_state.as_mut() else {
            return;
        };
        if !self.config.reuse_tree || self.pool.is_empty() || !state.is_legal(mv) {
            self.clear();
            return;
        }
        let code = G::encode_move(mv);
        let root = self.pool.get(NodeId::ROOT);
        let found = if root.is(flag::EXPANDED) {
            (0..root.children as u32)
                .map(|i| NodeId(root.first_child + i))
                .find(|&c| {
                    let n = self.pool.get(c);
                    n.mv == code && (n.is(flag::VISITED) || n.is(flag::TERMINAL))
                })
        } else {
            None
        };
        match found {
            Some(child) => {
                self.pool.compact_to(child);
                state.make(mv);
            }
            None => self.clear(),
        }
    }

    /// Statistics of the root's children from the last search, from the root mover's view.
    pub fn root_children(&self) -> impl Iterator<Item = ChildStats<G::Move>> + '_ {
        let children: &[Node] = if self.pool.is_empty() {
            &[]
        } else {
            self.pool.children(NodeId::ROOT)
        };
        children.iter().filter_map(|c| {
            Some(ChildStats {
                mv: G::decode_move(c.mv)?,
                visits: c.visits,
                mean: c.mean(),
                value: c.value,
                proven: c.proven,
            })
        })
    }

    /// Writes the principal variation (the chosen move, then the most visited replies) into
    /// `out`, up to its capacity.
    pub fn principal_variation<const N: usize>(&self, out: &mut heapless::Vec<G::Move, N>) {
        out.clear();
        if self.pool.is_empty() {
            return;
        }
        let mut node = NodeId::ROOT;
        while let Some(child) = self.best_child(node) {
            let Some(mv) = G::decode_move(self.pool.get(child).mv) else {
                break;
            };
            if out.push(mv).is_err() {
                break;
            }
            node = child;
        }
    }

    /// Searches `game` within `budget` and returns the chosen move. `game` is left as it was.
    pub fn search<C: Clock>(
        &mut self,
        game: &mut G,
        budget: Budget,
        clock: &mut C,
    ) -> SearchResult<G> {
        let start = clock.now_us();
        let mut result = SearchResult {
            best: None,
            value: 0.0,
            proven: Proven::Unknown,
            simulations: 0,
            nodes_used: 0,
            pool_full: false,
            stop: StopReason::GameOver,
            elapsed_us: 0,
        };
        if let Some(o) = game.outcome() {
            result.value = o.reward(game.side_to_move());
            result.nodes_used = self.pool.len();
            return result;
        }
        let mut moves = G::MoveList::default();
        game.legal_moves(&mut moves);
        if moves.moves().len() == 1 {
            result.best = Some(moves.moves()[0]);
            result.stop = StopReason::SingleMove;
            result.nodes_used = self.pool.len();
            return result;
        }
        let reuse = self.config.reuse_tree
            && !self.pool.is_empty()
            && self.root_state.as_ref() == Some(game);
        if !reuse {
            self.pool.clear();
            self.root_state = Some(game.clone());
            match self.pool.alloc(1) {
                Some(root) => {
                    let n = self.pool.get_mut(root);
                    // The root's "mover" is whoever is not to move: only signs depend on it.
                    if game.side_to_move() == Player::First {
                        n.flags |= flag::MOVER_SECOND;
                    }
                }
                None => return self.fallback(game, moves.moves(), result),
            }
        }
        if !self.pool.get(NodeId::ROOT).is(flag::EXPANDED) && !self.expand(NodeId::ROOT, game) {
            result.pool_full = true;
            return self.fallback(game, moves.moves(), result);
        }

        let max_sims = match (budget.iterations, budget.nodes, budget.time_us) {
            (None, None, None) => Some(1),
            (s, _, _) => s,
        };
        let bbq = self.config.bbq.is_active();
        let stop = loop {
            if self.pool.get(NodeId::ROOT).proven != Proven::Unknown && self.config.solver {
                break StopReason::Proven;
            }
            if max_sims.is_some_and(|m| result.simulations >= m) {
                break StopReason::Iterations;
            }
            if budget.nodes.is_some_and(|m| self.pool.len() as u64 >= m) {
                break StopReason::Nodes;
            }
            if let Some(t) = budget.time_us {
                if result.simulations.is_multiple_of(CLOCK_INTERVAL)
                    && clock.now_us().saturating_sub(start) >= t
                {
                    break StopReason::Time;
                }
            }
            let full = if bbq {
                self.simulate_bbq(game)
            } else {
                self.simulate::<false>(game)
            };
            result.simulations += 1;
            if full {
                result.pool_full = true;
                if self.config.stop_when_full {
                    break StopReason::PoolFull;
                }
            }
        };
        result.stop = stop;
        result.elapsed_us = clock.now_us().saturating_sub(start);
        result.nodes_used = self.pool.len();
        let root = *self.pool.get(NodeId::ROOT);
        // Root values are stored for the mover into the root; flip to the side to move.
        result.proven = root.proven.flipped();
        if let Some(best) = self.best_child(NodeId::ROOT) {
            let b = self.pool.get(best);
            result.best = G::decode_move(b.mv);
            result.value = match result.proven.reward() {
                Some(r) => r,
                None => b.mean(),
            };
        }
        if result.best.is_none() {
            // No child was visited: the budget stopped the search before its first simulation
            // (e.g. a node budget the root's expansion already spent). Play the one-ply
            // evaluation, but report the real stop reason rather than a full pool.
            let pool_full = result.pool_full;
            let mut r = self.fallback(game, moves.moves(), result);
            r.stop = stop;
            r.pool_full = pool_full;
            return r;
        }
        result
    }

    /// Without room for a tree: the move whose resulting position evaluates best.
    fn fallback(
        &mut self,
        game: &mut G,
        moves: &[G::Move],
        mut result: SearchResult<G>,
    ) -> SearchResult<G> {
        let me = game.side_to_move();
        let mut best_v = f32::NEG_INFINITY;
        for &mv in moves {
            let u = game.make(mv);
            let v = game.evaluate(self.config.eval, me);
            game.undo(mv, u);
            if v > best_v {
                best_v = v;
                result.best = Some(mv);
                result.value = v;
            }
        }
        result.pool_full = true;
        result.stop = StopReason::PoolFull;
        result.nodes_used = self.pool.len();
        result
    }

    /// The child to play at `node`: a proven win, else the most visited child that is not a
    /// proven loss (ties: higher mean), else the most visited child.
    fn best_child(&self, node: NodeId) -> Option<NodeId> {
        let n = self.pool.get(node);
        if !n.is(flag::EXPANDED) || n.added == 0 {
            return None;
        }
        let first = n.first_child;
        let mut draw: Option<NodeId> = None;
        let mut best: Option<(NodeId, (u8, u32, f32))> = None;
        for (i, c) in self.pool.children(node).iter().enumerate() {
            let rank = match c.proven {
                Proven::Win => 3,
                Proven::Loss => 0,
                Proven::Draw => {
                    draw.get_or_insert(NodeId(first + i as u32));
                    1
                }
                Proven::Unknown => 1,
            };
            if c.visits == 0 && rank < 3 && !c.is(flag::TERMINAL) {
                continue;
            }
            let key = (rank, c.visits, c.mean());
            let better = match best {
                None => true,
                Some((_, b)) => key.0 > b.0 || (key.0 == b.0 && (key.1, key.2) > (b.1, b.2)),
            };
            if better {
                best = Some((NodeId(first + i as u32), key));
            }
        }
        // Proven draws stop collecting visits (selection skips them), so a sure draw beats the
        // most visited unproven move unless that move looks better than a draw.
        match (best, draw) {
            (Some((id, (1, _, mean))), Some(d)) if self.pool.get(id).proven == Proven::Unknown => {
                Some(if mean > 0.0 { id } else { d })
            }
            (b, d) => b.map(|(id, _)| id).or(d),
        }
    }

    /// A simulation with the BBQ options, kept out of line so the plain loop is compiled (and
    /// inlined) as it was before they existed.
    #[inline(never)]
    fn simulate_bbq(&mut self, game: &mut G) -> bool {
        self.simulate::<true>(game)
    }

    /// One simulation: select down the tree, expand, play out, back up. Returns whether the
    /// pool was too full to expand. `BBQ` turns on the options of [`super::bbq`]; without it
    /// this is the plain loop, compiled separately so the options cost it nothing.
    fn simulate<const BBQ: bool>(&mut self, game: &mut G) -> bool {
        let mut path: heapless::Vec<PathStep<G>, MAX_TREE_DEPTH> = heapless::Vec::new();
        let mut node = NodeId::ROOT;
        let mut full = false;
        let reward_first: f32 = loop {
            let n = *self.pool.get(node);
            if node != NodeId::ROOT {
                if let Some(r) = n.proven.reward() {
                    let r = for_first(r, n.mover());
                    if BBQ {
                        break self.config.bbq.shape::<G>(r, path.len() as u32, None);
                    }
                    break r;
                }
                if n.is(flag::TERMINAL) {
                    let r = game.outcome().map_or(0.0, |o| o.reward(Player::First));
                    if BBQ {
                        let margin = Some(game.score_margin(Player::First));
                        break self.config.bbq.shape::<G>(r, path.len() as u32, margin);
                    }
                    break r;
                }
            }
            if !n.is(flag::EXPANDED)
                && (node == NodeId::ROOT || n.is(flag::VISITED))
                && path.len() < MAX_TREE_DEPTH
                && !self.expand(node, game)
            {
                full = true;
            }
            let n = *self.pool.get(node);
            if n.is(flag::EXPANDED) && path.len() < MAX_TREE_DEPTH {
                let child = if self.config.expansion == Expansion::OneChild && n.added < n.children
                {
                    self.add_child(node, game)
                } else {
                    self.select(node, game)
                };
                let Some(mv) = G::decode_move(self.pool.get(child).mv) else {
                    break 0.0;
                };
                let u = game.make(mv);
                // The path is bounded by MAX_TREE_DEPTH, checked above.
                let _ = path.push((child, mv, u));
                node = child;
                continue;
            }
            if BBQ {
                break self.bbq_playouts(game, path.len() as u32);
            }
            let mut scratch = game.clone();
            break playout::run(&mut scratch, &self.config, &mut self.rng).0;
        };
        if BBQ {
            // Finished and proven leaves count their result once per playout.
            let k = self.config.bbq.playouts;
            self.backpropagate_bbq(&path, reward_first, k);
        } else {
            self.backpropagate(&path, reward_first);
        }
        while let Some((_, mv, u)) = path.pop() {
            game.undo(mv, u);
        }
        full
    }

    /// The mean first-player reward of [`BbqConfig::playouts`](super::bbq::BbqConfig) playouts
    /// from `game`, `depth` plies below the root, each shaped by the BBQ rewards.
    fn bbq_playouts(&mut self, game: &G, depth: u32) -> f32 {
        let bbq = self.config.bbq;
        let room = match bbq.depth_cap() {
            Some(d) => d.saturating_sub(depth),
            None => u32::MAX,
        };
        let k = bbq.playouts;
        let mut sum = 0.0;
        for _ in 0..k {
            let mut scratch = game.clone();
            let (r, plies) = playout::run_bbq(&mut scratch, &self.config, &mut self.rng, room);
            let margin = scratch
                .is_terminal()
                .then(|| scratch.score_margin(Player::First));
            sum += bbq.shape::<G>(r, depth + plies, margin);
        }
        sum / k as f32
    }

    /// Allocates `node`'s children (the position is `game`). With all-children expansion each
    /// child is evaluated and `v` gets its one-ply backup. Returns `false` if the pool is full.
    fn expand(&mut self, node: NodeId, game: &mut G) -> bool {
        let mut moves = G::MoveList::default();
        match self.config.bbq.dist {
            None => game.legal_moves(&mut moves),
            Some(k) => game.candidate_moves(k, &mut moves),
        }
        let moves = moves.moves();
        let count = moves.len() as u32;
        if count == 0 {
            // Finished games are flagged terminal when created; nothing to expand.
            self.pool.get_mut(node).flags |= flag::TERMINAL;
            return true;
        }
        let Some(first) = self.pool.alloc(count) else {
            return false;
        };
        let mover_flag = if game.side_to_move() == Player::Second {
            flag::MOVER_SECOND
        } else {
            0
        };
        for (i, &mv) in moves.iter().enumerate() {
            let c = self.pool.get_mut(NodeId(first.0 + i as u32));
            c.mv = G::encode_move(mv);
            c.flags = mover_flag;
        }
        let n = self.pool.get_mut(node);
        n.first_child = first.0;
        n.children = count as u16;
        n.flags |= flag::EXPANDED;
        if self.config.expansion == Expansion::AllChildren {
            for i in 0..count {
                self.init_child(NodeId(first.0 + i), game);
            }
            self.pool.get_mut(node).added = count as u16;
            self.refresh(node);
        }
        true
    }

    /// Enters one more child of `node` (one-child-per-simulation expansion), chosen at random
    /// among those not yet added, and returns it.
    fn add_child(&mut self, node: NodeId, game: &mut G) -> NodeId {
        let n = *self.pool.get(node);
        let slot = n.first_child + n.added as u32;
        let remaining = (n.children - n.added) as u32;
        let pick = slot + below(&mut self.rng, remaining);
        if pick != slot {
            let a = self.pool.get(NodeId(slot)).mv;
            let b = self.pool.get(NodeId(pick)).mv;
            self.pool.get_mut(NodeId(slot)).mv = b;
            self.pool.get_mut(NodeId(pick)).mv = a;
        }
        self.init_child(NodeId(slot), game);
        self.pool.get_mut(node).added += 1;
        self.refresh(node);
        NodeId(slot)
    }

    /// Fills in a new child: node prior, terminal status (and proof), static evaluation.
    fn init_child(&mut self, id: NodeId, game: &mut G) {
        let code = self.pool.get(id).mv;
        let Some(mv) = G::decode_move(code) else {
            return;
        };
        let me = game.side_to_move();
        let prior = match self.config.node_priors {
            Some(virtual_visits) if G::HAS_NODE_PRIORS => game
                .node_prior(mv)
                .map(|rate| (virtual_visits, rate.clamp(0.0, 1.0))),
            _ => None,
        };
        let u = game.make(mv);
        let outcome = game.outcome();
        let value = match outcome {
            Some(o) => o.reward(me),
            None if self.config.needs_child_eval() => game.evaluate(self.config.eval, me),
            None => 0.0,
        };
        game.undo(mv, u);
        let solver = self.config.solver;
        let c = self.pool.get_mut(id);
        c.value = value;
        if let Some(o) = outcome {
            c.flags |= flag::TERMINAL;
            if solver {
                c.proven = match o.reward(me) {
                    r if r > 0.0 => Proven::Win,
                    r if r < 0.0 => Proven::Loss,
                    _ => Proven::Draw,
                };
            }
        }
        // As in the paper's code, finished positions get no prior: the solver values them.
        if let (Some((nv, rate)), None) = (prior, outcome) {
            let wins = libm::floorf(rate * nv as f32) as u32;
            c.visits = nv;
            c.reward = wins as f32 - (nv - wins) as f32;
        }
    }

    /// Recomputes `node`'s implicit value and proof from its children (one-ply backup).
    fn refresh(&mut self, node: NodeId) {
        let n = *self.pool.get(node);
        let children = self.pool.children(node);
        let Some(first) = children.first() else {
            return;
        };
        // Children are moved into by the side to move at `node`; `node` by its own mover.
        let same = first.mover() == n.mover();
        let sign = if same { 1.0 } else { -1.0 };
        let mut proven = Proven::Unknown;
        let mut bound = 0u8;
        if self.config.solver {
            let mut all_proven = n.added == n.children;
            let mut best = Proven::Loss;
            for c in children {
                match c.proven {
                    Proven::Win => {
                        best = Proven::Win;
                        all_proven = true;
                        break;
                    }
                    Proven::Unknown => all_proven = false,
                    Proven::Draw => best = Proven::Draw,
                    Proven::Loss => {}
                }
            }
            if all_proven {
                proven = if same { best } else { best.flipped() };
            } else if best == Proven::Draw {
                // The side to move here can at least draw (score-bounded MCTS, draws only).
                bound = if same {
                    flag::AT_LEAST_DRAW
                } else {
                    flag::AT_MOST_DRAW
                };
            }
        }
        let value = match proven.reward() {
            Some(r) => Some(r),
            None if self.config.backs_up_values() => {
                let max = children
                    .iter()
                    .map(|c| c.value)
                    .fold(f32::NEG_INFINITY, f32::max);
                Some(sign * max)
            }
            None => None,
        };
        let n = self.pool.get_mut(node);
        n.proven = proven;
        n.flags = (n.flags & !(flag::AT_LEAST_DRAW | flag::AT_MOST_DRAW)) | bound;
        if let Some(v) = value {
            n.value = v;
        }
    }

    /// The parent's count `n_s` in Eq. 1 at `node`. With node priors the paper's code takes
    /// the sum of the children's visits, prior visits included, so that `ln n_s` and the
    /// children's counts are on the same scale; otherwise it is the node's own visits.
    pub(crate) fn uct_parent_visits(&self, node: NodeId) -> u32 {
        if self.config.node_priors.is_some() && G::HAS_NODE_PRIORS {
            self.pool.children(node).iter().map(|c| c.visits).sum()
        } else {
            self.pool.get(node).visits
        }
    }

    /// UCT selection among `node`'s children (Eq. 1 with Eq. 2's `Q`), skipping proven losses,
    /// taking a proven win at once, unvisited children first, random tie-breaks.
    fn select(&mut self, node: NodeId, game: &G) -> NodeId {
        // Plain UCT (no heuristic mixing, no progressive bias) gets its own copy of the loop
        // without those branches: about 6% fewer instructions per simulation under callgrind.
        if self.config.value_mode == ValueMode::Mean && self.config.progressive_bias.is_none() {
            self.select_with::<true>(node, game)
        } else {
            self.select_with::<false>(node, game)
        }
    }

    #[inline(always)]
    fn select_with<const PLAIN: bool>(&mut self, node: NodeId, game: &G) -> NodeId {
        let n = *self.pool.get(node);
        let explore = self.config.uct_c * sqrt_ln(self.uct_parent_visits(node));
        let cfg = &self.config;
        let alpha = cfg.alpha;
        let mut best = f32::NEG_INFINITY;
        let mut best_i = u32::MAX;
        let mut ties = 0u32;
        let mut draw_child = None;
        for (i, c) in self.pool.children(node).iter().enumerate() {
            let score = match c.proven {
                Proven::Win => return NodeId(n.first_child + i as u32),
                Proven::Loss => continue,
                // Score-bounded MCTS for draws: once a draw is proven here it cannot improve the
                // node, so only unproven siblings are explored (and can prove the node).
                Proven::Draw => {
                    draw_child = Some(i as u32);
                    continue;
                }
                _ if c.visits == 0 => f32::INFINITY,
                _ => {
                    let mut mean = c.mean();
                    // A child's estimate stays within its proven bounds.
                    if c.flags & (flag::AT_MOST_DRAW | flag::AT_LEAST_DRAW) != 0 {
                        mean = if c.flags & flag::AT_MOST_DRAW != 0 {
                            mean.min(0.0)
                        } else {
                            mean.max(0.0)
                        };
                    }
                    let q = if PLAIN {
                        mean
                    } else {
                        match cfg.value_mode {
                            ValueMode::Mean => mean,
                            ValueMode::Implicit | ValueMode::ConstantBias => {
                                (1.0 - alpha) * mean + alpha * c.value
                            }
                            ValueMode::ProgressiveImplicit => {
                                (1.0 - alpha) * mean + alpha * c.value / (c.visits as f32 + 1.0)
                            }
                        }
                    };
                    let mut s = q + explore * inv_sqrt(c.visits);
                    if let (false, Some(w)) = (PLAIN, cfg.progressive_bias) {
                        let h = G::decode_move(c.mv)
                            .and_then(|mv| game.move_bias(mv))
                            .unwrap_or(c.value);
                        s += w * h / (c.visits as f32 + 1.0);
                    }
                    s
                }
            };
            if score > best {
                best = score;
                best_i = i as u32;
                ties = 1;
            } else if score == best {
                ties += 1;
                if below(&mut self.rng, ties) == 0 {
                    best_i = i as u32;
                }
            }
        }
        if best_i == u32::MAX {
            // Every child is proven: a draw if there is one, else (all losses) any child.
            best_i = draw_child.unwrap_or(0);
        }
        NodeId(n.first_child + best_i)
    }

    /// Updates the path's nodes with the playout reward (first player's view), bottom up:
    /// visits and rewards, then the parent's implicit value and proof.
    fn backpropagate(&mut self, path: &[PathStep<G>], mut reward_first: f32) {
        for i in (0..path.len()).rev() {
            let (id, _, _) = path[i];
            let parent = if i == 0 { NodeId::ROOT } else { path[i - 1].0 };
            let c = self.pool.get_mut(id);
            c.visits += 1;
            c.reward += for_first(reward_first, c.mover());
            c.flags |= flag::VISITED;
            if let Some(t) = self.config.max_backprop {
                if c.visits >= t && c.is(flag::EXPANDED) {
                    if let Some(m) = self.best_mean(id) {
                        reward_first = m;
                    }
                }
            }
            // A parent's proof can only change when a child is proven; its implicit value
            // whenever a child's value may have changed.
            if self.config.backs_up_values() || self.pool.get(id).proven != Proven::Unknown {
                self.refresh(parent);
            }
        }
        let root = self.pool.get_mut(NodeId::ROOT);
        root.visits += 1;
        root.flags |= flag::VISITED;
    }

    /// [`backpropagate`](Self::backpropagate) for the BBQ options: `k` visits per node with
    /// mean reward `reward_first`; with best win, an expanded node's mean becomes its best
    /// visited child's value ([`best_value`](Self::best_value)).
    fn backpropagate_bbq(&mut self, path: &[PathStep<G>], mut reward_first: f32, k: u32) {
        let best = self.config.bbq.best;
        for i in (0..path.len()).rev() {
            let (id, _, _) = path[i];
            let parent = if i == 0 { NodeId::ROOT } else { path[i - 1].0 };
            let backed = if best && self.pool.get(id).is(flag::EXPANDED) {
                self.best_value(id)
            } else {
                None
            };
            let c = self.pool.get_mut(id);
            c.visits += k;
            c.flags |= flag::VISITED;
            match backed {
                Some(v) => c.reward = v * c.visits as f32,
                None => c.reward += k as f32 * for_first(reward_first, c.mover()),
            }
            if let Some(t) = self.config.max_backprop {
                if c.visits >= t && c.is(flag::EXPANDED) {
                    if let Some(m) = self.best_mean(id) {
                        reward_first = m;
                    }
                }
            }
            if self.config.backs_up_values() || self.pool.get(id).proven != Proven::Unknown {
                self.refresh(parent);
            }
        }
        let root = self.pool.get_mut(NodeId::ROOT);
        root.visits += k;
        root.flags |= flag::VISITED;
    }

    /// Best win: the value of `node` for its mover, the best of its visited children's values
    /// for the player to move there (a finished child's exact result, a proven child's proven
    /// reward, otherwise its mean, which is its own best value). `None` if no child is visited.
    fn best_value(&self, node: NodeId) -> Option<f32> {
        let n = self.pool.get(node);
        let mut best = f32::NEG_INFINITY;
        let mut same = true;
        let mut any = false;
        for c in self.pool.children(node) {
            if c.visits == 0 {
                continue;
            }
            let v = if c.is(flag::TERMINAL) {
                c.mean()
            } else {
                c.proven.reward().unwrap_or_else(|| c.mean())
            };
            if v > best {
                best = v;
            }
            same = c.mover() == n.mover();
            any = true;
        }
        any.then_some(if same { best } else { -best })
    }

    /// Max-backprop: the best visited child's mean at `node`, as the first player's reward.
    fn best_mean(&self, node: NodeId) -> Option<f32> {
        let mut best: Option<(f32, Player)> = None;
        for c in self.pool.children(node) {
            if c.visits == 0 {
                continue;
            }
            let m = c.proven.reward().unwrap_or_else(|| c.mean());
            if best.is_none_or(|(b, _)| m > b) {
                best = Some((m, c.mover()));
            }
        }
        best.map(|(m, mover)| for_first(m, mover))
    }
}

/// Converts a reward for `player` into the first player's reward, and back (it is symmetric).
#[inline(always)]
fn for_first(reward: f32, player: Player) -> f32 {
    if player == Player::First {
        reward
    } else {
        -reward
    }
}
