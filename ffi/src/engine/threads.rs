//! Several threads searching one engine's tree (the kernel's `search::parallel`): the host
//! lends the threads. A C host passes `start` and `join` callbacks (pthreads, a thread pool,
//! an RTOS task API) and each thread it starts calls [`imcts_search_worker`]; a hosted build
//! also spawns its own (`std::thread`) when `start` is NULL.
//!
//! A child module of `engine` so the addition to the ABI stays in one file.

use super::{imcts_engine, search_entry};
use crate::config::{imcts_budget, imcts_config, imcts_result};
use crate::{boundary, imcts_status};
use core::ffi::{c_char, c_void};

/// The most threads `imcts_engine_search_threads` accepts.
pub const IMCTS_MAX_SEARCH_THREADS: u32 = 256;

/// `imcts_engine_search_parallel`'s mode: one tree shared by every thread (tree parallelism
/// with virtual loss), as `imcts_engine_search_threads` searches.
pub const IMCTS_PARALLEL_TREE: u32 = 0;

/// `imcts_engine_search_parallel`'s mode: a tree per thread, each in an equal part of the
/// engine's node memory, whose root statistics are added up at the end (root parallelism).
/// Threads share nothing while they search; with a simulation or node budget the search is
/// reproducible for a given thread count; only the calling thread's tree is kept for reuse;
/// `virtual_loss` is not used.
pub const IMCTS_PARALLEL_ROOT: u32 = 1;

/// Starts a host thread that calls `imcts_search_worker(work, index)` once and then ends.
/// Returns 0 if the thread was started; any other value skips that thread (the search is
/// correct with any number of threads). Called on the thread that called
/// `imcts_engine_search_threads`.
pub type imcts_thread_start_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, work: *const imcts_work, index: u32) -> i32>;

/// Waits until the thread started for `index` has returned from `imcts_search_worker`.
pub type imcts_thread_join_fn = Option<unsafe extern "C" fn(ctx: *mut c_void, index: u32)>;

/// The threads a host lends one search (`imcts_engine_search_threads`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct imcts_threads {
    /// Threads searching, the calling one included: `1` to `IMCTS_MAX_SEARCH_THREADS`. With
    /// `1` the search is exactly `imcts_engine_search`.
    pub count: u32,
    /// Virtual visits, each a loss, that a node on a path being searched carries until its
    /// result comes back, so the threads spread over the tree (`1` is the usual choice; `0`
    /// none).
    pub virtual_loss: u32,
    /// Starts helper thread `index` (`1` to `count - 1`); NULL: the library's own threads
    /// (hosted builds only; `IMCTS_STATUS_BAD_THREADS` in `no_std` builds).
    pub start: imcts_thread_start_fn,
    /// Joins a thread `start` started; NULL exactly when `start` is NULL.
    pub join: imcts_thread_join_fn,
    /// Passed to `start` and `join`.
    pub ctx: *mut c_void,
}

/// The work a helper thread does, handed to `start` and passed back to
/// `imcts_search_worker`. Opaque; valid until the library's `join` for that thread returns.
pub struct imcts_work {
    _private: [u8; 0],
}

/// What the library lends its search: the kernel's thread interface and settings, or nothing.
#[cfg(all(
    target_has_atomic = "8",
    target_has_atomic = "16",
    target_has_atomic = "32",
    not(all(target_arch = "wasm32", not(target_feature = "atomics")))
))]
pub(crate) type Lent<'a> = Option<(
    &'a mut dyn imcts::search::parallel::Threads,
    imcts::search::parallel::ParallelSettings,
)>;
/// Without compare-and-swap (thumbv6m), or without threads (wasm32 without the `atomics`
/// target feature, whose memory no other thread can share), there is no parallel search: never
/// `Some`. (This also keeps the parallel search out of the browser page's module, web/.)
#[cfg(not(all(
    target_has_atomic = "8",
    target_has_atomic = "16",
    target_has_atomic = "32",
    not(all(target_arch = "wasm32", not(target_feature = "atomics")))
)))]
pub(crate) type Lent<'a> = Option<(&'a mut core::convert::Infallible, ())>;

