//! The simulation loop, read top to bottom: selection (with expansion of the nodes it passes)
//! down to a leaf, the leaf's playout, the backup. The parts that paper 003's options change
//! are the [`Rewards`] hook, fixed for a whole search; the loop is also compiled once per kind
//! of UCT score ([`score`]), so that each copy holds one selection scan.

use super::hooks::Rewards;
use super::select::score;
use super::{MAX_TREE_DEPTH, Mcts, PathStep, SearchResult, clock_mask, for_first};
use crate::game::{Game, Player};
use crate::search::config::Expansion;
use crate::search::node::{NodeId, Proven, flag};
use crate::search::{Budget, Clock, ROOT_VISIT_LIMIT, StopReason};

/// Where a simulation's descent stopped.
enum Leaf {
    /// A position the solver has proven: its proven reward for the first player.
    Proven(f32),
    /// A finished game: its result for the first player.
    Finished(f32),
    /// A position to play out from.
    Open,
    /// A child whose move code does not decode (a corrupted tree): counted as a draw.
    Broken,
}

impl<G: Game> Mcts<'_, G> {
    /// Runs simulations from the expanded root until `budget` (or a proof, or a full pool with
    /// `stop_when_full`) stops them, counting them in `result`.
    pub(super) fn simulations<H: Rewards<G>, C: Clock>(
        &mut self,
        game: &mut G,
        budget: Budget,
        clock: &mut C,
        start: u64,
        result: &mut SearchResult<G>,
    ) -> StopReason {
        crate::search::math::prepare_tables();
        // One copy of the loop for each kind of UCT score (`score_kind`); small code keeps
        // one, whose general scan gives every kind's scores exactly.
        #[cfg(not(feature = "compact-code"))]
        match super::select::score_kind(&self.config) {
            score::PLAIN => {
                self.simulations_with::<H, C, { score::PLAIN }>(game, budget, clock, start, result)
            }
            score::MIX => {
                self.simulations_with::<H, C, { score::MIX }>(game, budget, clock, start, result)
            }
            _ => self
                .simulations_with::<H, C, { score::GENERAL }>(game, budget, clock, start, result),
        }
        #[cfg(feature = "compact-code")]
        self.simulations_with::<H, C, { score::GENERAL }>(game, budget, clock, start, result)
    }

    /// [`simulations`](Self::simulations) with the configuration's kind of UCT score `SCORE`.
    fn simulations_with<H: Rewards<G>, C: Clock, const SCORE: u8>(
        &mut self,
        game: &mut G,
        budget: Budget,
        clock: &mut C,
        start: u64,
        result: &mut SearchResult<G>,
    ) -> StopReason {
        let max_sims = match (budget.iterations, budget.nodes, budget.time_us) {
            (None, None, None) => Some(1),
            (s, _, _) => s,
        };
        let clock_mask = clock_mask(self.config.bbq.playouts);
        // Whether the time budget is spent, for the loop below and for paper 003's playouts
        // inside an iteration (`Bbq::playout`), so that one iteration of many playouts does
        // not run past it. Never reads the clock without a time budget.
        let mut time_up = || {
            budget
                .time_us
                .is_some_and(|t| clock.now_us().saturating_sub(start) >= t)
        };
        loop {
            let root = self.pool.get(NodeId::ROOT);
            if root.proven != Proven::Unknown && self.config.solver {
                return StopReason::Proven;
            }
            if root.visits >= ROOT_VISIT_LIMIT {
                return StopReason::VisitLimit;
            }
            if max_sims.is_some_and(|m| result.simulations >= m) {
                return StopReason::Iterations;
            }
            if budget.nodes.is_some_and(|m| self.pool.len() as u64 >= m) {
                return StopReason::Nodes;
            }
            // `time_up` tests the budget too; testing it first here keeps searches without a
            // time budget from the mask's test (two instructions a simulation, callgrind).
            if budget.time_us.is_some() && result.simulations & clock_mask == 0 && time_up() {
                return StopReason::Time;
            }
            let full = self.simulate::<H, SCORE>(game, &mut time_up);
            result.simulations += 1;
            if full {
                result.pool_full = true;
                if self.config.stop_when_full {
                    return StopReason::PoolFull;
                }
            }
        }
    }

    /// One simulation: select down the tree (expanding the visited leaves it reaches), play out
    /// from the leaf, back up. `game` is the root position, and is left so. Returns whether the
    /// pool was too full to expand.
    ///
    /// A game that asks for it ([`Game::DESCEND_ON_COPY`]: Breakthrough) descends on a copy of
    /// the root, which is dropped afterwards, instead of undoing every move of the path on the
    /// way back up (the backup's undo took about 30 instructions a level in Breakthrough,
    /// efLH's sums included).
    #[inline]
    fn simulate<H: Rewards<G>, const SCORE: u8>(
        &mut self,
        game: &mut G,
        time_up: &mut dyn FnMut() -> bool,
    ) -> bool {
        if G::DESCEND_ON_COPY && !test_hooks::undo_forced() {
            let mut copy = game.clone();
            self.simulate_on::<H, SCORE, true>(&mut copy, Some(game), time_up)
        } else {
            self.simulate_on::<H, SCORE, false>(game, None, time_up)
        }
    }

    /// [`simulate`](Self::simulate) on `game`: with `COPY`, a copy of the root `root` that is
    /// not brought back (a position on the path is rebuilt from `root` when the solver step
    /// needs one); without, the root itself, brought back by undoing the path.
    fn simulate_on<H: Rewards<G>, const SCORE: u8, const COPY: bool>(
        &mut self,
        game: &mut G,
        root: Option<&G>,
        time_up: &mut dyn FnMut() -> bool,
    ) -> bool {
        let mut path: heapless::Vec<PathStep<G>, MAX_TREE_DEPTH> = heapless::Vec::new();
        let mut node = NodeId::ROOT;
        let mut full = false;

        // Selection and expansion.
        let leaf = loop {
            let n = *self.pool.get(node);
            if node != NodeId::ROOT {
                if let Some(r) = n.proven.reward() {
                    break Leaf::Proven(for_first(r, n.mover()));
                }
                if n.is(flag::TERMINAL) {
                    break Leaf::Finished(game.outcome().map_or(0.0, |o| o.reward(Player::First)));
                }
            }
            // A leaf is expanded on its second visit (the root at once).
            if !n.is(flag::EXPANDED)
                && (node == NodeId::ROOT || n.is(flag::VISITED))
                && path.len() < MAX_TREE_DEPTH
                && !self.expand(node, game)
            {
                full = true;
            }
            let n = *self.pool.get(node);
            // A node is played out from on its first visit even if the solver step
            // (`expand_lost_siblings`) has already expanded it, as in the paper's code, which
            // descends only into nodes it has simulated from (row B18 of docs/reproduction.md).
            if !n.is(flag::EXPANDED)
                || path.len() >= MAX_TREE_DEPTH
                || (node != NodeId::ROOT && !n.is(flag::VISITED))
            {
                break Leaf::Open;
            }
            let child = if self.config.expansion == Expansion::OneChild && n.added < n.children {
                self.add_child(node, game)
            } else {
                self.select::<SCORE>(node, n.visits, game)
            };
            let Some(mv) = G::decode_move(self.pool.get(child).mv) else {
                break Leaf::Broken;
            };
            let value = self.pool.get(child).value;
            let u = game.make(mv);
            // The path is bounded by MAX_TREE_DEPTH, checked above.
            let _ = path.push((child, mv, u, value));
            node = child;
        };

        // Playout (or the leaf's known result).
        let depth = path.len() as u32;
        let reward_first = match leaf {
            Leaf::Proven(r) => H::proven(&self.config, r, depth),
            Leaf::Finished(r) => H::finished(&self.config, game, r, depth),
            Leaf::Open => H::playout(self, game, depth, time_up),
            Leaf::Broken => 0.0,
        };

        // Backup.
        self.backpropagate::<H>(&path, reward_first);
        // The paper's code's solver step on the way back up (see `expand_lost_siblings`); once
        // it has run, the nodes above it take up the new proofs and implicit values.
        let fix = self.config.solver
            && !self.config.text_solver
            && self.config.expansion == Expansion::AllChildren;
        let mut dirty = false;
        if COPY && !fix {
            return full;
        }
        while let Some((child, mv, u, _)) = path.pop() {
            if !COPY {
                game.undo(mv, u);
            }
            if !fix {
                continue;
            }
            let parent = path.last().map_or(NodeId::ROOT, |s| s.0);
            let open = self.pool.get(parent).proven == Proven::Unknown;
            if dirty {
                self.refresh(parent);
            }
            if self.pool.get(child).proven == Proven::Loss
                && self.pool.get(parent).proven == Proven::Unknown
            {
                if let (true, Some(root)) = (COPY, root) {
                    // The copy is wherever the simulation left it: rebuild `parent`'s
                    // position from the root.
                    *game = root.clone();
                    for step in &path {
                        game.make(step.1);
                    }
                    test_hooks::count_rebuild();
                }
                self.expand_lost_siblings(parent, game);
                dirty = true;
            }
            // `code-proof-visits`: the code proves `parent` here before it would update it, so
            // the visit the backup gave it is taken back (its mean kept; the root is never
            // proven in the middle of a search, it ends it).
            if self.config.code_proof_visits
                && parent != NodeId::ROOT
                && open
                && self.pool.get(parent).proven != Proven::Unknown
            {
                let k = H::visits(&self.config);
                let p = self.pool.get_mut(parent);
                let to = p.visits.saturating_sub(k);
                p.stat = crate::search::stats::with_visits(p.visits, p.stat, to);
                p.visits = to;
            }
        }
        full
    }

    /// The paper's code's solver step (its `solverFix`): a child of `node` has just been found
    /// a proven loss for the side to move at `node` (`game` is at `node`). Each child in turn,
    /// up to the first one that is not a proven loss, is expanded if it is still a leaf, so a
    /// child the opponent wins at once is proven at once (and `node` too if all children are
    /// lost), without the two visits a leaf otherwise needs to be expanded.
    fn expand_lost_siblings(&mut self, node: NodeId, game: &mut G) {
        let n = *self.pool.get(node);
        // The siblings' proofs and implicit values change here without a visit, so the scan
        // cache in their block's header no longer holds. (Its chosen child is the one just
        // proven lost, which already keeps the next selection from taking it; cleared all the
        // same, so that the cache never outlives a change it did not see.)
        self.pool.set_scan_cache(n.first_child, n.children, None);
        for i in 0..n.added as u32 {
            let id = NodeId(n.first_child + i);
            let c = *self.pool.get(id);
            if c.proven == Proven::Unknown && !c.is(flag::EXPANDED) && !c.is(flag::TERMINAL) {
                let Some(mv) = G::decode_move(c.mv) else {
                    break;
                };
                let u = game.make(mv);
                let room = self.expand(id, game);
                game.undo(mv, u);
                if !room {
                    break;
                }
            }
            if self.pool.get(id).proven != Proven::Loss {
                break;
            }
        }
        self.refresh(node);
    }
}

