//! Search: MCTS with implicit minimax backups and its enhancements, and the αβ baseline.
//!
//! - [`mcts`]: the MCTS searcher ([`mcts::Mcts`]) over a caller-provided [`pool`] of
//!   [`node::Node`]s, configured by [`config::MctsConfig`].
//! - [`playout`]: playout policies and early terminations.
//! - [`bbq`]: paper 003's miniMax-MCTS with depth rewards (Big, Best, Quick win), as options.
//! - [`spec`]: the papers' player labels (`mcts(ipp,im0.4)`, `ab(efLH)`, …) parsed into
//!   configurations.
//! - [`alphabeta`]: the αβ baseline.
//! - `parallel`: several threads searching one tree (where the target has compare-and-swap).
//!
//! The kernel has no clock: time budgets read a [`Clock`] the host provides.

pub mod alphabeta;
pub mod bbq;
#[cfg(test)]
mod bbq_tests;
pub mod config;
mod decimal;
mod math;
pub mod mcts;
pub mod node;
// Tree-parallel search needs compare-and-swap on 8-, 16- and 32-bit atomics (not on thumbv6m).
#[cfg(test)]
mod paper_code_tests;
#[cfg(all(
    target_has_atomic = "8",
    target_has_atomic = "16",
    target_has_atomic = "32"
))]
pub mod parallel;
pub mod playout;
pub mod pool;
pub mod shallow;
pub mod spec;
pub mod stats;

pub use node::Proven;
#[cfg(test)]
mod tests;
/// A monotonic clock supplied by the host, in microseconds from any fixed origin.
pub trait Clock {
    /// The current time in microseconds. Must never decrease.
    fn now_us(&mut self) -> u64;
}

/// A clock that never advances: for searches bounded by simulations or nodes only.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoClock;

impl Clock for NoClock {
    fn now_us(&mut self) -> u64 {
        0
    }
}

impl<F: FnMut() -> u64> Clock for F {
    fn now_us(&mut self) -> u64 {
        self()
    }
}

/// Limits on a search. Every limit that is `Some` applies; the first one reached stops it.
/// A budget with no limit at all is treated as one simulation (or one αβ iteration).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// MCTS simulations (playouts), or αβ nodes for the αβ search.
    pub iterations: Option<u64>,
    /// Tree nodes to allocate (MCTS) before stopping; the pool capacity bounds it anyway.
    /// Counted in pool slots, so the header slot in front of each block of 8 to 64 children
    /// counts too.
    pub nodes: Option<u64>,
    /// Wall time in microseconds, read from the host's [`Clock`].
    pub time_us: Option<u64>,
}

impl Budget {
    /// A budget of `n` simulations (αβ: nodes).
    pub const fn iterations(n: u64) -> Self {
        Budget {
            iterations: Some(n),
            nodes: None,
            time_us: None,
        }
    }

    /// A budget of `ms` milliseconds.
    pub const fn millis(ms: u64) -> Self {
        Budget {
            iterations: None,
            nodes: None,
            time_us: Some(ms * 1000),
        }
    }
}

/// Why a search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum StopReason {
    /// The simulation (αβ: node) budget was spent.
    Iterations = 0,
    /// The node budget was reached.
    Nodes = 1,
    /// The time budget was spent.
    Time = 2,
    /// The root was proven won, lost or drawn.
    Proven = 3,
    /// The root has a single legal move.
    SingleMove = 4,
    /// The node pool is full and the configuration says to stop then.
    PoolFull = 5,
    /// The root position is already finished: there is no move to choose.
    GameOver = 6,
    /// αβ searched to its maximum depth (the whole game tree was resolved).
    MaxDepth = 7,
    /// MCTS: the root has [`ROOT_VISIT_LIMIT`] visits; one more simulation could wrap a visit
    /// count. Some 4.2 billion simulations: about 50 minutes of the fastest search here.
    VisitLimit = 8,
}

/// The root's visit count at which an MCTS search stops ([`StopReason::VisitLimit`]), 2²⁶
/// short of `u32::MAX`. No count can then wrap: a node's visits are at most its root's, a
/// node's children's (which UCT sums with node or evaluation priors) at most that plus 256
/// children's priors of at most [`config::MAX_ADDED_VISITS`] each, and a simulation adds at
/// most that many (paper 003's playouts) to each node of its path, on each thread.
pub const ROOT_VISIT_LIMIT: u32 = u32::MAX - (1 << 26);

impl StopReason {
    /// A short lower-case name (`iterations`, `time`, `proven`, …) for output and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            StopReason::Iterations => "iterations",
            StopReason::Nodes => "nodes",
            StopReason::Time => "time",
            StopReason::Proven => "proven",
            StopReason::SingleMove => "single-move",
            StopReason::PoolFull => "pool-full",
            StopReason::GameOver => "game-over",
            StopReason::MaxDepth => "max-depth",
            StopReason::VisitLimit => "visit-limit",
        }
    }
}
