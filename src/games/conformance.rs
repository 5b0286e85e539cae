//! The conformance suite every game runs: the same checks, instantiated once per game by
//! [`conformance_tests!`] at the bottom of this file.
//!
//! - **Perft from `data/perft/<game>.txt`**: every line up to the game's node limit is counted
//!   by the game's generator (with bulk counting), and every line up to a lower limit also by its
//!   reference generator (`src/games/<game>/reference.rs`: plain loops, copy-make).
//! - **Make/undo against the reference**: along seeded random games, the legal moves and the
//!   outcome equal the reference's, `make` gives the position the reference's copy-make gives,
//!   and `undo` restores the state exactly (key included).
//! - **Notation round trips**: position strings and moves written, parsed back and compared;
//!   move codes decoded back.
//! - **Typed errors**: a missing board or side to move, a bad side letter, extra fields, a
//!   board with one row too many, over-long input and empty or illegal moves each give the
//!   expected [`Problem`]; random strings never panic.
//!
//! Game-specific rules (captures, repetition, Fig. 5 positions, …) stay in each game's
//! `tests.rs`.

extern crate std;

use super::{
    breakthrough::Breakthrough, gomoku::Gomoku, kalah::Kalah, lines_of_action::LinesOfAction,
    tictactoe::TicTacToe,
};
use crate::game::{Game, MAX_POSITION_LEN, MoveBuffer, Problem, perft};
use crate::games::reference::ReferenceGame;
use crate::rng::{below, seeded};
use std::string::String;
use std::vec::Vec;

/// A game together with what the suite needs to know about it beyond its reference generator:
/// its perft file and how much of it unit tests can afford.
trait Conformance: ReferenceGame {
    /// The game's perft file (`data/perft/<game>.txt`).
    const PERFT_FILE: &'static str;
    /// Perft lines with more nodes are left to `imcts perft` (too slow for unit tests).
    const PERFT_LIMIT: u64;
    /// Perft lines with at most this many nodes are also counted by the reference.
    const REFERENCE_PERFT_LIMIT: u64;
    /// How many random games the make/undo and notation checks play.
    const RANDOM_GAMES: u32;
}

macro_rules! conformance {
    ($G:ty, $file:literal, $limit:expr, $reference_limit:expr, $games:expr) => {
        impl Conformance for $G {
            const PERFT_FILE: &'static str = include_str!(concat!("../../data/perft/", $file));
            const PERFT_LIMIT: u64 = $limit;
            const REFERENCE_PERFT_LIMIT: u64 = $reference_limit;
            const RANDOM_GAMES: u32 = $games;
        }
    };
}

// Game, perft file, generator limit, reference limit (the limits the per-game runners used),
// random games.
conformance!(
    Breakthrough,
    "breakthrough.txt",
    20_000_000,
    20_000_000,
    300
);
conformance!(LinesOfAction, "loa.txt", 2_000_000, 200_000, 100);
conformance!(Kalah, "kalah.txt", 5_000_000, 999_999, 300);
conformance!(TicTacToe, "tictactoe.txt", u64::MAX, u64::MAX, 300);
conformance!(Gomoku, "gomoku.txt", 5_000_000, 100_000, 20);

/// Plays up to `plies` uniformly random moves (drawn with [`below`] over the legal-move list
/// in generation order) on `pos`, stopping at the end of the game. The games' own tests build
/// their seeded random positions with it.
pub(crate) fn play_random<G: Game>(pos: &mut G, rng: &mut crate::SearchRng, plies: u32) {
    let mut list = G::MoveList::default();
    for _ in 0..plies {
        pos.legal_moves(&mut list);
        let moves = list.moves();
        if moves.is_empty() {
            break;
        }
        pos.make(moves[below(rng, moves.len() as u32) as usize]);
    }
}

/// The lines of a perft file: `(position, depth, nodes)`.
fn perft_lines(data: &str) -> impl Iterator<Item = (&str, u32, u64)> {
    data.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let pos = parts.next().expect("position").trim();
            let depth = parts.next().expect("depth").trim().parse().expect("depth");
            let nodes = parts.next().expect("nodes").trim().parse().expect("nodes");
            assert!(parts.next().is_none(), "{line}: position;depth;nodes");
            (pos, depth, nodes)
        })
}

/// Every affordable line of the perft file, by the generator and (up to its limit) the
/// reference.
fn perft_matches_data_file<G: Conformance>() {
    let (mut checked, mut by_reference) = (0, 0);
    for (text, depth, nodes) in perft_lines(G::PERFT_FILE) {
        let mut pos = G::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        if nodes > G::PERFT_LIMIT {
            continue; // deep counts are checked by `imcts perft`, not by unit tests
        }
        assert_eq!(perft(&mut pos, depth), nodes, "{text} depth {depth}");
        if nodes <= G::REFERENCE_PERFT_LIMIT {
            let r = pos.reference();
            assert_eq!(
                G::reference_perft(&r, depth),
                nodes,
                "reference: {text} {depth}"
            );
            by_reference += 1;
        }
        checked += 1;
    }
    assert!(checked >= 5, "{}: too few usable perft lines", G::NAME);
    assert!(by_reference >= 3, "{}: too few reference lines", G::NAME);
}

