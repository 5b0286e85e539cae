//! Lines of Action on bitboards.
//!
//! ## Rules
//! 8×8 board. Black (the [`Player::First`]) starts on b1–g1 and b8–g8, White on a2–a7 and h2–h7;
//! Black moves first. A piece moves in a straight line (8 directions) exactly as many squares as
//! there are pieces of both colours on that whole line (rank, file or diagonal through it). It
//! may jump over its own pieces but not over enemy pieces, may not land on its own piece, and
//! captures an enemy piece by landing on it. A side wins when all its pieces form one 8-connected
//! group (a single piece is connected). By default these are the Computer Olympiad rules:
//! - a move that connects both sides at once is a draw ([`LinesOfActionRules::simultaneous_mover_wins`]
//!   makes it a win for the mover);
//! - a capture that leaves only the opponent connected wins for the opponent;
//! - a side without a legal move passes: [`Move::PASS`] is then its only legal move
//!   ([`LinesOfActionRules::no_move_loses`] makes it lose instead);
//! - the third occurrence of a position with the same side to move is a draw.
//!
//! ## History and the ply cap
//! Repetition needs the game's history, so the state keeps a fixed-capacity stack of the Zobrist
//! keys of all earlier positions since the state was created (the start position, or a parsed
//! position, which has no history). Its capacity is [`HISTORY_CAPACITY`] = 600 plies: once a
//! game reaches 600 plies the stack is full and the game is declared **drawn**
//! ([`Game::MAX_GAME_PLIES`] is 600). Real games are far shorter, and so are random ones: in 2000
//! uniformly random games from the start the mean was 213 plies and the longest 490; with the
//! informed playouts, 125 and 389 (`cargo test -p imcts --lib game_length_statistics -- --ignored
//! --nocapture`). The stack takes 4.8 KB of the state's ~4.9 KB. Only positions since the last
//! capture are compared, as a capture can never be undone.
//!
//! ## Representation
//! One [`Bitboard`] per side, bit `8·rank + file` (a1 = 0, h1 = 7, a8 = 56). A move's length is one
//! popcount of the occupancy masked by the line through the piece; the path check is one mask
//! of the squares between origin and destination (from ray tables). Tables are built at compile
//! time (module `tables`). Connectivity is a bitboard flood fill, preceded by a cheap test: each
//! side's Euler number (components − holes, from Gray's bit quads, Winands' "quads") is kept
//! incrementally, and a side whose Euler number exceeds 1 has several groups. make/undo also
//! keep the Zobrist key, and every incremental quantity is checked against a from-scratch
//! recomputation with debug assertions.
//!
//! ## Notation
//! Moves: `b1-b3` (quiet), `c1xe3` (capture), `pass`. Positions: eight ranks from rank 8 down
//! to rank 1 separated by `/`, `X` a Black piece, `O` a White piece, a digit for that many
//! empty squares, then a space and the side to move (`b` Black, `w` White). The start is
//! `1XXXXXX1/O6O/O6O/O6O/O6O/O6O/O6O/1XXXXXX1 b`. The string holds neither the rule options nor
//! the history: a parsed position has the default rules (change them with
//! [`LinesOfAction::from_bitboards`]) and no earlier positions.

mod alphabeta_playout;
mod eval;
mod knowledge;
mod notation;
pub mod openings;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
mod tables;
#[cfg(test)]
mod tests;

pub use alphabeta_playout::FIRST_PLY_MOVES;
pub use eval::LinesOfActionEval;
pub use knowledge::{MAX_CATEGORY_WEIGHT, Region, category_weight, region};

use crate::game::{Game, MoveBuffer, Outcome, ParseError, Player, PlayoutCutoffs, Problem};
use crate::games::bitboard::Bitboard;
use crate::search::playout::det_verdict;
use core::fmt;
use tables::{DEST, LINES, NONE, RAYS, ZOBRIST, ZOBRIST_SIDE};

/// Most legal moves any position can have: 12 pieces × 8 directions = 96 (a pass is generated
/// only when there is no other move).
pub const MAX_MOVES: usize = 96;

/// How many earlier positions the state remembers, and so the longest game in plies: a game
/// that reaches this many plies is drawn.
pub const HISTORY_CAPACITY: usize = 600;

