//! Breakthrough on bitboards.
//!
//! ## Rules
//! 8×8 board; each side starts with 16 pieces on its first two ranks. White (the
//! [`Player::First`]) starts on ranks 1–2, moves first and moves up the board (towards rank 8);
//! Black starts on ranks 7–8 and moves down. A piece moves one square straight forward onto an
//! empty square, or one square diagonally forward onto an empty square or an enemy piece, which
//! it captures: captures are diagonal only. A side wins by moving a piece onto the far rank or by
//! capturing every enemy piece. There are no draws, and a side with pieces always has a move (its
//! most advanced piece can always step diagonally), so there is no stalemate.
//!
//! ## Representation
//! One [`Bitboard`] per side, bit `8·rank + file` (a1 = 0, h1 = 7, a8 = 56). Move generation is
//! three one-step shifts per side (straight, and the two diagonals with their edge files
//! masked); bulk counting is three popcounts. Both of the paper's evaluations
//! ([`BreakthroughEval`]) are kept up to date by make/undo.
//!
//! ## Notation
//! Moves: `a2-a3` (quiet), `b2xc3` (capture). Positions: eight ranks from rank 8 down to rank 1
//! separated by `/`, `P` a White piece, `p` a Black piece, a digit for that many empty squares,
//! then a space and the side to move (`w` or `b`). The start is
//! `pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w`.

mod eval;
mod knowledge;
mod notation;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
#[cfg(test)]
mod tests;

pub use eval::{BreakthroughEval, LH_TABLE};

use crate::game::{Game, MoveBuffer, Outcome, ParseError, Player};
pub use crate::games::bitboard::Bitboard;
use core::fmt;

/// Squares of rank 1.
pub const RANK_1: Bitboard = Bitboard::RANK_1;
/// Squares of rank 8.
pub const RANK_8: Bitboard = Bitboard::RANK_8;
/// Squares of file a.
pub const FILE_A: Bitboard = Bitboard::FILE_A;
/// Squares of file h.
pub const FILE_H: Bitboard = Bitboard::FILE_H;

/// Most legal moves any position can have: 16 pieces, 3 moves each.
pub const MAX_MOVES: usize = 48;

/// A Breakthrough move: a piece goes from `from` to `to` (square indices, a1 = 0).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move {
    /// The square the piece leaves.
    pub from: u8,
    /// The square the piece reaches; a capture if an enemy piece stands there.
    pub to: u8,
}

/// The fixed-capacity legal-move list of Breakthrough.
pub type MoveList = heapless::Vec<Move, MAX_MOVES>;

/// A Breakthrough position with incrementally kept evaluation terms.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct Breakthrough {
    /// Pieces of each side, indexed by [`Player::index`].
    pieces: [Bitboard; 2],
    side: Player,
    /// Sum of the Lorentz & Horey piece-square values of each side (efLH).
    lh: [i16; 2],
}

/// What [`Breakthrough::make`] returns: whether the move captured.
pub type Undo = bool;

impl Breakthrough {
    /// The start position.
    pub const fn start() -> Self {
        Breakthrough {
            pieces: [Bitboard(0xFFFF), Bitboard(0xFFFF << 48)],
            side: Player::First,
            lh: [eval::START_LH, eval::START_LH],
        }
    }

    /// Builds a position from the two sides' bitboards and the side to move, checking that it
    /// could occur: at most 16 pieces a side, no square held twice, not both sides already won.
    pub fn from_bitboards(
        white: Bitboard,
        black: Bitboard,
        side: Player,
    ) -> Result<Self, ParseError> {
        use crate::game::Problem::Inconsistent;
        let err = |why| Err(ParseError::new("position", Inconsistent(why)));
        if white.intersects(black) {
            return err("a square holds two pieces");
        }
        if white.count() > 16 || black.count() > 16 {
            return err("more than 16 pieces of one side");
        }
        let white_won = white.intersects(RANK_8) || black.is_empty();
        let black_won = black.intersects(RANK_1) || white.is_empty();
        if white_won && black_won {
            return err("both sides have already won");
        }
        let pieces = [white, black];
        Ok(Breakthrough {
            pieces,
            side,
            lh: [
                eval::lh_from_scratch(white.0, Player::First),
                eval::lh_from_scratch(black.0, Player::Second),
            ],
        })
    }

