//! Playouts: from a leaf to the end of the game (or an early termination), on a copy of the
//! state, returning the reward for the first player.

use super::config::{MctsConfig, PlayoutPolicy};
use crate::SearchRng;
use crate::game::{Game, MoveBuffer, Player};
use crate::rng::unit_f32;

/// Runs one playout on `game` (which it consumes as scratch) and returns the reward for
/// [`Player::First`] in `[-1, 1]` and the number of playout moves played.
pub fn run<G: Game>(game: &mut G, cfg: &MctsConfig<G>, rng: &mut SearchRng) -> (f32, u32) {
    let p = &cfg.playout;
    if p.policy == PlayoutPolicy::Random
        && p.epsilon_greedy.is_none()
        && p.fixed_cutoff.is_none()
        && p.dynamic_cutoff.is_none()
    {
        // Nothing to look at on the way: the game's own tight loop.
        let (o, plies) = game.random_playout(rng, p.max_plies);
        return (o.map_or(0.0, |o| o.reward(Player::First)), plies);
    }
    let mut plies = 0u32;
    let mut list = G::MoveList::default();
    loop {
        if let Some(o) = game.outcome() {
            return (o.reward(Player::First), plies);
        }
        if let Some(x) = p.fixed_cutoff {
            if plies >= x {
                return (game.evaluate(cfg.eval, Player::First), plies);
            }
        }
        if let Some(t) = p.dynamic_cutoff {
            if plies.is_multiple_of(p.det_interval.max(1)) {
                let v = game.evaluate(cfg.eval, Player::First);
                if v >= t {
                    return (1.0, plies);
                }
                if v <= -t {
                    return (-1.0, plies);
                }
            }
        }
        if plies >= p.max_plies {
            return (0.0, plies);
        }
        let mv = match p.epsilon_greedy {
            Some(eps) if unit_f32(rng) >= eps => {
                game.legal_moves(&mut list);
                greedy(game, list.moves(), cfg)
            }
            _ if p.policy == PlayoutPolicy::AlphaBeta => {
                crate::search::shallow::two_ply_move(game, cfg.eval, rng)
            }
            _ => policy_move(game, p.policy, &mut list, rng),
        };
        game.make(mv);
        plies += 1;
    }
}

/// A move of `policy` in a non-terminal position.
#[inline]
fn policy_move<G: Game>(
    game: &G,
    policy: PlayoutPolicy,
    list: &mut G::MoveList,
    rng: &mut SearchRng,
) -> G::Move {
    match policy {
        PlayoutPolicy::Random => game.random_playout_move(rng),
        PlayoutPolicy::Informed | PlayoutPolicy::AlphaBeta => {
            game.legal_moves(list);
            game.informed_playout_move(list.moves(), rng)
        }
    }
}

/// The move whose resulting position evaluates best for the mover (first of equals).
fn greedy<G: Game>(game: &mut G, moves: &[G::Move], cfg: &MctsConfig<G>) -> G::Move {
    let me = game.side_to_move();
    let mut best = moves[0];
    let mut best_v = f32::NEG_INFINITY;
    for &mv in moves {
        let u = game.make(mv);
        let v = game.evaluate(cfg.eval, me);
        game.undo(mv, u);
        if v > best_v {
            best_v = v;
            best = mv;
            if v >= 1.0 {
                break;
            }
        }
    }
    best
}
