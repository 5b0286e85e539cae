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
    /// `text-solver`: MCTS-Solver as published. Without it (the paper's code, its
    /// `solverFix`), when a simulation finds a child proven lost for the side to move, that
    /// node's other children are expanded in order, up to the first one not lost, so children
    /// the opponent wins at once are proven at once. Only with all-children expansion.
    pub text_solver: bool,
    /// `text-proven`: with implicit minimax, a node the solver proves takes its proven value as
    /// its implicit value `v` ("⊤ and ⊥ always override approximations", the paper's text).
    /// Without it (the paper's code), a proven node keeps the `v` it had when it was proven
    /// (the max over its children computed before the proof, or at its expansion), and its
    /// parent's max takes that value like any other child's. Single-threaded search only.
    pub text_proven: bool,
    /// `code-proof-visits`: as the paper's code, a simulation that proves a node (or ends in a
    /// proven child) adds no visit to it: the code's `MCTS` returns at a proof before its
    /// `updateStats`, so only the nodes above the highest proof are updated. Without it every
    /// node of the path counts the visit. Proven nodes are never selected again, so this shows
    /// only in UCT's parent count with node priors (the children's visits summed) and in the
    /// order of proven losses for the final move. Off by default (a measured experiment, row
    /// B20 of `docs/reproduction.md`).
    pub code_proof_visits: bool,
    /// `code-end-eval`: as the paper's code, a child whose move ends the game gets the
    /// evaluation of the finished position as its static value (its implicit value `v`, and
    /// progressive bias's or evaluation priors' heuristic), as the code's `expand` evaluates
    /// every child ([`Game::paper_code_end_value`]: in Kalah the squashed difference of the
    /// stores with the houses not yet swept). Without it such a child's value is its result,
    /// `1`, `0` or `-1`. Off by default (row K4 of `docs/reproduction.md`).
    pub code_end_eval: bool,
    /// `code-unproven-draws`: as the paper's code, MCTS-Solver proves wins and losses only: a
    /// child whose move ends the game in a draw stays unproven (its simulations score it 0),
    /// and no draw bounds are kept. Without it a finished draw is proven and bounds its
    /// parent (score-bounded MCTS). Off by default (row K5 of `docs/reproduction.md`).
    pub code_unproven_draws: bool,
    /// `code-ties`: break UCT's ties as the paper's code does. Its children stand in its move
    /// generator's order ([`Game::paper_code_order`]) and selection takes the first of several
    /// visited children with equal scores (unvisited ones are still drawn at random), the final
    /// move the first of equally visited ones. Without it ties are drawn uniformly at random
    /// (final move: the higher mean). With rewards of exactly ±1 (`det`, node priors) such ties
    /// are common, and the code's order (most advanced rank first, for both sides) then steers
    /// its search: row B21 of `docs/reproduction.md`. The default is the game's
    /// [`Game::PAPER_CODE_TIES`] (on for Breakthrough; `random-ties` turns it off).
    pub code_ties: bool,
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
    /// Evaluation priors (`ep N`): a new unfinished child starts with `N` virtual visits whose
    /// mean reward is its static evaluation (`v0`), so that selection ranks a node's new
    /// children by the evaluation instead of visiting each of them once first; UCT's parent
    /// count is then the sum of the children's visits, as with node priors. For any game with
    /// an evaluation. Any count is valid (0 seeds nothing). A spec cannot name both `np` and
    /// `ep`; in a configuration built in code that sets both, node priors win in a game that
    /// has them.
    pub eval_priors: Option<u32>,
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
            text_solver: false,
            text_proven: false,
            code_proof_visits: false,
            code_end_eval: false,
            code_unproven_draws: false,
            code_ties: G::PAPER_CODE_TIES,
            value_mode: ValueMode::Mean,
            alpha: 0.0,
            eval: G::Eval::default(),
            expansion: Expansion::AllChildren,
            playout: PlayoutConfig::default(),
            node_priors: None,
            eval_priors: None,
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
        self.value_mode != ValueMode::Mean
            || self.progressive_bias.is_some()
            || self.eval_priors.is_some()
    }

    /// Whether new children start with virtual visits (node or evaluation priors), so that
    /// UCT's parent count is the sum of the children's visits.
    #[inline(always)]
    pub(crate) fn seeds_priors(&self) -> bool {
        (self.node_priors.is_some() && G::HAS_NODE_PRIORS) || self.eval_priors.is_some()
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

/// A configuration that passed its `validate`: every number finite and in its range, every
/// option one the game has. Searches take only this, so they never guard against a zero
/// interval or a NaN weight; the spec parser ([`super::spec`]) and the C ABI both build their
/// configurations through `validate`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Valid<C>(C);

impl<C> Valid<C> {
    /// The configuration.
    pub fn get(&self) -> &C {
        &self.0
    }

    /// The configuration, to change and validate again.
    pub fn into_inner(self) -> C {
        self.0
    }
}

impl<C> core::ops::Deref for Valid<C> {
    type Target = C;
    fn deref(&self) -> &C {
        &self.0
    }
}

/// Why a configuration is invalid: the spec label of the offending setting (or the field name
/// of settings no label writes) and what it allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The spec label that sets the value (`pb`, `depth`, …), or the field name.
    pub label: &'static str,
    /// What the label allows (a [`Check::allowed`] text, or why the game refuses it).
    pub allowed: &'static str,
}

