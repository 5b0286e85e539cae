//! A node's reward statistic: an `f32` beside its visit count, read as a mean.
//!
//! Below [`MEAN_FROM`] visits it is the `f32` sum of the rewards, as it always was: every
//! search that keeps its nodes below that count is unchanged to the bit. An `f32` sum cannot go
//! on much further. Its spacing at `2²⁴` is 2, so a sum of ±1 rewards stops moving there
//! (adding 1 rounds back to the same even number) while the count grows, and the mean sinks
//! towards 0: a child that wins 90% of its playouts reads 0.56 at 30 million visits and 0.17 at
//! 100 million. Fractional rewards (`fet`'s evaluations) lose their digits sooner. A long
//! analysis reaches such counts at the root's best child in under a minute.
//!
//! From [`MEAN_FROM`] visits on, the field's 32 bits hold the **mean** as a fixed-point number
//! (units of 2⁻²⁹: the bits an `f32` spends on its exponent go to the fraction), offset by 2²⁹
//! so that they are the bits of a finite positive `f32` (never a NaN, whose bits a move need not
//! keep); nothing reads them as a float. An update works the new mean out exactly in integers
//! (the sum in 2⁻²⁹ units, an `i64`) from the old mean and the count, and rounds it to the grid
//! with a dither taken from the count (a Weyl sequence), so that the rounding errors average out
//! instead of all leaning one way: nearest rounding would lose every increment below half a
//! unit, which from about 10⁸ visits on is the smaller of a node's two kinds of result. The
//! mean's error stays about 2⁻²⁹·√(n/18): 3·10⁻⁵ at the `u32` visit limit. The field stays an
//! `f32` so that sums, the common case, are added and divided where they lie in memory (as
//! integer bits they cost 2–3% more instructions).
//!
//! The representation is a function of the count alone, so a pair read together (one word in
//! the parallel search) always decodes, and a node that falls back below the threshold (a
//! virtual loss taken back) returns to a sum. Every operation is integer or correctly rounded
//! IEEE `f32` arithmetic: the same bits on every platform.

/// The visit count from which a node's statistic is its mean in fixed point rather than the
/// `f32` sum of its rewards. At `2²²` the sum of ±1 rewards is still exact and a sum of
/// fractional ones within about 10⁻⁴ of its mean's worth (a mean of 0.25 sums to `2²⁰`, whose
/// spacing is 1/8); the searches of `imcts bench` and every 5 s search of issue 12's table
/// but the longest stay below it.
pub const MEAN_FROM: u32 = 1 << 22;

/// Fixed-point units per 1 of mean reward: `2²⁹`.
const UNIT: f32 = (1u32 << 29) as f32;

/// What a fixed-point mean is offset by in the field's bits: the means `[-1, 1]` become
/// `0..=2³⁰`, the bits of finite positive `f32`s.
const OFFSET: i64 = 1 << 29;

/// The mean reward of a node with `visits` and statistic `stat`; `0` before any visit. One
/// test inline (a count from 1 to below the threshold divides the sum), the rest out of line.
#[inline(always)]
pub fn mean(visits: u32, stat: f32) -> f32 {
    if visits.wrapping_sub(1) < MEAN_FROM - 1 {
        stat / visits as f32
    } else {
        unvisited_or_fixed_mean(visits, stat)
    }
}

/// [`mean`] of a node with no visit or with [`MEAN_FROM`] or more.
#[cold]
#[inline(never)]
fn unvisited_or_fixed_mean(visits: u32, stat: f32) -> f32 {
    if visits == 0 { 0.0 } else { fixed_mean(stat) }
}

/// [`mean`] of a node with at least one visit.
#[inline(always)]
pub(crate) fn visited_mean(visits: u32, stat: f32) -> f32 {
    if visits >= MEAN_FROM {
        fixed_mean(stat)
    } else {
        stat / visits as f32
    }
}

/// The mean held in fixed point: the field's bits less the offset, over `2²⁹` (the conversion
/// rounds once; the scaling by a power of two is exact). Out of line in small-code builds: only
/// a long search's most visited nodes hold one, and the web page's module counts its bytes (a
/// call in the scan's loop cost desktop builds about 1% of Kalah's instructions).
#[cfg_attr(feature = "compact-code", cold, inline(never))]
#[cfg_attr(not(feature = "compact-code"), inline(always))]
fn fixed_mean(stat: f32) -> f32 {
    (stat.to_bits() as i32 - OFFSET as i32) as f32 * (1.0 / (1u32 << 29) as f32)
}

/// The statistic after `dv` more visits (a wrapping add, so that a virtual loss is taken back
/// by adding its complement) and `dr` more reward: the `f32` add of old while both counts are
/// below [`MEAN_FROM`].
#[inline(always)]
pub(crate) fn add(visits: u32, stat: f32, dv: u32, dr: f32) -> (u32, f32) {
    let n = visits.wrapping_add(dv);
    if visits < MEAN_FROM && n < MEAN_FROM {
        (n, stat + dr)
    } else {
        (n, encode(n, total(visits, stat) + units(dr)))
    }
}

