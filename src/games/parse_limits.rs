//! Every game's position parser under hostile lengths: the over-long inputs of issue 13 (which
//! used to wrap a `u16` count and parse as valid positions) are rejected; the longest position a
//! game writes still parses. The generic "longer than
//! [`MAX_POSITION_LEN`](crate::game::MAX_POSITION_LEN) is rejected" check runs for every game in
//! the conformance suite (`src/games/conformance.rs`).

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

#[test]
fn the_length_check_accepts_exactly_the_limit() {
    // Every parser's over-long rejection is part of the conformance suite
    // (src/games/conformance.rs); this pins the shared check's boundary.
    assert!(check_position_len(&"x".repeat(MAX_POSITION_LEN)).is_ok());
    assert_eq!(
        check_position_len(&"x".repeat(MAX_POSITION_LEN + 1))
            .unwrap_err()
            .problem,
        Problem::TooLong {
            max: MAX_POSITION_LEN as u16
        }
    );
}

#[test]
fn the_issue_13_wrapping_inputs_are_rejected() {
    // A Breakthrough rank of 8,193 `8`s, or of 65,544 `P`s (65,536 + 8 wraps to 8).
    let breakthrough = |rank: String| std::format!("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/{rank} w");
    rejected::<Breakthrough>(&breakthrough("8".repeat(8193)));
    rejected::<Breakthrough>(&breakthrough("P".repeat(65_544)));
    // A Kalah row of 65,542 houses (wraps to 6).
    let houses = ["4"; 65_542].join(",");
    rejected::<Kalah>(&std::format!("{houses}/4,4,4,4,4,4/0-0 s"));
    // A Tic-Tac-Toe string with 65,536 `/` (65,537 rows wrap to 1).
    rejected::<TicTacToe>(&std::format!("...{} x", "/".repeat(65_536)));
    // The same shapes, short enough to pass the length check, fail on the field itself.
    rejected::<Breakthrough>(&breakthrough("P".repeat(9)));
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
