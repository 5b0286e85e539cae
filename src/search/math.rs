//! The few transcendental values UCT needs, as tables computed at compile time (so the same on
//! every platform, and free at run time), with `libm` beyond the tables.

/// Table size: visit counts below this are looked up.
const N: usize = 4096;

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

/// `1/sqrt(n)` for `n < N` (entry 0 unused).
static INV_SQRT: [f32; N] = {
    let mut t = [0.0f32; N];
    let mut i = 1;
    while i < N {
        t[i] = (1.0 / sqrt_f64(i as f64)) as f32;
        i += 1;
    }
    t
};

/// `sqrt(ln n)` for `n < N` (entries 0 and 1 are 0).
static SQRT_LN: [f32; N] = {
    let mut t = [0.0f32; N];
    let mut i = 2;
    while i < N {
        t[i] = sqrt_f64(ln_f64(i as f64)) as f32;
        i += 1;
    }
    t
};

/// `1/sqrt(n)` for `n ≥ 1`.
#[inline(always)]
pub fn inv_sqrt(n: u32) -> f32 {
    if (n as usize) < N {
        INV_SQRT[n as usize]
    } else {
        1.0 / libm::sqrtf(n as f32)
    }
}

/// `sqrt(ln n)`, `0` for `n ≤ 1`.
#[inline(always)]
pub fn sqrt_ln(n: u32) -> f32 {
    if (n as usize) < N {
        SQRT_LN[n as usize]
    } else {
        libm::sqrtf(libm::logf(n as f32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
