//! Gomoku notation: points `a1`–`o15` and the position string (`X`, `O` and runs of empty points
//! by rows from the top, side to move `b` or `w`, rule options `exact5` and `free`).

use super::{Gomoku, GomokuRules, Move, SIZE, WideBitboard};
use crate::game::{Game, ParseError, Player, Problem};
use crate::games::notation;
use core::fmt::{self, Write};

pub(super) fn parse_move(pos: &Gomoku, text: &str) -> Result<Move, ParseError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ParseError::new("move", Problem::Empty));
    }
    let mv = Move(Gomoku::parse_point(text)?);
    if !pos.is_legal(mv) {
        return Err(ParseError::new("move", Problem::Illegal));
    }
    Ok(mv)
}

pub(super) fn write_move<W: Write>(_pos: &Gomoku, mv: Move, out: &mut W) -> fmt::Result {
    Gomoku::write_point(mv.0, out)
}

/// How the side to move is written: `b` Black (moves first), `w` White.
const SIDES: [(&str, Player); 2] = [("b", Player::First), ("w", Player::Second)];

pub(super) fn parse_position(text: &str) -> Result<Gomoku, ParseError> {
    let header = notation::parse_header(text, &SIDES)?;
    let (board, side, fields) = (header.board, header.side, header.options);
    let mut rules = GomokuRules::default();
    for (i, flag) in fields.enumerate() {
        let slot = match flag {
            "exact5" if i == 0 => &mut rules.exact_five,
            "free" if !rules.free_opening => &mut rules.free_opening,
            _ if i >= 1 => return Err(ParseError::new("rules", Problem::Extra)),
            _ => {
                return Err(ParseError::new(
                    "rules",
                    Problem::Inconsistent("expected 'exact5', 'free', both or nothing"),
                ));
            }
        };
        *slot = true;
    }
    let (mut black, mut white) = (WideBitboard::EMPTY, WideBitboard::EMPTY);
    let mut rows = 0u16;
    for (i, row_text) in board.split('/').enumerate() {
        rows = rows.saturating_add(1);
        if i >= SIZE as usize {
            continue;
        }
        let index = i as u16 + 1;
        let row = SIZE - 1 - i as u8;
        let mut col = 0u16;
        let mut run = 0u16;
        let flush = |col: &mut u16, run: &mut u16| {
            *col = col.saturating_add(*run);
            *run = 0;
        };
        for c in row_text.chars() {
            match c {
                '0'..='9' => {
                    if run == 0 && c == '0' {
                        return Err(ParseError::at("row", index, Problem::UnexpectedChar(c)));
                    }
                    run = run.saturating_mul(10).saturating_add(c as u16 - '0' as u16);
                }
                'X' | 'O' => {
                    flush(&mut col, &mut run);
                    if col < SIZE as u16 {
                        let sq = row * 16 + col as u8;
                        if c == 'X' {
                            black.toggle(sq);
                        } else {
                            white.toggle(sq);
                        }
                    }
                    col = col.saturating_add(1);
                }
                _ => return Err(ParseError::at("row", index, Problem::UnexpectedChar(c))),
            }
        }
        flush(&mut col, &mut run);
        if col != SIZE as u16 {
            return Err(ParseError::at(
                "row",
                index,
                Problem::BadLength {
                    expected: SIZE as u16,
                    found: col,
                },
            ));
        }
    }
    if rows != SIZE as u16 {
        return Err(ParseError::new(
            "board",
            Problem::BadLength {
                expected: SIZE as u16,
                found: rows,
            },
        ));
    }
    let pos = Gomoku::from_stones(black, white, rules)?;
    if pos.side != side {
        return Err(ParseError::new(
            "side to move",
            Problem::Inconsistent(
                "Black moves when the counts are equal, White when Black has one more",
            ),
        ));
    }
    Ok(pos)
}

pub(super) fn write_position<W: Write>(pos: &Gomoku, out: &mut W) -> fmt::Result {
    crate::games::notation::write_rows(out, SIZE, SIZE, |row, col| {
        let sq = (row as usize) * 16 + col as usize;
        if pos.stones[0].contains(sq) {
            Some('X')
        } else if pos.stones[1].contains(sq) {
            Some('O')
        } else {
            None
        }
    })?;
    out.write_str(match pos.side {
        Player::First => " b",
        Player::Second => " w",
    })?;
    if pos.rules.exact_five {
        out.write_str(" exact5")?;
    }
    if pos.rules.free_opening {
        out.write_str(" free")?;
    }
    Ok(())
}
