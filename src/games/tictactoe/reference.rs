//! A deliberately simple Tic-Tac-Toe implementation, for tests only.
//!
//! It shares nothing with the bitboard code but the [`Move`] type: a grid of characters,
//! explicit loops over rows, columns and diagonals, copy-make.

use super::{Move, TicTacToe};
use crate::game::{Game, Outcome, Player};

/// A character grid: `cells[row][col]` is `'X'`, `'O'` or `' '`, row 0 being row 1.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ReferenceTicTacToe {
    /// The cells.
    pub cells: [[char; 3]; 3],
    /// `'X'` or `'O'`: who moves.
    pub to_move: char,
}

impl ReferenceTicTacToe {
    /// Copies a position square by square.
    pub fn from_position(pos: &TicTacToe) -> Self {
        let mut cells = [[' '; 3]; 3];
        for (r, row) in cells.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let sq = r * 3 + c;
                if pos.marks(Player::First) >> sq & 1 != 0 {
                    *cell = 'X';
                } else if pos.marks(Player::Second) >> sq & 1 != 0 {
                    *cell = 'O';
                }
            }
        }
        ReferenceTicTacToe {
            cells,
            to_move: if pos.side_to_move() == Player::First {
                'X'
            } else {
                'O'
            },
        }
    }

    fn wins(&self, m: char) -> bool {
        let g = &self.cells;
        (0..3).any(|i| (0..3).all(|j| g[i][j] == m))
            || (0..3).any(|j| (0..3).all(|i| g[i][j] == m))
            || (0..3).all(|i| g[i][i] == m)
            || (0..3).all(|i| g[i][2 - i] == m)
    }

    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.wins('X') {
            Some(Outcome::Win(Player::First))
        } else if self.wins('O') {
            Some(Outcome::Win(Player::Second))
        } else if self.cells.iter().flatten().all(|&c| c != ' ') {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Legal moves in square order.
    pub fn moves(&self) -> heapless::Vec<Move, 9> {
        let mut v = heapless::Vec::new();
        if self.outcome().is_some() {
            return v;
        }
        for r in 0..3 {
            for c in 0..3 {
                if self.cells[r][c] == ' ' {
                    let _ = v.push(Move((r * 3 + c) as u8));
                }
            }
        }
        v
    }

    /// The grid after `mv`.
    pub fn play(&self, mv: Move) -> ReferenceTicTacToe {
        let mut n = *self;
        n.cells[mv.0 as usize / 3][mv.0 as usize % 3] = self.to_move;
        n.to_move = if self.to_move == 'X' { 'O' } else { 'X' };
        n
    }

    /// Perft by copy-make.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|&m| self.play(m).perft(depth - 1))
            .sum()
    }

    /// The number of complete games (move sequences until the game ends) from here.
    pub fn games(&self) -> u64 {
        let moves = self.moves();
        if moves.is_empty() {
            return 1;
        }
        moves.iter().map(|&m| self.play(m).games()).sum()
    }
}

crate::games::reference::reference_game!(TicTacToe, ReferenceTicTacToe);
