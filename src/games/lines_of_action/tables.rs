//! Compile-time tables of Lines of Action: line masks, rays, destinations, quad deltas and
//! Zobrist keys. Everything is built by `const` loops; the ROM cost is about 12 KiB
//! (lines 2 KiB, rays 4 KiB, destinations 4.5 KiB, Zobrist 1 KiB, quad deltas 256 B).

/// The eight directions as (rank step, file step), in the order N, S, E, W, NE, SW, NW, SE.
/// Directions `2k` and `2k + 1` are opposite and lie on line type `k` (file, rank, diagonal,
/// anti-diagonal).
pub(super) const DIRS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// "No square": a destination off the board.
pub(super) const NONE: u8 = 64;

/// `LINES[t][sq]`: every square of the line of type `t` (file, rank, diagonal, anti-diagonal)
/// through `sq`, `sq` included.
pub(super) const LINES: [[u64; 64]; 4] = {
    let mut t = [[0u64; 64]; 4];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 4 {
            // The line is the square plus both rays of the two opposite directions.
            t[k][sq] = (1u64 << sq) | RAYS[2 * k][sq] | RAYS[2 * k + 1][sq];
            k += 1;
        }
        sq += 1;
    }
    t
};

/// `RAYS[d][sq]`: the squares from `sq` (excluded) to the edge of the board in direction `d`.
pub(super) const RAYS: [[u64; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut r, mut f) = ((sq / 8) as i8, (sq % 8) as i8);
            let mut m = 0u64;
            loop {
                r += DIRS[d].0;
                f += DIRS[d].1;
                if r < 0 || r > 7 || f < 0 || f > 7 {
                    break;
                }
                m |= 1u64 << (r * 8 + f);
            }
            t[d][sq] = m;
            sq += 1;
        }
        d += 1;
    }
    t
};

/// `DEST[d][sq][n]`: the square `n` steps from `sq` in direction `d`, or [`NONE`] if that is off
/// the board. `n` is a line count, 1..=8, read modulo 8: moving 8 squares leaves the board from
/// any square, like the unused count 0, so index 0 serves both (`& 7` drops a bounds check),
/// and the rows of eight make the index a shift.
pub(super) const DEST: [[[u8; 8]; 64]; 8] = {
    let mut t = [[[NONE; 8]; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let mut n = 1;
            while n <= 8 {
                let r = (sq / 8) as i8 + DIRS[d].0 * n as i8;
                let f = (sq % 8) as i8 + DIRS[d].1 * n as i8;
                if r >= 0 && r <= 7 && f >= 0 && f <= 7 {
                    // Eight steps never stay on the board: the entry read for them is index 0's.
                    assert!(n < 8);
                    t[d][sq][n] = (r * 8 + f) as u8;
                }
                n += 1;
            }
            sq += 1;
        }
        d += 1;
    }
    t
};

/// The weight of a 2×2 quad pattern in four times the Euler number of 8-connected pieces
/// (Gray's bit quads): one piece `+1`, three pieces `-1`, two diagonal pieces `-2`, else `0`.
/// Pattern bits: 0 lower-left, 1 lower-right, 2 upper-left, 3 upper-right.
pub(super) const fn quad_weight(p: u8) -> i8 {
    match p.count_ones() {
        1 => 1,
        3 => -1,
        2 if p == 0b1001 || p == 0b0110 => -2,
        _ => 0,
    }
}

/// How four times the Euler number changes when a piece is added on a square whose eight
/// neighbours are `nb` (bit `k` for neighbour `k` in the order (rank, file) offsets (-1,-1),
/// (-1,0), (-1,1), (0,-1), (0,1), (1,-1), (1,0), (1,1)). Removing the piece changes it by the
/// negation.
const fn add_delta_of(nb: usize) -> i8 {
    // The four quads containing the centre C, as (pattern without C, bit of C).
    let quads = [
        (bit(nb, 0) | bit(nb, 1) << 1 | bit(nb, 3) << 2, 3u8), // lower-left quad: C is its upper-right
        (bit(nb, 1) | bit(nb, 2) << 1 | bit(nb, 4) << 3, 2), // lower-right quad: C is its upper-left
        (bit(nb, 3) | bit(nb, 5) << 2 | bit(nb, 6) << 3, 1), // upper-left quad: C is its lower-right
        (bit(nb, 4) << 1 | bit(nb, 6) << 2 | bit(nb, 7) << 3, 0), // upper-right quad: C is its lower-left
    ];
    let mut delta = 0i8;
    let mut q = 0;
    while q < 4 {
        let (p, c) = quads[q];
        delta += quad_weight(p | 1 << c) - quad_weight(p);
        q += 1;
    }
    delta
}

/// Where [`neighbours`]'s block holds neighbour `k` (the order of [`add_delta_of`]): the row
/// below at bits 0–2, the square's own row at 8 and 10 (9 is the square), the row above at
/// 16–18.
const BLOCK_BIT: [u32; 8] = [0, 1, 2, 8, 10, 16, 17, 18];

/// The neighbour block of the packed neighbours `nb` (bit `k` for neighbour `k`).
const fn block_of(nb: usize) -> u32 {
    let mut block = 0;
    let mut k = 0;
    while k < 8 {
        block |= ((nb >> k) as u32 & 1) << BLOCK_BIT[k];
        k += 1;
    }
    block
}

/// A multiplier whose product with a neighbour block has a different top nine bits for each
/// of the 256 blocks (found by a search; checked below): the block's index into
/// [`ADD_DELTA`] in two instructions, where gathering its eight bits into a byte took about
/// ten.
const BLOCK_MAGIC: u32 = 0x7a91_fc93;

