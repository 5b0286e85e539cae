//! Lines of Action domain knowledge for the search: Winands' move categories, used for weighted
//! random playouts, progressive bias and the αβ move order.
//!
//! As in MC-LOA (Winands, Björnsson & Saito), the board is split into five regions — the four
//! corners, the rest of the outer rim, the 6×6 ring, the 4×4 ring and the central 2×2 — and a
//! move's category is (origin region, destination region, capture or not). MC-LOA learned a
//! transition probability per category from game records; we have no records, so the weights are
//! set by hand: landing nearer the centre is good, leaving the rim is good, landing on the rim is
//! bad, and a capture halves the weight (in LOA a capture leaves the opponent fewer pieces to
//! connect, so random captures mostly help the opponent).
//!
//! weight = `max(1, (TO[destination] + FROM[origin]) / (capture ? 2 : 1))`, with
//!
//! | region | `TO` (landing there) | `FROM` (leaving there) |
//! |---|---|---|
//! | centre 2×2 | 32 | 0 |
//! | 4×4 ring | 16 | 0 |
//! | 6×6 ring | 6 | 1 |
//! | rim (no corners) | 1 | 3 |
//! | corner | 0 | 4 |
//!
//! The weights run from 1 to 36 ([`MAX_CATEGORY_WEIGHT`]); [`move_bias`] divides by 36. A pass has
//! weight 1. How they were chosen: a player drawing moves with these weights against uniform
//! random play (400 games, `informed_playout_policy_beats_uniform_random_play`) won 392; the first
//! hand-set table (`TO` 8, 6, 4, 1, 0, `FROM` 0, 0, 1, 3, 4, capture +2) won only 257, a capture
//! bonus of +8 dropped that to 184, and ÷4 for captures gave 396.

use super::tables::{DEST, LINES, NONE, RAYS, REGION_OF};
use super::{LinesOfAction, MAX_MOVES, Move, step_branchless};
use crate::SearchRng;
use crate::game::Game;
use crate::games::bitboard::Bitboard;
use crate::rng::below;

/// One of the five regions of the board used by the move categories.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Region {
    /// d4, e4, d5, e5.
    Centre = 0,
    /// The ring of 12 squares around the centre (c3–f6 without the centre).
    Inner = 1,
    /// The ring of 20 squares b2–g7 without the 4×4 block.
    Middle = 2,
    /// The 24 squares of the outer rim that are not corners.
    Rim = 3,
    /// a1, h1, a8, h8.
    Corner = 4,
}

pub(super) const REGIONS: [Region; 5] = [
    Region::Centre,
    Region::Inner,
    Region::Middle,
    Region::Rim,
    Region::Corner,
];

/// Weight for landing in each region.
const TO_WEIGHT: [u8; 5] = [32, 16, 6, 1, 0];
/// Weight for leaving each region.
const FROM_WEIGHT: [u8; 5] = [0, 0, 1, 3, 4];
/// A capture's weight is divided by this.
const CAPTURE_DIVISOR: u8 = 2;
/// The largest category weight (corner to centre without a capture).
pub const MAX_CATEGORY_WEIGHT: u8 = TO_WEIGHT[0] + FROM_WEIGHT[4];

/// The region of square `sq` (a1 = 0); squares past 63 wrap.
#[inline(always)]
pub fn region(sq: u8) -> Region {
    REGIONS[REGION_OF[sq as usize & 63] as usize]
}

/// The weight of the move category (origin region, destination region, capture), 1..=36 ([`MAX_CATEGORY_WEIGHT`]).
#[inline(always)]
pub const fn category_weight(from: Region, to: Region, capture: bool) -> u8 {
    let w = TO_WEIGHT[to as usize] + FROM_WEIGHT[from as usize];
    let w = if capture { w / CAPTURE_DIVISOR } else { w };
    if w > 1 { w } else { 1 }
}

/// The category weight of `mv` in `pos`.
#[inline(always)]
pub(super) fn weight(pos: &LinesOfAction, mv: Move) -> u8 {
    if mv.is_pass() {
        return 1;
    }
    let enemy = pos.pieces(pos.side_to_move().opponent());
    let capture = enemy.contains(mv.to & 63);
    category_weight(region(mv.from), region(mv.to), capture)
}

