//! One interface to the games' reference generators (`src/games/<game>/reference.rs`), for the
//! conformance suite and the fuzz targets: the plain, copy-make implementations that the
//! bitboard and pit-array generators are checked against. Built for tests and under the
//! `reference` feature only.

use crate::game::{Game, MoveBuffer, Outcome};
use core::fmt::Debug;

/// A game with an independent reference implementation of its rules.
pub trait ReferenceGame: Game {
    /// The reference's state.
    type Reference: Clone + PartialEq + Debug;
    /// The reference copy of `self`.
    fn reference(&self) -> Self::Reference;
    /// The reference's legal moves, written into `out` (cleared first).
    fn reference_moves(r: &Self::Reference, out: &mut Self::MoveList);
    /// The reference's outcome.
    fn reference_outcome(r: &Self::Reference) -> Option<Outcome>;
    /// The reference position after `mv` (copy-make).
    fn reference_play(r: &Self::Reference, mv: Self::Move) -> Self::Reference;
    /// The reference's perft count (copy-make, no bulk counting).
    fn reference_perft(r: &Self::Reference, depth: u32) -> u64;
    /// Whether the outcome depends on history the reference does not see (Lines of Action's
    /// repetition and ply cap); comparisons with the reference are then skipped.
    fn history_decides(&self) -> bool {
        false
    }
}

/// Implements [`ReferenceGame`] for `$game` with the reference type `$reference`, which has
/// `from_position`, `moves`, `outcome`, `play` and `perft`; further items override defaults.
macro_rules! reference_game {
    ($game:ty, $reference:ty $(; $($extra:item)*)?) => {
        impl $crate::games::reference::ReferenceGame for $game {
            type Reference = $reference;
            fn reference(&self) -> $reference {
                <$reference>::from_position(self)
            }
            fn reference_moves(r: &$reference, out: &mut <$game as $crate::game::Game>::MoveList) {
                $crate::games::reference::fill(&r.moves(), out)
            }
            fn reference_outcome(r: &$reference) -> Option<$crate::game::Outcome> {
                r.outcome()
            }
            fn reference_play(r: &$reference, mv: <$game as $crate::game::Game>::Move) -> $reference {
                r.play(mv)
            }
            fn reference_perft(r: &$reference, depth: u32) -> u64 {
                r.perft(depth)
            }
            $($($extra)*)?
        }
    };
}
pub(crate) use reference_game;

/// Copies `moves` into `out`.
#[doc(hidden)]
pub fn fill<M: Copy, L: MoveBuffer<M>>(moves: &[M], out: &mut L) {
    out.clear_moves();
    for &mv in moves {
        out.push_move(mv);
    }
}
