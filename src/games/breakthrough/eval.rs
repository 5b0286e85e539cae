//! The paper's two Breakthrough evaluations.
//!
//! - **efMS** (Schadd 2011): `Δ = (10·pieces + 2.5·progress)` of White minus the same of Black,
//!   where progress is how many ranks a side's most advanced piece stands from its own back rank
//!   (0..7); Δ is clamped to ±100 and the value is `tanh(Δ/60)`.
//! - **efLH** (Lorentz & Horey 2013): the sum of a piece-square table over a side's pieces minus
//!   the opponent's; the value is `tanh(Δ/100)`.
//!
//! efLH's sums are kept incrementally by make/undo. efMS needs piece counts and the most advanced
//! piece, which are one popcount and one bit scan of a bitboard: cheaper to read on demand than
//! to track. Both are checked against the square-by-square definitions below in debug builds.

use super::Breakthrough;
use crate::game::Player;

/// Which evaluation function to use.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum BreakthroughEval {
    /// efMS: piece count and progress of the most advanced piece (Schadd).
    #[default]
    Schadd,
    /// efLH: Lorentz & Horey's piece-square table.
    LorentzHorey,
}

/// Lorentz & Horey's piece-square values, indexed `[row][file]` where row 0 is the side's own
/// back rank and row 7 its goal rank.
pub const LH_TABLE: [[i16; 8]; 8] = [
    [5, 15, 15, 5, 5, 15, 15, 5],
    [2, 3, 3, 3, 3, 3, 3, 2],
    [4, 6, 6, 6, 6, 6, 6, 4],
    [7, 10, 10, 10, 10, 10, 10, 7],
    [11, 15, 15, 15, 15, 15, 15, 11],
    [16, 21, 21, 21, 21, 21, 21, 16],
    [20, 28, 28, 28, 28, 28, 28, 20],
    [36, 36, 36, 36, 36, 36, 36, 36],
];

/// The table as seen by each side, indexed by square (a1 = 0).
const LH_BY_SQUARE: [[i16; 64]; 2] = {
    let mut t = [[0i16; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (rank, file) = (sq / 8, sq % 8);
        t[0][sq] = LH_TABLE[rank][file];
        t[1][sq] = LH_TABLE[7 - rank][file];
        sq += 1;
    }
    t
};

/// The sum for a side in the start position (rows 0 and 1 full).
pub(super) const START_LH: i16 = {
    let mut s = 0;
    let mut f = 0;
    while f < 8 {
        s += LH_TABLE[0][f] + LH_TABLE[1][f];
        f += 1;
    }
    s
};

/// The table value of a piece of `player` on `square`.
#[inline(always)]
pub(super) fn lh_value(square: u8, player: Player) -> i16 {
    LH_BY_SQUARE[player.index()][square as usize & 63]
}

/// The efLH sum of `pieces` belonging to `player`, square by square.
pub(super) fn lh_from_scratch(mut pieces: u64, player: Player) -> i16 {
    let mut sum = 0;
    while pieces != 0 {
        sum += lh_value(pieces.trailing_zeros() as u8, player);
        pieces &= pieces - 1;
    }
    sum
}

/// efLH from White's point of view (non-terminal positions).
#[inline]
pub(super) fn lorentz_horey(b: &Breakthrough) -> f32 {
    let delta = (b.lh[0] - b.lh[1]) as f32;
    libm::tanhf(delta / 100.0)
}

/// The efMS material-and-progress score of one side, in quarter points (exact integers).
#[inline(always)]
fn schadd_side(pieces: u64, player: Player) -> i32 {
    if pieces == 0 {
        return 0;
    }
    let progress = match player {
        Player::First => 7 - pieces.leading_zeros() as i32 / 8,
        Player::Second => 7 - pieces.trailing_zeros() as i32 / 8,
    };
    40 * pieces.count_ones() as i32 + 10 * progress
}

/// The same score, square by square, for the debug check.
fn schadd_side_from_scratch(pieces: u64, player: Player) -> i32 {
    let mut count = 0;
    let mut progress = 0;
    for sq in 0..64 {
        if pieces >> sq & 1 != 0 {
            count += 1;
            let row = match player {
                Player::First => sq / 8,
                Player::Second => 7 - sq / 8,
            };
            progress = progress.max(row);
        }
    }
    if count == 0 {
        0
    } else {
        40 * count + 10 * progress
    }
}

/// efMS from White's point of view (non-terminal positions).
#[inline]
pub(super) fn schadd(b: &Breakthrough) -> f32 {
    let w = schadd_side(b.pieces[0].0, Player::First);
    let k = schadd_side(b.pieces[1].0, Player::Second);
    debug_assert_eq!(w, schadd_side_from_scratch(b.pieces[0].0, Player::First));
    debug_assert_eq!(k, schadd_side_from_scratch(b.pieces[1].0, Player::Second));
    // Quarter points back to points, clamp to ±100, squash.
    let delta = ((w - k) as f32 * 0.25).clamp(-100.0, 100.0);
    libm::tanhf(delta / 60.0)
}