/// The rule options. `Default` is the Computer Olympiad rule set.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct LinesOfActionRules {
    /// A move that connects both sides at once wins for the mover (default: it is a draw).
    pub simultaneous_mover_wins: bool,
    /// A side without a legal move loses (default: it passes).
    pub no_move_loses: bool,
}

/// A Lines of Action move: a piece goes from `from` to `to` (square indices, a1 = 0).
/// [`Move::PASS`] (`from == to`) is the pass.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move {
    /// The square the piece leaves.
    pub from: u8,
    /// The square the piece reaches; a capture if an enemy piece stands there.
    pub to: u8,
}

impl Move {
    /// The pass, legal only for a side without any other move.
    pub const PASS: Move = Move { from: 0, to: 0 };

    /// Whether this is the pass.
    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.from == self.to
    }
}

/// The fixed-capacity legal-move list of Lines of Action.
pub type MoveList = heapless::Vec<Move, MAX_MOVES>;

/// What [`LinesOfAction::make`](Game::make) returns to restore the state.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Undo {
    captured: bool,
    reversible_from: u16,
    outcome: Option<Outcome>,
}

/// A Lines of Action game state: position, rules and the history that repetition needs.
///
/// `Debug` prints the position string and the scalar fields, not the 600-entry history.
#[derive(Clone, PartialEq, Eq)]
pub struct LinesOfAction {
    /// Pieces of each side, indexed by [`Player::index`].
    pieces: [Bitboard; 2],
    side: Player,
    rules: LinesOfActionRules,
    /// Four times the Euler number of each side's pieces (incremental).
    euler4: [i16; 2],
    /// The Zobrist key (incremental).
    key: u64,
    /// How the game ended, if it did (decided by make).
    outcome: Option<Outcome>,
    /// The number of earlier positions in `history`.
    plies: u16,
    /// The first index of `history` that can repeat the current position (just after the last
    /// capture).
    reversible_from: u16,
    /// Keys of the earlier positions, oldest first; entries from `plies` on are zero.
    history: [u64; HISTORY_CAPACITY],
}

/// Four times the Euler number of the 8-connected pieces of `bb`, quad by quad.
fn euler4_from_scratch(bb: Bitboard) -> i16 {
    let at = |r: i32, f: i32| -> u8 {
        ((0..8).contains(&r) && (0..8).contains(&f) && bb.contains((r * 8 + f) as u8)) as u8
    };
    let mut sum = 0i16;
    for qr in 0..9 {
        for qf in 0..9 {
            let p =
                at(qr - 1, qf - 1) | at(qr - 1, qf) << 1 | at(qr, qf - 1) << 2 | at(qr, qf) << 3;
            sum += tables::quad_weight(p) as i16;
        }
    }
    sum
}

/// Whether `bb` (non-empty) is one 8-connected group; `euler4` is four times its Euler number.
#[inline]
fn connected(bb: Bitboard, euler4: i16) -> bool {
    if euler4 > 4 {
        // Euler number = groups − holes > 1, so there are at least two groups.
        return false;
    }
    let mut group = bb.lowest();
    loop {
        let next = group.grow() & bb;
        if next == group {
            return group == bb;
        }
        group = next;
    }
}

/// [`LinesOfAction::toggle`] adds a piece.
const ADD: bool = true;
/// [`LinesOfAction::toggle`] removes a piece.
const REMOVE: bool = false;

/// The Zobrist key of a position, from scratch.
const fn key_from_scratch(pieces: [Bitboard; 2], side: Player) -> u64 {
    let mut k = match side {
        Player::First => 0,
        Player::Second => ZOBRIST_SIDE,
    };
    let mut sq = 0;
    while sq < 64 {
        if pieces[0].contains(sq as u8) {
            k ^= ZOBRIST[0][sq];
        }
        if pieces[1].contains(sq as u8) {
            k ^= ZOBRIST[1][sq];
        }
        sq += 1;
    }
    k
}

impl LinesOfAction {
    /// The start position under the default rules.
    pub const fn start() -> Self {
        Self::with_rules(LinesOfActionRules {
            simultaneous_mover_wins: false,
            no_move_loses: false,
        })
    }

    /// The start position under `rules`.
    pub const fn with_rules(rules: LinesOfActionRules) -> Self {
        // Euler numbers of the start: each side is two straight lines, so 2 (×4 = 8).
        LinesOfAction {
            pieces: Self::START_PIECES,
            side: Player::First,
            rules,
            euler4: [8, 8],
            key: START_KEY,
            outcome: None,
            plies: 0,
            reversible_from: 0,
            history: [0; HISTORY_CAPACITY],
        }
    }

