//! The Kalah evaluation: the store difference, squashed.

use super::{EVAL_SCALE, Kalah, STONES};
use crate::game::{Game, Player};

/// The evaluation functions of Kalah.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum KalahEval {
    /// The store difference through `tanh(Δ / EVAL_SCALE)` (the paper's evaluation, squashed).
    #[default]
    StoreDiff,
}

/// `tanh((own store − opponent's store) / EVAL_SCALE)`; terminal positions give their reward.
#[inline]
pub(super) fn evaluate(pos: &Kalah, player: Player) -> f32 {
    if let Some(o) = pos.outcome() {
        return o.reward(player);
    }
    squash(pos.store(player) as i32 - pos.store(player.opponent()) as i32)
}

/// `libm::tanhf(d as f32 / EVAL_SCALE)` for a store difference `d` in `0..=48`: the evaluation
/// read from a table instead of the software `tanhf` (bit for bit the same values, checked by a
/// test; `tanh` is odd, so negative differences negate the entry).
static STORE_TANH: [f32; STONES as usize + 1] = [
    0.0,
    0.099667996,
    0.19737533,
    0.29131263,
    0.37994897,
    0.46211714,
    0.53704953,
    0.60436773,
    0.66403675,
    0.71629786,
    0.7615942,
    0.800499,
    0.83365464,
    0.8617231,
    0.88535166,
    0.90514827,
    0.9216685,
    0.93540907,
    0.946806,
    0.95623744,
    0.9640276,
    0.97045195,
    0.9757431,
    0.9800964,
    0.9836749,
    0.9866143,
    0.9890274,
    0.99100745,
    0.9926315,
    0.9939632,
    0.9950548,
    0.9959494,
    0.9966824,
    0.997283,
    0.9977749,
    0.9981779,
    0.9985079,
    0.9987782,
    0.9989996,
    0.99918085,
    0.9993293,
    0.99945086,
    0.99955034,
    0.9996319,
    0.9996986,
    0.99975324,
    0.99979794,
    0.99983454,
    0.9998646,
];

/// `libm::tanhf(d as f32 / EVAL_SCALE)`, bit for bit.
#[inline(always)]
pub(super) fn squash(d: i32) -> f32 {
    match STORE_TANH.get(d.unsigned_abs() as usize) {
        Some(&t) if d < 0 => -t,
        Some(&t) => t,
        None => libm::tanhf(d as f32 / EVAL_SCALE),
    }
}