/// Searches the current position as `imcts_engine_search` does, on `threads->count` threads
/// sharing one tree (tree parallelism with virtual loss; see docs/parallel.md). The calling
/// thread searches too and is the only one that calls the budget's clock; helper threads
/// `1..count` are started with `threads->start` (each must call `imcts_search_worker(work,
/// index)` once) and joined with `threads->join` before this function returns, or, with
/// `start` NULL in a hosted build, are the library's own. Thread counts above 1 make searches
/// non-reproducible (which thread reaches a node first depends on timing); αβ, one-child
/// expansion and the BBQ options search on the calling thread alone. On targets without
/// compare-and-swap, and on wasm32 without the atomics feature (no threads), every search runs
/// on the calling thread.
///
/// Statuses (`IMCTS_STATUS_*`): those of `imcts_engine_search`, and BAD_THREADS.
///
/// # Safety
/// As for `imcts_engine_search`; `threads` must be NULL or valid for reading, and its
/// callbacks callable with its `ctx` for the duration of the call, not unwinding.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_search_threads(
    engine: *mut imcts_engine,
    config: *const imcts_config,
    budget: *const imcts_budget,
    threads: *const imcts_threads,
    out: *mut imcts_result,
) -> imcts_status {
    // SAFETY: forwarded from the caller.
    unsafe {
        imcts_engine_search_parallel(engine, config, budget, threads, IMCTS_PARALLEL_TREE, out)
    }
}

/// `imcts_engine_search_threads` with a choice of how the threads divide the search: `mode` is
/// `IMCTS_PARALLEL_TREE` (one shared tree, exactly `imcts_engine_search_threads`) or
/// `IMCTS_PARALLEL_ROOT` (a tree per thread, merged at the root; see docs/parallel.md). The
/// threads are lent the same way. Root parallelism searches every configuration the shared
/// tree does; others, and targets without compare-and-swap or threads, search on the calling
/// thread.
///
/// Statuses (`IMCTS_STATUS_*`): those of `imcts_engine_search_threads`; BAD_THREADS also for an
/// unknown `mode`.
///
/// # Safety
/// As for `imcts_engine_search_threads`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_search_parallel(
    engine: *mut imcts_engine,
    config: *const imcts_config,
    budget: *const imcts_budget,
    threads: *const imcts_threads,
    mode: u32,
    out: *mut imcts_result,
) -> imcts_status {
    // SAFETY: forwarded from the caller.
    boundary(|| unsafe {
        parallel_entry(
            engine,
            super::Source::Struct(config),
            budget,
            threads,
            mode,
            out,
        )
    })
}

/// Searches as [`imcts_engine_search_parallel`] does, with the configuration given as a player
/// spec, as [`super::imcts_engine_search_spec`] takes it (every label, also those
/// `imcts_config` has no field for: `ep`, the `text-…` and `code-…` labels, and so the
/// presets `bl` and `bl'`, which break ties as the paper's code does). The spec is parsed for
/// the engine's game at every call; a spec that fails gives `IMCTS_STATUS_BAD_SPEC` before
/// anything changes.
///
/// Statuses (`IMCTS_STATUS_*`): those of `imcts_engine_search_parallel`, and INVALID_UTF8 and
/// BAD_SPEC.
///
/// # Safety
/// As for `imcts_engine_search_parallel`; `spec` must be NULL or point to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_search_parallel_spec(
    engine: *mut imcts_engine,
    spec: *const c_char,
    len: usize,
    budget: *const imcts_budget,
    threads: *const imcts_threads,
    mode: u32,
    out: *mut imcts_result,
) -> imcts_status {
    boundary(|| {
        // SAFETY: `spec` and `len` forwarded from the caller.
        let text = unsafe { crate::text::input(spec, len) }?;
        // SAFETY: forwarded from the caller.
        unsafe {
            parallel_entry(
                engine,
                super::Source::Spec(text),
                budget,
                threads,
                mode,
                out,
            )
        }
    })
}

