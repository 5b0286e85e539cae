//! The contract every game implements.
//!
//! One trait, [`Game`], covers all five games of imcts — Breakthrough, Lines of Action, Kalah,
//! Tic-Tac-Toe and Outer-Open Gomoku — without allocation. Search walks the tree by
//! [`Game::make`] / [`Game::undo`] on a single state, so both must restore the state exactly,
//! incremental evaluations included.
//!
//! Design points every implementation follows:
//! - The side to move is explicit ([`Game::side_to_move`]); a player may move several times in a
//!   row (Kalah) and a side may have to pass (Lines of Action, where the pass is a real move).
//! - Legal moves go into a fixed-capacity [`MoveBuffer`] whose capacity is the documented worst
//!   case of the game, so pushing never fails for reachable positions.
//! - A finished game has no legal moves and [`Game::outcome`] returns `Some`.
//! - Evaluations are in `[-1, 1]` from a given player's point of view; a game with several
//!   evaluation functions lets the caller pick one through [`Game::Eval`].
//! - Moves encode into a `u16` so a search node can store one in two bytes.

use core::fmt;

use crate::SearchRng;

/// One of the two players. `First` moves first from every game's initial position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Player {
    /// The player who moves first from the initial position.
    First = 0,
    /// The other player.
    Second = 1,
}

