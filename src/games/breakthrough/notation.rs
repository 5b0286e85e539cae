//! Breakthrough notation: moves `a2-a3` / `b2xc3` and the FEN-like position string.

use super::{Breakthrough, Move};
use crate::game::{Game, ParseError, Player, Problem};
use crate::games::notation;
use core::fmt::{self, Write};

pub(super) fn parse_move(pos: &Breakthrough, text: &str) -> Result<Move, ParseError> {
    let (from, to, written_capture) = notation::parse_from_to(text)?;
    let mv = Move { from, to };
    if !pos.is_legal(mv) {
        return Err(ParseError::new("move", Problem::Illegal));
    }
    let capture = pos.pieces(pos.side_to_move().opponent()).contains(to);
    notation::check_capture_mark(capture, written_capture)?;
    Ok(mv)
}

pub(super) fn write_move<W: Write>(pos: &Breakthrough, mv: Move, out: &mut W) -> fmt::Result {
    let capture = pos
        .pieces(pos.side_to_move().opponent())
        .contains(mv.to & 63);
    notation::write_from_to(mv.from, mv.to, capture, out)
}

/// How the side to move is written: `w` White (moves first), `b` Black.
const SIDES: [(&str, Player); 2] = [("w", Player::First), ("b", Player::Second)];
/// The piece letters: `P` White, `p` Black.
const LETTERS: [char; 2] = ['P', 'p'];

pub(super) fn parse_position(text: &str) -> Result<Breakthrough, ParseError> {
    let header = notation::parse_header(text, &SIDES)?.no_options()?;
    let [white, black] = notation::parse_board_8x8(header.board, LETTERS)?;
    Breakthrough::from_bitboards(white, black, header.side)
}

pub(super) fn write_position<W: Write>(pos: &Breakthrough, out: &mut W) -> fmt::Result {
    let pieces = [pos.pieces(Player::First), pos.pieces(Player::Second)];
    notation::write_board_8x8(out, pieces, LETTERS)?;
    out.write_str(match pos.side_to_move() {
        Player::First => " w",
        Player::Second => " b",
    })
}
