//! The Kalah evaluation: the store difference, squashed.

use super::{EVAL_SCALE, Kalah};
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
    let diff = pos.store(player) as f32 - pos.store(player.opponent()) as f32;
    libm::tanhf(diff / EVAL_SCALE)
}
