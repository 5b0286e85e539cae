//! Memory sized by the user (`--pool`, `tt<N>`, `--games`): allocated fallibly, so a size the
//! machine cannot provide is a clear error (exit code 2) instead of an allocation abort.

/// A vector of `n` copies of `value`, or an error naming `what` and the bytes it would take
/// when the allocator refuses (on Linux: more than the memory and swap the kernel will commit).
pub fn filled<T: Clone>(n: usize, value: T, what: &str) -> Result<Vec<T>, String> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        let bytes = (n as u128) * (std::mem::size_of::<T>() as u128);
        format!(
            "cannot allocate {n} {what} ({}): not enough memory; ask for fewer",
            human_bytes(bytes)
        )
    })?;
    v.resize(n, value);
    Ok(v)
}

/// `bytes` with a binary unit, e.g. `2.2 TiB`.
fn human_bytes(bytes: u128) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut x = bytes as f64;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < units.len() {
        x /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{x:.1} {}", units[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        let e = filled(usize::MAX / 8, 0u64, "nodes").unwrap_err();
        assert!(e.contains("cannot allocate") && e.contains("EiB"), "{e}");
        assert_eq!(filled(3, 7u8, "x").unwrap(), vec![7, 7, 7]);
        assert_eq!(human_bytes(1536), "1.5 KiB");
    }
}