    /// Builds a position from the two sides' bitboards, the side to move and the rules, checking
    /// that it makes sense: no square held twice, 1 to 12 pieces a side. The position has no
    /// history. A position that is already decided (a side connected, or under
    /// [`LinesOfActionRules::no_move_loses`] a side to move without moves) is accepted and is terminal.
    pub fn from_bitboards(
        black: Bitboard,
        white: Bitboard,
        side: Player,
        rules: LinesOfActionRules,
    ) -> Result<Self, ParseError> {
        let err = |why| Err(ParseError::new("position", Problem::Inconsistent(why)));
        if black.intersects(white) {
            return err("a square holds two pieces");
        }
        if black.is_empty() || white.is_empty() {
            return err("a side has no pieces");
        }
        if black.count() > 12 || white.count() > 12 {
            return err("more than 12 pieces of one side");
        }
        let pieces = [black, white];
        let mut pos = LinesOfAction {
            pieces,
            side,
            rules,
            euler4: [euler4_from_scratch(black), euler4_from_scratch(white)],
            key: key_from_scratch(pieces, side),
            outcome: None,
            plies: 0,
            reversible_from: 0,
            history: [0; HISTORY_CAPACITY],
        };
        pos.outcome = pos.decide(true, true, true);
        Ok(pos)
    }

    /// The rule options of this game.
    #[inline(always)]
    pub fn rules(&self) -> LinesOfActionRules {
        self.rules
    }

    /// The pieces of `player` as a bitboard.
    #[inline(always)]
    pub fn pieces(&self, player: Player) -> Bitboard {
        self.pieces[player.index()]
    }

    /// The occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// How many plies were played since the state was created (the length of its history).
    #[inline(always)]
    pub fn plies(&self) -> u32 {
        self.plies as u32
    }

    /// Four times the Euler number (groups − holes) of `player`'s pieces, kept incrementally.
    #[inline(always)]
    pub fn euler4(&self, player: Player) -> i16 {
        self.euler4[player.index()]
    }

    /// Whether `player`'s pieces form one 8-connected group.
    #[inline]
    pub fn is_connected(&self, player: Player) -> bool {
        let i = player.index();
        connected(self.pieces[i], self.euler4[i])
    }

    /// The destinations of the piece on `from` (of the side to move), as a bitboard.
    #[inline(always)]
    fn targets_from(&self, from: usize, own: Bitboard, enemy: Bitboard) -> Bitboard {
        self.targets_on_lines::<false>(from, own, enemy)
    }

    /// The destinations of the piece on `from` over its four lines, from
    /// [`targets_along`](Self::targets_along) or, with `BRANCHLESS`,
    /// [`targets_along_branchless`](Self::targets_along_branchless).
    #[inline(always)]
    fn targets_on_lines<const BRANCHLESS: bool>(
        &self,
        from: usize,
        own: Bitboard,
        enemy: Bitboard,
    ) -> Bitboard {
        let mut targets = 0u64;
        let mut line = 0;
        while line < 4 {
            targets |= if BRANCHLESS {
                self.targets_along_branchless(line, from, own.0, enemy.0)
            } else {
                self.targets_along(line, from, own.0, enemy.0)
            };
            line += 1;
        }
        Bitboard(targets)
    }

    /// The destinations of the piece on `from`, owned by the side of `own`, along line type
    /// `line` (file, rank, diagonal, anti-diagonal: directions `2·line` and `2·line + 1`).
    #[inline(always)]
    fn targets_along(&self, line: usize, from: usize, own: u64, enemy: u64) -> u64 {
        // The ray tables are raw words: the lines and paths are looked up by square.
        let (line, from) = (line & 3, from & 63);
        let n = ((own | enemy) & LINES[line][from]).count_ones() as usize;
        let mut targets = 0u64;
        for d in [2 * line, 2 * line + 1] {
            // A line holds 1 to 8 pieces, and 8 squares away is off the board from anywhere,
            // as is the unused index 0 (checked with the table), so `& 7` changes nothing.
            let to = DEST[d][from][n & 7];
            if to != NONE {
                let to_bit = 1u64 << to;
                let between = RAYS[d][from] ^ RAYS[d][to as usize & 63] ^ to_bit;
                if to_bit & own == 0 && between & enemy == 0 {
                    targets |= to_bit;
                }
            }
        }
        targets
    }

