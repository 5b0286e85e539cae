//! Selection: which child a simulation enters at each tree node (UCT, Eq. 1 of the paper with
//! Eq. 2's `Q_IM`, MCTS-Solver's skipping of proven losses, progressive bias), and which child
//! the finished search plays.

use super::Mcts;
use crate::SearchRng;
use crate::game::Game;
use crate::rng::below;
use crate::search::config::{MctsConfig, ValueMode};
#[cfg(not(feature = "compact-code"))]
use crate::search::math::lookup_limit;
use crate::search::math::{inv_sqrt_below, mean_and_inv_sqrt, sqrt_ln};
use crate::search::node::{Node, NodeId, Proven, flag};
#[cfg(not(feature = "compact-code"))]
use crate::search::node::{ScanCache, has_header};

impl<G: Game> Mcts<'_, G> {
    /// The child to play at `node`: a proven win, else the most visited child that is not a
    /// proven loss (ties: higher mean, or the first with `code-ties`), else the most visited
    /// child.
    /// Every link it follows is checked ([`Pool::children_checked`](crate::search::pool::Pool::children_checked)),
    /// so it walks an unvalidated tree too ([`MctsState::inspect`](super::MctsState::inspect)).
    pub(crate) fn best_child(&self, node: NodeId) -> Option<NodeId> {
        let children = self.pool.children_checked(node);
        if children.is_empty() {
            return None;
        }
        let first = self.pool.get(node).first_child;
        let mut draw: Option<NodeId> = None;
        let mut best: Option<(NodeId, (u8, u32, f32))> = None;
        for (i, c) in children.iter().enumerate() {
            let rank = match c.proven {
                Proven::Win => 3,
                Proven::Loss => 0,
                Proven::Draw => {
                    draw.get_or_insert(NodeId(first + i as u32));
                    1
                }
                Proven::Unknown => 1,
            };
            if c.visits == 0 && rank < 3 && !c.is(flag::TERMINAL) {
                continue;
            }
            // The paper's code takes the first of equally visited children (`code-ties`).
            let mean = if self.config.code_ties { 0.0 } else { c.mean() };
            let key = (rank, c.visits, mean);
            let better = match best {
                None => true,
                Some((_, b)) => key.0 > b.0 || (key.0 == b.0 && (key.1, key.2) > (b.1, b.2)),
            };
            if better {
                best = Some((NodeId(first + i as u32), key));
            }
        }
        // Proven draws stop collecting visits (selection skips them), so a sure draw beats the
        // most visited unproven move unless that move looks better than a draw.
        match (best, draw) {
            (Some((id, (1, _, mean))), Some(d)) if self.pool.get(id).proven == Proven::Unknown => {
                Some(if mean > 0.0 { id } else { d })
            }
            (b, d) => b.map(|(id, _)| id).or(d),
        }
    }

    /// [`parent_count`](Self::parent_count) at `node`, its own visits read here (for tests).
    #[cfg(test)]
    pub(crate) fn uct_parent_visits(&self, node: NodeId) -> u32 {
        self.parent_count(node, self.pool.get(node).visits)
    }

    /// The parent's count `n_s` in Eq. 1 at `node`, whose own visits (`own`) the caller has
    /// read already. With node priors the paper's code takes the sum of the children's visits,
    /// prior visits included, so that `ln n_s` and the children's counts are on the same scale;
    /// evaluation priors (`ep`) do the same; otherwise it is the node's own visits.
    #[inline(always)]
    fn parent_count(&self, node: NodeId, own: u32) -> u32 {
        if self.config.seeds_priors() {
            self.pool.children_visits(node)
        } else {
            own
        }
    }

    /// UCT selection among `node`'s children (Eq. 1 with Eq. 2's `Q`), skipping proven losses,
    /// taking a proven win at once, unvisited children first, random tie-breaks.
    ///
    /// Inlined into its one caller, the descent in `simulate`: a simulation selects once per
    /// tree level (9 to 16 times in a Kalah search, 4 to 6 in a Breakthrough middle game as the
    /// tree grows from 20,000 to 500,000 simulations), and each call paid a prologue, reloads
    /// of the configuration and of the generator's state: 3.5% of the instructions of a
    /// 20,000-simulation Kalah search, 0.7% of a Breakthrough middle-game one (callgrind).
    ///
    /// `SCORE` is the configuration's [`score_kind`]: the simulation loop is compiled once per
    /// kind of score (`simulations`), so that each copy holds one scan loop, without the other
    /// kinds' branches and their claim on registers.
    #[inline(always)]
    pub(super) fn select<const SCORE: u8>(
        &mut self,
        node: NodeId,
        visits: u32,
        game: &G,
    ) -> NodeId {
        debug_assert_eq!(SCORE, score_kind(&self.config));
        self.select_with::<SCORE>(node, visits, game)
    }

    #[inline(always)]
    fn select_with<const SCORE: u8>(&mut self, node: NodeId, visits: u32, game: &G) -> NodeId {
        let n = self.pool.get(node);
        let first = n.first_child;
        #[cfg(not(feature = "compact-code"))]
        if SCORE != score::GENERAL
            && G::MAX_MOVES >= BUFFERED_FROM
            && has_header(n.children)
            && n.added == n.children
            && !test_hooks::skips_off()
        {
            let block = n.children;
            return self.select_skipping::<SCORE>(node, first, block, visits, game);
        }
        let explore = self.config.uct_c * sqrt_ln(self.parent_count(node, visits));
        let children = self.pool.children(node);
        let i = uct_choice::<G, Node, SCORE>(&self.config, children, explore, game, &mut self.rng);
        NodeId(first + i)
    }

    /// [`select_with`](Self::select_with) at a node whose children block has a header: the
    /// child the last full scan chose, when the header's cache shows that it is still the
    /// scan's unique best ([`ScanCache`]); otherwise the full scan, which leaves its choice
    /// and runner-up in the header. The same child as the full scan, from the same random
    /// numbers (`selection_skips_search_as_the_full_scan`).
    ///
    /// A middle-game Breakthrough search takes the cached child at about two selections in
    /// three: the children it does not score are about 70% of those scanned before
    /// (docs/performance.md, "Session 30").
    #[cfg(not(feature = "compact-code"))]
    #[inline(always)]
    fn select_skipping<const SCORE: u8>(
        &mut self,
        node: NodeId,
        first: u32,
        block: u16,
        visits: u32,
        game: &G,
    ) -> NodeId {
        if let Some(cache) = self.pool.scan_cache(first, block) {
            if let Some(c) = self.pool.children(node).get(cache.chosen as usize) {
                let (v, r) = c.stats();
                // Every simulation since went through the chosen child (its visits and the
                // node's grew alike), which is still open.
                if c.proven == Proven::Unknown && v > 0 && v.wrapping_sub(visits) == cache.gap {
                    let explore = self.config.uct_c * sqrt_ln(visits.wrapping_add(cache.base));
                    if explore >= cache.explore {
                        let score = visited_score::<G, Node, SCORE, false>(
                            &self.config,
                            c,
                            v,
                            r,
                            explore,
                            game,
                        );
                        // Every other child scores at most this; the margin (2^-18 of the
                        // magnitudes, some 30 times the rounding of a score) keeps the test
                        // on the safe side of equality.
                        let bound = cache.runner_up + (explore - cache.explore);
                        if score > bound + (bound.abs() + explore + 1.0) * (1.0 / 262_144.0) {
                            test_hooks::count_skip();
                            return NodeId(first + cache.chosen);
                        }
                    }
                }
            }
        }
        let count = self.parent_count(node, visits);
        let explore = self.config.uct_c * sqrt_ln(count);
        let children = self.pool.children(node);
        let (i, runner_up) = buffered_choice::<G, Node, SCORE, true>(
            &self.config,
            children,
            explore,
            game,
            &mut self.rng,
        );
        let c = &children[i as usize];
        let cache = (runner_up > f32::NEG_INFINITY && c.proven == Proven::Unknown && c.visits > 0)
            .then(|| ScanCache {
                chosen: i,
                runner_up,
                explore,
                base: count.wrapping_sub(visits),
                gap: c.visits.wrapping_sub(visits),
            });
        self.pool.set_scan_cache(first, block, cache);
        NodeId(first + i)
    }
}