/// A playout move drawn with probability proportional to its category weight.
pub(super) fn playout_move(pos: &LinesOfAction, moves: &[Move], rng: &mut SearchRng) -> Move {
    let mut weights = [0u8; MAX_MOVES];
    let mut total = 0u32;
    for (w, &mv) in weights.iter_mut().zip(moves) {
        *w = weight(pos, mv);
        total += *w as u32;
    }
    let mut r = below(rng, total);
    for (&w, &mv) in weights.iter().zip(moves) {
        if r < w as u32 {
            return mv;
        }
        r -= w as u32;
    }
    moves[moves.len() - 1]
}

/// `WEIGHT_OF[from region][to region][capture]`: [`category_weight`] as a table.
const WEIGHT_OF: [[[u8; 2]; 5]; 5] = {
    let mut t = [[[0u8; 2]; 5]; 5];
    let mut f = 0;
    while f < 5 {
        let mut r = 0;
        while r < 5 {
            t[f][r][0] = category_weight(REGIONS[f], REGIONS[r], false);
            t[f][r][1] = category_weight(REGIONS[f], REGIONS[r], true);
            r += 1;
        }
        f += 1;
    }
    t
};

/// `REGION_MASK[r]`: the squares of region `r` (the order of [`REGIONS`]).
const REGION_MASK: [u64; 5] = {
    let mut m = [0u64; 5];
    let mut sq = 0;
    while sq < 64 {
        m[REGION_OF[sq] as usize] |= 1 << sq;
        sq += 1;
    }
    m
};

/// The same draw as [`playout_move`] over the legal moves (same random number, same move),
/// without building the move list: per-piece weight totals from the target bitboards, then a
/// walk over the chosen piece's targets in generation order. `pos` must not be finished.
///
/// It is [`playout_move_sampled`]'s fallback, met in about one informed playout move in a
/// hundred, but it cost about 35 mispredicted branches a call (an eighth of an `mcts(ipp)`
/// search's): each piece's total is now counted by region, quiet and capturing, with
/// popcounts, the targets come from the branch-free generator, and the chosen piece is found
/// by counting the totals it passes.
pub(super) fn playout_move_from_targets(pos: &LinesOfAction, rng: &mut SearchRng) -> Move {
    let us = pos.side_to_move().index();
    let (own, enemy) = (pos.pieces[us], pos.pieces[us ^ 1]);
    let mut targets = [0u64; 12];
    let mut from = [0u8; 12];
    // Running totals: `ends[k]` is the weight of pieces 0..=k.
    let mut ends = [u32::MAX; 12];
    let mut total = 0u32;
    for (i, sq) in own.into_iter().enumerate() {
        let t = pos.targets_from_branchless(sq as usize, own, enemy).0;
        let w = &WEIGHT_OF[REGION_OF[sq as usize] as usize];
        let mut sum = 0u32;
        for (r, &mask) in REGION_MASK.iter().enumerate() {
            let there = t & mask;
            sum += (there & !enemy.0).count_ones() * u32::from(w[r][0])
                + (there & enemy.0).count_ones() * u32::from(w[r][1]);
        }
        let k = i.min(11);
        targets[k] = t;
        from[k] = sq;
        total += sum;
        ends[k] = total;
    }
    if total == 0 {
        // No piece move: the pass is the only legal move (drawn like a one-move list).
        let _ = below(rng, 1);
        return Move::PASS;
    }
    let r = below(rng, total);
    // The first piece whose running total exceeds `r` (pieces without moves add nothing and
    // are passed over, as the list walk passes over them).
    let k = ends.iter().filter(|&&e| e <= r).count().min(11);
    let mut r = r - if k > 0 { ends[k - 1] } else { 0 };
    let w = &WEIGHT_OF[REGION_OF[from[k] as usize] as usize];
    let mut last = Move::PASS;
    for to in Bitboard(targets[k]) {
        last = Move { from: from[k], to };
        let wt = w[REGION_OF[to as usize] as usize][enemy.contains(to) as usize] as u32;
        if r < wt {
            return last;
        }
        r -= wt;
    }
    last
}

/// How many proposals [`playout_move_sampled`] makes before it falls back to the exact draw
/// over all moves ([`playout_move_from_targets`]). A proposal is accepted about one time in
/// four in informed playouts (see [`playout_move_sampled`]); the fallback also covers a side
/// without piece moves (the pass).
pub(super) const MAX_PROPOSALS: u32 = 64;