    /// [`targets_from`](Self::targets_from) without a branch on whether a direction has a
    /// move, for the αβ playout: its reply generation meets directions that do and do not at
    /// random, and the branches on them were a quarter of its mispredictions (callgrind's branch
    /// simulator). Bulk generation (perft, the expansions) keeps the branching form, which skips
    /// the path test off the board and ran perft 5 about 30% faster.
    #[inline(always)]
    pub(super) fn targets_from_branchless(
        &self,
        from: usize,
        own: Bitboard,
        enemy: Bitboard,
    ) -> Bitboard {
        self.targets_on_lines::<true>(from, own, enemy)
    }

    /// [`targets_along`](Self::targets_along) with its tests combined without a branch (see
    /// [`targets_from_branchless`](Self::targets_from_branchless)). An off-board destination
    /// (`NONE`) reads square 0's entries, and the combined test refuses it.
    #[inline(always)]
    pub(super) fn targets_along_branchless(
        &self,
        line: usize,
        from: usize,
        own: u64,
        enemy: u64,
    ) -> u64 {
        let (line, from) = (line & 3, from & 63);
        let n = ((own | enemy) & LINES[line][from]).count_ones() as usize;
        let mut targets = 0u64;
        for d in [2 * line, 2 * line + 1] {
            let (to, refused) = step_branchless(d, from, n, own, enemy);
            targets |= (1u64 << (to & 63)) & u64::from(refused == 0).wrapping_neg();
        }
        targets
    }

    /// Whether the side to move has a move other than the pass (ignores whether the game is over).
    fn has_piece_move(&self) -> bool {
        let own = self.pieces[self.side.index()];
        let enemy = self.pieces[self.side.index() ^ 1];
        own.iter()
            .any(|from| self.targets_from(from as usize, own, enemy).any())
    }

    /// The outcome of the current position as the rules decide it from the pieces, the history
    /// and the side to move. `check_mover` / `check_opponent`: whether the connectivity of the
    /// side that just moved / of the side to move may have changed (a side that was not
    /// connected before a move stays so unless the move touched its pieces).
    /// `repetition_possible`: false when a playout's filters rule out a repetition.
    #[inline(always)]
    fn decide(
        &self,
        check_mover: bool,
        check_opponent: bool,
        repetition_possible: bool,
    ) -> Option<Outcome> {
        let mover = self.side.opponent();
        let mover_conn = check_mover && self.is_connected(mover);
        let opp_conn = check_opponent && self.is_connected(self.side);
        match (mover_conn, opp_conn) {
            (true, true) if self.rules.simultaneous_mover_wins => return Some(Outcome::Win(mover)),
            (true, true) => return Some(Outcome::Draw),
            (true, false) => return Some(Outcome::Win(mover)),
            (false, true) => return Some(Outcome::Win(self.side)),
            (false, false) => {}
        }
        if (repetition_possible && self.repetitions() >= 2)
            || self.plies as usize >= HISTORY_CAPACITY
        {
            return Some(Outcome::Draw);
        }
        if self.rules.no_move_loses && !self.has_piece_move() {
            return Some(Outcome::Win(mover));
        }
        None
    }

    /// How many earlier positions since the last capture equal the current one (same pieces,
    /// same side to move).
    fn repetitions(&self) -> u32 {
        // Past the cap (only after illegal makes on a finished game) nothing more is stored.
        let plies = (self.plies as usize).min(HISTORY_CAPACITY);
        let from = self.reversible_from as usize;
        // Positions with the same side to move lie an even number of plies back. They are
        // compared four at a time, each counted only when it lies at or after `from`: the
        // loop's trip count then changes every eight plies, where one position a round made
        // its exit change every second ply, a misprediction about every playout move
        // (callgrind's branch simulator, `mcts(ipp)`).
        let mut count = 0u32;
        let mut i = plies;
        while i >= from + 2 {
            for back in [2, 4, 6, 8] {
                let at = i.saturating_sub(back);
                let inside = u32::from(i >= from + back);
                count += inside & u32::from(self.history[at] == self.key);
            }
            i = i.saturating_sub(8);
        }
        count
    }

