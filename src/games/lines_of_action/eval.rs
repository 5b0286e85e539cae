//! The Lines of Action evaluation, in the spirit of Winands' MIA.
//!
//! Each term is computed for both sides from the bitboards, and the value is
//! `tanh((Σ wᵢ·(termᵢ(Black) − termᵢ(White)) ± tempo) / scale)` from Black's point of view.
//! The terms, their weights ([`WEIGHTS`]), and why:
//!
//! | term | definition | weight | why |
//! |---|---|---|---|
//! | concentration | (Σ Chebyshev distance of the pieces to their centre of mass − the least possible sum for that many pieces) / pieces | −4.5 | MIA's main term: a side close to connecting has its pieces packed around one point |
//! | centralisation | mean of a piece-square table: centre 2×2 = 3, 4×4 ring = 2, 6×6 ring = 1, rim = 0, corner = −1 | 1.0 | central pieces have more moves and join groups more easily; rim pieces are easy to block |
//! | walls | enemy rim pieces whose inward orthogonal neighbour is one of our pieces | 0.5 | such pieces are walled in and cannot easily rejoin their group |
//! | connectedness | 8-adjacent pairs of own pieces / pieces | 2.0 | rewards pieces already touching |
//! | uniformity | − area of the bounding box of own pieces | 0.05 | a compact box means the pieces are near one another |
//! | side to move | + for the side to move | 0.5 | LOA has a clear tempo advantage |
//!
//! `scale` = 8: one square of average surplus distance (4.5 points) gives ≈ 0.51.
//! Cost: about 80 ns per call on the project machine (`cargo bench --bench perft -- loa/evaluate`),
//! against about 50 ns for a make/undo pair.
//!
//! Left out, and why:
//! - **Mobility** (part of MIA) needs a full move generation per evaluation, which would about
//!   double the cost of a tree node; centralisation captures part of it.
//! - **Quads** as a positional term (2×2 blocks with ≥ 3 own pieces, weight 0.5) lost the tuning
//!   match below (85 / 200 against the same weights without it). Quads are still used: the
//!   Euler-number pre-test of connectivity is built from them.
//! - **Centre-of-mass position** (− distance of the centre of mass from the board's centre,
//!   weight 0.5) lost too: without it the weights scored 115.5 and then, on the regenerated
//!   openings, 119 / 200 against the same weights with it. The centre of mass still anchors the
//!   concentration term.
//!
//! Tuning: hand-set weights, then one pass of matches between depth-2 minimax players over the
//! 100 openings of `data/openings/loa.txt`, both colours (200 games), varying one term at a time
//! (`cargo test -p imcts --release --lib tune_eval_weights -- --ignored --nocapture`; one
//! standard error is about ±7 points). The first hand-set weights (concentration −3, quads 0.5,
//! uniformity −0.1, centre of mass 0.5) lost 71–129 to concentration −4.5, no quads, uniformity
//! −0.05. The last pass over the shipped weights is quoted in the test's documentation.

use super::LinesOfAction;
use super::tables::{FILE_A, FILE_H, RANK_1, RANK_8, REGION_OF};
use crate::game::{Game, Player};

/// Which evaluation function to use. Lines of Action has one.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum LoaEval {
    /// The MIA-style evaluation described in the module documentation.
    #[default]
    Mia,
}

/// The weights of the evaluation terms (see the module documentation).
#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) struct Weights {
    pub concentration: f32,
    pub centralisation: f32,
    pub walls: f32,
    pub connectedness: f32,
    pub uniformity: f32,
    pub tempo: f32,
    /// The score is divided by this before `tanh`.
    pub scale: f32,
}

/// The weights [`LoaEval::Mia`] uses.
pub(super) const WEIGHTS: Weights = Weights {
    concentration: -4.5,
    centralisation: 1.0,
    walls: 0.5,
    connectedness: 2.0,
    uniformity: -0.05,
    tempo: 0.5,
    scale: 8.0,
};

/// The centralisation table by square: rings from the centre 3, 2, 1, 0 on the edge, and −1 in
/// the corners.
pub(super) const CENTRAL: [i8; 64] = {
    let mut t = [0i8; 64];
    let mut sq = 0;
    while sq < 64 {
        // Regions 0..=4 (centre … corner) score 3, 2, 1, 0, −1.
        t[sq] = 3 - REGION_OF[sq] as i8;
        sq += 1;
    }
    t
};

/// The least possible sum of Chebyshev distances of `n` pieces to one square: one piece at
/// distance 0, eight at 1, the rest at 2.
const MIN_DISTANCE_SUM: [i32; 13] = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14];

/// The weighted terms of one side (everything but tempo), in points.
fn side_score(own: u64, enemy: u64, w: &Weights) -> f32 {
    let n = own.count_ones() as i32;
    if n == 0 {
        return 0.0;
    }
    // Centre of mass (rounded to a square) and centralisation in one pass over the pieces.
    let (mut sum_r, mut sum_f, mut central) = (0i32, 0i32, 0i32);
    let mut rest = own;
    while rest != 0 {
        let sq = rest.trailing_zeros() as i32;
        rest &= rest - 1;
        sum_r += sq / 8;
        sum_f += sq % 8;
        central += CENTRAL[sq as usize] as i32;
    }
    let com_r = (2 * sum_r + n) / (2 * n);
    let com_f = (2 * sum_f + n) / (2 * n);
    let mut distance = 0i32;
    let mut rest = own;
    while rest != 0 {
        let sq = rest.trailing_zeros() as i32;
        rest &= rest - 1;
        distance += (sq / 8 - com_r).abs().max((sq % 8 - com_f).abs());
    }
    let surplus = distance - MIN_DISTANCE_SUM[n.min(12) as usize];

    let walls = (enemy & FILE_A & (own >> 1))
        | (enemy & FILE_H & (own << 1))
        | (enemy & RANK_1 & (own >> 8))
        | (enemy & RANK_8 & (own << 8));

    let pairs = (own & (own & !FILE_H) << 1).count_ones()
        + (own & own << 8).count_ones()
        + (own & (own & !FILE_H) << 9).count_ones()
        + (own & (own & !FILE_A) << 7).count_ones();

    // Bounding box: files from the OR of all ranks, ranks from the lowest and highest bit.
    let mut files = own | own >> 32;
    files |= files >> 16;
    files |= files >> 8;
    let files = (files & 0xFF) as u8;
    let width = 8 - files.leading_zeros() as i32 - files.trailing_zeros() as i32;
    let height = (63 - own.leading_zeros() as i32) / 8 - own.trailing_zeros() as i32 / 8 + 1;

    let n = n as f32;
    w.concentration * surplus as f32 / n
        + w.centralisation * central as f32 / n
        + w.walls * walls.count_ones() as f32
        + w.connectedness * pairs as f32 / n
        + w.uniformity * (width * height) as f32
}

/// The evaluation from Black's (the first player's) point of view, for non-terminal positions.
#[inline]
pub(super) fn mia(pos: &LinesOfAction) -> f32 {
    mia_with(pos, &WEIGHTS)
}

/// [`mia`] with other weights (for tuning).
#[inline]
pub(super) fn mia_with(pos: &LinesOfAction, w: &Weights) -> f32 {
    let black = pos.pieces(Player::First);
    let white = pos.pieces(Player::Second);
    let tempo = if pos.side_to_move() == Player::First {
        w.tempo
    } else {
        -w.tempo
    };
    let score = side_score(black, white, w) - side_score(white, black, w) + tempo;
    libm::tanhf(score / w.scale)
}
