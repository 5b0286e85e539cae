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
use super::tables::{FILE_A, FILE_H, RANK_1, RANK_8, REGION_OF, neighbours};
use crate::game::{Game, Player};

/// Which evaluation function to use. Lines of Action has one.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum LinesOfActionEval {
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

/// The weights [`LinesOfActionEval::Mia`] uses.
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
/// the corners ([`side_terms`] counts it by region masks; the tests check against this table).
#[cfg(test)]
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
pub(super) const MIN_DISTANCE_SUM: [i32; 13] = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14];

/// Squares whose rank (`RANK_BIT[0..3]`) or file (`FILE_BIT[0..3]`) has bit `b` set: the sum of
/// the pieces' ranks is `Σ 2ᵇ·popcount(own & RANK_BIT[b])`, with no loop over the pieces.
const RANK_BIT: [u64; 3] = [
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];
/// See [`RANK_BIT`].
const FILE_BIT: [u64; 3] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
];

/// The squares of each region (see [`REGION_OF`]), for centralisation by popcounts.
const REGION_MASK: [u64; 5] = {
    let mut t = [0u64; 5];
    let mut sq = 0;
    while sq < 64 {
        t[REGION_OF[sq] as usize] |= 1u64 << sq;
        sq += 1;
    }
    t
};

/// `RANKS_WITHIN[r][k]`: the squares on ranks at most `k` from rank `r`; `FILES_WITHIN` the same
/// for files. Their intersection is the Chebyshev ball of radius `k` around a square.
const RANKS_WITHIN: [[u64; 8]; 8] = {
    let mut t = [[0u64; 8]; 8];
    let mut r = 0;
    while r < 8 {
        let mut k = 0;
        while k < 8 {
            let mut q = 0usize;
            while q < 8 {
                if (q as i32 - r as i32).abs() <= k as i32 {
                    t[r][k] |= 0xFFu64 << (8 * q);
                }
                q += 1;
            }
            k += 1;
        }
        r += 1;
    }
    t
};
/// See [`RANKS_WITHIN`].
const FILES_WITHIN: [[u64; 8]; 8] = {
    let mut t = [[0u64; 8]; 8];
    let mut f = 0;
    while f < 8 {
        let mut k = 0;
        while k < 8 {
            let mut q = 0usize;
            while q < 8 {
                if (q as i32 - f as i32).abs() <= k as i32 {
                    t[f][k] |= super::tables::FILE_A << q;
                }
                q += 1;
            }
            k += 1;
        }
        f += 1;
    }
    t
};

/// The terms of one side that depend only on its own pieces (all but walls), as integers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct SideTerms {
    /// Number of pieces.
    pub n: i32,
    /// Σ Chebyshev distance to the centre of mass − the least possible sum.
    pub surplus: i32,
    /// Σ of the centralisation table.
    pub central: i32,
    /// 8-adjacent pairs.
    pub pairs: i32,
    /// Area of the bounding box.
    pub area: i32,
}

/// The own-pieces terms of a side, from its bitboard: popcounts and table lookups, no loop over
/// the pieces.
#[inline]
pub(super) fn side_terms(own: u64) -> SideTerms {
    let n = own.count_ones() as i32;
    if n == 0 {
        return SideTerms {
            n: 0,
            surplus: 0,
            central: 0,
            pairs: 0,
            area: 0,
        };
    }
    // Centre of mass, rounded to a square.
    let (sum_r, sum_f) = coordinate_sums(own);
    let surplus = distance_to(own, mass_centre(sum_r, n), mass_centre(sum_f, n))
        - MIN_DISTANCE_SUM[n.min(12) as usize];
    SideTerms {
        n,
        surplus,
        central: central(own),
        pairs: pairs(own),
        area: area(own),
    }
}

/// The sums of the ranks and of the files of `own`'s pieces, by popcounts.
#[inline(always)]
fn coordinate_sums(own: u64) -> (i32, i32) {
    let pc = |m: u64| (own & m).count_ones() as i32;
    (
        pc(RANK_BIT[0]) + 2 * pc(RANK_BIT[1]) + 4 * pc(RANK_BIT[2]),
        pc(FILE_BIT[0]) + 2 * pc(FILE_BIT[1]) + 4 * pc(FILE_BIT[2]),
    )
}

