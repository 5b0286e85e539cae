//! The αβ baseline: negamax αβ with iterative deepening and a static move order.
//!
//! This is the opponent of the paper's Table 4 ("Our αβ search player uses iterative deepening
//! and a static move ordering"), generic over any [`Game`]:
//!
//! - **Search:** fail-soft negamax αβ with a full window at the root, deepened one ply per
//!   iteration from depth 1 up to [`AlphaBetaConfig::max_depth`]. No quiescence search, no
//!   pruning beyond αβ: at a fixed depth the value is exactly the minimax value of the
//!   depth-limited tree.
//! - **Move order:** the move from the [`TranspositionTable`] (at the root: the previous
//!   iteration's best move) first, then the others by [`Game::order_class`] descending, in
//!   generation order within a class (a stable sort). For Breakthrough that is the paper's order:
//!   decisive, anti-decisive, captures of defenceless pieces, other captures, quiet moves.
//! - **Scores** are from the side to move's point of view, in `[-1, 1]`:
//!   - a heuristic leaf scores [`Game::evaluate`] × [`HEURISTIC_SCALE`] (`31/32`), so every
//!     heuristic score lies in `[-0.96875, 0.96875]`;
//!   - a finished game reached `p` plies below the root scores `±(1 − p·WIN_PLY_STEP)` for a
//!     win / loss (`WIN_PLY_STEP = 2⁻¹²`, `p` capped at [`MAX_DEPTH`]) and `0` for a draw.
//!
//!   Every proven win therefore outranks every heuristic score, and among wins the quickest
//!   scores highest (among losses the slowest), so the engine closes out won games instead of
//!   delaying the win forever. Scaling the heuristic by a positive constant changes no decision
//!   of the search. See [`heuristic_score`], [`terminal_score`] and [`proven_plies`].
//! - **Budgets:** [`Budget::iterations`] and [`Budget::nodes`] both limit the number of nodes
//!   searched (every position visited counts, leaves and the root of each iteration
//!   included); the search never visits more. [`Budget::time_us`] is checked against the
//!   [`Clock`] every [`AlphaBetaConfig::clock_interval`] nodes and before each iteration. A
//!   budget with no limit at all runs one iteration (depth 1).
//! - **Interrupted iterations:** when a budget runs out during iteration `d + 1`, the result is
//!   that of iteration `d` — unless iteration `d + 1` had already finished searching at least
//!   one root move. Its first root move is iteration `d`'s best move, so the best move among the
//!   root moves it finished is at least as well founded as `d`'s: the result then takes the move,
//!   value (a lower bound on the depth-`d + 1` value) and principal variation from the partial
//!   iteration, while [`AlphaBetaResult::depth`] still reports `d`, the last completed depth.
//!   If not even iteration 1 finished a root move, the first move of the static order is
//!   returned with depth 0 and value 0.
//! - **Stopping early:** after a completed iteration the search stops if the root value is a
//!   proven win or loss ([`StopReason::Proven`]: deeper search cannot change it), if the root
//!   has a single legal move and [`AlphaBetaConfig::stop_on_single_move`] is set
//!   ([`StopReason::SingleMove`]), or at the maximum depth ([`StopReason::MaxDepth`]). It also
//!   stops with [`StopReason::MaxDepth`] when an iteration reached no heuristic leaf (every
//!   leaf it visited was a finished game, and every table hit it used came from such a
//!   subtree): the whole game tree is then resolved — the way a drawn game stops deepening.
//!
//! The game is walked by make/undo and left exactly as it was. Nothing allocates; recursion
//! depth is at most [`MAX_DEPTH`] frames, each holding a move list, the child's principal
//! variation ([`PV_CAPACITY`] moves), a 64-byte move-class cache and a few dozen bytes more
//! (for Breakthrough a few hundred bytes a frame in optimised builds, so tens of KiB of stack
//! at full depth; cap [`AlphaBetaConfig::max_depth`] on small targets).

