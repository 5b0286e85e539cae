//! Paper 003's experiments as library functions, so a host (the CLI, a test) only formats them:
//! the Tic-Tac-Toe win-rate tables (Tables 1–3) and small matches between two player specs
//! (the Outer-Open Gomoku comparisons of Tables 4–5). No allocation: node memory comes from
//! the caller.
//!
//! - [`root_win_rates`]: runs the same search from one position with `runs` seeds and averages
//!   each root move's win rate (`(mean + 1) / 2`, a draw being ½: the paper's "win rate", which
//!   with `best` is the backed-up best value) and its share of the root's visits.
//! - [`TTT_TABLES`]: the specs, positions, iteration counts and playouts per iteration of
//!   Tables 1–3.
//! - [`play_game`] / [`play_match`]: games between two MCTS configurations, colours alternating.
//! - [`GOMOKU_DIST_SPECS`] / [`GOMOKU_DEPTH_SPECS`]: the players of Tables 4 and 5.

use super::config::{MctsConfig, Valid};
use super::mcts::Mcts;
use super::node::Node;
use super::{Budget, NoClock};
use crate::game::{Game, MoveBuffer, Outcome, Player};

/// One root move's averaged statistics from [`root_win_rates`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveRate<M> {
    /// The move.
    pub mv: M,
    /// Mean over runs of the move's win rate for the side to move, `(mean + 1) / 2` in `[0, 1]`.
    pub win_rate: f32,
    /// Mean over runs of the move's share of the root's visits.
    pub visit_share: f32,
    /// Runs in which the move was visited at all (the win rate averages over these).
    pub runs_visited: u32,
}

/// Searches `position` `runs` times with `cfg` (seed `cfg.seed + run`) for `iterations`
/// iterations each and writes each legal root move's averaged [`MoveRate`] into `out`, in
/// legal-move order. Returns how many were written (at most `out.len()`).
///
/// Searches stop early only if the root gets proven (use `nosolver` to avoid that, as the
/// paper's MCTS has no solver).
pub fn root_win_rates<G: Game>(
    position: &G,
    cfg: Valid<MctsConfig<G>>,
    iterations: u64,
    runs: u32,
    nodes: &mut [Node],
    out: &mut [MoveRate<G::Move>],
) -> usize {
    let mut moves = G::MoveList::default();
    position.legal_moves(&mut moves);
    let n = moves.moves().len().min(out.len());
    let mut sums = [(0.0f64, 0.0f64, 0u32); 256];
    let n = n.min(sums.len());
    for run in 0..runs {
        let c = cfg.with_seed(cfg.seed.wrapping_add(run as u64));
        let mut mcts = Mcts::new(&mut *nodes, c);
        let mut game = position.clone();
        mcts.search(&mut game, Budget::iterations(iterations), &mut NoClock);
        let total: u64 = mcts.root_children().map(|s| s.visits as u64).sum();
        for s in mcts.root_children() {
            let Some(i) = moves.moves()[..n].iter().position(|&m| m == s.mv) else {
                continue;
            };
            if s.visits == 0 {
                continue;
            }
            sums[i].0 += ((s.mean + 1.0) / 2.0) as f64;
            sums[i].1 += s.visits as f64 / total.max(1) as f64;
            sums[i].2 += 1;
        }
    }
    for i in 0..n {
        let (w, v, k) = sums[i];
        out[i] = MoveRate {
            mv: moves.moves()[i],
            win_rate: if k > 0 {
                (w / k as f64) as f32
            } else {
                f32::NAN
            },
            visit_share: (v / runs.max(1) as f64) as f32,
            runs_visited: k,
        };
    }
    n
}

/// Which of the paper's Fig. 5 positions a table row uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fig5 {
    /// Fig. 5(a): O to move loses; `C2` delays the loss to the 4th ply, `B2` loses at once.
    A,
    /// Fig. 5(b): X to move wins with every move but `B2`, which draws.
    B,
}

/// One row group of the Tic-Tac-Toe tables: a player, a position, iterations and playouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TttRow {
    /// The paper's table number (1, 2 or 3).
    pub table: u8,
    /// The position.
    pub fig: Fig5,
    /// The player spec.
    pub spec: &'static str,
    /// Iterations per search.
    pub iterations: u64,
}

/// The paper's plain MCTS: UCT without solver, one child expanded per iteration.
pub const PLAIN: &str = "mcts(nosolver,one)";
/// Plain MCTS with 5 playouts per iteration.
pub const PLAIN5: &str = "mcts(nosolver,one,playouts5)";
/// The paper's miniMax-MCTS with depth rewards: best and quick win on top of [`PLAIN`].
pub const MINIMAX_DEPTH: &str = "mcts(nosolver,one,best,quick)";
/// miniMax-MCTS with depth rewards and 5 playouts per iteration.
pub const MINIMAX_DEPTH5: &str = "mcts(nosolver,one,best,quick,playouts5)";

