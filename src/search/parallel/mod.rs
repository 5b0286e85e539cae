//! Parallel MCTS: several threads search one tree in the caller's node memory (tree
//! parallelism with virtual loss). docs/parallel.md has the design, the races it allows and
//! why each is benign, and measurements.
//!
//! - Node statistics are atomics ([`Node`](super::node::Node)'s layout, seen as atomics for
//!   the length of a search), updated with `fetch_add` and compare-and-swap; nothing locks.
//! - A thread claims a node's children with a compare-and-swap on the node's `first_child`
//!   and publishes them with one release store of its `EXPANDED` flag; a thread that finds a
//!   node claimed plays out from it instead of waiting.
//! - The pool is a bump allocator whose length moves by compare-and-swap.
//! - A virtual loss ([`ParallelSettings::virtual_loss`]) makes a path being searched look
//!   lost until its result comes back, so the threads spread over the tree.
//!
//! The kernel brings no threads: the host lends them through [`Threads`] (with the `std`
//! feature, `StdThreads` uses `std::thread::scope`; the C ABI lets a C host start its own).
//! (`StdThreads` is named without a link: it exists only with `std`, and the kernel's own
//! documentation is built without it.)
//! The module exists only on targets with 8-, 16- and 32-bit compare-and-swap
//! (`target_has_atomic`); on `thumbv6m` it is absent and searches run on one thread.
//!
//! ```
//! # #[cfg(feature = "std")] {
//! use imcts::games::breakthrough::Breakthrough;
//! use imcts::search::parallel::{ParallelSettings, StdThreads};
//! use imcts::search::{Budget, NoClock, config::MctsConfig, mcts::Mcts, node::Node};
//! use imcts::Game;
//!
//! let mut nodes = vec![Node::EMPTY; 200_000];
//! let mut mcts = Mcts::new(&mut nodes, MctsConfig::<Breakthrough>::default().validate().unwrap());
//! let mut game = Breakthrough::new();
//! let r = mcts.search_parallel(&mut game, Budget::iterations(4000), &mut NoClock,
//!                              &mut StdThreads(2), ParallelSettings::default());
//! assert_eq!(r.simulations, 4000);
//! assert!(game.is_legal(r.best.unwrap()));
//! # }
//! ```

mod atomic_node;
mod root;
#[cfg(test)]
mod root_tests;
mod search;
mod shared;
#[cfg(test)]
mod tests;

pub use root::MAX_ROOT_TREES;
pub use shared::{Shared, supports};

/// Tuning of the parallel search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParallelSettings {
    /// Virtual visits, each a loss, that a node on a path being searched carries until the
    /// path's result is backed up (`0`: none; more than
    /// [`MAX_ADDED_VISITS`](crate::search::config::MAX_ADDED_VISITS) counts as that many, so
    /// that no visit count can wrap). One is the usual choice with few threads;
    /// docs/parallel.md discusses more.
    pub virtual_loss: u32,
    /// One shared tree, or a tree per thread.
    pub mode: ParallelMode,
}

impl Default for ParallelSettings {
    fn default() -> Self {
        ParallelSettings {
            virtual_loss: 1,
            mode: ParallelMode::Tree,
        }
    }
}

/// How several threads divide a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ParallelMode {
    /// Tree parallelism: every thread searches one shared tree, with virtual loss. Not
    /// reproducible (which thread reaches a node first depends on timing).
    #[default]
    Tree,
    /// Root parallelism: each thread searches a tree of its own in its part of the node
    /// memory, and the root children's statistics are added up at the end. Threads share
    /// nothing while they search; with a simulation or node budget the search is reproducible
    /// for a given thread count. Only the calling thread's tree is kept for reuse.
    Root,
}

/// Threads a host lends a search.
pub trait Threads {
    /// How many threads search, the calling one included (`1`: the calling thread alone).
    fn count(&self) -> u32;

    /// Runs `helper(i)` for each `i` in `1..count()` on other threads while this thread runs
    /// `main()`, and returns once all of them have returned. A host that cannot start a helper
    /// may skip it: the search is correct with any number of threads.
    fn run(&mut self, helper: &(dyn Fn(u32) + Sync), main: &mut dyn FnMut());
}

/// The calling thread alone.
#[derive(Clone, Copy, Debug, Default)]
pub struct OneThread;

impl Threads for OneThread {
    fn count(&self) -> u32 {
        1
    }
    fn run(&mut self, _helper: &(dyn Fn(u32) + Sync), main: &mut dyn FnMut()) {
        main();
    }
}

/// `n` threads from the standard library (`std::thread::scope`): the caller's and `n - 1`
/// scoped helpers.
#[cfg(feature = "std")]
#[derive(Clone, Copy, Debug)]
pub struct StdThreads(pub u32);

#[cfg(feature = "std")]
impl Threads for StdThreads {
    fn count(&self) -> u32 {
        self.0.max(1)
    }
    fn run(&mut self, helper: &(dyn Fn(u32) + Sync), main: &mut dyn FnMut()) {
        std::thread::scope(|s| {
            for i in 1..self.count() {
                // A thread the system refuses is skipped (the search needs none of them).
                let _ = std::thread::Builder::new().spawn_scoped(s, move || helper(i));
            }
            main();
        });
    }
}