/// The moves sorted by their codes, so generators with different orders compare equal.
fn sorted_codes<G: Game>(moves: &[G::Move]) -> Vec<u16> {
    let mut v: Vec<u16> = moves.iter().map(|&m| G::encode_move(m)).collect();
    v.sort_unstable();
    v
}

/// Along seeded random games: moves, counts and outcomes equal the reference's, every move's
/// `make` matches the reference's copy-make, `undo` restores the state and its key, and
/// `outcome_after` gives the outcome after the move without changing the position, and
/// `evaluate_after` that outcome and every evaluation after the move, to the bit.
fn make_undo_agrees_with_reference<G: Conformance>() {
    let mut rng = seeded(0xC0F0_0001);
    let mut list = G::MoveList::default();
    let mut reference_list = G::MoveList::default();
    let mut max_plies = 0;
    for game in 0..G::RANDOM_GAMES {
        let mut pos = G::new();
        let mut plies = 0u32;
        loop {
            let r = pos.reference();
            pos.legal_moves(&mut list);
            let moves: Vec<G::Move> = list.moves().to_vec();
            if !pos.history_decides() {
                assert_eq!(
                    pos.outcome(),
                    G::reference_outcome(&r),
                    "game {game}: {pos:?}"
                );
                G::reference_moves(&r, &mut reference_list);
                assert_eq!(
                    sorted_codes::<G>(&moves),
                    sorted_codes::<G>(reference_list.moves()),
                    "game {game}: {pos:?}"
                );
            }
            assert_eq!(pos.count_moves(), moves.len() as u64);
            assert_eq!(moves.is_empty(), pos.outcome().is_some());
            if moves.is_empty() {
                break;
            }
            let before = pos.clone();
            for &mv in &moves {
                assert!(pos.is_legal(mv), "{mv:?} in {pos:?}");
                let undo = pos.make(mv);
                if !pos.history_decides() {
                    assert_eq!(pos.reference(), G::reference_play(&r, mv), "{mv:?}");
                }
                let outcome = pos.outcome();
                // `CAN_DRAW = false` is a promise the search relies on (it skips draw bounds).
                assert!(
                    G::CAN_DRAW || outcome != Some(crate::Outcome::Draw),
                    "{} promises no draws: {mv:?} in {before:?}",
                    G::NAME
                );
                // Every evaluation of the child for both players, as the search read them
                // before `evaluate_after`: the reward if over, else `evaluate`.
                let players = [crate::Player::First, crate::Player::Second];
                let values: Vec<(G::Eval, crate::Player, f32)> = G::EVALS
                    .iter()
                    .flat_map(|&(_, e)| players.map(|p| (e, p)))
                    .map(|(e, p)| {
                        (
                            e,
                            p,
                            outcome.map_or_else(|| pos.evaluate(e, p), |o| o.reward(p)),
                        )
                    })
                    .collect();
                pos.undo(mv, undo);
                assert_eq!(pos, before, "undo {mv:?}");
                assert_eq!(pos.key(), before.key());
                assert_eq!(pos.outcome_after(mv), outcome, "outcome after {mv:?}");
                assert_eq!(pos, before, "outcome_after {mv:?} changed the position");
                for (e, p, v) in values {
                    let (o, after) = pos.evaluate_after(mv, e, p);
                    assert_eq!(o, outcome, "evaluate_after's outcome, {mv:?}");
                    assert_eq!(
                        after.to_bits(),
                        v.to_bits(),
                        "evaluate_after {mv:?} {e:?} {p:?}"
                    );
                    assert_eq!(pos, before, "evaluate_after {mv:?} changed the position");
                }
            }
            pos.make(moves[below(&mut rng, moves.len() as u32) as usize]);
            plies += 1;
        }
        assert!(plies <= G::MAX_GAME_PLIES, "{}: {plies} plies", G::NAME);
        max_plies = max_plies.max(plies);
    }
    assert!(max_plies > 0);
}

/// The position string of `pos`.
fn position_string<G: Game>(pos: &G) -> String {
    let mut s = String::new();
    pos.write_position(&mut s).unwrap();
    s
}

