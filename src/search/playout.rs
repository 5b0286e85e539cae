//! Playouts: from a leaf to the end of the game (or an early termination), on a copy of the
//! state, returning the reward for the first player.

use super::config::{MctsConfig, PlayoutPolicy};
use crate::SearchRng;
use crate::game::{Game, GreedyPlayout, MoveBuffer, Player, PlayoutCutoffs};
use crate::rng::{below, unit_f32};

/// Runs one playout on `game` (which it consumes as scratch) and returns the reward for
/// [`Player::First`] in `[-1, 1]` and the number of playout moves played.
pub fn run<G: Game>(game: &mut G, cfg: &MctsConfig<G>, rng: &mut SearchRng) -> (f32, u32) {
    run_within(game, cfg, rng, u32::MAX)
}

/// [`run`] stopped as a draw after `room` playout moves if
/// [`PlayoutConfig::max_plies`](super::config::PlayoutConfig::max_plies) does not stop it
/// first (BBQ's depth cap, [`super::bbq`]).
///
/// The playout is assembled here, once: where the moves come from (every legal move, or the
/// Dist(k) candidates of [`BbqConfig::dist`](super::bbq::BbqConfig::dist)) and which policy
/// picks among them are type parameters of one loop (`play`).
#[cfg_attr(not(feature = "compact-code"), inline(always))]
#[cfg_attr(feature = "compact-code", inline(never))]
pub fn run_within<G: Game>(
    game: &mut G,
    cfg: &MctsConfig<G>,
    rng: &mut SearchRng,
    room: u32,
) -> (f32, u32) {
    let max_plies = room.min(cfg.playout.max_plies);
    let p = &cfg.playout;
    if cfg.bbq.dist.is_none()
        && p.policy == PlayoutPolicy::Random
        && p.epsilon_greedy.is_none()
        && p.fixed_cutoff.is_none()
        && p.dynamic_cutoff.is_none()
    {
        // Nothing to look at on the way: the game's own tight loop, inlined into the caller.
        let (o, plies) = game.random_playout(rng, max_plies);
        return (o.map_or(0.0, |o| o.reward(Player::First)), plies);
    }
    // (`compact-code` keeps only the general loop below for the informed and ε-greedy
    // playouts, which plays the same moves: the games' own loops are speed, not behaviour.)
    if !cfg!(feature = "compact-code")
        && cfg.bbq.dist.is_none()
        && p.policy == PlayoutPolicy::Informed
        && !p.text_ipp
        && p.epsilon_greedy.is_none()
        && p.dynamic_cutoff.is_none()
    {
        // The informed policy, at most cut off after a fixed number of moves (`bl'`): the
        // game's own loop too. As in `play`, an end of the game comes first, then the fixed
        // cutoff's evaluation, then the ply cap's draw.
        let limit = p.fixed_cutoff.map_or(max_plies, |x| x.min(max_plies));
        let (o, plies) = game.informed_playout(rng, limit);
        let reward = match (o, p.fixed_cutoff) {
            (Some(o), _) => o.reward(Player::First),
            (None, Some(x)) if plies >= x => game.evaluate(cfg.eval, Player::First),
            (None, _) => 0.0,
        };
        return (reward, plies);
    }
    // The games' own loops for the other playouts play every legal move (no Dist(k)) and the
    // code's `det` (`compact-code` keeps only the general loop below).
    let own_loop = !cfg!(feature = "compact-code") && cfg.bbq.dist.is_none() && !p.text_det;
    let cutoffs = PlayoutCutoffs {
        eval: cfg.eval,
        fixed_cutoff: p.fixed_cutoff,
        det: p.dynamic_cutoff.map(|t| (t, p.det_interval)),
    };
    match (p.policy, p.epsilon_greedy) {
        (PlayoutPolicy::Informed, None) if own_loop && !p.text_ipp => {
            // The informed policy with `det` (LOA's `one,det0.7,ipp`; without it, the game's
            // `informed_playout` above).
            if let Some(result) = game.informed_playout_with_cutoffs(rng, &cutoffs, max_plies) {
                return result;
            }
        }
        (PlayoutPolicy::Informed | PlayoutPolicy::Random, Some(epsilon))
            if own_loop && !p.text_ipp && p.fixed_cutoff.is_none() =>
        {
            // ε-greedy (`bl`).
            let settings = GreedyPlayout {
                eval: cfg.eval,
                informed: p.policy == PlayoutPolicy::Informed,
                epsilon,
                det: cutoffs.det,
            };
            if let Some(result) = game.greedy_playout(rng, &settings, max_plies) {
                return result;
            }
        }
        (PlayoutPolicy::AlphaBeta, None) if own_loop => {
            if let Some(result) = game.alpha_beta_playout(rng, &cutoffs, max_plies) {
                return result;
            }
        }
        _ => {}
    }
    match cfg.bbq.dist {
        None => with_policy(game, cfg, rng, max_plies, Legal),
        Some(k) => with_policy(game, cfg, rng, max_plies, Near(k)),
    }
}