/// Tables 1–3 of paper 003: Table 1 is Fig. 5(a) at 100 iterations with one playout, both
/// players; Tables 2 (plain MCTS) and 3 (miniMax-MCTS with depth rewards) are Fig. 5(b) at 20,
/// 100 and 200 iterations with 1 and 5 playouts per iteration.
pub const TTT_TABLES: [TttRow; 14] = [
    TttRow {
        table: 1,
        fig: Fig5::A,
        spec: PLAIN,
        iterations: 100,
    },
    TttRow {
        table: 1,
        fig: Fig5::A,
        spec: MINIMAX_DEPTH,
        iterations: 100,
    },
    TttRow {
        table: 2,
        fig: Fig5::B,
        spec: PLAIN,
        iterations: 20,
    },
    TttRow {
        table: 2,
        fig: Fig5::B,
        spec: PLAIN,
        iterations: 100,
    },
    TttRow {
        table: 2,
        fig: Fig5::B,
        spec: PLAIN,
        iterations: 200,
    },
    TttRow {
        table: 2,
        fig: Fig5::B,
        spec: PLAIN5,
        iterations: 20,
    },
    TttRow {
        table: 2,
        fig: Fig5::B,
        spec: PLAIN5,
        iterations: 100,
    },
    TttRow {
        table: 2,
        fig: Fig5::B,
        spec: PLAIN5,
        iterations: 200,
    },
    TttRow {
        table: 3,
        fig: Fig5::B,
        spec: MINIMAX_DEPTH,
        iterations: 20,
    },
    TttRow {
        table: 3,
        fig: Fig5::B,
        spec: MINIMAX_DEPTH,
        iterations: 100,
    },
    TttRow {
        table: 3,
        fig: Fig5::B,
        spec: MINIMAX_DEPTH,
        iterations: 200,
    },
    TttRow {
        table: 3,
        fig: Fig5::B,
        spec: MINIMAX_DEPTH5,
        iterations: 20,
    },
    TttRow {
        table: 3,
        fig: Fig5::B,
        spec: MINIMAX_DEPTH5,
        iterations: 100,
    },
    TttRow {
        table: 3,
        fig: Fig5::B,
        spec: MINIMAX_DEPTH5,
        iterations: 200,
    },
];

/// Table 4's players: Dist(1), Dist(2), Dist(3) and Dist(∞), on top of miniMax-MCTS with depth
/// rewards at the paper's chosen depth.
pub const GOMOKU_DIST_SPECS: [&str; 4] = [
    "mcts(best,quick,depth50,dist1)",
    "mcts(best,quick,depth50,dist2)",
    "mcts(best,quick,depth50,dist3)",
    "mcts(best,quick,depth50)",
];

/// Table 5's players: Depth(30), Depth(40) and Depth(50), with the paper's chosen Dist(1).
pub const GOMOKU_DEPTH_SPECS: [&str; 3] = [
    "mcts(best,quick,depth30,dist1)",
    "mcts(best,quick,depth40,dist1)",
    "mcts(best,quick,depth50,dist1)",
];

/// Plays one game from `start` between `players[0]` (moving first) and `players[1]`, each
/// searching `budget` per move with a fresh tree in `nodes`, and returns how it ended (a draw if
/// it lasts `max_plies` plies).
pub fn play_game<G: Game>(
    start: &G,
    players: [Valid<MctsConfig<G>>; 2],
    budget: Budget,
    nodes: &mut [Node],
    max_plies: u32,
) -> Outcome {
    let mut game = start.clone();
    let mut ply = 0u32;
    while game.outcome().is_none() && ply < max_plies {
        let side = game.side_to_move().index();
        let cfg = players[side];
        let cfg = cfg.with_seed(cfg.seed.wrapping_add(ply as u64));
        let mut mcts = Mcts::new(&mut *nodes, cfg);
        let Some(mv) = mcts.search(&mut game, budget, &mut NoClock).best else {
            break;
        };
        game.make(mv);
        ply += 1;
    }
    game.outcome().unwrap_or(Outcome::Draw)
}

/// The result of [`play_match`], from player A's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchScore {
    /// Games A won.
    pub wins: u32,
    /// Games A lost.
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
}

impl MatchScore {
    /// A's score rate: wins plus half the draws, over all games.
    pub fn rate(&self) -> f32 {
        let n = self.wins + self.losses + self.draws;
        if n == 0 {
            return 0.5;
        }
        (self.wins as f32 + 0.5 * self.draws as f32) / n as f32
    }
}

/// Plays `games` games from `start` between `a` and `b`, A moving first in even-numbered games;
/// game `i` adds `i · 1000` to both seeds so games differ.
pub fn play_match<G: Game>(
    start: &G,
    a: Valid<MctsConfig<G>>,
    b: Valid<MctsConfig<G>>,
    games: u32,
    budget: Budget,
    nodes: &mut [Node],
    max_plies: u32,
) -> MatchScore {
    let mut score = MatchScore::default();
    for i in 0..games {
        let a = a.with_seed(a.seed.wrapping_add(i as u64 * 1000));
        let b = b.with_seed(b.seed.wrapping_add(i as u64 * 1000 + 500));
        let a_first = i % 2 == 0;
        let players = if a_first { [a, b] } else { [b, a] };
        let a_side = if a_first {
            Player::First
        } else {
            Player::Second
        };
        match play_game(start, players, budget, nodes, max_plies) {
            Outcome::Draw => score.draws += 1,
            Outcome::Win(p) if p == a_side => score.wins += 1,
            Outcome::Win(_) => score.losses += 1,
        }
    }
    score
}