impl Player {
    /// Both players, in index order.
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// The other player.
    #[inline(always)]
    pub const fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// `0` for [`Player::First`], `1` for [`Player::Second`]: an index into per-player arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player with the given index (`0` or `1`); any other value is `None`.
    pub const fn from_index(i: usize) -> Option<Player> {
        match i {
            0 => Some(Player::First),
            1 => Some(Player::Second),
            _ => None,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// The given player won.
    Win(Player),
    /// Neither player won.
    Draw,
}

impl Outcome {
    /// The reward of this outcome for `player`: `1` for a win, `0` for a draw, `-1` for a loss.
    #[inline]
    pub fn reward(self, player: Player) -> f32 {
        match self {
            Outcome::Win(p) if p == player => 1.0,
            Outcome::Win(_) => -1.0,
            Outcome::Draw => 0.0,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }
}

/// A fixed-capacity list of moves, filled by [`Game::legal_moves`].
///
/// Implemented for `heapless::Vec<M, N>`; each game picks `N` as its documented worst case, so a
/// push past capacity means a bug in that bound. Such a push is dropped (and trips a debug
/// assertion) rather than panicking in release builds.
pub trait MoveBuffer<M: Copy>: Default {
    /// Appends a move.
    fn push_move(&mut self, mv: M);
    /// Removes every move.
    fn clear_moves(&mut self);
    /// The moves, in generation order.
    fn moves(&self) -> &[M];
}

impl<M: Copy, const N: usize> MoveBuffer<M> for heapless::Vec<M, N> {
    #[inline(always)]
    fn push_move(&mut self, mv: M) {
        let pushed = self.push(mv);
        debug_assert!(pushed.is_ok(), "move list capacity {N} exceeded");
    }
    #[inline(always)]
    fn clear_moves(&mut self) {
        self.clear();
    }
    #[inline(always)]
    fn moves(&self) -> &[M] {
        self.as_slice()
    }
}

/// What was wrong with a string given to a parser.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Problem {
    /// The field was empty.
    Empty,
    /// The field was expected but the input ended.
    Missing,
    /// There was more input after the last field.
    Extra,
    /// A character that is not allowed here.
    UnexpectedChar(char),
    /// The field has the wrong length (e.g. a rank describing 9 squares).
    BadLength {
        /// What the field should have measured.
        expected: u16,
        /// What it measured.
        found: u16,
    },
    /// A number or coordinate outside the board or the allowed range.
    OutOfRange,
    /// The move is well formed but not legal in this position.
    Illegal,
    /// The fields are each well formed but contradict each other or the rules.
    Inconsistent(&'static str),
    /// The whole input is longer than the parser accepts (see [`MAX_POSITION_LEN`]).
    TooLong {
        /// The most bytes accepted.
        max: u16,
    },
}

/// The longest position string, in bytes, that any game's
/// [`parse_position`](Game::parse_position) accepts. The longest position any game writes is
/// Gomoku's (at most 248 bytes); this leaves room for extra spaces between fields. Longer input
/// is rejected before any field is looked at, with [`Problem::TooLong`], so no count inside a
/// parser can overflow.
pub const MAX_POSITION_LEN: usize = 512;

/// Rejects position text longer than [`MAX_POSITION_LEN`]; every game's parser calls this first.
pub fn check_position_len(text: &str) -> Result<(), ParseError> {
    if text.len() > MAX_POSITION_LEN {
        return Err(ParseError::new(
            "position",
            Problem::TooLong {
                max: MAX_POSITION_LEN as u16,
            },
        ));
    }
    Ok(())
}

/// A typed parse error: which field, and what was wrong with it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct ParseError {
    /// The field that failed, e.g. `"rank"`, `"side to move"`, `"from square"`.
    pub field: &'static str,
    /// Which one of a repeated field (e.g. rank 3), counted from 1, if the field repeats.
    pub index: Option<u16>,
    /// What was wrong.
    pub problem: Problem,
}

impl ParseError {
    /// An error in a field that occurs once.
    pub const fn new(field: &'static str, problem: Problem) -> Self {
        ParseError {
            field,
            index: None,
            problem,
        }
    }

    /// An error in the `index`-th occurrence (from 1) of a repeated field.
    pub const fn at(field: &'static str, index: u16, problem: Problem) -> Self {
        ParseError {
            field,
            index: Some(index),
            problem,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Empty => f.write_str("is empty"),
            Problem::Missing => f.write_str("is missing"),
            Problem::Extra => f.write_str("is followed by unexpected input"),
            Problem::UnexpectedChar(c) => write!(f, "has unexpected character {c:?}"),
            Problem::BadLength { expected, found } => {
                write!(f, "has length {found}, expected {expected}")
            }
            Problem::OutOfRange => f.write_str("is out of range"),
            Problem::Illegal => f.write_str("is not a legal move here"),
            Problem::Inconsistent(why) => write!(f, "is inconsistent: {why}"),
            Problem::TooLong { max } => write!(f, "is longer than {max} bytes"),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "{} {} {}", self.field, i, self.problem),
            None => write!(f, "{} {}", self.field, self.problem),
        }
    }
}

impl core::error::Error for ParseError {}

/// What an ε-greedy playout does at each move ([`Game::greedy_playout`]): with probability
/// `1 − epsilon` the greedy move by `eval` ([`Game::greedy_playout_step`]), otherwise a move of
/// the informed policy (`informed`) or a uniformly random one; and, with `det`, after every
/// `interval`-th move a stop as a win or loss once the evaluation for the first player passes
/// `±threshold` (strictly, as the paper's code does).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GreedyPlayout<E> {
    /// The evaluation that scores the greedy step's candidates and the `det` test.
    pub eval: E,
    /// The other moves come from the informed policy rather than uniformly.
    pub informed: bool,
    /// The probability of the non-greedy move.
    pub epsilon: f32,
    /// `det`'s `(threshold, interval)`, if the playout stops early on the evaluation.
    pub det: Option<(f32, u32)>,
}

/// What a playout in a game's own loop ([`Game::alpha_beta_playout`],
/// [`Game::informed_playout_with_cutoffs`]) stops on besides the end of the game and the ply
/// cap: after `fixed_cutoff` moves with the evaluation for the first player as the reward,
/// and, with `det`, after every `interval`-th move as a win or loss once that evaluation passes
/// `±threshold` (strictly, as the paper's code does).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutCutoffs<E> {
    /// The evaluation of the cutoff and the `det` test (and of the αβ playout's 2-ply search).
    pub eval: E,
    /// The fixed early termination (`fet`): stop after this many moves.
    pub fixed_cutoff: Option<u32>,
    /// `det`'s `(threshold, interval)`, if the playout stops early on the evaluation.
    pub det: Option<(f32, u32)>,
}

/// [`PlayoutCutoffs`] under the name it had when only the αβ playout used it (renamed when
/// informed playouts took the same settings); kept so that code written against the old name
/// still builds, with a warning that says where to go.
#[deprecated(
    note = "renamed `PlayoutCutoffs`: the same struct, now also given to informed playouts"
)]
pub type AlphaBetaPlayout<E> = PlayoutCutoffs<E>;

