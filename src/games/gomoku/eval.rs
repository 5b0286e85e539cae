//! A cheap pattern evaluation for Gomoku: threat windows counted with bit-sliced adders.
//!
//! A *window* is five consecutive points on one line. A window is *live* for a player when it
//! holds none of the opponent's stones; a live window with `n` own stones needs `5 - n` more to
//! become a win. The score of a player is `Σ W[n] · (live windows with n stones)` with weights
//! `W[1..=4] = 1, 4, 16, 64` (an open four `.XXXX.` counts as two four-windows, 128; a closed
//! four as one, 64; an open three `.XXX.` as two or three three-windows). The evaluation is
//! `tanh((own − opponent) / 200)`.
//!
//! All windows of one direction are counted at once: the five shifted copies of the own stones
//! are summed per point by a 3-bit bit-sliced counter (about 25 word operations per direction
//! and side), so the whole evaluation is a few hundred word operations, with no table and no
//! incremental state.

use super::{BOARD, DIRECTIONS, Gomoku, WideBitboard};
use crate::game::Player;

/// The evaluation functions of Gomoku.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum GomokuEval {
    /// Live threat windows weighted by their stone count (see the module documentation).
    #[default]
    Windows,
}

/// Weights of live windows holding 1, 2, 3 and 4 own stones.
pub const WINDOW_WEIGHTS: [i32; 4] = [1, 4, 16, 64];
/// The scale of the final `tanh`.
pub const EVAL_SCALE: f32 = 200.0;

/// The weighted live-window score of `own` against `other`.
pub fn window_score(own: WideBitboard, other: WideBitboard) -> i32 {
    let free = !other & BOARD;
    let mut score = 0;
    for &d in &DIRECTIONS {
        // Windows starting at each point: all five points free of the opponent and on the board.
        let mut live = free;
        let (mut c0, mut c1, mut c2) = (
            WideBitboard::EMPTY,
            WideBitboard::EMPTY,
            WideBitboard::EMPTY,
        );
        for k in 0..5 {
            let plane = own.shr(k * d);
            if k > 0 {
                live = live & free.shr(k * d);
            }
            let carry0 = c0 & plane;
            c0 = c0 ^ plane;
            let carry1 = c1 & carry0;
            c1 = c1 ^ carry0;
            c2 = c2 | carry1;
        }
        let not2 = !c2;
        let exactly = [
            live & not2 & !c1 & c0,
            live & not2 & c1 & !c0,
            live & not2 & c1 & c0,
            live & c2 & !c1 & !c0,
        ];
        for (w, set) in WINDOW_WEIGHTS.iter().zip(exactly) {
            score += w * set.count() as i32;
        }
    }
    score
}

/// The evaluation of a non-terminal position for `player`.
pub(super) fn evaluate(pos: &Gomoku, _eval: GomokuEval, player: Player) -> f32 {
    let me = pos.stones(player);
    let them = pos.stones(player.opponent());
    let diff = window_score(me, them) - window_score(them, me);
    libm::tanhf(diff as f32 / EVAL_SCALE)
}