    /// Whether the legal move `mv` wins at once by connecting the mover's pieces (and not, under
    /// the default rules, the opponent's too). Cheaper than make: no history or key update.
    pub fn wins_at_once(&self, mv: Move) -> bool {
        if mv.is_pass() {
            return false;
        }
        let us = self.side.index();
        let to = mv.to & 63;
        let own = self.pieces[us].without(mv.from & 63).with(to);
        if !connected(own, 0) {
            return false;
        }
        let enemy = self.pieces[us ^ 1];
        !enemy.contains(to)
            || self.rules.simultaneous_mover_wins
            || !connected(enemy.without(to), 0)
    }

    /// Whether the game ended by repetition or the ply cap rather than by connection.
    pub fn ended_by_history(&self) -> bool {
        self.outcome == Some(Outcome::Draw)
            && !self.is_connected(Player::First)
            && !self.is_connected(Player::Second)
    }

    /// Adds ([`ADD`]) or removes ([`REMOVE`]) a piece of side `p` on `sq`, keeping the Euler
    /// number and key up to date. The caller knows which, so no branch asks the board.
    #[inline(always)]
    fn toggle<const ADD: bool>(&mut self, p: usize, sq: u8) {
        debug_assert_eq!(self.pieces[p].contains(sq), !ADD);
        // The neighbour block leaves `sq` out, so it is the same before and after.
        let delta = tables::add_delta(tables::neighbours(self.pieces[p].0, sq));
        self.euler4[p] += if ADD { delta } else { -delta };
        self.pieces[p].toggle(sq);
        self.key ^= ZOBRIST[p][sq as usize];
    }

    /// Checks every incrementally kept quantity against a from-scratch recomputation.
    #[inline]
    fn debug_check(&self) {
        debug_assert!(!self.pieces[0].intersects(self.pieces[1]));
        debug_assert_eq!(self.euler4[0], euler4_from_scratch(self.pieces[0]));
        debug_assert_eq!(self.euler4[1], euler4_from_scratch(self.pieces[1]));
        debug_assert_eq!(self.key, key_from_scratch(self.pieces, self.side));
        debug_assert!(
            self.history[self.plies.min(HISTORY_CAPACITY as u16) as usize..]
                .iter()
                .all(|&k| k == 0)
        );
    }
}

/// The Zobrist key of the start position.
const START_KEY: u64 = key_from_scratch(LinesOfAction::START_PIECES, Player::First);

impl LinesOfAction {
    /// The start position's pieces: Black on b1–g1 and b8–g8, White on a2–a7 and h2–h7.
    pub const START_PIECES: [Bitboard; 2] =
        [Bitboard(0x7E | 0x7E << 56), Bitboard(0x0081_8181_8181_8100)];
}

impl fmt::Debug for LinesOfAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LinesOfAction { position: \"")?;
        notation::write_position(self, f)?;
        write!(
            f,
            "\", rules: {:?}, plies: {}, reversible_from: {}, outcome: {:?}, key: {:#018x}, \
             euler4: {:?}, last keys: {:x?} }}",
            self.rules,
            self.plies,
            self.reversible_from,
            self.outcome,
            self.key,
            self.euler4,
            &self.history[(self.plies as usize)
                .saturating_sub(4)
                .min(HISTORY_CAPACITY)
                ..(self.plies as usize).min(HISTORY_CAPACITY)],
        )
    }
}

impl Default for LinesOfAction {
    fn default() -> Self {
        Self::start()
    }
}

/// For each parity of ply, a 128-bit filter of the positions since the last capture at plies of
/// that parity (bit `key >> 57` of each one's key): a position can repeat only one of the same
/// parity (the same side to move), so when its bit is clear no earlier position equals it and
/// the repetition scan is skipped. Kept by a playout's own loop
/// ([`LinesOfAction::filtered_playout`]), where the scan over the history since the last
/// capture was about a tenth of an informed simulation's instructions; the bits set, of some
/// 20 positions a parity, are few enough that most scans are skipped.
#[derive(Clone, Copy, Debug)]
struct RepetitionFilters([[u64; 2]; 2]);

/// Sets bit `key >> 57` (of 128) of `filter`, kept as two words: a 128-bit shift by a variable
/// amount takes a double-word shift and a select on x86-64.
#[inline(always)]
fn filter_set(filter: &mut [u64; 2], key: u64) {
    filter[(key >> 63) as usize] |= 1u64 << (key >> 57 & 63);
}