/// For the tests: make this thread's one-thread searches scan every child at every selection,
/// as before the scan cache ([`ScanCache`]), and count the selections that took the cached
/// child. Nothing outside tests.
#[cfg(not(feature = "compact-code"))]
pub(crate) mod test_hooks {
    #[cfg(test)]
    use core::cell::Cell;

    #[cfg(test)]
    std::thread_local! {
        static SKIPS_OFF: Cell<bool> = const { Cell::new(false) };
        static SKIPS: Cell<u64> = const { Cell::new(0) };
    }

    /// Counts a selection that took the cached child (per thread).
    #[inline(always)]
    pub(crate) fn count_skip() {
        #[cfg(test)]
        SKIPS.with(|s| s.set(s.get() + 1));
    }

    /// The selections that took the cached child on this thread so far.
    #[cfg(test)]
    pub(crate) fn skips() -> u64 {
        SKIPS.with(Cell::get)
    }

    /// Whether this thread's selections always scan.
    #[inline(always)]
    pub(crate) fn skips_off() -> bool {
        #[cfg(test)]
        return SKIPS_OFF.with(Cell::get);
        #[cfg(not(test))]
        false
    }

    /// Sets whether this thread's selections always scan.
    #[cfg(test)]
    pub(crate) fn set_skips_off(on: bool) {
        SKIPS_OFF.with(|f| f.set(on));
    }
}

