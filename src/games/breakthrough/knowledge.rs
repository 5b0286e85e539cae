//! Breakthrough domain knowledge for the search: the informed playout policy (`ipp`) and
//! Lorentz & Horey's node priors (`np`).

use super::{Breakthrough, MAX_MOVES, Move, MoveList};
use crate::SearchRng;
use crate::game::{Game, GreedyPlayout, MoveBuffer, Outcome, Player};
use crate::games::bitboard::Bitboard;
use crate::rng::{below, unit_f32};

/// The edge files as raw words: this module computes on the bitboards' words.
const FILE_A: u64 = super::FILE_A.0;
const FILE_H: u64 = super::FILE_H.0;

/// The portable selection of the `n`-th square of a set ([`Bitboard::nth`]), for the draws
/// `nth` parameter; on a CPU with fast BMI2 they take [`Bitboard::nth_pdep`] instead, which
/// gives the same square.
#[inline(always)]
fn portable_nth(set: u64, n: u32) -> u8 {
    Bitboard(set).nth(n)
}

/// The move onto the `n`-th square (from the lowest) of the target set `set`, whose moves all
/// step by `off` squares; `nth(set, n)` selects that square.
#[inline(always)]
fn at(nth: impl Fn(u64, u32) -> u8, set: u64, n: u32, off: i8) -> Move {
    let to = nth(set, n);
    Move {
        from: (to as i8 - off) as u8,
        to,
    }
}

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

/// [`ipp_move`]'s draw straight from the move bitboards, with no move list: the same moves
/// with the same probabilities, one random number per move.
///
/// The decisive test is an AND of the target sets with the goal rank (taking the first move in
/// generation order, as [`ipp_move`] takes the first in the list); the anti-decisive captures
/// are the capture targets on the threatened rank; otherwise the targets split into sets of
/// equal weight (undefended captures 5, defended captures 2, quiet moves 1) and the drawn
/// number is mapped into them by their popcounts.
#[inline]
#[allow(unsafe_code)]
pub(super) fn ipp_step(pos: &Breakthrough, rng: &mut SearchRng) -> Move {
    #[cfg(target_arch = "x86_64")]
    if crate::games::bitboard::fast_pdep() {
        // SAFETY: `fast_pdep` checked that this CPU has BMI2.
        return unsafe { ipp_step_pdep(pos, rng) };
    }
    ipp_pick(pos, |n| below(rng, n))
}

/// [`ipp_step`] selecting squares with BMI2's `pdep`: the same move, fewer mispredicted
/// branches.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn ipp_step_pdep(pos: &Breakthrough, rng: &mut SearchRng) -> Move {
    ipp_pick_by(
        pos,
        pos.side_to_move(),
        |n| below(rng, n),
        |set, n| Bitboard(set).nth_pdep(n),
    )
}

/// [`ipp_step`]'s moves until one wins or `max_plies` were played, from an unfinished
/// position, on the bitboards alone (efLH is left stale for the caller to rebuild): the same
/// moves from the same random numbers as stepping with make. Returns the outcome (`None` if
/// cut off) and the moves played.
#[allow(unsafe_code)]
pub(super) fn ipp_moves(
    pos: &mut Breakthrough,
    rng: &mut SearchRng,
    max_plies: u32,
) -> (Option<Outcome>, u32) {
    #[cfg(target_arch = "x86_64")]
    if crate::games::bitboard::fast_pdep() {
        // SAFETY: `fast_pdep` checked that this CPU has BMI2.
        return unsafe { ipp_moves_pdep(pos, rng, max_plies) };
    }
    ipp_moves_by(pos, rng, max_plies, portable_nth)
}

/// [`ipp_moves`] selecting squares with BMI2's `pdep`, the whole loop in one function.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn ipp_moves_pdep(
    pos: &mut Breakthrough,
    rng: &mut SearchRng,
    max_plies: u32,
) -> (Option<Outcome>, u32) {
    ipp_moves_by(pos, rng, max_plies, |set, n| Bitboard(set).nth_pdep(n))
}