/// Whether bit `key >> 57` of `filter` is set.
#[inline(always)]
fn filter_has(filter: &[u64; 2], key: u64) -> bool {
    filter[(key >> 63) as usize] >> (key >> 57 & 63) & 1 != 0
}

impl RepetitionFilters {
    /// The filters of `pos`'s history since its last capture.
    // `compact-code` builds play the default playout loops (the tests still use this).
    #[cfg_attr(feature = "compact-code", allow(dead_code))]
    fn of(pos: &LinesOfAction) -> RepetitionFilters {
        let mut f = [[0u64; 2]; 2];
        let end = (pos.plies as usize).min(HISTORY_CAPACITY);
        for i in pos.reversible_from as usize..end {
            filter_set(&mut f[i & 1], pos.history[i]);
        }
        RepetitionFilters(f)
    }

    /// Takes in the move from the position `old_key` at ply `old_plies` (a capture empties
    /// both filters: the history since it is empty) and answers whether the new position
    /// `key`, at ply `plies`, may repeat an earlier one.
    #[inline(always)]
    fn after_move(
        &mut self,
        old_plies: u16,
        old_key: u64,
        captured: bool,
        plies: u16,
        key: u64,
    ) -> bool {
        if captured {
            self.0 = [[0; 2]; 2];
        } else {
            filter_set(&mut self.0[usize::from(old_plies) & 1], old_key);
        }
        filter_has(&self.0[usize::from(plies) & 1], key)
    }
}

impl LinesOfAction {
    /// [`Game::make`], with `filters` (a playout's) kept and consulted for the repetition test.
    #[inline(always)]
    fn make_with(&mut self, mv: Move, filters: Option<&mut RepetitionFilters>) -> Undo {
        let us = self.side.index();
        let them = us ^ 1;
        let captured = !mv.is_pass() && self.pieces[them].contains(mv.to & 63);
        let undo = Undo {
            captured,
            reversible_from: self.reversible_from,
            outcome: self.outcome,
        };
        let (old_plies, old_key) = (self.plies, self.key);
        if let Some(slot) = self.history.get_mut(self.plies as usize) {
            *slot = self.key;
        }
        self.plies = self.plies.saturating_add(1);
        if !mv.is_pass() {
            self.toggle::<REMOVE>(us, mv.from & 63);
            if captured {
                self.toggle::<REMOVE>(them, mv.to & 63);
                self.reversible_from = self.plies;
            }
            self.toggle::<ADD>(us, mv.to & 63);
        }
        self.side = self.side.opponent();
        self.key ^= ZOBRIST_SIDE;
        let repetition_possible = match filters {
            None => true,
            Some(f) => f.after_move(old_plies, old_key, captured, self.plies, self.key),
        };
        // The side that passed or did not capture keeps the opponent's groups as they were
        // (not connected, since the game was not over).
        self.outcome = self.decide(!mv.is_pass(), captured, repetition_possible);
        self.debug_check();
        debug_assert_eq!(self.outcome, self.decide(true, true, true));
        undo
    }

    /// [`Game::undo`].
    #[inline(always)]
    fn undo_move(&mut self, mv: Move, undo: Undo) {
        self.side = self.side.opponent();
        self.key ^= ZOBRIST_SIDE;
        let us = self.side.index();
        let them = us ^ 1;
        if !mv.is_pass() {
            self.toggle::<REMOVE>(us, mv.to & 63);
            if undo.captured {
                self.toggle::<ADD>(them, mv.to & 63);
            }
            self.toggle::<ADD>(us, mv.from & 63);
        }
        self.plies = self.plies.saturating_sub(1);
        if let Some(slot) = self.history.get_mut(self.plies as usize) {
            *slot = 0;
        }
        self.reversible_from = undo.reversible_from;
        self.outcome = undo.outcome;
        self.debug_check();
    }