mod order;
mod tt;

#[cfg(test)]
mod tests;

pub use tt::{TranspositionTable, TtEntry};

use crate::game::{Game, MoveBuffer, Outcome, Player};
use crate::search::config::{Check, ConfigError, Valid};
use crate::search::node::Proven;
use crate::search::{Budget, Clock, StopReason};
use order::MoveOrder;
use tt::Bound;

/// The deepest iteration the search runs, and the capacity of a principal variation.
pub const MAX_DEPTH: u32 = 64;

/// The capacity of [`Pv`].
pub const PV_CAPACITY: usize = MAX_DEPTH as usize;

/// A principal variation: the expected line of play from the root, best move first.
pub type Pv<G> = heapless::Vec<<G as Game>::Move, PV_CAPACITY>;

/// The factor applied to [`Game::evaluate`] at heuristic leaves (`31/32`), keeping heuristic
/// scores below every proven win.
pub const HEURISTIC_SCALE: f32 = 0.968_75;

/// How much a win loses per ply of distance from the root (`2⁻¹²`, exact in `f32`).
pub const WIN_PLY_STEP: f32 = 1.0 / 4096.0;

/// The smallest score of a proven win (a win [`MAX_DEPTH`] plies away): `1 − 64·2⁻¹²`.
/// Scores `≥ PROVEN_WIN` are proven wins, `≤ −PROVEN_WIN` proven losses.
pub const PROVEN_WIN: f32 = 1.0 - MAX_DEPTH as f32 * WIN_PLY_STEP;

// Every proven win must outrank every heuristic score.
const _: () = assert!(HEURISTIC_SCALE < PROVEN_WIN);

/// A bound beyond every score, used as the initial window.
const INFINITY: f32 = 2.0;

/// The score of a heuristic leaf whose [`Game::evaluate`] returned `eval`: clamped to `[-1, 1]`
/// (NaN counts as `0`), then scaled by [`HEURISTIC_SCALE`].
#[inline(always)]
pub fn heuristic_score(eval: f32) -> f32 {
    let v = if eval.is_nan() {
        0.0
    } else {
        eval.clamp(-1.0, 1.0)
    };
    v * HEURISTIC_SCALE
}

/// The score for `side` (the side to move) of a game that ended with `outcome`, reached `ply`
/// plies below the root: `1 − min(ply, 64)·2⁻¹²` for a win, its negation for a loss, `0` for a
/// draw.
#[inline]
pub fn terminal_score(outcome: Outcome, side: Player, ply: u32) -> f32 {
    match outcome.winner() {
        None => 0.0,
        Some(w) => {
            let s = 1.0 - ply.min(MAX_DEPTH) as f32 * WIN_PLY_STEP;
            if w == side { s } else { -s }
        }
    }
}

/// For a score returned by the search: `Some(p)` if it is a proven win in `p` plies (counted
/// from the root; `0` for an already finished root), `Some(-p)` for a proven loss in `p`
/// plies, `None` for a heuristic (or draw) score.
pub fn proven_plies(score: f32) -> Option<i32> {
    let plies = |s: f32| libm::roundf((1.0 - s) / WIN_PLY_STEP) as i32;
    if score >= PROVEN_WIN {
        Some(plies(score))
    } else if score <= -PROVEN_WIN {
        Some(-plies(-score))
    } else {
        None
    }
}

/// Converts a root-relative score into a node-relative one for the table: a proven result
/// counts its plies from the node at `ply` instead of from the root.
#[inline(always)]
fn to_tt(score: f32, ply: u32) -> f32 {
    if score >= PROVEN_WIN {
        score + ply as f32 * WIN_PLY_STEP
    } else if score <= -PROVEN_WIN {
        score - ply as f32 * WIN_PLY_STEP
    } else {
        score
    }
}