/// For the tests: make a search undo its path where its game would descend on a copy, and
/// count the positions the copy's solver steps rebuilt (per thread). Nothing outside tests.
pub(crate) mod test_hooks {
    #[cfg(test)]
    use core::cell::Cell;

    #[cfg(test)]
    std::thread_local! {
        static FORCE_UNDO: Cell<bool> = const { Cell::new(false) };
        static REBUILDS: Cell<u32> = const { Cell::new(0) };
    }

    /// Whether this thread's searches undo their paths whatever the game asks.
    #[inline(always)]
    pub(crate) fn undo_forced() -> bool {
        #[cfg(test)]
        return FORCE_UNDO.with(Cell::get);
        #[cfg(not(test))]
        false
    }

    #[inline(always)]
    pub(crate) fn count_rebuild() {
        #[cfg(test)]
        REBUILDS.with(|r| r.set(r.get() + 1));
    }

    /// Sets whether this thread's searches undo their paths.
    #[cfg(test)]
    pub(crate) fn force_undo(on: bool) {
        FORCE_UNDO.with(|f| f.set(on));
    }

    /// The positions rebuilt for solver steps on this thread so far.
    #[cfg(test)]
    pub(crate) fn rebuilds() -> u32 {
        REBUILDS.with(Cell::get)
    }
}
