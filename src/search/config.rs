//! MCTS configuration: every search variant of the papers is a value of [`MctsConfig`].
//! Player specs ([`super::spec`]) parse the papers' labels into it.

use crate::game::Game;

/// How the value used in selection mixes the playout mean with heuristic values (Eq. 2 and the
/// paper's two ablations). `α` is [`MctsConfig::alpha`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueMode {
    /// Plain UCT: `Q = r/n`.
    Mean,
    /// Implicit minimax backups: `Q_IM = (1−α)·r/n + α·v`, `v` backed up as the max over
    /// children (Algorithm 1).
    Implicit,
    /// Constant bias ablation: `Q_CB = (1−α)·r/n + α·v0(s′)`, the child's static evaluation.
    ConstantBias,
    /// Progressive bias of implicit values ablation: `Q_PB = (1−α)·r/n + α·v/(n+1)`.
    ProgressiveImplicit,
}

/// When a node's children enter the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// All children at once, each evaluated, with a one-ply backup (Algorithm 1).
    AllChildren,
    /// One new child per simulation through the node (the paper's memory-saving LOA variant):
    /// slots for every move are reserved, but a child is evaluated and becomes selectable only
    /// when it is added, in random order.
    OneChild,
}

/// Which move a playout plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutPolicy {
    /// Uniformly random legal moves.
    Random,
    /// The game's informed policy (`ipp` in Breakthrough, move categories in LOA).
    Informed,
    /// αβ playouts (`abp`): each move chosen by a 2-ply αβ search on the evaluation
    /// ([`super::shallow`]).
    AlphaBeta,
}

/// How playouts run and when they stop early.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutConfig {
    /// The move policy.
    pub policy: PlayoutPolicy,
    /// `ege ε`: with probability `1−ε` play the move whose result evaluates best for the mover
    /// (uniformly among those within `1e-4` of the best, as the paper's code does), otherwise a
    /// move of [`policy`](Self::policy). With the informed policy the greedy move is chosen
    /// among that policy's candidates and ties are weighted as it weights them
    /// ([`Game::informed_candidates`]).
    pub epsilon_greedy: Option<f32>,
    /// `fet x` (the paper's `pd x`): after `x` playout moves, stop and return the evaluation.
    pub fixed_cutoff: Option<u32>,
    /// `det x`: stop with ±1 as soon as the evaluation reaches ±x (checked every
    /// [`det_interval`](Self::det_interval) moves).
    pub dynamic_cutoff: Option<f32>,
    /// How often (in playout moves) `det` checks the evaluation; the paper's code used 5. As in
    /// that code, the first check comes after `det_interval` playout moves, not at the leaf.
    pub det_interval: u32,
    /// `text-det`: `det` stops when the evaluation reaches `±x` (`≥`, as the paper's text
    /// writes it) instead of when it passes `±x` (`>`, as the paper's code does).
    pub text_det: bool,
    /// `text-ipp`: the informed policy as the paper's text gives it
    /// ([`Game::informed_playout_move_text`]) instead
    /// of as its code does.
    pub text_ipp: bool,
    /// Playouts longer than this many moves end as a draw (a guard for long games).
    pub max_plies: u32,
}

impl Default for PlayoutConfig {
    fn default() -> Self {
        PlayoutConfig {
            policy: PlayoutPolicy::Random,
            epsilon_greedy: None,
            fixed_cutoff: None,
            dynamic_cutoff: None,
            det_interval: 5,
            text_det: false,
            text_ipp: false,
            max_plies: 1000,
        }
    }
}

/// The whole MCTS configuration. `Default` is plain UCT with MCTS-Solver, the game's UCT
/// constant and random playouts.
#[derive(Debug, PartialEq)]
pub struct MctsConfig<G: Game> {
    /// UCT exploration constant `C` of Eq. 1.
    pub uct_c: f32,
    /// MCTS-Solver: back up proven wins, losses and draws (on by default, as in the paper).
    pub solver: bool,
    /// How selection mixes in heuristic values.
    pub value_mode: ValueMode,
    /// `α` of Eq. 2 and of the ablations.
    pub alpha: f32,
    /// Which evaluation function heuristic values come from.
    pub eval: G::Eval,
    /// When children enter the tree.
    pub expansion: Expansion,
    /// Playout policy and early terminations.
    pub playout: PlayoutConfig,
    /// Node priors (`np N`): a new child starts with `N` virtual visits, a share of them wins
    /// given by [`Game::node_prior`].
    pub node_priors: Option<u32>,
    /// Progressive bias (`pb W`): adds `W·H/(n+1)` to a child's score, `H` from
    /// [`Game::move_bias`] or else the child's stored value.
    pub progressive_bias: Option<f32>,
    /// Max-backprop (`mb T`, Coulom): once a node has `T` visits it passes up the best child's
    /// mean instead of the playout result.
    pub max_backprop: Option<u32>,
    /// Stop the search when the pool is full (otherwise keep simulating in the tree it has).
    pub stop_when_full: bool,
    /// Keep the subtree of played moves between searches.
    pub reuse_tree: bool,
    /// Seed of the search's random number generator.
    pub seed: u64,
    /// miniMax-MCTS with depth rewards and the rest of paper 003's BBQ framework (best, quick and
    /// big win, the depth cap, Dist(k) candidates, playouts per iteration). All off by default.
    pub bbq: super::bbq::BbqConfig,
}

// Manual impls: a derive would demand `G: Copy`, but only `G::Eval` is stored.
impl<G: Game> Clone for MctsConfig<G> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G: Game> Copy for MctsConfig<G> {}

impl<G: Game> Default for MctsConfig<G> {
    fn default() -> Self {
        MctsConfig {
            uct_c: G::UCT_C,
            solver: true,
            value_mode: ValueMode::Mean,
            alpha: 0.0,
            eval: G::Eval::default(),
            expansion: Expansion::AllChildren,
            playout: PlayoutConfig::default(),
            node_priors: None,
            progressive_bias: None,
            max_backprop: None,
            stop_when_full: false,
            reuse_tree: false,
            seed: 0x1d5e_a5ed,
            bbq: super::bbq::BbqConfig::OFF,
        }
    }
}

impl<G: Game> MctsConfig<G> {
    /// Whether children need their evaluation computed when they enter the tree.
    #[inline]
    pub(crate) fn needs_child_eval(&self) -> bool {
        self.value_mode != ValueMode::Mean || self.progressive_bias.is_some()
    }

    /// Whether the implicit value `v` is backed up as the max over children.
    #[inline]
    pub(crate) fn backs_up_values(&self) -> bool {
        matches!(
            self.value_mode,
            ValueMode::Implicit | ValueMode::ProgressiveImplicit
        )
    }
}