/// The inverse of [`to_tt`] for a node at `ply`; distances beyond [`MAX_DEPTH`] are capped.
#[inline(always)]
fn from_tt(score: f32, ply: u32) -> f32 {
    if score >= PROVEN_WIN {
        (score - ply as f32 * WIN_PLY_STEP).max(PROVEN_WIN)
    } else if score <= -PROVEN_WIN {
        (score + ply as f32 * WIN_PLY_STEP).min(-PROVEN_WIN)
    } else {
        score
    }
}

/// How the αβ search runs.
pub struct AlphaBetaConfig<G: Game> {
    /// The evaluation function for heuristic leaves (Breakthrough: efMS or efLH).
    pub eval: G::Eval,
    /// The deepest iteration, in plies, `1..=`[`MAX_DEPTH`]. Default `64`.
    pub max_depth: u32,
    /// How many nodes pass between two readings of the clock, when the budget has a time limit
    /// (at least `1`). Default `1024`.
    pub clock_interval: u32,
    /// Stop after iteration 1 when the root has a single legal move
    /// ([`StopReason::SingleMove`]). Default `true`.
    pub stop_on_single_move: bool,
}

impl<G: Game> AlphaBetaConfig<G> {
    /// The defaults with evaluation `eval`.
    pub fn new(eval: G::Eval) -> Self {
        AlphaBetaConfig {
            eval,
            max_depth: MAX_DEPTH,
            clock_interval: 1024,
            stop_on_single_move: true,
        }
    }
}

impl<G: Game> AlphaBetaConfig<G> {
    /// Checks the depth (`depthN`: 1 to [`MAX_DEPTH`]) and the clock interval (at least 1).
    pub fn validate(self) -> Result<Valid<Self>, ConfigError> {
        Check::AlphaBetaDepth.whole(crate::search::spec::label::DEPTH, self.max_depth.into())?;
        Check::Positive.whole("clock_interval", self.clock_interval.into())?;
        Ok(Valid::checked(self))
    }
}

impl<G: Game> Default for AlphaBetaConfig<G> {
    /// The game's default evaluation, depth 64, a clock reading every 1024 nodes, stop on a
    /// single legal move.
    fn default() -> Self {
        Self::new(G::Eval::default())
    }
}

impl<G: Game> Clone for AlphaBetaConfig<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for AlphaBetaConfig<G> {}

impl<G: Game> core::fmt::Debug for AlphaBetaConfig<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AlphaBetaConfig")
            .field("eval", &self.eval)
            .field("max_depth", &self.max_depth)
            .field("clock_interval", &self.clock_interval)
            .field("stop_on_single_move", &self.stop_on_single_move)
            .finish()
    }
}

/// What an αβ search found.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaResult<G: Game> {
    /// The move to play; `None` only when the root position is finished.
    pub best_move: Option<G::Move>,
    /// The score of the root for the side to move (see the [module docs](self) for the scale;
    /// [`proven_plies`] decodes proven results). For a finished root: its terminal score.
    pub value: f32,
    /// The depth of the last completed iteration (`0` if none completed).
    pub depth: u32,
    /// The nodes searched, over all iterations.
    pub nodes: u64,
    /// The principal variation, starting with [`best_move`](Self::best_move). It may be shorter
    /// than the depth: it ends at a finished game and where a table hit cut the search short.
    pub pv: Pv<G>,
    /// Why the search stopped.
    pub stop: StopReason,
    /// Whether [`value`](Self::value) is exact: the root is finished, or the last completed
    /// iteration reached no heuristic leaf (the whole game tree below the root was resolved).
    pub resolved: bool,
}

impl<G: Game> AlphaBetaResult<G> {
    /// The game-theoretic value for the side to move, when the search established it: a
    /// proven win or loss ([`proven_plies`]), or any exact value of a resolved tree (which is
    /// how a proven draw shows: a resolved `0`). The one derivation every host uses.
    pub fn proven(&self) -> Proven {
        if !self.resolved && proven_plies(self.value).is_none() {
            Proven::Unknown
        } else if self.value > 0.0 {
            Proven::Win
        } else if self.value < 0.0 {
            Proven::Loss
        } else {
            Proven::Draw
        }
    }
}

