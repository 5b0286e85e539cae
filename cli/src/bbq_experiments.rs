//! Paper 003's experiments, for `imcts experiment ttt-tables|gomoku-dist|gomoku-depth`: the
//! Tic-Tac-Toe win-rate tables (Tables 1–3) and the players of the Outer-Open Gomoku
//! comparisons (Tables 4–5, played as matches by [`crate::arena`]). Host code, not kernel code:
//! the kernel only searches.
//!
//! - [`root_win_rates`]: runs the same search from one position with `runs` seeds and averages
//!   each root move's win rate (`(mean + 1) / 2`, a draw being ½: the paper's "win rate", which
//!   with `best` is the backed-up best value) and its share of the root's visits.
//! - [`TIC_TAC_TOE_TABLES`]: the specs, positions, iteration counts and playouts per iteration of
//!   Tables 1–3.
//! - [`GOMOKU_DIST_SPECS`] / [`GOMOKU_DEPTH_SPECS`]: the players of Tables 4 and 5.

use imcts::search::config::{MctsConfig, Valid};
use imcts::search::mcts::Mcts;
use imcts::search::node::Node;
use imcts::search::{Budget, NoClock};
use imcts::{Game, MoveBuffer};

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
pub struct TicTacToeRow {
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
pub const TIC_TAC_TOE_TABLES: [TicTacToeRow; 14] = [
    TicTacToeRow {
        table: 1,
        fig: Fig5::A,
        spec: PLAIN,
        iterations: 100,
    },
    TicTacToeRow {
        table: 1,
        fig: Fig5::A,
        spec: MINIMAX_DEPTH,
        iterations: 100,
    },
    TicTacToeRow {
        table: 2,
        fig: Fig5::B,
        spec: PLAIN,
        iterations: 20,
    },
    TicTacToeRow {
        table: 2,
        fig: Fig5::B,
        spec: PLAIN,
        iterations: 100,
    },
    TicTacToeRow {
        table: 2,
        fig: Fig5::B,
        spec: PLAIN,
        iterations: 200,
    },
    TicTacToeRow {
        table: 2,
        fig: Fig5::B,
        spec: PLAIN5,
        iterations: 20,
    },
    TicTacToeRow {
        table: 2,
        fig: Fig5::B,
        spec: PLAIN5,
        iterations: 100,
    },
    TicTacToeRow {
        table: 2,
        fig: Fig5::B,
        spec: PLAIN5,
        iterations: 200,
    },
    TicTacToeRow {
        table: 3,
        fig: Fig5::B,
        spec: MINIMAX_DEPTH,
        iterations: 20,
    },
    TicTacToeRow {
        table: 3,
        fig: Fig5::B,
        spec: MINIMAX_DEPTH,
        iterations: 100,
    },
    TicTacToeRow {
        table: 3,
        fig: Fig5::B,
        spec: MINIMAX_DEPTH,
        iterations: 200,
    },
    TicTacToeRow {
        table: 3,
        fig: Fig5::B,
        spec: MINIMAX_DEPTH5,
        iterations: 20,
    },
    TicTacToeRow {
        table: 3,
        fig: Fig5::B,
        spec: MINIMAX_DEPTH5,
        iterations: 100,
    },
    TicTacToeRow {
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

#[cfg(test)]
mod tests {
    //! Tables 1 and 3 in small, and the full tables for `docs/bbq.md` (ignored).

    use super::*;
    use imcts::games::tictactoe::{FIG5A, FIG5B, TicTacToe};
    use imcts::search::spec;

    fn cfg<G: Game>(s: &str) -> Valid<MctsConfig<G>> {
        spec::parse_mcts::<G>(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn tic_tac_toe_move(p: &TicTacToe, sq: &str) -> <TicTacToe as Game>::Move {
        p.parse_move(sq).unwrap()
    }

    fn rates(
        fig: Fig5,
        spec_text: &str,
        iterations: u64,
        runs: u32,
    ) -> Vec<MoveRate<<TicTacToe as Game>::Move>> {
        let p = match fig {
            Fig5::A => FIG5A,
            Fig5::B => FIG5B,
        };
        let mut nodes = vec![Node::EMPTY; 5_000];
        let mut out = [MoveRate {
            mv: tic_tac_toe_move(&TicTacToe::new(), "A1"),
            win_rate: 0.0,
            visit_share: 0.0,
            runs_visited: 0,
        }; 9];
        let n = root_win_rates(
            &p,
            cfg::<TicTacToe>(spec_text),
            iterations,
            runs,
            &mut nodes,
            &mut out,
        );
        out[..n].to_vec()
    }

    #[test]
    fn table1_depth_rewards_separate_b2_from_c2() {
        let b2 = tic_tac_toe_move(&FIG5A, "B2");
        let c2 = tic_tac_toe_move(&FIG5A, "C2");
        let get = |rs: &[MoveRate<_>], mv| rs.iter().find(|r| r.mv == mv).unwrap().win_rate;
        let plain = rates(Fig5::A, PLAIN, 100, 200);
        let bbq = rates(Fig5::A, MINIMAX_DEPTH, 100, 200);
        let shares: f32 = bbq.iter().map(|r| r.visit_share).sum();
        assert!((shares - 1.0).abs() < 1e-3);
        // Depth rewards: B2 (loss at ply 2) at about 0.02, C2 (loss at ply 4 or later) clearly
        // above it; plain MCTS puts the two within a few hundredths of each other.
        assert!(get(&bbq, b2) < 0.03, "{bbq:?}");
        assert!(get(&bbq, c2) > get(&bbq, b2) + 0.03, "{bbq:?}");
        let gap_plain = (get(&plain, c2) - get(&plain, b2)).abs();
        assert!(gap_plain < 0.05, "{plain:?}");
        assert!(get(&plain, b2) > 0.1 && get(&plain, c2) > 0.1, "{plain:?}");
    }

    #[test]
    fn table3_depth_rewards_rank_b2_last_in_fig5b() {
        // Fig. 5(b) with 5 playouts per iteration: the drawing B2 gets the lowest win rate, near
        // the draw's ½ (pessimistic, as a min over noisy replies is); the winning moves are
        // above it.
        let b2 = tic_tac_toe_move(&FIG5B, "B2");
        let rs = rates(Fig5::B, MINIMAX_DEPTH5, 100, 100);
        let b = rs.iter().find(|r| r.mv == b2).unwrap().win_rate;
        for r in &rs {
            if r.mv != b2 {
                assert!(r.win_rate > b + 0.03, "{rs:?}");
            }
        }
        assert!((b - 0.5).abs() < 0.15, "B2 draws: {rs:?}");
    }

    /// The full Tic-Tac-Toe tables for `docs/bbq.md`:
    /// `cargo test --release -p imcts-cli bbq_tables_full -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn bbq_tables_full() {
        // BBQ_EXTRA=c2 appends a label to every spec (e.g. to vary the UCT constant).
        let extra = std::env::var("BBQ_EXTRA").unwrap_or_default();
        for row in TIC_TAC_TOE_TABLES {
            let spec_text = if extra.is_empty() {
                String::from(row.spec)
            } else {
                format!("{},{extra})", row.spec.trim_end_matches(')'))
            };
            let rs = rates(row.fig, &spec_text, row.iterations, 1000);
            let p = match row.fig {
                Fig5::A => FIG5A,
                Fig5::B => FIG5B,
            };
            let mut line = format!(
                "T{} {:?} {:48} {:>4} |",
                row.table, row.fig, spec_text, row.iterations
            );
            for r in &rs {
                line += &format!(
                    " {} {:.2} ({:.2})",
                    imcts::game::move_string(&p, r.mv),
                    r.win_rate,
                    r.visit_share
                );
            }
            println!("{line}");
        }
    }

    #[test]
    fn gomoku_players_play_deterministic_matches() {
        // The Gomoku tables' players through the CLI's match runner, as `imcts experiment
        // gomoku-dist|gomoku-depth` play them: every game is counted, and a seed fixes them.
        let spec = crate::arena::MatchSpec {
            a: GOMOKU_DIST_SPECS[0].into(),
            b: GOMOKU_DEPTH_SPECS[0].into(),
            games: 2,
            budget: Budget::iterations(150),
            b_budget: None,
            threads: 1,
            search_threads: [1, 1],
            parallel: [crate::search::Parallel::Tree; 2],
            seed: 7,
            openings: Vec::new(),
            shard: crate::shard::Shard::WHOLE,
        };
        let play = || {
            let m = crate::arena::run_match_with::<imcts::games::gomoku::Gomoku>(
                &spec,
                Vec::new(),
                |_, _| {},
                |_| Ok(()),
            )
            .unwrap();
            let moves: Vec<Vec<String>> = m.records.into_iter().map(|r| r.moves).collect();
            (m.tally.counted(), moves)
        };
        let (counted, moves) = play();
        assert_eq!(counted, 2);
        assert_eq!(moves, play().1, "matches are deterministic");
    }

    #[test]
    fn experiment_specs_parse() {
        for s in GOMOKU_DIST_SPECS.iter().chain(&GOMOKU_DEPTH_SPECS) {
            cfg::<imcts::games::gomoku::Gomoku>(s);
        }
        for row in TIC_TAC_TOE_TABLES {
            cfg::<TicTacToe>(row.spec);
        }
    }
}
