//! Breakthrough domain knowledge for the search: the informed playout policy (`ipp`) and
//! Lorentz & Horey's node priors (`np`).

use super::{Breakthrough, MAX_MOVES, Move, MoveList};
use crate::SearchRng;
use crate::game::{Game, MoveBuffer, Player};
use crate::rng::below;

/// The edge files as raw words: this module computes on the bitboards' words.
const FILE_A: u64 = super::FILE_A.0;
const FILE_H: u64 = super::FILE_H.0;

/// The rank one step from `player`'s back rank: an enemy piece there threatens to win next move.
#[inline(always)]
const fn second_rank(player: Player) -> u64 {
    match player {
        Player::First => 0xFF << 8,
        Player::Second => 0xFF << 48,
    }
}

/// The squares a capture by `us` would find "defended" in the paper's code: some piece, of
/// either side, stands on one of the two squares diagonally ahead of it (where an enemy piece
/// could recapture from). The code counts a capture as undefended only when both those squares
/// are empty or off the board.
#[inline(always)]
fn covered_ahead(pos: &Breakthrough, us: Player) -> u64 {
    let occ = pos.pieces(Player::First).0 | pos.pieces(Player::Second).0;
    // A piece of `them` there would attack the square: the enemy's attack pattern, applied to
    // every occupied square.
    match us.opponent() {
        Player::First => ((occ & !FILE_A) << 7) | ((occ & !FILE_H) << 9),
        Player::Second => ((occ & !FILE_A) >> 9) | ((occ & !FILE_H) >> 7),
    }
}

/// The informed playout policy of the paper's code (`getPlayoutMoves` with heuristics):
/// 1. a move onto the goal rank is always played (decisive move);
/// 2. if enemy pieces stand one step from our back rank, a capture of one of them is forced when
///    available (anti-decisive move: such captures are exactly the captures by a piece on our
///    back rank, which is how the code tests it; with several threats the game is lost anyway);
/// 3. otherwise a move is drawn with weight 5 for capturing an undefended piece (both squares
///    diagonally ahead of it empty, [`covered_ahead`]), 2 for any other capture and 1 for a
///    quiet move.
pub(super) fn ipp_move(pos: &Breakthrough, moves: &[Move], rng: &mut SearchRng) -> Move {
    weighted_ipp::<false>(pos, moves, rng)
}

/// The informed playout policy as the paper's text gives it: decisive and anti-decisive moves
/// as in [`ipp_move`], otherwise "capturing undefended pieces are four times more likely than
/// other moves", undefended meaning that no enemy piece could recapture.
pub(super) fn ipp_move_text(pos: &Breakthrough, moves: &[Move], rng: &mut SearchRng) -> Move {
    weighted_ipp::<true>(pos, moves, rng)
}

#[inline(always)]
fn weighted_ipp<const TEXT: bool>(pos: &Breakthrough, moves: &[Move], rng: &mut SearchRng) -> Move {
    let us = pos.side_to_move();
    let them = us.opponent();
    let enemy = pos.pieces(them).0;
    let goal = Breakthrough::goal_rank(us).0;
    let threats = enemy & second_rank(us);
    let defended = if TEXT {
        pos.attacks(them).0
    } else {
        covered_ahead(pos, us)
    };

    let mut weights = [0u8; MAX_MOVES];
    let mut total = 0u32;
    let mut rescue: Option<Move> = None;
    let mut rescues = 0u32;
    for (i, &mv) in moves.iter().enumerate() {
        let to = 1u64 << mv.to;
        if to & goal != 0 {
            return mv;
        }
        if to & threats != 0 {
            // Reservoir sampling keeps a uniform choice among the rescuing captures.
            rescues += 1;
            if below(rng, rescues) == 0 {
                rescue = Some(mv);
            }
        }
        let w = match (to & enemy == 0, to & defended == 0) {
            (true, _) => 1,
            (false, true) if TEXT => 4,
            (false, true) => 5,
            (false, false) if TEXT => 1,
            (false, false) => 2,
        };
        weights[i] = w;
        total += w as u32;
    }
    if let Some(mv) = rescue {
        return mv;
    }
    let mut r = below(rng, total);
    for (i, &w) in weights[..moves.len()].iter().enumerate() {
        if r < w as u32 {
            return moves[i];
        }
        r -= w as u32;
    }
    moves[moves.len() - 1]
}

