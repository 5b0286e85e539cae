//! Lines of Action notation: moves `b1-b3` / `c1xe3` / `pass` and the position string
//! (`X` Black, `O` White, digits for empty squares, side to move `b` or `w`).

use super::{LinesOfAction, LoaRules, Move};
use crate::game::{Game, ParseError, Player, Problem};
use core::fmt::{self, Write};

pub(super) fn parse_move(pos: &LinesOfAction, text: &str) -> Result<Move, ParseError> {
    if text.trim() == "pass" {
        return if pos.is_legal(Move::PASS) {
            Ok(Move::PASS)
        } else {
            Err(ParseError::new("move", Problem::Illegal))
        };
    }
    let (from, to, written_capture) = crate::games::parse_from_to(text)?;
    let mv = Move { from, to };
    if mv.is_pass() || !pos.is_legal(mv) {
        return Err(ParseError::new("move", Problem::Illegal));
    }
    let capture = pos.pieces(pos.side_to_move().opponent()) >> to & 1 != 0;
    crate::games::check_capture_mark(capture, written_capture)?;
    Ok(mv)
}

pub(super) fn write_move<W: Write>(pos: &LinesOfAction, mv: Move, out: &mut W) -> fmt::Result {
    if mv.is_pass() {
        return out.write_str("pass");
    }
    let capture = pos.pieces(pos.side_to_move().opponent()) >> (mv.to & 63) & 1 != 0;
    crate::games::write_from_to(mv.from, mv.to, capture, out)
}

pub(super) fn parse_position(text: &str) -> Result<LinesOfAction, ParseError> {
    crate::game::check_position_len(text)?;
    let mut fields = text.split_ascii_whitespace();
    let board = fields
        .next()
        .ok_or(ParseError::new("board", Problem::Empty))?;
    let side = fields
        .next()
        .ok_or(ParseError::new("side to move", Problem::Missing))?;
    if fields.next().is_some() {
        return Err(ParseError::new("side to move", Problem::Extra));
    }
    let mut black = 0u64;
    let mut white = 0u64;
    let ranks = board.split('/').count();
    if ranks != 8 {
        return Err(ParseError::new(
            "board",
            Problem::BadLength {
                expected: 8,
                found: ranks.min(u16::MAX as usize) as u16,
            },
        ));
    }
    for (i, rank_text) in board.split('/').enumerate() {
        let index = i as u16 + 1;
        let rank = 7 - i as u8;
        let mut file = 0u16;
        for c in rank_text.chars() {
            match c {
                '1'..='8' => file = file.saturating_add(c as u16 - '0' as u16),
                'X' | 'O' => {
                    if file < 8 {
                        let bit = 1u64 << (rank * 8 + file as u8);
                        if c == 'X' {
                            black |= bit;
                        } else {
                            white |= bit;
                        }
                    }
                    file = file.saturating_add(1);
                }
                _ => return Err(ParseError::at("rank", index, Problem::UnexpectedChar(c))),
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            return Err(ParseError::at(
                "rank",
                index,
                Problem::BadLength {
                    expected: 8,
                    found: file,
                },
            ));
        }
    }
    let side = match side {
        "b" => Player::First,
        "w" => Player::Second,
        _ => {
            let problem = match side.chars().find(|&c| c != 'w' && c != 'b') {
                Some(c) => Problem::UnexpectedChar(c),
                None => Problem::BadLength {
                    expected: 1,
                    found: side.len().min(u16::MAX as usize) as u16,
                },
            };
            return Err(ParseError::new("side to move", problem));
        }
    };
    LinesOfAction::from_bitboards(black, white, side, LoaRules::default())
}

pub(super) fn write_position<W: Write>(pos: &LinesOfAction, out: &mut W) -> fmt::Result {
    let (black, white) = (pos.pieces(Player::First), pos.pieces(Player::Second));
    crate::games::write_rows(out, 8, 8, |rank, file| {
        let bit = 1u64 << (rank * 8 + file);
        if black & bit != 0 {
            Some('X')
        } else if white & bit != 0 {
            Some('O')
        } else {
            None
        }
    })?;
    out.write_str(match pos.side_to_move() {
        Player::First => " b",
        Player::Second => " w",
    })
}
