//! # imcts-ffi: the C ABI of the imcts kernel
//!
//! A C-callable layer over the `no_std`, allocation-free kernel. The header `include/imcts.h` is
//! generated from this crate by cbindgen (`ffi/cbindgen.toml`, pinned cbindgen 0.29.4) and
//! checked in; CI regenerates it and fails on any difference.
//!
//! ## Conventions
//! - **Names.** Every symbol starts with `imcts_` (types, functions) or `IMCTS_` (constants).
//!   Functions are `imcts_<object>_<verb>`; those taking a `const imcts_engine *` never change
//!   the engine.
//! - **Status codes.** Every function returns an [`imcts_status`] (`IMCTS_STATUS_OK = 0`, so C
//!   can write `if (status)`), except the three that cannot fail: [`imcts_version`],
//!   [`imcts_abi_version`] and [`imcts_status_str`].
//! - **Outputs only on success.** Results go through out-pointers, which are written only when
//!   the call returns `IMCTS_STATUS_OK`. There are no partial successes, and a failed call leaves
//!   the engine exactly as it was. The one exception is `IMCTS_STATUS_BUFFER_TOO_SMALL`, which
//!   writes the length needed (and nothing else) to the out-length pointer.
//! - **Strings in** are a pointer and a length in bytes (no NUL needed) and must be UTF-8
//!   (`IMCTS_STATUS_INVALID_UTF8` otherwise). **Strings out** go to a caller buffer with its
//!   capacity: the text plus a terminating NUL is written, and `*out_len` receives the text's
//!   length without the NUL. A buffer shorter than `length + 1` gives
//!   `IMCTS_STATUS_BUFFER_TOO_SMALL` with the text's length in `*out_len` (so the caller needs
//!   `*out_len + 1` bytes); `buf = NULL, capacity = 0` asks for the length this way.
//! - **NULL** pointers give `IMCTS_STATUS_NULL_POINTER`, wherever they appear.
//! - **Nothing allocates.** An engine lives in memory the caller provides: ask
//!   [`imcts_engine_size`] and [`imcts_engine_align`], then [`imcts_engine_init`] in place. No
//!   free function is needed: the caller owns the memory. An engine must not be moved or copied
//!   after initialisation (its node pool is found at a fixed offset from it); initialise it
//!   again to reuse the memory.
//! - **Threads.** Engines share nothing: different engines may be used from different threads
//!   at once; one engine must not be used from two threads at once.
//! - **Panics** never cross the boundary. Hosted builds (feature `std`, the default) catch them
//!   and return `IMCTS_STATUS_PANIC`; the engine is then in an unspecified (but memory-safe)
//!   state and should be initialised again. Bare-metal builds (`no_std`) abort on a panic: the
//!   kernel is written so that no input reaching it through this ABI panics.
//!
//! ## ABI policy
//! - Changes are **additions only**: new functions, new constants, new status codes.
//! - Status codes and every other constant keep their value forever; a retired status code stays
//!   reserved (left as a comment) and is never reused.
//! - The layout of a public struct ([`imcts_config`], [`imcts_budget`], [`imcts_result`]) never
//!   changes within an ABI version. New options come as new functions or new structs.
//! - [`imcts_abi_version`] (and `IMCTS_ABI_VERSION`) is bumped if an incompatible change is ever
//!   unavoidable; a host can compare it with the header's `IMCTS_ABI_VERSION` at start-up.
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
#![allow(non_camel_case_types)]

mod config;
mod detail;
mod engine;
mod text;

pub use config::*;
pub use detail::*;
pub use engine::*;

use core::ffi::c_char;

/// The major version of this library (from `Cargo.toml`).
pub const IMCTS_VERSION_MAJOR: u32 = 0;
/// The minor version of this library (from `Cargo.toml`).
pub const IMCTS_VERSION_MINOR: u32 = 1;
/// The patch version of this library (from `Cargo.toml`).
pub const IMCTS_VERSION_PATCH: u32 = 0;
/// `MAJOR * 10000 + MINOR * 100 + PATCH`, for `#if` comparisons (a literal, so the header has
/// a plain number; a unit test checks it against the parts).
pub const IMCTS_VERSION_NUMBER: u32 = 100;
/// The ABI version of this header; [`imcts_abi_version`] returns the library's.
pub const IMCTS_ABI_VERSION: u32 = 1;

