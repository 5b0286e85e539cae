//! [`Mcts::search_parallel`]: the single-threaded set-up and result of a search around the
//! threads the host lends it ([`Threads`]).

use super::atomic_node::view;
use super::shared::{Shared, supports};
use super::{ParallelMode, ParallelSettings, Threads};
use crate::game::{Game, MoveBuffer};
use crate::search::mcts::{Mcts, SearchResult};
use crate::search::{Budget, Clock};

impl<G: Game> Mcts<'_, G> {
    /// [`search`](Self::search) on several threads sharing one tree in this searcher's node
    /// memory: tree parallelism with virtual loss (see [`super`]). `threads` runs the workers;
    /// with one thread, or a configuration [`supports`] refuses, this is exactly
    /// [`search`](Self::search). `clock` is read by the calling thread only.
    ///
    /// The tree, the generator state and the root position are kept as after a
    /// single-threaded search, so tree reuse ([`advance`](Self::advance)), the principal
    /// variation and [`root_children`](Self::root_children) work the same afterwards. The
    /// result is not reproducible: which thread reaches a node first depends on timing.
    pub fn search_parallel<C: Clock, T: Threads + ?Sized>(
        &mut self,
        game: &mut G,
        budget: Budget,
        clock: &mut C,
        threads: &mut T,
        settings: ParallelSettings,
    ) -> SearchResult<G> {
        if settings.mode == ParallelMode::Root {
            return self.search_root_parallel(game, budget, clock, threads);
        }
        if threads.count() <= 1 || !supports(&self.config) {
            return self.search(game, budget, clock);
        }
        let start = clock.now_us();
        // The same preamble as `search`, on this thread.
        let mut moves = G::MoveList::default();
        let mut result = match self.prepare_root(game, &mut moves) {
            Ok(result) => result,
            Err(done) => return done,
        };

        let len = self.pool.len();
        let config = self.config;
        let (simulations, nodes_used, pool_full, stop) = {
            let shared = Shared::new(
                view(self.pool.slots_mut()),
                len,
                config,
                game.clone(),
                budget,
                settings.virtual_loss,
                start,
            );
            let helpers = |i: u32| {
                shared.work(i, None);
            };
            let mut main = || {
                shared.work(0, Some(&mut *clock));
            };
            threads.run(&helpers, &mut main);
            (
                shared.simulations(),
                shared.len(),
                shared.pool_full(),
                shared.stop_reason(),
            )
        };
        // Hand the length back; the links were written by this search, so the check passes.
        let restored = self.pool.restore_len(nodes_used);
        debug_assert!(restored, "the parallel search left a malformed tree");
        result.simulations = simulations;
        result.pool_full = pool_full;
        result.stop = stop;
        result.elapsed_us = clock.now_us().saturating_sub(start);
        result.nodes_used = self.pool.len();
        if !restored {
            // Never expected; recover as the single-threaded search does without a tree.
            self.clear();
            return self.fallback(game, moves.moves(), result);
        }
        self.root_decision(&mut result);
        if result.best.is_none() {
            let pool_full = result.pool_full;
            let mut r = self.fallback(game, moves.moves(), result);
            r.stop = stop;
            r.pool_full = pool_full;
            return r;
        }
        result
    }
}