/// Picks the policy's instance of [`play`].
#[inline(always)]
fn with_policy<G: Game, S: Source>(
    game: &mut G,
    cfg: &MctsConfig<G>,
    rng: &mut SearchRng,
    max_plies: u32,
    source: S,
) -> (f32, u32) {
    let p = &cfg.playout;
    match p.policy {
        PlayoutPolicy::Random => {
            play::<G, S, { policy::UNIFORM }>(game, cfg, rng, max_plies, source)
        }
        PlayoutPolicy::Informed if p.text_ipp => {
            play::<G, S, { policy::INFORMED_TEXT }>(game, cfg, rng, max_plies, source)
        }
        PlayoutPolicy::Informed => {
            play::<G, S, { policy::INFORMED }>(game, cfg, rng, max_plies, source)
        }
        PlayoutPolicy::AlphaBeta => {
            play::<G, S, { policy::TWO_PLY }>(game, cfg, rng, max_plies, source)
        }
    }
}

/// Where a playout's moves come from.
trait Source: Copy {
    /// Whether this is every legal move (the games' fast paths then apply).
    const ALL: bool;
    /// Writes the moves of `game` into `out`.
    fn fill<G: Game>(self, game: &G, out: &mut G::MoveList);
}

/// Every legal move.
#[derive(Clone, Copy)]
struct Legal;

impl Source for Legal {
    const ALL: bool = true;
    #[inline(always)]
    fn fill<G: Game>(self, game: &G, out: &mut G::MoveList) {
        game.legal_moves(out)
    }
}

/// Dist(k): [`Game::candidate_moves`] with this `k`.
#[derive(Clone, Copy)]
struct Near(u8);

impl Source for Near {
    const ALL: bool = false;
    #[inline(always)]
    fn fill<G: Game>(self, game: &G, out: &mut G::MoveList) {
        game.candidate_moves(self.0, out)
    }
}

/// The playout policies, as the `P` parameter of [`play`] (a constant, so each policy's loop is
/// compiled on its own and the choice costs nothing per move).
mod policy {
    /// Uniformly random moves.
    pub const UNIFORM: u8 = 0;
    /// The game's informed policy (`ipp`, as the paper's code implements it).
    pub const INFORMED: u8 = 1;
    /// The informed policy as the paper's text describes it (`text-ipp`).
    pub const INFORMED_TEXT: u8 = 2;
    /// αβ playouts (`abp`): a selective two-ply search ([`crate::search::shallow`]). It
    /// generates its own moves: the Dist(k) restriction does not apply to it, and no candidate
    /// list is built for it.
    pub const TWO_PLY: u8 = 3;
}

/// The move policy `P` picks among the moves of `source` in `game`, which is not finished
/// (`list` is scratch).
#[inline(always)]
fn pick<G: Game, S: Source, const P: u8>(
    game: &mut G,
    source: S,
    list: &mut G::MoveList,
    cfg: &MctsConfig<G>,
    rng: &mut SearchRng,
) -> G::Move {
    // Every legal move: the games' own steps, which need no list where they can avoid one.
    if S::ALL {
        match P {
            policy::UNIFORM => return game.random_playout_move(rng),
            policy::INFORMED => return game.informed_playout_step(list, rng),
            _ => {}
        }
    }
    if P == policy::TWO_PLY {
        return crate::search::shallow::two_ply_move(game, cfg.eval, rng);
    }
    source.fill(game, list);
    let moves = list.moves();
    match P {
        policy::UNIFORM => moves[below(rng, moves.len() as u32) as usize],
        policy::INFORMED => game.informed_playout_move(moves, rng),
        _ => game.informed_playout_move_text(moves, rng),
    }
}

