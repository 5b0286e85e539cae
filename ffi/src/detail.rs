//! Error detail, in the manner of rustls-ffi's `rustls_error`: a status says what kind of input
//! failed; these functions say which label or field and why, as text. They are stateless (no
//! last-error slot, so nothing thread-local and nothing to allocate): give them the input that
//! failed and they parse it again and describe the first problem.

use crate::config::parse_detail;
use crate::engine::{GameId, dispatch_game, imcts_game};
use crate::{boundary, imcts_status, text};
use core::ffi::c_char;
use imcts::Game;

/// Writes why `spec` is not a valid player spec for `game`, e.g.
/// `'pbnan': expected a finite number (at most about 3.4e38 in size) after the label's name`,
/// to `buf` (buffer convention of the crate docs); an empty string if it is valid (that is, if
/// `imcts_config_parse` accepts it).
///
/// Statuses: `OK`, `NULL_POINTER`, `UNKNOWN_GAME`, `INVALID_UTF8`, `BUFFER_TOO_SMALL`, `PANIC`.
///
/// # Safety
/// `spec` must be NULL or point to `len` readable bytes; `buf` must be NULL or valid for writing
/// `capacity` bytes; `out_len` must be NULL or valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_config_parse_error(
    game: imcts_game,
    spec: *const c_char,
    len: usize,
    buf: *mut c_char,
    capacity: usize,
    out_len: *mut usize,
) -> imcts_status {
    boundary(|| {
        // SAFETY: the caller guarantees `len` readable bytes at `spec` (or NULL, checked).
        let spec = unsafe { text::input(spec, len) }?;
        let id = GameId::from_u32(game)?;
        // SAFETY: buffer validity forwarded from the caller.
        unsafe {
            text::output(
                buf,
                capacity,
                out_len,
                |w| dispatch_game!(id, G => parse_detail::<G>(spec, w)),
            )
        }
    })
}

/// Writes why `position` is not a valid position string for `game`, naming the field, e.g.
/// `rank 1 has length 9, expected 8` or `position is longer than 512 bytes`, to `buf` (buffer
/// convention of the crate docs); an empty string if it is valid (that is, if
/// `imcts_engine_set_position` accepts it).
///
/// Statuses: `OK`, `NULL_POINTER`, `UNKNOWN_GAME`, `INVALID_UTF8`, `BUFFER_TOO_SMALL`, `PANIC`.
///
/// # Safety
/// `position` must be NULL or point to `len` readable bytes; `buf` must be NULL or valid for
/// writing `capacity` bytes; `out_len` must be NULL or valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_position_error(
    game: imcts_game,
    position: *const c_char,
    len: usize,
    buf: *mut c_char,
    capacity: usize,
    out_len: *mut usize,
) -> imcts_status {
    boundary(|| {
        // SAFETY: the caller guarantees `len` readable bytes at `position` (or NULL, checked).
        let position = unsafe { text::input(position, len) }?;
        let id = GameId::from_u32(game)?;
        // SAFETY: buffer validity forwarded from the caller.
        unsafe {
            text::output(buf, capacity, out_len, |w| {
                dispatch_game!(id, G => match G::parse_position(position) {
                    Ok(_) => Ok(()),
                    Err(e) => write!(w, "{e}"),
                })
            })
        }
    })
}
