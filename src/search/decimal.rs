//! Decimal text to `f32` for player specs: the same value as `str::parse::<f32>`, bit for bit,
//! without `core`'s float parser.
//!
//! Specs carry a few real numbers (`im0.4`, `ege0.1`), parsed once per game, so speed does not
//! matter here but size does: `core`'s parser (Eisel-Lemire with a fallback) brings about 17 KB
//! of tables and code into the WebAssembly module of `web/`, which must stay under 200 KiB. This
//! one is plain exact arithmetic: the significant digits as a big integer, times or divided by the
//! power of ten, rounded half to even.
//!
//! Why [`MAX_DIGITS`] digits are enough: rounding to `f32` only asks on which side of a
//! rounding boundary (a midpoint between two neighbouring `f32`s, or the overflow threshold) a
//! value lies. A midpoint is an odd multiple of 2^k with fewer than 2^25 as the multiplier and
//! k >= -150, so its decimal expansion has at most 113 significant digits. Digits past the
//! 120th can therefore only tell "exactly these digits" from "a bit more": they are kept as one
//! sticky digit 1, which changes no rounding. The tests compare every result with `core`'s.

/// Significant digits kept exactly (at least 113, see the module docs).
const MAX_DIGITS: usize = 120;

/// Limbs of [`Big`]: 512 bits. The largest number met is about 2^412 (121 digits shifted
/// against 5^166).
const LIMBS: usize = 16;

/// A fixed-size unsigned big integer, least significant 32-bit limb first.
#[derive(Clone, Copy)]
struct Big([u32; LIMBS]);

impl Big {
    const fn small(n: u32) -> Self {
        let mut limbs = [0; LIMBS];
        limbs[0] = n;
        Big(limbs)
    }

    /// `self = self * m + a`.
    fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.0 {
            let x = u64::from(*limb) * u64::from(m) + carry;
            *limb = x as u32;
            carry = x >> 32;
        }
        debug_assert_eq!(carry, 0, "Big overflow");
    }

    /// The number of significant bits (0 for zero).
    fn bits(&self) -> i32 {
        match self.0.iter().rposition(|&l| l != 0) {
            Some(i) => 32 * (i as i32 + 1) - self.0[i].leading_zeros() as i32,
            None => 0,
        }
    }

    /// `self <<= n` (no bit is shifted out: callers stay under `32 * LIMBS` bits).
    fn shl(&mut self, n: i32) {
        debug_assert!(self.bits() + n <= 32 * LIMBS as i32, "Big overflow");
        let (words, bits) = ((n / 32) as usize, (n % 32) as u32);
        for i in (0..LIMBS).rev() {
            let hi = if i >= words { self.0[i - words] } else { 0 };
            let lo = if i > words { self.0[i - words - 1] } else { 0 };
            self.0[i] = if bits == 0 {
                hi
            } else {
                (hi << bits) | (lo >> (32 - bits))
            };
        }
    }

    /// `self -= other` if `self >= other`; whether it did.
    fn sub_if_ge(&mut self, other: &Big) -> bool {
        let ge = self.0.iter().rev().cmp(other.0.iter().rev()).is_ge();
        if ge {
            let mut borrow = false;
            for (a, &b) in self.0.iter_mut().zip(&other.0) {
                let (x, o1) = a.overflowing_sub(b);
                let (x, o2) = x.overflowing_sub(u32::from(borrow));
                *a = x;
                borrow = o1 || o2;
            }
        }
        ge
    }
}

