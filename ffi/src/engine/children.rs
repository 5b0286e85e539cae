//! The root's children after an MCTS search: the per-move statistics a host shows next to the
//! chosen move (the CLI's `imcts search` table, the Python package's `SearchResult.children`).
//!
//! A child module of `engine` so it can read an engine's tree through the same private
//! helpers as the other entry points, while the addition to the ABI stays in one file.

use super::{Games, Region, Side, imcts_engine, with_engine};
use crate::config::{
    IMCTS_MOVE_CAPACITY, IMCTS_PROVEN_DRAW, IMCTS_PROVEN_LOSS, IMCTS_PROVEN_UNKNOWN,
    IMCTS_PROVEN_WIN, imcts_proven,
};
use crate::text::Fixed;
use crate::{boundary, imcts_status};
use core::ffi::c_char;
use imcts::game::Game;
use imcts::search::node::Proven;

/// One child of the search tree's root: a legal move of the current position and what the
/// last MCTS search learnt about it, all from the view of the side to move.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct imcts_child {
    /// The move in the game's notation, NUL-terminated.
    pub mv: [c_char; IMCTS_MOVE_CAPACITY],
    /// The length of `mv` without the NUL.
    pub mv_len: u32,
    /// Visits (node-prior virtual visits included).
    pub visits: u32,
    /// Mean reward in `[-1, 1]` for the side to move (`0` with no visits).
    pub mean: f32,
    /// Implicit minimax value (the evaluation at a leaf) for the side to move.
    pub value: f32,
    /// An `IMCTS_PROVEN_*`: the solver's value of playing this move, for the side to move.
    pub proven: imcts_proven,
}

impl imcts_child {
    const EMPTY: imcts_child = imcts_child {
        mv: [0; IMCTS_MOVE_CAPACITY],
        mv_len: 0,
        visits: 0,
        mean: 0.0,
        value: 0.0,
        proven: IMCTS_PROVEN_UNKNOWN,
    };
}

impl<G: Game> Side<G> {
    /// Calls `f` with each root child of the tree the engine holds (none without a tree).
    fn each_root_child(&mut self, region: &mut Region, mut f: impl FnMut(imcts_child)) {
        let game = self.game().clone();
        self.player().inspect_mcts(region, |m| {
            for c in m.root_children() {
                let mut s = Fixed::<{ IMCTS_MOVE_CAPACITY - 1 }>::new();
                if game.write_move(c.mv, &mut s).is_err() {
                    continue;
                }
                let mut child = imcts_child::EMPTY;
                for (dst, &src) in child.mv.iter_mut().zip(&s.bytes[..s.len]) {
                    *dst = src as c_char;
                }
                child.mv_len = s.len as u32;
                child.visits = c.visits;
                child.mean = c.mean;
                child.value = c.value;
                child.proven = match c.proven {
                    Proven::Unknown => IMCTS_PROVEN_UNKNOWN,
                    Proven::Win => IMCTS_PROVEN_WIN,
                    Proven::Loss => IMCTS_PROVEN_LOSS,
                    Proven::Draw => IMCTS_PROVEN_DRAW,
                };
                f(child);
            }
        });
    }
}

/// Writes the statistics of the search tree's root children to `buf` (room for `capacity`
/// entries) and their number to `*out_count`. The tree is the one the last MCTS search built
/// or reused; it always belongs to the current position (playing a move without tree reuse,
/// undo, `set_position`, `reset` and αβ searches clear it), so there are no entries before the
/// first MCTS search or after those calls; a search that needs no tree (a single legal move, a
/// finished game) leaves the tree as it was. With `capacity` too small the call returns
/// `IMCTS_STATUS_BUFFER_TOO_SMALL`, writes the number of entries to `*out_count` and nothing
/// else; `buf = NULL, capacity = 0` asks for the number this way. The engine's position and
/// tree are unchanged, but reading the tree re-opens it in the engine's memory, so the engine is
/// taken as `imcts_engine *` (not `const`): it must be in writable memory.
///
/// # Safety
/// `engine` as for `imcts_engine_game`; `buf` must be NULL or valid for writing `capacity`
/// entries; `out_count` must be NULL or valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_root_children(
    engine: *mut imcts_engine,
    buf: *mut imcts_child,
    capacity: usize,
    out_count: *mut usize,
) -> imcts_status {
    boundary(|| {
        if out_count.is_null() || (buf.is_null() && capacity > 0) {
            return Err(imcts_status::NullPointer);
        }
        let body = |g: &mut Games, r: &mut Region| {
            with_side!(g, s => {
                let mut count = 0usize;
                s.each_root_child(r, |_| count += 1);
                if count > capacity {
                    return Err((imcts_status::BufferTooSmall, count));
                }
                let mut i = 0usize;
                s.each_root_child(r, |c| {
                    if i < capacity {
                        // SAFETY: `buf` is non-NULL here (capacity >= count > i, and NULL
                        // comes only with capacity 0) and valid for `capacity` entries
                        // (caller's guarantee).
                        unsafe { buf.add(i).write(c) };
                    }
                    i += 1;
                });
                Ok(i)
            })
        };
        // SAFETY: forwarded from the caller; the tree is read and suspended again unchanged.
        let counted = unsafe { with_engine(engine, |g, r| Ok(body(g, r))) }?;
        let (status, count) = match counted {
            Ok(n) => (Ok(()), n),
            Err((e, n)) => (Err(e), n),
        };
        // SAFETY: non-NULL and valid for writes (caller's guarantee).
        unsafe { out_count.write(count) };
        status
    })
}