impl core::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: {}", self.label, self.allowed)
    }
}

impl core::error::Error for ConfigError {}

/// The most visits a setting adds at once: the virtual visits of node priors (`np`) and
/// evaluation priors (`ep`) per child, and paper 003's playouts per simulation (`playouts`),
/// each of which adds that many visits to every node of its path. Bounded so that no visit
/// count can wrap before the search stops ([`super::ROOT_VISIT_LIMIT`]).
pub const MAX_ADDED_VISITS: u32 = 65_535;

/// How the number of a setting is checked. One value per kind of number, shared by the spec
/// parser (which parses and checks the digits after a label) and [`MctsConfig::validate`] /
/// [`AlphaBetaConfig::validate`](super::alphabeta::AlphaBetaConfig::validate), so the two can
/// never disagree about a range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// A real number in `[0, 1]` (`α`, `ε`, the `det` threshold).
    Unit,
    /// A finite real number `≥ 0` (the UCT constant, the progressive-bias weight).
    NonNegative,
    /// A whole number from 1 to 2³²−1 (intervals, counts that must not be zero).
    Positive,
    /// A whole number from 0 to 2³²−1.
    Count,
    /// A whole number from 1 to 255 (Dist(k)).
    Distance,
    /// A whole number from 1 to [`MAX_ADDED_VISITS`] (virtual visits, playouts per simulation).
    Visits,
    /// A whole number from 1 to 64 (αβ iterations, [`super::alphabeta::MAX_DEPTH`]).
    AlphaBetaDepth,
    /// Any whole number from 0 to 2⁶⁴−1 (seeds, table sizes).
    Any,
}

impl Check {
    /// What the check allows, for error messages and the documentation.
    pub const fn allowed(self) -> &'static str {
        match self {
            Check::Unit => "a number from 0 to 1",
            Check::NonNegative => "a finite number >= 0",
            Check::Positive => "a whole number from 1 to 4294967295",
            Check::Count => "a whole number from 0 to 4294967295",
            Check::Distance => "a whole number from 1 to 255",
            Check::Visits => "a whole number from 1 to 65535",
            Check::AlphaBetaDepth => "a whole number from 1 to 64",
            Check::Any => "a whole number from 0 to 18446744073709551615",
        }
    }

    /// Whether the check reads a real number (otherwise a whole number).
    pub const fn is_real(self) -> bool {
        matches!(self, Check::Unit | Check::NonNegative)
    }

    /// Whether `x` passes a real-number check (whole-number checks accept no real).
    pub fn accepts_real(self, x: f32) -> bool {
        match self {
            Check::Unit => (0.0..=1.0).contains(&x),
            Check::NonNegative => x.is_finite() && x >= 0.0,
            _ => false,
        }
    }

    /// Whether `n` passes a whole-number check (real-number checks accept no whole number).
    pub fn accepts_whole(self, n: u64) -> bool {
        match self {
            Check::Positive => (1..=u32::MAX as u64).contains(&n),
            Check::Count => n <= u32::MAX as u64,
            Check::Distance => (1..=255).contains(&n),
            Check::Visits => (1..=MAX_ADDED_VISITS as u64).contains(&n),
            Check::AlphaBetaDepth => (1..=super::alphabeta::MAX_DEPTH as u64).contains(&n),
            Check::Any => true,
            Check::Unit | Check::NonNegative => false,
        }
    }

    /// `Ok(())` if `x` passes, else the error naming `label`.
    pub(crate) fn real(self, label: &'static str, x: f32) -> Result<(), ConfigError> {
        self.verdict(label, self.accepts_real(x))
    }

    /// `Ok(())` if `n` passes, else the error naming `label`.
    pub(crate) fn whole(self, label: &'static str, n: u64) -> Result<(), ConfigError> {
        self.verdict(label, self.accepts_whole(n))
    }

    fn verdict(self, label: &'static str, ok: bool) -> Result<(), ConfigError> {
        if ok {
            Ok(())
        } else {
            Err(ConfigError {
                label,
                allowed: self.allowed(),
            })
        }
    }
}

