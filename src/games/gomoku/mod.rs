//! Outer-Open Gomoku on 256-bit boards.
//!
//! ## Rules
//! 15×15 board; Black ([`Player::First`]) moves first, then White, alternately placing a stone on
//! an empty point. Black's first stone must go on the outer ring of width 2 (the two outermost
//! rows or columns on each side: 104 points), unless [`GomokuRules::free_opening`] (the Gomocup
//! freestyle and standard rules) lets it go anywhere; afterwards any empty point is legal. Five stones in
//! a row (horizontally, vertically or diagonally) win; by default a longer row wins too, and
//! under [`GomokuRules::exact_five`] only a row of exactly five wins (an overline does not). A
//! full board without a winning row is a draw.
//!
//! ## Representation
//! One [`WideBitboard`] (`[u64; 4]`) per side with a row stride of 16, bit `16·row + column`; the unused
//! 16th column and 16th row are padding, so shifts never wrap around the board edge. A move
//! checks for a win only along the four lines through the new stone (at most 32 bit tests);
//! whole-board detection by shift-and ([`has_five`], four shifts per direction) is used where no
//! last stone is known: for position strings and in debug checks. Measured with the ignored test
//! `measure_win_detection` (test profile, opt-level 2): about 11 ns per check along the lines
//! through the last stone against about 69 ns for shift-and over the whole board.
//!
//! ## Notation
//! Points are written `h8`: columns `a`–`o` from the left, rows `1`–`15` from the bottom
//! (upper-case columns accepted). A position is 15 rows from row 15 down to row 1 separated by
//! `/`, `X` a Black stone, `O` a White stone, a number for that many empty points; then a space
//! and the side to move (`b` or `w`), then `exact5` for [`GomokuRules::exact_five`] and `free`
//! for [`GomokuRules::free_opening`] (in that order, each only if set). The empty
//! board is `15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b`.

mod eval;
mod notation;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
#[cfg(test)]
mod tests;

pub use crate::games::bitboard::WideBitboard;
pub use eval::GomokuEval;

use crate::game::{Game, MoveBuffer, Outcome, ParseError, Player, Problem};
use core::fmt::{self, Write};

/// Board side length.
pub const SIZE: u8 = 15;
/// Points on the board.
pub const POINTS: usize = 225;
/// Capacity of the move list: the board size. The real maximum is 224 (the empty points after
/// Black's first stone; the opening itself has the 104 ring points).
pub const MAX_MOVES: usize = POINTS;

/// Row stride of the bit layout.
const STRIDE: u32 = 16;
/// The four line directions as bit shifts: horizontal, vertical, diagonal, anti-diagonal.
const DIRECTIONS: [u32; 4] = [1, 16, 17, 15];

/// The 225 points of the board.
pub const BOARD: WideBitboard = {
    let mut w = [0u64; 4];
    let mut r = 0;
    while r < 15 {
        let mut c = 0;
        while c < 15 {
            let sq = r * 16 + c;
            w[sq / 64] |= 1 << (sq % 64);
            c += 1;
        }
        r += 1;
    }
    WideBitboard(w)
};

/// The outer ring of width 2 where Black's first stone must go (104 points).
pub const RING: WideBitboard = {
    let mut w = [0u64; 4];
    let mut r = 0;
    while r < 15 {
        let mut c = 0;
        while c < 15 {
            if r < 2 || r > 12 || c < 2 || c > 12 {
                let sq = r * 16 + c;
                w[sq / 64] |= 1 << (sq % 64);
            }
            c += 1;
        }
        r += 1;
    }
    WideBitboard(w)
};

/// The rule options. The default is Outer-Open Gomoku; [`GomokuRules::FREESTYLE`] and
/// [`GomokuRules::STANDARD`] are the Gomocup (piskvork) rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct GomokuRules {
    /// Only a row of exactly five wins (an overline of six or more does not). Off by default:
    /// five or more win.
    pub exact_five: bool,
    /// Black's first stone may go anywhere (no outer-open restriction). Off by default: the
    /// first stone must go on the outer ring ([`RING`]).
    pub free_opening: bool,
}

