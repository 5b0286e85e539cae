//! # imcts-web: the C ABI in a WebAssembly module
//!
//! Built for `wasm32-unknown-unknown` by `web/build.sh`. The module exports every `imcts_*`
//! function of the C ABI crate unchanged (see `include/imcts.h`) and its linear memory; this
//! crate adds only what a browser host cannot write itself:
//!
//! - [`imcts_web_clock`]: a C clock callback (`imcts_clock_fn`) that reads the host's
//!   `env.now_us` import, so a page can give `imcts_engine_search` a time budget. A JavaScript
//!   function cannot be put into a C function pointer directly.
//!
//! The C ABI crate's `panic-handler` feature traps on wasm32, so a panic reaches the host as a
//! `RuntimeError` instead of hanging the worker. Nothing allocates: the host grows the memory (`memory.grow`) for the engine and its string
//! buffers, past the end of everything Rust uses.
#![no_std]
#![deny(missing_docs)]

use core::ffi::c_void;

// Re-exported so the linker keeps the C ABI's exports in the cdylib.
pub use imcts_ffi::*;

#[link(wasm_import_module = "env")]
unsafe extern "C" {
    /// The host's clock in microseconds (`performance.now() * 1000` in a worker).
    fn now_us() -> u64;
}

/// The C clock callback over the host's `env.now_us`; `ctx` is unused.
unsafe extern "C" fn host_clock(_ctx: *mut c_void) -> u64 {
    // SAFETY: an import with no arguments and no memory access; the host provides it at
    // instantiation (the module does not instantiate without it).
    unsafe { now_us() }
}

/// The clock callback to put into `imcts_budget.clock` (a function-table index in wasm).
#[unsafe(no_mangle)]
pub extern "C" fn imcts_web_clock() -> imcts_clock_fn {
    Some(host_clock)
}

// The page's worker (web/page/worker.js) fills the budget and reads the result by byte offset:
// keep these in step with it (the build fails here if the structs change).
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(offset_of!(imcts_budget, simulations) == 0);
    assert!(offset_of!(imcts_budget, time_us) == 16);
    assert!(offset_of!(imcts_budget, clock) == 24);
    assert!(size_of::<imcts_budget>() == 32);
    assert!(offset_of!(imcts_result, best_move) == 0);
    assert!(offset_of!(imcts_result, best_move_len) == 32);
    assert!(offset_of!(imcts_result, value) == 36);
    assert!(offset_of!(imcts_result, simulations) == 40);
    assert!(offset_of!(imcts_result, nodes) == 48);
    assert!(offset_of!(imcts_result, elapsed_us) == 56);
    assert!(offset_of!(imcts_result, stop) == 64);
    assert!(offset_of!(imcts_result, proven) == 68);
    assert!(offset_of!(imcts_result, depth) == 72);
    assert!(size_of::<imcts_result>() <= 256);
};
