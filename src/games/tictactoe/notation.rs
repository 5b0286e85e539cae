//! Tic-Tac-Toe notation: squares `A1`–`C3` and the position string (`X`, `O`, `.` by rows from
//! the top, side to move `x` or `o`).

use super::{Move, TicTacToe};
use crate::game::{Game, ParseError, Player, Problem};
use crate::games::notation;
use core::fmt::{self, Write};

pub(super) fn parse_move(pos: &TicTacToe, text: &str) -> Result<Move, ParseError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ParseError::new("move", Problem::Empty));
    }
    let mv = Move(TicTacToe::parse_square(text)?);
    if !pos.is_legal(mv) {
        return Err(ParseError::new("move", Problem::Illegal));
    }
    Ok(mv)
}

pub(super) fn write_move<W: Write>(_pos: &TicTacToe, mv: Move, out: &mut W) -> fmt::Result {
    TicTacToe::write_square(mv.0, out)
}

/// How the side to move is written: `x` (moves first) or `o`, either case.
const SIDES: [(&str, Player); 4] = [
    ("x", Player::First),
    ("X", Player::First),
    ("o", Player::Second),
    ("O", Player::Second),
];

pub(super) fn parse_position(text: &str) -> Result<TicTacToe, ParseError> {
    let header = notation::parse_header(text, &SIDES)?.no_options()?;
    let (board, side) = (header.board, header.side);
    let (mut x, mut o) = (0u16, 0u16);
    let mut rows = 0u16;
    for (i, row_text) in board.split('/').enumerate() {
        rows = rows.saturating_add(1);
        if i >= 3 {
            continue;
        }
        let row = 2 - i as u8;
        let mut col = 0u16;
        for c in row_text.chars() {
            if col < 3 {
                let bit = 1u16 << (row * 3 + col as u8);
                match c {
                    'X' | 'x' => x |= bit,
                    'O' | 'o' => o |= bit,
                    '.' => {}
                    _ => {
                        return Err(ParseError::at(
                            "row",
                            i as u16 + 1,
                            Problem::UnexpectedChar(c),
                        ));
                    }
                }
            }
            col = col.saturating_add(1);
        }
        if col != 3 {
            return Err(ParseError::at(
                "row",
                i as u16 + 1,
                Problem::BadLength {
                    expected: 3,
                    found: col,
                },
            ));
        }
    }
    if rows != 3 {
        return Err(ParseError::new(
            "board",
            Problem::BadLength {
                expected: 3,
                found: rows,
            },
        ));
    }
    let pos = TicTacToe::from_marks(x, o)?;
    if side != pos.side {
        return Err(ParseError::new(
            "side to move",
            Problem::Inconsistent("X moves when the counts are equal, O when X has one more"),
        ));
    }
    Ok(pos)
}

pub(super) fn write_position<W: Write>(pos: &TicTacToe, out: &mut W) -> fmt::Result {
    for row in (0..3).rev() {
        for col in 0..3 {
            let sq = row * 3 + col;
            out.write_char(if pos.marks[0] >> sq & 1 != 0 {
                'X'
            } else if pos.marks[1] >> sq & 1 != 0 {
                'O'
            } else {
                '.'
            })?;
        }
        if row > 0 {
            out.write_char('/')?;
        }
    }
    out.write_str(match pos.side {
        Player::First => " x",
        Player::Second => " o",
    })
}