/// Two statistics of the same position added together (root parallelism's merge); the count
/// saturates.
// Root parallelism's, absent without atomics.
#[cfg_attr(
    not(all(
        target_has_atomic = "8",
        target_has_atomic = "16",
        target_has_atomic = "32"
    )),
    allow(dead_code)
)]
pub(crate) fn merge(a: (u32, f32), b: (u32, f32)) -> (u32, f32) {
    let n = a.0.saturating_add(b.0);
    if n < MEAN_FROM {
        (n, a.1 + b.1)
    } else {
        (n, encode(n, total(a.0, a.1) + total(b.0, b.1)))
    }
}

/// The statistic of `visits` visits whose mean is `mean` (BBQ's best-value backup: below the
/// threshold `mean · visits` as an `f32`, as it always was).
pub(crate) fn with_mean(visits: u32, mean: f32) -> f32 {
    if visits < MEAN_FROM {
        mean * visits as f32
    } else {
        encode(visits, units(mean.clamp(-1.0, 1.0)) * i64::from(visits))
    }
}

/// The statistic of `to` visits (at most `visits`) with the mean of `(visits, stat)`: a count
/// taken back with the mean kept (`code-proof-visits`).
pub(crate) fn with_visits(visits: u32, stat: f32, to: u32) -> f32 {
    debug_assert!(to <= visits);
    if visits < MEAN_FROM {
        mean(visits, stat) * to as f32
    } else if to >= MEAN_FROM {
        stat
    } else {
        encode(to, fixed(stat) * i64::from(to))
    }
}

/// `x` in fixed-point units (2⁻²⁹), an `i64` (saturating; NaN gives 0): exact for `|x| ≥ 2⁻⁵`,
/// where the `f32` product is a whole number, and within a unit below.
#[inline]
fn units(x: f32) -> i64 {
    (x * UNIT) as i64
}

/// The fixed-point mean a field holds (the field's bits less the offset).
#[inline]
fn fixed(stat: f32) -> i64 {
    i64::from(stat.to_bits()) - OFFSET
}

/// The sum of the rewards a statistic stands for, in fixed-point units: below 2⁶¹ in size
/// (a mean of at most 1 times at most 2³² visits), so that two of them and a reward add up in
/// an `i64`.
#[inline]
fn total(visits: u32, stat: f32) -> i64 {
    if visits >= MEAN_FROM {
        fixed(stat) * i64::from(visits)
    } else {
        units(stat)
    }
}

/// The statistic of `visits` visits whose rewards sum to `total` units. Past the threshold,
/// the mean `total / visits` rounded down or up as it falls with a dither in `[0, 1)` added,
/// taken from `visits`: over successive counts the dithers are spread evenly (the fractional
/// parts of `visits · φ⁻¹`), so each rounding is unbiased on average. Clamped to the means
/// `[-1, 1]` and stored offset, as the field's bits. Below it, the sum as an `f32` (one
/// rounding; the scaling by a power of two is exact). Integer arithmetic throughout, so the
/// firmware links no `f64` routines.
#[inline(never)]
fn encode(visits: u32, total: i64) -> f32 {
    if visits >= MEAN_FROM {
        let n = u64::from(visits);
        // The dither times the count, in units: a 32-bit fraction times `n`.
        let dither = ((n.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) * n) >> 32;
        let m = total.saturating_add(dither as i64).div_euclid(n as i64);
        f32::from_bits((m.clamp(-OFFSET, OFFSET) + OFFSET) as u32)
    } else {
        total as f32 * (1.0 / UNIT)
    }
}