/// Along seeded random games: each position string parses back to the same position (same
/// string, key and moves), and each legal move survives notation and its 16-bit code.
fn notation_round_trips<G: Conformance>() {
    let mut rng = seeded(0xC0F0_0002);
    let mut list = G::MoveList::default();
    let mut other = G::MoveList::default();
    for _ in 0..G::RANDOM_GAMES.min(100) {
        let mut pos = G::new();
        loop {
            let text = position_string(&pos);
            assert!(text.len() <= MAX_POSITION_LEN, "{text}");
            let back = G::parse_position(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(position_string(&back), text);
            assert_eq!(back.key(), pos.key(), "{text}");
            assert_eq!(back.side_to_move(), pos.side_to_move(), "{text}");
            pos.legal_moves(&mut list);
            if !pos.history_decides() {
                back.legal_moves(&mut other);
                assert_eq!(list.moves(), other.moves(), "{text}");
            }
            for &mv in list.moves() {
                let written = crate::game::move_string(&pos, mv);
                assert_eq!(pos.parse_move(&written), Ok(mv), "{written} in {text}");
                assert_eq!(G::decode_move(G::encode_move(mv)), Some(mv));
            }
            if list.moves().is_empty() {
                break;
            }
            pos.make(list.moves()[below(&mut rng, list.moves().len() as u32) as usize]);
        }
    }
}

/// The errors every parser shares: the header fields, one row too many, over-long input, and
/// empty or illegal moves. Random strings never panic.
fn bad_input_gets_typed_errors<G: Conformance>() {
    let start = position_string(&G::new());
    let (board, rest) = start.split_once(' ').unwrap();
    let problem = |text: &str| G::parse_position(text).map(|_| ()).unwrap_err();
    let e = problem("");
    assert_eq!((e.field, e.problem), ("board", Problem::Empty));
    let e = problem(board);
    assert_eq!((e.field, e.problem), ("side to move", Problem::Missing));
    let e = problem(&std::format!("{board} ?"));
    assert_eq!(
        (e.field, e.problem),
        ("side to move", Problem::UnexpectedChar('?'))
    );
    // A side letter doubled: every character is a side letter, the length is wrong.
    let side = rest.split(' ').next().unwrap();
    let e = problem(&std::format!("{board} {side}{side}"));
    assert_eq!(
        (e.field, e.problem),
        (
            "side to move",
            Problem::BadLength {
                expected: 1,
                found: 2
            }
        )
    );
    // A field after the last one the game writes: for games with rule options an unknown
    // option, for the others extra input.
    let e = problem(&std::format!("{start} extra junk"));
    assert!(
        e.problem == Problem::Extra || e.field == "rules",
        "{start} extra junk: {e}"
    );
    // One more row than the board has.
    let first_row = board.split('/').next().unwrap();
    assert!(G::parse_position(&std::format!("{first_row}/{board} {rest}")).is_err());
    // Over the length limit, padded with spaces: rejected for its length alone.
    let long = std::format!("{}{start}", " ".repeat(MAX_POSITION_LEN + 1 - start.len()));
    assert_eq!(
        problem(&long).problem,
        Problem::TooLong {
            max: MAX_POSITION_LEN as u16
        }
    );
    assert_eq!(G::parse_position(&long[1..]).ok(), Some(G::new()));
    assert!(G::parse_position(&"/".repeat(1 << 20)).is_err());
    // Moves: empty, and a well-formed move that is illegal in a finished game.
    let pos = G::new();
    assert_eq!(pos.parse_move("").unwrap_err().problem, Problem::Empty);
    assert_eq!(pos.parse_move("   ").unwrap_err().problem, Problem::Empty);
    let mut list = G::MoveList::default();
    pos.legal_moves(&mut list);
    let first = crate::game::move_string(&pos, list.moves()[0]);
    let mut finished = pos.clone();
    let mut rng = seeded(3);
    finished.random_playout(&mut rng, u32::MAX);
    assert!(finished.is_terminal());
    assert_eq!(
        finished.parse_move(&first).unwrap_err().problem,
        Problem::Illegal,
        "{first} after the game ended"
    );
    // Random strings over the notation's own characters: errors or valid positions, no panic.
    let alphabet: Vec<char> = start.chars().chain("0123456789/ -x?".chars()).collect();
    let mut rng = seeded(4);
    for _ in 0..3000 {
        let len = below(&mut rng, 80) as usize;
        let s: String = (0..len)
            .map(|_| alphabet[below(&mut rng, alphabet.len() as u32) as usize])
            .collect();
        if let Ok(p) = G::parse_position(&s) {
            assert_eq!(G::parse_position(&position_string(&p)).ok(), Some(p));
        }
        let _ = pos.parse_move(&s.chars().take(8).collect::<String>());
    }
}

/// Instantiates the suite for one game: `conformance_tests!(module_name: GameType);`.
macro_rules! conformance_tests {
    ($name:ident: $G:ty) => {
        mod $name {
            use super::*;

            #[test]
            fn perft_matches_data_file() {
                super::perft_matches_data_file::<$G>();
            }

            #[test]
            fn make_undo_agrees_with_reference() {
                super::make_undo_agrees_with_reference::<$G>();
            }

            #[test]
            fn notation_round_trips() {
                super::notation_round_trips::<$G>();
            }

            #[test]
            fn bad_input_gets_typed_errors() {
                super::bad_input_gets_typed_errors::<$G>();
            }
        }
    };
}

conformance_tests!(breakthrough: Breakthrough);
conformance_tests!(lines_of_action: LinesOfAction);
conformance_tests!(kalah: Kalah);
conformance_tests!(tictactoe: TicTacToe);
conformance_tests!(gomoku: Gomoku);
