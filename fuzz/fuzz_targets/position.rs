//! Position parsers under any length: the first byte picks the game, the rest of the input (up
//! to whatever `-max_len` allows; `.ci/run` and the README use 1 MB) is the position text.
//!
//! - text over `MAX_POSITION_LEN` bytes is rejected, with `Problem::TooLong`;
//! - an accepted position prints to a string that parses back to it (same string);
//! - an over-long input's first `MAX_POSITION_LEN` bytes are parsed too, so long mutated inputs
//!   still reach the field parsers (a rank, row or house list long enough to overflow a count).
//!
//! Run with the dictionary `position.dict` (piece letters, separators, side and rule words).
#![no_main]

use imcts::game::{Game, MAX_POSITION_LEN, Problem};
use imcts_fuzz::{position_string, with_game};
use libfuzzer_sys::fuzz_target;

fn check<G: Game>(text: &str) {
    match G::parse_position(text) {
        Ok(p) => {
            assert!(
                text.len() <= MAX_POSITION_LEN,
                "accepted {} bytes",
                text.len()
            );
            let s = position_string(&p);
            let back = G::parse_position(&s).unwrap_or_else(|e| panic!("{text:?} -> {s:?}: {e}"));
            assert_eq!(back, p, "{text:?} -> {s:?}");
            assert_eq!(position_string(&back), s);
        }
        Err(e) if text.len() > MAX_POSITION_LEN => {
            assert!(matches!(e.problem, Problem::TooLong { .. }), "{e}");
        }
        Err(_) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    with_game!(pick, G => {
        check::<G>(&text);
        if text.len() > MAX_POSITION_LEN {
            let mut cut = MAX_POSITION_LEN;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            check::<G>(&text[..cut]);
        }
    });
});