    /// The pieces of `player` as a bitboard.
    #[inline(always)]
    pub fn pieces(&self, player: Player) -> Bitboard {
        self.pieces[player.index()]
    }

    /// The empty squares.
    #[inline(always)]
    pub fn empty(&self) -> Bitboard {
        !(self.pieces[0] | self.pieces[1])
    }

    /// The three target sets of `side`'s moves: (straight, towards file a, towards file h),
    /// as bitboards of destination squares. The game must not be over.
    #[inline(always)]
    fn targets(&self, side: Player) -> (Bitboard, Bitboard, Bitboard) {
        let own = self.pieces[side.index()];
        let empty = self.empty();
        match side {
            Player::First => (
                own.north() & empty,
                own.north_west() & !own,
                own.north_east() & !own,
            ),
            Player::Second => (
                own.south() & empty,
                own.south_west() & !own,
                own.south_east() & !own,
            ),
        }
    }

    /// The square offset of a step by `side` (straight, towards a, towards h).
    #[inline(always)]
    const fn offsets(side: Player) -> [i8; 3] {
        match side {
            Player::First => [8, 7, 9],
            Player::Second => [-8, -9, -7],
        }
    }

    /// Whether the game is over (a piece on its goal rank, or a side without pieces).
    #[inline(always)]
    fn over(&self) -> bool {
        self.pieces[0].intersects(RANK_8)
            || self.pieces[1].intersects(RANK_1)
            || self.pieces[0].is_empty()
            || self.pieces[1].is_empty()
    }

    /// How a game with these piece sets (White's, then Black's) has ended: a side wins on
    /// reaching its goal rank or when the other has no pieces left.
    #[inline(always)]
    fn outcome_of(pieces: [Bitboard; 2]) -> Option<Outcome> {
        if pieces[0].intersects(RANK_8) || pieces[1].is_empty() {
            Some(Outcome::Win(Player::First))
        } else if pieces[1].intersects(RANK_1) || pieces[0].is_empty() {
            Some(Outcome::Win(Player::Second))
        } else {
            None
        }
    }

    /// The goal rank of `player`.
    #[inline(always)]
    pub const fn goal_rank(player: Player) -> Bitboard {
        match player {
            Player::First => RANK_8,
            Player::Second => RANK_1,
        }
    }

    /// Whether the legal move `mv` wins the game for the side to move: it reaches the goal rank
    /// or takes the last enemy piece. (In a game that goes on no other end can follow a move.)
    #[inline(always)]
    fn mover_wins_with(&self, mv: Move) -> bool {
        debug_assert!(!self.over());
        let to = Bitboard::square(mv.to);
        let enemy = self.pieces[self.side.opponent().index()];
        to.intersects(Self::goal_rank(self.side)) || (enemy & !to).is_empty()
    }

    /// The squares `player` attacks (could capture on), as a bitboard.
    #[inline(always)]
    pub fn attacks(&self, player: Player) -> Bitboard {
        let own = self.pieces[player.index()];
        match player {
            Player::First => own.north_west() | own.north_east(),
            Player::Second => own.south_west() | own.south_east(),
        }
    }

    /// Plays `mv` on the bitboards alone, efLH left stale (playouts rebuild it once at their
    /// end), and returns whether the move won.
    #[inline(always)]
    fn step_bitboards(&mut self, mv: Move) -> bool {
        let us = self.side;
        let them = us.opponent().index();
        let (from, to) = (Bitboard::square(mv.from), Bitboard::square(mv.to));
        self.pieces[us.index()] ^= from | to;
        self.pieces[them] &= !to;
        self.side = us.opponent();
        // The mover alone can have won after its move.
        to.intersects(Self::goal_rank(us)) || self.pieces[them].is_empty()
    }