/// The search state shared by every node of one call to [`search`].
struct Searcher<'s, 't, G: Game, C: Clock> {
    eval: G::Eval,
    tt: Option<&'s mut TranspositionTable<'t>>,
    clock: &'s mut C,
    nodes: u64,
    /// The node limit and the reason to report when it is reached.
    node_limit: Option<(u64, StopReason)>,
    /// The start time and the allowed duration.
    time: Option<(u64, u64)>,
    clock_interval: u32,
    until_clock: u32,
    /// Set once a budget ran out: every node then returns at once and the iteration is void.
    aborted: Option<StopReason>,
    /// Whether the current subtree's value depends on a heuristic: a heuristic leaf was
    /// evaluated or a table entry not marked resolved cut the search.
    horizon: bool,
}

impl<G: Game, C: Clock> Searcher<'_, '_, G, C> {
    /// Whether the time budget is spent.
    fn out_of_time(&mut self) -> bool {
        match self.time {
            Some((start, limit)) => self.clock.now_us().saturating_sub(start) >= limit,
            None => false,
        }
    }

    /// Counts a node about to be searched; `false` (and the search aborts) if a budget is spent.
    #[inline(always)]
    fn enter(&mut self) -> bool {
        if self.aborted.is_some() {
            return false;
        }
        if let Some((limit, reason)) = self.node_limit {
            if self.nodes >= limit {
                self.aborted = Some(reason);
                return false;
            }
        }
        if self.time.is_some() {
            self.until_clock -= 1;
            if self.until_clock == 0 {
                self.until_clock = self.clock_interval;
                if self.out_of_time() {
                    self.aborted = Some(StopReason::Time);
                    return false;
                }
            }
        }
        self.nodes += 1;
        true
    }

    /// The table's move for `key` if it is legal here, and the entry.
    #[inline]
    fn probe(&self, game: &G, key: u64) -> (Option<G::Move>, Option<TtEntry>) {
        let Some(entry) = self.tt.as_ref().and_then(|t| t.probe(key)) else {
            return (None, None);
        };
        let mv = entry
            .move_code()
            .and_then(G::decode_move)
            .filter(|&m| game.is_legal(m));
        (mv, Some(entry))
    }

    /// Fail-soft negamax αβ of `game` to `depth` plies; `ply` is the distance from the root.
    /// Writes the principal variation below this node into `pv`. The value is meaningless once
    /// the search has aborted.
    fn node(
        &mut self,
        game: &mut G,
        depth: u32,
        ply: u32,
        mut alpha: f32,
        beta: f32,
        pv: &mut Pv<G>,
    ) -> f32 {
        pv.clear();
        if !self.enter() {
            return 0.0;
        }
        let side = game.side_to_move();
        if let Some(outcome) = game.outcome() {
            return terminal_score(outcome, side, ply);
        }
        if depth == 0 {
            self.horizon = true;
            return heuristic_score(game.evaluate(self.eval, side));
        }

        let key = game.key();
        let (tt_move, entry) = self.probe(game, key);
        if let Some(e) = entry {
            if e.depth as u32 >= depth {
                let v = from_tt(e.value, ply);
                let cut = match e.bound() {
                    Some(Bound::Exact) => true,
                    Some(Bound::Lower) => v >= beta,
                    Some(Bound::Upper) => v <= alpha,
                    None => false,
                };
                if cut {
                    self.horizon |= !e.resolved();
                    return v;
                }
            }
        }

        let mut list = G::MoveList::default();
        game.legal_moves(&mut list);
        let moves = list.moves();
        if moves.is_empty() {
            // Only a game breaking its contract (no moves, no outcome) gets here: call it a draw.
            return 0.0;
        }

        let outer_horizon = core::mem::replace(&mut self.horizon, false);
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move: Option<G::Move> = None;
        let mut child_pv = Pv::<G>::new();
        let mut order = MoveOrder::new(game, moves, tt_move);
        while let Some(mv) = order.next(game, moves) {
            let undo = game.make(mv);
            // Negamax flips the sign only when the turn passes: after a Kalah extra turn the
            // same player moves again and the child's score is already ours.
            let v = if game.side_to_move() == side {
                self.node(game, depth - 1, ply + 1, alpha, beta, &mut child_pv)
            } else {
                -self.node(game, depth - 1, ply + 1, -beta, -alpha, &mut child_pv)
            };
            game.undo(mv, undo);
            if self.aborted.is_some() {
                return 0.0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                    set_pv::<G>(pv, mv, &child_pv);
                    if v >= beta {
                        break;
                    }
                }
            }
        }