impl GomokuRules {
    /// Outer-open: five or more win, Black opens on the outer ring (the default).
    pub const OUTER_OPEN: GomokuRules = GomokuRules {
        exact_five: false,
        free_opening: false,
    };
    /// Gomocup freestyle: five or more win, any opening point.
    pub const FREESTYLE: GomokuRules = GomokuRules {
        exact_five: false,
        free_opening: true,
    };
    /// Gomocup standard: exactly five win, any opening point.
    pub const STANDARD: GomokuRules = GomokuRules {
        exact_five: true,
        free_opening: true,
    };

    /// The rule set's name: `outer-open`, `freestyle`, `standard`, or `outer-open exact5`.
    pub const fn name(self) -> &'static str {
        match (self.exact_five, self.free_opening) {
            (false, false) => "outer-open",
            (false, true) => "freestyle",
            (true, true) => "standard",
            (true, false) => "outer-open exact5",
        }
    }
}

/// A Gomoku move: the point's bit index `16·row + column` (`a1` = 0, `h8` = 119).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move(pub u8);

impl Move {
    /// The move at `column` and `row` (both `0..15`).
    pub const fn at(column: u8, row: u8) -> Move {
        Move(row * 16 + column)
    }
    /// The column, `0..15` (`a` = 0).
    pub const fn column(self) -> u8 {
        self.0 % 16
    }
    /// The row, `0..15` (row 1 = 0).
    pub const fn row(self) -> u8 {
        self.0 / 16
    }
}

/// The fixed-capacity legal-move list of Gomoku.
pub type MoveList = heapless::Vec<Move, MAX_MOVES>;

/// An Outer-Open Gomoku position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Gomoku {
    /// Stones of Black and White, indexed by [`Player::index`].
    stones: [WideBitboard; 2],
    side: Player,
    /// Stones on the board.
    count: u8,
    /// The player with a winning row, if any.
    winner: Option<Player>,
    rules: GomokuRules,
}

impl Default for Gomoku {
    fn default() -> Self {
        Self::start()
    }
}

/// Whether `stones` contain a winning row anywhere (shift-and over the whole board).
pub fn has_five(stones: WideBitboard, exact: bool) -> bool {
    DIRECTIONS.iter().any(|&d| {
        let f = stones & stones.shr(d) & stones.shr(2 * d) & stones.shr(3 * d) & stones.shr(4 * d);
        let f = if exact {
            f & !stones.shl(d) & !stones.shr(5 * d)
        } else {
            f
        };
        !f.is_empty()
    })
}

impl Gomoku {
    /// The empty board, Black to move, five or more win.
    pub const fn start() -> Self {
        Self::with_rules(GomokuRules::OUTER_OPEN)
    }

    /// The empty board under the given rules.
    pub const fn with_rules(rules: GomokuRules) -> Self {
        Gomoku {
            stones: [WideBitboard::EMPTY; 2],
            side: Player::First,
            count: 0,
            winner: None,
            rules,
        }
    }

    /// Builds a position from both sides' stones, checking that it could occur: stones only on
    /// the board, no point taken twice, Black has as many stones as White or one more (which
    /// decides the side to move), and at most one side has a winning row, made by the side that
    /// moved last.
    pub fn from_stones(
        black: WideBitboard,
        white: WideBitboard,
        rules: GomokuRules,
    ) -> Result<Self, ParseError> {
        let err = |why| Err(ParseError::new("position", Problem::Inconsistent(why)));
        if !((black | white) & !BOARD).is_empty() {
            return Err(ParseError::new("position", Problem::OutOfRange));
        }
        if !(black & white).is_empty() {
            return err("a point holds two stones");
        }
        let (nb, nw) = (black.count(), white.count());
        let side = if nb == nw {
            Player::First
        } else if nb == nw + 1 {
            Player::Second
        } else {
            return err("Black must have as many stones as White or one more");
        };
        let wins = [
            has_five(black, rules.exact_five),
            has_five(white, rules.exact_five),
        ];
        let winner = match wins {
            [false, false] => None,
            [true, true] => return err("both sides have five in a row"),
            [true, false] => Some(Player::First),
            [false, true] => Some(Player::Second),
        };
        if winner == Some(side) {
            return err("the side to move already has five in a row");
        }
        Ok(Gomoku {
            stones: [black, white],
            side,
            count: (nb + nw) as u8,
            winner,
            rules,
        })
    }

