//! A search-tree node: 24 bytes, statistics from the point of view of the player who moved into
//! it (negamax), children contiguous in the pool.
//!
//! | field         | bytes | what it costs and why it is there                                   |
//! |---------------|-------|---------------------------------------------------------------------|
//! | `visits`      | 4     | `n`: simulations through the node, plus node-prior virtual visits   |
//! | `stat`        | 4     | `r`: rewards for the mover into the node: their `f32` sum, from 2²² visits their mean in fixed point ([`stats`](super::stats)) |
//! | `first_child` | 4     | pool index of the first child; children are contiguous              |
//! | `value`       | 4     | `v`: implicit minimax value (or the static `v0` for constant bias)  |
//! | `mv`          | 2     | the move into the node, as [`Game::encode_move`](crate::Game)       |
//! | `children`    | 2     | number of child slots (all legal moves)                             |
//! | `added`       | 2     | children entered so far (less than `children` only when expanding one child per simulation) |
//! | `proven`      | 1     | solver value for the mover: loss, draw, win or unknown              |
//! | `flags`       | 1     | expanded, visited, terminal, mover, draw bounds, compaction scratch |
//!
//! 24 bytes means a 16 KiB buffer holds 682 nodes and 1 MiB holds 43,690.
//!
//! A block of 8 to 64 children has one more slot in front of it, the block's header
//! (`ScanCache`): what the parent's last full UCT scan found, so that the next selection
//! there can often take the same child after looking at it alone. Breakthrough's and Lines of
//! Action's blocks have headers (about one slot in 30 more), Kalah's six children none.
//!
//! `visits` and `stat` come first and the node is 8-byte aligned, so the pair is one aligned
//! 64-bit word: the parallel search (`search::parallel`, on targets with 64-bit atomics) reads
//! it with one load and updates it (a virtual loss, a backup) with one compare-and-swap.

use crate::game::Player;

/// The index of a node in the pool. `u32` keeps nodes small; [`NodeId::NONE`] marks "no node".
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    /// "No node": an unexpanded node's `first_child`.
    pub const NONE: NodeId = NodeId(u32::MAX);
    /// The root is always the first node of the pool.
    pub const ROOT: NodeId = NodeId(0);

    /// The index as `usize`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A game-theoretic value proven by the solver, from the point of view of the mover into a node.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(i8)]
pub enum Proven {
    /// Not proven.
    Unknown = 2,
    /// The mover into the node loses with best play.
    Loss = -1,
    /// Best play draws.
    Draw = 0,
    /// The mover into the node wins with best play.
    Win = 1,
}

impl Proven {
    /// The reward of a proven value (`-1`, `0`, `1`); `None` if unknown.
    #[inline(always)]
    pub fn reward(self) -> Option<f32> {
        match self {
            Proven::Unknown => None,
            Proven::Loss => Some(-1.0),
            Proven::Draw => Some(0.0),
            Proven::Win => Some(1.0),
        }
    }

    /// A short lower-case name for output and JSON: `win`, `loss`, `draw`, or `""` if unknown.
    pub const fn name(self) -> &'static str {
        match self {
            Proven::Unknown => "",
            Proven::Win => "win",
            Proven::Loss => "loss",
            Proven::Draw => "draw",
        }
    }

    /// The same value seen by the other player.
    #[inline(always)]
    pub fn flipped(self) -> Proven {
        match self {
            Proven::Loss => Proven::Win,
            Proven::Win => Proven::Loss,
            p => p,
        }
    }
}

/// Whether a block of `children` children has a header slot in front of it ([`ScanCache`]):
/// the block sizes whose selection uses the buffered scan (8 to 64 children), the only one that
/// fills and reads the header. A property of the block alone, so that every expansion (one
/// thread or several) and the pool's compaction agree on it.
#[inline(always)]
pub(crate) const fn has_header(children: u16) -> bool {
    children >= 8 && children <= 64
}

