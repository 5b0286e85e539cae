//! Every game's position parser under hostile lengths: the over-long inputs of issue 13 (which
//! used to wrap a `u16` count and parse as valid positions) and anything longer than
//! [`MAX_POSITION_LEN`](crate::game::MAX_POSITION_LEN) are rejected; the longest position a game
//! writes still parses.

extern crate std;

use super::{
    breakthrough::Breakthrough, gomoku::Gomoku, kalah::Kalah, lines_of_action::LinesOfAction,
    tictactoe::TicTacToe,
};
use crate::game::{Game, MAX_POSITION_LEN, Problem, check_position_len};
use std::string::String;

fn rejected<G: Game>(text: &str) {
    assert!(
        G::parse_position(text).is_err(),
        "{}: accepted {} bytes",
        G::NAME,
        text.len()
    );
}

fn too_long<G: Game>() {
    // Valid start position padded with spaces past the limit: rejected for its length alone.
    let mut s = String::new();
    G::new().write_position(&mut s).unwrap();
    assert!(G::parse_position(&s).is_ok());
    let pad = MAX_POSITION_LEN + 1 - s.len();
    let long = std::format!("{}{s}", " ".repeat(pad));
    assert_eq!(
        G::parse_position(&long).unwrap_err().problem,
        Problem::TooLong {
            max: MAX_POSITION_LEN as u16
        },
        "{}",
        G::NAME
    );
    // At exactly the limit it parses.
    assert_eq!(G::parse_position(&long[1..]).ok(), Some(G::new()));
    // A megabyte of garbage is rejected too.
    rejected::<G>(&"/".repeat(1 << 20));
}

#[test]
fn every_parser_rejects_input_over_the_limit() {
    too_long::<Breakthrough>();
    too_long::<LinesOfAction>();
    too_long::<Kalah>();
    too_long::<TicTacToe>();
    too_long::<Gomoku>();
    assert!(check_position_len(&"x".repeat(MAX_POSITION_LEN)).is_ok());
}

#[test]
fn the_issue_13_wrapping_inputs_are_rejected() {
    // A Breakthrough rank of 8,193 `8`s, or of 65,544 `P`s (65,536 + 8 wraps to 8).
    let bt = |rank: String| std::format!("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/{rank} w");
    rejected::<Breakthrough>(&bt("8".repeat(8193)));
    rejected::<Breakthrough>(&bt("P".repeat(65_544)));
    // A Kalah row of 65,542 houses (wraps to 6).
    let houses = ["4"; 65_542].join(",");
    rejected::<Kalah>(&std::format!("{houses}/4,4,4,4,4,4/0-0 s"));
    // A Tic-Tac-Toe string with 65,536 `/` (65,537 rows wrap to 1).
    rejected::<TicTacToe>(&std::format!("...{} x", "/".repeat(65_536)));
    // The same shapes, short enough to pass the length check, fail on the field itself.
    rejected::<Breakthrough>(&bt("P".repeat(9)));
    rejected::<LinesOfAction>("8/88/8/8/8/8/8/8 b");
    rejected::<Kalah>("4,4,4,4,4,4,4/4,4,4,4,4,4/0-0 s");
    rejected::<TicTacToe>(".../.../.../... x");
    rejected::<Gomoku>(&std::format!("{}15 b", "15/".repeat(15)));
}

#[test]
fn the_longest_gomoku_position_fits() {
    // Alternate stones on every square: the longest board string (15 × 15 + 14 slashes).
    let row = "XOXOXOXOXOXOXOX";
    let s = std::format!("{} b exact5", [row; 15].join("/"));
    assert_eq!(s.len(), 248);
    assert!(s.len() <= MAX_POSITION_LEN);
    assert!(!matches!(
        Gomoku::parse_position(&s).map_err(|e| e.problem),
        Err(Problem::TooLong { .. })
    ));
}
