//! Square sets for the board games: [`Bitboard`] for the 8×8 boards (Breakthrough, Lines of
//! Action) and [`WideBitboard`] for Gomoku's 15×15 board.
//!
//! Both are sets first: `contains`, `with`, `without`, `count`, iteration lowest square first.
//! The bit operators (`&`, `|`, `^`, `!`) are the set operations, and the board-geometry steps
//! (`north`, `north_east`, …) shift every square one step and drop the squares that would leave
//! the board, so move generation reads as geometry instead of shift counts and file masks.
//! Everything is `#[inline]` on a `#[repr(transparent)]` word: the games compile to the same
//! shifts, masks and popcounts they used on raw integers (see the callgrind ratios in the
//! commit that introduced this module).

use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares of an 8×8 board: bit `8·rank + file` (a1 = 0, h1 = 7, a8 = 56, h8 = 63).
///
/// The raw word is public (`.0`) for table-driven code (rays, Zobrist keys, piece-square sums)
/// that indexes by bit patterns; everything else uses the set methods.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The squares of file a.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The squares of file h.
    pub const FILE_H: Bitboard = Bitboard(0x0101_0101_0101_0101 << 7);
    /// The squares of rank 1.
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    /// The squares of rank 8.
    pub const RANK_8: Bitboard = Bitboard(0xFF << 56);

    /// The set holding square `sq` only (`sq < 64`).
    #[inline(always)]
    pub const fn square(sq: u8) -> Bitboard {
        Bitboard(1 << sq)
    }

    /// The squares of rank `rank` (0 = rank 1).
    #[inline(always)]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xFF << (8 * rank))
    }

    /// The raw word.
    #[inline(always)]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether square `sq` (`sq < 64`) is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: u8) -> bool {
        self.0 >> sq & 1 != 0
    }

    /// The set with square `sq` added.
    #[inline(always)]
    #[must_use]
    pub const fn with(self, sq: u8) -> Bitboard {
        Bitboard(self.0 | 1 << sq)
    }

    /// The set with square `sq` removed.
    #[inline(always)]
    #[must_use]
    pub const fn without(self, sq: u8) -> Bitboard {
        Bitboard(self.0 & !(1 << sq))
    }

    /// Adds square `sq` if absent, removes it if present.
    #[inline(always)]
    pub fn toggle(&mut self, sq: u8) {
        self.0 ^= 1 << sq;
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether the two sets share a square.
    #[inline(always)]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// The number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square; the set must not be empty (an empty set gives 64).
    #[inline(always)]
    pub const fn first(self) -> u8 {
        self.0.trailing_zeros() as u8
    }

    /// The highest square; the set must not be empty (an empty set gives 255).
    #[inline(always)]
    pub const fn last(self) -> u8 {
        63u32.wrapping_sub(self.0.leading_zeros()) as u8
    }

    /// The set holding only the lowest square (empty for the empty set).
    #[inline(always)]
    #[must_use]
    pub const fn lowest(self) -> Bitboard {
        Bitboard(self.0 & self.0.wrapping_neg())
    }

    /// Removes and returns the lowest square, `None` when empty.
    #[inline(always)]
    pub fn pop_first(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    /// The `n`-th square (from 0, lowest first); the set must hold more than `n` squares.
    #[inline(always)]
    pub fn nth(self, n: u32) -> u8 {
        let mut set = self.0;
        for _ in 0..n {
            set &= set.wrapping_sub(1);
        }
        set.trailing_zeros() as u8
    }

    /// [`nth`](Bitboard::nth) in two instructions with BMI2's `pdep` (deposit a single bit at
    /// the `n`-th set position, then count the zeros below it): the same square for every set and
    /// `n`, without `nth`'s loop, whose exit branch the CPU cannot predict.
    ///
    /// # Safety
    /// The CPU must have BMI2: call it from code compiled for BMI2, or after [`fast_pdep`]
    /// said yes.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    #[inline]
    #[allow(unsafe_code)]
    pub fn nth_pdep(self, n: u32) -> u8 {
        debug_assert!(n < self.count());
        // SAFETY: `_pdep_u64` needs BMI2, which this function's `target_feature` enables (and
        // its callers check at run time); newer compilers treat the call as safe already.
        #[allow(unused_unsafe)]
        let deposited = unsafe { core::arch::x86_64::_pdep_u64(1 << n, self.0) };
        deposited.trailing_zeros() as u8
    }

    /// The squares, lowest first.
    #[inline(always)]
    pub const fn iter(self) -> Squares {
        Squares(self.0)
    }

    /// Every square one rank up (towards rank 8); rank 8 falls off.
    #[inline(always)]
    #[must_use]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Every square one rank down (towards rank 1); rank 1 falls off.
    #[inline(always)]
    #[must_use]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// Every square one file right (towards file h); file h falls off.
    #[inline(always)]
    #[must_use]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_H.0) << 1)
    }

    /// Every square one file left (towards file a); file a falls off.
    #[inline(always)]
    #[must_use]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) >> 1)
    }

    /// Every square one step up and towards file a; file a and rank 8 fall off.
    #[inline(always)]
    #[must_use]
    pub const fn north_west(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) << 7)
    }

    /// Every square one step up and towards file h; file h and rank 8 fall off.
    #[inline(always)]
    #[must_use]
    pub const fn north_east(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_H.0) << 9)
    }

    /// Every square one step down and towards file a; file a and rank 1 fall off.
    #[inline(always)]
    #[must_use]
    pub const fn south_west(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) >> 9)
    }

    /// Every square one step down and towards file h; file h and rank 1 fall off.
    #[inline(always)]
    #[must_use]
    pub const fn south_east(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_H.0) >> 7)
    }

    /// The set plus every square 8-adjacent to one of its squares.
    #[inline(always)]
    #[must_use]
    pub const fn grow(self) -> Bitboard {
        let v = Bitboard(self.0 | self.0 << 8 | self.0 >> 8);
        Bitboard(v.0 | v.east().0 | v.west().0)
    }
}

