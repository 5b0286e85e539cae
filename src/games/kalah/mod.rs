//! Kalah(6,4): six houses a side, four stones in each house, two stores.
//!
//! ## Rules
//! South ([`Player::First`]) owns the lower row of houses and the store at its right end; North
//! ([`Player::Second`]) owns the upper row and the store at the other end. A move takes every
//! stone out of one of the mover's non-empty houses and sows them one by one counter-clockwise
//! into the following pits, the mover's own store included and the opponent's store skipped.
//! With 13 or more stones the sowing laps the board and also drops a stone back into the house
//! it started from (it is not skipped).
//!
//! - **Extra turn.** If the last stone lands in the mover's store, the same player moves again,
//!   with no limit, so [`Game::side_to_move`] does not always alternate.
//! - **Capture** (see [`KalahRules`]). If the last stone lands in an empty house of the mover,
//!   the default [`KalahRules::Standard`] moves that stone together with the stones of the
//!   opposite house into the mover's store, provided the opposite house is not empty (otherwise
//!   nothing happens). [`KalahRules::EmptyCapture`] (the rules of the paper's code) moves the
//!   capturing stone to the store even when the opposite house is empty, and does not capture
//!   when 13 stones lap back into their own emptied house.
//! - **End.** As soon as, after a move, one side's six houses are all empty, the game ends; each
//!   side's remaining stones go to its own store ([`Game::make`] sweeps them there). A position
//!   built by [`Kalah::from_board`] with one side already empty is likewise over, and its
//!   remaining stones count for their owner. The side with more stones in its store wins;
//!   equal stores are a draw. [`KalahRules::PaperCode`] ends the game as the paper's code
//!   does, which leaves North's house 6 out of its test (see there).
//!
//! ## Representation
//! Fourteen pits in sowing order: South's houses 1–6 (`0..6`), South's store (`6`), North's
//! houses 1–6 (`7..13`), North's store (`13`). House `i` faces house `12 - i`. They are the
//! first 14 bytes of a `[u8; 16]` whose last two stay zero, so that [`Game::make`] reads and
//! writes the board as one 128-bit integer (the sowing and the end test are a few operations
//! on it). [`Game::make`] returns a snapshot of the pits and the side to move as the undo
//! record (17 bytes), so [`Game::undo`] restores the state exactly.
//!
//! ## Notation
//! - A move is the house number `1`–`6`, counted **from the mover's own left** as the mover sits
//!   behind its row: house 1 is the mover's house farthest from its own store, house 6 is next
//!   to it. (South's house `n` is pit `n - 1`, North's house `n` is pit `n + 6`.)
//! - A position is `S1,…,S6/N1,…,N6/s-n side [rules]`: South's houses 1–6, North's houses 1–6
//!   (each counted from its owner's left), the stores of South and North, the side to move (`s`
//!   for South, `n` for North) and, only for [`KalahRules::EmptyCapture`], the word
//!   `empty-capture`, or for [`KalahRules::PaperCode`] the word `paper-code` (`standard` is
//!   accepted too). The start is
//!   `4,4,4,4,4,4/4,4,4,4,4,4/0-0 s`.

mod eval;
mod notation;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
#[cfg(test)]
mod tests;

pub use eval::KalahEval;

use crate::SearchRng;
use crate::game::{Game, MoveBuffer, Outcome, ParseError, Player, Problem};
use core::fmt::{self, Write};

/// Houses per side.
pub const HOUSES: usize = 6;
/// Stones in the game: 6 houses × 4 stones × 2 sides.
pub const STONES: u8 = 48;
/// Most legal moves: one per house of the mover.
pub const MAX_MOVES: usize = 6;
/// The scale `k` of the evaluation `tanh(Δ / k)`, where `Δ` is the store difference. With
/// `k = 10`, a 10-stone lead evaluates to about 0.76 and a 20-stone lead to about 0.96.
pub const EVAL_SCALE: f32 = 10.0;