/// A region-indexed weight table spread over the 64 squares (`weights[REGION_OF[sq]]`).
const fn by_square(weights: [u8; 5]) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = weights[REGION_OF[sq] as usize];
        sq += 1;
    }
    t
}

/// `TO_OF_SQUARE[sq]`: the weight for landing on `sq` (`TO_WEIGHT` of its region).
const TO_OF_SQUARE: [u8; 64] = by_square(TO_WEIGHT);

/// `FROM_OF_SQUARE[sq]`: the weight for leaving `sq` (`FROM_WEIGHT` of its region).
const FROM_OF_SQUARE: [u8; 64] = by_square(FROM_WEIGHT);

/// The category weight of the move `from` → `to` ([`category_weight`] of their regions) from
/// per-square tables.
#[inline(always)]
pub(super) const fn square_weight(from: u8, to: u8, capture: bool) -> u8 {
    let w = (TO_OF_SQUARE[to as usize & 63] + FROM_OF_SQUARE[from as usize & 63]) >> capture as u8;
    if w > 1 { w } else { 1 }
}

// A capture's weight is halved by a shift, and the per-square tables give every category's weight.
const _: () = {
    assert!(CAPTURE_DIVISOR == 2);
    let mut i = 0;
    while i < 64 * 64 * 2 {
        let (from, to, capture) = ((i / 128) as u8, (i / 2 % 64) as u8, i % 2 == 1);
        let by_region = category_weight(
            REGIONS[REGION_OF[from as usize] as usize],
            REGIONS[REGION_OF[to as usize] as usize],
            capture,
        );
        assert!(square_weight(from, to, capture) == by_region);
        i += 1;
    }
};

/// A bound on the weight of the move from `sq` in direction `d`, whatever its length: the
/// leaving weight plus the largest landing weight on the ray, at least 1 (a move's weight is);
/// 0 where the ray is empty (`sq` on that edge).
const fn direction_bound(sq: usize, d: usize) -> u8 {
    let ray = RAYS[d][sq];
    if ray == 0 {
        return 0;
    }
    let mut best = 0u8;
    let mut to = 0;
    while to < 64 {
        if ray >> to & 1 == 1 && TO_OF_SQUARE[to] > best {
            best = TO_OF_SQUARE[to];
        }
        to += 1;
    }
    let w = FROM_OF_SQUARE[sq] + best;
    if w > 1 { w } else { 1 }
}

/// `BOUND_STARTS[sq][d]`: the bounds ([`direction_bound`]) of the directions before `d` added
/// up: a piece's proposal levels, direction after direction (a proposal's direction is found
/// among them by [`direction_of`]).
const BOUND_STARTS: [[u16; 8]; 64] = {
    let mut t = [[0u16; 8]; 64];
    let mut i = 0;
    while i < 64 * 7 {
        let (sq, d) = (i / 7, i % 7);
        t[sq][d + 1] = t[sq][d] + direction_bound(sq, d) as u16;
        i += 1;
    }
    t
};

/// `BOUND_TOTAL[sq]`: the bounds of all eight directions from `sq` added up; entry 64 (the
/// trailing-zero count of an empty set) is 0, so that an absent piece adds nothing.
const BOUND_TOTAL: [u16; 65] = {
    let mut t = [0u16; 65];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = BOUND_STARTS[sq][7] + direction_bound(sq, 7) as u16;
        sq += 1;
    }
    t
};

/// The direction of proposal number `r` (below `BOUND_TOTAL[sq]`) of a piece on `sq`: the last
/// direction whose start (`BOUND_STARTS[sq][d]`) is not above `r` (an empty direction starts
/// where the next one does, so it is passed over; direction 0 starts at 0). Read from
/// [`DIRECTION_AT`], one load where counting the starts took two words' compares (4% of an
/// `mcts(ipp)` search's instructions); `compact-code` builds, which count bytes, count instead
/// ([`direction_by_counting`]), with the same result.
#[inline(always)]
pub(super) fn direction_of(sq: usize, r: u32) -> usize {
    #[cfg(not(feature = "compact-code"))]
    {
        DIRECTION_AT[sq & 63][r as usize & 255] as usize & 7
    }
    #[cfg(feature = "compact-code")]
    {
        direction_by_counting(sq, r)
    }
}