/// The kinds of UCT score, as the constant that gives each its own copy of the scan: the
/// configuration's tests (the value mode, progressive bias) are the same at every child, and
/// the compiler does not take them out of the loop itself.
pub(crate) mod score {
    /// Eq. 1 with the mean reward: no heuristic mixing, no progressive bias (plain UCT: about
    /// 6% fewer instructions a simulation than the general loop, callgrind).
    pub const PLAIN: u8 = 0;
    /// Eq. 2's `Q_IM = (1−α)·mean + α·v` (implicit minimax, or constant bias), no progressive
    /// bias: the presets with `im`.
    pub const MIX: u8 = 1;
    /// Any configuration, the mode and progressive bias read at each child.
    pub const GENERAL: u8 = 2;
}

/// The kind of score [`uct_choice`] computes for `cfg` ([`score`]). `compact-code` keeps only
/// the general loop, which gives every kind's scores exactly.
#[inline(always)]
pub(crate) fn score_kind<G: Game>(cfg: &MctsConfig<G>) -> u8 {
    if cfg!(feature = "compact-code") || cfg.progressive_bias.is_some() {
        return score::GENERAL;
    }
    match cfg.value_mode {
        ValueMode::Mean => score::PLAIN,
        ValueMode::Implicit | ValueMode::ConstantBias => score::MIX,
        ValueMode::ProgressiveImplicit => score::GENERAL,
    }
}

/// What UCT selection reads of a child: the plain node of the one-thread search, or the
/// atomic one of the parallel search (`search::parallel`), so both select by the same code.
pub(crate) trait SelectChild {
    /// The solver's value.
    fn proven(&self) -> Proven;
    /// `(visits, stat)`, read together: the count and the reward statistic
    /// ([`stats`](crate::search::stats)).
    fn stats(&self) -> (u32, f32);
    /// The flag bits ([`flag`]).
    fn flags(&self) -> u8;
    /// The implicit minimax value `v`.
    fn value(&self) -> f32;
    /// The move into the child, encoded.
    fn move_code(&self) -> u16;
}

impl SelectChild for Node {
    #[inline(always)]
    fn proven(&self) -> Proven {
        self.proven
    }
    #[inline(always)]
    fn stats(&self) -> (u32, f32) {
        (self.visits, self.stat)
    }
    #[inline(always)]
    fn flags(&self) -> u8 {
        self.flags
    }
    #[inline(always)]
    fn value(&self) -> f32 {
        self.value
    }
    #[inline(always)]
    fn move_code(&self) -> u16 {
        self.mv
    }
}

/// UCT selection among `children` (Eq. 1 with Eq. 2's `Q`; `explore` is `C·√ln n_s`): the index
/// of a proven win at once, proven losses skipped, unvisited children first, ties drawn
/// uniformly, a proven draw only when nothing else is open, and when every child is proven, a
/// draw if there is one, else the first child.
///
/// The tie is drawn once the ties are counted: one random number, and no generator state held
/// through the scan (ties are mostly the unvisited children of a node expanded in this
/// simulation, about 20 of them in Breakthrough). A second scan takes the `k`-th tie; its
/// scores come from the same code, so they are equal to the bit. In the parallel search
/// another thread may change a child between the two scans: if the `k`-th tie is not found
/// again, the first scan's best stands (a benign race: a best child is taken either way).
#[inline(always)]
pub(crate) fn uct_choice<G: Game, C: SelectChild, const SCORE: u8>(
    cfg: &MctsConfig<G>,
    children: &[C],
    explore: f32,
    game: &G,
    rng: &mut SearchRng,
) -> u32 {
    #[cfg(not(feature = "compact-code"))]
    if SCORE != score::GENERAL
        && G::MAX_MOVES >= BUFFERED_FROM
        && (BUFFERED_FROM..=BUFFERED).contains(&children.len())
    {
        return buffered_choice::<G, C, SCORE, false>(cfg, children, explore, game, rng).0;
    }
    let mut best = f32::NEG_INFINITY;
    let mut best_i = u32::MAX;
    let mut ties = 0u32;
    let mut draw_child = None;
    for (i, c) in children.iter().enumerate() {
        let score = match c.proven() {
            Proven::Win => return i as u32,
            Proven::Loss => continue,
            // Score-bounded MCTS for draws: once a draw is proven here it cannot improve the
            // node, so only unproven siblings are explored (and can prove the node).
            Proven::Draw => {
                draw_child = Some(i as u32);
                continue;
            }
            Proven::Unknown => {
                let (visits, reward) = c.stats();
                if visits > 0 {
                    visited_score::<G, C, SCORE, false>(cfg, c, visits, reward, explore, game)
                } else if cfg!(feature = "compact-code") {
                    // The general scan scores it +∞ like any other (smaller code, same choice).
                    f32::INFINITY
                } else {
                    // The first unvisited child: it scores +∞, which no visited child reaches
                    // (their scores are finite), so the rest of the scan only looks for a proven
                    // win and counts the unvisited children, without computing a score.
                    return unvisited_choice::<G, C>(children, i, rng);
                }
            }
        };
        if score > best {
            best = score;
            best_i = i as u32;
            ties = 1;
        } else if score == best {
            ties += 1;
        }
    }
    if best_i == u32::MAX {
        return draw_child.unwrap_or(0);
    }
    // The paper's code takes the first of equally scored visited children (its unvisited ones
    // score "infinity plus a random number", a uniform draw like ours).
    if ties > 1 && !(cfg.code_ties && best < f32::INFINITY) {
        let mut k = below(rng, ties);
        for (i, c) in children.iter().enumerate() {
            if c.proven() == Proven::Unknown
                && uct_score::<G, C, SCORE>(cfg, c, explore, game) == best
            {
                if k == 0 {
                    return i as u32;
                }
                k -= 1;
            }
        }
    }
    best_i
}

