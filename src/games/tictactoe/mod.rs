//! Tic-Tac-Toe on two 9-bit bitboards.
//!
//! ## Rules
//! 3×3 board; X ([`Player::First`]) moves first, then O, alternately placing a mark on an empty
//! square. Three marks of one player in a row, column or diagonal win; a full board without a
//! line is a draw.
//!
//! ## Coordinates
//! As in the ICGA paper on miniMax-MCTS (paper 003): columns `A`–`C` from left to right, rows
//! `1`–`3` from bottom to top, so `A1` is the bottom-left corner, `B2` the centre and `C3` the
//! top-right corner. Lower case is accepted (`b2`). Square `A1` is bit 0, `C1` bit 2, `A3` bit 6:
//! bit `3·(row − 1) + column`.
//!
//! ## Position strings
//! Three rows from row 3 (top) down to row 1, separated by `/`, each three characters `X`, `O`
//! or `.` (lower-case `x`/`o` accepted), then a space and the side to move, `x` or `o`. The side
//! must agree with the counts (X moves when both have as many marks, O when X has one more).
//! The start is `.../.../... x`.

mod eval;
mod notation;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
#[cfg(test)]
mod tests;

use crate::game::{Game, MoveBuffer, Outcome, ParseError, Player, Problem};
use core::fmt::{self, Write};

pub use eval::TicTacToeEval;

/// Most legal moves: the empty board's nine squares.
pub const MAX_MOVES: usize = 9;
/// All nine squares.
pub const FULL: u16 = 0x1FF;
/// The eight winning lines as square masks: rows, columns, diagonals.
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// A Tic-Tac-Toe move: the square index `0..9` (bit `3·(row − 1) + column`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move(pub u8);

/// The fixed-capacity legal-move list of Tic-Tac-Toe.
pub type MoveList = heapless::Vec<Move, MAX_MOVES>;

/// A Tic-Tac-Toe position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct TicTacToe {
    /// Marks of X and O, indexed by [`Player::index`].
    marks: [u16; 2],
    side: Player,
}

impl Default for TicTacToe {
    fn default() -> Self {
        Self::start()
    }
}

/// Whether `marks` contains a full line.
#[inline(always)]
fn has_line(marks: u16) -> bool {
    let mut i = 0;
    while i < LINES.len() {
        if marks & LINES[i] == LINES[i] {
            return true;
        }
        i += 1;
    }
    false
}

/// Paper 003, Fig. 5(a), as reconstructed from the paper's text (the figure itself is an image):
/// O to move loses wherever it plays, and only `C2` (blocking X's column C) delays the loss to
/// the 4th ply; every other move lets X complete column C at once.
///
/// X: `C1`, `C3`; O: `B3`. Position string `.OX/.../..X o`. The text does not pin the position
/// down: an exhaustive search finds seven positions with these properties (all with X on `C1`
/// and `C3`); this one shares O's `B3` with Fig. 5(b).
pub const FIG5A: TicTacToe = TicTacToe {
    marks: [1 << 2 | 1 << 8, 1 << 7],
    side: Player::Second,
};

/// Paper 003, Fig. 5(b), as reconstructed from the paper's text: X to move with five empty
/// squares (`A1`, `C1`, `A2`, `B2`, `C2`) wins with every move except `B2`, which only draws.
///
/// X: `B1`, `A3`; O: `B3`, `C3`. Position string `XOO/.../.X. x`. Up to the left-right mirror
/// image `OOX/.../.X. x`, this is the only position with X to move, five empty squares
/// including `A1`, `B2` and `C2` (which the paper's tables name) and these properties.
pub const FIG5B: TicTacToe = TicTacToe {
    marks: [1 << 1 | 1 << 6, 1 << 7 | 1 << 8],
    side: Player::First,
};

impl TicTacToe {
    /// The empty board, X to move.
    pub const fn start() -> Self {
        TicTacToe {
            marks: [0, 0],
            side: Player::First,
        }
    }

    /// Builds a position from both players' marks (9-bit masks), checking that it could occur:
    /// no square marked twice, X has as many marks as O or one more, at most one player with a
    /// line, made by the player who moved last. The side to move follows from the counts.
    pub fn from_marks(x: u16, o: u16) -> Result<Self, ParseError> {
        let err = |why| Err(ParseError::new("position", Problem::Inconsistent(why)));
        if (x | o) & !FULL != 0 {
            return Err(ParseError::new("position", Problem::OutOfRange));
        }
        if x & o != 0 {
            return err("a square holds two marks");
        }
        let (nx, no) = (x.count_ones(), o.count_ones());
        let side = if nx == no {
            Player::First
        } else if nx == no + 1 {
            Player::Second
        } else {
            return err("X must have as many marks as O or one more");
        };
        if has_line(x) && has_line(o) {
            return err("both players have a line");
        }
        if (has_line(x) && side == Player::First) || (has_line(o) && side == Player::Second) {
            return err("the side to move already has a line");
        }
        Ok(TicTacToe {
            marks: [x, o],
            side,
        })
    }