/// [`ipp_moves`] selecting the `n`-th square of a set with `nth`. The loop runs on copies of
/// the position and the generator, written back once (as Breakthrough's random playout does).
#[inline(always)]
fn ipp_moves_by(
    pos: &mut Breakthrough,
    rng: &mut SearchRng,
    max_plies: u32,
    nth: impl Fn(u64, u32) -> u8 + Copy,
) -> (Option<Outcome>, u32) {
    let mut game = pos.clone();
    let mut local_rng = rng.clone();
    let mut plies = 0;
    // One move of `us`, a constant in each of the two calls below; `Some` if it won.
    let mut step = |game: &mut Breakthrough, us: Player| {
        let mv = ipp_pick_by(game, us, |n| below(&mut local_rng, n), nth);
        game.step_bitboards(mv).then_some(Outcome::Win(us))
    };
    let result = 'play: {
        if game.side == Player::Second {
            if plies >= max_plies {
                break 'play None;
            }
            plies += 1;
            if let Some(o) = step(&mut game, Player::Second) {
                break 'play Some(o);
            }
        }
        loop {
            if plies >= max_plies {
                break 'play None;
            }
            plies += 1;
            if let Some(o) = step(&mut game, Player::First) {
                break 'play Some(o);
            }
            if plies >= max_plies {
                break 'play None;
            }
            plies += 1;
            if let Some(o) = step(&mut game, Player::Second) {
                break 'play Some(o);
            }
        }
    };
    *pos = game;
    *rng = local_rng;
    (result, plies)
}

/// efMS's ε-greedy playout (with `det` if asked) from `pos` on the bitboards alone, efLH left
/// stale for the caller to rebuild: at each move the general playout loop's tests in its order
/// (the end of the game, `det` after every `interval`-th move, the ply cap), then one uniform
/// number against ε and the greedy step ([`greedy_pick_schadd`]) or the policy's step, so the
/// same moves and the same reward from the same random numbers. Returns the reward for the
/// first player and the moves played.
pub(super) fn greedy_moves(
    pos: &mut Breakthrough,
    rng_out: &mut SearchRng,
    settings: &GreedyPlayout<super::BreakthroughEval>,
    max_plies: u32,
) -> (f32, u32) {
    // On copies of the position and the generator, written back once.
    let mut game = pos.clone();
    let mut local_rng = rng_out.clone();
    let rng = &mut local_rng;
    let mut plies = 0u32;
    let mut over = game.outcome();
    let result = loop {
        if let Some(o) = over {
            break o.reward(Player::First);
        }
        if let Some((threshold, interval)) = settings.det {
            if plies > 0 && plies.is_multiple_of(interval) {
                let v = super::eval::schadd(&game);
                if let Some(r) = crate::search::playout::det_verdict(v, threshold, false) {
                    break r;
                }
            }
        }
        if plies >= max_plies {
            break 0.0;
        }
        let mv = if unit_f32(rng) >= settings.epsilon {
            greedy_step_schadd(&game, settings.informed, rng)
        } else if settings.informed {
            ipp_step(&game, rng)
        } else {
            game.random_playout_move(rng)
        };
        let us = game.side;
        plies += 1;
        if game.step_bitboards(mv) {
            over = Some(Outcome::Win(us));
        }
    };
    *pos = game;
    *rng_out = local_rng;
    (result, plies)
}

/// The move [`ipp_step`] plays when `draw(n)` returns a number in `0..n` (called at most once).
#[inline(always)]
pub(super) fn ipp_pick(pos: &Breakthrough, draw: impl FnOnce(u32) -> u32) -> Move {
    ipp_pick_by(pos, pos.side_to_move(), draw, portable_nth)
}