/// What a node's last full UCT scan left in the header slot in front of its children, for the
/// next selection there: the child it chose (`chosen`), the runner-up's score (`runner_up`) at
/// that scan's exploration term `C·√ln n_s` (`explore`), and two offsets that tell whether
/// anything but that child changed since.
///
/// Why a later selection may take `chosen` after scoring it alone: if every simulation through
/// the node since went to `chosen` (its visits and the node's grew alike: `gap` checks it),
/// no other child changed, and each one's score at the new exploration term `E' ≥ E` is at most
/// its score then plus `(E' − E)·(1/√n_i)`, so at most `runner_up + (E' − E)`. A chosen child
/// scoring above that, with a margin far wider than the scores' rounding, is the scan's unique
/// best: the same choice, with no random number drawn (ties are drawn only among equals). The
/// proofs and implicit values of the other children change without a visit only in the
/// solver step, which clears the header (`expand_lost_siblings`).
///
/// Kept in a [`Node`]'s fields: `visits` holds `chosen + 1` (0: nothing cached, as in
/// [`Node::EMPTY`]), `stat` the runner-up, `value` the exploration term, `first_child` the
/// parent count minus the node's visits (`base`: with node priors the parent count is the sum
/// of the children's visits, which then grows with the node's), `mv` and `children` the chosen
/// child's visits minus the node's (`gap`, as two halves). `flags` stays 0, so the pool's
/// compaction never takes a header for an expanded node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ScanCache {
    /// The chosen child's index in the block.
    pub chosen: u32,
    /// The best score among the other children at the scan (−∞: nothing cached).
    pub runner_up: f32,
    /// The scan's exploration term `C·√ln n_s`.
    pub explore: f32,
    /// The parent count `n_s` minus the node's own visits, at the scan.
    pub base: u32,
    /// The chosen child's visits minus the node's, at the scan.
    pub gap: u32,
}

impl ScanCache {
    /// The header slot holding `self`.
    #[inline(always)]
    pub(crate) fn to_node(self) -> Node {
        Node {
            visits: self.chosen.wrapping_add(1),
            stat: self.runner_up,
            first_child: self.base,
            value: self.explore,
            mv: self.gap as u16,
            children: (self.gap >> 16) as u16,
            ..Node::EMPTY
        }
    }

    /// The cache a header slot holds, if any. (Small-code builds keep the header slots, the
    /// same tree layout, but neither fill nor read them: their one scan caches nothing.)
    #[cfg(not(feature = "compact-code"))]
    #[inline(always)]
    pub(crate) fn from_node(n: &Node) -> Option<ScanCache> {
        (n.visits != 0).then(|| ScanCache {
            chosen: n.visits - 1,
            runner_up: n.stat,
            explore: n.value,
            base: n.first_child,
            gap: u32::from(n.mv) | u32::from(n.children) << 16,
        })
    }
}

/// Node flag bits.
pub(crate) mod flag {
    /// Children have been allocated.
    pub const EXPANDED: u8 = 1;
    /// At least one simulation went through (or started at) the node.
    pub const VISITED: u8 = 2;
    /// The position is a finished game.
    pub const TERMINAL: u8 = 4;
    /// The mover into the node is the second player.
    pub const MOVER_SECOND: u8 = 8;
    /// Scratch mark used while compacting the pool for tree reuse.
    pub const KEEP: u8 = 16;
    /// Scratch mark used while compacting: `first_child` holds the parent's index.
    pub const PARKED: u8 = 32;
    /// Score bound from the solver: the mover into the node gets at least a draw.
    pub const AT_LEAST_DRAW: u8 = 64;
    /// Score bound from the solver: the mover into the node gets at most a draw.
    pub const AT_MOST_DRAW: u8 = 128;
}

