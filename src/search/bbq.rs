//! miniMax-MCTS with depth rewards and the BBQ (Big, Best, Quick win) framework of paper 003
//! (*Some improvements in Monte Carlo tree search algorithms for sudden death games*, ICGA
//! Journal 2018), as options of the ordinary searcher ([`BbqConfig`], in
//! [`MctsConfig::bbq`](super::config::MctsConfig::bbq)).
//!
//! The paper's formulas were lost in the text we have; what follows is our reading of the prose
//! around them, with every choice the text leaves open made explicit. Rewards here are in
//! `[-1, 1]` (the paper's win rates in `[0, 1]` are `(r + 1) / 2`, a draw being ½).
//!
//! - **Best win** (`best`, the paper's *miniMax-MCTS*): "the best (not the averaged) value of the
//!   descendants is back-propagated". A node's value used in selection is its playout mean only
//!   while it is a leaf; once it has visited children it is the best of them for the player to
//!   move there: in negamax storage `v(s) = ±max_c v(c)`, `+` when the same player moved into
//!   `s` and its children (Kalah's extra moves), `−` otherwise. Children count once visited;
//!   unvisited children (all-children expansion) and children not yet added (one-child
//!   expansion) are ignored, since they carry no playout information. A visited child's value is
//!   its own best value, or, for a finished position, its exact (depth-discounted) result, or,
//!   for a position the solver has proven, the proven reward. The value is stored as the node's
//!   mean (`reward = v·visits`), so selection, the final move choice and
//!   [`ChildStats::mean`](super::mcts::ChildStats::mean) all see it.
//! - **Quick win** (`quick`, the paper's *depth rewards*): "the fewer steps we play to win a
//!   game, the higher confidence we get; the longer path we defend for a losing game, the more
//!   chance we have to turn the tables", "the win rate is close to 1 or 0 if a move wins/loses a
//!   game immediately", and a playout beyond the maximum depth `D` is a draw. We read this as
//!   `r' = r · (1 − d/D)` for a simulation that ended `d` plies below the root: a win is worth
//!   `1 − d/D` to the winner and `−(1 − d/D)` to the loser, a draw stays `0`, and at `d = D` the
//!   reward reaches the draw value continuously, which is what makes the "longer than `D` is a
//!   draw" rule fit. `d` counts from the **root of the search**: tree plies plus playout plies,
//!   so rewards of different subtrees compare on one scale (the paper's Fig. 4 example, a
//!   "5-ply simulation", does not say which; counting from the root is the only choice under
//!   which a win found deeper in the tree is worth less than the same win found higher).
//!   The paper's "scale up by a factor" only keeps integer win counts in its code; with `f32`
//!   rewards no scaling is needed.
//! - **Depth cap** (`depthN`, default `D = 50` with `quick`, the paper's Depth(30/40/50)): a
//!   simulation that would go past `N` plies from the root stops there and counts as a draw (a
//!   game that ends at exactly ply `N` counts). Without `quick` it only caps; with it, it is
//!   also the `D` of the discount.
//! - **Big win** (`big`, an "on-going project" in the paper, which only says the reward should
//!   grow with the final score): a finished game with margin `m` for the winner (out of
//!   [`Game::MAX_MARGIN`]) is worth `½ + ½·m/MAX_MARGIN` to the winner and the negative to the
//!   loser, so every win still beats a draw and a narrow loss is better than a heavy one. It
//!   applies only to finished games (a heuristic playout cutoff has no score) and combines with
//!   `quick` by multiplication. Only scored games (Kalah) accept it. A position the solver has
//!   proven but that is not finished has no final score: the simulation reaching it counts the
//!   proven `±1` (discounted by `quick`), so proven wins stay on top.
//! - **Playouts per iteration** (`playoutsN`): each simulation runs `N` playouts from the leaf
//!   and backs them up as `N` visits with the sum of their rewards; a leaf that is a finished or
//!   proven position counts its result `N` times. The budget counts iterations (the paper's
//!   "100 iterations with 5 playouts"). `N` is at most 65,535 (more could wrap a visit count).
//!   A time budget is read every 64 playouts inside an iteration too; once it is spent the
//!   iteration's last leaf takes the mean of the playouts run so far, still as `N` visits
//!   (except in `compact-code` builds, the page's and the firmware's, whose iterations run to
//!   their end).
//! - **Dist(k)** (`distK`): expansion and playouts consider only the moves within distance `k` of
//!   the stones ([`Game::candidate_moves`]; every legal move for games without such a notion).
//!   Dist(∞) is the default. Solver proofs are then proofs within the restricted game.
//!
//! Everything is off by default, and the default searcher runs exactly the code it ran before
//! these options existed: [`Mcts`](super::mcts::Mcts) dispatches once per simulation to a
//! specialised copy of its simulation loop.