    /// The rules in force.
    pub const fn rules(&self) -> GomokuRules {
        self.rules
    }

    /// The stones of `player`.
    #[inline(always)]
    pub const fn stones(&self, player: Player) -> WideBitboard {
        self.stones[player.index()]
    }

    /// The empty points.
    #[inline(always)]
    pub fn empty(&self) -> WideBitboard {
        !(self.stones[0] | self.stones[1]) & BOARD
    }

    /// The number of stones on the board.
    #[inline(always)]
    pub const fn stone_count(&self) -> u8 {
        self.count
    }

    #[inline(always)]
    fn over(&self) -> bool {
        self.winner.is_some() || self.count as usize == POINTS
    }

    /// The points where the side to move may play (empty if the game is over).
    #[inline]
    pub fn legal_set(&self) -> WideBitboard {
        if self.over() {
            WideBitboard::EMPTY
        } else if self.count == 0 && !self.rules.free_opening {
            RING
        } else {
            self.empty()
        }
    }

    /// The legal moves within Chebyshev distance `k` of some stone (the search's Dist(k)
    /// candidate restriction), in square order. On the empty board these are the legal opening
    /// moves (the outer ring); if no empty point lies that close (`k = 0`, or a full
    /// neighbourhood), every legal move is a candidate, so the list is empty only when the game
    /// is over.
    pub fn candidate_moves(&self, k: u8, out: &mut MoveList) {
        out.clear_moves();
        let legal = self.legal_set();
        let set = if self.count == 0 {
            legal
        } else {
            let mut near = self.stones[0] | self.stones[1];
            for _ in 0..k.min(SIZE) {
                let h = near | (near.shl(1) & BOARD) | (near.shr(1) & BOARD);
                near = (h | h.shl(STRIDE) | h.shr(STRIDE)) & BOARD;
            }
            let c = near & legal;
            if c.is_empty() { legal } else { c }
        };
        for sq in set.iter() {
            out.push_move(Move(sq));
        }
    }

    /// The length of `player`'s row through `sq` along direction `d`.
    #[inline(always)]
    fn run(&self, player: Player, sq: u8, d: u32) -> u32 {
        let own = &self.stones[player.index()];
        let mut n = 1;
        let mut p = sq as usize + d as usize;
        while own.contains(p) {
            n += 1;
            p += d as usize;
        }
        let mut p = sq as usize;
        while p >= d as usize && own.contains(p - d as usize) {
            n += 1;
            p -= d as usize;
        }
        n
    }

    /// Whether the stone of `player` on `sq` completes a winning row.
    #[inline]
    fn wins_at(&self, player: Player, sq: u8) -> bool {
        DIRECTIONS.iter().any(|&d| {
            let n = self.run(player, sq, d);
            if self.rules.exact_five {
                n == 5
            } else {
                n >= 5
            }
        })
    }

