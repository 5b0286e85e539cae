//! The bitboard move generators against their mailbox references, along a move sequence the
//! fuzzer chooses, from the initial position (under each rule variant) or a parsed position.
//!
//! At every step: the same legal moves (as sets), the bulk count equals the list length,
//! the same outcome, `is_legal` agrees with the list for fuzz-chosen move codes, and after the
//! fuzz-chosen move the reference copy of the new state equals the reference's own copy-make.
#![no_main]

use imcts::Player;
use imcts_fuzz::{Bytes, Checked, legal_moves, start_position, with_game};
use libfuzzer_sys::fuzz_target;

fn check<G: Checked>(b: &mut Bytes) {
    let mut g: G = start_position(b);
    let mut r = g.reference();
    let mut plies = 0u32;
    loop {
        let moves = legal_moves(&g);
        assert_eq!(g.count_moves(), moves.len() as u64);
        assert_eq!(moves.is_empty(), g.outcome().is_some(), "{g:?}");
        if !g.history_decides() {
            let mut ours: Vec<u16> = moves.iter().map(|&m| G::encode_move(m)).collect();
            ours.sort_unstable();
            assert_eq!(ours, G::ref_moves(&r), "{g:?}");
            assert_eq!(g.outcome(), G::ref_outcome(&r), "{g:?}");
        }
        // Legal moves decode back to themselves; arbitrary codes agree with the list.
        for &m in &moves {
            assert_eq!(G::decode_move(G::encode_move(m)), Some(m));
            assert!(g.is_legal(m));
        }
        let code = b.u16();
        if let Some(m) = G::decode_move(code) {
            assert_eq!(g.is_legal(m), moves.contains(&m), "{g:?} {m:?}");
        }
        // Evaluations stay in [-1, 1] for both players.
        for &(_, e) in G::EVALS {
            for p in Player::BOTH {
                let v = g.evaluate(e, p);
                assert!((-1.0..=1.0).contains(&v), "{g:?} eval {v}");
            }
        }
        if moves.is_empty() || b.is_empty() || plies > G::MAX_GAME_PLIES {
            break;
        }
        let mv = moves[b.u8() as usize % moves.len()];
        g.make(mv);
        r = G::ref_play(&r, mv);
        plies += 1;
        if !g.history_decides() {
            assert_eq!(g.reference(), r, "after {mv:?}: {g:?}");
        } else {
            r = g.reference();
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    with_game!(b.u8(), G => check::<G>(&mut b));
});