/// The list [`ipp_move`] draws from, without the weights: a decisive move alone if there is one
/// (the first, as the code takes the first it finds), else the anti-decisive captures if there
/// are any, else every move.
pub(super) fn ipp_candidates(pos: &Breakthrough, moves: &[Move], out: &mut MoveList) {
    let us = pos.side_to_move();
    let goal = Breakthrough::goal_rank(us).0;
    let threats = pos.pieces(us.opponent()).0 & second_rank(us);
    out.clear();
    if let Some(&mv) = moves.iter().find(|m| (1u64 << m.to) & goal != 0) {
        out.push_move(mv);
        return;
    }
    for &mv in moves {
        if (1u64 << mv.to) & threats != 0 {
            out.push_move(mv);
        }
    }
    if out.is_empty() {
        for &mv in moves {
            out.push_move(mv);
        }
    }
}

/// The weight of `mv` in [`ipp_move`]'s draw: 5, 2 or 1.
pub(super) fn ipp_weight(pos: &Breakthrough, mv: Move) -> u32 {
    let us = pos.side_to_move();
    let to = 1u64 << mv.to;
    if to & pos.pieces(us.opponent()).0 == 0 {
        1
    } else if to & covered_ahead(pos, us) == 0 {
        5
    } else {
        2
    }
}

/// Lorentz & Horey's prior win rate for playing `mv` in `pos`, from the safety of the
/// destination square after the move.
///
/// Attackers are enemy pieces on the two squares diagonally ahead of the destination; defenders
/// are the mover's pieces on the two squares diagonally behind it. A move is safe if attackers ≤
/// defenders; a safe move's rate depends on the ranks still to go (1 → 1.0, 2 → 0.95, 3 → 0.85,
/// 4 → 0.75, 5 → 0.60, more → 0.30); an unsafe capture rates 0.60, any other unsafe move 0.30.
pub(super) fn node_prior(pos: &Breakthrough, mv: Move) -> f32 {
    let us = pos.side_to_move();
    let them = us.opponent();
    let to = 1u64 << mv.to;
    let capture = pos.pieces(them).0 & to != 0;
    let own_after = (pos.pieces(us).0 & !(1u64 << mv.from)) | to;
    let enemy_after = pos.pieces(them).0 & !to;
    let (ahead, behind) = match us {
        Player::First => (
            ((to & !FILE_A) << 7) | ((to & !FILE_H) << 9),
            ((to & !FILE_A) >> 9) | ((to & !FILE_H) >> 7),
        ),
        Player::Second => (
            ((to & !FILE_A) >> 9) | ((to & !FILE_H) >> 7),
            ((to & !FILE_A) << 7) | ((to & !FILE_H) << 9),
        ),
    };
    let attackers = (ahead & enemy_after).count_ones();
    let defenders = (behind & own_after).count_ones();
    let rank = mv.to / 8;
    let to_go = match us {
        Player::First => 7 - rank,
        Player::Second => rank,
    };
    if attackers <= defenders {
        match to_go {
            0 | 1 => 1.0,
            2 => 0.95,
            3 => 0.85,
            4 => 0.75,
            5 => 0.60,
            _ => 0.30,
        }
    } else if capture {
        0.60
    } else {
        0.30
    }
}

/// The paper's static αβ move order: 4 decisive (reaches the goal rank), 3 anti-decisive
/// (captures an enemy piece one step from our back rank), 2 captures a defenceless piece,
/// 1 any other capture, 0 quiet.
pub(super) fn order_class(pos: &Breakthrough, mv: Move) -> u8 {
    let us = pos.side_to_move();
    let them = us.opponent();
    let to = 1u64 << mv.to;
    if to & Breakthrough::goal_rank(us).0 != 0 {
        4
    } else if to & pos.pieces(them).0 & second_rank(us) != 0 {
        3
    } else if to & pos.pieces(them).0 != 0 {
        if to & pos.attacks(them).0 == 0 { 2 } else { 1 }
    } else {
        0
    }
}