/// The body of [`imcts_engine_search_parallel`] and its spec twin: checks `threads` and
/// `mode`, then searches with the threads lent.
///
/// # Safety
/// As for [`imcts_engine_search_parallel`].
unsafe fn parallel_entry(
    engine: *mut imcts_engine,
    source: super::Source<'_>,
    budget: *const imcts_budget,
    threads: *const imcts_threads,
    mode: u32,
    out: *mut imcts_result,
) -> Result<(), imcts_status> {
    if threads.is_null() {
        return Err(imcts_status::NullPointer);
    }
    // SAFETY: non-NULL and valid for reads (caller's guarantee); plain old data.
    let t = unsafe { threads.read() };
    if t.count == 0
        || t.count > IMCTS_MAX_SEARCH_THREADS
        || t.start.is_some() != t.join.is_some()
        || mode > IMCTS_PARALLEL_ROOT
    {
        return Err(imcts_status::BadThreads);
    }
    lend(t, mode, |lent| {
        // SAFETY: forwarded from the caller.
        unsafe { search_entry(engine, source, budget, out, lent) }
    })
}

/// Runs `f` with the threads `t` describes lent to it.
#[cfg(all(
    target_has_atomic = "8",
    target_has_atomic = "16",
    target_has_atomic = "32",
    not(all(target_arch = "wasm32", not(target_feature = "atomics")))
))]
fn lend(
    t: imcts_threads,
    mode: u32,
    f: impl FnOnce(&mut Lent<'_>) -> Result<(), imcts_status>,
) -> Result<(), imcts_status> {
    use imcts::search::parallel::{ParallelMode, ParallelSettings};
    let settings = ParallelSettings {
        virtual_loss: t.virtual_loss,
        mode: if mode == IMCTS_PARALLEL_ROOT {
            ParallelMode::Root
        } else {
            ParallelMode::Tree
        },
    };
    if t.count == 1 {
        return f(&mut None);
    }
    match (t.start, t.join) {
        (Some(start), Some(join)) => {
            let mut host = HostThreads {
                count: t.count,
                start,
                join,
                ctx: t.ctx,
            };
            f(&mut Some((&mut host, settings)))
        }
        #[cfg(feature = "std")]
        _ => f(&mut Some((
            &mut imcts::search::parallel::StdThreads(t.count),
            settings,
        ))),
        #[cfg(not(feature = "std"))]
        _ => Err(imcts_status::BadThreads),
    }
}

/// Without compare-and-swap or threads: one thread, or `BAD_THREADS` for callbacks nobody would
/// call.
#[cfg(not(all(
    target_has_atomic = "8",
    target_has_atomic = "16",
    target_has_atomic = "32",
    not(all(target_arch = "wasm32", not(target_feature = "atomics")))
)))]
fn lend(
    _t: imcts_threads,
    _mode: u32,
    f: impl FnOnce(&mut Lent<'_>) -> Result<(), imcts_status>,
) -> Result<(), imcts_status> {
    f(&mut None)
}

/// Tells a work pointer from anything else ("imcts-wk").
#[cfg(all(
    target_has_atomic = "8",
    target_has_atomic = "16",
    target_has_atomic = "32",
    not(all(target_arch = "wasm32", not(target_feature = "atomics")))
))]
const WORK_MAGIC: u64 = 0x696d_6374_732d_776b;

/// What `imcts_work` points to: the kernel's helper job for this search.
#[cfg(all(
    target_has_atomic = "8",
    target_has_atomic = "16",
    target_has_atomic = "32",
    not(all(target_arch = "wasm32", not(target_feature = "atomics")))
))]
#[repr(C)]
struct Work<'a> {
    magic: u64,
    count: u32,
    helper: &'a (dyn Fn(u32) + Sync),
}

