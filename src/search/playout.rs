//! Playouts: from a leaf to the end of the game (or an early termination), on a copy of the
//! state, returning the reward for the first player.

use super::config::{MctsConfig, PlayoutConfig, PlayoutPolicy};
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
            // As in the paper's code: after every `det_interval`-th playout move (never at the
            // leaf itself), and only a value past ±t counts, unless `text-det` asks for ≥.
            if plies > 0 && plies.is_multiple_of(p.det_interval) {
                let v = game.evaluate(cfg.eval, Player::First);
                if let Some(r) = det_verdict(v, t, p.text_det) {
                    return (r, plies);
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
                Some(eps) if unit_f32(rng) >= eps => greedy(game, list.moves(), cfg, rng),
                _ => match p.policy {
                    PlayoutPolicy::Random => {
                        let moves = list.moves();
                        moves[below(rng, moves.len() as u32) as usize]
                    }
                    PlayoutPolicy::Informed if p.text_ipp => {
                        game.informed_playout_move_text(list.moves(), rng)
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
                    greedy(game, list.moves(), cfg, rng)
                }
                _ if p.policy == PlayoutPolicy::AlphaBeta => {
                    crate::search::shallow::two_ply_move(game, cfg.eval, rng)
                }
                _ => policy_move(game, p, &mut list, rng),
            }
        };
        game.make(mv);
        plies += 1;
    }
}

/// A move of the configured policy in a non-terminal position.
#[inline(always)]
fn policy_move<G: Game>(
    game: &G,
    p: &PlayoutConfig,
    list: &mut G::MoveList,
    rng: &mut SearchRng,
) -> G::Move {
    match p.policy {
        PlayoutPolicy::Random => game.random_playout_move(rng),
        PlayoutPolicy::Informed | PlayoutPolicy::AlphaBeta => {
            if p.text_ipp {
                game.legal_moves(list);
                game.informed_playout_move_text(list.moves(), rng)
            } else {
                game.informed_playout_step(list, rng)
            }
        }
    }
}

/// The `det` test on an evaluation `v` for the first player: `Some(±1)` when the playout
/// stops as a win or loss. The paper's code needs `v` past the threshold (`>`); its text
/// (`text`) writes `≥`.
#[inline(always)]
pub(crate) fn det_verdict(v: f32, threshold: f32, text: bool) -> Option<f32> {
    let (win, loss) = if text {
        (v >= threshold, v <= -threshold)
    } else {
        (v > threshold, v < -threshold)
    };
    if win {
        Some(1.0)
    } else if loss {
        Some(-1.0)
    } else {
        None
    }
}

/// How close two evaluations must be to count as tied in the greedy step (the paper's code).
pub const GREEDY_TOLERANCE: f32 = 1e-4;

/// The ε-greedy step: the move whose resulting position evaluates best for the mover, drawn
/// uniformly among the moves tied with the best within [`GREEDY_TOLERANCE`], as the paper's
/// code does (taking the first of equals makes playouts repeat themselves). With the informed
/// policy the candidates are that policy's ([`Game::informed_candidates`]: a decisive move, or
/// the anti-decisive captures) and each tie counts with its weight in the policy's draw
/// ([`Game::informed_weight`]), because the code draws from the policy's list, in which an
/// undefended capture stands five times.
///
/// The tie set is kept the way the code keeps it: a move more than the tolerance above the best
/// so far starts a new set, a move within the tolerance joins it and may raise the best.
pub(crate) fn greedy<G: Game>(
    game: &mut G,
    moves: &[G::Move],
    cfg: &MctsConfig<G>,
    rng: &mut SearchRng,
) -> G::Move {
    let informed = cfg.playout.policy == PlayoutPolicy::Informed;
    if let Some(mv) = game.greedy_playout_move(moves, cfg.eval, informed, rng) {
        return mv;
    }
    let mut candidates = G::MoveList::default();
    let moves = if informed {
        game.informed_candidates(moves, &mut candidates);
        candidates.moves()
    } else {
        moves
    };
    let me = game.side_to_move();
    let mut best = moves[0];
    let mut best_v = f32::NEG_INFINITY;
    // Total weight of the tie set; the chosen move is a weighted reservoir sample of it.
    let mut weight = 0u32;
    for &mv in moves {
        let u = game.make(mv);
        let v = game.evaluate(cfg.eval, me);
        game.undo(mv, u);
        let w = if informed {
            game.informed_weight(mv)
        } else {
            1
        };
        if v > best_v + GREEDY_TOLERANCE {
            best_v = v;
            best = mv;
            weight = w;
        } else if v >= best_v - GREEDY_TOLERANCE {
            best_v = best_v.max(v);
            weight += w;
            if below(rng, weight) < w {
                best = mv;
            }
        }
    }
    best
}