/// The most children [`buffered_choice`] keeps scores for (256 bytes of stack); nodes with
/// more (Lines of Action's, Gomoku's) take the branching scan.
#[cfg(not(feature = "compact-code"))]
const BUFFERED: usize = 64;

/// The fewest children [`buffered_choice`] and the bit set of [`unvisited_choice`] are used
/// for: with Kalah's six the branching loops were faster (alternating pairs of
/// 500,000-simulation `mcts(fet4)` searches: the buffered scan 0.974 of their speed, the bit
/// set 0.98). A game that never has as many moves compiles without them.
const BUFFERED_FROM: usize = 8;

/// [`uct_choice`] for the plain and the mixed score, the same child from the same random
/// numbers, computed without a branch on the scores: two running maxima (even and odd
/// children, so that neither waits on the other) keep the best and its first child, which is
/// the choice with `code-ties`; for random ties each child's score also goes into a buffer,
/// from which the ties are then counted, and the tie taken.
///
/// The branching scan's `score > best` goes either way at random (a UCT node's children score
/// close to each other, and which one leads changes from one visit to the next), and its
/// mispredictions cost more than the buffer's stores and the second pass: `mcts(efLH,bl')`
/// runs 7–13% faster with 7% more instructions (docs/performance.md, "Session 23"). A proven
/// win, or an unvisited unproven child, decides the choice where the branching scan would meet
/// it, in the same order; proven losses and draws score −∞, which no visited child's finite
/// score equals.
#[cfg(not(feature = "compact-code"))]
#[inline(always)]
fn buffered_choice<G: Game, C: SelectChild, const SCORE: u8, const RUNNER_UP: bool>(
    cfg: &MctsConfig<G>,
    children: &[C],
    explore: f32,
    game: &G,
    rng: &mut SearchRng,
) -> (u32, f32) {
    const NONE: f32 = f32::NEG_INFINITY;
    // With the paper code's ties (the default in Breakthrough) the first best child is all
    // the choice needs: that copy of the scan neither zeroes nor fills the buffer (16 and 2
    // stores a scan of 20 children).
    if cfg.code_ties {
        let mut unused = [];
        return match scan_pairs::<G, C, SCORE, false, RUNNER_UP>(
            cfg,
            children,
            explore,
            game,
            &mut unused,
        ) {
            Ok((best, first, second)) => (chosen(children, best, first), second),
            Err(i) => (decided::<G, C>(children, i, rng), NONE),
        };
    }
    let mut scores = [0f32; BUFFERED];
    let (best, second) =
        match scan_pairs::<G, C, SCORE, true, RUNNER_UP>(cfg, children, explore, game, &mut scores)
        {
            Ok((best, _, second)) if best > f32::NEG_INFINITY => (best, second),
            Ok((best, first, _)) => return (chosen(children, best, first), NONE),
            Err(i) => return (decided::<G, C>(children, i, rng), NONE),
        };
    // Random ties: one of the equally scored children, drawn uniformly.
    let scores = &scores[..children.len()];
    let ties = scores.iter().filter(|&&s| s == best).count() as u32;
    let mut k = if ties > 1 { below(rng, ties) } else { 0 };
    for (i, &s) in scores.iter().enumerate() {
        if s == best {
            if k == 0 {
                return (i as u32, second);
            }
            k -= 1;
        }
    }
    (0, NONE)
}