/// Parses `text` as `str::parse::<f32>` does: an optional sign, then `inf`, `infinity` or `nan`
/// (any case), or digits with an optional `.` (at least one digit in all) and an optional
/// exponent (`e` or `E`, an optional sign, at least one digit); `None` where it gives an error.
pub(crate) fn parse_f32(text: &str) -> Option<f32> {
    let (negative, rest) = match text.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        rest => (false, rest),
    };
    let magnitude = if rest.eq_ignore_ascii_case(b"inf") || rest.eq_ignore_ascii_case(b"infinity") {
        f32::INFINITY
    } else if rest.eq_ignore_ascii_case(b"nan") {
        f32::NAN
    } else {
        finite(rest)?
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// The unsigned decimal number `s` rounded to the nearest `f32` (ties to even); infinity past
/// the largest finite `f32`.
fn finite(s: &[u8]) -> Option<f32> {
    // The value is `digits * 10^exp10` (plus a little more if `sticky`).
    let mut digits = Big::small(0);
    let mut kept = 0usize;
    let mut sticky = false;
    let mut exp10: i64 = 0;
    let (mut any_digit, mut point) = (false, false);
    let mut i = 0;
    while let Some(&c) = s.get(i) {
        match c {
            b'0'..=b'9' => {
                any_digit = true;
                let d = u32::from(c - b'0');
                if kept < MAX_DIGITS && (kept > 0 || d != 0) {
                    digits.mul_add(10, d);
                    kept += 1;
                    exp10 -= i64::from(point);
                } else if kept == 0 {
                    // A leading zero: only its place after the point counts.
                    exp10 -= i64::from(point);
                } else {
                    sticky |= d != 0;
                    exp10 += i64::from(!point);
                }
            }
            b'.' if !point => point = true,
            _ => break,
        }
        i += 1;
    }
    if !any_digit {
        return None;
    }
    if i < s.len() {
        if s[i] | 0x20 != b'e' {
            return None;
        }
        i += 1;
        let negative = s.get(i) == Some(&b'-');
        i += usize::from(matches!(s.get(i), Some(b'-' | b'+')));
        let start = i;
        let mut e: i64 = 0;
        while let Some(&c @ b'0'..=b'9') = s.get(i) {
            // Saturates far past any exponent that can matter.
            e = (e * 10 + i64::from(c - b'0')).min(1 << 32);
            i += 1;
        }
        if i == start || i < s.len() {
            return None;
        }
        exp10 += if negative { -e } else { e };
    }
    if kept == 0 {
        return Some(0.0);
    }
    if sticky {
        digits.mul_add(10, 1);
        kept += 1;
        exp10 -= 1;
    }
    // The value is in [10^(magnitude - 1), 10^magnitude).
    let magnitude = kept as i64 + exp10;
    if magnitude > 39 {
        return Some(f32::INFINITY); // >= 1e39, past f32::MAX (3.4e38)
    }
    if magnitude < -45 {
        return Some(0.0); // < 1e-46, under half the smallest subnormal (1.4e-45)
    }
    // Now -166 <= exp10 <= 39. value = num / den * 2^exp2 exactly.
    let (mut num, mut den) = (digits, Big::small(1));
    let mut exp2 = 0i32;
    for _ in 0..exp10.unsigned_abs() {
        if exp10 > 0 {
            num.mul_add(10, 0);
        } else {
            den.mul_add(5, 0);
            exp2 -= 1;
        }
    }
    // Scale so that the quotient q = floor(num / den) is in [2^25, 2^27): at least two bits
    // past the 24 of an f32 mantissa.
    let shift = 26 + den.bits() - num.bits();
    if shift > 0 {
        num.shl(shift);
    } else {
        den.shl(-shift);
    }
    exp2 -= shift;
    let mut q: u64 = 0;
    for bit in (0..27).rev() {
        let mut d = den;
        d.shl(bit);
        if num.sub_if_ge(&d) {
            q |= 1 << bit;
        }
    }
    let sticky = num.0.iter().any(|&l| l != 0);
    // value = (q + a fraction, nonzero if `sticky`) * 2^exp2. Drop the bits below the mantissa:
    // 24 significant bits, or fewer where the lowest would weigh less than 2^-149 (subnormal).
    let bits = 64 - q.leading_zeros() as i32;
    let drop = (bits - 24).max(-149 - exp2).min(40);
    let (mut mantissa, rest, half) = (q >> drop, q & ((1 << drop) - 1), 1u64 << (drop - 1));
    if rest > half || (rest == half && (sticky || mantissa & 1 == 1)) {
        mantissa += 1;
    }
    let mut exp2 = exp2 + drop;
    if mantissa == 1 << 24 {
        mantissa >>= 1;
        exp2 += 1;
    }
    if mantissa < 1 << 23 {
        // Subnormal (or zero): the lowest bit weighs 2^-149.
        return Some(f32::from_bits(mantissa as u32));
    }
    let biased = exp2 + 150; // the exponent field of mantissa * 2^exp2
    if biased >= 255 {
        return Some(f32::INFINITY);
    }
    Some(f32::from_bits(
        ((biased as u32) << 23) | (mantissa as u32 & 0x7f_ffff),
    ))
}

#[cfg(test)]
mod tests {
    use super::parse_f32;
    use rand_core::Rng;
    use rand_xorshift::XorShiftRng;
    use std::format;
    use std::string::String;

    /// `parse_f32(s)` and `s.parse::<f32>()` agree: both errors, both NaN, or the same bits.
    fn same(s: &str) {
        let core = s.parse::<f32>().ok();
        let ours = parse_f32(s);
        let agree = match (core, ours) {
            (None, None) => true,
            (Some(a), Some(b)) => a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
            _ => false,
        };
        assert!(agree, "{s:?}: core {core:?}, ours {ours:?}");
    }

    fn rng() -> XorShiftRng {
        rand_core::SeedableRng::seed_from_u64(0x05ee_df32)
    }

    #[test]
    fn grammar_matches_core() {
        for s in [
            "",
            "+",
            "-",
            ".",
            "+.",
            "-.",
            "e",
            "e1",
            ".e1",
            "1e",
            "1e+",
            "1e-",
            "1E5",
            "1e+5",
            "1e-5",
            "1.",
            ".5",
            "-.5",
            "+1.5",
            "0",
            "-0",
            "+0",
            "0.0",
            "-0.0e9",
            "00",
            "1..2",
            "1.2.3",
            "1e5.5",
            "1e5e5",
            "1 ",
            " 1",
            "1_0",
            "0x10",
            "+-1",
            "-+1",
            "--1",
            "1-",
            "1+",
            "inf",
            "-inf",
            "+INF",
            "Infinity",
            "-infinity",
            "InFiNiTy",
            "infinit",
            "infinityy",
            "nan",
            "-NaN",
            "+nan",
            "nan1",
            "in",
            "i",
            "n",
            "1.5é",
            "é",
            "1e0000000000000000000001",
            "1e99999999999999999999",
            "1e-99999999999999999999",
            "0e999999999999999",
            "0.4",
            "0.05",
            "20",
            "1",
            "0.1",
            "1e-3",
            "3.4028235e38",
            "3.4028236e38",
            "3.5e38",
            "1e39",
            "1e38",
            "1.4e-45",
            "7e-46",
            "7.1e-46",
            "1e-46",
            "1e-45",
            "1.17549435e-38",
        ] {
            same(s);
        }
    }

    /// Neighbours of a decimal string `m × 10^e` (`m` digits only): the value itself, a hair
    /// above and a hair below, and the same with the point and exponent moved about.
    fn variants(mantissa: &str, e: i32, out: &mut impl FnMut(&str)) {
        let trimmed = mantissa.trim_end_matches('0');
        let m = if trimmed.is_empty() { "0" } else { trimmed };
        let e = e + (mantissa.len() - m.len()) as i32;
        out(&format!("{m}e{e}"));
        out(&format!("{m}000000000000000000000000000001e{}", e - 30));
        out(&format!("0.{m}e{}", e + m.len() as i32));
        out(&format!("0000{m}.000e{e}"));
        if m.len() > 1 {
            out(&format!(
                "{}.{}e{}",
                &m[..1],
                &m[1..],
                e + m.len() as i32 - 1
            ));
        }
        // One unit less in the last place, then many nines: just below the value.
        let mut below: std::vec::Vec<u8> = m.bytes().collect();
        let mut i = below.len();
        while i > 0 {
            i -= 1;
            if below[i] == b'0' {
                below[i] = b'9';
            } else {
                below[i] -= 1;
                break;
            }
        }
        let below = String::from_utf8(below).unwrap();
        out(&format!("{below}{}e{}", "9".repeat(140), e - 140));
    }

    /// Every f32 rounding boundary sampled: midpoints between neighbours (exactly, and a hair
    /// either side), written with all their digits; plus the f32s themselves.
    #[test]
    fn midpoints_and_values_match_core() {
        let mut rng = rng();
        let mut check = |s: &str| same(s);
        let mut patterns: std::vec::Vec<u32> = (0..20_000).map(|_| rng.next_u32() >> 1).collect();
        patterns.extend([
            0,
            1,
            2,
            3,
            0x7f_ffff,
            0x80_0000,
            0x80_0001,
            0x7f7f_ffff,
            0x7f7f_fffe,
        ]);
        for b in patterns {
            let x = f32::from_bits(b);
            if !x.is_finite() {
                continue;
            }
            check(&format!("{x}"));
            check(&format!("{x:e}"));
            check(&format!("{:.60e}", f64::from(x)));
            // The midpoint to the next f32 up, exact in f64 (25 significant bits).
            let up = if b == 0x7f7f_ffff {
                f64::from(x) + 2f64.powi(104) // the next "f32" past MAX would be 2^128
            } else {
                f64::from(f32::from_bits(b + 1))
            };
            let mid = (f64::from(x) + up) / 2.0;
            let exact = format!("{mid:.130e}"); // an f32 midpoint has at most 113 digits
            let (m, e) = exact.split_once('e').unwrap();
            let m = m.replace('.', "");
            let e: i32 = e.parse::<i32>().unwrap() - (m.len() as i32 - 1);
            variants(&m, e, &mut check);
        }
    }

    /// Whether a random draw hits a 1-in-`n` chance.
    fn one_in(rng: &mut XorShiftRng, n: u32) -> bool {
        rng.next_u32().is_multiple_of(n)
    }

    /// Random digit strings with random points and exponents, short and very long.
    #[test]
    fn random_decimals_match_core() {
        let mut rng = rng();
        for _ in 0..30_000 {
            let max_len = if one_in(&mut rng, 8) { 300 } else { 25 };
            let len = 1 + (rng.next_u32() % max_len) as usize;
            let mut s = String::new();
            if one_in(&mut rng, 4) {
                s.push('-');
            }
            let point = (rng.next_u32() as usize) % (len + 1);
            for i in 0..len {
                if i == point && one_in(&mut rng, 2) {
                    s.push('.');
                }
                // Digits weighted toward 0 and 9: their runs put values next to boundaries.
                let d = match rng.next_u32() % 10 {
                    0..=5 => rng.next_u32() % 10,
                    6 | 7 => 0,
                    _ => 9,
                };
                s.push(char::from(b'0' + d as u8));
            }
            if one_in(&mut rng, 2) {
                let e = (rng.next_u32() % 120) as i32 - 60 - len as i32 / 2;
                s.push_str(&format!("e{e}"));
            }
            same(&s);
        }
    }
}
