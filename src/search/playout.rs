//! Playouts: from a leaf to the end of the game (or an early termination), on a copy of the
//! state, returning the reward for the first player.

use super::config::{MctsConfig, PlayoutPolicy};
use crate::SearchRng;
use crate::game::{Game, MoveBuffer, Player};
use crate::rng::{below, unit_f32};

/// Runs one playout on `game` (which it consumes as scratch) and returns the reward for
/// [`Player::First`] in `[-1, 1]` and the number of playout moves played.
pub fn run<G: Game>(game: &mut G, cfg: &MctsConfig<G>, rng: &mut SearchRng) -> (f32, u32) {
    run_inner::<G, false>(game, cfg, rng, cfg.playout.max_plies)
}

/// [`run`] for the BBQ options ([`super::bbq`]): stops as a draw after `max_plies` playout moves
/// (the depth cap left below the leaf, or [`PlayoutConfig::max_plies`](super::config::PlayoutConfig)
/// if smaller) and draws moves from [`Game::candidate_moves`] when `cfg.bbq.dist` is set.
pub fn run_bbq<G: Game>(
    game: &mut G,
    cfg: &MctsConfig<G>,
    rng: &mut SearchRng,
    max_plies: u32,
) -> (f32, u32) {
    let max_plies = max_plies.min(cfg.playout.max_plies);
    if cfg.bbq.dist.is_some() {
        run_inner::<G, true>(game, cfg, rng, max_plies)
    } else {
        run_inner::<G, false>(game, cfg, rng, max_plies)
    }
}

/// The playout loop; `DIST` draws moves from the Dist(k) candidates. Monomorphised so the
/// default playout carries no trace of the option.
#[inline(always)]
fn run_inner<G: Game, const DIST: bool>(
    game: &mut G,
    cfg: &MctsConfig<G>,
    rng: &mut SearchRng,
    max_plies: u32,
) -> (f32, u32) {
    let p = &cfg.playout;
    if !DIST
        && p.policy == PlayoutPolicy::Random
        && p.epsilon_greedy.is_none()
        && p.fixed_cutoff.is_none()
        && p.dynamic_cutoff.is_none()
    {
        // Nothing to look at on the way: the game's own tight loop.
        let (o, plies) = game.random_playout(rng, max_plies);
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
            if plies.is_multiple_of(p.det_interval) {
                let v = game.evaluate(cfg.eval, Player::First);
                if v >= t {
                    return (1.0, plies);
                }
                if v <= -t {
                    return (-1.0, plies);
                }
            }
        }
        if plies >= max_plies {
            return (0.0, plies);
        }
        let mv = if DIST {
            let k = cfg.bbq.dist.unwrap_or(0);
            game.candidate_moves(k, &mut list);
            match p.epsilon_greedy {
                Some(eps) if unit_f32(rng) >= eps => greedy(game, list.moves(), cfg),
                _ => match p.policy {
                    PlayoutPolicy::Random => {
                        let moves = list.moves();
                        moves[below(rng, moves.len() as u32) as usize]
                    }
                    PlayoutPolicy::Informed => game.informed_playout_move(list.moves(), rng),
                    PlayoutPolicy::AlphaBeta => {
                        crate::search::shallow::two_ply_move(game, cfg.eval, rng)
                    }
                },
            }
        } else {
            match p.epsilon_greedy {
                Some(eps) if unit_f32(rng) >= eps => {
                    game.legal_moves(&mut list);
                    greedy(game, list.moves(), cfg)
                }
                _ if p.policy == PlayoutPolicy::AlphaBeta => {
                    crate::search::shallow::two_ply_move(game, cfg.eval, rng)
                }
                _ => policy_move(game, p.policy, &mut list, rng),
            }
        };
        game.make(mv);
        plies += 1;
    }
}

/// A move of `policy` in a non-terminal position.
#[inline(always)]
fn policy_move<G: Game>(
    game: &G,
    policy: PlayoutPolicy,
    list: &mut G::MoveList,
    rng: &mut SearchRng,
) -> G::Move {
    match policy {
        PlayoutPolicy::Random => game.random_playout_move(rng),
        PlayoutPolicy::Informed | PlayoutPolicy::AlphaBeta => game.informed_playout_step(list, rng),
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