    /// Parses a point such as `h8` or `H8` into its bit index.
    pub fn parse_point(text: &str) -> Result<u8, ParseError> {
        let mut chars = text.chars();
        let c = chars
            .next()
            .ok_or(ParseError::new("point", Problem::Empty))?;
        let col = match c {
            'a'..='o' => c as u8 - b'a',
            'A'..='O' => c as u8 - b'A',
            'p'..='z' | 'P'..='Z' => return Err(ParseError::new("column", Problem::OutOfRange)),
            _ => return Err(ParseError::new("column", Problem::UnexpectedChar(c))),
        };
        let rest = chars.as_str();
        if rest.is_empty() {
            return Err(ParseError::new("row", Problem::Missing));
        }
        if let Some(bad) = rest.chars().find(|c| !c.is_ascii_digit()) {
            return Err(ParseError::new("row", Problem::UnexpectedChar(bad)));
        }
        if rest.len() > 2 || rest.starts_with('0') {
            return Err(ParseError::new("row", Problem::OutOfRange));
        }
        let row: u8 = rest
            .parse()
            .map_err(|_| ParseError::new("row", Problem::OutOfRange))?;
        if !(1..=SIZE).contains(&row) {
            return Err(ParseError::new("row", Problem::OutOfRange));
        }
        Ok((row - 1) * 16 + col)
    }

    /// Writes a point index as `h8`.
    pub fn write_point<W: Write>(sq: u8, out: &mut W) -> fmt::Result {
        out.write_char(char::from(b'a' + (sq % 16).min(25)))?;
        write!(out, "{}", sq / 16 + 1)
    }

    #[inline]
    fn debug_check(&self) {
        debug_assert_eq!(
            self.count as u32,
            self.stones[0].count() + self.stones[1].count()
        );
        debug_assert!((self.stones[0] & self.stones[1]).is_empty());
        debug_assert_eq!(
            self.winner.is_some(),
            has_five(self.stones[0], self.rules.exact_five)
                || has_five(self.stones[1], self.rules.exact_five)
        );
    }
}

impl Game for Gomoku {
    type Move = Move;
    type Undo = ();
    type MoveList = MoveList;
    type Eval = GomokuEval;

    const NAME: &'static str = "gomoku";
    const EVALS: &'static [(&'static str, GomokuEval)] = &[("windows", GomokuEval::Windows)];
    /// 224 empty points after the first stone; the opening has 104 (the ring).
    const MAX_MOVES: usize = MAX_MOVES;
    /// One stone per ply on 225 points.
    const MAX_GAME_PLIES: u32 = POINTS as u32;

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
        for sq in self.legal_set().iter() {
            out.push_move(Move(sq));
        }
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        self.legal_set().count() as u64
    }

    #[inline]
    fn candidate_moves(&self, k: u8, out: &mut MoveList) {
        Gomoku::candidate_moves(self, k, out)
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        self.legal_set().contains(mv.0 as usize)
    }

    #[inline]
    fn make(&mut self, mv: Move) {
        let me = self.side;
        self.stones[me.index()].toggle(mv.0);
        self.count += 1;
        if self.wins_at(me, mv.0) {
            self.winner = Some(me);
        }
        self.side = me.opponent();
        self.debug_check();
    }

    #[inline]
    fn undo(&mut self, mv: Move, _undo: ()) {
        self.side = self.side.opponent();
        self.stones[self.side.index()].toggle(mv.0);
        self.count -= 1;
        // Moves are only made in unfinished games.
        self.winner = None;
        self.debug_check();
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(p) => Some(Outcome::Win(p)),
            None if self.count as usize == POINTS => Some(Outcome::Draw),
            None => None,
        }
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        self.over()
    }

    fn evaluate(&self, eval: GomokuEval, player: Player) -> f32 {
        if let Some(o) = self.outcome() {
            return o.reward(player);
        }
        eval::evaluate(self, eval, player)
    }

    fn key(&self) -> u64 {
        let mix = |mut z: u64| {
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut h = (self.side as u64)
            ^ (self.rules.exact_five as u64) << 1
            ^ (self.rules.free_opening as u64) << 2;
        for (i, b) in self.stones.iter().enumerate() {
            for (j, &w) in b.0.iter().enumerate() {
                h = mix(h ^ w ^ ((i * 4 + j) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            }
        }
        h
    }

    #[inline(always)]
    fn encode_move(mv: Move) -> u16 {
        mv.0 as u16
    }

    #[inline(always)]
    fn decode_move(code: u16) -> Option<Move> {
        (code < 256 && BOARD.contains(code as usize)).then_some(Move(code as u8))
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