/// The buffered scan's choice when `children[i]` decides it, as the branching scan would: a
/// proven win at once, else a draw among the unvisited children.
#[cfg(not(feature = "compact-code"))]
#[inline(always)]
fn decided<G: Game, C: SelectChild>(children: &[C], i: usize, rng: &mut SearchRng) -> u32 {
    if children[i].proven() == Proven::Win {
        i as u32
    } else {
        unvisited_choice::<G, C>(children, i, rng)
    }
}

/// The buffered scan's choice from its best score and the first child reaching it, without
/// random ties: that child, or, when every child is a proven loss or draw (best −∞), the
/// last draw, else the first child.
#[cfg(not(feature = "compact-code"))]
#[inline(always)]
fn chosen<C: SelectChild>(children: &[C], best: f32, first: usize) -> u32 {
    if best == f32::NEG_INFINITY {
        return children
            .iter()
            .rposition(|c| c.proven() == Proven::Draw)
            .unwrap_or(0) as u32;
    }
    first as u32
}

/// The buffered scan proper, two children at a time: the best score with the first child
/// that reaches it (`Ok`), or the child that decides the choice (`Err`); with `FILL`, every
/// child's score goes into `scores` as well (for random ties). Two running maxima (even and
/// odd children), so that neither waits on the other, and the first index of each by
/// selects: the choice under `code-ties` is read from them without a pass over a buffer,
/// whose exit (at the best child) was mispredicted about once a scan.
#[cfg(not(feature = "compact-code"))]
#[inline(always)]
fn scan_pairs<G: Game, C: SelectChild, const SCORE: u8, const FILL: bool, const RUNNER_UP: bool>(
    cfg: &MctsConfig<G>,
    children: &[C],
    explore: f32,
    game: &G,
    scores: &mut [f32],
) -> Result<(f32, usize, f32), usize> {
    // Counts below this are looked up (at least 1, so that `limit - 1` does not wrap).
    let limit = lookup_limit();
    // `Err(i)`: child `i` decides the choice, as it would in the branching scan.
    let score_of = |i: usize, c: &C| -> Result<f32, usize> {
        let proven = c.proven();
        let (visits, reward) = c.stats();
        // The common case by one test: the word is zero exactly when the child is unproven
        // and visited, with a count inside the `1/sqrt n` table (so that the lookup needs no
        // bound); a count past the table is scored below with the square root.
        let rare = u32::from(proven as i8 as u8 ^ Proven::Unknown as i8 as u8)
            | u32::from(visits.wrapping_sub(1) >= limit - 1);
        if rare == 0 {
            return Ok(visited_score::<G, C, SCORE, true>(
                cfg, c, visits, reward, explore, game,
            ));
        }
        match proven {
            Proven::Unknown if visits > 0 => Ok(visited_score::<G, C, SCORE, false>(
                cfg, c, visits, reward, explore, game,
            )),
            // Unvisited.
            Proven::Unknown | Proven::Win => Err(i),
            Proven::Loss | Proven::Draw => Ok(f32::NEG_INFINITY),
        }
    };
    let (mut even, mut odd) = (f32::NEG_INFINITY, f32::NEG_INFINITY);
    // With `RUNNER_UP`, each lane's second best too: its best of the scores that are not its
    // maximum once (at equal maxima, the maximum itself).
    let (mut even2, mut odd2) = (f32::NEG_INFINITY, f32::NEG_INFINITY);
    let (mut even_at, mut odd_at) = (0usize, 1usize);
    let mut pairs = children.chunks_exact(2);
    let mut i = 0;
    for pair in &mut pairs {
        let a = score_of(i, &pair[0])?;
        let b = score_of(i + 1, &pair[1])?;
        if FILL {
            scores[i] = a;
            scores[i + 1] = b;
        }
        if RUNNER_UP {
            even2 = max_of(even2, min_of(a, even));
            odd2 = max_of(odd2, min_of(b, odd));
        }
        even_at = if a > even { i } else { even_at };
        odd_at = if b > odd { i + 1 } else { odd_at };
        even = if a > even { a } else { even };
        odd = if b > odd { b } else { odd };
        i += 2;
    }
    if let [c] = pairs.remainder() {
        let a = score_of(i, c)?;
        if FILL {
            scores[i] = a;
        }
        if RUNNER_UP {
            even2 = max_of(even2, min_of(a, even));
        }
        even_at = if a > even { i } else { even_at };
        even = if a > even { a } else { even };
    }
    // The second best overall: the better lane's second or the other lane's best.
    let runner_up = if RUNNER_UP {
        max_of(max_of(even2, odd2), min_of(even, odd))
    } else {
        f32::NEG_INFINITY
    };
    // Each lane's index is its first best (`>` keeps the first); at equal maxima the smaller
    // of the two is the first overall. A lane whose children all score −∞ keeps its start
    // index but loses to the other lane, which holds `best > −∞` (at −∞ the index is not
    // read).
    let best = if odd > even { odd } else { even };
    let first = if even > odd {
        even_at
    } else if odd > even {
        odd_at
    } else {
        even_at.min(odd_at)
    };
    Ok((best, first, runner_up))
}