/// Whether this CPU has BMI2 and runs its `pdep` at full speed, so that
/// [`Bitboard::nth_pdep`] may be used (checked once with `cpuid`, then cached).
///
/// The portable build targets `x86-64-v2`, which has no BMI2, and AMD processors before Zen 3
/// (family 0x19) have BMI2 but execute `pdep` in microcode, tens to hundreds of cycles for a
/// dense mask, slower than the loop it replaces; so the answer is yes for Intel with BMI2 and for
/// AMD from family 0x19 on, and no elsewhere. Either answer gives the same squares: only the
/// speed differs.
#[cfg(target_arch = "x86_64")]
pub fn fast_pdep() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    // 0 = not checked yet, 1 = no, 2 = yes.
    static FAST_PDEP: AtomicU8 = AtomicU8::new(0);
    match FAST_PDEP.load(Ordering::Relaxed) {
        0 => {
            let fast = detect_fast_pdep();
            FAST_PDEP.store(1 + fast as u8, Ordering::Relaxed);
            fast
        }
        v => v == 2,
    }
}

/// [`fast_pdep`]'s check, uncached.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
fn detect_fast_pdep() -> bool {
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    if cfg!(miri) {
        // Miri runs no `cpuid`; the portable path gives the same squares.
        return false;
    }
    // SAFETY: every x86-64 processor has `cpuid` (newer compilers treat the call as safe).
    #[allow(unused_unsafe)]
    let (leaf0, leaf1) = unsafe { (__cpuid(0), __cpuid(1)) };
    if leaf0.eax < 7 {
        return false;
    }
    // SAFETY: as above; leaf 7 exists (the highest leaf is at least 7).
    #[allow(unused_unsafe)]
    let leaf7 = unsafe { __cpuid_count(7, 0) };
    let bmi2 = leaf7.ebx >> 8 & 1 != 0;
    let vendor = [leaf0.ebx, leaf0.edx, leaf0.ecx];
    let is = |name: &[u8; 12]| {
        let word = |i: usize| u32::from_le_bytes([name[i], name[i + 1], name[i + 2], name[i + 3]]);
        vendor == [word(0), word(4), word(8)]
    };
    let base_family = leaf1.eax >> 8 & 0xF;
    let family = if base_family == 0xF {
        base_family + (leaf1.eax >> 20 & 0xFF)
    } else {
        base_family
    };
    bmi2 && (is(b"GenuineIntel") || (is(b"AuthenticAMD") && family >= 0x19))
}