/// The capture rule.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum KalahRules {
    /// A last stone in an empty own house captures itself and the opposite house's stones,
    /// only if the opposite house is not empty.
    #[default]
    Standard,
    /// The rules of the paper's code: as [`Standard`](KalahRules::Standard), but the capturing
    /// stone goes to the store even when the opposite house is empty, and 13 stones that lap
    /// back into their own emptied house do not capture (the code tests "empty" before sowing).
    EmptyCapture,
    /// The rules the paper's code (tpepels/mcts_gameframe, `kalah.game.Board`) actually plays,
    /// for games judged by that code only: [`EmptyCapture`](KalahRules::EmptyCapture), and the
    /// code's end test, which sums North's houses 1–5 only, so the game also ends when they are
    /// empty while North's house 6 still holds stones. The score is then as usual (each side's
    /// store plus its houses, house 6 included), which is how the code's `getEndScore` counts
    /// a finished game. Not Kalah as published: use it only to play against that code.
    PaperCode,
}

impl KalahRules {
    /// Whether the capture rule is the paper's code's (see [`KalahRules::EmptyCapture`]).
    #[inline(always)]
    pub const fn empty_capture(self) -> bool {
        !matches!(self, KalahRules::Standard)
    }
}

/// A Kalah move: the mover's house, `0..6`, counted from the mover's own left (notation `1`–`6`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move(pub u8);

/// The fixed-capacity legal-move list of Kalah.
pub type MoveList = heapless::Vec<Move, MAX_MOVES>;

/// What [`Kalah::make`](Game::make) returns: the pits and side to move before the move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Undo {
    pits: [u8; 16],
    side: Player,
}

/// A Kalah position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Kalah {
    /// Pits in sowing order: South houses, South store, North houses, North store; then two
    /// bytes that are always zero (the board as one integer: [`Kalah::word`]).
    pits: [u8; 16],
    side: Player,
    rules: KalahRules,
}

impl Default for Kalah {
    fn default() -> Self {
        Self::start()
    }
}

/// The pit index of `player`'s house `house` (`0..6`).
#[inline(always)]
const fn pit(player: Player, house: u8) -> usize {
    7 * player.index() + house as usize
}

/// The pit index of `player`'s store.
#[inline(always)]
const fn store(player: Player) -> usize {
    7 * player.index() + 6
}

/// `0xFF` in bytes 16–31: a 16-byte window starting at byte `16 - a` is `0xFF` from byte `a` up.
const FROM: [u8; 32] = {
    let mut t = [0; 32];
    let mut i = 16;
    while i < 32 {
        t[i] = 0xFF;
        i += 1;
    }
    t
};

/// `0xFF` in bytes 0–15: a 16-byte window starting at byte `16 - b` is `0xFF` below byte `b`.
const BELOW: [u8; 32] = {
    let mut t = [0; 32];
    let mut i = 0;
    while i < 16 {
        t[i] = 0xFF;
        i += 1;
    }
    t
};

/// The 16 bytes of `table` from byte `offset` (`offset ≤ 16`), as one little-endian integer.
#[inline(always)]
fn window(table: &[u8; 32], offset: usize) -> u128 {
    let mut bytes = [0; 16];
    bytes.copy_from_slice(&table[offset..offset + 16]);
    u128::from_le_bytes(bytes)
}

/// `0xFF` in every byte from `a` up (`a ≤ 16`).
#[inline(always)]
fn bytes_from(a: usize) -> u128 {
    window(&FROM, 16 - a)
}

/// `0xFF` in every byte below `b` (`b ≤ 16`).
#[inline(always)]
fn bytes_below(b: usize) -> u128 {
    window(&BELOW, 16 - b)
}

