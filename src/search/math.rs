//! The few transcendental values UCT needs, as tables computed at compile time (so the same on
//! every platform, and free at run time), with `libm` beyond the tables.

/// Table size: visit counts below this are looked up.
const N: usize = 4096;

/// The visit counts below this are looked up in the tables ([`inv_sqrt`], [`sqrt_ln`]).
pub(crate) const TABLE_LEN: usize = N;

/// `sqrt(x)` in `f64` by Newton's method, usable in `const`.
const fn sqrt_f64(x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let mut y = if x > 1.0 { x / 2.0 } else { 1.0 };
    let mut i = 0;
    while i < 64 {
        y = 0.5 * (y + x / y);
        i += 1;
    }
    y
}

/// `ln(x)` for `x ≥ 1` in `f64`, usable in `const`: `x = 2^k·m` with `m ∈ [1, 2)`, then
/// `ln m = 2·atanh((m−1)/(m+1))` by its series.
const fn ln_f64(x: f64) -> f64 {
    const LN2: f64 = core::f64::consts::LN_2;
    let mut m = x;
    let mut k = 0.0;
    while m >= 2.0 {
        m /= 2.0;
        k += 1.0;
    }
    let t = (m - 1.0) / (m + 1.0);
    let t2 = t * t;
    let mut term = t;
    let mut sum = 0.0;
    let mut i = 0;
    while i < 60 {
        sum += term / (2 * i + 1) as f64;
        term *= t2;
        i += 1;
    }
    k * LN2 + 2.0 * sum
}

/// `1/sqrt(n)` as the table holds it, computed in `f64` and rounded once.
const fn inv_sqrt_entry(n: usize) -> f32 {
    (1.0 / sqrt_f64(n as f64)) as f32
}

/// `sqrt(ln n)` as the table holds it (`n ≥ 2`), computed in `f64` and rounded once.
const fn sqrt_ln_entry(n: usize) -> f32 {
    sqrt_f64(ln_f64(n as f64)) as f32
}

/// The tables, computed at compile time: 32 KiB of read-only data.
#[cfg(not(any(feature = "lazy-uct-tables", feature = "small-uct-tables")))]
mod tables {
    use super::{N, inv_sqrt_entry, sqrt_ln_entry};

    /// `1/sqrt(n)` for `n < N` (entry 0 unused).
    static INV_SQRT: [f32; N] = {
        let mut t = [0.0f32; N];
        let mut i = 1;
        while i < N {
            t[i] = inv_sqrt_entry(i);
            i += 1;
        }
        t
    };

    /// `sqrt(ln n)` for `n < N` (entries 0 and 1 are 0).
    static SQRT_LN: [f32; N] = {
        let mut t = [0.0f32; N];
        let mut i = 2;
        while i < N {
            t[i] = sqrt_ln_entry(i);
            i += 1;
        }
        t
    };

    #[inline(always)]
    pub fn inv_sqrt(n: usize) -> f32 {
        INV_SQRT[n]
    }

    #[inline(always)]
    pub fn sqrt_ln(n: usize) -> f32 {
        SQRT_LN[n]
    }
}

/// The first `SMALL` entries of the tables at compile time (feature
/// `small-uct-tables`, without `lazy-uct-tables`): 8 KiB of read-only data instead of 32 KiB,
/// for small flash. Entries from `SMALL` to `N` are computed when asked for, by the same `f64`
/// functions, so the values (and searches) are bit-identical; that costs a software `f64`
/// Newton iteration per lookup of a count past `SMALL`, which only long searches reach.
#[cfg(all(feature = "small-uct-tables", not(feature = "lazy-uct-tables")))]
mod tables {
    use super::{inv_sqrt_entry, sqrt_ln_entry};

    /// Visit counts below this are looked up.
    pub const SMALL: usize = 1024;

    static INV_SQRT: [f32; SMALL] = {
        let mut t = [0.0f32; SMALL];
        let mut i = 1;
        while i < SMALL {
            t[i] = inv_sqrt_entry(i);
            i += 1;
        }
        t
    };

    static SQRT_LN: [f32; SMALL] = {
        let mut t = [0.0f32; SMALL];
        let mut i = 2;
        while i < SMALL {
            t[i] = sqrt_ln_entry(i);
            i += 1;
        }
        t
    };

    #[inline(always)]
    pub fn inv_sqrt(n: usize) -> f32 {
        match INV_SQRT.get(n) {
            Some(&v) => v,
            None => inv_sqrt_entry(n),
        }
    }

    #[inline(always)]
    pub fn sqrt_ln(n: usize) -> f32 {
        match SQRT_LN.get(n) {
            Some(&v) => v,
            None => sqrt_ln_entry(n),
        }
    }
}

/// The same tables filled on first use (feature `lazy-uct-tables`): zero-initialised statics
/// take no space in a firmware image or a wasm module, and each entry is computed by the same
/// `f64` functions as the compile-time table, so the values (and searches) are bit-identical.
/// A race between threads filling one entry is benign: both store the same bits.
#[cfg(feature = "lazy-uct-tables")]
mod tables {
    use super::{N, inv_sqrt_entry, sqrt_ln_entry};
    use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

    /// `f32` bits; 0 means "not computed yet" (no entry in use is +0.0).
    static INV_SQRT: [AtomicU32; N] = [const { AtomicU32::new(0) }; N];
    static SQRT_LN: [AtomicU32; N] = [const { AtomicU32::new(0) }; N];