/// The squares of a [`Bitboard`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = u8;

    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}
impl core::iter::FusedIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = u8;
    type IntoIter = Squares;
    #[inline(always)]
    fn into_iter(self) -> Squares {
        self.iter()
    }
}

macro_rules! set_operators {
    ($T:ident, $($op:ident $method:ident $assign:ident $assign_method:ident),*) => {$(
        impl $op for $T {
            type Output = $T;
            #[inline(always)]
            fn $method(self, other: $T) -> $T {
                $T(self.0.$method(other.0))
            }
        }
        impl $assign for $T {
            #[inline(always)]
            fn $assign_method(&mut self, other: $T) {
                *self = (*self).$method(other);
            }
        }
    )*};
}
set_operators!(
    Bitboard,
    BitAnd bitand BitAndAssign bitand_assign,
    BitOr bitor BitOrAssign bitor_assign,
    BitXor bitxor BitXorAssign bitxor_assign
);

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement: every square not in the set.
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// A set of squares of Gomoku's 15×15 board in 256 bits: bit `16·row + column` (`a1` = 0,
/// `o1` = 14, `a2` = 16, `o15` = 238).
///
/// Column 15 of every row and the sixteenth row (bits 240–255) are padding and never hold a
/// stone, so shifting by 1, 15, 16 or 17 moves a square one step horizontally, anti-diagonally,
/// vertically or diagonally and a step off the board lands on padding instead of wrapping.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
#[repr(transparent)]
pub struct WideBitboard(pub [u64; 4]);

impl WideBitboard {
    /// The empty set.
    pub const EMPTY: WideBitboard = WideBitboard([0; 4]);

    /// The set holding square `sq` only (`sq < 256`).
    #[inline(always)]
    pub const fn square(sq: u8) -> WideBitboard {
        let mut w = [0u64; 4];
        w[sq as usize >> 6] = 1 << (sq & 63);
        WideBitboard(w)
    }

    /// Whether square `sq` is in the set (`false` for `sq ≥ 256`).
    #[inline(always)]
    pub const fn contains(&self, sq: usize) -> bool {
        sq < 256 && self.0[sq >> 6] >> (sq & 63) & 1 != 0
    }

    /// Adds square `sq` if absent, removes it if present (`sq < 256`).
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
    pub const fn shl(self, n: u32) -> WideBitboard {
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
        WideBitboard(out)
    }

