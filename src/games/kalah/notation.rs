//! Kalah notation: moves `1`–`6` (the mover's houses from its left) and the position string
//! (South's houses, North's houses, the stores, the side to move `s` or `n`, the rules).

use super::{HOUSES, Kalah, KalahRules, Move, STONES};
use crate::game::{Game, ParseError, Player, Problem};
use crate::games::notation;
use core::fmt::{self, Write};

pub(super) fn parse_move(pos: &Kalah, text: &str) -> Result<Move, ParseError> {
    let text = text.trim();
    let mut chars = text.chars();
    let c = chars
        .next()
        .ok_or(ParseError::new("move", Problem::Empty))?;
    if chars.next().is_some() {
        return Err(ParseError::new(
            "move",
            Problem::BadLength {
                expected: 1,
                found: text.chars().count().min(u16::MAX as usize) as u16,
            },
        ));
    }
    let mv = match c {
        '1'..='6' => Move(c as u8 - b'1'),
        '0' | '7'..='9' => return Err(ParseError::new("move", Problem::OutOfRange)),
        _ => return Err(ParseError::new("move", Problem::UnexpectedChar(c))),
    };
    if !pos.is_legal(mv) {
        return Err(ParseError::new("move", Problem::Illegal));
    }
    Ok(mv)
}

pub(super) fn write_move<W: Write>(_pos: &Kalah, mv: Move, out: &mut W) -> fmt::Result {
    out.write_char(char::from(b'1' + mv.0 % 6))
}

/// How the side to move is written: `s` South (moves first), `n` North.
const SIDES: [(&str, Player); 2] = [("s", Player::First), ("n", Player::Second)];

pub(super) fn parse_position(text: &str) -> Result<Kalah, ParseError> {
    let header = notation::parse_header(text, &SIDES)?;
    let (board, side, mut fields) = (header.board, header.side, header.options);
    let rules = match fields.next() {
        None | Some("standard") => KalahRules::Standard,
        Some("empty-capture") => KalahRules::EmptyCapture,
        Some("paper-code") => KalahRules::PaperCode,
        Some(_) => {
            return Err(ParseError::new(
                "rules",
                Problem::Inconsistent("expected 'standard', 'empty-capture' or 'paper-code'"),
            ));
        }
    };
    if fields.next().is_some() {
        return Err(ParseError::new("rules", Problem::Extra));
    }
    let mut groups = board.split('/');
    let mut houses = [[0u8; HOUSES]; 2];
    for (p, row) in houses.iter_mut().enumerate() {
        let field = if p == 0 {
            "south houses"
        } else {
            "north houses"
        };
        let group = groups
            .next()
            .ok_or(ParseError::new(field, Problem::Missing))?;
        let mut count = 0u16;
        for (i, num) in group.split(',').enumerate() {
            if i >= HOUSES {
                // Over-long row: count the rest without parsing it (reported below).
                count = count.saturating_add(1);
                continue;
            }
            row[i] = parse_count(num, field, i as u16 + 1)?;
            count += 1;
        }
        if count as usize != HOUSES {
            return Err(ParseError::new(
                field,
                Problem::BadLength {
                    expected: HOUSES as u16,
                    found: count,
                },
            ));
        }
    }
    let stores_text = groups
        .next()
        .ok_or(ParseError::new("stores", Problem::Missing))?;
    if groups.next().is_some() {
        return Err(ParseError::new("stores", Problem::Extra));
    }
    let (s, n) = stores_text
        .split_once('-')
        .ok_or(ParseError::new("stores", Problem::Missing))?;
    let stores = [parse_count(s, "stores", 1)?, parse_count(n, "stores", 2)?];
    Kalah::from_board(houses, stores, side, rules)
}

pub(super) fn write_position<W: Write>(pos: &Kalah, out: &mut W) -> fmt::Result {
    for p in Player::BOTH {
        for h in 0..HOUSES as u8 {
            if h > 0 {
                out.write_char(',')?;
            }
            write!(out, "{}", pos.house(p, h))?;
        }
        out.write_char('/')?;
    }
    write!(
        out,
        "{}-{} {}",
        pos.store(Player::First),
        pos.store(Player::Second),
        match pos.side {
            Player::First => 's',
            Player::Second => 'n',
        }
    )?;
    match pos.rules {
        KalahRules::Standard => {}
        KalahRules::EmptyCapture => out.write_str(" empty-capture")?,
        KalahRules::PaperCode => out.write_str(" paper-code")?,
    }
    Ok(())
}

/// Parses a stone count `0..=48` (the `index`-th of `field`).
fn parse_count(text: &str, field: &'static str, index: u16) -> Result<u8, ParseError> {
    if text.is_empty() {
        return Err(ParseError::at(field, index, Problem::Empty));
    }
    if let Some(c) = text.chars().find(|c| !c.is_ascii_digit()) {
        return Err(ParseError::at(field, index, Problem::UnexpectedChar(c)));
    }
    match text.parse::<u32>() {
        Ok(n) if n <= STONES as u32 => Ok(n as u8),
        _ => Err(ParseError::at(field, index, Problem::OutOfRange)),
    }
}
