//! The games. One file per game; each implements [`crate::Game`].

pub mod breakthrough;
pub mod gomoku;
pub mod kalah;
pub mod lines_of_action;
pub mod tictactoe;

#[cfg(test)]
mod parse_limits;

use crate::game::{ParseError, Problem};

/// The game registry: every game built in, one line each (its variant name, its id, its name on
/// the command line, its type). Hosts generate what depends on the set of games from it by
/// passing a callback macro: `game_registry!([my_macro] {my args})` expands to
/// `my_macro! { {my args} Breakthrough = 0, "breakthrough" => …::Breakthrough; … }`. The C ABI's
/// `IMCTS_GAME_*` ids, the command line's game names and dispatch ([`with_game_named!`](crate::with_game_named)), and
/// the fuzz targets ([`with_game_id!`](crate::with_game_id)) all come from here. Adding a game: its folder under
/// `src/games/`, its `pub mod` above, one line here, and its `IMCTS_GAME_*` constant in
/// `ffi/src/engine.rs` (a compile-time check keeps it equal to the id here).
#[macro_export]
macro_rules! game_registry {
    ([$($callback:tt)*] $args:tt) => {
        $($callback)*! { $args
            Breakthrough = 0, "breakthrough" => $crate::games::breakthrough::Breakthrough;
            LinesOfAction = 1, "loa" => $crate::games::lines_of_action::LinesOfAction;
            Kalah = 2, "kalah" => $crate::games::kalah::Kalah;
            TicTacToe = 3, "tictactoe" => $crate::games::tictactoe::TicTacToe;
            Gomoku = 4, "gomoku" => $crate::games::gomoku::Gomoku;
        }
    };
}

/// Runs `$body` with the type alias `$G` bound to the game named `$name` in the
/// [`game_registry!`]; for any other name, `$other` with `$n` bound to it.
///
/// ```
/// let moves = imcts::with_game_named!("kalah", G => <G as imcts::Game>::MAX_MOVES, _n => 0);
/// assert_eq!(moves, 6);
/// ```
#[macro_export]
macro_rules! with_game_named {
    ($name:expr, $G:ident => $body:expr, $n:ident => $other:expr) => {
        $crate::game_registry!([$crate::__with_game_named_arms] {($name) $G ($body) $n ($other)})
    };
}

/// Runs `$body` with the type alias `$G` bound to the game with id `$id` (a `u32`) in the
/// [`game_registry!`]; for any other id, `$other` with `$n` bound to it.
#[macro_export]
macro_rules! with_game_id {
    ($id:expr, $G:ident => $body:expr, $n:ident => $other:expr) => {
        $crate::game_registry!([$crate::__with_game_id_arms] {($id) $G ($body) $n ($other)})
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_named_arms {
    ({($name:expr) $G:ident ($body:expr) $n:ident ($other:expr)}
     $($variant:ident = $id:literal, $gname:literal => $ty:ty;)*) => {
        match $name {
            $($gname => {
                type $G = $ty;
                $body
            })*
            $n => $other,
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_id_arms {
    ({($value:expr) $G:ident ($body:expr) $n:ident ($other:expr)}
     $($variant:ident = $id:literal, $gname:literal => $ty:ty;)*) => {
        match $value {
            $($id => {
                type $G = $ty;
                $body
            })*
            $n => $other,
        }
    };
}

macro_rules! registry_names {
    ({} $($variant:ident = $id:literal, $gname:literal => $ty:ty;)*) => {
        /// Every game's name, in id order (from the [`game_registry!`]).
        pub const NAMES: &[&str] = &[$($gname),*];
    };
}
game_registry!([registry_names] {});
use core::fmt::{self, Write};

/// Writes a board the way every FEN-like position string here does: rows from the top,
/// separated by `/`, each cell a piece letter or part of a run of empty cells written as its
/// length. `cell(row, column)` gives the letter, `None` for an empty cell; rows count from the
/// bottom (row 0), so the first row written is `rows − 1`.
pub(crate) fn write_rows<W: Write>(
    out: &mut W,
    rows: u8,
    columns: u8,
    cell: impl Fn(u8, u8) -> Option<char>,
) -> fmt::Result {
    for row in (0..rows).rev() {
        let mut empty = 0u8;
        for column in 0..columns {
            match cell(row, column) {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        write!(out, "{empty}")?;
                        empty = 0;
                    }
                    out.write_char(c)?;
                }
            }
        }
        if empty > 0 {
            write!(out, "{empty}")?;
        }
        if row > 0 {
            out.write_char('/')?;
        }
    }
    Ok(())
}

/// Parses a square such as `e4` into its index (a1 = 0).
pub(crate) fn parse_square(text: &str, field: &'static str) -> Result<u8, ParseError> {
    let b = text.as_bytes();
    if b.is_empty() {
        return Err(ParseError::new(field, Problem::Missing));
    }
    if b.len() != 2 {
        return Err(ParseError::new(
            field,
            Problem::BadLength {
                expected: 2,
                found: text.chars().count() as u16,
            },
        ));
    }
    let file = match b[0] {
        c @ b'a'..=b'h' => c - b'a',
        c => {
            return Err(ParseError::new(
                field,
                Problem::UnexpectedChar(char::from(c)),
            ));
        }
    };
    let rank = match b[1] {
        c @ b'1'..=b'8' => c - b'1',
        c => {
            return Err(ParseError::new(
                field,
                Problem::UnexpectedChar(char::from(c)),
            ));
        }
    };
    Ok(rank * 8 + file)
}

/// Writes a square index as `e4`.
pub(crate) fn write_square<W: Write>(sq: u8, out: &mut W) -> fmt::Result {
    out.write_char(char::from(b'a' + sq % 8))?;
    out.write_char(char::from(b'1' + sq / 8))
}

/// Parses the move notation of the 8×8 piece-moving games, `a2-a3` (quiet) or `b2xc3`
/// (capture), after trimming: the syntax only, into `(from, to, written as a capture)`.
pub(crate) fn parse_from_to(text: &str) -> Result<(u8, u8, bool), ParseError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ParseError::new("move", Problem::Empty));
    }
    if let Some(c) = text.chars().find(|c| !c.is_ascii()) {
        return Err(ParseError::new("move", Problem::UnexpectedChar(c)));
    }
    if text.len() != 5 {
        return Err(ParseError::new(
            "move",
            Problem::BadLength {
                expected: 5,
                found: text.len() as u16,
            },
        ));
    }
    let from = parse_square(&text[0..2], "from square")?;
    let sep = text.as_bytes()[2];
    if sep != b'-' && sep != b'x' {
        return Err(ParseError::new(
            "separator",
            Problem::UnexpectedChar(char::from(sep)),
        ));
    }
    let to = parse_square(&text[3..5], "to square")?;
    Ok((from, to, sep == b'x'))
}

/// Checks that a move was written with `x` exactly when it captures.
pub(crate) fn check_capture_mark(capture: bool, written_capture: bool) -> Result<(), ParseError> {
    if capture == written_capture {
        return Ok(());
    }
    Err(ParseError::new(
        "separator",
        Problem::Inconsistent(if capture {
            "a capture is written with 'x'"
        } else {
            "a quiet move is written with '-'"
        }),
    ))
}

/// Writes `a2-a3` or, for a capture, `b2xc3`.
pub(crate) fn write_from_to<W: Write>(from: u8, to: u8, capture: bool, out: &mut W) -> fmt::Result {
    write_square(from & 63, out)?;
    out.write_char(if capture { 'x' } else { '-' })?;
    write_square(to & 63, out)
}