/// One node of the search tree. See the module documentation for the layout.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(8))]
pub struct Node {
    pub(crate) visits: u32,
    /// The reward statistic: the sum of the rewards below
    /// [`MEAN_FROM`](super::stats::MEAN_FROM) visits, from there on the mean in fixed point
    /// (bits only, never read as a float; [`stats`](super::stats)).
    pub(crate) stat: f32,
    pub(crate) first_child: u32,
    pub(crate) value: f32,
    pub(crate) mv: u16,
    pub(crate) children: u16,
    pub(crate) added: u16,
    pub(crate) proven: Proven,
    pub(crate) flags: u8,
}

impl Default for Node {
    fn default() -> Self {
        Node::EMPTY
    }
}

impl Node {
    /// A blank node, for initialising pool memory.
    pub const EMPTY: Node = Node {
        visits: 0,
        stat: 0.0,
        first_child: u32::MAX,
        value: 0.0,
        mv: 0,
        children: 0,
        added: 0,
        proven: Proven::Unknown,
        flags: 0,
    };

    /// Simulations through this node (including node-prior virtual visits).
    #[inline(always)]
    pub fn visits(&self) -> u32 {
        self.visits
    }

    /// Mean reward for the mover into this node, in `[-1, 1]`; `0` before any visit.
    #[inline(always)]
    pub fn mean(&self) -> f32 {
        super::stats::mean(self.visits, self.stat)
    }

    /// Adds `visits` (at most [`MAX_ADDED_VISITS`](crate::search::config::MAX_ADDED_VISITS))
    /// and `reward` to the statistics ([`stats::add`](super::stats)): one test of the count
    /// where the sum goes on (a count that far below the threshold stays below it).
    #[cfg_attr(not(feature = "compact-code"), inline(always))]
    #[cfg_attr(feature = "compact-code", inline(never))]
    pub(crate) fn add_stats(&mut self, visits: u32, reward: f32) {
        const SUMS_BELOW: u32 = super::stats::MEAN_FROM - crate::search::config::MAX_ADDED_VISITS;
        debug_assert!(visits <= crate::search::config::MAX_ADDED_VISITS);
        if cfg!(feature = "compact-code") {
            // One copy of the update, out of line (the web page's module counts its bytes).
            (self.visits, self.stat) = super::stats::add(self.visits, self.stat, visits, reward);
        } else if self.visits < SUMS_BELOW {
            self.visits += visits;
            self.stat += reward;
        } else {
            self.add_stats_near_mean(visits, reward);
        }
    }

    /// [`add_stats`](Self::add_stats) near or past the threshold, out of the backup's loop.
    #[cold]
    #[inline(never)]
    fn add_stats_near_mean(&mut self, visits: u32, reward: f32) {
        (self.visits, self.stat) = super::stats::add(self.visits, self.stat, visits, reward);
    }

    /// Sets the statistics to `visits` visits whose rewards add up to `sum` (node priors,
    /// tests).
    #[inline]
    pub(crate) fn set_stats(&mut self, visits: u32, sum: f32) {
        self.visits = visits;
        self.stat = if visits < super::stats::MEAN_FROM {
            sum
        } else {
            super::stats::with_mean(visits, sum / visits as f32)
        };
    }

    /// The implicit minimax value for the mover into this node.
    #[inline(always)]
    pub fn value(&self) -> f32 {
        self.value
    }

    /// The solver's value for the mover into this node.
    #[inline(always)]
    pub fn proven(&self) -> Proven {
        self.proven
    }

    /// The move into this node, encoded.
    #[inline(always)]
    pub fn move_code(&self) -> u16 {
        self.mv
    }

    /// The player who moved into this node.
    #[inline(always)]
    pub fn mover(&self) -> Player {
        if self.flags & flag::MOVER_SECOND != 0 {
            Player::Second
        } else {
            Player::First
        }
    }

    /// The pool index of the first child (meaningful once the node is expanded).
    #[inline(always)]
    pub fn first_child_index(&self) -> u32 {
        self.first_child
    }

    #[inline(always)]
    pub(crate) fn is(&self, f: u8) -> bool {
        self.flags & f != 0
    }
}