/// What a call did. `IMCTS_STATUS_OK` (0) is success; every other value names one failure.
///
/// The values are fixed forever: new codes are only ever appended, and a retired code stays
/// reserved.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum imcts_status {
    /// Success.
    Ok = 0,
    /// A Rust panic was caught at the boundary (hosted builds only). Initialise the engine again.
    Panic = 1,
    /// A required pointer argument was NULL.
    NullPointer = 2,
    /// The game id is unknown, or the game is not built into this library yet.
    UnknownGame = 3,
    /// An input string is not valid UTF-8.
    InvalidUtf8 = 4,
    /// The position string is malformed or describes an impossible position.
    BadPosition = 5,
    /// The move string is malformed: it names no move of this game.
    BadMove = 6,
    /// The move is well formed but not legal in the current position (or the game is over).
    IllegalMove = 7,
    /// The player-spec string could not be parsed.
    BadSpec = 8,
    /// A field of an `imcts_config` is out of range or unsupported by the game.
    BadConfig = 9,
    /// The budget asks for a time limit but gives no clock.
    BadBudget = 10,
    /// An output buffer is too small; the length needed was written to the out-length.
    BufferTooSmall = 11,
    /// The memory given to `imcts_engine_init` is shorter than `imcts_engine_size` asked for.
    MemoryTooSmall = 12,
    /// The memory given to `imcts_engine_init` is not aligned to `imcts_engine_align`.
    Misaligned = 13,
    /// `imcts_engine_undo` with no move left to take back.
    NothingToUndo = 14,
    /// The engine pointer does not point to an initialised engine.
    BadEngine = 15,
    /// The node capacity is larger than the kernel supports (`2^32 - 2`) or its size overflows.
    CapacityTooLarge = 16,
    /// `imcts_engine_search_threads`: a thread count of 0 or over `IMCTS_MAX_SEARCH_THREADS`,
    /// only one of `start` and `join`, or no `start` in a build without threads of its own.
    BadThreads = 17,
}

/// Every status, in value order (for [`imcts_status_str`] and tests).
const ALL_STATUSES: [imcts_status; 18] = [
    imcts_status::Ok,
    imcts_status::Panic,
    imcts_status::NullPointer,
    imcts_status::UnknownGame,
    imcts_status::InvalidUtf8,
    imcts_status::BadPosition,
    imcts_status::BadMove,
    imcts_status::IllegalMove,
    imcts_status::BadSpec,
    imcts_status::BadConfig,
    imcts_status::BadBudget,
    imcts_status::BufferTooSmall,
    imcts_status::MemoryTooSmall,
    imcts_status::Misaligned,
    imcts_status::NothingToUndo,
    imcts_status::BadEngine,
    imcts_status::CapacityTooLarge,
    imcts_status::BadThreads,
];

impl imcts_status {
    /// A short description, NUL-terminated.
    const fn message(self) -> &'static str {
        match self {
            imcts_status::Ok => "ok\0",
            imcts_status::Panic => "panic caught at the C boundary\0",
            imcts_status::NullPointer => "NULL pointer argument\0",
            imcts_status::UnknownGame => "unknown or unavailable game\0",
            imcts_status::InvalidUtf8 => "string is not valid UTF-8\0",
            imcts_status::BadPosition => "malformed position\0",
            imcts_status::BadMove => "malformed move\0",
            imcts_status::IllegalMove => "illegal move\0",
            imcts_status::BadSpec => "malformed player spec\0",
            imcts_status::BadConfig => "configuration value out of range\0",
            imcts_status::BadBudget => "time budget without a clock\0",
            imcts_status::BufferTooSmall => "output buffer too small\0",
            imcts_status::MemoryTooSmall => "engine memory too small\0",
            imcts_status::Misaligned => "engine memory misaligned\0",
            imcts_status::NothingToUndo => "no move to undo\0",
            imcts_status::BadEngine => "not an initialised engine\0",
            imcts_status::CapacityTooLarge => "node capacity too large\0",
            imcts_status::BadThreads => "bad thread count or thread callbacks\0",
        }
    }
}

