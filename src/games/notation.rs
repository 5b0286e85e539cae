//! Notation shared by the games: the header of every position string (board, side to move,
//! rule options), the 8×8 board of the piece-moving games, squares such as `e4` and moves such
//! as `a2-a3` / `b2xc3`.
//!
//! Every position string is `<board> <side to move> [<option> …]`, fields separated by ASCII
//! whitespace. [`parse_header`] splits that off once for all five games (after the
//! [`MAX_POSITION_LEN`](crate::game::MAX_POSITION_LEN) check), so the games differ only in their
//! board field, their side letters and their options.

use crate::game::{ParseError, Player, Problem, check_position_len};
use crate::games::bitboard::Bitboard;
use core::fmt::{self, Write};
use core::str::SplitAsciiWhitespace;

/// The fields of a position string before the game-specific parts are read.
pub(crate) struct Header<'a> {
    /// The board field, not yet parsed.
    pub board: &'a str,
    /// The side to move.
    pub side: Player,
    /// The fields after the side to move (rule options), in order.
    pub options: SplitAsciiWhitespace<'a>,
}

impl Header<'_> {
    /// Rejects any field after the side to move, for games whose strings carry no options.
    pub fn no_options(mut self) -> Result<Self, ParseError> {
        if self.options.next().is_some() {
            return Err(ParseError::new("side to move", Problem::Extra));
        }
        Ok(self)
    }
}

/// Splits `text` into its board, its side to move (one of the spellings in `sides`) and the
/// remaining option fields. Input over [`MAX_POSITION_LEN`](crate::game::MAX_POSITION_LEN) bytes
/// is rejected before anything else is looked at. A side field that is not one of `sides` is
/// reported as [`Problem::UnexpectedChar`] with its first character that no spelling uses, or,
/// if every character is a side letter (`ww`), as [`Problem::BadLength`].
pub(crate) fn parse_header<'a>(
    text: &'a str,
    sides: &[(&str, Player)],
) -> Result<Header<'a>, ParseError> {
    check_position_len(text)?;
    let mut fields = text.split_ascii_whitespace();
    let board = fields
        .next()
        .ok_or(ParseError::new("board", Problem::Empty))?;
    let side_text = fields
        .next()
        .ok_or(ParseError::new("side to move", Problem::Missing))?;
    let Some(&(_, side)) = sides.iter().find(|(name, _)| *name == side_text) else {
        let problem = match side_text
            .chars()
            // `chars().any` rather than `str::contains`: the pattern searcher that would bring is
            // 1.5 KB of the browser's module.
            .find(|&c| !sides.iter().any(|(name, _)| name.chars().any(|n| n == c)))
        {
            Some(c) => Problem::UnexpectedChar(c),
            None => Problem::BadLength {
                expected: 1,
                found: side_text.chars().count() as u16,
            },
        };
        return Err(ParseError::new("side to move", problem));
    };
    Ok(Header {
        board,
        side,
        options: fields,
    })
}

/// Parses the board field of the 8×8 piece-moving games: eight ranks from rank 8 down to rank 1
/// separated by `/`, each a run of piece letters (`letters[0]` a piece of the first player,
/// `letters[1]` of the second) and digits `1`–`8` for that many empty squares. Returns the two
/// players' pieces; whether the position is possible is for the game to check.
pub(crate) fn parse_board_8x8(
    board: &str,
    letters: [char; 2],
) -> Result<[Bitboard; 2], ParseError> {
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
    let mut pieces = [Bitboard::EMPTY; 2];
    for (i, rank_text) in board.split('/').enumerate() {
        let index = i as u16 + 1;
        let rank = 7 - i as u8;
        let mut file = 0u16;
        for c in rank_text.chars() {
            match c {
                '1'..='8' => file = file.saturating_add(c as u16 - '0' as u16),
                _ if c == letters[0] || c == letters[1] => {
                    if file < 8 {
                        pieces[(c == letters[1]) as usize].toggle(rank * 8 + file as u8);
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
    }
    Ok(pieces)
}

/// Writes the board field of the 8×8 piece-moving games (see [`parse_board_8x8`]).
pub(crate) fn write_board_8x8<W: Write>(
    out: &mut W,
    pieces: [Bitboard; 2],
    letters: [char; 2],
) -> fmt::Result {
    write_rows(out, 8, 8, |rank, file| {
        let sq = rank * 8 + file;
        if pieces[0].contains(sq) {
            Some(letters[0])
        } else if pieces[1].contains(sq) {
            Some(letters[1])
        } else {
            None
        }
    })
}

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