use crate::game::Game;

/// Depth cap used by `quick` when no `depthN` is given (the paper's best, Depth(50)).
pub const DEFAULT_MAX_DEPTH: u32 = 50;

/// The BBQ options. See the [module documentation](self) for what each one does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BbqConfig {
    /// Best win: back up the best child's value instead of the mean of all playouts.
    pub best: bool,
    /// Quick win: discount rewards by the depth from the root at which the simulation ended.
    pub quick: bool,
    /// Big win: scale the rewards of finished games by the final score margin.
    pub big: bool,
    /// The maximum simulation depth from the root; deeper simulations are draws. `None` means
    /// no cap, or [`DEFAULT_MAX_DEPTH`] with [`quick`](Self::quick).
    pub max_depth: Option<u32>,
    /// Dist(k): restrict expansion and playouts to [`Game::candidate_moves`] with this `k`.
    pub dist: Option<u8>,
    /// Playouts per iteration (1 to [`MAX_ADDED_VISITS`](super::config::MAX_ADDED_VISITS)).
    pub playouts: u32,
}

impl Default for BbqConfig {
    fn default() -> Self {
        Self::OFF
    }
}

impl BbqConfig {
    /// Everything off: plain MCTS (one playout per simulation, all legal moves, no depth cap).
    pub const OFF: BbqConfig = BbqConfig {
        best: false,
        quick: false,
        big: false,
        max_depth: None,
        dist: None,
        playouts: 1,
    };

    /// Whether any option is on (the searcher then runs its BBQ simulation loop).
    #[inline(always)]
    pub fn is_active(&self) -> bool {
        self.best
            || self.quick
            || self.big
            || self.max_depth.is_some()
            || self.dist.is_some()
            || self.playouts != 1
    }

    /// The depth cap in force: [`max_depth`](Self::max_depth), else [`DEFAULT_MAX_DEPTH`] with
    /// [`quick`](Self::quick), else none.
    #[inline]
    pub fn depth_cap(&self) -> Option<u32> {
        match self.max_depth {
            Some(d) => Some(d),
            None if self.quick => Some(DEFAULT_MAX_DEPTH),
            None => None,
        }
    }

    /// The reward a simulation contributes: `reward` (any player's view, in `[-1, 1]`) of a
    /// simulation that ended `depth` plies below the root, with `margin` the final score margin
    /// for the same player if the game finished there (`None` after a cutoff).
    ///
    /// Past the depth cap the result is a draw; `big` replaces a finished game's `±1` by
    /// `±(½ + ½·|margin|/MAX_MARGIN)`; `quick` multiplies by `1 − depth/D`.
    #[inline]
    pub fn shape<G: Game>(&self, reward: f32, depth: u32, margin: Option<i32>) -> f32 {
        let cap = self.depth_cap();
        if cap.is_some_and(|d| depth > d) {
            return 0.0;
        }
        let mut r = reward;
        if self.big && G::MAX_MARGIN > 0 && r != 0.0 {
            if let Some(m) = margin {
                let share =
                    (m.unsigned_abs().min(G::MAX_MARGIN as u32)) as f32 / G::MAX_MARGIN as f32;
                r = r.signum() * (0.5 + 0.5 * share);
            }
        }
        if self.quick {
            // Validation keeps `depthN` at 1 or more.
            let d = cap.unwrap_or(DEFAULT_MAX_DEPTH);
            r *= 1.0 - depth.min(d) as f32 / d as f32;
        }
        r
    }
}