/// Runs `f` behind the panic boundary: its error becomes the status, a panic becomes
/// `IMCTS_STATUS_PANIC` on hosted builds.
pub(crate) fn boundary<F: FnOnce() -> Result<(), imcts_status>>(f: F) -> imcts_status {
    #[cfg(feature = "std")]
    let result = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => Err(imcts_status::Panic),
    };
    #[cfg(not(feature = "std"))]
    let result = f();
    match result {
        Ok(()) => imcts_status::Ok,
        Err(e) => e,
    }
}

/// The library version, e.g. `"0.1.0"`: a static NUL-terminated string.
#[unsafe(no_mangle)]
pub extern "C" fn imcts_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The ABI version of the library (`IMCTS_ABI_VERSION` of the header it was built with).
#[unsafe(no_mangle)]
pub extern "C" fn imcts_abi_version() -> u32 {
    IMCTS_ABI_VERSION
}

/// A static NUL-terminated description of `status` (an `imcts_status` value);
/// `"unknown status"` for a value that is none.
#[unsafe(no_mangle)]
pub extern "C" fn imcts_status_str(status: u32) -> *const c_char {
    let msg = match ALL_STATUSES.get(status as usize) {
        Some(s) => s.message(),
        None => "unknown status\0",
    };
    msg.as_ptr().cast()
}

#[cfg(all(not(feature = "std"), not(test), feature = "panic-handler"))]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    // WebAssembly (web/): trap, which the host sees as an exception; a loop would hang it.
    #[cfg(target_arch = "wasm32")]
    core::arch::wasm32::unreachable();
    // Bare metal: nothing to unwind to and nowhere to report; stop here (a debugger sees it).
    #[cfg(not(target_arch = "wasm32"))]
    loop {
        core::hint::spin_loop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::ffi::CStr;

    #[test]
    fn version_consts_match_cargo_toml() {
        let major: u32 = env!("CARGO_PKG_VERSION_MAJOR").parse().unwrap();
        let minor: u32 = env!("CARGO_PKG_VERSION_MINOR").parse().unwrap();
        let patch: u32 = env!("CARGO_PKG_VERSION_PATCH").parse().unwrap();
        assert_eq!(
            (
                IMCTS_VERSION_MAJOR,
                IMCTS_VERSION_MINOR,
                IMCTS_VERSION_PATCH
            ),
            (major, minor, patch)
        );
        assert_eq!(
            IMCTS_VERSION_NUMBER,
            major * 10000 + minor * 100 + patch,
            "composite version"
        );
        // SAFETY: imcts_version returns a static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(imcts_version()) };
        assert_eq!(v.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
        assert_eq!(imcts_abi_version(), IMCTS_ABI_VERSION);
    }

    #[test]
    fn header_defines_match_consts() {
        let header = include_str!("../../include/imcts.h");
        for (name, value) in [
            ("IMCTS_VERSION_MAJOR", IMCTS_VERSION_MAJOR),
            ("IMCTS_VERSION_MINOR", IMCTS_VERSION_MINOR),
            ("IMCTS_VERSION_PATCH", IMCTS_VERSION_PATCH),
            ("IMCTS_VERSION_NUMBER", IMCTS_VERSION_NUMBER),
            ("IMCTS_ABI_VERSION", IMCTS_ABI_VERSION),
        ] {
            let line = format!("#define {name} {value}");
            assert!(header.contains(&line), "header lacks `{line}`");
        }
    }

    #[test]
    fn status_values_are_fixed_and_described() {
        for (i, s) in ALL_STATUSES.iter().enumerate() {
            assert_eq!(*s as u32, i as u32, "{s:?} renumbered");
            // SAFETY: imcts_status_str returns a static NUL-terminated string.
            let msg = unsafe { CStr::from_ptr(imcts_status_str(i as u32)) };
            assert!(!msg.to_bytes().is_empty());
        }
        // SAFETY: as above.
        let unknown = unsafe { CStr::from_ptr(imcts_status_str(9999)) };
        assert_eq!(unknown.to_str().unwrap(), "unknown status");
    }

    #[test]
    fn panics_become_a_status() {
        let status = boundary(|| panic!("test panic"));
        assert_eq!(status, imcts_status::Panic);
        assert_eq!(boundary(|| Ok(())), imcts_status::Ok);
        assert_eq!(
            boundary(|| Err(imcts_status::BadMove)),
            imcts_status::BadMove
        );
    }
}