    /// Plays the moves `step` picks until the game ends or `max_plies` moves were played, as
    /// the default playout loops do, with the repetition test filtered: the same positions,
    /// outcomes and histories as [`Game::make`]'s.
    #[inline(always)]
    #[cfg_attr(feature = "compact-code", allow(dead_code))]
    fn filtered_playout(
        &mut self,
        max_plies: u32,
        mut step: impl FnMut(&LinesOfAction) -> Move,
    ) -> (Option<Outcome>, u32) {
        let mut filters = RepetitionFilters::of(self);
        let mut plies = 0;
        loop {
            if let Some(o) = self.outcome {
                return (Some(o), plies);
            }
            if plies >= max_plies {
                return (None, plies);
            }
            let mv = step(self);
            self.make_with(mv, Some(&mut filters));
            plies += 1;
        }
    }

    /// [`filtered_playout`](Self::filtered_playout) with the early terminations of `cutoffs`,
    /// tested in the order of the search's general playout loop: the end of the game, the
    /// fixed cutoff's evaluation, `det`'s verdict (after every `interval`-th move, never
    /// before the first), then the ply cap's draw. Returns the reward for the first player and
    /// the moves played.
    #[inline(always)]
    #[cfg_attr(feature = "compact-code", allow(dead_code))]
    fn filtered_playout_with_cutoffs(
        &mut self,
        cutoffs: &PlayoutCutoffs<LinesOfActionEval>,
        max_plies: u32,
        mut step: impl FnMut(&mut LinesOfAction) -> Move,
    ) -> (f32, u32) {
        let mut filters = RepetitionFilters::of(self);
        let mut plies = 0u32;
        loop {
            if let Some(o) = self.outcome {
                return (o.reward(Player::First), plies);
            }
            if let Some(x) = cutoffs.fixed_cutoff {
                if plies >= x {
                    return (self.evaluate(cutoffs.eval, Player::First), plies);
                }
            }
            if let Some((threshold, interval)) = cutoffs.det {
                if plies > 0 && plies.is_multiple_of(interval) {
                    let v = self.evaluate(cutoffs.eval, Player::First);
                    if let Some(r) = det_verdict(v, threshold, false) {
                        return (r, plies);
                    }
                }
            }
            if plies >= max_plies {
                return (0.0, plies);
            }
            let mv = step(self);
            self.make_with(mv, Some(&mut filters));
            plies += 1;
        }
    }
}

impl Game for LinesOfAction {
    type Move = Move;
    type Undo = Undo;
    type MoveList = MoveList;
    type Eval = LinesOfActionEval;