/// [`ipp_pick`] selecting the `n`-th square of a set with `nth`; `us` is the side to move (a
/// constant in the playout loop, where the side's shifts and masks then fold away).
#[inline(always)]
fn ipp_pick_by(
    pos: &Breakthrough,
    us: Player,
    draw: impl FnOnce(u32) -> u32,
    nth: impl Fn(u64, u32) -> u8 + Copy,
) -> Move {
    debug_assert_eq!(us, pos.side_to_move());
    let (straight, left, right) = pos.targets(us);
    let (straight, left, right) = (straight.0, left.0, right.0);
    let [off_s, off_l, off_r] = Breakthrough::offsets(us);
    let goal = Breakthrough::goal_rank(us).0;
    if (left | straight | right) & goal != 0 {
        // The first decisive move in generation order (left, straight, right).
        for (set, off) in [(left, off_l), (straight, off_s), (right, off_r)] {
            if set & goal != 0 {
                return at(nth, set & goal, 0, off);
            }
        }
    }
    let enemy = pos.pieces(us.opponent()).0;
    let threats = enemy & second_rank(us);
    let (lt, rt) = (left & threats, right & threats);
    if (lt | rt) != 0 {
        // Uniform among the anti-decisive captures.
        let nl = lt.count_ones();
        let r = draw(nl + rt.count_ones());
        return if r < nl {
            at(nth, lt, r, off_l)
        } else {
            at(nth, rt, r - nl, off_r)
        };
    }
    let open = !covered_ahead(pos, us);
    let (lu, ru) = (left & enemy & open, right & enemy & open);
    let (lc, rc) = (left & enemy & !open, right & enemy & !open);
    let (lq, rq) = (left & !enemy, right & !enemy);
    // Captures first (weight 5, then 2), then the quiet sets; the drawn number falls in one
    // set's span. The set is found without branches (the CPU cannot predict which span a
    // random number falls in): its index is the number of spans that end at or below the
    // number, and the number's offset in it divided by the weight (a multiply by a 16-bit
    // reciprocal, exact for offsets below 240) picks the square.
    let sets = [lu, ru, lc, rc, straight, lq, rq];
    const WEIGHTS: [u32; 7] = [5, 5, 2, 2, 1, 1, 1];
    const RECIPROCALS: [u32; 7] = [13_108, 13_108, 1 << 15, 1 << 15, 1 << 16, 1 << 16, 1 << 16];
    let offs = [off_l, off_r, off_l, off_r, off_s, off_l, off_r];
    // `starts[k]` is where set k's span begins; the drawn number falls in the last span that
    // begins at or below it (`r` < the total, so never past set 6).
    let mut starts = [0u32; 8];
    for k in 0..7 {
        starts[k + 1] = starts[k] + WEIGHTS[k] * sets[k].count_ones();
    }
    let r = draw(starts[7]);
    let index: usize = (1..7).map(|k| (r >= starts[k]) as usize).sum();
    let n = ((r - starts[index]) * RECIPROCALS[index]) >> 16;
    at(nth, sets[index], n, offs[index])
}

/// The ε-greedy playout step with efMS, straight from the bitboards: the same distribution as
/// [`crate::search::playout::greedy`] over every legal move (or, `informed`, over
/// [`ipp_candidates`] with [`ipp_weight`]), without making, evaluating and undoing each move.
///
/// efMS after a move takes few values: a quiet move changes only the mover's progress (and only
/// a step onto the row past its most advanced piece does), a capture also removes one enemy
/// piece. So the candidates fall into a handful of classes, each a bitboard: the quiet moves
/// behind the front row, those onto it, and the captures square by square. Distinct classes'
/// values are at least 0.0056 apart (efMS moves in steps of 2.5 points; a test checks the table),
/// far more than the step's tie tolerance of 1e-4, so the code's tie set is exactly the moves of
/// the best class, and its weighted reservoir draw is one draw weighted by popcounts.
#[inline]
pub(super) fn greedy_step_schadd(pos: &Breakthrough, informed: bool, rng: &mut SearchRng) -> Move {
    // The draw selects from small sets and is often skipped (one best move): `pdep` measured
    // no gain here, unlike in the ipp step.
    greedy_pick_schadd(pos, informed, |n| below(rng, n))
}

