//! A deliberately simple mailbox move generator, for tests and fuzzing only.
//!
//! It shares nothing with the bitboard generator but the [`Move`] type: a board of cells,
//! loops over squares and directions, copy-make instead of make/undo. Perft counts from it are
//! the independent reference for the bitboard code.

use super::{Breakthrough, Move};
use crate::game::{Game, Outcome, Player};

/// A mailbox Breakthrough board: `cells[rank][file]` is 0 (empty), 1 (White) or 2 (Black).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ReferenceBoard {
    /// The cells, rank 1 first.
    pub cells: [[u8; 8]; 8],
    /// The side to move.
    pub side: Player,
}

impl ReferenceBoard {
    /// Copies a bitboard position, square by square.
    pub fn from_position(pos: &Breakthrough) -> Self {
        let mut cells = [[0u8; 8]; 8];
        for (rank, row) in cells.iter_mut().enumerate() {
            for (file, cell) in row.iter_mut().enumerate() {
                let sq = rank * 8 + file;
                if pos.pieces(Player::First).contains(sq as u8) {
                    *cell = 1;
                } else if pos.pieces(Player::Second).contains(sq as u8) {
                    *cell = 2;
                }
            }
        }
        ReferenceBoard {
            cells,
            side: pos.side_to_move(),
        }
    }

    fn count(&self, who: u8) -> usize {
        self.cells.iter().flatten().filter(|&&c| c == who).count()
    }

    /// How the game ended, by the rules read literally.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.cells[7].contains(&1) || self.count(2) == 0 {
            Some(Outcome::Win(Player::First))
        } else if self.cells[0].contains(&2) || self.count(1) == 0 {
            Some(Outcome::Win(Player::Second))
        } else {
            None
        }
    }

    /// The legal moves, sorted by (from, to).
    pub fn moves(&self) -> heapless::Vec<Move, 64> {
        let mut out = heapless::Vec::new();
        if self.outcome().is_some() {
            return out;
        }
        let (me, forward): (u8, i32) = match self.side {
            Player::First => (1, 1),
            Player::Second => (2, -1),
        };
        for rank in 0..8i32 {
            for file in 0..8i32 {
                if self.cells[rank as usize][file as usize] != me {
                    continue;
                }
                for df in [-1, 0, 1] {
                    let (r, f) = (rank + forward, file + df);
                    if !(0..8).contains(&r) || !(0..8).contains(&f) {
                        continue;
                    }
                    let target = self.cells[r as usize][f as usize];
                    let ok = if df == 0 { target == 0 } else { target != me };
                    if ok {
                        let _ = out.push(Move {
                            from: (rank * 8 + file) as u8,
                            to: (r * 8 + f) as u8,
                        });
                    }
                }
            }
        }
        out.sort_unstable_by_key(|m| (m.from, m.to));
        out
    }

    /// The board after `mv` (copy-make).
    pub fn play(&self, mv: Move) -> ReferenceBoard {
        let mut next = *self;
        let (fr, ff) = (mv.from as usize / 8, mv.from as usize % 8);
        let (tr, tf) = (mv.to as usize / 8, mv.to as usize % 8);
        next.cells[tr][tf] = next.cells[fr][ff];
        next.cells[fr][ff] = 0;
        next.side = self.side.opponent();
        next
    }

    /// Perft by copy-make, without bulk counting.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|&mv| self.play(mv).perft(depth - 1))
            .sum()
    }
}

crate::games::reference::reference_game!(Breakthrough, ReferenceBoard);
