//! The 100 balanced opening positions used for Lines of Action matches
//! (`data/openings/loa.txt`), and the generator that makes them reproducibly.
//!
//! Generation: a [`SearchRng`](crate::SearchRng) seeded with [`OPENINGS_SEED`] through
//! [`crate::rng::seeded`]; for each candidate, a depth of 4 to 8 plies is drawn
//! (`4 + below(rng, 5)`), then that many uniformly random legal moves are played from the start
//! (`below(rng, moves)` in generation order). A candidate is kept if the game is not over, the
//! evaluation [`LinesOfActionEval::Mia`] from Black's side is within
//! ±[`OPENINGS_MAX_EVAL`], and its Zobrist key differs from every position kept so far. It stops
//! at [`OPENINGS_COUNT`] positions.

use super::{LinesOfAction, LinesOfActionEval, MoveList};
use crate::game::{Game, Player};
use crate::rng::{below, seeded};

/// The seed of the opening generator.
pub const OPENINGS_SEED: u64 = 0x4c4f_415f_4f50_454e; // "LOA_OPEN"
/// How many openings are generated.
pub const OPENINGS_COUNT: usize = 100;
/// The largest |evaluation| (for Black) of a kept opening.
pub const OPENINGS_MAX_EVAL: f32 = 0.15;

/// Calls `keep` with each of the [`OPENINGS_COUNT`] openings, in order. Deterministic: the same
/// positions on every platform.
pub fn for_each_opening(mut keep: impl FnMut(&LinesOfAction)) {
    let mut rng = seeded(OPENINGS_SEED);
    let mut keys = [0u64; OPENINGS_COUNT];
    let mut kept = 0;
    let mut list = MoveList::new();
    // Each candidate is kept with a fair probability; the attempt cap only guards the loop.
    for _ in 0..100_000 {
        if kept == OPENINGS_COUNT {
            break;
        }
        let plies = 4 + below(&mut rng, 5);
        let mut pos = LinesOfAction::start();
        for _ in 0..plies {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let mv = list[below(&mut rng, list.len() as u32) as usize];
            pos.make(mv);
        }
        if pos.is_terminal() {
            continue;
        }
        let v = pos.evaluate(LinesOfActionEval::Mia, Player::First);
        if v.abs() >= OPENINGS_MAX_EVAL || keys[..kept].contains(&pos.key()) {
            continue;
        }
        keys[kept] = pos.key();
        kept += 1;
        keep(&pos);
    }
}
