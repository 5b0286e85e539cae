//! Breakthrough notation: moves `a2-a3` / `b2xc3` and the FEN-like position string.

use super::{Breakthrough, Move};
use crate::game::{Game, ParseError, Player, Problem};
use core::fmt::{self, Write};

pub(super) fn parse_move(pos: &Breakthrough, text: &str) -> Result<Move, ParseError> {
    let (from, to, written_capture) = crate::games::parse_from_to(text)?;
    let mv = Move { from, to };
    if !pos.is_legal(mv) {
        return Err(ParseError::new("move", Problem::Illegal));
    }
    let capture = pos.pieces(pos.side_to_move().opponent()) >> to & 1 != 0;
    crate::games::check_capture_mark(capture, written_capture)?;
    Ok(mv)
}

pub(super) fn write_move<W: Write>(pos: &Breakthrough, mv: Move, out: &mut W) -> fmt::Result {
    let capture = pos.pieces(pos.side_to_move().opponent()) >> (mv.to & 63) & 1 != 0;
    crate::games::write_from_to(mv.from, mv.to, capture, out)
}

pub(super) fn parse_position(text: &str) -> Result<Breakthrough, ParseError> {
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
    let mut white = 0u64;
    let mut black = 0u64;
    let mut ranks = 0u16;
    for (i, rank_text) in board.split('/').enumerate() {
        let index = i as u16 + 1;
        if i >= 8 {
            return Err(ParseError::new(
                "board",
                Problem::BadLength {
                    expected: 8,
                    found: board.split('/').count().min(u16::MAX as usize) as u16,
                },
            ));
        }
        let rank = 7 - i as u8;
        let mut file = 0u16;
        for c in rank_text.chars() {
            match c {
                '1'..='8' => file = file.saturating_add(c as u16 - '0' as u16),
                'P' | 'p' => {
                    if file < 8 {
                        let bit = 1u64 << (rank * 8 + file as u8);
                        if c == 'P' {
                            white |= bit;
                        } else {
                            black |= bit;
                        }
                    }
                    file = file.saturating_add(1);
                }
                _ => return Err(ParseError::at("rank", index, Problem::UnexpectedChar(c))),
            }
            if file > 8 {
                // Over-long rank: stop counting (the length error below reports it).
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
        ranks += 1;
    }
    if ranks != 8 {
        return Err(ParseError::new(
            "board",
            Problem::BadLength {
                expected: 8,
                found: ranks,
            },
        ));
    }
    let side = match side {
        "w" => Player::First,
        "b" => Player::Second,
        _ => {
            let c = side.chars().find(|&c| c != 'w' && c != 'b').unwrap_or('?');
            return Err(ParseError::new("side to move", Problem::UnexpectedChar(c)));
        }
    };
    Breakthrough::from_bitboards(white, black, side)
}

pub(super) fn write_position<W: Write>(pos: &Breakthrough, out: &mut W) -> fmt::Result {
    let (white, black) = (pos.pieces(Player::First), pos.pieces(Player::Second));
    crate::games::write_rows(out, 8, 8, |rank, file| {
        let bit = 1u64 << (rank * 8 + file);
        if white & bit != 0 {
            Some('P')
        } else if black & bit != 0 {
            Some('p')
        } else {
            None
        }
    })?;
    out.write_str(match pos.side_to_move() {
        Player::First => " w",
        Player::Second => " b",
    })
}