        let bound = if best <= alpha_orig {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // A fail-low node has no reliable best move: keep whatever the table had.
        let code = (bound != Bound::Upper)
            .then_some(best_move)
            .flatten()
            .map(G::encode_move);
        let resolved = !self.horizon;
        self.horizon |= outer_horizon;
        if let Some(t) = self.tt.as_mut() {
            t.store(key, depth, to_tt(best, ply), bound, code, resolved);
        }
        best
    }
}

/// `pv = [mv] + child`, truncated to the capacity.
#[inline]
fn set_pv<G: Game>(pv: &mut Pv<G>, mv: G::Move, child: &Pv<G>) {
    pv.clear();
    let _ = pv.push(mv);
    for &m in child.iter().take(PV_CAPACITY - 1) {
        let _ = pv.push(m);
    }
}

/// The outcome of one root iteration.
struct RootResult<G: Game> {
    best_move: Option<G::Move>,
    value: f32,
    pv: Pv<G>,
}

/// Searches every root move to `depth`, `first` first and then `moves` in order.
fn root_iteration<G: Game, C: Clock>(
    s: &mut Searcher<'_, '_, G, C>,
    game: &mut G,
    depth: u32,
    moves: &[G::Move],
    first: Option<G::Move>,
) -> RootResult<G> {
    let mut out = RootResult {
        best_move: None,
        value: -INFINITY,
        pv: Pv::<G>::new(),
    };
    if !s.enter() {
        return out;
    }
    s.horizon = false;
    let mut child_pv = Pv::<G>::new();
    let side = game.side_to_move();
    let rest = moves.iter().copied().filter(|&m| Some(m) != first);
    for mv in first.into_iter().chain(rest) {
        let undo = game.make(mv);
        // Fail-soft with a full window at first, then (-∞, best): a later move that does not
        // beat the best returns an upper bound ≤ best, one that does returns its exact value.
        // No sign flip when the same player moves again (Kalah's extra turns).
        let v = if game.side_to_move() == side {
            s.node(game, depth - 1, 1, out.value, INFINITY, &mut child_pv)
        } else {
            -s.node(game, depth - 1, 1, -INFINITY, -out.value, &mut child_pv)
        };
        game.undo(mv, undo);
        if s.aborted.is_some() {
            break;
        }
        if v > out.value {
            out.value = v;
            out.best_move = Some(mv);
            set_pv::<G>(&mut out.pv, mv, &child_pv);
        }
    }
    if s.aborted.is_none() {
        if let (Some(t), Some(mv)) = (s.tt.as_mut(), out.best_move) {
            t.store(
                game.key(),
                depth,
                out.value,
                Bound::Exact,
                Some(G::encode_move(mv)),
                !s.horizon,
            );
        }
    }
    out
}