/// Why the game refuses an option, for [`ConfigError::allowed`].
pub(crate) mod refusal {
    /// `ipp` in a game without an informed policy.
    pub const NO_INFORMED: &str = "this game has no informed playout policy";
    /// `np` in a game without node priors.
    pub const NO_PRIORS: &str = "this game has no node priors";
    /// `big` in an unscored game.
    pub const NO_MARGIN: &str = "big win needs a scored game (this game has no score margin)";
}

impl<G: Game> MctsConfig<G> {
    /// Checks every number against its range (the [`Check`] of the spec label that sets it)
    /// and every option against what the game offers; the error names the label.
    pub fn validate(self) -> Result<Valid<Self>, ConfigError> {
        use super::spec::label as l;
        let c = &self;
        Check::NonNegative.real(l::C, c.uct_c)?;
        let alpha_label = match c.value_mode {
            ValueMode::ConstantBias => l::CB,
            ValueMode::ProgressiveImplicit => l::PBIM,
            _ => l::IM,
        };
        Check::Unit.real(alpha_label, c.alpha)?;
        if c.playout.policy == PlayoutPolicy::Informed && !G::HAS_INFORMED_PLAYOUTS {
            return Err(ConfigError {
                label: l::IPP,
                allowed: refusal::NO_INFORMED,
            });
        }
        if c.playout.text_ipp && !G::HAS_INFORMED_PLAYOUTS {
            return Err(ConfigError {
                label: l::TEXT_IPP,
                allowed: refusal::NO_INFORMED,
            });
        }
        if let Some(e) = c.playout.epsilon_greedy {
            Check::Unit.real(l::EGE, e)?;
        }
        if let Some(d) = c.playout.dynamic_cutoff {
            Check::Unit.real(l::DET, d)?;
        }
        Check::Positive.whole(l::DETK, c.playout.det_interval.into())?;
        Check::Positive.whole("max_playout_plies", c.playout.max_plies.into())?;
        if let Some(n) = c.node_priors {
            if !G::HAS_NODE_PRIORS {
                return Err(ConfigError {
                    label: l::NP,
                    allowed: refusal::NO_PRIORS,
                });
            }
            Check::Visits.whole(l::NP, n.into())?;
        }
        if let Some(n) = c.eval_priors {
            Check::Visits.whole(l::EP, n.into())?;
        }
        if let Some(w) = c.progressive_bias {
            Check::NonNegative.real(l::PB, w)?;
        }
        if let Some(t) = c.max_backprop {
            Check::Positive.whole(l::MB, t.into())?;
        }
        if c.bbq.big && G::MAX_MARGIN <= 0 {
            return Err(ConfigError {
                label: l::BIG,
                allowed: refusal::NO_MARGIN,
            });
        }
        if let Some(d) = c.bbq.max_depth {
            Check::Positive.whole(l::DEPTH, d.into())?;
        }
        if let Some(k) = c.bbq.dist {
            Check::Distance.whole(l::DIST, k.into())?;
        }
        Check::Visits.whole(l::PLAYOUTS, c.bbq.playouts.into())?;
        Ok(Valid(self))
    }
}

impl<G: Game> Valid<MctsConfig<G>> {
    /// The same configuration with another seed (every seed is valid).
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.0.seed = seed;
        self
    }
}

impl<G: Game> Default for Valid<MctsConfig<G>> {
    /// The defaults of [`MctsConfig`], which are valid.
    fn default() -> Self {
        Valid(MctsConfig::default())
    }
}

impl<C> Valid<C> {
    /// Wraps a configuration that already passed its `validate` (a searcher giving back the
    /// configuration it was built from).
    pub(crate) fn checked(c: C) -> Self {
        Valid(c)
    }
}
