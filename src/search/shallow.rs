//! αβ playouts (Winands & Björnsson): each playout move is chosen by a 2-ply αβ search on the
//! evaluation function, the policy that made MC-LOA strong.
//!
//! At ply 1 the legal moves are ordered by the game's move bias (LOA: move categories) so good
//! moves come first and prune the rest; an immediately winning move is played at once. At ply 2
//! the search is selective: only the opponent's [`SELECTIVE_REPLIES`] replies with the highest
//! move bias are searched, best first, with αβ: a move's value is the worst evaluation (for the
//! mover) over them, and they stop as soon as the move cannot beat the best one found. Ties
//! among equally valued moves are broken at random so playouts differ.
//!
//! [`two_ply_move`] searches every ply-1 move, unless the game supplies its own playout move
//! ([`Game::alpha_beta_playout_move`]). [`two_ply_move_selective`] also cuts ply 1 to the
//! `first_ply` moves of highest bias (MC-LOA's selective search); it is the reference definition
//! of Lines of Action's fast version, which must choose exactly the same moves.

use crate::SearchRng;
use crate::game::{Game, MoveBuffer, Outcome};
use crate::rng::below;

/// How many of the opponent's replies (highest move bias first) the second ply searches.
pub const SELECTIVE_REPLIES: usize = 8;

/// Indices of `moves` ordered by move bias, best first (stable: equal biases keep generation
/// order), into `order`; returns how many.
fn order_by_bias<G: Game>(game: &G, moves: &[G::Move], order: &mut [u16; 256]) -> usize {
    let n = moves.len().min(order.len());
    let mut keys = [0f32; 256];
    for i in 0..n {
        keys[i] = game.move_bias(moves[i]).unwrap_or(0.0);
        let mut j = i;
        while j > 0 && keys[order[j - 1] as usize] < keys[i] {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = i as u16;
    }
    n
}

/// The αβ-playout move for the side to move in `game` (not finished): the game's own
/// [`Game::alpha_beta_playout_move`], which by default is [`generic_two_ply_move`]. `game` is
/// restored.
#[inline]
pub fn two_ply_move<G: Game>(game: &mut G, eval: G::Eval, rng: &mut SearchRng) -> G::Move {
    game.alpha_beta_playout_move(eval, rng)
}

/// The 2-ply αβ choice over every ply-1 move, through `make`/`undo`/`evaluate`. `game` is
/// restored.
pub fn generic_two_ply_move<G: Game>(game: &mut G, eval: G::Eval, rng: &mut SearchRng) -> G::Move {
    two_ply_move_selective(game, eval, rng, usize::MAX)
}

/// The 2-ply αβ choice for the side to move in `game` (not finished) that searches only the
/// `first_ply` ply-1 moves of highest move bias. When that cuts moves away, every move is
/// first tried for an immediate win (the first winning one in bias order is played), so the cut
/// never misses a win in one. `game` is restored.
pub fn two_ply_move_selective<G: Game>(
    game: &mut G,
    eval: G::Eval,
    rng: &mut SearchRng,
    first_ply: usize,
) -> G::Move {
    let me = game.side_to_move();
    let mut first = G::MoveList::default();
    game.legal_moves(&mut first);
    // Order by move bias, best first (a small insertion sort over indices: no allocation).
    let moves = first.moves();
    let mut order = [0u16; 256];
    let all = order_by_bias(game, moves, &mut order);
    let n = all.min(first_ply.max(1));
    if n < all {
        for &oi in &order[..all] {
            let mv = moves[oi as usize];
            let u = game.make(mv);
            let wins = game.outcome() == Some(Outcome::Win(me));
            game.undo(mv, u);
            if wins {
                return mv;
            }
        }
    }
    let mut reply_order = [0u16; 256];
    let mut best = moves[order[0] as usize];
    let mut best_v = f32::NEG_INFINITY;
    let mut ties = 0u32;
    let mut replies = G::MoveList::default();
    for &oi in &order[..n] {
        let mv = moves[oi as usize];
        let u = game.make(mv);
        let v = if game.is_terminal() {
            game.evaluate(eval, me)
        } else {
            // The opponent minimises our evaluation; cut off once we cannot beat `best_v`.
            game.legal_moves(&mut replies);
            let rn = order_by_bias(game, replies.moves(), &mut reply_order);
            let mut worst = f32::INFINITY;
            for &ri in &reply_order[..rn.min(SELECTIVE_REPLIES)] {
                let r = replies.moves()[ri as usize];
                let ur = game.make(r);
                let e = game.evaluate(eval, me);
                game.undo(r, ur);
                if e < worst {
                    worst = e;
                    if worst < best_v {
                        break;
                    }
                }
            }
            worst
        };
        game.undo(mv, u);
        if v >= 1.0 {
            return mv;
        }
        if v > best_v {
            best_v = v;
            best = mv;
            ties = 1;
        } else if v == best_v {
            ties += 1;
            if below(rng, ties) == 0 {
                best = mv;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::breakthrough::{Breakthrough, BreakthroughEval};
    use crate::rng::seeded;

    #[test]
    fn plays_a_win_in_one_and_avoids_a_loss_in_one() {
        let mut rng = seeded(1);
        // White wins at once with a7-a8.
        let mut g = Breakthrough::parse_position("7p/P7/8/8/8/8/8/8 w").unwrap();
        let mv = two_ply_move(&mut g, BreakthroughEval::Schadd, &mut rng);
        assert_eq!(crate::game::move_string(&g, mv).as_str(), "a7-a8");
        // Black's b2 piece threatens b1; White must capture it with a1xb2 or c1xb2.
        let mut g = Breakthrough::parse_position("8/8/8/8/8/8/1p6/P1P5 w").unwrap();
        let before = g.clone();
        let mv = two_ply_move(&mut g, BreakthroughEval::Schadd, &mut rng);
        assert_eq!(g, before);
        assert_eq!(mv.to, 9, "must capture on b2");
    }
}