    /// Every square moved down by `n` bit positions (`n < 256`); bits below 0 fall off.
    #[inline(always)]
    pub const fn shr(self, n: u32) -> WideBitboard {
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
        WideBitboard(out)
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

macro_rules! wide_operators {
    ($($op:ident $method:ident),*) => {$(
        impl $op for WideBitboard {
            type Output = WideBitboard;
            #[inline(always)]
            fn $method(self, o: WideBitboard) -> WideBitboard {
                WideBitboard([
                    self.0[0].$method(o.0[0]),
                    self.0[1].$method(o.0[1]),
                    self.0[2].$method(o.0[2]),
                    self.0[3].$method(o.0[3]),
                ])
            }
        }
    )*};
}
wide_operators!(BitAnd bitand, BitOr bitor, BitXor bitxor);

impl Not for WideBitboard {
    type Output = WideBitboard;
    /// The complement within all 256 bits (padding included); mask with the board as needed.
    #[inline(always)]
    fn not(self) -> WideBitboard {
        WideBitboard([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_drop_the_squares_that_leave_the_board() {
        let all = Bitboard::FULL;
        assert_eq!(all.north(), !Bitboard::RANK_1);
        assert_eq!(all.south(), !Bitboard::RANK_8);
        assert_eq!(all.east(), !Bitboard::FILE_A);
        assert_eq!(all.west(), !Bitboard::FILE_H);
        assert_eq!(all.north_east(), !(Bitboard::FILE_A | Bitboard::RANK_1));
        assert_eq!(all.north_west(), !(Bitboard::FILE_H | Bitboard::RANK_1));
        assert_eq!(all.south_east(), !(Bitboard::FILE_A | Bitboard::RANK_8));
        assert_eq!(all.south_west(), !(Bitboard::FILE_H | Bitboard::RANK_8));
        // d4 = 27 grows into the 3×3 block c3..e5.
        let block = [18, 19, 20, 26, 27, 28, 34, 35, 36];
        let grown: heapless::Vec<u8, 9> = Bitboard::square(27).grow().iter().collect();
        assert_eq!(grown.as_slice(), &block);
        // a1 grows into a1, b1, a2, b2 only.
        assert_eq!(Bitboard::square(0).grow(), Bitboard(0b11 | 0b11 << 8));
    }

    #[test]
    fn set_operations_and_iteration() {
        let s = Bitboard::EMPTY.with(3).with(40).with(63);
        assert_eq!(s.count(), 3);
        assert!(s.contains(40) && !s.contains(41));
        assert_eq!(s.without(40).count(), 2);
        assert_eq!((s.first(), s.last()), (3, 63));
        assert_eq!((s.nth(0), s.nth(1), s.nth(2)), (3, 40, 63));
        assert_eq!(s.lowest(), Bitboard::square(3));
        assert_eq!(s.iter().len(), 3);
        let v: heapless::Vec<u8, 3> = s.into_iter().collect();
        assert_eq!(v.as_slice(), &[3, 40, 63]);
        let mut t = s;
        assert_eq!(t.pop_first(), Some(3));
        t.toggle(63);
        assert_eq!(t, Bitboard::square(40));
        assert!(t.intersects(s) && !t.intersects(!s));
        assert!(Bitboard::EMPTY.is_empty() && !s.is_empty() && s.any());
        assert_eq!(Bitboard::rank(7), Bitboard::RANK_8);
    }

    /// `nth_pdep` picks the same square as `nth` for every position in sets of every density
    /// (run where the CPU has BMI2; elsewhere there is nothing to compare).
    #[cfg(target_arch = "x86_64")]
    #[test]
    #[allow(unsafe_code)]
    fn pdep_select_matches_the_loop() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return;
        }
        let mut rng = crate::rng::seeded(21);
        let mut checked = 0;
        for density in 0..6 {
            for _ in 0..2000 {
                // AND-ing k random words keeps each square with probability 2^-k.
                let mut set = !0u64;
                for _ in 0..density {
                    set &= crate::rng::next_u64(&mut rng);
                }
                let b = Bitboard(set);
                for n in 0..b.count() {
                    // SAFETY: the CPU has BMI2 (checked above).
                    assert_eq!(unsafe { b.nth_pdep(n) }, b.nth(n), "{set:#x} {n}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn wide_shifts_cross_word_boundaries() {
        let s = WideBitboard::square(63);
        assert_eq!(s.shl(1), WideBitboard::square(64));
        assert_eq!(s.shl(130), WideBitboard::square(193));
        assert_eq!(WideBitboard::square(193).shr(130), s);
        assert!(WideBitboard::square(255).shl(1).is_empty());
        let v: heapless::Vec<u8, 4> = (s | WideBitboard::square(200)).iter().collect();
        assert_eq!(v.as_slice(), &[63, 200]);
        assert_eq!((s | WideBitboard::square(0)).count(), 2);
        assert!(s.contains(63) && !s.contains(64) && !s.contains(300));
    }
}
