//! Root parallelism ([`ParallelMode::Root`](super::ParallelMode::Root)): each thread searches a
//! tree of its own, in its own part of the node memory, with the single-threaded loop and its
//! own seed; at the end the root children's statistics are added together (Chaslot, Winands &
//! van den Herik, "Parallel Monte-Carlo Tree Search", 2008, who found it the strongest of the
//! schemes they measured with few threads).
//!
//! The threads share nothing while they search, so no cache line moves between cores: on the
//! 2-core machine of docs/performance.md's "Session 14" a shared tree got 1.3–1.5× one thread's
//! simulations a second and separate trees 2.0–2.3×. With a simulation or node budget the
//! result is reproducible: each tree's share of the budget and its seed depend only on the
//! thread count.

use super::Threads;
use super::shared::supports;
use crate::game::{Game, MoveBuffer};
use crate::search::config::Valid;
use crate::search::mcts::{Mcts, SearchResult};
use crate::search::node::{Node, NodeId, Proven, flag};
use crate::search::pool::Pool;
use crate::search::stats;
use crate::search::{Budget, Clock};
use core::marker::PhantomData;
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, Ordering};

/// The most trees one search builds (the calling thread's and up to 63 helpers').
pub const MAX_ROOT_TREES: usize = 64;

/// The seed of thread `index`'s tree: thread 0 keeps the searcher's own generator; the others
/// are seeded as the shared-tree search seeds its threads.
fn helper_seed(seed: u64, index: u32) -> u64 {
    seed.wrapping_add(u64::from(index).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// Thread `index`'s share (of `n` threads) of a count: equal shares, the remainder to thread 0.
fn share(total: u64, n: u64, index: u32) -> u64 {
    let each = total / n;
    if index == 0 {
        total - each * (n - 1)
    } else {
        each
    }
}

/// One thread's share of a budget: simulations and nodes split evenly, time as it is (a
/// helper's time runs out when the calling thread's search ends, see [`StopClock`]).
fn split(budget: Budget, n: u64, index: u32) -> Budget {
    Budget {
        iterations: budget.iterations.map(|s| share(s, n, index)),
        nodes: budget.nodes.map(|s| share(s, n, index)),
        time_us: budget.time_us,
    }
}

/// The helpers' clock: `0` until the calling thread's search has ended, then far in the
/// future, so a helper with a time budget stops within one clock interval of the calling thread
/// (only the calling thread reads the host's clock, which need not be thread-safe).
struct StopClock<'a> {
    stop: &'a AtomicBool,
    started: bool,
}

impl Clock for StopClock<'_> {
    fn now_us(&mut self) -> u64 {
        if !self.started {
            // The search's start: whatever happened before, time begins at 0.
            self.started = true;
            return 0;
        }
        if self.stop.load(Ordering::Acquire) {
            u64::MAX / 2
        } else {
            0
        }
    }
}

/// What a helper reports: simulations run (saturating), whether its part of the memory ran
/// full, and whether it built a tree there at all.
struct Report {
    simulations: AtomicU32,
    full: AtomicBool,
    done: AtomicBool,
}

impl Report {
    const fn new() -> Self {
        Report {
            simulations: AtomicU32::new(0),
            full: AtomicBool::new(false),
            done: AtomicBool::new(false),
        }
    }
}

/// The helpers' parts of the node memory: equal, disjoint slices after the calling thread's
/// part, each handed out once.
struct Parts<'t> {
    base: AtomicPtr<Node>,
    part: usize,
    helpers: usize,
    taken: [AtomicBool; MAX_ROOT_TREES],
    _memory: PhantomData<&'t mut [Node]>,
}

impl<'t> Parts<'t> {
    /// `rest` split into `helpers` parts of `part` nodes (`helpers * part <= rest.len()`).
    fn new(rest: &'t mut [Node], helpers: usize, part: usize) -> Self {
        assert!(helpers < MAX_ROOT_TREES && helpers.saturating_mul(part) <= rest.len());
        Parts {
            base: AtomicPtr::new(rest.as_mut_ptr()),
            part,
            helpers,
            taken: [const { AtomicBool::new(false) }; MAX_ROOT_TREES],
            _memory: PhantomData,
        }
    }

    /// Helper `index`'s part (`1..=helpers`), the first time it is asked for; else `None`.
    #[allow(unsafe_code)]
    fn take(&self, index: usize) -> Option<&'t mut [Node]> {
        if index == 0 || index > self.helpers || self.taken[index].swap(true, Ordering::AcqRel) {
            return None;
        }
        let start = (index - 1) * self.part;
        // SAFETY: `base` points to `rest`, exclusively borrowed for `'t` by this value, and
        // `start + part <= helpers * part <= rest.len()` (checked in `new`), so the slice lies
        // inside it. Parts of different indices are disjoint, and the `swap` above hands each
        // index out at most once, so no two live `&mut` slices overlap and nothing else can
        // reach `rest` while `'t` lasts.
        Some(unsafe {
            core::slice::from_raw_parts_mut(self.base.load(Ordering::Relaxed).add(start), self.part)
        })
    }
}