/// [`direction_of`] by counting the starts four to a word ([`lanes_at_most`]).
#[cfg_attr(not(any(test, feature = "compact-code")), allow(dead_code))]
#[inline(always)]
pub(super) fn direction_by_counting(sq: usize, r: u32) -> usize {
    let bounds = &BOUND_STARTS[sq & 63];
    (lanes_at_most(bounds, 0, r) + lanes_at_most(bounds, 4, r) - 1) as usize & 7
}

/// `DIRECTION_AT[sq][r]`: [`direction_of`] as a table, 16 KiB (every square's bound total is at
/// most 256, checked below). A `static`, so that its one user reads it in place.
#[cfg(not(feature = "compact-code"))]
static DIRECTION_AT: [[u8; 256]; 64] = {
    let mut t = [[0u8; 256]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut r = 0;
        while r < 256 {
            let mut d = 0;
            while d < 7 && BOUND_STARTS[sq][d + 1] as usize <= r {
                d += 1;
            }
            t[sq][r] = d as u8;
            r += 1;
        }
        sq += 1;
    }
    t
};

/// A piece's proposal starts direction by direction and their total, on `sq` (for the tests).
#[cfg(test)]
pub(super) fn proposal_starts(sq: usize) -> ([u16; 8], u32) {
    (BOUND_STARTS[sq], u32::from(BOUND_TOTAL[sq]))
}

// Every piece's proposal numbers index `DIRECTION_AT` (and are read `& 255`).
const _: () = {
    let mut sq = 0;
    while sq < 64 {
        assert!(BOUND_TOTAL[sq] <= 256);
        sq += 1;
    }
};

/// The top bit of each 16-bit lane of a word.
const LANE_HIGH: u64 = 0x8000_8000_8000_8000;

/// How many of the four numbers `values[at..at + 4]` are at most `x`, all of them and `x`
/// below 2¹⁵. The four are one word of 16-bit lanes (on little-endian targets one load); in
/// each lane `x + 2¹⁵ − value` is at least 1, so no lane borrows from the next, and its top
/// bit is set exactly when `value ≤ x`. Word arithmetic, so that every target counts this way
/// without vector instructions (the compiler's vector code for twelve `u32` compares took
/// about 22 instructions a proposal).
#[inline(always)]
pub(super) fn lanes_at_most(values: &[u16], at: usize, x: u32) -> u32 {
    let v = &values[at..at + 4];
    let word =
        u64::from(v[0]) | u64::from(v[1]) << 16 | u64::from(v[2]) << 32 | u64::from(v[3]) << 48;
    ((((u64::from(x) * 0x0001_0001_0001_0001) | LANE_HIGH) - word) & LANE_HIGH).count_ones()
}

// Every running total of bounds fits a lane: twelve pieces on the heaviest square stay below
// 2¹⁵, the bound of [`lanes_at_most`].
const _: () = {
    let mut sq = 0;
    while sq < 64 {
        assert!(12 * (BOUND_TOTAL[sq] as u32) < 1 << 15);
        sq += 1;
    }
};

// Every move's weight is within its direction's bound (the landing square is on the ray).
const _: () = {
    let mut i = 0;
    while i < 64 * 8 * 8 {
        let (sq, d, n) = (i / 64, i / 8 % 8, i % 8);
        let to = DEST[d][sq][n];
        if n > 0 && to != NONE {
            assert!(square_weight(sq as u8, to, false) <= direction_bound(sq, d));
            assert!(square_weight(sq as u8, to, true) <= direction_bound(sq, d));
        }
        i += 1;
    }
};

