//! MCTS with implicit minimax backups (Lanctot et al., Algorithm 1), MCTS-Solver, node priors,
//! progressive bias, max-backprop and the paper's ablations, over a caller-provided node pool.
//!
//! Conventions: every node stores `n`, `r` and `v` from the point of view of the player who
//! moved into it (negamax). Where the same player moves again (Kalah), no sign flips: signs come
//! from comparing movers, never from depth parity. Rewards travel up the path as the first
//! player's reward and are turned into each node's mover's view on update.

mod backup;
mod expand;
mod hooks;
mod select;
// The parallel search selects by the same code (absent where it is, as on thumbv6m).
#[cfg(all(
    target_has_atomic = "8",
    target_has_atomic = "16",
    target_has_atomic = "32"
))]
pub(crate) use {
    expand::{child_start, in_paper_code_order},
    select::{SelectChild, score, score_kind, uct_choice},
};
mod simulate;
#[cfg(all(test, not(feature = "compact-code")))]
pub(crate) use select::test_hooks as select_test_hooks;
#[cfg(test)]
pub(crate) use simulate::test_hooks as simulate_test_hooks;

use super::config::{MctsConfig, Valid};
use super::node::{Node, NodeId, Proven, flag};
use super::pool::Pool;
use super::{Budget, Clock, StopReason};
use crate::SearchRng;
use crate::game::{Game, MoveBuffer, Player};
use crate::rng::seeded;
use hooks::{Bbq, Plain};

/// The deepest path a simulation follows in the tree; deeper nodes are treated as leaves.
pub const MAX_TREE_DEPTH: usize = 128;

/// How often (in playouts) the clock is read: every this many simulations with one playout
/// each, more often with paper 003's `playouts<N>` ([`clock_mask`]).
pub(crate) const CLOCK_INTERVAL: u64 = 64;

/// The clock is read after the simulations whose count has no bit of this mask set: every
/// [`CLOCK_INTERVAL`] simulations of one playout, every `CLOCK_INTERVAL / N` (rounded down to a
/// power of two, at least 1) with `N` playouts an iteration, so that a time budget is kept as
/// closely (a mask, not a division, in the loop). Reading it every 64 iterations let
/// `mcts(playouts100000)` in Tic-Tac-Toe run 777 ms on `--ms 100`.
#[inline]
pub(crate) fn clock_mask(playouts: u32) -> u64 {
    let shift = u64::from(playouts.max(1))
        .next_power_of_two()
        .trailing_zeros();
    (CLOCK_INTERVAL >> shift.min(6)).max(1) - 1
}

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

    /// Looks at the tree in `nodes` without changing it (the root's children, the principal
    /// variation, the final move) in O(what `f` reads): unlike [`run`](Self::run), the tree's
    /// links are not all checked first, which costs a read of every node (some 66 ms after a
    /// 14.5M-node search). Safe over any memory: those walks follow links only through
    /// [`Pool::children_checked`], so a stale or foreign buffer gives wrong numbers, never a
    /// panic. A search needs [`run`](Self::run).
    pub fn inspect<R>(&self, nodes: &mut [Node], f: impl FnOnce(&Mcts<'_, G>) -> R) -> R {
        let mut pool = Pool::new(nodes);
        pool.assume_len(self.len);
        let m = Mcts {
            pool,
            config: self.config,
            rng: self.rng.clone(),
            root_state: None,
        };
        f(&m)
    }

    /// Forgets the tree without reading the memory (what [`Mcts::clear`] does to it).
    pub fn forget(&mut self) {
        self.len = 0;
        self.root_state = None;
    }
}

/// One step of a simulation's path: the node entered, the move that entered it, its undo, and
/// the node's value `v` when it was entered (what its parent's implicit value was last computed
/// from: the backup's incremental max, [`Mcts::refresh_after`]).
type PathStep<G> = (NodeId, <G as Game>::Move, <G as Game>::Undo, f32);

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
    pub(crate) pool: Pool<'a>,
    pub(crate) config: MctsConfig<G>,
    pub(crate) rng: SearchRng,
    /// The position the tree in the pool belongs to, if any.
    pub(crate) root_state: Option<G>,
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
            self.pool.children_checked(NodeId::ROOT)
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

    /// What every search does before its simulations, on the calling thread: finished and
    /// single-move positions answered at once, tree reuse or a fresh root, the root expanded.
    /// `Err` is the finished answer; `Ok` the result to fill in, with `moves` the root's moves.
    pub(crate) fn prepare_root(
        &mut self,
        game: &mut G,
        moves: &mut G::MoveList,
    ) -> Result<SearchResult<G>, SearchResult<G>> {
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
            return Err(result);
        }
        game.legal_moves(moves);
        if moves.moves().len() == 1 {
            result.best = Some(moves.moves()[0]);
            result.stop = StopReason::SingleMove;
            result.nodes_used = self.pool.len();
            return Err(result);
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
                None => return Err(self.fallback(game, moves.moves(), result)),
            }
        }
        if !self.pool.get(NodeId::ROOT).is(flag::EXPANDED) && !self.expand(NodeId::ROOT, game) {
            result.pool_full = true;
            return Err(self.fallback(game, moves.moves(), result));
        }
        Ok(result)
    }

    /// Searches `game` within `budget` and returns the chosen move. `game` is left as it was.
    pub fn search<C: Clock>(
        &mut self,
        game: &mut G,
        budget: Budget,
        clock: &mut C,
    ) -> SearchResult<G> {
        let start = clock.now_us();
        let mut moves = G::MoveList::default();
        let mut result = match self.prepare_root(game, &mut moves) {
            Ok(result) => result,
            Err(done) => return done,
        };

        // The simulation loop's hooks are chosen here, once per search.
        // (`compact-code` keeps one loop: with every option off the BBQ hooks give the plain
        // rewards to the bit.)
        let stop = if self.config.bbq.is_active() || cfg!(feature = "compact-code") {
            self.simulations::<Bbq, C>(game, budget, clock, start, &mut result)
        } else {
            self.simulations::<Plain, C>(game, budget, clock, start, &mut result)
        };
        result.stop = stop;
        result.elapsed_us = clock.now_us().saturating_sub(start);
        result.nodes_used = self.pool.len();
        self.root_decision(&mut result);
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

    /// Reads the search's answer off the tree into `result`: the root's proof, the move
    /// [`best_child`](Self::best_child) chooses and its value (the proven value if the root is
    /// proven, else the move's mean). Leaves `best` as it was if no child can be chosen.
    pub(crate) fn root_decision(&self, result: &mut SearchResult<G>) {
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
    }

    /// Without room for a tree: the move whose resulting position evaluates best.
    pub(crate) fn fallback(
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
}

/// Converts a reward for `player` into the first player's reward, and back (it is symmetric).
#[inline(always)]
pub(crate) fn for_first(reward: f32, player: Player) -> f32 {
    if player == Player::First {
        reward
    } else {
        -reward
    }
}