/// The centralisation table summed over `own`'s pieces, by popcounts of the regions.
#[inline(always)]
fn central(own: u64) -> i32 {
    let pc = |m: u64| (own & m).count_ones() as i32;
    3 * pc(REGION_MASK[0]) + 2 * pc(REGION_MASK[1]) + pc(REGION_MASK[2]) - pc(REGION_MASK[4])
}

/// The rank (or file) of the centre of mass of `n` > 0 pieces whose ranks (files) add up to
/// `sum`: the mean, rounded half up, `(2·sum + n) / (2n)`, by a multiplication
/// ([`HALF_RECIPROCAL`]).
#[inline(always)]
fn mass_centre(sum: i32, n: i32) -> usize {
    (((2 * sum + n) as u32 * HALF_RECIPROCAL[n as usize & 15]) >> 16) as usize & 7
}

/// `⌈2¹⁶ / 2n⌉` for `n` = 1..=12 pieces, so that `x · HALF_RECIPROCAL[n] >> 16` is `x / 2n` for
/// every `x` below 2¹⁰ (checked below for all of them; a side's numerator is at most
/// 2·12·7 + 12 = 180).
const HALF_RECIPROCAL: [u32; 16] = {
    let mut t = [0u32; 16];
    let mut n = 1;
    while n <= 12 {
        t[n] = 65536u32.div_ceil(2 * n as u32);
        n += 1;
    }
    t
};
const _: () = {
    let mut n = 1;
    while n <= 12 {
        let mut x = 0u32;
        while x < 1024 {
            assert!((x * HALF_RECIPROCAL[n]) >> 16 == x / (2 * n as u32));
            x += 1;
        }
        n += 1;
    }
};

/// The sum of the Chebyshev distances of the pieces of `own` to the square on rank `r`, file
/// `f`: Σₖ (pieces farther than k), k = 0, 1, …
#[inline(always)]
fn distance_to(own: u64, r: usize, f: usize) -> i32 {
    let mut distance = 0i32;
    let mut k = 0;
    loop {
        let outside = own & !(RANKS_WITHIN[r & 7][k & 7] & FILES_WITHIN[f & 7][k & 7]);
        if outside == 0 {
            return distance;
        }
        distance += outside.count_ones() as i32;
        k += 1;
    }
}

/// The 8-adjacent pairs of `own`'s pieces.
#[inline(always)]
fn pairs(own: u64) -> i32 {
    ((own & (own & !FILE_H) << 1).count_ones()
        + (own & own << 8).count_ones()
        + (own & (own & !FILE_H) << 9).count_ones()
        + (own & (own & !FILE_A) << 7).count_ones()) as i32
}

/// The area of the bounding box of `own` (not empty): files from the OR of all ranks, ranks
/// from the lowest and highest bit.
#[inline(always)]
fn area(own: u64) -> i32 {
    let mut files = own | own >> 32;
    files |= files >> 16;
    files |= files >> 8;
    let files = (files & 0xFF) as u8;
    let width = 8 - files.leading_zeros() as i32 - files.trailing_zeros() as i32;
    let height = (63 - own.leading_zeros() as i32) / 8 - own.trailing_zeros() as i32 / 8 + 1;
    width * height
}

/// The Chebyshev distance from square `sq` to the square on rank `r`, file `f`.
#[inline(always)]
fn chebyshev(sq: u8, r: usize, f: usize) -> i32 {
    let dr = (i32::from(sq >> 3 & 7) - r as i32).abs();
    let df = (i32::from(sq & 7) - f as i32).abs();
    dr.max(df)
}