/// Searches `game` with iterative-deepening αβ within `budget` and returns the best move found.
///
/// `tt` is an optional [`TranspositionTable`] (a zero-length one is the same as `None`);
/// `clock` is read only when `budget` has a time limit. `game` is left exactly as it was.
/// Never panics (for games that keep the [`Game`] contract). If the root is finished the result
/// has no move, [`StopReason::GameOver`] and the terminal score; otherwise it always holds a
/// legal move. Same inputs (table content included) give the same result.
///
/// See the [module docs](self) for scores, budgets and interrupted iterations.
pub fn search<G: Game, C: Clock>(
    game: &mut G,
    config: &Valid<AlphaBetaConfig<G>>,
    budget: Budget,
    mut tt: Option<&mut TranspositionTable<'_>>,
    clock: &mut C,
) -> AlphaBetaResult<G> {
    let side = game.side_to_move();
    let mut result = AlphaBetaResult {
        best_move: None,
        value: 0.0,
        depth: 0,
        nodes: 0,
        pv: Pv::<G>::new(),
        stop: StopReason::GameOver,
        resolved: false,
    };
    if let Some(outcome) = game.outcome() {
        result.value = terminal_score(outcome, side, 0);
        result.resolved = true;
        return result;
    }
    let mut list = G::MoveList::default();
    game.legal_moves(&mut list);
    if list.moves().is_empty() {
        // A game breaking its contract (no moves but not over): nothing to choose.
        return result;
    }

    // The static root order, computed once; each iteration puts the previous best move first.
    let mut root_moves = G::MoveList::default();
    {
        let moves = list.moves();
        let mut order = MoveOrder::new(game, moves, None);
        while let Some(mv) = order.next(game, moves) {
            root_moves.push_move(mv);
        }
    }
    let root_moves = root_moves.moves();
    result.best_move = root_moves.first().copied();
    if let Some(&mv) = root_moves.first() {
        let _ = result.pv.push(mv);
    }

    if let Some(t) = tt.as_mut() {
        t.new_search();
    }
    let node_limit = match (budget.iterations, budget.nodes) {
        (Some(i), Some(n)) if n < i => Some((n, StopReason::Nodes)),
        (Some(i), _) => Some((i, StopReason::Iterations)),
        (None, Some(n)) => Some((n, StopReason::Nodes)),
        (None, None) => None,
    };
    let unlimited = node_limit.is_none() && budget.time_us.is_none();
    let time = budget.time_us.map(|limit| (clock.now_us(), limit));
    let clock_interval = config.clock_interval;
    let mut first = {
        let key = game.key();
        tt.as_ref()
            .and_then(|t| t.probe(key))
            .and_then(|e| e.move_code())
            .and_then(G::decode_move)
            .filter(|&m| game.is_legal(m) && root_moves.contains(&m))
    };
    let mut s = Searcher::<G, C> {
        eval: config.eval,
        tt,
        clock,
        nodes: 0,
        node_limit,
        time,
        clock_interval,
        until_clock: clock_interval,
        aborted: None,
        horizon: false,
    };

    let max_depth = config.max_depth;
    result.stop = StopReason::MaxDepth;
    for depth in 1..=max_depth {
        if depth > 1 && s.out_of_time() {
            result.stop = StopReason::Time;
            break;
        }
        let r = root_iteration(&mut s, game, depth, root_moves, first);
        if let Some(reason) = s.aborted {
            if let Some(mv) = r.best_move {
                result.best_move = Some(mv);
                result.value = r.value;
                result.pv = r.pv;
            }
            result.stop = reason;
            break;
        }
        result.best_move = r.best_move;
        result.value = r.value;
        result.pv = r.pv;
        result.depth = depth;
        first = r.best_move;
        if proven_plies(r.value).is_some() {
            result.stop = StopReason::Proven;
            break;
        }
        if !s.horizon {
            // No heuristic leaf was reached: the value is the game-theoretic one.
            result.resolved = true;
            result.stop = StopReason::MaxDepth;
            break;
        }
        if root_moves.len() == 1 && config.stop_on_single_move {
            result.stop = StopReason::SingleMove;
            break;
        }
        if unlimited {
            result.stop = StopReason::Iterations;
            break;
        }
    }
    result.nodes = s.nodes;
    result
}