/// Plays the moves `step` picks until the game ends or `max_plies` moves were played: the
/// default playout loops of [`Game::random_playout`] and [`Game::informed_playout`]. Returns
/// the outcome (`None` if cut off) and the moves played.
#[inline]
fn play_until_end<G: Game>(
    game: &mut G,
    max_plies: u32,
    mut step: impl FnMut(&G) -> G::Move,
) -> (Option<Outcome>, u32) {
    let mut plies = 0;
    loop {
        if let Some(o) = game.outcome() {
            return (Some(o), plies);
        }
        if plies >= max_plies {
            return (None, plies);
        }
        let mv = step(game);
        game.make(mv);
        plies += 1;
    }
}

/// A two-player, perfect-information, deterministic game as the search sees it.
///
/// Implementations keep their evaluations incrementally in [`make`](Game::make) /
/// [`undo`](Game::undo) where the game allows, and check them against a from-scratch
/// recomputation with debug assertions.
pub trait Game: Clone + PartialEq + fmt::Debug + Send + Sync + 'static {
    /// A move. Small and `Copy`; encodes into a `u16` with [`encode_move`](Game::encode_move).
    type Move: Copy + Eq + fmt::Debug + Send + Sync + 'static;
    /// What [`make`](Game::make) returns and [`undo`](Game::undo) needs to restore the state.
    type Undo: Copy + fmt::Debug;
    /// The fixed-capacity move list, sized for the game's worst case.
    type MoveList: MoveBuffer<Self::Move>;
    /// Which evaluation function to use, for games that offer several. `Default` is the
    /// game's standard one.
    type Eval: Copy + Eq + Default + fmt::Debug + Send + Sync + 'static;

    /// The game's name as the command line spells it (`breakthrough`, `loa`, …).
    const NAME: &'static str;
    /// The evaluation functions this game offers, by the label player specs use.
    const EVALS: &'static [(&'static str, Self::Eval)];
    /// An upper bound on the number of legal moves in any reachable position.
    const MAX_MOVES: usize;
    /// An upper bound on the length of a game in plies, or `u32::MAX` if none is known.
    const MAX_GAME_PLIES: u32 = u32::MAX;

    /// The initial position under the game's default rules.
    fn new() -> Self;

    /// The player to move.
    fn side_to_move(&self) -> Player;

    /// Writes the legal moves into `out` (cleared first). Empty if and only if the game is over.
    fn legal_moves(&self, out: &mut Self::MoveList);

    /// The number of legal moves; games override this with a faster count (perft bulk counting).
    fn count_moves(&self) -> u64 {
        let mut list = Self::MoveList::default();
        self.legal_moves(&mut list);
        list.moves().len() as u64
    }

    /// Whether `mv` is legal here. Hosts validate input with this before [`make`](Game::make).
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut list = Self::MoveList::default();
        self.legal_moves(&mut list);
        list.moves().contains(&mv)
    }

    /// Plays a legal move. The move must come from [`legal_moves`](Game::legal_moves) (or pass
    /// [`is_legal`](Game::is_legal)); an illegal move leaves the state unspecified but never
    /// causes undefined behaviour.
    fn make(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back `mv`, which must be the last move made, given what its `make` returned.
    fn undo(&mut self, mv: Self::Move, undo: Self::Undo);

    /// `None` while the game goes on; how it ended once it is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The [`outcome`](Game::outcome) of the position after the legal move `mv`, leaving this
    /// position as it was. The search asks it of every child it creates. The default makes
    /// and undoes the move. A game can override it when its end test takes a few bit
    /// operations, so that expansion skips make and undo.
    #[inline]
    fn outcome_after(&mut self, mv: Self::Move) -> Option<Outcome> {
        let undo = self.make(mv);
        let outcome = self.outcome();
        self.undo(mv, undo);
        outcome
    }

    /// The [`outcome`](Game::outcome) of the position after the legal move `mv` and its value
    /// for `player`: the outcome's reward if the game is over, else the evaluation `which`
    /// ([`evaluate`](Game::evaluate)); this position is left as it was. The search asks it of
    /// every child it creates when it evaluates children (implicit minimax, progressive bias,
    /// evaluation priors). The default makes and undoes the move. A game can override it when
    /// both follow from the move in a few operations, so that expansion skips make and undo;
    /// the values must be the default's to the bit.
    #[inline]
    fn evaluate_after(
        &mut self,
        mv: Self::Move,
        which: Self::Eval,
        player: Player,
    ) -> (Option<Outcome>, f32) {
        let undo = self.make(mv);
        let outcome = self.outcome();
        let value = match outcome {
            Some(o) => o.reward(player),
            None => self.evaluate(which, player),
        };
        self.undo(mv, undo);
        (outcome, value)
    }

    /// The value the paper's code gives the child reached by the legal move `mv` when that
    /// move ends the game, for `player`: its evaluation `which` of the finished position, which
    /// the code's `expand` computes for every child (`code-end-eval`, row K4 of
    /// `docs/reproduction.md`). `None` (the default) where that is the result's reward, as
    /// [`evaluate_after`](Game::evaluate_after) gives it; a game overrides it where the code's
    /// evaluation of a finished position is something else (Kalah's leaves the houses
    /// unswept). This position is left as it was.
    #[inline]
    fn paper_code_end_value(
        &mut self,
        _mv: Self::Move,
        _which: Self::Eval,
        _player: Player,
    ) -> Option<f32> {
        None
    }

    /// Whether the game is over.
    #[inline]
    fn is_terminal(&self) -> bool {
        self.outcome().is_some()
    }

    /// The heuristic value of the position in `[-1, 1]` for `player` under evaluation `eval`.
    /// Terminal positions evaluate to their reward (`1`, `0` or `-1`).
    fn evaluate(&self, eval: Self::Eval, player: Player) -> f32;

    /// The final score margin for `player` in scored games (Kalah: store difference), `0` for
    /// games without a score. Used by "big win" rewards.
    fn score_margin(&self, _player: Player) -> i32 {
        0
    }

    /// The largest possible [`score_margin`](Game::score_margin), `0` for unscored games.
    const MAX_MARGIN: i32 = 0;

    /// A hash of the position (pieces, side to move, anything else that decides the legal
    /// moves), for transposition tables and repetition checks.
    fn key(&self) -> u64;

    /// Encodes a move into 16 bits so a search node can store it.
    fn encode_move(mv: Self::Move) -> u16;

    /// Decodes a `u16` from [`encode_move`](Game::encode_move); `None` if it names no move
    /// of this game at all (it may still be illegal in a given position).
    fn decode_move(code: u16) -> Option<Self::Move>;

    /// Parses a move in the game's notation and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError>;

    /// Writes a move in the game's notation. `mv` must be legal in `self` (notation may depend
    /// on the position, e.g. `-` versus `x` for captures).
    fn write_move<W: fmt::Write>(&self, mv: Self::Move, out: &mut W) -> fmt::Result;

    /// Parses a position string as written by [`write_position`](Game::write_position).
    /// Input longer than [`MAX_POSITION_LEN`] bytes is rejected with [`Problem::TooLong`].
    fn parse_position(text: &str) -> Result<Self, ParseError>;

    /// Writes the position string; `parse_position` of it gives back an equal state.
    fn write_position<W: fmt::Write>(&self, out: &mut W) -> fmt::Result;

    /// The evaluation labelled `label` in [`EVALS`](Game::EVALS), compared without regard to
    /// ASCII case.
    fn parse_eval(label: &str) -> Option<Self::Eval> {
        Self::EVALS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(label))
            .map(|&(_, e)| e)
    }

    // ----- Domain knowledge for the search. Defaults mean "this game has none". -----

    /// Whether a game of this kind can end in a draw. `false` promises that
    /// [`outcome`](Game::outcome) never returns [`Outcome::Draw`], so the search skips its draw
    /// bookkeeping (proven draws and draw bounds cannot arise): three instructions a child at
    /// every selection step (Breakthrough, where a game ends only on a goal rank or with a side
    /// out of pieces, and a side with pieces always has a move).
    const CAN_DRAW: bool = true;

    /// Whether the search descends on a copy of the root position, dropped after each
    /// simulation, instead of undoing every move of the path on the way back up. For a state
    /// of a few words whose `undo` costs more than a copy: Breakthrough (24 bytes; its undo
    /// also takes efLH's sums back), where it saves about 3% of a simulation's instructions.
    /// Kalah keeps undoing: its undo is a copy of its pits already, and copying the root cost
    /// its searches 0.9% more instructions (its solver steps, which need the positions on the
    /// path, then rebuild them from the root).
    const DESCEND_ON_COPY: bool = false;

    /// The UCT exploration constant the papers' code used for this game (Breakthrough 0.8,
    /// Kalah 1.0); player specs override it with `c…`.
    const UCT_C: f32 = 1.0;

    /// A uniformly random legal move for playouts. The position must not be finished. Games
    /// override this with something faster than generating the whole list (Breakthrough picks
    /// the n-th bit of its target bitboards).
    fn random_playout_move(&self, rng: &mut SearchRng) -> Self::Move {
        let mut list = Self::MoveList::default();
        self.legal_moves(&mut list);
        let moves = list.moves();
        moves[crate::rng::below(rng, moves.len() as u32) as usize]
    }

    /// Plays uniformly random moves until the game ends or `max_plies` moves were played, and
    /// returns the outcome (`None` if cut off) and the moves played. The state is left as the
    /// final position, fully valid. Games override this with a tighter loop (Breakthrough skips
    /// the incremental evaluation on the way and rebuilds it once at the end).
    fn random_playout(&mut self, rng: &mut SearchRng, max_plies: u32) -> (Option<Outcome>, u32) {
        play_until_end(self, max_plies, |game| game.random_playout_move(rng))
    }

    /// Whether the game has an informed playout policy ([`informed_playout_move`]).
    ///
    /// [`informed_playout_move`]: Game::informed_playout_move
    const HAS_INFORMED_PLAYOUTS: bool = false;

    /// Picks a playout move with the game's informed policy (Breakthrough's `ipp`, the move
    /// categories of Lines of Action). `moves` is this position's legal move list, non-empty.
    /// The default picks uniformly at random.
    fn informed_playout_move(&self, moves: &[Self::Move], rng: &mut SearchRng) -> Self::Move {
        moves[crate::rng::below(rng, moves.len() as u32) as usize]
    }

    /// The move of an αβ playout (`abp`) for the side to move (the game is not finished); the
    /// state is restored. The default is the generic 2-ply search
    /// ([`generic_two_ply_move`](crate::search::shallow::generic_two_ply_move)); Lines of Action
    /// overrides it with MC-LOA's selective search on evaluation deltas.
    fn alpha_beta_playout_move(&mut self, eval: Self::Eval, rng: &mut SearchRng) -> Self::Move {
        crate::search::shallow::generic_two_ply_move(self, eval, rng)
    }

    /// A playout move of the informed policy, generating what it needs (`list` is scratch
    /// space). The default is [`legal_moves`](Game::legal_moves) then
    /// [`informed_playout_move`](Game::informed_playout_move); a game may draw from the same
    /// distribution without building the list (Lines of Action samples moves from its bitboards
    /// by rejection, with other random numbers).
    #[inline]
    fn informed_playout_step(&self, list: &mut Self::MoveList, rng: &mut SearchRng) -> Self::Move {
        self.legal_moves(list);
        self.informed_playout_move(list.moves(), rng)
    }

    /// Plays the informed policy ([`informed_playout_step`](Game::informed_playout_step)) until
    /// the game ends or `max_plies` moves were played, and returns the outcome (`None` if cut
    /// off) and the moves played, as [`random_playout`](Game::random_playout) does for uniform
    /// moves: the same moves from the same random numbers as stepping, and the state left as
    /// the final position, fully valid. Games override it with a tighter loop (Breakthrough
    /// plays on its bitboards and rebuilds its incremental evaluation once at the end).
    fn informed_playout(&mut self, rng: &mut SearchRng, max_plies: u32) -> (Option<Outcome>, u32) {
        let mut list = Self::MoveList::default();
        play_until_end(self, max_plies, |game| {
            game.informed_playout_step(&mut list, rng)
        })
    }

    /// The informed policy's playout with early terminations (`det`, and `fet` beside it) in
    /// the game's own loop: the reward for the first player and the moves played, exactly what
    /// the search's general playout loop returns from the same random numbers (each move
    /// [`informed_playout_step`](Game::informed_playout_step)'s), with the state left as the
    /// final position, fully valid. `None` (the default) leaves the playout to the general
    /// loop, with the state untouched. (Without `det` the search plays
    /// [`informed_playout`](Game::informed_playout) and applies a fixed cutoff itself.)
    fn informed_playout_with_cutoffs(
        &mut self,
        _rng: &mut SearchRng,
        _cutoffs: &PlayoutCutoffs<Self::Eval>,
        _max_plies: u32,
    ) -> Option<(f32, u32)> {
        None
    }

    /// Named player-spec presets: a label and the comma-separated labels it stands for
    /// (Breakthrough's `bl` is `ipp,ege0.1,det0.5`). Labels written beside a preset override what
    /// it sets ([`crate::search::spec`]).
    const PRESETS: &'static [(&'static str, &'static str)] = &[];
    /// The informed policy as the paper's *text* describes it, where that differs from the
    /// authors' code that [`informed_playout_move`](Game::informed_playout_move) follows
    /// (Breakthrough: undefended captures 4× as likely as any other move; see
    /// `docs/reproduction.md`). The default is the code's policy.
    fn informed_playout_move_text(&self, moves: &[Self::Move], rng: &mut SearchRng) -> Self::Move {
        self.informed_playout_move(moves, rng)
    }

    /// The moves the informed policy draws from here, written into `out` (cleared first):
    /// the ε-greedy playout of the paper's code picks its greedy move among these. Breakthrough
    /// keeps only a decisive move if there is one, else only the anti-decisive captures if there
    /// are any, else every move. The default keeps every move.
    fn informed_candidates(&self, moves: &[Self::Move], out: &mut Self::MoveList) {
        out.clear_moves();
        for &mv in moves {
            out.push_move(mv);
        }
    }

    /// The ε-greedy playout step's move among every legal move (`moves`), if the game draws it
    /// from its own structures: from the same distribution as
    /// [`greedy`](crate::search::playout) scoring each move (with `informed`, over
    /// [`informed_candidates`](Game::informed_candidates) weighted by
    /// [`informed_weight`](Game::informed_weight)). `None`, the default, lets the generic step
    /// score the moves one by one. Breakthrough answers for efMS from its bitboards.
    fn greedy_playout_move(
        &self,
        _moves: &[Self::Move],
        _eval: Self::Eval,
        _informed: bool,
        _rng: &mut SearchRng,
    ) -> Option<Self::Move> {
        None
    }

    /// [`greedy_playout_move`](Game::greedy_playout_move) without the move list, for games
    /// that draw the greedy move from their own structures: the playout loop asks this first
    /// and generates the legal moves only when it answers `None` (the default). Breakthrough
    /// answers for efMS from its bitboards, so its ε-greedy playouts build no list at all.
    fn greedy_playout_step(
        &self,
        _eval: Self::Eval,
        _informed: bool,
        _rng: &mut SearchRng,
    ) -> Option<Self::Move> {
        None
    }

    /// The ε-greedy playout (`ege`, optionally with `det`) in the game's own loop, when the
    /// game has one for these `settings`: the reward for the first player and the moves
    /// played, exactly what the search's general playout loop returns from the same random
    /// numbers, with the state left as the final position, fully valid. `None` (the default)
    /// leaves the playout to the general loop, with the state untouched. Breakthrough plays
    /// efMS's ε-greedy playouts on its bitboards.
    fn greedy_playout(
        &mut self,
        _rng: &mut SearchRng,
        _settings: &GreedyPlayout<Self::Eval>,
        _max_plies: u32,
    ) -> Option<(f32, u32)> {
        None
    }

    /// The αβ playout (`abp`, with `fet` and `det` if asked) in the game's own loop: the
    /// reward for the first player and the moves played, exactly what the search's general
    /// playout loop returns from the same random numbers (each move
    /// [`alpha_beta_playout_move`](Game::alpha_beta_playout_move)'s), with the state left as
    /// the final position, fully valid. `None` (the default) leaves the playout to the general
    /// loop, with the state untouched. Lines of Action carries its move generation from one
    /// playout move to the next.
    fn alpha_beta_playout(
        &mut self,
        _rng: &mut SearchRng,
        _settings: &PlayoutCutoffs<Self::Eval>,
        _max_plies: u32,
    ) -> Option<(f32, u32)> {
        None
    }

    /// How many times `mv` stands in the informed policy's draw (Breakthrough's ipp: 5 for an
    /// undefended capture, 2 for another capture, 1 for a quiet move). The paper's code draws
    /// ε-greedy ties from that list, so ties are weighted the same way. The default is 1.
    fn informed_weight(&self, _mv: Self::Move) -> u32 {
        1
    }

    /// Where `mv` stands in the paper's code's move generator (lower first), so that the
    /// `code-ties` option can order a node's children as that code does and break ties the
    /// same way. The default, 0 for every move, keeps this crate's own generation order.
    fn paper_code_order(&self, _mv: Self::Move) -> u16 {
        0
    }

    /// Writes the legal moves into `out` already in [`paper_code_order`](Self::paper_code_order)
    /// (ascending; equal keys in [`legal_moves`](Self::legal_moves)' order) and returns `true`,
    /// so that `code-ties` expansions need not sort them. The default returns `false` and
    /// leaves `out` alone: the caller sorts.
    fn legal_moves_in_paper_code_order(&self, _out: &mut Self::MoveList) -> bool {
        false
    }

    /// Whether MCTS on this game breaks UCT's ties as the paper's code does by default
    /// ([`MctsConfig::code_ties`](crate::search::config::MctsConfig::code_ties); the spec label
    /// `random-ties` turns it off, `code-ties` on). True for Breakthrough, whose every number in
    /// the paper came from that code's search (row B21 of `docs/reproduction.md`); false
    /// otherwise.
    const PAPER_CODE_TIES: bool = false;

    /// Whether the game offers node priors ([`node_prior`](Game::node_prior)).
    const HAS_NODE_PRIORS: bool = false;

    /// The prior win rate in `[0, 1]` of playing `mv` here, for node priors (Breakthrough:
    /// Lorentz & Horey's safety scheme). `None` when the game has no prior for it.
    fn node_prior(&self, _mv: Self::Move) -> Option<f32> {
        None
    }

    /// The moves the search considers under a Dist(`k`) restriction (paper 003): for Gomoku the
    /// legal moves within distance `k` of a stone. Written into `out` (cleared first), empty only
    /// when the game is over. The default, for games without such a notion, is every legal move.
    fn candidate_moves(&self, _k: u8, out: &mut Self::MoveList) {
        self.legal_moves(out)
    }

    /// A static ordering class of `mv` for αβ: larger is searched first. The paper's Breakthrough
    /// order is decisive moves, anti-decisive moves, captures of defenceless pieces, other
    /// captures, quiet moves. The default puts every move in class 0 (generation order).
    fn order_class(&self, _mv: Self::Move) -> u8 {
        0
    }

    /// A heuristic score in `[0, 1]` of `mv` here for progressive bias (LOA: the transition
    /// probability of its move category). `None` means "use the evaluation of the child".
    fn move_bias(&self, _mv: Self::Move) -> Option<f32> {
        None
    }
}

/// Counts the move sequences of exactly `depth` plies from `game` (finished games are not
/// extended), counting the last ply in bulk with [`Game::count_moves`].
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_moves(),
        _ => {
            let mut list = G::MoveList::default();
            game.legal_moves(&mut list);
            let mut total = 0;
            for &mv in list.moves() {
                let u = game.make(mv);
                total += perft(game, depth - 1);
                game.undo(mv, u);
            }
            total
        }
    }
}

/// A fixed-capacity string holding one move in a game's notation.
pub type MoveString = heapless::String<32>;

/// Formats `mv` (legal in `game`) into a [`MoveString`].
pub fn move_string<G: Game>(game: &G, mv: G::Move) -> MoveString {
    let mut s = MoveString::new();
    // Every game's notation fits in 32 bytes; on overflow the string is just cut short.
    let _ = game.write_move(mv, &mut s);
    s
}
