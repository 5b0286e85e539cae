//! A search-tree node: 24 bytes, statistics from the point of view of the player who moved into
//! it (negamax), children contiguous in the pool.
//!
//! | field         | bytes | what it costs and why it is there                                   |
//! |---------------|-------|---------------------------------------------------------------------|
//! | `visits`      | 4     | `n`: simulations through the node, plus node-prior virtual visits   |
//! | `reward`      | 4     | `r`: sum of rewards for the mover into the node (`f32`)             |
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
//! `visits` and `reward` come first and the node is 8-byte aligned, so the pair is one aligned
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
    pub(crate) reward: f32,
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
        reward: 0.0,
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
        if self.visits == 0 {
            0.0
        } else {
            self.reward / self.visits as f32
        }
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
