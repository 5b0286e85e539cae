//! Small, portable helpers on top of [`SearchRng`]: bounded integers and unit floats that give
//! the same numbers on every platform for the same seed.

use rand_core::{Rng, SeedableRng};

use crate::SearchRng;

/// A generator seeded from a `u64` (the seed expansion of `rand_core`, identical everywhere).
pub fn seeded(seed: u64) -> SearchRng {
    SearchRng::seed_from_u64(seed)
}

/// An integer in `0..n` (Lemire's multiply-shift; `n` must be non-zero, `0` yields `0`).
/// Without Lemire's rejection step, so each value's probability is `1/n` to within `1/2^32`
/// (the samplers' "exact" distributions are exact to that); taking the step would change
/// every search's random numbers.
#[inline(always)]
pub fn below(rng: &mut SearchRng, n: u32) -> u32 {
    ((rng.next_u32() as u64 * n as u64) >> 32) as u32
}

/// A uniform `f32` in `[0, 1)` with 24 bits of precision.
#[inline(always)]
pub fn unit_f32(rng: &mut SearchRng) -> f32 {
    (rng.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)
}

/// A raw 64-bit draw, for callers that need their own mapping.
#[inline(always)]
pub fn next_u64(rng: &mut SearchRng) -> u64 {
    rng.next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_repeats() {
        let mut a = seeded(7);
        let mut b = seeded(7);
        for n in 1..200 {
            let x = below(&mut a, n);
            assert!(x < n);
            assert_eq!(x, below(&mut b, n));
        }
    }

    #[test]
    fn unit_is_in_unit_interval() {
        let mut r = seeded(1);
        for _ in 0..1000 {
            let x = unit_f32(&mut r);
            assert!((0.0..1.0).contains(&x));
        }
    }
}