    /// The marks of `player` as a 9-bit mask.
    #[inline(always)]
    pub const fn marks(&self, player: Player) -> u16 {
        self.marks[player.index()]
    }

    /// The empty squares.
    #[inline(always)]
    pub const fn empty(&self) -> u16 {
        !(self.marks[0] | self.marks[1]) & FULL
    }

    #[inline(always)]
    fn over(&self) -> bool {
        self.empty() == 0 || has_line(self.marks[0]) || has_line(self.marks[1])
    }

    /// Parses a square such as `B2` or `b2` into its index.
    pub fn parse_square(text: &str) -> Result<u8, ParseError> {
        let mut chars = text.chars();
        let (Some(c), Some(r)) = (chars.next(), chars.next()) else {
            return Err(ParseError::new(
                "square",
                if text.is_empty() {
                    Problem::Empty
                } else {
                    Problem::BadLength {
                        expected: 2,
                        found: 1,
                    }
                },
            ));
        };
        if chars.next().is_some() {
            return Err(ParseError::new(
                "square",
                Problem::BadLength {
                    expected: 2,
                    found: text.chars().count().min(u16::MAX as usize) as u16,
                },
            ));
        }
        let col = match c {
            'A'..='C' => c as u8 - b'A',
            'a'..='c' => c as u8 - b'a',
            'D'..='Z' | 'd'..='z' => return Err(ParseError::new("column", Problem::OutOfRange)),
            _ => return Err(ParseError::new("column", Problem::UnexpectedChar(c))),
        };
        let row = match r {
            '1'..='3' => r as u8 - b'1',
            '0' | '4'..='9' => return Err(ParseError::new("row", Problem::OutOfRange)),
            _ => return Err(ParseError::new("row", Problem::UnexpectedChar(r))),
        };
        Ok(row * 3 + col)
    }

    /// Writes a square index as `B2` (upper case).
    pub fn write_square<W: Write>(sq: u8, out: &mut W) -> fmt::Result {
        let sq = sq % 9;
        out.write_char(char::from(b'A' + sq % 3))?;
        out.write_char(char::from(b'1' + sq / 3))
    }
}

impl Game for TicTacToe {
    type Move = Move;
    type Undo = ();
    type MoveList = MoveList;
    type Eval = TicTacToeEval;

    const NAME: &'static str = "tictactoe";
    const EVALS: &'static [(&'static str, TicTacToeEval)] = &[("lines", TicTacToeEval::OpenLines)];
    const MAX_MOVES: usize = MAX_MOVES;
    const MAX_GAME_PLIES: u32 = 9;

    fn new() -> Self {
        Self::start()
    }

    #[inline(always)]
    fn side_to_move(&self) -> Player {
        self.side
    }

    #[inline]
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear_moves();
        if self.over() {
            return;
        }
        let mut e = self.empty();
        while e != 0 {
            out.push_move(Move(e.trailing_zeros() as u8));
            e &= e - 1;
        }
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        if self.over() {
            0
        } else {
            self.empty().count_ones() as u64
        }
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        mv.0 < 9 && !self.over() && self.empty() >> mv.0 & 1 != 0
    }

    #[inline(always)]
    fn make(&mut self, mv: Move) {
        self.marks[self.side.index()] |= 1 << (mv.0 % 9);
        self.side = self.side.opponent();
    }

    #[inline(always)]
    fn undo(&mut self, mv: Move, _undo: ()) {
        self.side = self.side.opponent();
        self.marks[self.side.index()] &= !(1 << (mv.0 % 9));
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if has_line(self.marks[0]) {
            Some(Outcome::Win(Player::First))
        } else if has_line(self.marks[1]) {
            Some(Outcome::Win(Player::Second))
        } else if self.empty() == 0 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        self.over()
    }

    fn evaluate(&self, _eval: TicTacToeEval, player: Player) -> f32 {
        eval::evaluate(self, player)
    }

    fn key(&self) -> u64 {
        let z = self.marks[0] as u64 | (self.marks[1] as u64) << 9 | (self.side as u64) << 18;
        let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    #[inline(always)]
    fn encode_move(mv: Move) -> u16 {
        mv.0 as u16
    }

    #[inline(always)]
    fn decode_move(code: u16) -> Option<Move> {
        (code < 9).then_some(Move(code as u8))
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        notation::parse_move(self, text)
    }

    fn write_move<W: Write>(&self, mv: Move, out: &mut W) -> fmt::Result {
        notation::write_move(self, mv, out)
    }

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        notation::parse_position(text)
    }

    fn write_position<W: Write>(&self, out: &mut W) -> fmt::Result {
        notation::write_position(self, out)
    }
}