// The scan looks `1/√n` up below its table's limit without this module's test: every count it
// looks up is below the threshold.
const _: () = assert!(super::math::MAX_LOOKUP_LIMIT <= MEAN_FROM);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_the_threshold_the_statistic_is_the_f32_sum() {
        let (mut v, mut b) = (0u32, 0f32);
        let mut sum = 0f32;
        for i in 0..10_000u32 {
            let r = ((i * 7919) % 13) as f32 / 6.0 - 1.0;
            (v, b) = add(v, b, 1, r);
            sum += r;
            assert_eq!(b, sum);
        }
        assert_eq!(mean(v, b), sum / 10_000.0);
    }

    #[test]
    fn a_mean_of_wins_does_not_sink_past_two_to_the_twenty_four() {
        // 90% wins from 20M visits on: an f32 sum is past 2^24 and stops moving.
        let start = 20_000_000;
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut draw = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x % 10 < 9 { 1.0f32 } else { -1.0 }
        };
        let (mut v, mut b) = (start, with_mean(start, 0.8));
        let mut exact = 0.8 * f64::from(start);
        let mut old = 0.8 * start as f32;
        for _ in 0..10_000_000 {
            let r = draw();
            (v, b) = add(v, b, 1, r);
            exact += f64::from(r);
            old += r;
        }
        let want = exact / f64::from(v);
        assert!(
            (f64::from(mean(v, b)) - want).abs() < 1e-5,
            "{} against {want}",
            mean(v, b)
        );
        // What the f32 sum alone gave over the same rewards.
        assert!(old / (v as f32) < 0.6, "{}", old / v as f32);
    }

    #[test]
    fn fixed_point_means_stay_unbiased_where_nearest_rounding_drifts() {
        // From a billion visits on, a +1 moves a mean of 0.8 by under half a unit: nearest
        // rounding would drop every one of them and keep every -1.
        let start = 1_000_000_000;
        let (mut v, mut b) = (start, with_mean(start, 0.8));
        for i in 0..10_000_000u64 {
            (v, b) = add(v, b, 1, if i % 10 == 0 { -1.0 } else { 1.0 });
        }
        let want = (0.8 * f64::from(start) + 10_000_000.0 * 0.8) / f64::from(v);
        assert!(
            (f64::from(mean(v, b)) - want).abs() < 2e-6,
            "{} against {want}",
            mean(v, b)
        );
    }

    #[test]
    fn a_fractional_stream_keeps_its_mean_from_the_threshold_on() {
        // Kalah-like rewards, tanh(k / 10) for a spread of k: the f32 sum's rounding leaned one
        // way by 3.5e-4 at 2^24 visits and 2.4e-3 at 30M (a scratch run, session 34).
        let start = MEAN_FROM;
        let (mut v, mut b) = (start, with_mean(start, 0.24));
        let mut exact = f64::from(fixed_mean(b)) * f64::from(start);
        let mut x = 7u64;
        for _ in 0..4_000_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = (x % 17) as i32 - 5;
            let r = libm::tanhf(k as f32 / 10.0);
            (v, b) = add(v, b, 1, r);
            exact += f64::from(r);
        }
        let want = exact / f64::from(v);
        assert!(
            (f64::from(mean(v, b)) - want).abs() < 1e-6,
            "{} against {want}",
            mean(v, b)
        );
    }

    #[test]
    fn the_threshold_is_crossed_both_ways_keeping_the_mean() {
        let below = MEAN_FROM - 3;
        let bits = 0.25 * below as f32;
        let (v, b) = add(below, bits, 10, 2.5);
        assert_eq!(v, MEAN_FROM + 7);
        let want = (0.25 * f64::from(below) + 2.5) / f64::from(v);
        assert!((f64::from(mean(v, b)) - want).abs() < 1e-8);
        // A virtual loss taken back: ten visits and their rewards off again.
        let (v2, b2) = add(v, b, 10u32.wrapping_neg(), -2.5);
        assert_eq!(v2, below);
        assert!((mean(v2, b2) - 0.25).abs() < 1e-7);
        assert!((b2 - 0.25 * below as f32).abs() <= 0.5);
    }

    #[test]
    fn merges_and_set_means_agree_with_the_sums() {
        let a = (3_000_000, 1_500_000f32);
        let b = (2_000_000, -400_000f32);
        let (n, bits) = merge(a, b);
        assert_eq!(n, 5_000_000);
        assert!((mean(n, bits) - 1_100_000.0 / 5_000_000.0).abs() < 1e-7);
        assert_eq!(merge((2, 1.0), (3, 2.0)), (5, 3.0));
        assert!((mean(MEAN_FROM, with_mean(MEAN_FROM, -0.375)) + 0.375).abs() < 1e-8);
        assert_eq!(with_mean(10, 0.5), 5.0);
        let big = with_mean(MEAN_FROM * 2, 0.625);
        assert_eq!(with_visits(MEAN_FROM * 2, big, MEAN_FROM), big);
        let down = with_visits(MEAN_FROM * 2, big, 1_000);
        assert!((down - 625.0).abs() < 1e-3);
        assert_eq!(with_visits(8, 4.0, 4), 2.0);
    }

    #[test]
    fn the_fixed_point_grid_holds_every_mean_and_clamps() {
        for m in [-1.0f32, -0.5, 0.0, 0.123_456_7, 1.0] {
            let b = with_mean(MEAN_FROM, m);
            assert!((mean(MEAN_FROM, b) - m).abs() < 1e-8, "{m}");
        }
        let n = MEAN_FROM;
        assert_eq!(fixed_mean(encode(n, i64::MAX / 2)), 1.0);
        assert_eq!(fixed_mean(encode(n, i64::MIN / 2)), -1.0);
        assert_eq!(fixed_mean(encode(n, -3 * i64::from(n))), -3.0 / UNIT);
        // Every stored mean is a finite positive f32's bits, never a NaN's.
        for t in [i64::MIN / 2, -1, 0, 1, i64::MAX / 2] {
            let f = encode(n, t);
            assert!(f.is_finite() && f >= 0.0, "{t}");
        }
    }
}