    /// One uniformly random move of `us` (a constant, so the side's shifts and tests fold away)
    /// on the bitboards alone, efLH left stale; `nth` selects the drawn target square
    /// ([`Bitboard::nth`] or its `pdep` form). The same number gives the same move as
    /// [`Game::random_playout_move`]. Returns whether the move won.
    #[inline(always)]
    fn random_step<const WHITE: bool>(
        &mut self,
        rng: &mut crate::SearchRng,
        nth: impl Fn(Bitboard, u32) -> u8,
    ) -> bool {
        let us = if WHITE { Player::First } else { Player::Second };
        let (straight, left, right) = self.targets(us);
        let offs = Self::offsets(us);
        let (ns, nl) = (straight.count(), left.count());
        let total = ns + nl + right.count();
        let r = crate::rng::below(rng, total);
        let (set, skip, off) = if r < ns {
            (straight, 0, offs[0])
        } else if r < ns + nl {
            (left, ns, offs[1])
        } else {
            (right, ns + nl, offs[2])
        };
        let to_sq = nth(set, r - skip);
        let (from, to) = (
            Bitboard::square((to_sq as i8 - off) as u8),
            Bitboard::square(to_sq),
        );
        let them = us.opponent().index();
        self.pieces[us.index()] ^= from | to;
        self.pieces[them] &= !to;
        // The mover alone can have won after its move.
        to.intersects(Self::goal_rank(us)) || self.pieces[them].is_empty()
    }

    /// Uniformly random moves until one wins or `max_plies` were played, from an unfinished
    /// position: [`random_step`](Self::random_step) unrolled for the two sides, so the side to
    /// move is never a branch. efLH is left stale.
    #[inline(always)]
    fn random_moves(
        &mut self,
        rng: &mut crate::SearchRng,
        max_plies: u32,
        nth: impl Fn(Bitboard, u32) -> u8 + Copy,
    ) -> (Option<Outcome>, u32) {
        // The loop runs on copies of the position and the generator, written back once: with
        // its several exits the compiler otherwise stores both through the references at
        // every ply.
        let mut game = self.clone();
        let mut local_rng = rng.clone();
        let out = game.random_moves_on(&mut local_rng, max_plies, nth);
        *self = game;
        *rng = local_rng;
        out
    }

    /// [`random_moves`](Self::random_moves) on the position and generator it is given.
    #[inline(always)]
    fn random_moves_on(
        &mut self,
        rng: &mut crate::SearchRng,
        max_plies: u32,
        nth: impl Fn(Bitboard, u32) -> u8 + Copy,
    ) -> (Option<Outcome>, u32) {
        let start = self.side;
        let mut plies = 0;
        let result = 'play: {
            if start == Player::Second {
                if plies >= max_plies {
                    break 'play None;
                }
                plies += 1;
                if self.random_step::<false>(rng, nth) {
                    break 'play Some(Outcome::Win(Player::Second));
                }
            }
            loop {
                if plies >= max_plies {
                    break 'play None;
                }
                plies += 1;
                if self.random_step::<true>(rng, nth) {
                    break 'play Some(Outcome::Win(Player::First));
                }
                if plies >= max_plies {
                    break 'play None;
                }
                plies += 1;
                if self.random_step::<false>(rng, nth) {
                    break 'play Some(Outcome::Win(Player::Second));
                }
            }
        };
        if plies % 2 == 1 {
            self.side = start.opponent();
        }
        (result, plies)
    }

    /// [`random_moves`](Self::random_moves) selecting with BMI2's `pdep`
    /// ([`Bitboard::nth_pdep`]): the same moves, without the selection loop's mispredicted
    /// exits. Only for a CPU where [`fast_pdep`](crate::games::bitboard::fast_pdep) holds.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn random_moves_pdep(
        &mut self,
        rng: &mut crate::SearchRng,
        max_plies: u32,
    ) -> (Option<Outcome>, u32) {
        self.random_moves(rng, max_plies, |set, n| set.nth_pdep(n))
    }

    /// A playout loop that plays on the bitboards alone (`play`, from an unfinished position),
    /// with what every such loop needs around it: a finished game plays nothing, and efLH's
    /// sums, left stale by `play`, are rebuilt once at the end.
    #[inline(always)]
    fn play_on_bitboards(
        &mut self,
        play: impl FnOnce(&mut Self) -> (Option<Outcome>, u32),
    ) -> (Option<Outcome>, u32) {
        if let Some(o) = self.outcome() {
            return (Some(o), 0);
        }
        let result = play(self);
        self.rebuild_lh();
        result
    }

    /// Recomputes efLH's two sums from the pieces, once at the end of a playout that played
    /// on the bitboards alone and left them stale.
    fn rebuild_lh(&mut self) {
        self.lh = [
            eval::lh_from_scratch(self.pieces[0].0, Player::First),
            eval::lh_from_scratch(self.pieces[1].0, Player::Second),
        ];
    }

    /// Checks every incrementally kept quantity against a from-scratch recomputation.
    #[inline]
    fn debug_check(&self) {
        debug_assert_eq!(
            self.lh[0],
            eval::lh_from_scratch(self.pieces[0].0, Player::First)
        );
        debug_assert_eq!(
            self.lh[1],
            eval::lh_from_scratch(self.pieces[1].0, Player::Second)
        );
        debug_assert!(!self.pieces[0].intersects(self.pieces[1]));
    }
}

