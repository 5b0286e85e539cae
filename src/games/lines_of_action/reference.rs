//! A deliberately simple mailbox move generator, for tests and fuzzing only.
//!
//! It shares nothing with the bitboard generator but the [`Move`] type: a board of cells, loops
//! over squares and directions that count pieces by walking each line, its own depth-first
//! connectivity check and its own outcome, and copy-make instead of make/undo. It knows the rule
//! options but not the history, so it never declares a repetition draw or the ply cap.

use super::{LinesOfAction, LinesOfActionRules, Move};
use crate::game::{Game, Outcome, Player};

/// A mailbox Lines of Action board: `cells[rank][file]` is 0 (empty), 1 (Black) or 2 (White).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ReferenceBoard {
    /// The cells, rank 1 first.
    pub cells: [[u8; 8]; 8],
    /// The side to move.
    pub side: Player,
    /// The rule options.
    pub rules: LinesOfActionRules,
}

/// The eight directions as (rank step, file step).
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

fn on_board(r: i32, f: i32) -> bool {
    (0..8).contains(&r) && (0..8).contains(&f)
}

fn cell_of(player: Player) -> u8 {
    match player {
        Player::First => 1,
        Player::Second => 2,
    }
}

impl ReferenceBoard {
    /// Copies a bitboard position, square by square.
    pub fn from_position(pos: &LinesOfAction) -> Self {
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
            rules: pos.rules(),
        }
    }

    /// Whether every piece of `who` is reachable from one of them through 8-neighbours.
    pub fn connected(&self, who: u8) -> bool {
        let mut seen = [[false; 8]; 8];
        let mut stack: heapless::Vec<(i32, i32), 64> = heapless::Vec::new();
        let mut total = 0;
        let mut first = None;
        for r in 0..8 {
            for f in 0..8 {
                if self.cells[r][f] == who {
                    total += 1;
                    first = first.or(Some((r, f)));
                }
            }
        }
        if let Some((r, f)) = first {
            seen[r][f] = true;
            let _ = stack.push((r as i32, f as i32));
        }
        let mut reached = 0;
        while let Some((r, f)) = stack.pop() {
            reached += 1;
            for dr in -1..=1 {
                for df in -1..=1 {
                    let (nr, nf) = (r + dr, f + df);
                    if on_board(nr, nf)
                        && self.cells[nr as usize][nf as usize] == who
                        && !seen[nr as usize][nf as usize]
                    {
                        seen[nr as usize][nf as usize] = true;
                        let _ = stack.push((nr, nf));
                    }
                }
            }
        }
        total > 0 && reached == total
    }

    /// The moves of the pieces of the side to move (no pass), sorted by (from, to).
    fn piece_moves(&self) -> heapless::Vec<Move, 128> {
        let me = cell_of(self.side);
        let mut out = heapless::Vec::new();
        for r in 0..8i32 {
            for f in 0..8i32 {
                if self.cells[r as usize][f as usize] != me {
                    continue;
                }
                for (dr, df) in DIRECTIONS {
                    // Count the pieces on the whole line, walking both ways.
                    let mut count = 1;
                    for sign in [1, -1] {
                        let (mut lr, mut lf) = (r + sign * dr, f + sign * df);
                        while on_board(lr, lf) {
                            if self.cells[lr as usize][lf as usize] != 0 {
                                count += 1;
                            }
                            lr += sign * dr;
                            lf += sign * df;
                        }
                    }
                    let (tr, tf) = (r + count * dr, f + count * df);
                    if !on_board(tr, tf) || self.cells[tr as usize][tf as usize] == me {
                        continue;
                    }
                    let blocked = (1..count).any(|k| {
                        let c = self.cells[(r + k * dr) as usize][(f + k * df) as usize];
                        c != 0 && c != me
                    });
                    if !blocked {
                        let _ = out.push(Move {
                            from: (r * 8 + f) as u8,
                            to: (tr * 8 + tf) as u8,
                        });
                    }
                }
            }
        }
        out.sort_unstable_by_key(|m| (m.from, m.to));
        out
    }

    /// How the game ended, by the rules read literally (without history): connection of the
    /// side that just moved and/or of the side to move, or a side to move without moves under
    /// the "cannot move loses" option.
    pub fn outcome(&self) -> Option<Outcome> {
        let mover = self.side.opponent();
        let mover_done = self.connected(cell_of(mover));
        let to_move_done = self.connected(cell_of(self.side));
        if mover_done && to_move_done {
            return Some(if self.rules.simultaneous_mover_wins {
                Outcome::Win(mover)
            } else {
                Outcome::Draw
            });
        }
        if mover_done {
            return Some(Outcome::Win(mover));
        }
        if to_move_done {
            return Some(Outcome::Win(self.side));
        }
        if self.rules.no_move_loses && self.piece_moves().is_empty() {
            return Some(Outcome::Win(mover));
        }
        None
    }

    /// The legal moves, sorted by (from, to); the pass alone when no piece can move.
    pub fn moves(&self) -> heapless::Vec<Move, 128> {
        if self.outcome().is_some() {
            return heapless::Vec::new();
        }
        let mut moves = self.piece_moves();
        if moves.is_empty() {
            let _ = moves.push(Move::PASS);
        }
        moves
    }

    /// The board after `mv` (copy-make).
    pub fn play(&self, mv: Move) -> ReferenceBoard {
        let mut next = *self;
        if !mv.is_pass() {
            let (fr, ff) = (mv.from as usize / 8, mv.from as usize % 8);
            let (tr, tf) = (mv.to as usize / 8, mv.to as usize % 8);
            next.cells[tr][tf] = next.cells[fr][ff];
            next.cells[fr][ff] = 0;
        }
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

crate::games::reference::reference_game!(LinesOfAction, ReferenceBoard;
    fn history_decides(&self) -> bool {
        self.ended_by_history()
    }
);
