//! make/undo restores the state and every incremental quantity, along a fuzz-chosen move
//! sequence: after undoing everything each intermediate state is compared (PartialEq, key,
//! evaluations, outcome, side, moves, score margins) with a snapshot taken on the way down; and
//! at every step the incremental key and evaluations equal those of the same position rebuilt
//! from scratch by parsing its position string.
#![no_main]

use imcts_fuzz::{
    Bytes, Checked, legal_moves, position_string, snapshot, start_position, with_game,
};
use libfuzzer_sys::fuzz_target;

fn check<G: Checked>(b: &mut Bytes) {
    let mut g: G = start_position(b);
    let mut stack = Vec::new();
    while !b.is_empty() && stack.len() < 700 {
        let moves = legal_moves(&g);
        if moves.is_empty() {
            break;
        }
        // From scratch: the position string parsed again (it carries no history, so only
        // positions whose outcome does not come from history are comparable).
        if !g.history_decides() {
            let text = position_string(&g);
            let fresh = G::parse_position(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            // The string does not hold LOA's rule options, which can change the outcome (a
            // stuck side, both sides connected); the key never depends on them.
            assert_eq!(g.key(), fresh.key(), "{text}");
            if g.outcome() == fresh.outcome() {
                assert_eq!(snapshot(&g), snapshot(&fresh), "{text}");
            }
        }
        let mv = moves[b.u8() as usize % moves.len()];
        let before = g.clone();
        let snap = snapshot(&g);
        let u = g.make(mv);
        // Undo at once and redo: a single step must restore exactly.
        g.undo(mv, u);
        assert_eq!(g, before, "undo of {mv:?}");
        assert_eq!(snapshot(&g), snap);
        let u = g.make(mv);
        stack.push((before, snap, mv, u));
    }
    while let Some((before, snap, mv, u)) = stack.pop() {
        g.undo(mv, u);
        assert_eq!(g, before, "undo of {mv:?}");
        assert_eq!(snapshot(&g), snap, "undo of {mv:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    with_game!(b.u8(), G => check::<G>(&mut b));
});
