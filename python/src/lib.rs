//! `imcts._imcts`: the Python extension module under the `imcts` package.
//!
//! A deliberately thin layer: every call goes through an exported `imcts_*` function of the C
//! ABI (imcts-ffi, linked in as a Rust library), never through kernel internals, so the kernel
//! can be refactored freely behind the ABI. A failed call raises `StatusError(status, message)`
//! with the ABI's status code; the Python half (`imcts/__init__.py`) turns that into the
//! documented exceptions, which name the offending argument. Argument types and ranges are
//! checked there too, before anything reaches this module.

use core::ffi::{c_char, c_void};
use core::mem::MaybeUninit;
use imcts_ffi::{
    imcts_abi_version, imcts_budget, imcts_child, imcts_config, imcts_config_parse, imcts_engine,
    imcts_engine_align, imcts_engine_history_len, imcts_engine_init, imcts_engine_legal_moves,
    imcts_engine_outcome, imcts_engine_play, imcts_engine_position, imcts_engine_reset,
    imcts_engine_root_children, imcts_engine_search, imcts_engine_search_spec,
    imcts_engine_set_position, imcts_engine_side_to_move, imcts_engine_size, imcts_engine_undo,
    imcts_result, imcts_spec_check, imcts_status, imcts_status_str, imcts_version,
};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use std::ffi::CStr;
use std::time::Instant;

create_exception!(
    _imcts,
    StatusError,
    PyException,
    "A C ABI call failed: args are (status code, status description)."
);

/// The ABI's description of a status code.
fn status_text(status: u32) -> String {
    // SAFETY: imcts_status_str returns a static NUL-terminated string for any value.
    unsafe { CStr::from_ptr(imcts_status_str(status)) }
        .to_string_lossy()
        .into_owned()
}

/// `Ok` for `IMCTS_STATUS_OK`, else a `StatusError` carrying the code.
fn check(status: imcts_status) -> PyResult<()> {
    match status {
        imcts_status::Ok => Ok(()),
        s => Err(StatusError::new_err((s as u32, status_text(s as u32)))),
    }
}

/// Converts a NUL-padded byte array from the ABI into a string.
fn fixed_str(bytes: &[c_char], len: u32) -> String {
    let n = (len as usize).min(bytes.len());
    let raw: Vec<u8> = bytes[..n].iter().map(|&b| b as u8).collect();
    String::from_utf8_lossy(&raw).into_owned()
}