/// A side's [`SideTerms`] kept with the running sums they come from, so that the terms after
/// one of its pieces moves or is captured follow from the squares that changed — the cheap
/// evaluation deltas of MC-LOA's αβ playouts — instead of a recount of the board. The
/// distance sum is recounted only when the move shifts the centre of mass. The sums are
/// integers, so the terms (and the evaluation made from them) are exactly [`side_terms`]'s;
/// debug builds check every one against it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct RunningTerms {
    /// The side's pieces.
    pieces: u64,
    n: i32,
    /// Σ rank and Σ file of the pieces.
    sum_r: i32,
    sum_f: i32,
    central: i32,
    pairs: i32,
    /// The centre of mass (rank, file) and the pieces' distance sum to it.
    centre: (usize, usize),
    distance: i32,
}

impl RunningTerms {
    /// The sums of the pieces `own`, counted from the board.
    #[inline(always)]
    pub(super) fn new(own: u64) -> RunningTerms {
        let n = own.count_ones() as i32;
        let (sum_r, sum_f) = coordinate_sums(own);
        let centre = if n > 0 {
            (mass_centre(sum_r, n), mass_centre(sum_f, n))
        } else {
            (0, 0)
        };
        RunningTerms {
            pieces: own,
            n,
            sum_r,
            sum_f,
            central: central(own),
            pairs: pairs(own),
            centre,
            distance: distance_to(own, centre.0, centre.1),
        }
    }

    /// The sums after the side's piece on `from` moves to `to` (not one of its pieces).
    /// `near` is the pair of neighbour blocks ([`neighbours`]) of `from` among the side's pieces
    /// and of `to` among them without `from`, which the caller has for the Euler number too.
    #[cfg_attr(not(feature = "compact-code"), inline(always))]
    #[cfg_attr(feature = "compact-code", inline(never))]
    pub(super) fn after_move(&self, from: u8, to: u8, near: (usize, usize)) -> RunningTerms {
        let (from, to) = (from & 63, to & 63);
        debug_assert_eq!(near.0, neighbours(self.pieces, from));
        let without = self.pieces & !(1u64 << from);
        debug_assert_eq!(near.1, neighbours(without, to));
        let pieces = without | 1u64 << to;
        let sum_r = self.sum_r - i32::from(from >> 3) + i32::from(to >> 3);
        let sum_f = self.sum_f - i32::from(from & 7) + i32::from(to & 7);
        let centre = (mass_centre(sum_r, self.n), mass_centre(sum_f, self.n));
        let distance = if centre == self.centre {
            self.distance - chebyshev(from, centre.0, centre.1) + chebyshev(to, centre.0, centre.1)
        } else {
            distance_to(pieces, centre.0, centre.1)
        };
        RunningTerms {
            pieces,
            n: self.n,
            sum_r,
            sum_f,
            // The table's rings score 3 − region.
            central: self.central + i32::from(REGION_OF[from as usize])
                - i32::from(REGION_OF[to as usize]),
            pairs: self.pairs - near.0.count_ones() as i32 + near.1.count_ones() as i32,
            centre,
            distance,
        }
    }

    /// The sums after the side's piece on `sq` is captured; `near` is the neighbour block of
    /// `sq` among the side's pieces ([`neighbours`]).
    #[cfg_attr(not(feature = "compact-code"), inline(always))]
    #[cfg_attr(feature = "compact-code", inline(never))]
    pub(super) fn after_removal(&self, sq: u8, near: usize) -> RunningTerms {
        let sq = sq & 63;
        debug_assert_eq!(near, neighbours(self.pieces, sq));
        let pieces = self.pieces & !(1u64 << sq);
        let n = self.n - 1;
        let sum_r = self.sum_r - i32::from(sq >> 3);
        let sum_f = self.sum_f - i32::from(sq & 7);
        let centre = if n > 0 {
            (mass_centre(sum_r, n), mass_centre(sum_f, n))
        } else {
            (0, 0)
        };
        let distance = if centre == self.centre {
            self.distance - chebyshev(sq, centre.0, centre.1)
        } else {
            distance_to(pieces, centre.0, centre.1)
        };
        RunningTerms {
            pieces,
            n,
            sum_r,
            sum_f,
            central: self.central - 3 + i32::from(REGION_OF[sq as usize]),
            pairs: self.pairs - near.count_ones() as i32,
            centre,
            distance,
        }
    }

    /// The side's pieces.
    #[inline(always)]
    pub(super) fn pieces(&self) -> u64 {
        self.pieces
    }