/// The larger of two scores, which are never NaN: one `maxss`, where `f32::max` adds the
/// handling of NaN (3.7% of a `mcts(efLH,bl',im0.6)` middle-game search's instructions when it
/// kept the runner-up).
#[cfg(not(feature = "compact-code"))]
#[inline(always)]
fn max_of(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// The smaller of two scores, which are never NaN (see [`max_of`]).
#[cfg(not(feature = "compact-code"))]
#[inline(always)]
fn min_of(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// [`uct_choice`] once `children[first]` is found unvisited (and unproven), so that the choice
/// is among the unvisited children, all scoring +∞: a proven win later in the list is still
/// taken at once, and otherwise one of the unvisited unproven children is drawn uniformly (the
/// paper's code also draws among its unvisited children: it scores them "infinity plus a random
/// number"). The same child, from the same random number, as scoring every child would give;
/// only the scores of the visited children, which cannot win, are not computed.
/// Kept out of line: inlined into the scan it costs the scan's registers (Kalah +1%).
#[inline(never)]
fn unvisited_choice<G: Game, C: SelectChild>(
    children: &[C],
    first: usize,
    rng: &mut SearchRng,
) -> u32 {
    let unvisited = |c: &C| c.proven() == Proven::Unknown && c.stats().0 == 0;
    if G::MAX_MOVES >= BUFFERED_FROM
        && (BUFFERED_FROM..=u64::BITS as usize).contains(&children.len())
    {
        // The unvisited children as bits, and the drawn one found by clearing the lower ones:
        // no branch on which children are unvisited (a node's later visits find them mixed
        // with visited ones): `mcts(ipp)` 1.04× in the middle game.
        let mut open = 0u64;
        for (i, c) in children.iter().enumerate().skip(first) {
            if c.proven() == Proven::Win {
                return i as u32;
            }
            open |= u64::from(unvisited(c)) << i;
        }
        if open == 0 {
            // In the parallel search another thread may have visited the child the caller
            // found unvisited, and every other: that child stands (a benign race, as below).
            return first as u32;
        }
        let ties = open.count_ones();
        if ties > 1 {
            for _ in 0..below(rng, ties) {
                open &= open - 1;
            }
        }
        return open.trailing_zeros();
    }
    let mut ties = 1u32;
    for (i, c) in children.iter().enumerate().skip(first + 1) {
        if c.proven() == Proven::Win {
            return i as u32;
        }
        ties += unvisited(c) as u32;
    }
    if ties == 1 {
        return first as u32;
    }
    let mut k = below(rng, ties);
    for (i, c) in children.iter().enumerate().skip(first) {
        if unvisited(c) {
            if k == 0 {
                return i as u32;
            }
            k -= 1;
        }
    }
    // In the parallel search another thread may visit a child between the two scans: the
    // first unvisited child stands then (a benign race, as in `uct_choice`).
    first as u32
}

/// UCT's score of an unproven child (Eq. 1 with Eq. 2's `Q`); infinite if unvisited. `SCORE`
/// ([`score`]) compiles the other kinds' branches away.
#[inline(always)]
fn uct_score<G: Game, C: SelectChild, const SCORE: u8>(
    cfg: &MctsConfig<G>,
    c: &C,
    explore: f32,
    game: &G,
) -> f32 {
    let (visits, reward) = c.stats();
    if visits == 0 {
        return f32::INFINITY;
    }
    visited_score::<G, C, SCORE, false>(cfg, c, visits, reward, explore, game)
}

/// [`uct_score`] of a child with `visits > 0` and statistic `reward`, as read once by the caller;
/// `IN_TABLE`: the caller has checked that `visits` is below the [`lookup_limit`] it read.
#[inline(always)]
fn visited_score<G: Game, C: SelectChild, const SCORE: u8, const IN_TABLE: bool>(
    cfg: &MctsConfig<G>,
    c: &C,
    visits: u32,
    reward: f32,
    explore: f32,
    game: &G,
) -> f32 {
    let general = SCORE == score::GENERAL;
    let mix = SCORE == score::MIX;
    let plain = SCORE == score::PLAIN
        || (general && cfg.value_mode == ValueMode::Mean && cfg.progressive_bias.is_none());
    let alpha = cfg.alpha;
    // A count inside the table is below the threshold where the statistic becomes a mean.
    let (mut mean, inv) = if IN_TABLE {
        (reward / visits as f32, inv_sqrt_below(visits))
    } else {
        mean_and_inv_sqrt(visits, reward)
    };
    // A child's estimate stays within its proven bounds (draw bounds need draws).
    if G::CAN_DRAW {
        let flags = c.flags();
        if flags & (flag::AT_MOST_DRAW | flag::AT_LEAST_DRAW) != 0 {
            mean = if flags & flag::AT_MOST_DRAW != 0 {
                mean.min(0.0)
            } else {
                mean.max(0.0)
            };
        }
    }
    let q = if plain {
        mean
    } else if mix {
        (1.0 - alpha) * mean + alpha * c.value()
    } else {
        match cfg.value_mode {
            ValueMode::Mean => mean,
            ValueMode::Implicit | ValueMode::ConstantBias => {
                (1.0 - alpha) * mean + alpha * c.value()
            }
            ValueMode::ProgressiveImplicit => {
                (1.0 - alpha) * mean + alpha * c.value() / (visits as f32 + 1.0)
            }
        }
    };
    let mut s = q + explore * inv;
    if let (true, false, Some(w)) = (general, plain, cfg.progressive_bias) {
        let h = G::decode_move(c.move_code())
            .and_then(|mv| game.move_bias(mv))
            .unwrap_or_else(|| c.value());
        s += w * h / (visits as f32 + 1.0);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::breakthrough::Breakthrough;
    use crate::rng::{next_u64, seeded};

    /// UCT's choice as defined, scoring every child: the reference that the scan's shortcut
    /// for unvisited children (`unvisited_choice`) must match, child for child and random
    /// number for random number.
    fn reference_choice(children: &[Node], explore: f32, rng: &mut SearchRng) -> u32 {
        let score = |c: &Node| {
            if c.visits == 0 {
                f32::INFINITY
            } else {
                c.mean() + explore * crate::search::math::inv_sqrt(c.visits)
            }
        };
        let (mut best, mut best_i, mut ties, mut draw) = (f32::NEG_INFINITY, None, 0, None);
        for (i, c) in children.iter().enumerate() {
            match c.proven {
                Proven::Win => return i as u32,
                Proven::Loss => {}
                Proven::Draw => draw = Some(i as u32),
                Proven::Unknown if score(c) > best => {
                    (best, best_i, ties) = (score(c), Some(i as u32), 1);
                }
                Proven::Unknown => ties += (score(c) == best) as u32,
            }
        }
        let Some(first) = best_i else {
            return draw.unwrap_or(0);
        };
        if ties == 1 {
            return first;
        }
        let mut k = below(rng, ties);
        for (i, c) in children.iter().enumerate() {
            if c.proven == Proven::Unknown && score(c) == best {
                if k == 0 {
                    return i as u32;
                }
                k -= 1;
            }
        }
        unreachable!()
    }

    /// Each kind's own copy of the scan chooses as the general scan does, child for child and
    /// random number for random number: Eq. 2's mix (implicit minimax, constant bias) and plain
    /// UCT, with draw bounds (Lines of Action can draw), proven children, visit counts past the
    /// table and ties. The game has at least 8 moves ([`BUFFERED_FROM`]), so that the buffered
    /// scan is compiled in: with Kalah's 6 (this test's game until session 24) it was not, and
    /// the test compared the general scan with itself. (`compact-code` keeps only the general
    /// scan, so there is nothing to compare.)
    #[test]
    #[cfg(not(feature = "compact-code"))]
    fn each_kind_of_score_chooses_as_the_general_scan() {
        use crate::games::lines_of_action::LinesOfAction;
        use crate::search::config::ValueMode;
        const { assert!(LinesOfAction::MAX_MOVES >= BUFFERED_FROM && LinesOfAction::CAN_DRAW) };
        let game = LinesOfAction::start();
        let mut draws = seeded(12);
        let mut mixed = 0;
        let mut scored_through = 0;
        for case in 0..30_000u64 {
            let mode = [
                ValueMode::Mean,
                ValueMode::Implicit,
                ValueMode::ConstantBias,
            ][(case % 3) as usize];
            let cfg = MctsConfig::<LinesOfAction> {
                code_ties: case % 2 == 0,
                value_mode: mode,
                alpha: if mode == ValueMode::Mean {
                    0.0
                } else {
                    [0.3, 0.4, 0.6, 1.0][(case / 3 % 4) as usize]
                },
                ..MctsConfig::default()
            }
            .validate()
            .unwrap();
            let kind = score_kind(&cfg);
            assert_eq!(
                kind,
                if mode == ValueMode::Mean {
                    score::PLAIN
                } else {
                    score::MIX
                }
            );
            // Up to 70 children: the buffered scan's range (8 to 64) and both sides of it.
            let n = 1 + (next_u64(&mut draws) % 70) as usize;
            // In three cases of four no child is unvisited or a proven win, so that large sets
            // are scored to the end.
            let open = case % 4 == 0;
            let mut kids = [Node::EMPTY; 70];
            for k in &mut kids[..n] {
                let r = next_u64(&mut draws);
                // Small sets of values, so that equal scores are common; some counts on both
                // sides of the 4,096-entry table's end.
                k.visits = match (r >> 24) % 8 {
                    0 if open => 0,
                    // In one case of five every child near the table's end, so that the best
                    // is among them.
                    _ if case % 5 == 2 => 4_090 + (r >> 32) as u32 % 12,
                    1 => 4_094 + (r >> 32) as u32 % 5,
                    _ => 1 + (r % 3) as u32,
                };
                k.stat = ((r >> 8) % 3) as f32 - 1.0;
                k.value = ((r >> 12) % 3) as f32 * 0.5 - 0.5;
                k.proven = match (r >> 16) % 16 {
                    // Now and then every child a proven loss or draw.
                    _ if case % 16 == 1 => [Proven::Loss, Proven::Draw][(r >> 40) as usize % 2],
                    0 if open => Proven::Win,
                    1 | 2 => Proven::Loss,
                    3 => Proven::Draw,
                    _ => Proven::Unknown,
                };
                k.flags = match (r >> 20) % 8 {
                    0 => flag::AT_MOST_DRAW,
                    1 => flag::AT_LEAST_DRAW,
                    _ => 0,
                };
            }
            let kids = &kids[..n];
            scored_through += (!open && (8..=64).contains(&n)) as u32;
            let (mut a, mut b) = (seeded(case), seeded(case));
            let got = if kind == score::PLAIN {
                uct_choice::<_, _, { score::PLAIN }>(&cfg, kids, 0.8, &game, &mut a)
            } else {
                mixed += 1;
                uct_choice::<_, _, { score::MIX }>(&cfg, kids, 0.8, &game, &mut a)
            };
            let want = uct_choice::<_, _, { score::GENERAL }>(&cfg, kids, 0.8, &game, &mut b);
            assert_eq!(got, want, "case {case}, {mode:?}: {kids:?}");
            assert_eq!(
                next_u64(&mut a),
                next_u64(&mut b),
                "random stream, case {case}"
            );
        }
        assert_eq!(mixed, 20_000);
        assert!(scored_through > 10_000, "{scored_through}");
    }

    /// The parallel search's race: the child the scan found unvisited, and every other, was
    /// visited by another thread before the draw. The draw keeps that child, for small and
    /// large sets alike, and never names a node outside the children.
    #[test]
    fn the_unvisited_draw_keeps_its_child_when_none_is_left() {
        let mut rng = seeded(3);
        for n in 1..=70 {
            let kids: [Node; 70] = core::array::from_fn(|_| Node {
                visits: 1,
                ..Node::EMPTY
            });
            for first in 0..n {
                let got = unvisited_choice::<Breakthrough, Node>(&kids[..n], first, &mut rng);
                assert_eq!(got, first as u32, "{n} children, first {first}");
            }
        }
    }

    #[test]
    fn the_scan_chooses_as_scoring_every_child() {
        // Random ties (the reference draws them); the code's are tested in paper_code_tests.
        let cfg = MctsConfig::<Breakthrough> {
            code_ties: false,
            ..MctsConfig::default()
        }
        .validate()
        .unwrap();
        let game = Breakthrough::start();
        let mut draws = seeded(11);
        let mut unvisited_first = 0;
        for case in 0..20_000 {
            let n = 1 + (next_u64(&mut draws) % 70) as usize;
            let mut kids = [Node::EMPTY; 70];
            for k in &mut kids[..n] {
                let r = next_u64(&mut draws);
                // Few visits and rewards from a small set, so that equal scores are common.
                k.visits = (r % 4) as u32;
                k.stat = ((r >> 8) % 3) as f32 - 1.0;
                k.proven = match (r >> 16) % 16 {
                    0 => Proven::Win,
                    1 | 2 => Proven::Loss,
                    3 => Proven::Draw,
                    _ => Proven::Unknown,
                };
            }
            let kids = &kids[..n];
            unvisited_first +=
                kids.iter()
                    .any(|c| c.visits == 0 && c.proven == Proven::Unknown) as u32;
            let (mut a, mut b) = (seeded(case), seeded(case));
            let got = uct_choice::<_, _, { score::PLAIN }>(&cfg, kids, 0.8, &game, &mut a);
            let want = reference_choice(kids, 0.8, &mut b);
            assert_eq!(got, want, "case {case}: {kids:?}");
            assert_eq!(
                next_u64(&mut a),
                next_u64(&mut b),
                "random stream, case {case}"
            );
        }
        assert!(unvisited_first > 5_000, "{unvisited_first}");
    }
}
