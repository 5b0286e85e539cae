//! Parsers and printers: no panic on any input, and round trips.
//!
//! - arbitrary text → `parse_position` → `write_position` → `parse_position` gives an equal
//!   state and the same text again;
//! - a position reached by fuzz-chosen moves prints to a string that parses to the same position
//!   (same string, key and moves);
//! - arbitrary text → `parse_move` in that position: a move it accepts is legal and prints to a
//!   string that parses back to it; every legal move round-trips through its notation;
//! - `decode_move` of arbitrary codes never panics.
#![no_main]

use imcts_fuzz::{
    Bytes, Checked, legal_moves, move_string, position_string, snapshot, walk, with_game,
};
use libfuzzer_sys::fuzz_target;

fn check<G: Checked>(b: &mut Bytes) {
    // Arbitrary text as a position.
    let text = b.text(255);
    if let Ok(p) = G::parse_position(&text) {
        let s1 = position_string(&p);
        let p2 = G::parse_position(&s1).unwrap_or_else(|e| panic!("{text:?} -> {s1:?}: {e}"));
        assert_eq!(p, p2, "{text:?} -> {s1:?}");
        assert_eq!(position_string(&p2), s1);
        assert_eq!(snapshot(&p), snapshot(&p2));
    }
    // A position from the start (or the parsed text) and a few fuzz-chosen moves.
    let start = G::parse_position(&text).unwrap_or_else(|_| G::new());
    let plies = b.u8() as usize;
    let g = walk(start, b, plies);
    let s = position_string(&g);
    let back = G::parse_position(&s).unwrap_or_else(|e| panic!("{s:?}: {e}"));
    assert_eq!(position_string(&back), s);
    assert_eq!(back.key(), g.key(), "{s}");
    for &m in &legal_moves(&g) {
        let ms = move_string(&g, m);
        assert_eq!(g.parse_move(&ms), Ok(m), "{s}: {ms:?}");
    }
    // Arbitrary text as a move, and arbitrary codes.
    for _ in 0..4 {
        let t = b.text(16);
        if let Ok(m) = g.parse_move(&t) {
            assert!(g.is_legal(m), "{s}: {t:?} accepted but illegal");
            let ms = move_string(&g, m);
            assert_eq!(g.parse_move(&ms), Ok(m), "{s}: {t:?} -> {ms:?}");
        }
        let _ = G::decode_move(b.u16());
    }
    let t = b.rest_text();
    let _ = g.parse_move(&t);
    let _ = G::parse_position(&t);
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    with_game!(b.u8(), G => check::<G>(&mut b));
});