    #[inline(always)]
    fn lookup(table: &[AtomicU32; N], n: usize, f: fn(usize) -> f32) -> f32 {
        let bits = table[n].load(Relaxed);
        if bits != 0 {
            return f32::from_bits(bits);
        }
        let v = f(n);
        table[n].store(v.to_bits(), Relaxed);
        v
    }

    #[inline(always)]
    pub fn inv_sqrt(n: usize) -> f32 {
        if n == 0 {
            return 0.0; // as the compile-time table's unused entry 0
        }
        lookup(&INV_SQRT, n, inv_sqrt_entry)
    }

    #[inline(always)]
    pub fn sqrt_ln(n: usize) -> f32 {
        if n < 2 {
            return 0.0;
        }
        lookup(&SQRT_LN, n, sqrt_ln_entry)
    }
}

/// `sqrt(x)`, correctly rounded: the SSE instruction where the target has it, libm's software
/// square root elsewhere (and under Miri, which runs no inline SSE). IEEE 754 requires a
/// correctly rounded square root and libm's is one, so both give the same bits
/// (`hardware_sqrt_equals_libm`) and a seed searches identically on every platform. Software
/// `sqrtf` was 15% of a Kalah search's time, where UCT's `1/sqrt(n)` runs past the table.
#[inline(always)]
#[allow(unsafe_code)]
pub fn sqrtf(x: f32) -> f32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse", not(miri)))]
    {
        use core::arch::x86_64::{_mm_cvtss_f32, _mm_set_ss, _mm_sqrt_ss};
        // SAFETY: the `sse` target feature is enabled for this build (the `cfg` above), which
        // is all these intrinsics require; they touch no memory.
        unsafe { _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x))) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse", not(miri))))]
    {
        libm::sqrtf(x)
    }
}

/// `1/sqrt(n)` for `n ≥ 1`.
#[inline(always)]
pub fn inv_sqrt(n: u32) -> f32 {
    if (n as usize) < N {
        tables::inv_sqrt(n as usize)
    } else {
        1.0 / sqrtf(n as f32)
    }
}

/// [`inv_sqrt`] of a count the caller knows to be below [`TABLE_LEN`]: the lookup without the
/// test for counts past the table (the index is masked, so it stays inside the table for any
/// `n`, and equals `n` for those the caller may pass).
#[inline(always)]
pub fn inv_sqrt_in_table(n: u32) -> f32 {
    debug_assert!((n as usize) < TABLE_LEN);
    tables::inv_sqrt(n as usize & (TABLE_LEN - 1))
}

/// `sqrt(ln n)`, `0` for `n ≤ 1`.
#[inline(always)]
pub fn sqrt_ln(n: u32) -> f32 {
    if (n as usize) < N {
        tables::sqrt_ln(n as usize)
    } else {
        sqrtf(libm::logf(n as f32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The square root [`inv_sqrt`] and [`sqrt_ln`] use past the tables gives libm's bits:
    /// every visit count up to 2^24 (where `n as f32` is exact) and beyond, `ln n` over the
    /// range, and a sweep of bit patterns (positive, negative, zero, subnormal, infinite, NaN).
    #[test]
    fn hardware_sqrt_equals_libm() {
        let same = |x: f32| {
            let (a, b) = (sqrtf(core::hint::black_box(x)), libm::sqrtf(x));
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "{x:e}: {a:e} vs {b:e}"
            );
        };
        for n in (0..1u32 << 24)
            .step_by(7)
            .chain((1u32 << 24)..(1 << 24) + 10_000)
        {
            same(n as f32);
            same(libm::logf(n as f32));
        }
        same(u32::MAX as f32);
        let mut bits = 0u32;
        for _ in 0..2_000_000 {
            same(f32::from_bits(bits));
            bits = bits.wrapping_add(2_147);
        }
        for x in [
            0.0,
            -0.0,
            f32::MIN_POSITIVE,
            1e-45,
            f32::MAX,
            f32::INFINITY,
            -1.0,
            f32::NAN,
        ] {
            same(x);
        }
    }

    #[test]
    fn tables_match_libm_closely() {
        for n in 1..N as u32 {
            let a = inv_sqrt(n);
            let b = 1.0 / libm::sqrtf(n as f32);
            assert!((a - b).abs() <= 2e-7 * b.max(1.0), "{n}: {a} vs {b}");
            let a = sqrt_ln(n);
            let b = libm::sqrtf(libm::logf(n as f32));
            assert!((a - b).abs() <= 1e-6, "{n}: {a} vs {b}");
        }
        assert!((inv_sqrt(10_000) - 0.01).abs() < 1e-9);
    }

    /// The table entries equal the same functions evaluated at run time, bit for bit: what
    /// makes the `lazy-uct-tables` build search exactly as the compile-time tables do.
    #[test]
    fn table_entries_equal_their_run_time_computation() {
        for n in 1..N {
            let run_time = core::hint::black_box(n);
            assert_eq!(
                inv_sqrt(n as u32).to_bits(),
                inv_sqrt_entry(run_time).to_bits(),
                "{n}"
            );
            if n >= 2 {
                assert_eq!(
                    sqrt_ln(n as u32).to_bits(),
                    sqrt_ln_entry(run_time).to_bits(),
                    "{n}"
                );
            }
        }
        assert_eq!(inv_sqrt(0), 0.0);
        assert_eq!(sqrt_ln(0), 0.0);
        assert_eq!(sqrt_ln(1), 0.0);
    }
}