    const NAME: &'static str = "loa";
    const EVALS: &'static [(&'static str, LinesOfActionEval)] = &[("mia", LinesOfActionEval::Mia)];
    const MAX_MOVES: usize = MAX_MOVES;
    /// A game that reaches [`HISTORY_CAPACITY`] plies is drawn.
    const MAX_GAME_PLIES: u32 = HISTORY_CAPACITY as u32;

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
        if self.outcome.is_some() {
            return;
        }
        let own = self.pieces[self.side.index()];
        let enemy = self.pieces[self.side.index() ^ 1];
        for from in own {
            for to in self.targets_from(from as usize, own, enemy) {
                out.push_move(Move { from, to });
            }
        }
        if out.moves().is_empty() {
            out.push_move(Move::PASS);
        }
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        if self.outcome.is_some() {
            return 0;
        }
        let own = self.pieces[self.side.index()];
        let enemy = self.pieces[self.side.index() ^ 1];
        let mut n = 0;
        for from in own {
            n += self.targets_from(from as usize, own, enemy).count() as u64;
        }
        n.max(1)
    }

    fn is_legal(&self, mv: Move) -> bool {
        if self.outcome.is_some() || mv.from >= 64 || mv.to >= 64 {
            return false;
        }
        if mv.is_pass() {
            return mv == Move::PASS && !self.has_piece_move();
        }
        let own = self.pieces[self.side.index()];
        let enemy = self.pieces[self.side.index() ^ 1];
        own.contains(mv.from)
            && self
                .targets_from(mv.from as usize, own, enemy)
                .contains(mv.to)
    }

    #[inline]
    fn make(&mut self, mv: Move) -> Undo {
        self.make_with(mv, None)
    }

    #[inline]
    fn undo(&mut self, mv: Move, undo: Undo) {
        self.undo_move(mv, undo)
    }

    /// Plays the informed policy in a loop of its own: [`Game::make`]'s positions, with the
    /// repetition test filtered (a filter of the positions since the last capture skips most
    /// scans of the history). Not in `compact-code` builds (the browser's module counts its
    /// bytes), which play the default loop: the same moves.
    #[cfg(not(feature = "compact-code"))]
    fn informed_playout(
        &mut self,
        rng: &mut crate::SearchRng,
        max_plies: u32,
    ) -> (Option<Outcome>, u32) {
        self.filtered_playout(max_plies, |pos| knowledge::playout_move_sampled(pos, rng))
    }

    /// The informed policy with `det` in the same loop as
    /// [`informed_playout`](Game::informed_playout) (not in `compact-code` builds either).
    #[cfg(not(feature = "compact-code"))]
    fn informed_playout_with_cutoffs(
        &mut self,
        rng: &mut crate::SearchRng,
        cutoffs: &PlayoutCutoffs<LinesOfActionEval>,
        max_plies: u32,
    ) -> Option<(f32, u32)> {
        Some(
            self.filtered_playout_with_cutoffs(cutoffs, max_plies, |pos| {
                knowledge::playout_move_sampled(pos, rng)
            }),
        )
    }

    /// Plays uniformly random moves in the same loop as
    /// [`informed_playout`](Game::informed_playout) (not in `compact-code` builds either).
    #[cfg(not(feature = "compact-code"))]
    fn random_playout(
        &mut self,
        rng: &mut crate::SearchRng,
        max_plies: u32,
    ) -> (Option<Outcome>, u32) {
        self.filtered_playout(max_plies, |pos| pos.random_playout_move(rng))
    }

    #[inline(always)]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    #[inline]
    fn evaluate(&self, which: LinesOfActionEval, player: Player) -> f32 {
        if let Some(o) = self.outcome {
            return o.reward(player);
        }
        let v = match which {
            LinesOfActionEval::Mia => eval::mia(self),
        };
        if player == Player::First { v } else { -v }
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }

    #[inline(always)]
    fn encode_move(mv: Move) -> u16 {
        (mv.from & 63) as u16 | ((mv.to & 63) as u16) << 6
    }

    #[inline(always)]
    fn decode_move(code: u16) -> Option<Move> {
        let mv = Move {
            from: (code & 63) as u8,
            to: (code >> 6) as u8,
        };
        // The pass is code 0; any other code with from == to names no move.
        (code < 1 << 12 && (!mv.is_pass() || mv == Move::PASS)).then_some(mv)
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

    const HAS_INFORMED_PLAYOUTS: bool = true;

    #[inline]
    fn informed_playout_move(&self, moves: &[Move], rng: &mut crate::SearchRng) -> Move {
        knowledge::playout_move(self, moves, rng)
    }

    #[inline]
    fn informed_playout_step(&self, _list: &mut MoveList, rng: &mut crate::SearchRng) -> Move {
        knowledge::playout_move_sampled(self, rng)
    }

    #[inline]
    fn alpha_beta_playout_move(
        &mut self,
        eval: LinesOfActionEval,
        rng: &mut crate::SearchRng,
    ) -> Move {
        self.two_ply_playout_move(eval, rng, &mut alphabeta_playout::Carry::new())
    }

    fn alpha_beta_playout(
        &mut self,
        rng: &mut crate::SearchRng,
        settings: &PlayoutCutoffs<LinesOfActionEval>,
        max_plies: u32,
    ) -> Option<(f32, u32)> {
        Some(self.alpha_beta_playout_loop(rng, settings, max_plies))
    }

    fn move_bias(&self, mv: Move) -> Option<f32> {
        Some(knowledge::move_bias(self, mv))
    }

    fn order_class(&self, mv: Move) -> u8 {
        knowledge::order_class(self, mv)
    }
}

/// The move from `from` in direction `d` when its line holds `n` pieces, worked out without a
/// branch: its landing square ([`NONE`] off the board, which reads square 0's entries) and a
/// word that is zero exactly when the move is legal (on the board, not onto an own piece, over
/// no enemy piece). A count of 8 reads as 0: both are off the board (see `DEST`).
#[inline(always)]
pub(super) fn step_branchless(d: usize, from: usize, n: usize, own: u64, enemy: u64) -> (u8, u64) {
    let (d, from) = (d & 7, from & 63);
    let to = DEST[d][from][n & 7];
    let t = to as usize & 63;
    let to_bit = 1u64 << t;
    let between = RAYS[d][from] ^ RAYS[d][t] ^ to_bit;
    let refused = u64::from(to == NONE) | (to_bit & own) | (between & enemy);
    (to, refused)
}