/// The host's `start`/`join` callbacks as the kernel's thread interface.
#[cfg(all(
    target_has_atomic = "8",
    target_has_atomic = "16",
    target_has_atomic = "32",
    not(all(target_arch = "wasm32", not(target_feature = "atomics")))
))]
struct HostThreads {
    count: u32,
    start: unsafe extern "C" fn(*mut c_void, *const imcts_work, u32) -> i32,
    join: unsafe extern "C" fn(*mut c_void, u32),
    ctx: *mut c_void,
}

#[cfg(all(
    target_has_atomic = "8",
    target_has_atomic = "16",
    target_has_atomic = "32",
    not(all(target_arch = "wasm32", not(target_feature = "atomics")))
))]
impl imcts::search::parallel::Threads for HostThreads {
    fn count(&self) -> u32 {
        self.count
    }

    fn run(&mut self, helper: &(dyn Fn(u32) + Sync), main: &mut dyn FnMut()) {
        let work = Work {
            magic: WORK_MAGIC,
            count: self.count,
            helper,
        };
        let ptr = (&work as *const Work<'_>).cast::<imcts_work>();
        // Which helpers started, to join exactly those (at most 256: four words).
        let mut started = [0u64; (IMCTS_MAX_SEARCH_THREADS as usize).div_ceil(64)];
        for i in 1..self.count {
            // SAFETY: the host promised a callable `start` for this call; `work` outlives every
            // helper because each started one is joined below before `work` goes out of scope.
            if unsafe { (self.start)(self.ctx, ptr, i) } == 0 {
                started[i as usize / 64] |= 1 << (i % 64);
            }
        }
        main();
        for i in 1..self.count {
            if started[i as usize / 64] & (1 << (i % 64)) != 0 {
                // SAFETY: as for `start`; `i` is a thread `start` reported started.
                unsafe { (self.join)(self.ctx, i) };
            }
        }
    }
}

/// A helper thread's share of the search: call it once from each thread `start` started, with
/// the `work` and `index` `start` was given; it returns when the search is over. Calling it
/// with a `work` that is not live (after its `join`) or an index `start` was not given is
/// refused where it can be detected (`IMCTS_STATUS_BAD_THREADS`: index 0 or
/// `count` and above, a pointer that is no work) and otherwise undefined.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, BAD_THREADS, PANIC (hosted builds).
///
/// # Safety
/// `work` must be NULL or the pointer `start` was given, before the library's `join` for this
/// thread has returned.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_search_worker(work: *const imcts_work, index: u32) -> imcts_status {
    boundary(|| {
        if work.is_null() {
            return Err(imcts_status::NullPointer);
        }
        #[cfg(all(
            target_has_atomic = "8",
            target_has_atomic = "16",
            target_has_atomic = "32",
            not(all(target_arch = "wasm32", not(target_feature = "atomics")))
        ))]
        {
            if !(work as usize).is_multiple_of(core::mem::align_of::<Work<'_>>()) {
                return Err(imcts_status::BadThreads);
            }
            // SAFETY: non-NULL and aligned; the caller promises it is the live `Work` that
            // `start` was given (the magic catches some other mistakes, not all).
            let w = unsafe { &*work.cast::<Work<'_>>() };
            if w.magic != WORK_MAGIC || index == 0 || index >= w.count {
                return Err(imcts_status::BadThreads);
            }
            (w.helper)(index);
            Ok(())
        }
        #[cfg(not(all(
            target_has_atomic = "8",
            target_has_atomic = "16",
            target_has_atomic = "32",
            not(all(target_arch = "wasm32", not(target_feature = "atomics")))
        )))]
        {
            let _ = index;
            Err(imcts_status::BadThreads)
        }
    })
}
