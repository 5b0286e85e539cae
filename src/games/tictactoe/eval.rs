//! The Tic-Tac-Toe evaluation: open lines.

use super::{LINES, TicTacToe};
use crate::game::{Game, Player};

/// The evaluation functions of Tic-Tac-Toe.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum TicTacToeEval {
    /// Open lines: every line free of the opponent's marks scores the number of own marks in it;
    /// the difference of both players' scores, `Δ`, gives `tanh(Δ / 4)`.
    #[default]
    OpenLines,
}

/// [`TicTacToeEval::OpenLines`] for `player`; terminal positions give their reward.
#[inline]
pub(super) fn evaluate(pos: &TicTacToe, player: Player) -> f32 {
    if let Some(o) = pos.outcome() {
        return o.reward(player);
    }
    let (me, them) = (pos.marks(player), pos.marks(player.opponent()));
    let mut diff = 0i32;
    for &l in &LINES {
        if l & them == 0 {
            diff += (l & me).count_ones() as i32;
        }
        if l & me == 0 {
            diff -= (l & them).count_ones() as i32;
        }
    }
    libm::tanhf(diff as f32 / 4.0)
}
