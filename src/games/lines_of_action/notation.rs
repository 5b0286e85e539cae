//! Lines of Action notation: moves `b1-b3` / `c1xe3` / `pass` and the position string
//! (`X` Black, `O` White, digits for empty squares, side to move `b` or `w`).

use super::{LinesOfAction, LinesOfActionRules, Move};
use crate::game::{Game, ParseError, Player, Problem};
use crate::games::notation;
use core::fmt::{self, Write};

pub(super) fn parse_move(pos: &LinesOfAction, text: &str) -> Result<Move, ParseError> {
    if text.trim() == "pass" {
        return if pos.is_legal(Move::PASS) {
            Ok(Move::PASS)
        } else {
            Err(ParseError::new("move", Problem::Illegal))
        };
    }
    let (from, to, written_capture) = notation::parse_from_to(text)?;
    let mv = Move { from, to };
    if mv.is_pass() || !pos.is_legal(mv) {
        return Err(ParseError::new("move", Problem::Illegal));
    }
    let capture = pos.pieces(pos.side_to_move().opponent()).contains(to);
    notation::check_capture_mark(capture, written_capture)?;
    Ok(mv)
}

pub(super) fn write_move<W: Write>(pos: &LinesOfAction, mv: Move, out: &mut W) -> fmt::Result {
    if mv.is_pass() {
        return out.write_str("pass");
    }
    let capture = pos
        .pieces(pos.side_to_move().opponent())
        .contains(mv.to & 63);
    notation::write_from_to(mv.from, mv.to, capture, out)
}

/// How the side to move is written: `b` Black (moves first), `w` White.
const SIDES: [(&str, Player); 2] = [("b", Player::First), ("w", Player::Second)];
/// The piece letters: `X` Black, `O` White.
const LETTERS: [char; 2] = ['X', 'O'];

pub(super) fn parse_position(text: &str) -> Result<LinesOfAction, ParseError> {
    let header = notation::parse_header(text, &SIDES)?.no_options()?;
    let [black, white] = notation::parse_board_8x8(header.board, LETTERS)?;
    LinesOfAction::from_bitboards(black, white, header.side, LinesOfActionRules::default())
}

pub(super) fn write_position<W: Write>(pos: &LinesOfAction, out: &mut W) -> fmt::Result {
    let pieces = [pos.pieces(Player::First), pos.pieces(Player::Second)];
    notation::write_board_8x8(out, pieces, LETTERS)?;
    out.write_str(match pos.side_to_move() {
        Player::First => " b",
        Player::Second => " w",
    })
}