/// The move [`greedy_step_schadd`] plays when `draw(n)` returns a number in `0..n` (called at
/// most once, only when the best class holds more than one move).
#[inline(always)]
pub(super) fn greedy_pick_schadd(
    pos: &Breakthrough,
    informed: bool,
    draw: impl FnOnce(u32) -> u32,
) -> Move {
    let nth = portable_nth;
    let us = pos.side_to_move();
    let them = us.opponent();
    let (straight, left, right) = pos.targets(us);
    let (straight, left, right) = (straight.0, left.0, right.0);
    let [off_s, off_l, off_r] = Breakthrough::offsets(us);
    let goal = Breakthrough::goal_rank(us).0;
    let own = pos.pieces(us).0;
    let enemy = pos.pieces(them).0;
    // The candidates, as three target sets.
    let (mut cl, mut cs, mut cr) = (left, straight, right);
    // The anti-decisive captures, when forced, stand in the code's list once each.
    let mut forced = false;
    if informed {
        if (left | straight | right) & goal != 0 {
            // ipp's candidates are the first decisive move alone.
            for (set, off) in [(left, off_l), (straight, off_s), (right, off_r)] {
                if set & goal != 0 {
                    return at(nth, set & goal, 0, off);
                }
            }
        }
        let threats = enemy & second_rank(us);
        if (left | right) & threats != 0 {
            (cl, cs, cr) = (left & threats, 0, right & threats);
            forced = true;
        }
    }
    // Scores in efMS's units of 2.5 points, from the mover's side; WIN above any of them.
    const WIN: i32 = i32::MAX;
    let side_score = |pieces: u64, p: Player| super::eval::schadd_side(pieces, p) / 10;
    let ours = side_score(own, us);
    let theirs = side_score(enemy, them);
    let clamp = |d: i32| d.clamp(-40, 40);
    // The row just past our most advanced piece: a quiet step there adds one unit of progress.
    let front_row = match us {
        Player::First => (63 - own.leading_zeros()) / 8 + 1,
        Player::Second => (own.trailing_zeros() / 8).wrapping_sub(1),
    };
    let front = if front_row < 8 {
        0xFFu64 << (8 * front_row)
    } else {
        0
    };
    let quiet = (cl | cs | cr) & !enemy;
    let q_behind = clamp(ours - theirs);
    let q_front = clamp(ours + 1 - theirs);
    let mut best = i32::MIN;
    if quiet & goal != 0 {
        best = WIN;
    }
    if quiet & !front != 0 {
        best = best.max(q_behind);
    }
    if quiet & front & !goal != 0 {
        best = best.max(q_front);
    }
    // A capture's value depends on the square only through three facts: whether it wins (the
    // goal rank, or the enemy's last piece), whether it lands on our front row, and whether it
    // removes the enemy's most advanced piece (`lone`, the extreme bit: the enemy's progress
    // after the capture is then that of the other pieces, the same row or a lower one). So the
    // captures fall into at most five classes, each a bitboard with one value, and no loop
    // over the captures is needed.
    let captures = (cl | cr) & enemy;
    let mut tie_caps = 0u64;
    if captures != 0 {
        let wins = if enemy.count_ones() == 1 {
            captures
        } else {
            captures & goal
        };
        let lone = match them {
            Player::First => 1u64 << (63 - enemy.leading_zeros()),
            Player::Second => enemy & enemy.wrapping_neg(),
        };
        // The enemy's score after a capture: one piece fewer (4 units) with its progress
        // unchanged, or, without `lone`, that of the other pieces.
        let after_other = theirs - 4;
        let after_lone = side_score(enemy & !lone, them);
        let rest = captures & !wins;
        let classes = [
            (wins, WIN),
            (rest & !lone & !front, clamp(ours - after_other)),
            (rest & !lone & front, clamp(ours + 1 - after_other)),
            (rest & lone & !front, clamp(ours - after_lone)),
            (rest & lone & front, clamp(ours + 1 - after_lone)),
        ];
        for &(set, value) in &classes {
            if set != 0 {
                best = best.max(value);
            }
        }
        for &(set, value) in &classes {
            if value == best {
                tie_caps |= set;
            }
        }
    }
    // The best class: its quiet moves and its capture squares.
    let mut tie_quiet = 0u64;
    if best == WIN {
        tie_quiet |= goal;
    }
    if q_behind == best {
        tie_quiet |= !front;
    }
    if q_front == best {
        tie_quiet |= front & !goal;
    }
    tie_quiet &= quiet;
    // Weighted sets (ipp's weights when informed, else 1 each), captures first.
    let open = !covered_ahead(pos, us);
    let (w5, w2) = if informed && !forced { (5, 2) } else { (1, 1) };
    let sets = [
        (cl & tie_caps & open, w5, off_l),
        (cr & tie_caps & open, w5, off_r),
        (cl & tie_caps & !open, w2, off_l),
        (cr & tie_caps & !open, w2, off_r),
        (cs & tie_quiet, 1, off_s),
        (cl & tie_quiet, 1, off_l),
        (cr & tie_quiet, 1, off_r),
    ];
    let mut total = 0;
    let mut moves = 0;
    for &(set, w, _) in &sets {
        total += w * set.count_ones();
        moves += set.count_ones();
    }
    let mut r = if moves > 1 { draw(total) } else { 0 };
    for &(set, w, off) in &sets {
        let span = w * set.count_ones();
        if r < span {
            return at(nth, set, r / w, off);
        }
        r -= span;
    }
    // Not reached: the best class holds a move.
    debug_assert!(false, "empty best class");
    let (set, off) = if cl != 0 {
        (cl, off_l)
    } else if cs != 0 {
        (cs, off_s)
    } else {
        (cr, off_r)
    };
    at(nth, set, 0, off)
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
    let enemy = pos.pieces(us.opponent()).0;
    // An anti-decisive capture (of a piece on our second rank) is only ever a candidate in the
    // forced list, where the code holds each one once.
    if to & enemy == 0 || to & enemy & second_rank(us) != 0 {
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
    let to = 1u64 << (mv.to & 63);
    let enemy = pos.pieces(us.opponent()).0;
    let capture = enemy & to != 0;
    // Neither set holds the destination itself, so the captured piece leaves the attackers
    // as they were, and the piece moving there counts as a defender of nothing.
    let (ahead, behind, to_go) = prior_squares(us, mv.to);
    let attackers = (ahead & enemy).count_ones();
    let defenders = (behind & pos.pieces(us).0 & !(1u64 << (mv.from & 63))).count_ones();
    // Read from a table, without a branch on the safety test, which goes either way at random
    // over a node's children: `[safe][capture][ranks to go]`.
    const RATE: [[[f32; 8]; 2]; 2] = {
        const SAFE: [f32; 8] = [1.0, 1.0, 0.95, 0.85, 0.75, 0.60, 0.30, 0.30];
        [[[0.30; 8], [0.60; 8]], [SAFE, SAFE]]
    };
    RATE[usize::from(attackers <= defenders)][usize::from(capture)][usize::from(to_go & 7)]
}

/// For a move of `us` to `to`: the squares diagonally ahead of `to` (its attackers' squares),
/// those diagonally behind it (its defenders'), and the ranks still to go.
const fn prior_squares_of(us: Player, to: u8) -> (u64, u64, u8) {
    let bit = 1u64 << (to & 63);
    let above = ((bit & !FILE_A) << 7) | ((bit & !FILE_H) << 9);
    let below = ((bit & !FILE_A) >> 9) | ((bit & !FILE_H) >> 7);
    let rank = to / 8;
    match us {
        Player::First => (above, below, 7 - rank),
        Player::Second => (below, above, rank),
    }
}

/// [`prior_squares_of`] from a table (3 KiB) where code size does not count: the node priors
/// of a `bl'` expansion computed these at every child, with a branch on the side (about 30
/// instructions a child; callgrind).
#[inline(always)]
fn prior_squares(us: Player, to: u8) -> (u64, u64, u8) {
    #[cfg(not(feature = "compact-code"))]
    {
        static TABLE: [[(u64, u64, u8); 64]; 2] = {
            let mut t = [[(0, 0, 0); 64]; 2];
            let mut sq = 0;
            while sq < 64 {
                t[0][sq] = prior_squares_of(Player::First, sq as u8);
                t[1][sq] = prior_squares_of(Player::Second, sq as u8);
                sq += 1;
            }
            t
        };
        TABLE[us.index() & 1][usize::from(to & 63)]
    }
    #[cfg(feature = "compact-code")]
    {
        prior_squares_of(us, to)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::seeded;
    use std::collections::HashMap;

    /// Positions met in random games from the start and from a middle game.
    fn positions() -> std::vec::Vec<Breakthrough> {
        let mut rng = seeded(3);
        let mut out = std::vec::Vec::new();
        let starts = [
            Breakthrough::start(),
            Breakthrough::parse_position("8/1pp3p1/pppp1ppp/1p1p1p1p/1P1P1P1P/PPPP1PPP/P3P2P/8 w")
                .unwrap(),
        ];
        for _ in 0..150 {
            for s in &starts {
                let mut g = s.clone();
                while !g.is_terminal() {
                    out.push(g.clone());
                    let mv = g.random_playout_move(&mut rng);
                    g.make(mv);
                }
            }
        }
        out
    }

    /// Every number the bitboard draw can take maps to a move, each move of the list-based
    /// policy exactly as many times as its weight there: the two draw the same distribution.
    #[test]
    fn bitboard_ipp_draws_each_move_with_its_list_weight() {
        let (mut list, mut cands) = (MoveList::new(), MoveList::new());
        let mut cases = [0usize; 3];
        for g in positions() {
            g.legal_moves(&mut list);
            ipp_candidates(&g, &list, &mut cands);
            let mut total = None;
            let first = ipp_pick(&g, |n| {
                total = Some(n);
                0
            });
            let Some(total) = total else {
                // A decisive move: the first in the list, no draw.
                assert_eq!(first, cands[0]);
                assert!(
                    cands.len() == 1
                        && (1u64 << first.to) & Breakthrough::goal_rank(g.side_to_move()).0 != 0
                );
                cases[0] += 1;
                continue;
            };
            let rescue = cands.len() < list.len();
            let mut want = HashMap::new();
            for &mv in cands.iter() {
                *want.entry(mv).or_insert(0) += if rescue { 1 } else { ipp_weight(&g, mv) };
            }
            let mut got = HashMap::new();
            for r in 0..total {
                *got.entry(ipp_pick(&g, |n| {
                    assert_eq!(n, total);
                    r
                }))
                .or_insert(0) += 1;
            }
            assert_eq!(got, want, "{g:?}");
            cases[1 + !rescue as usize] += 1;
        }
        // The three branches were all exercised.
        assert!(cases.iter().all(|&c| c > 100), "{cases:?}");
    }

    /// The ipp draw's reciprocal division is exact over every offset a span can hold (a set of
    /// at most 16 moves times weight 5 is below 80) and well beyond.
    #[test]
    fn reciprocal_division_is_exact_for_every_offset() {
        for (w, m) in [(5u32, 13_108u32), (2, 1 << 15), (1, 1 << 16)] {
            for x in 0..240 {
                assert_eq!((x * m) >> 16, x / w, "{x} / {w}");
            }
        }
    }

    /// Sparse positions (one to four pieces a side, random squares, either side to move), where
    /// captures of the last piece and near-promotion races are common.
    fn sparse_positions() -> std::vec::Vec<Breakthrough> {
        let mut rng = seeded(8);
        let mut out = std::vec::Vec::new();
        let mut pick = |n: u32| {
            let mut set = 0u64;
            while set.count_ones() < n {
                set |= 1u64 << (8 + crate::rng::below(&mut rng, 48));
            }
            set
        };
        for i in 0..3000u32 {
            let (w, b) = (pick(1 + i % 4), pick(1 + i / 4 % 4));
            let side = if i % 3 == 0 {
                Player::Second
            } else {
                Player::First
            };
            if let Ok(g) = Breakthrough::from_bitboards(Bitboard(w), Bitboard(b & !w), side) {
                if !g.is_terminal() {
                    out.push(g);
                }
            }
        }
        out
    }

    /// The tie set [`crate::search::playout::greedy`] ends with, move by move as the paper's
    /// code keeps it, with each move's weight: the generic step draws each of its moves with
    /// probability weight / total.
    fn sequential_tie_set(g: &Breakthrough, informed: bool) -> HashMap<Move, u32> {
        use crate::search::playout::GREEDY_TOLERANCE as TOL;
        let (mut list, mut cands) = (MoveList::new(), MoveList::new());
        g.legal_moves(&mut list);
        if informed {
            ipp_candidates(g, &list, &mut cands);
        } else {
            cands = list.clone();
        }
        let me = g.side_to_move();
        let mut best_v = f32::NEG_INFINITY;
        let mut set = HashMap::new();
        for &mv in cands.iter() {
            let mut h = g.clone();
            h.make(mv);
            let v = h.evaluate(super::super::BreakthroughEval::Schadd, me);
            let w = if informed { ipp_weight(g, mv) } else { 1 };
            if v > best_v + TOL {
                best_v = v;
                set.clear();
                set.insert(mv, w);
            } else if v >= best_v - TOL {
                best_v = best_v.max(v);
                *set.entry(mv).or_insert(0) += w;
            }
        }
        set
    }

    /// The bitboard ε-greedy step draws every move of the generic step's final tie set exactly
    /// as often as its weight there, and nothing else, with and without ipp's candidates.
    #[test]
    fn bitboard_greedy_draws_the_generic_tie_set_with_its_weights() {
        let mut drawn = 0;
        for g in positions().into_iter().chain(sparse_positions()) {
            for informed in [false, true] {
                let want = sequential_tie_set(&g, informed);
                let mut total = None;
                let first = greedy_pick_schadd(&g, informed, |n| {
                    total = Some(n);
                    0
                });
                let Some(total) = total else {
                    assert_eq!(
                        want.keys().copied().collect::<std::vec::Vec<_>>(),
                        [first],
                        "{g:?}"
                    );
                    continue;
                };
                let mut got = HashMap::new();
                for r in 0..total {
                    let mv = greedy_pick_schadd(&g, informed, |n| {
                        assert_eq!(n, total);
                        r
                    });
                    *got.entry(mv).or_insert(0) += 1;
                }
                assert_eq!(got, want, "{g:?} informed {informed}");
                drawn += 1;
            }
        }
        assert!(drawn > 1000, "{drawn}");
    }

    /// [`ipp_pick_by`] with the `pdep` selection.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn ipp_pick_pdep(g: &Breakthrough, draw: impl FnOnce(u32) -> u32) -> Move {
        ipp_pick_by(g, g.side_to_move(), draw, |set, n| {
            Bitboard(set).nth_pdep(n)
        })
    }

    /// With BMI2's `pdep` the ipp draw gives the portable draw's move for every number it can
    /// draw (run where the CPU has BMI2).
    #[cfg(target_arch = "x86_64")]
    #[test]
    #[allow(unsafe_code)]
    fn pdep_draws_pick_the_portable_moves() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return;
        }
        let mut compared = 0;
        for g in positions().into_iter().chain(sparse_positions()) {
            let mut total = 1;
            ipp_pick(&g, |n| {
                total = n;
                0
            });
            for r in 0..total {
                // SAFETY: the CPU has BMI2 (checked above).
                let fast = unsafe { ipp_pick_pdep(&g, |_| r) };
                assert_eq!(fast, ipp_pick(&g, |_| r), "{g:?} {r}");
                compared += 1;
            }
        }
        assert!(compared > 100_000, "{compared}");
    }

    /// What makes the class-by-class draw exact: efMS's distinct values (and a win) are further
    /// apart than the greedy step's tie tolerance.
    #[test]
    fn efms_levels_are_further_apart_than_the_tie_tolerance() {
        use super::super::eval::ms_squash;
        use crate::search::playout::GREEDY_TOLERANCE as TOL;
        for d in -41..=40 {
            assert!(
                ms_squash(d + 1) - ms_squash(d) > TOL || d.abs() >= 40,
                "{d}"
            );
        }
        assert!(1.0 - ms_squash(40) > TOL);
    }

    /// The node prior as its definition reads (Lorentz & Horey's safety scheme), square by
    /// square on the position after the move: the tables and masks of [`node_prior`] give the
    /// same rate for every legal move of both sides along random games, and the compact
    /// build's shifts the same squares as the table.
    #[test]
    fn node_prior_follows_the_safety_scheme() {
        let reference = |pos: &Breakthrough, mv: Move| -> f32 {
            let us = pos.side_to_move();
            let ahead: i8 = if us == Player::First { 1 } else { -1 };
            let mut after = pos.clone();
            after.make(mv);
            let own = after.pieces(us).0;
            let enemy = after.pieces(us.opponent()).0;
            let (file, rank) = ((mv.to % 8) as i8, (mv.to / 8) as i8);
            let on = |set: u64, f: i8, r: i8| {
                (0..8).contains(&f) && (0..8).contains(&r) && set >> (r * 8 + f) & 1 == 1
            };
            let attackers = [-1, 1]
                .iter()
                .filter(|&&df| on(enemy, file + df, rank + ahead))
                .count();
            let defenders = [-1, 1]
                .iter()
                .filter(|&&df| on(own, file + df, rank - ahead))
                .count();
            let to_go = if us == Player::First { 7 - rank } else { rank };
            let capture = pos.pieces(us.opponent()).0 >> mv.to & 1 == 1;
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
        };
        let mut list = MoveList::new();
        let (mut moves, mut safe) = (0, 0);
        for g in positions() {
            g.legal_moves(&mut list);
            for &mv in list.iter() {
                let want = reference(&g, mv);
                assert_eq!(
                    node_prior(&g, mv).to_bits(),
                    want.to_bits(),
                    "{mv:?} in {g:?}"
                );
                moves += 1;
                safe += usize::from(want > 0.6);
            }
        }
        assert!(
            moves > 100_000 && safe > 1_000 && safe < moves,
            "{moves} {safe}"
        );
        for us in [Player::First, Player::Second] {
            for to in 0..64 {
                assert_eq!(prior_squares(us, to), prior_squares_of(us, to));
            }
        }
    }
}

