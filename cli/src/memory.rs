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
    huge_pages(v.as_ptr(), v.capacity());
    v.resize(n, value);
    Ok(v)
}

/// Asks Linux to back a reserved, not yet touched buffer (`capacity` values at `ptr`) with
/// 2 MiB transparent huge pages where the system allows it (`/sys/kernel/mm/transparent_hugepage/enabled` set to
/// `madvise`, as on this project's machines, or `always`). A search tree of millions of nodes
/// is read at a few scattered places per tree level; with 4 KiB pages nearly every one is a
/// TLB miss and a page walk, which cachegrind does not see (docs/performance.md, "Issue 12,
/// tree side (session 4)"). Only a hint: the contents and the results are the same without it,
/// and buffers under 4 MiB are left alone.
fn huge_pages<T>(ptr: *const T, capacity: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let bytes = capacity * std::mem::size_of::<T>();
        if bytes < 2 * HUGE {
            return;
        }
        // The 2 MiB-aligned part of the buffer: the kernel only makes huge pages of those.
        let start = (ptr as usize).next_multiple_of(HUGE);
        let end = (ptr as usize + bytes) & !(HUGE - 1);
        if end > start {
            // SAFETY: `madvise` with MADV_HUGEPAGE only changes how the kernel backs these
            // pages, never their contents or validity; the range lies inside the allocation
            // (rounded inwards to 2 MiB boundaries), which the caller keeps alive. An
            // error (e.g. a kernel without transparent huge pages) is harmless and ignored.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, capacity);
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
        // Large enough for the huge-page hint (8 MiB): still every value in place.
        let big = filled(1 << 20, 7u64, "x").unwrap();
        assert!(big.len() == 1 << 20 && big.iter().all(|&x| x == 7));
        assert_eq!(human_bytes(1536), "1.5 KiB");
    }
}