impl Default for Breakthrough {
    fn default() -> Self {
        Self::start()
    }
}

impl Game for Breakthrough {
    type Move = Move;
    type Undo = Undo;
    type MoveList = MoveList;
    type Eval = BreakthroughEval;

    const NAME: &'static str = "breakthrough";
    const EVALS: &'static [(&'static str, BreakthroughEval)] = &[
        ("efMS", BreakthroughEval::Schadd),
        ("efLH", BreakthroughEval::LorentzHorey),
    ];
    const MAX_MOVES: usize = MAX_MOVES;
    /// Every move advances a piece by one rank, and 32 pieces have at most 7 ranks each to go.
    const MAX_GAME_PLIES: u32 = 32 * 6 + 1;
    /// A side reaches its goal rank or runs out of pieces; there is no other end.
    const CAN_DRAW: bool = false;

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
        let (straight, left, right) = self.targets(self.side);
        let offs = Self::offsets(self.side);
        for (set, off) in [(left, offs[1]), (straight, offs[0]), (right, offs[2])] {
            for to in set {
                out.push_move(Move {
                    from: (to as i8 - off) as u8,
                    to,
                });
            }
        }
    }

    #[inline(always)]
    fn count_moves(&self) -> u64 {
        if self.over() {
            return 0;
        }
        let (a, b, c) = self.targets(self.side);
        (a.count() + b.count() + c.count()) as u64
    }

    fn is_legal(&self, mv: Move) -> bool {
        if mv.from >= 64 || mv.to >= 64 || self.over() {
            return false;
        }
        if !self.pieces[self.side.index()].contains(mv.from) {
            return false;
        }
        let (straight, left, right) = self.targets(self.side);
        let offs = Self::offsets(self.side);
        let d = mv.to as i8 - mv.from as i8;
        (d == offs[0] && straight.contains(mv.to))
            || (d == offs[1] && left.contains(mv.to))
            || (d == offs[2] && right.contains(mv.to))
    }

    #[inline(always)]
    fn make(&mut self, mv: Move) -> Undo {
        let us = self.side.index();
        let them = us ^ 1;
        let (from, to) = (Bitboard::square(mv.from), Bitboard::square(mv.to));
        let captured = self.pieces[them].intersects(to);
        self.pieces[us] ^= from | to;
        self.lh[us] += eval::lh_value(mv.to, self.side) - eval::lh_value(mv.from, self.side);
        // The capture without a branch: whether a move captures is as good as random to the
        // predictor (the descent's, the expansion's and the playouts' makes).
        self.pieces[them] ^= to & Bitboard(0u64.wrapping_sub(u64::from(captured)));
        self.lh[them] -= eval::lh_value(mv.to, self.side.opponent()) * i16::from(captured);
        self.side = self.side.opponent();
        self.debug_check();
        captured
    }

    #[inline(always)]
    fn undo(&mut self, mv: Move, captured: Undo) {
        self.side = self.side.opponent();
        let us = self.side.index();
        let them = us ^ 1;
        let (from, to) = (Bitboard::square(mv.from), Bitboard::square(mv.to));
        self.pieces[us] ^= from | to;
        self.lh[us] -= eval::lh_value(mv.to, self.side) - eval::lh_value(mv.from, self.side);
        self.pieces[them] ^= to & Bitboard(0u64.wrapping_sub(u64::from(captured)));
        self.lh[them] += eval::lh_value(mv.to, self.side.opponent()) * i16::from(captured);
        self.debug_check();
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        Self::outcome_of(self.pieces)
    }

    /// The outcome after the move, from the move alone: a legal move is made in a game that
    /// goes on, so only its mover can have won, by reaching its goal rank or by taking the
    /// last enemy piece (the test on copies of both piece sets was some 25 instructions a
    /// child of an expansion).
    #[inline]
    fn outcome_after(&mut self, mv: Move) -> Option<Outcome> {
        self.mover_wins_with(mv).then_some(Outcome::Win(self.side))
    }

    /// The child's end test and evaluation from the move alone: its pieces are two bitboard
    /// operations away, and efLH's sums one table delta (as `make` would leave them). The
    /// expansion of every `im` search asked this with a `make` and an `undo` a child.
    #[inline(always)]
    fn evaluate_after(
        &mut self,
        mv: Move,
        which: BreakthroughEval,
        player: Player,
    ) -> (Option<Outcome>, f32) {
        let (us, them) = (self.side.index(), self.side.opponent().index());
        if self.mover_wins_with(mv) {
            let o = Outcome::Win(self.side);
            return (Some(o), o.reward(player));
        }
        let (from, to) = (Bitboard::square(mv.from), Bitboard::square(mv.to));
        let mut pieces = self.pieces;
        let captured = pieces[them].intersects(to);
        pieces[us] ^= from | to;
        pieces[them] &= !to;
        let v = match which {
            BreakthroughEval::Schadd => eval::schadd_of(pieces[0].0, pieces[1].0),
            BreakthroughEval::LorentzHorey => {
                let mut lh = self.lh;
                lh[us] += eval::lh_value(mv.to, self.side) - eval::lh_value(mv.from, self.side);
                lh[them] -= eval::lh_value(mv.to, self.side.opponent()) * i16::from(captured);
                eval::lorentz_horey_of(lh)
            }
        };
        (None, if player == Player::First { v } else { -v })
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        self.over()
    }

    #[inline]
    fn evaluate(&self, which: BreakthroughEval, player: Player) -> f32 {
        if let Some(o) = self.outcome() {
            return o.reward(player);
        }
        let v = match which {
            BreakthroughEval::Schadd => eval::schadd(self),
            BreakthroughEval::LorentzHorey => eval::lorentz_horey(self),
        };
        if player == Player::First { v } else { -v }
    }

    fn key(&self) -> u64 {
        let mix = |mut z: u64| {
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        mix(self.pieces[0].0)
            ^ mix(self.pieces[1].0 ^ 0x9e37_79b9_7f4a_7c15).rotate_left(17)
            ^ (self.side as u64).wrapping_mul(0xd6e8_feb8_6659_fd93)
    }

    #[inline(always)]
    fn encode_move(mv: Move) -> u16 {
        mv.from as u16 | (mv.to as u16) << 6
    }

    #[inline(always)]
    fn decode_move(code: u16) -> Option<Move> {
        (code < 1 << 12).then_some(Move {
            from: (code & 63) as u8,
            to: (code >> 6) as u8,
        })
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        notation::parse_move(self, text)
    }

    fn write_move<W: fmt::Write>(&self, mv: Move, out: &mut W) -> fmt::Result {
        notation::write_move(self, mv, out)
    }

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        notation::parse_position(text)
    }

    fn write_position<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        notation::write_position(self, out)
    }

    const UCT_C: f32 = 0.8;

    /// The paper's baselines: `bl` = ε-greedy playouts with dynamic early termination, `bl'` =
    /// informed playouts, fixed early termination after 20 moves and node priors. Both break
    /// UCT's ties as the paper's code does, as every Breakthrough search does by default
    /// ([`Game::PAPER_CODE_TIES`]).
    const PRESETS: &'static [(&'static str, &'static str)] =
        &[("bl", "ipp,ege0.1,det0.5"), ("bl'", "ipp,fet20,np")];

    /// The paper's code breaks UCT's ties in its own move order (B21 in
    /// docs/reproduction.md): it produced every Breakthrough number of the paper, and against it
    /// our searches are at parity per simulation only so (`bl'` 46.1% with random ties over
    /// 1,400 games at 1,000 simulations a move, 50.1% over 2,000 with the code's; `ipp` 47.6%
    /// and 52.1% over 1,400 each). `random-ties` turns it off.
    const PAPER_CODE_TIES: bool = true;

    #[inline]
    fn random_playout_move(&self, rng: &mut crate::SearchRng) -> Move {
        // Count the three target sets and take the r-th set bit: no move list needed.
        let (straight, left, right) = self.targets(self.side);
        let offs = Self::offsets(self.side);
        let (ns, nl) = (straight.count(), left.count());
        let total = ns + nl + right.count();
        let mut r = crate::rng::below(rng, total);
        let (set, off) = if r < ns {
            (straight, offs[0])
        } else if r < ns + nl {
            r -= ns;
            (left, offs[1])
        } else {
            r -= ns + nl;
            (right, offs[2])
        };
        let to = set.nth(r);
        Move {
            from: (to as i8 - off) as u8,
            to,
        }
    }

    #[allow(unsafe_code)]
    fn random_playout(
        &mut self,
        rng: &mut crate::SearchRng,
        max_plies: u32,
    ) -> (Option<Outcome>, u32) {
        self.play_on_bitboards(|game| {
            #[cfg(target_arch = "x86_64")]
            if crate::games::bitboard::fast_pdep() {
                // SAFETY: `fast_pdep` checked that this CPU has BMI2.
                return unsafe { game.random_moves_pdep(rng, max_plies) };
            }
            game.random_moves(rng, max_plies, Bitboard::nth)
        })
    }

    const HAS_INFORMED_PLAYOUTS: bool = true;

    /// ipp moves on the bitboards alone (`knowledge::ipp_moves`), efLH rebuilt once at the end.
    fn informed_playout(
        &mut self,
        rng: &mut crate::SearchRng,
        max_plies: u32,
    ) -> (Option<Outcome>, u32) {
        self.play_on_bitboards(|game| knowledge::ipp_moves(game, rng, max_plies))
    }

    #[inline]
    fn informed_playout_move(&self, moves: &[Move], rng: &mut crate::SearchRng) -> Move {
        knowledge::ipp_move(self, moves, rng)
    }

    /// The same draw as [`informed_playout_move`](Game::informed_playout_move) on the legal
    /// moves, taken from the move bitboards without building the list.
    #[inline]
    fn informed_playout_step(&self, _list: &mut MoveList, rng: &mut crate::SearchRng) -> Move {
        knowledge::ipp_step(self, rng)
    }

    fn informed_playout_move_text(&self, moves: &[Move], rng: &mut crate::SearchRng) -> Move {
        knowledge::ipp_move_text(self, moves, rng)
    }

    fn informed_candidates(&self, moves: &[Move], out: &mut MoveList) {
        knowledge::ipp_candidates(self, moves, out)
    }

    /// efMS from the bitboards (by value classes, `knowledge::greedy_step_schadd`); efLH scores
    /// move by move.
    #[inline]
    fn greedy_playout_move(
        &self,
        moves: &[Move],
        eval: BreakthroughEval,
        informed: bool,
        rng: &mut crate::SearchRng,
    ) -> Option<Move> {
        // `moves` is every legal move: Breakthrough's candidate moves are its legal moves.
        debug_assert_eq!(moves.len() as u64, self.count_moves());
        self.greedy_playout_step(eval, informed, rng)
    }

    /// efMS's greedy step needs no move list (`knowledge::greedy_step_schadd`).
    #[inline]
    fn greedy_playout_step(
        &self,
        eval: BreakthroughEval,
        informed: bool,
        rng: &mut crate::SearchRng,
    ) -> Option<Move> {
        (eval == BreakthroughEval::Schadd)
            .then(|| knowledge::greedy_step_schadd(self, informed, rng))
    }

    /// efMS's ε-greedy playouts on the bitboards (`knowledge::greedy_moves`), efLH rebuilt
    /// once at the end; efLH's are left to the general loop.
    fn greedy_playout(
        &mut self,
        rng: &mut crate::SearchRng,
        settings: &crate::game::GreedyPlayout<BreakthroughEval>,
        max_plies: u32,
    ) -> Option<(f32, u32)> {
        if settings.eval != BreakthroughEval::Schadd {
            return None;
        }
        let result = knowledge::greedy_moves(self, rng, settings, max_plies);
        self.rebuild_lh();
        Some(result)
    }

    fn informed_weight(&self, mv: Move) -> u32 {
        knowledge::ipp_weight(self, mv)
    }

    const HAS_NODE_PRIORS: bool = true;

    const DESCEND_ON_COPY: bool = true;

    fn node_prior(&self, mv: Move) -> Option<f32> {
        Some(knowledge::node_prior(self, mv))
    }

    /// The code's order directly: the pieces that can move, rank 8 down to rank 1, files a to
    /// h, and each one's moves towards file a, towards file h, then straight (an expansion's
    /// sort of the keys and the keys themselves were 4% of a `bl'` middle-game simulation).
    fn legal_moves_in_paper_code_order(&self, out: &mut MoveList) -> bool {
        out.clear_moves();
        if self.over() {
            return true;
        }
        let (straight, left, right) = self.targets(self.side);
        let offs = Self::offsets(self.side);
        // Each kind of move as the set of squares it starts from.
        let from = |set: Bitboard, off: i8| {
            if off > 0 { set.0 >> off } else { set.0 << -off }
        };
        let kinds = [
            (from(left, offs[1]), offs[1]),
            (from(right, offs[2]), offs[2]),
            (from(straight, offs[0]), offs[0]),
        ];
        let movers = kinds[0].0 | kinds[1].0 | kinds[2].0;
        // Each piece writes its three moves and keeps those it has (the count advances by the
        // bit), without a branch on which it has.
        let mut moves = [Move { from: 0, to: 0 }; MAX_MOVES + 3];
        let mut n = 0;
        // With the bytes (ranks) swapped, the low bits come first in the code's order: rank 8
        // down to rank 1, files a to h within each. One loop over every piece, so one exit a
        // generation, where a loop a rank missed each rank's exit (about eight mispredictions
        // an expansion, callgrind's branch simulator). Bit `b` of the swapped set is square
        // `b ^ 56`.
        let mut rest = movers.swap_bytes();
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8 ^ 56;
            rest &= rest - 1;
            for (set, off) in kinds {
                moves[n.min(MAX_MOVES)] = Move {
                    from: sq,
                    to: (sq as i8 + off) as u8,
                };
                n += ((set >> sq) & 1) as usize;
            }
        }
        for &mv in &moves[..n.min(MAX_MOVES)] {
            out.push_move(mv);
        }
        true
    }

    /// The paper's code (`Board.getExpandMoves`) scans its rows from our rank 8 down to rank 1
    /// for both sides, files a to h, and per piece the diagonal towards file a, the one towards
    /// file h, then straight ahead.
    fn paper_code_order(&self, mv: Move) -> u16 {
        let (rank, file, to_file) = (mv.from / 8, mv.from % 8, mv.to % 8);
        let dir = match to_file.cmp(&file) {
            core::cmp::Ordering::Less => 0,
            core::cmp::Ordering::Greater => 1,
            core::cmp::Ordering::Equal => 2,
        };
        u16::from(7 - rank) * 24 + u16::from(file) * 3 + dir
    }

    fn order_class(&self, mv: Move) -> u8 {
        knowledge::order_class(self, mv)
    }
}