/// Whole playouts, not single draws: the bitboard step and the list policy end games alike.
/// (Checked at 200,000 playouts a position while looking for a strength difference between the
/// two draws; this smaller run keeps the check in the suite.)
#[cfg(test)]
mod whole_playouts {
    use super::*;
    use crate::rng::seeded;

    /// First-player wins and plies over `n` informed playouts from `start`.
    fn playouts(start: &Breakthrough, bitboard: bool, seed: u64, n: u32) -> (u32, u64) {
        let mut rng = seeded(seed);
        let mut list = MoveList::new();
        let (mut wins, mut plies) = (0, 0);
        for _ in 0..n {
            let mut g = start.clone();
            while g.outcome().is_none() {
                let mv = if bitboard {
                    ipp_step(&g, &mut rng)
                } else {
                    g.legal_moves(&mut list);
                    ipp_move(&g, &list, &mut rng)
                };
                g.make(mv);
                plies += 1;
            }
            wins += (g.outcome().unwrap().reward(Player::First) > 0.0) as u32;
        }
        (wins, plies)
    }

    /// From the start and from positions after random opening moves, the first player's win
    /// rate under the two draws differs by less than four standard errors, and so does the
    /// mean playout length (within 2%).
    #[test]
    fn bitboard_and_list_draws_end_playouts_alike() {
        let mut rng = seeded(11);
        let n = 4000;
        for k in 0..4u32 {
            let mut start = Breakthrough::start();
            for _ in 0..10 * k {
                let mv = start.random_playout_move(&mut rng);
                start.make(mv);
            }
            let (wa, la) = playouts(&start, false, 100 + k as u64, n);
            let (wb, lb) = playouts(&start, true, 200 + k as u64, n);
            let (pa, pb) = (wa as f64 / n as f64, wb as f64 / n as f64);
            let se = (pa * (1.0 - pa) * 2.0 / n as f64).sqrt();
            assert!((pa - pb).abs() < 4.0 * se, "{k}: {pa} vs {pb}");
            let (ma, mb) = (la as f64 / n as f64, lb as f64 / n as f64);
            assert!((ma - mb).abs() < 0.02 * ma, "{k}: {ma} vs {mb}");
        }
    }
}