/// The playout loop: early terminations, the ply cap, then ε-greedy or the policy `P` over the
/// moves of `S` ([`pick`]). (Uniform playouts over every legal move with nothing to look at on
/// the way are the game's own tight loop instead, [`run_within`].)
#[inline(always)]
fn play<G: Game, S: Source, const P: u8>(
    game: &mut G,
    cfg: &MctsConfig<G>,
    rng: &mut SearchRng,
    max_plies: u32,
    source: S,
) -> (f32, u32) {
    let p = &cfg.playout;
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
        let mv = match p.epsilon_greedy {
            Some(eps) if unit_f32(rng) >= eps => {
                // A game that draws the greedy move from its own structures needs no list.
                let informed = p.policy == PlayoutPolicy::Informed;
                let step = if S::ALL {
                    game.greedy_playout_step(cfg.eval, informed, rng)
                } else {
                    None
                };
                match step {
                    Some(mv) => mv,
                    None => {
                        source.fill(game, &mut list);
                        greedy(game, list.moves(), cfg, rng)
                    }
                }
            }
            _ => pick::<G, S, P>(game, source, &mut list, cfg, rng),
        };
        game.make(mv);
        plies += 1;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::breakthrough::Breakthrough;
    use crate::games::conformance::play_random;
    use crate::rng::seeded;

    /// One playout of `cfg` from `start` with room `room`, through [`run_within`] (the game's
    /// own loop where one applies) and through the general loop, from generators seeded with
    /// `seed`: the same reward, length, final state and generator. `what` names the case.
    fn check_own_loop<G: Game + Clone + PartialEq + core::fmt::Debug>(
        start: &G,
        cfg: &MctsConfig<G>,
        seed: u64,
        room: u32,
        what: &dyn core::fmt::Debug,
    ) {
        let (mut fast, mut slow) = (start.clone(), start.clone());
        let (mut fast_rng, mut slow_rng) = (seeded(seed), seeded(seed));
        let max_plies = room.min(cfg.playout.max_plies);
        let got = run_within(&mut fast, cfg, &mut fast_rng, room);
        let expected = with_policy(&mut slow, cfg, &mut slow_rng, max_plies, Legal);
        assert_eq!(got, expected, "{what:?}, room {room}");
        assert_eq!(fast, slow, "{what:?}, room {room}");
        assert_eq!(fast_rng, slow_rng, "{what:?}, room {room}");
    }

    /// The settings' old name, [`crate::AlphaBetaPlayout`], still names [`PlayoutCutoffs`], so
    /// code written against it builds (with a deprecation warning); removing or retyping the
    /// alias fails to compile this.
    #[test]
    #[allow(deprecated)]
    fn the_old_name_of_the_playout_cutoffs_still_builds() {
        use crate::games::lines_of_action::LinesOfActionEval;
        let old: crate::AlphaBetaPlayout<LinesOfActionEval> = PlayoutCutoffs {
            eval: LinesOfActionEval::Mia,
            fixed_cutoff: Some(4),
            det: Some((0.7, 5)),
        };
        let new: PlayoutCutoffs<LinesOfActionEval> = old;
        assert_eq!(new.det, Some((0.7, 5)));
    }

    /// The playouts that take the game's own loop (`ipp` alone or with a fixed cutoff; efMS's
    /// ε-greedy with and without `det`, informed or uniform; each with a ply cap) return what
    /// the general loop returns from the same random numbers: the same reward, length, final
    /// state and generator. (`efLH,bl` is left to the general loop by Breakthrough.)
    #[test]
    fn the_games_own_playout_loops_equal_the_general_loop() {
        for spec in [
            "mcts(ipp)",
            "mcts(efLH,bl')",
            "mcts(ipp,fet3,efMS)",
            "mcts(ipp,fet1)",
            "mcts(bl)",
            "mcts(bl,detk3,det0.2)",
            "mcts(ege0.1)",
            "mcts(ege0.5,det0.3)",
            "mcts(efLH,bl)",
        ] {
            let cfg = *crate::search::spec::parse_mcts::<Breakthrough>(spec).unwrap();
            for seed in 0..200u64 {
                let mut start = Breakthrough::new();
                play_random(&mut start, &mut seeded(seed), (seed % 60) as u32);
                for room in [u32::MAX, 0, 2, 7] {
                    check_own_loop(&start, &cfg, seed + 9, room, &(spec, seed));
                }
            }
        }
    }

    /// Lines of Action's αβ playouts in its own loop (the targets carried from move to move)
    /// and its informed playouts with `det` return what the general loop returns from the same
    /// random numbers, with `det`, with a fixed cutoff, with both and with ply caps: the same
    /// reward, length, final state and generator.
    #[test]
    fn lines_of_action_playout_loops_with_cutoffs_equal_the_general_loop() {
        use crate::games::lines_of_action::LinesOfAction;
        let mut checked = 0;
        for (spec, policy) in [
            ("mcts(abp)", PlayoutPolicy::AlphaBeta),
            ("mcts(one,det0.7,abp)", PlayoutPolicy::AlphaBeta),
            ("mcts(abp,fet4)", PlayoutPolicy::AlphaBeta),
            ("mcts(abp,det0.3,detk2,fet9)", PlayoutPolicy::AlphaBeta),
            ("mcts(one,det0.7,ipp)", PlayoutPolicy::Informed),
            ("mcts(ipp,det0.2,detk3)", PlayoutPolicy::Informed),
            ("mcts(ipp,det0.3,detk2,fet9)", PlayoutPolicy::Informed),
        ] {
            let cfg = *crate::search::spec::parse_mcts::<LinesOfAction>(spec).unwrap();
            assert_eq!(cfg.playout.policy, policy, "{spec}");
            for seed in 0..12u64 {
                let mut start = LinesOfAction::start();
                play_random(&mut start, &mut seeded(seed), (seed * 7 % 50) as u32);
                for room in [u32::MAX, 0, 3, 20] {
                    check_own_loop(&start, &cfg, seed + 5, room, &(spec, seed));
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 7 * 12 * 4);
    }
}
