//! A 256-bit board set for the 15×15 board with a 16-square row stride.

use core::ops::{BitAnd, BitOr, BitXor, Not};

/// A set of squares: bit `16·row + column` (`a1` = 0, `o1` = 14, `a2` = 16, `o15` = 238).
///
/// Column 15 of every row and the sixteenth row (bits 240–255) are padding and never hold a stone, so
/// shifting by 1, 15, 16 or 17 moves a square one step horizontally, anti-diagonally,
/// vertically or diagonally and a step off the board lands on padding instead of wrapping.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct Bits(pub [u64; 4]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; 4]);

    /// The set holding square `sq` only (`sq < 256`).
    #[inline(always)]
    pub const fn square(sq: u8) -> Bits {
        let mut w = [0u64; 4];
        w[sq as usize >> 6] = 1 << (sq & 63);
        Bits(w)
    }

    /// Whether square `sq` is in the set.
    #[inline(always)]
    pub const fn has(&self, sq: usize) -> bool {
        sq < 256 && self.0[sq >> 6] >> (sq & 63) & 1 != 0
    }

    /// Adds or removes square `sq` (`sq < 256`).
    #[inline(always)]
    pub fn toggle(&mut self, sq: u8) {
        self.0[sq as usize >> 6] ^= 1 << (sq & 63);
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    /// The number of squares in the set.
    #[inline(always)]
    pub const fn count(&self) -> u32 {
        self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()
    }

    /// Every square moved up by `n` bit positions (`n < 256`); bits past 255 fall off.
    #[inline(always)]
    pub const fn shl(self, n: u32) -> Bits {
        let (words, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; 4];
        let mut i = 3;
        loop {
            if i >= words {
                let src = i - words;
                let mut v = self.0[src] << bits;
                if bits != 0 && src > 0 {
                    v |= self.0[src - 1] >> (64 - bits);
                }
                out[i] = v;
            }
            if i == 0 {
                break;
            }
            i -= 1;
        }
        Bits(out)
    }

    /// Every square moved down by `n` bit positions (`n < 256`); bits below 0 fall off.
    #[inline(always)]
    pub const fn shr(self, n: u32) -> Bits {
        let (words, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; 4];
        let mut i = 0;
        while i + words < 4 {
            let src = i + words;
            let mut v = self.0[src] >> bits;
            if bits != 0 && src < 3 {
                v |= self.0[src + 1] << (64 - bits);
            }
            out[i] = v;
            i += 1;
        }
        Bits(out)
    }

    /// The squares, lowest first.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut b = self;
        core::iter::from_fn(move || {
            for (i, w) in b.0.iter_mut().enumerate() {
                if *w != 0 {
                    let sq = (i as u32 * 64 + w.trailing_zeros()) as u8;
                    *w &= *w - 1;
                    return Some(sq);
                }
            }
            None
        })
    }
}

impl BitAnd for Bits {
    type Output = Bits;
    #[inline(always)]
    fn bitand(self, o: Bits) -> Bits {
        Bits([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }
}

impl BitOr for Bits {
    type Output = Bits;
    #[inline(always)]
    fn bitor(self, o: Bits) -> Bits {
        Bits([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }
}

impl BitXor for Bits {
    type Output = Bits;
    #[inline(always)]
    fn bitxor(self, o: Bits) -> Bits {
        Bits([
            self.0[0] ^ o.0[0],
            self.0[1] ^ o.0[1],
            self.0[2] ^ o.0[2],
            self.0[3] ^ o.0[3],
        ])
    }
}

impl Not for Bits {
    type Output = Bits;
    /// The complement within all 256 bits (padding included); mask with the board as needed.
    #[inline(always)]
    fn not(self) -> Bits {
        Bits([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}
