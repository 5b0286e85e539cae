//! The games. One file per game; each implements [`crate::Game`].

pub mod breakthrough;
pub mod gomoku;
pub mod kalah;
pub mod lines_of_action;
pub mod tictactoe;

#[cfg(test)]
mod parse_limits;

use crate::game::{ParseError, Problem};
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