impl<G: Game> Mcts<'_, G> {
    /// [`search_parallel`](Self::search_parallel) with separate trees: the calling thread
    /// searches its tree (kept for reuse, as after [`search`](Self::search)) in the first
    /// `capacity / count` nodes, or more if a reused tree is larger, and each helper a fresh
    /// tree in an equal part of the rest; the helpers' root children are then added into the
    /// calling thread's (visits, rewards and proofs), and the move is chosen from the sums as
    /// [`search`](Self::search) chooses it.
    pub(super) fn search_root_parallel<C: Clock, T: Threads + ?Sized>(
        &mut self,
        game: &mut G,
        budget: Budget,
        clock: &mut C,
        threads: &mut T,
    ) -> SearchResult<G> {
        let n = (threads.count() as usize).min(MAX_ROOT_TREES);
        let mut moves = G::MoveList::default();
        let single = game.outcome().is_some() || {
            game.legal_moves(&mut moves);
            moves.moves().len() <= 1
        };
        // Budgets too small to split, and finished or forced positions: one tree.
        let too_few = budget.iterations.is_some_and(|s| s < n as u64)
            || budget.nodes.is_some_and(|s| s < n as u64)
            || (budget.iterations, budget.nodes, budget.time_us) == (None, None, None);
        let capacity = self.pool.capacity() as usize;
        let mine = (capacity / n.max(1)).max(self.pool.len() as usize);
        let part = capacity.saturating_sub(mine) / (n - 1).max(1);
        if n <= 1 || single || too_few || !supports(&self.config) || part <= G::MAX_MOVES {
            return self.search(game, budget, clock);
        }
        let helpers = n - 1;
        let config = self.config;
        let len = self.pool.len();
        let (mine, rest) = self.pool.slots_mut().split_at_mut(mine);
        // The calling thread's searcher: this one's tree, generator and root over `mine`.
        let mut pool = Pool::new(mine);
        let reused = pool.restore_len(len);
        let mut main = Mcts {
            pool,
            config,
            rng: self.rng.clone(),
            root_state: self.root_state.take().filter(|_| reused),
        };
        let stop = AtomicBool::new(false);
        let reports = [const { Report::new() }; MAX_ROOT_TREES];
        let mut result = None;
        {
            let parts = Parts::new(rest, helpers, part);
            let root = game.clone();
            let helper = |index: u32| {
                let Some(nodes) = parts.take(index as usize) else {
                    return;
                };
                let mut cfg = config;
                cfg.seed = helper_seed(config.seed, index);
                // Every seed is valid, so the configuration stays as validated.
                let mut m = Mcts::new(nodes, Valid::checked(cfg));
                let mut g = root.clone();
                let mut c = StopClock {
                    stop: &stop,
                    started: false,
                };
                let r = m.search(&mut g, split(budget, n as u64, index), &mut c);
                let report = &reports[index as usize];
                let sims = u32::try_from(r.simulations).unwrap_or(u32::MAX);
                report.simulations.store(sims, Ordering::Relaxed);
                report.full.store(r.pool_full, Ordering::Relaxed);
                report.done.store(true, Ordering::Release);
            };
            let mut run_main = || {
                result = Some(main.search(game, split(budget, n as u64, 0), clock));
                stop.store(true, Ordering::Release);
            };
            threads.run(&helper, &mut run_main);
        }
        // `run` returns only after `run_main` did.
        let mut result = result.unwrap_or_else(|| main.search(game, budget, clock));
        if result.best.is_some() && main.pool.get(NodeId::ROOT).is(flag::EXPANDED) {
            for (i, part_nodes) in rest.chunks_exact(part).take(helpers).enumerate() {
                let report = &reports[i + 1];
                if !report.done.load(Ordering::Acquire) {
                    continue;
                }
                result.simulations += u64::from(report.simulations.load(Ordering::Relaxed));
                result.pool_full |= report.full.load(Ordering::Relaxed);
                main.add_root_children(part_nodes);
            }
            if config.solver {
                main.refresh(NodeId::ROOT);
            }
            main.root_decision(&mut result);
        }
        let len = main.pool.len();
        self.rng = main.rng;
        self.root_state = main.root_state;
        if !self.pool.restore_len(len) {
            self.root_state = None;
        }
        result
    }

    /// Adds the root children of another tree of the same root position (in `nodes`, its root
    /// first) into this tree's: visits and rewards summed, the root's visits too, and a proof
    /// the other tree found where this one has none (proofs are exact game values). Children
    /// are matched by move; another tree's malformed links are ignored.
    fn add_root_children(&mut self, nodes: &[Node]) {
        let Some(other_root) = nodes.first() else {
            return;
        };
        if !other_root.is(flag::EXPANDED) {
            return;
        }
        let start = other_root.first_child as usize;
        let Some(others) = nodes.get(start..start.saturating_add(usize::from(other_root.added)))
        else {
            return;
        };
        let root = *self.pool.get(NodeId::ROOT);
        let (text_proven, backs_up) = (self.config.text_proven, self.config.backs_up_values());
        for o in others {
            if o.visits == 0 && o.proven == Proven::Unknown {
                continue;
            }
            let Some(i) = self
                .pool
                .children(NodeId::ROOT)
                .iter()
                .position(|c| c.mv == o.mv)
            else {
                continue;
            };
            let c = self.pool.get_mut(NodeId(root.first_child + i as u32));
            (c.visits, c.stat) = stats::merge((c.visits, c.stat), (o.visits, o.stat));
            if c.visits > 0 {
                c.flags |= flag::VISITED;
            }
            if c.proven == Proven::Unknown {
                c.proven = o.proven;
                // As a proof found in this tree would set it (`Mcts::refresh_node`).
                if let Some(r) = o.proven.reward() {
                    if text_proven || !backs_up {
                        c.value = r;
                    }
                }
            }
        }
        let r = self.pool.get_mut(NodeId::ROOT);
        r.visits = r.visits.saturating_add(other_root.visits);
        // The root's children changed together (a proof may come without a visit): the last
        // scan's choice in their block's header no longer holds.
        self.pool
            .set_scan_cache(root.first_child, root.children, None);
    }
}