/// Reads a string out of the ABI with its buffer convention: ask for the length, then fill.
fn read_string(
    mut call: impl FnMut(*mut c_char, usize, &mut usize) -> imcts_status,
) -> PyResult<String> {
    let mut len = 0usize;
    match call(core::ptr::null_mut(), 0, &mut len) {
        imcts_status::BufferTooSmall => {}
        s => check(s)?,
    }
    let mut buf = vec![0u8; len + 1];
    check(call(buf.as_mut_ptr().cast(), buf.len(), &mut len))?;
    buf.truncate(len);
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// Engine memory: 16-byte blocks, so the buffer meets `imcts_engine_align` (at most 16).
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Block([u8; 16]);

/// A microsecond clock for time budgets; the context is the `Instant` the search started at.
unsafe extern "C" fn clock_us(ctx: *mut c_void) -> u64 {
    // SAFETY: `search` passes a pointer to an `Instant` that outlives the search call.
    let start = unsafe { &*ctx.cast::<Instant>() };
    u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// One engine of the C ABI in memory this object owns, with the configuration it searches
/// with. The Python class `imcts.Engine` wraps it.
#[pyclass(module = "imcts._imcts")]
struct RawEngine {
    /// The engine's memory; its heap address never changes, so the engine is never moved.
    mem: Box<[Block]>,
    game: u32,
    config: Config,
}

impl RawEngine {
    fn ptr(&mut self) -> *mut imcts_engine {
        self.mem.as_mut_ptr().cast()
    }

    fn cptr(&self) -> *const imcts_engine {
        self.mem.as_ptr().cast()
    }
}

/// What an engine searches with: the C configuration struct, or, for a spec with a label the
/// struct has no field for (`ep`, `text-…`, `code-proof-visits`, a tie-break other than the
/// game's), the spec itself.
#[derive(Clone)]
enum Config {
    Struct(imcts_config),
    Spec(String),
}

/// Parses `spec` for `game` into a configuration.
fn parse_spec(game: u32, spec: &str) -> PyResult<Config> {
    let mut cfg = MaybeUninit::<imcts_config>::uninit();
    // SAFETY: `spec` is `len` readable bytes; `cfg` is valid for writing a config.
    let status =
        unsafe { imcts_config_parse(game, spec.as_ptr().cast(), spec.len(), cfg.as_mut_ptr()) };
    if status == imcts_status::BadSpec {
        // Perhaps a label the struct cannot carry: then the spec itself is searched with.
        // SAFETY: as above.
        check(unsafe { imcts_spec_check(game, spec.as_ptr().cast(), spec.len()) })?;
        return Ok(Config::Spec(spec.to_owned()));
    }
    check(status)?;
    // SAFETY: written on success.
    Ok(Config::Struct(unsafe { cfg.assume_init() }))
}

/// The row of one root child: (move, visits, mean, value, proven).
type ChildRow = (String, u32, f32, f32, u32);

/// A search result: (best move, value, simulations, nodes, elapsed µs, stop, proven, depth,
/// pool full, children).
type ResultRow = (
    String,
    f32,
    u64,
    u64,
    u64,
    u32,
    u32,
    u32,
    bool,
    Vec<ChildRow>,
);

#[pymethods]
impl RawEngine {
    /// An engine for game id `game` with `nodes` search nodes, searching with `spec`.
    #[new]
    fn new(game: u32, nodes: usize, spec: &str) -> PyResult<Self> {
        let config = parse_spec(game, spec)?;
        let mut size = 0usize;
        let mut align = 0usize;
        // SAFETY: out-pointers to locals.
        check(unsafe { imcts_engine_size(game, nodes, &mut size) })?;
        // SAFETY: as above.
        check(unsafe { imcts_engine_align(&mut align) })?;
        debug_assert!(align <= core::mem::align_of::<Block>());
        let blocks = size.div_ceil(core::mem::size_of::<Block>());
        let mut mem = Vec::new();
        mem.try_reserve_exact(blocks).map_err(|_| {
            pyo3::exceptions::PyMemoryError::new_err(format!(
                "pool_nodes: cannot allocate {size} bytes for {nodes} nodes"
            ))
        })?;
        mem.resize(blocks, Block([0; 16]));
        let mut engine = RawEngine {
            mem: mem.into_boxed_slice(),
            game,
            config,
        };
        let len = engine.mem.len() * core::mem::size_of::<Block>();
        let mut handle = core::ptr::null_mut();
        let mem_ptr = engine.ptr().cast::<c_void>();
        // SAFETY: `mem_ptr` is `len` writable bytes, 16-aligned, owned by `engine` and used by
        // nothing else; `handle` is a local.
        check(unsafe { imcts_engine_init(mem_ptr, len, game, nodes, &mut handle) })?;
        Ok(engine)
    }

    /// The game id.
    #[getter]
    fn game(&self) -> u32 {
        self.game
    }

    /// Replaces the search configuration by the parsed `spec`.
    fn set_spec(&mut self, spec: &str) -> PyResult<()> {
        self.config = parse_spec(self.game, spec)?;
        Ok(())
    }

    /// The position string.
    fn position(&self) -> PyResult<String> {
        let e = self.cptr();
        // SAFETY: `e` is this object's initialised engine; the buffer pointer and capacity come
        // from `read_string`, which passes a real buffer or NULL with 0.
        read_string(|buf, cap, len| unsafe { imcts_engine_position(e, buf, cap, len) })
    }

    /// Sets the position from a string.
    fn set_position(&mut self, position: &str) -> PyResult<()> {
        let e = self.ptr();
        // SAFETY: engine as above; `position` is `len` readable bytes.
        check(unsafe { imcts_engine_set_position(e, position.as_ptr().cast(), position.len()) })
    }

    /// Back to the start position.
    fn reset(&mut self) -> PyResult<()> {
        let e = self.ptr();
        // SAFETY: engine as above.
        check(unsafe { imcts_engine_reset(e) })
    }

    /// The legal moves, space-separated.
    fn legal_moves(&self) -> PyResult<String> {
        let e = self.cptr();
        let mut count = 0usize;
        // SAFETY: engine and buffer as in `position`; `count` is a local.
        read_string(|buf, cap, len| unsafe {
            imcts_engine_legal_moves(e, buf, cap, len, &mut count)
        })
    }

    /// Plays a move.
    fn play(&mut self, mv: &str) -> PyResult<()> {
        let e = self.ptr();
        // SAFETY: engine as above; `mv` is `len` readable bytes.
        check(unsafe { imcts_engine_play(e, mv.as_ptr().cast(), mv.len()) })
    }

    /// Takes back the last move.
    fn undo(&mut self) -> PyResult<()> {
        let e = self.ptr();
        // SAFETY: engine as above.
        check(unsafe { imcts_engine_undo(e) })
    }

    /// `IMCTS_OUTCOME_*`.
    fn outcome(&self) -> PyResult<u32> {
        let mut o = 0u32;
        // SAFETY: engine as above; out-pointer to a local.
        check(unsafe { imcts_engine_outcome(self.cptr(), &mut o) })?;
        Ok(o)
    }

    /// `0` for the first player to move, `1` for the second.
    fn side_to_move(&self) -> PyResult<u32> {
        let mut p = 0u32;
        // SAFETY: engine as above; out-pointer to a local.
        check(unsafe { imcts_engine_side_to_move(self.cptr(), &mut p) })?;
        Ok(p)
    }

    /// How many moves `undo` can take back.
    fn history_len(&self) -> PyResult<usize> {
        let mut n = 0usize;
        // SAFETY: engine as above; out-pointer to a local.
        check(unsafe { imcts_engine_history_len(self.cptr(), &mut n) })?;
        Ok(n)
    }

    /// Searches with the configured spec; `0` is "no limit" for each budget (the Python layer
    /// asks for at least one). Releases the GIL while searching.
    fn search(
        &mut self,
        py: Python<'_>,
        simulations: u64,
        nodes: u64,
        time_us: u64,
    ) -> PyResult<ResultRow> {
        let config = self.config.clone();
        // The engine pointer crosses into the GIL-free closure as an address: `&mut self`
        // keeps any other Python thread from using this engine meanwhile.
        let addr = self.ptr() as usize;
        let (status, r) = py.detach(move || {
            let start = Instant::now();
            let budget = imcts_budget {
                simulations,
                nodes,
                time_us,
                clock: Some(clock_us),
                clock_ctx: (&start as *const Instant).cast_mut().cast(),
            };
            let mut out = MaybeUninit::<imcts_result>::uninit();
            // SAFETY: the engine is this object's (see above); config, budget and out are
            // locals valid for the call; the clock reads `start`, alive until we return, and
            // cannot unwind.
            let status = match &config {
                Config::Struct(c) => unsafe {
                    imcts_engine_search(addr as *mut _, c, &budget, out.as_mut_ptr())
                },
                // SAFETY: as above; `spec` is `len` readable bytes.
                Config::Spec(spec) => unsafe {
                    imcts_engine_search_spec(
                        addr as *mut _,
                        spec.as_ptr().cast(),
                        spec.len(),
                        &budget,
                        out.as_mut_ptr(),
                    )
                },
            };
            (status, out)
        });
        check(status)?;
        // SAFETY: written on success.
        let r = unsafe { r.assume_init() };
        let children = self.root_children()?;
        Ok((
            fixed_str(&r.best_move, r.best_move_len),
            r.value,
            r.simulations,
            r.nodes,
            r.elapsed_us,
            r.stop,
            r.proven,
            r.depth,
            r.pool_full != 0,
            children,
        ))
    }

    /// The root children of the engine's current tree.
    fn root_children(&mut self) -> PyResult<Vec<ChildRow>> {
        let e = self.ptr();
        let mut count = 0usize;
        // SAFETY: engine as above; NULL with capacity 0 asks for the count.
        match unsafe { imcts_engine_root_children(e, core::ptr::null_mut(), 0, &mut count) } {
            imcts_status::BufferTooSmall => {}
            s => check(s)?,
        }
        let mut buf: Vec<imcts_child> = Vec::with_capacity(count);
        // SAFETY: `buf` has room for `count` entries; `count` is a local.
        check(unsafe { imcts_engine_root_children(e, buf.as_mut_ptr(), count, &mut count) })?;
        // SAFETY: the call wrote `count` entries (no more than the capacity it was given).
        unsafe { buf.set_len(count.min(buf.capacity())) };
        Ok(buf
            .iter()
            .map(|c| {
                (
                    fixed_str(&c.mv, c.mv_len),
                    c.visits,
                    c.mean,
                    c.value,
                    c.proven,
                )
            })
            .collect())
    }
}

/// The library version, e.g. `"0.1.0"`.
#[pyfunction]
fn version() -> String {
    // SAFETY: a static NUL-terminated string.
    unsafe { CStr::from_ptr(imcts_version()) }
        .to_string_lossy()
        .into_owned()
}

/// The C ABI version.
#[pyfunction]
fn abi_version() -> u32 {
    imcts_abi_version()
}

/// The ABI's description of a status code.
#[pyfunction]
fn status_str(status: u32) -> String {
    status_text(status)
}

/// Checks that `spec` parses for game id `game` (raises `StatusError` otherwise).
#[pyfunction]
fn check_spec(game: u32, spec: &str) -> PyResult<()> {
    parse_spec(game, spec).map(|_| ())
}

/// The bytes an engine for `game` with `nodes` search nodes needs.
#[pyfunction]
fn engine_size(game: u32, nodes: usize) -> PyResult<usize> {
    let mut size = 0usize;
    // SAFETY: out-pointer to a local.
    check(unsafe { imcts_engine_size(game, nodes, &mut size) })?;
    Ok(size)
}

/// The extension module.
#[pymodule]
fn _imcts(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RawEngine>()?;
    m.add("StatusError", m.py().get_type::<StatusError>())?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(abi_version, m)?)?;
    m.add_function(wrap_pyfunction!(status_str, m)?)?;
    m.add_function(wrap_pyfunction!(check_spec, m)?)?;
    m.add_function(wrap_pyfunction!(engine_size, m)?)?;
    Ok(())
}
