//! A deliberately simple Outer-Open Gomoku implementation, for tests only.
//!
//! It shares nothing with the bitboard code but the [`Move`] type: a 15×15 grid, a full-board
//! scan for runs of stones, copy-make.

use super::{Gomoku, Move};
use crate::game::{Game, Outcome, Player};

/// A grid: `cells[row][col]` is 0 (empty), 1 (Black) or 2 (White); row 0 is row 1.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ReferenceGomoku {
    /// The cells.
    pub cells: [[u8; 15]; 15],
    /// 1 if Black moves, 2 if White moves.
    pub to_move: u8,
    /// Only exactly five wins.
    pub exact_five: bool,
}

impl ReferenceGomoku {
    /// Copies a position point by point.
    pub fn from_position(pos: &Gomoku) -> Self {
        let mut cells = [[0u8; 15]; 15];
        for (r, row) in cells.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let sq = r * 16 + c;
                if pos.stones(Player::First).contains(sq) {
                    *cell = 1;
                } else if pos.stones(Player::Second).contains(sq) {
                    *cell = 2;
                }
            }
        }
        ReferenceGomoku {
            cells,
            to_move: if pos.side_to_move() == Player::First {
                1
            } else {
                2
            },
            exact_five: pos.rules().exact_five,
        }
    }

    fn at(&self, r: i32, c: i32) -> u8 {
        if (0..15).contains(&r) && (0..15).contains(&c) {
            self.cells[r as usize][c as usize]
        } else {
            0
        }
    }

    /// Whether `who` has a winning run anywhere.
    pub fn has_won(&self, who: u8) -> bool {
        for r in 0..15 {
            for c in 0..15 {
                if self.at(r, c) != who {
                    continue;
                }
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    if self.at(r - dr, c - dc) == who {
                        continue; // not the start of the run
                    }
                    let mut len = 0;
                    while self.at(r + len * dr, c + len * dc) == who {
                        len += 1;
                    }
                    if len == 5 || (len > 5 && !self.exact_five) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn stones(&self) -> usize {
        self.cells.iter().flatten().filter(|&&x| x != 0).count()
    }

    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.has_won(1) {
            Some(Outcome::Win(Player::First))
        } else if self.has_won(2) {
            Some(Outcome::Win(Player::Second))
        } else if self.stones() == 225 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Legal moves in row-major order (row 1 first).
    pub fn moves(&self) -> heapless::Vec<Move, 225> {
        let mut v = heapless::Vec::new();
        if self.outcome().is_some() {
            return v;
        }
        let first = self.stones() == 0;
        for r in 0..15 {
            for c in 0..15 {
                let ring = !(2..=12).contains(&r) || !(2..=12).contains(&c);
                if self.cells[r][c] == 0 && (!first || ring) {
                    let _ = v.push(Move((r * 16 + c) as u8));
                }
            }
        }
        v
    }

    /// The grid after `mv`.
    pub fn play(&self, mv: Move) -> ReferenceGomoku {
        let mut n = *self;
        n.cells[(mv.0 / 16) as usize][(mv.0 % 16) as usize] = self.to_move;
        n.to_move = 3 - self.to_move;
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
}

crate::games::reference::reference_game!(Gomoku, ReferenceGomoku);