/// The index of a neighbour block ([`neighbours`]) into [`ADD_DELTA`].
#[inline(always)]
const fn block_index(block: u32) -> usize {
    (block.wrapping_mul(BLOCK_MAGIC) >> 23) as usize
}

/// [`add_delta_of`] by [`block_index`] (512 entries, 256 of them used; each used one checked
/// to be written once).
const ADD_DELTA: [i8; 512] = {
    let mut t = [0i8; 512];
    let mut written = [false; 512];
    let mut nb = 0usize;
    while nb < 256 {
        let i = block_index(block_of(nb));
        assert!(
            !written[i],
            "BLOCK_MAGIC maps two neighbour blocks to one index"
        );
        written[i] = true;
        t[i] = add_delta_of(nb);
        nb += 1;
    }
    t
};

/// How four times the Euler number changes when a piece is added on a square whose neighbour
/// block ([`neighbours`]) is `near`; removing it changes it by the negation.
#[inline(always)]
pub(super) fn add_delta(near: usize) -> i16 {
    i16::from(ADD_DELTA[block_index(near as u32)])
}

/// Bit `k` of `nb`.
const fn bit(nb: usize, k: usize) -> u8 {
    ((nb >> k) & 1) as u8
}

/// The splitmix64 step, as a `const fn`.
const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// Zobrist keys: `ZOBRIST[side][sq]` for a piece, and [`ZOBRIST_SIDE`] for White to move.
/// From splitmix64 seeded with the bytes "LOA-ZOB1".
pub(super) const ZOBRIST: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut state = u64::from_le_bytes(*b"LOA-ZOB1");
    let mut i = 0;
    while i < 128 {
        let (s, z) = splitmix64(state);
        state = s;
        t[i / 64][i % 64] = z;
        i += 1;
    }
    t
};

/// The Zobrist key of "White (the second player) to move".
/// From splitmix64 seeded with the bytes "LOA-SIDE".
pub(super) const ZOBRIST_SIDE: u64 = splitmix64(u64::from_le_bytes(*b"LOA-SIDE")).1;

/// The region of each square for the move categories and centralisation: 0 the central 2×2,
/// 1 the 4×4 ring, 2 the 6×6 ring, 3 the rim without corners, 4 the corners.
pub(super) const REGION_OF: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, f) = ((sq / 8) as i8, (sq % 8) as i8);
        // Distance from the centre in half squares: 1, 3, 5 or 7 → ring 0..3.
        let dr = if 2 * r - 7 < 0 { 7 - 2 * r } else { 2 * r - 7 };
        let df = if 2 * f - 7 < 0 { 7 - 2 * f } else { 2 * f - 7 };
        let ring = (if dr > df { dr } else { df }) / 2;
        t[sq] = if dr == 7 && df == 7 { 4 } else { ring as u8 };
        sq += 1;
    }
    t
};

use crate::games::bitboard::Bitboard;

/// The squares of file a, as a raw word for the evaluation's masks.
pub(super) const FILE_A: u64 = Bitboard::FILE_A.0;
/// The squares of file h.
pub(super) const FILE_H: u64 = Bitboard::FILE_H.0;
/// The squares of rank 1.
pub(super) const RANK_1: u64 = Bitboard::RANK_1.0;
/// The squares of rank 8.
pub(super) const RANK_8: u64 = Bitboard::RANK_8.0;

/// The eight neighbours of `sq` in `bb` as a block: the 3×3 square around `sq` with its
/// lower-left corner (square `sq − 9`) at bit 0 and rows 8 bits apart, `sq` itself left out
/// ([`BLOCK_BIT`]). Its bit count is the number of neighbours; [`add_delta`] reads the Euler
/// number's change from it.
#[inline(always)]
pub(super) fn neighbours(bb: u64, sq: u8) -> usize {
    let sq = sq as u32 & 63;
    // The board rotated, not shifted, so that one instruction on any target brings the block
    // down (a 128-bit shift took a double-word shift and a select); the squares that wrap
    // around (off the board below rank 1, above rank 8, or past files a and h) are cleared by
    // the square's mask.
    (bb.rotate_right(sq.wrapping_add(55)) as u32 & BLOCK_MASK[sq as usize]) as usize
}

/// The bits of [`neighbours`]'s rotated 3×3 block around each square that lie on the board
/// (the centre bit left out): on file a the left column is cleared, on file h the right one, on
/// rank 1 the row below and on rank 8 the row above.
const BLOCK_MASK: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, f) = (sq / 8, sq % 8);
        let mut m = 0x0007_0507u32;
        if f == 0 {
            m &= !0x0001_0101;
        }
        if f == 7 {
            m &= !0x0004_0404;
        }
        if r == 0 {
            m &= !0x0000_0007;
        }
        if r == 7 {
            m &= !0x0007_0000;
        }
        t[sq] = m;
        sq += 1;
    }
    t
};

/// [`neighbours`] square by square, for the tests.
#[cfg(test)]
pub(super) fn neighbours_by_offsets(bb: u64, sq: u8) -> usize {
    let (r, f) = ((sq / 8) as i32, (sq % 8) as i32);
    let offsets = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];
    let mut nb = 0;
    for (k, (dr, df)) in offsets.into_iter().enumerate() {
        let (rr, ff) = (r + dr, f + df);
        if (0..8).contains(&rr) && (0..8).contains(&ff) && bb >> (rr * 8 + ff) & 1 != 0 {
            nb |= 1 << k;
        }
    }
    block_of(nb) as usize
}