    /// The terms, as [`side_terms`] of the pieces counts them.
    #[inline(always)]
    pub(super) fn terms(&self) -> SideTerms {
        let t = if self.n == 0 {
            side_terms(0)
        } else {
            SideTerms {
                n: self.n,
                surplus: self.distance - MIN_DISTANCE_SUM[self.n.min(12) as usize],
                central: self.central,
                pairs: self.pairs,
                area: area(self.pieces),
            }
        };
        debug_assert_eq!(t, side_terms(self.pieces));
        t
    }
}

/// The enemy rim pieces whose inward orthogonal neighbour is one of `own`'s pieces.
#[inline(always)]
pub(super) fn walls(own: u64, enemy: u64) -> i32 {
    ((enemy & FILE_A & (own >> 1))
        | (enemy & FILE_H & (own << 1))
        | (enemy & RANK_1 & (own >> 8))
        | (enemy & RANK_8 & (own << 8)))
        .count_ones() as i32
}

/// A side's weighted terms split around the walls term, the one that depends on the other side
/// too: [`side_points`] adds `head`, the walls, `pairs` and `area` in that order, so a side's
/// parts can be computed once and combined with different walls, with the same rounding.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) struct SidePoints {
    /// The side has no pieces (its points are 0).
    pub empty: bool,
    /// Concentration plus centralisation.
    pub head: f32,
    /// Connectedness.
    pub pairs: f32,
    /// Uniformity.
    pub area: f32,
}

/// The parts of [`side_points`] that depend on the side's own pieces only.
#[inline(always)]
pub(super) fn side_parts(t: &SideTerms, w: &Weights) -> SidePoints {
    // With no pieces the quotients are NaN and unused.
    let n = t.n as f32;
    SidePoints {
        empty: t.n == 0,
        head: w.concentration * t.surplus as f32 / n + w.centralisation * t.central as f32 / n,
        pairs: w.connectedness * t.pairs as f32 / n,
        area: w.uniformity * t.area as f32,
    }
}

/// [`side_points`] from its parts and the walls.
#[inline(always)]
pub(super) fn points_with_walls(p: &SidePoints, walls: i32, w: &Weights) -> f32 {
    if p.empty {
        return 0.0;
    }
    p.head + w.walls * walls as f32 + p.pairs + p.area
}

/// The weighted terms of one side (everything but tempo), in points.
#[inline(always)]
pub(super) fn side_points(t: &SideTerms, walls: i32, w: &Weights) -> f32 {
    points_with_walls(&side_parts(t, w), walls, w)
}

/// The weighted terms of one side (everything but tempo), in points.
fn side_score(own: u64, enemy: u64, w: &Weights) -> f32 {
    side_points(&side_terms(own), walls(own, enemy), w)
}

/// The score before squashing, from Black's point of view: [`mia_with`] is
/// `tanh(raw_score / scale)` of the sides' [`side_parts`]. Callers that only compare evaluations
/// can compare this.
#[inline(always)]
pub(super) fn raw_score(
    black: &SidePoints,
    white: &SidePoints,
    walls_b: i32,
    walls_w: i32,
    black_to_move: bool,
    w: &Weights,
) -> f32 {
    let tempo = if black_to_move { w.tempo } else { -w.tempo };
    points_with_walls(black, walls_b, w) - points_with_walls(white, walls_w, w) + tempo
}

/// The evaluation from Black's (the first player's) point of view, for non-terminal positions.
#[inline]
pub(super) fn mia(pos: &LinesOfAction) -> f32 {
    mia_with(pos, &WEIGHTS)
}

/// [`mia`] with other weights (for tuning).
#[inline]
pub(super) fn mia_with(pos: &LinesOfAction, w: &Weights) -> f32 {
    let black = pos.pieces(Player::First).0;
    let white = pos.pieces(Player::Second).0;
    let tempo = if pos.side_to_move() == Player::First {
        w.tempo
    } else {
        -w.tempo
    };
    let score = side_score(black, white, w) - side_score(white, black, w) + tempo;
    libm::tanhf(score / w.scale)
}