/// A playout move drawn with probability proportional to its category weight — the
/// distribution of [`playout_move`] — by rejection sampling, without generating the moves.
///
/// Each (piece, direction) names at most one move (the piece moves exactly as far as its line
/// holds pieces), and that move's weight is at most the direction's bound ([`direction_bound`]:
/// the leaving weight plus the heaviest landing square on the ray). A proposal is one
/// `below(total)` draw, `total` the bounds of every piece's directions added up, read as a
/// piece, a direction and a level below that direction's bound; it is accepted when it names
/// a legal move `m` and the level is below `weight(m)`. So each level of each (piece,
/// direction) is proposed with probability `1 / total`, a legal move is accepted with
/// probability `weight(m) / total`, and an accepted move is `m` with probability
/// `weight(m) / Σ weights`. The tests (a destination on the board, the landing square, no enemy
/// piece in between, the level below the weight) are combined without branches.
///
/// The bounds are what make proposals cheap to accept: most landing squares weigh 1 or 6 of
/// the 36 a move into the centre does, and a ray that never reaches the centre is bounded
/// accordingly, while an empty ray (a piece on that edge) is never proposed. Against one bound
/// of 36 for all eight directions this takes about a third of the proposals: in the informed
/// playouts of a 2,000-simulation `mcts(ipp)` search from the start, 4.1 a move against 11.8
/// (callgrind's counts of the loop); over a thousand positions of random games, 2.2 expected
/// (`total / Σ weights`) against 8.7.
///
/// After [`MAX_PROPOSALS`] rejections the draw is [`playout_move_from_targets`]'s exact one,
/// which has the same distribution, so the result is distributed exactly as [`playout_move`]'s
/// (a side without piece moves gets the pass). The random numbers consumed differ from
/// [`playout_move`]'s. `pos` must not be finished.
#[inline]
pub(super) fn playout_move_sampled(pos: &LinesOfAction, rng: &mut SearchRng) -> Move {
    let us = pos.side_to_move().index();
    let (own, enemy) = (pos.pieces[us].0, pos.pieces[us ^ 1].0);
    let occ = own | enemy;
    // The pieces in square order, each with the first of its proposal numbers; a piece is
    // found as the last whose start is not above the draw. A fixed twelve rounds (no side has
    // more pieces), so that no branch depends on how many pieces are left: the loop's exit was
    // mispredicted about every second move. Once the set is empty a round reads square 64,
    // whose bound is 0: the absent pieces start at the final total, past every draw, with no
    // test of their own.
    let mut squares = [0u8; 12];
    let mut starts = [0u16; 12];
    let mut total = 0u32;
    let mut rest = own;
    for k in 0..12 {
        let sq = rest.trailing_zeros() as usize;
        rest &= rest.wrapping_sub(1);
        squares[k] = sq as u8;
        starts[k] = total as u16;
        total += u32::from(BOUND_TOTAL[sq.min(64)]);
    }
    for _ in 0..MAX_PROPOSALS {
        let x = below(rng, total);
        // The first piece starts at 0, so at least one start counts.
        let at_most = (0..3)
            .map(|w| lanes_at_most(&starts, 4 * w, x))
            .sum::<u32>();
        let k = (at_most as usize - 1).min(11);
        let from = squares[k] as usize & 63;
        let r = x - u32::from(starts[k]);
        let d = direction_of(from, r);
        let level = r - u32::from(BOUND_STARTS[from][d]);
        // Every test worked out and combined without a branch: which proposals pass is as good
        // as random, so branches on them missed about half the time (callgrind's branch
        // simulator: nine mispredictions a ply).
        let len = (occ & LINES[d >> 1][from]).count_ones() as usize;
        let (to, illegal) = step_branchless(d, from, len, own, enemy);
        let t = to as usize & 63;
        let capture = (enemy >> t) as u8 & 1;
        // The quiet weight, halved for a capture, at least 1.
        let weight = (TO_OF_SQUARE[t].wrapping_add(FROM_OF_SQUARE[from]) >> capture).max(1);
        // One word that is zero exactly when every test passes.
        let refused = illegal | u64::from(level >= u32::from(weight));
        if refused == 0 {
            return Move {
                from: from as u8,
                to,
            };
        }
    }
    playout_move_from_targets(pos, rng)
}

/// The category weight of `mv` normalised to `[0, 1]`, for progressive bias.
pub(super) fn move_bias(pos: &LinesOfAction, mv: Move) -> f32 {
    weight(pos, mv) as f32 / MAX_CATEGORY_WEIGHT as f32
}

/// The αβ static order: a move that wins at once first (class 255), then by category weight.
pub(super) fn order_class(pos: &LinesOfAction, mv: Move) -> u8 {
    if pos.wins_at_once(mv) {
        u8::MAX
    } else {
        weight(pos, mv)
    }
}
