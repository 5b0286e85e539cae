//! Strings across the boundary: UTF-8 input slices and NUL-terminated output buffers.

use crate::imcts_status;
use core::ffi::c_char;
use core::fmt;

/// The string at `ptr` with `len` bytes.
///
/// # Safety
/// `ptr` must be NULL or point to `len` readable bytes that stay unchanged while the returned
/// string is in use.
pub(crate) unsafe fn input<'a>(ptr: *const c_char, len: usize) -> Result<&'a str, imcts_status> {
    if ptr.is_null() {
        return Err(imcts_status::NullPointer);
    }
    // SAFETY: non-NULL, and the caller guarantees `len` readable bytes at `ptr` for 'a.
    let bytes = unsafe { core::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    core::str::from_utf8(bytes).map_err(|_| imcts_status::InvalidUtf8)
}

/// Counts the bytes written to it.
struct Counter(usize);

impl fmt::Write for Counter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// Writes into raw caller memory, never past `cap` bytes.
struct RawWriter {
    buf: *mut u8,
    cap: usize,
    len: usize,
}

impl fmt::Write for RawWriter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(fmt::Error)?;
        if end > self.cap {
            return Err(fmt::Error);
        }
        // SAFETY: `buf` has `cap` writable bytes (guaranteed by `output`'s caller) and
        // `len + s.len() <= cap`; `s` is Rust memory, which cannot overlap the caller's buffer
        // while we hold a shared reference to it.
        unsafe { core::ptr::copy_nonoverlapping(s.as_ptr(), self.buf.add(self.len), s.len()) };
        self.len = end;
        Ok(())
    }
}

/// Writes the text produced by `write` (called once to measure, once to write; it must produce
/// the same text both times) plus a NUL into `buf`, following the buffer convention of the crate
/// docs.
///
/// # Safety
/// `out_len` must be NULL or valid for writing a `usize`; `buf` must be NULL or valid for
/// writing `cap` bytes.
pub(crate) unsafe fn output(
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
    write: impl Fn(&mut dyn fmt::Write) -> fmt::Result,
) -> Result<(), imcts_status> {
    if out_len.is_null() || (buf.is_null() && cap != 0) {
        return Err(imcts_status::NullPointer);
    }
    let mut counter = Counter(0);
    // Formatting into a counter cannot fail unless the game's writer does; report that as a
    // malformed position rather than panicking.
    write(&mut counter).map_err(|_| imcts_status::BadPosition)?;
    let len = counter.0;
    if len >= cap {
        // SAFETY: `out_len` is non-NULL and valid for writes (caller's guarantee).
        unsafe { out_len.write(len) };
        return Err(imcts_status::BufferTooSmall);
    }
    let mut w = RawWriter {
        buf: buf.cast::<u8>(),
        cap: len,
        len: 0,
    };
    write(&mut w).map_err(|_| imcts_status::BadPosition)?;
    // SAFETY: `len < cap`, so index `w.len <= len` is inside the caller's `cap` bytes.
    unsafe { buf.cast::<u8>().add(w.len).write(0) };
    // SAFETY: as above, `out_len` is valid for writes.
    unsafe { out_len.write(w.len) };
    Ok(())
}

/// A fixed-capacity string that silently refuses text past its capacity (for moves, whose
/// notation is always short).
pub(crate) struct Fixed<const N: usize> {
    pub(crate) bytes: [u8; N],
    pub(crate) len: usize,
}

impl<const N: usize> Fixed<N> {
    pub(crate) const fn new() -> Self {
        Fixed {
            bytes: [0; N],
            len: 0,
        }
    }
}

impl<const N: usize> fmt::Write for Fixed<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > N {
            return Err(fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}