/// A 1 in the byte of every pit a sowing by `player` can drop a stone into: every pit but the
/// opponent's store.
#[inline(always)]
const fn sown_pits(player: Player) -> u128 {
    let pits = u128::from_le_bytes([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
    pits & !(1 << (8 * store(player.opponent())))
}

/// A mask of `0xFF` in the bytes of pits `a..b`.
const fn pit_bytes(a: usize, b: usize) -> u128 {
    let mut m = 0u128;
    let mut i = a;
    while i < b {
        m |= 0xFF << (8 * i);
        i += 1;
    }
    m
}

/// South's six houses in the board's integer.
const SOUTH_HOUSES: u128 = pit_bytes(0, 6);
/// North's houses 1–5 (pits 7–11), the part of North's row the paper's code's end test sums.
const NORTH_FIRST_FIVE: u128 = pit_bytes(7, 12);
/// North's six houses.
const NORTH_HOUSES: u128 = pit_bytes(7, 13);

/// The stones in pit `i` of the board's integer `w`.
#[inline(always)]
fn byte(w: u128, i: usize) -> u8 {
    (w >> (8 * i)) as u8
}

/// Sows the stones of pit `start` (a house of `player`) counter-clockwise in the board `w` (the
/// pits as the bytes of one integer, [`Kalah::word`]), skipping the opponent's store, and
/// returns the board after it, the pit the last stone landed in and the number of whole laps.
///
/// Branch-free: the sowing adds a 1 to every pit of the sown range at once (the range's bytes
/// cut from two small tables of `0xFF` runs), instead of one loop iteration per stone whose
/// exit the CPU cannot predict. No byte carries into the next: a pit holds at most the game's
/// 48 stones.
#[inline(always)]
fn sow(mut w: u128, player: Player, start: usize) -> (u128, usize, u32) {
    let mut n = byte(w, start) as u32;
    // Empty the start pit.
    w &= bytes_below(start) | bytes_from(start + 1);
    let sown = sown_pits(player);
    // Whole laps: every pit but the opponent's store gets one stone per lap, and a lap ends on
    // `start` itself, so the rest of the stones continue from there.
    let laps = n / 13;
    if laps > 0 {
        w += laps as u128 * sown;
        n -= 13 * laps;
    }
    // The rest: `n < 13` pits after `start`, one more if the skipped store falls among them,
    // wrapping past pit 13 at most once.
    let skip = store(player.opponent());
    let to_skip = ((skip + 14 - start) % 14) as u32;
    let len = (n + (to_skip <= n) as u32) as usize;
    let end = start + 1 + len;
    let range = (bytes_from(start + 1) & bytes_below(end.min(14))) | bytes_below(end.max(14) - 14);
    w += range & sown;
    let last = end - 1;
    (w, if last >= 14 { last - 14 } else { last }, laps)
}

/// [`Kalah::over`] of the board `w` under `rules`.
#[inline(always)]
fn over(w: u128, rules: KalahRules) -> bool {
    let north = if rules == KalahRules::PaperCode {
        NORTH_FIRST_FIVE
    } else {
        NORTH_HOUSES
    };
    w & SOUTH_HOUSES == 0 || w & north == 0
}

/// Most stones one pit can hold: all of the game's.
#[cfg(not(feature = "compact-code"))]
const MAX_PIT: usize = STONES as usize;

/// A value for each sowing: player, house, stones (`0..=48`).
#[cfg(not(feature = "compact-code"))]
type BySowing<T> = [[[T; MAX_PIT + 1]; HOUSES]; 2];

/// `SOWN[p][h][n]`: what sowing `n` stones from player `p`'s house `h` adds to the board (as
/// the integer [`Kalah::word`], modulo 2^128: the start pit's `n` stones taken out, one stone
/// added to each pit sown), and `LAST[p][h][n]` the pit the last stone lands in. Computed at
/// compile time by dropping the stones one by one, so that a move reads its sowing instead of
/// working out the sown range: `make` was about 110 instructions, a quarter of a `mcts(fet4)`
/// simulation's (callgrind). 9.4 KB and 588 bytes, a desktop speed-up: `compact-code` builds
/// (the firmware, the web page) work the sowing out ([`sow`]) instead.
#[cfg(not(feature = "compact-code"))]
static SOWN: BySowing<u128> = sowing_tables().0;
#[cfg(not(feature = "compact-code"))]
static LAST: BySowing<u8> = sowing_tables().1;

/// The sowing tables ([`SOWN`], [`LAST`]), stone by stone.
#[cfg(not(feature = "compact-code"))]
const fn sowing_tables() -> (BySowing<u128>, BySowing<u8>) {
    let mut sown = [[[0u128; MAX_PIT + 1]; HOUSES]; 2];
    let mut last = [[[0u8; MAX_PIT + 1]; HOUSES]; 2];
    let mut p = 0;
    while p < 2 {
        let player = if p == 0 {
            Player::First
        } else {
            Player::Second
        };
        let skip = store(player.opponent());
        let mut h = 0;
        while h < HOUSES {
            let start = pit(player, h as u8);
            let (mut add, mut i) = (0u128, start);
            last[p][h][0] = start as u8;
            let mut n = 1;
            while n <= MAX_PIT {
                i = (i + 1) % 14;
                if i == skip {
                    i = (i + 1) % 14;
                }
                add += 1 << (8 * i);
                // Taking the start pit's stones out cannot borrow from the next pit: the
                // board's byte there holds exactly `n`.
                sown[p][h][n] = add.wrapping_sub((n as u128) << (8 * start));
                last[p][h][n] = i as u8;
                n += 1;
            }
            h += 1;
        }
        p += 1;
    }
    (sown, last)
}

/// [`sow`] from the tables: the same board, last pit and laps. `n` is the board's count at
/// `start` (read by the caller from the pits, where it is one load).
#[cfg(not(feature = "compact-code"))]
#[inline(always)]
fn sow_move(w: u128, player: Player, house: usize, start: usize, n: u8) -> (u128, usize, u32) {
    let n = n as usize;
    match (
        SOWN[player.index()][house].get(n),
        LAST[player.index()][house].get(n),
    ) {
        (Some(&add), Some(&last)) => (w.wrapping_add(add), last as usize, n as u32 / 13),
        // More stones than the game has (not a position `Kalah` builds): work it out.
        _ => sow_cold(w, player, start),
    }
}

/// [`sow`] out of line, for the tables' impossible case: inlined, it cost `make` the registers
/// it saves on entry.
#[cfg(not(feature = "compact-code"))]
#[cold]
#[inline(never)]
fn sow_cold(w: u128, player: Player, start: usize) -> (u128, usize, u32) {
    sow(w, player, start)
}

/// [`sow`], the one copy of the sowing that `compact-code` builds keep.
#[cfg(feature = "compact-code")]
#[inline(always)]
fn sow_move(w: u128, player: Player, _house: usize, start: usize, _n: u8) -> (u128, usize, u32) {
    sow(w, player, start)
}

impl Kalah {
    /// The start position under the standard rules: four stones in every house, South to move.
    pub const fn start() -> Self {
        Self::with_rules(KalahRules::Standard)
    }

    /// The start position under the given capture rule.
    pub const fn with_rules(rules: KalahRules) -> Self {
        Kalah {
            pits: [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0, 0, 0],
            side: Player::First,
            rules,
        }
    }

    /// Builds a position from each side's houses (`houses[p][i]` is player `p`'s house `i`,
    /// counted from that player's left), the stores and the side to move. At most
    /// [`STONES`] stones in all, so scores stay within [`Kalah::MAX_MARGIN`](Game::MAX_MARGIN).
    pub fn from_board(
        houses: [[u8; HOUSES]; 2],
        stores: [u8; 2],
        side: Player,
        rules: KalahRules,
    ) -> Result<Self, ParseError> {
        let mut pits = [0u8; 16];
        let mut total = 0u32;
        for p in Player::BOTH {
            for h in 0..HOUSES {
                pits[pit(p, h as u8)] = houses[p.index()][h];
                total += houses[p.index()][h] as u32;
            }
            pits[store(p)] = stores[p.index()];
            total += stores[p.index()] as u32;
        }
        if total > STONES as u32 {
            return Err(ParseError::new(
                "position",
                Problem::Inconsistent("more than 48 stones"),
            ));
        }
        Ok(Kalah { pits, side, rules })
    }

    /// A random starting board as in the paper's experiments: each of the 48 stones is dropped
    /// into one of the 12 houses uniformly at random, the stores are empty, South moves first,
    /// under the rules of the paper's code ([`KalahRules::EmptyCapture`]), which produced the
    /// paper's Kalah numbers.
    pub fn random_board(rng: &mut SearchRng) -> Self {
        let mut pits = [0u8; 16];
        for _ in 0..STONES {
            let h = crate::rng::below(rng, 12) as usize;
            pits[if h < 6 { h } else { h + 1 }] += 1;
        }
        Kalah {
            pits,
            side: Player::First,
            rules: KalahRules::EmptyCapture,
        }
    }

    /// The same position under another capture rule.
    pub const fn under_rules(mut self, rules: KalahRules) -> Self {
        self.rules = rules;
        self
    }

    /// The capture rule in force.
    pub const fn rules(&self) -> KalahRules {
        self.rules
    }

    /// The stones in `player`'s house `house` (`0..6`, from that player's left).
    pub const fn house(&self, player: Player, house: u8) -> u8 {
        if house as usize >= HOUSES {
            return 0;
        }
        self.pits[pit(player, house)]
    }

    /// The stones in `player`'s store.
    pub const fn store(&self, player: Player) -> u8 {
        self.pits[store(player)]
    }

    /// The stones in `player`'s six houses.
    #[inline]
    pub fn houses_total(&self, player: Player) -> u8 {
        let b = pit(player, 0);
        self.pits[b..b + HOUSES].iter().sum()
    }

    /// The pits as one integer, pit `i` in byte `i` (bytes 14 and 15 zero).
    #[inline(always)]
    fn word(&self) -> u128 {
        u128::from_le_bytes(self.pits)
    }

    /// Whether one side's houses are all empty (the game is over). Under
    /// [`KalahRules::PaperCode`] North's house 6 (pit 12) is left out of North's test.
    #[inline(always)]
    fn over(&self) -> bool {
        over(self.word(), self.rules)
    }

    /// The end of the game: each side's remaining stones go to its own store. Out of line (a
    /// game ends once), so that the move's common path saves no registers for it.
    #[cold]
    #[inline(never)]
    fn sweep(&mut self) {
        for p in Player::BOTH {
            let t = self.houses_total(p);
            self.pits[store(p)] += t;
            let b = pit(p, 0);
            self.pits[b..b + HOUSES].fill(0);
        }
    }

    /// The pits after sowing `mv` (and its capture), before the end test's sweep, and whether
    /// the mover moves again: [`make`](Game::make)'s work, which the paper's code's evaluation
    /// of a finished board also needs ([`Game::paper_code_end_value`]). One copy in
    /// `compact-code` builds.
    #[cfg_attr(not(feature = "compact-code"), inline(always))]
    fn sown(&self, mv: Move) -> ([u8; 16], bool) {
        let me = self.side;
        let own_store = store(me);
        let house = mv.0 as usize % HOUSES;
        let start = pit(me, house as u8);
        let (w, i, laps) = sow_move(self.word(), me, house, start, self.pits[start]);
        // The capture reads and writes single pits: as bytes (`i ≤ 13`, so `& 15` only tells
        // the compiler so), where the integer would need 128-bit shifts.
        let mut pits = w.to_le_bytes();
        let mut again = false;
        if i == own_store {
            again = true;
        } else if usize::from(i >= 7) == me.index()
            && pits[i & 15] == 1
            && !(laps > 0 && self.rules.empty_capture())
        {
            // The paper's code tests "empty" before sowing, so 13 stones that lap back into
            // their own (emptied) house do not capture there.
            let opposite = (12 - i) & 15;
            let loot = pits[opposite];
            if loot > 0 || self.rules.empty_capture() {
                pits[own_store & 15] += loot + 1;
                pits[opposite] = 0;
                pits[i & 15] = 0;
            }
        }
        (pits, again)
    }

    /// Each side's store plus its remaining houses: the final score once the game is over.
    #[inline]
    fn final_scores(&self) -> [i32; 2] {
        Player::BOTH.map(|p| self.store(p) as i32 + self.houses_total(p) as i32)
    }
}

impl Game for Kalah {
    type Move = Move;
    type Undo = Undo;
    type MoveList = MoveList;
    type Eval = KalahEval;

    const NAME: &'static str = "kalah";
    const EVALS: &'static [(&'static str, KalahEval)] = &[("store", KalahEval::StoreDiff)];
    /// One move per house of the mover.
    const MAX_MOVES: usize = MAX_MOVES;
    /// All 48 stones in one store against none.
    const MAX_MARGIN: i32 = STONES as i32;

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
        let base = pit(self.side, 0);
        for h in 0..HOUSES {
            if self.pits[base + h] != 0 {
                out.push_move(Move(h as u8));
            }
        }
    }

    /// The `r`-th non-empty house for `r` drawn below their number: the move the default (a
    /// list, then `below`) picks with the same random number, without the list.
    #[inline]
    fn random_playout_move(&self, rng: &mut SearchRng) -> Move {
        let base = pit(self.side, 0);
        let mut houses = 0u32;
        for h in 0..HOUSES {
            houses |= ((self.pits[base + h] != 0) as u32) << h;
        }
        let mut r = crate::rng::below(rng, houses.count_ones());
        while r > 0 {
            houses &= houses - 1;
            r -= 1;
        }
        Move(houses.trailing_zeros() as u8)
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        if self.over() {
            return 0;
        }
        let base = pit(self.side, 0);
        self.pits[base..base + HOUSES]
            .iter()
            .filter(|&&n| n != 0)
            .count() as u64
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        (mv.0 as usize) < HOUSES && !self.over() && self.pits[pit(self.side, mv.0)] != 0
    }

    // Inlined into the search's loops (5–6% fewer instructions, `docs/performance.md`,
    // "Session 22"); `compact-code` builds leave it to the compiler, as a copy at every caller
    // made the browser's module 20 KB larger (over its 200 KiB limit).
    #[cfg_attr(not(feature = "compact-code"), inline(always))]
    #[cfg_attr(feature = "compact-code", inline)]
    fn make(&mut self, mv: Move) -> Undo {
        let undo = Undo {
            pits: self.pits,
            side: self.side,
        };
        let (pits, again) = self.sown(mv);
        self.pits = pits;
        if over(u128::from_le_bytes(pits), self.rules) {
            self.sweep();
        }
        if !again {
            self.side = self.side.opponent();
        }
        undo
    }

    #[inline(always)]
    fn undo(&mut self, _mv: Move, undo: Undo) {
        self.pits = undo.pits;
        self.side = undo.side;
    }

    /// The stores unswept, as the paper's code evaluates a finished board: `tanh` of the
    /// store difference over 10 whether or not the game is over (row K4 of
    /// `docs/reproduction.md`), where [`evaluate`](Game::evaluate) gives a finished position
    /// its result.
    fn paper_code_end_value(&mut self, mv: Move, _which: KalahEval, player: Player) -> Option<f32> {
        let (pits, _) = self.sown(mv);
        let d = i32::from(pits[store(player)]) - i32::from(pits[store(player.opponent())]);
        Some(eval::squash(d))
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if !self.over() {
            return None;
        }
        let [s, n] = self.final_scores();
        Some(match s.cmp(&n) {
            core::cmp::Ordering::Greater => Outcome::Win(Player::First),
            core::cmp::Ordering::Less => Outcome::Win(Player::Second),
            core::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        self.over()
    }

    /// `tanh((own store − opponent's store) / EVAL_SCALE)`; terminal positions give their reward.
    #[inline]
    fn evaluate(&self, _eval: KalahEval, player: Player) -> f32 {
        eval::evaluate(self, player)
    }

    /// The store difference for `player`; once the game is over, remaining house stones count
    /// for their owner, so this is the final margin.
    fn score_margin(&self, player: Player) -> i32 {
        let s = if self.over() {
            self.final_scores()
        } else {
            [
                self.store(Player::First) as i32,
                self.store(Player::Second) as i32,
            ]
        };
        s[player.index()] - s[player.opponent().index()]
    }

    fn key(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64 ^ (self.side as u64) ^ ((self.rules as u64) << 1);
        for &p in &self.pits[..14] {
            h = (h ^ p as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^ (h >> 31)
    }

    #[inline(always)]
    fn encode_move(mv: Move) -> u16 {
        mv.0 as u16
    }

    #[inline(always)]
    fn decode_move(code: u16) -> Option<Move> {
        ((code as usize) < HOUSES).then_some(Move(code as u8))
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
