//! The games. One file per game; each implements [`crate::Game`].

pub mod breakthrough;
pub mod gomoku;
pub mod kalah;
pub mod lines_of_action;
pub mod tictactoe;

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
