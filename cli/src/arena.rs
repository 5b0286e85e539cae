//! Playing games between two players: one game, a whole match on several threads, and the
//! per-game protocols (plain alternation of seats, Kalah's paired random boards).

use crate::search::wall_clock;
use crate::shard::Shard;
use imcts::search::Budget;
use imcts::search::parallel::StdThreads;
use imcts::{Game, Outcome, Player, SearchRng};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Games longer than this many plies are adjudicated a draw (a guard for games without a
/// bound of their own).
pub const MAX_PLIES: u32 = 2000;

/// How a game's matches are played.
pub trait MatchGame: Game {
    /// For paired protocols (Kalah): the starting position of pair `pair`, drawn from `rng`.
    /// `None` means the ordinary protocol: each game stands on its own.
    fn paired_start(_rng: &mut SearchRng) -> Option<Self> {
        None
    }
}

impl MatchGame for imcts::games::breakthrough::Breakthrough {}
impl MatchGame for imcts::games::tictactoe::TicTacToe {}
impl MatchGame for imcts::games::gomoku::Gomoku {}
impl MatchGame for imcts::games::lines_of_action::LinesOfAction {}
impl MatchGame for imcts::games::kalah::Kalah {
    /// Ramanujan & Selman's protocol, as in the paper: 48 stones dropped into uniformly random
    /// houses, stores empty.
    fn paired_start(rng: &mut SearchRng) -> Option<Self> {
        Some(imcts::games::kalah::Kalah::random_board(rng))
    }
}

/// Everything needed to play a match.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    /// Player A's spec.
    pub a: String,
    /// Player B's spec.
    pub b: String,
    /// Number of games.
    pub games: usize,
    /// Budget per move (A's, and B's unless `b_budget` is set).
    pub budget: Budget,
    /// B's budget when it differs from A's (`experiment --budget paper` gives each configuration
    /// its own).
    pub b_budget: Option<Budget>,
    /// Worker threads.
    pub threads: usize,
    /// Threads searching one tree, for A and for B (`--search-threads`).
    pub search_threads: [u32; 2],
    /// Each player's parallel mode (A, B), used with more than one search thread.
    pub parallel: [crate::search::Parallel; 2],
    /// Match seed: game `i`'s seeds derive from it and `i` alone.
    pub seed: u64,
    /// Opening positions (position strings); pair `p` of games starts from opening `p mod len`.
    pub openings: Vec<String>,
    /// The games this run plays (`--shard i/N`; [`Shard::WHOLE`] for all of them).
    pub shard: Shard,
}

impl MatchSpec {
    /// Whether this match plays game `G`'s paired protocol (random boards played twice; not
    /// when openings are given).
    pub fn paired<G: MatchGame>(&self) -> bool {
        let mut rng = imcts::rng::seeded(0);
        self.openings.is_empty() && G::paired_start(&mut rng).is_some()
    }

    /// B's budget per move.
    pub fn budget_b(&self) -> Budget {
        self.b_budget.unwrap_or(self.budget)
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game index in the match.
    pub index: usize,
    /// Whether A moved first.
    pub a_first: bool,
    /// The starting position string.
    pub start: String,
    /// The moves in notation.
    pub moves: Vec<String>,
    /// How it ended (`None`: adjudicated a draw at [`MAX_PLIES`]).
    pub outcome: Option<Outcome>,
    /// A's result: `1` win, `0` draw, `-1` loss.
    pub a_result: i32,
    /// Total simulations (αβ: nodes) and moves of A, then of B.
    pub work: [(u64, u64); 2],
}

/// A deterministic 64-bit mix of the match seed with small integers (splitmix64).
pub fn derive_seed(seed: u64, a: u64, b: u64) -> u64 {
    let mut z =
        seed ^ a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A budget as text, the same in records, summaries and experiment tables: `1000 sims`,
/// `50 ms`, `2000 nodes`, or several of them joined by `, `.
pub fn budget_text(b: &Budget) -> String {
    let mut parts = Vec::new();
    if let Some(n) = b.iterations {
        parts.push(format!("{n} sims"));
    }
    if let Some(us) = b.time_us {
        if us % 1000 == 0 {
            parts.push(format!("{} ms", us / 1000));
        } else {
            parts.push(format!("{us} us"));
        }
    }
    if let Some(n) = b.nodes {
        parts.push(format!("{n} nodes"));
    }
    parts.join(", ")
}

/// A short digest of a match's openings for its records (`null`-like `"none"` without them), so
/// that `imcts merge` refuses shards played from different openings files. FNV-1a, 64 bits.
pub fn openings_digest(openings: &[String]) -> String {
    if openings.is_empty() {
        return "none".into();
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for o in openings {
        for b in o.bytes().chain([b'\n']) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{} openings, fnv {h:016x}", openings.len())
}

/// The starting position of game `index`.
pub fn start_position<G: MatchGame>(spec: &MatchSpec, index: usize) -> Result<G, String> {
    let pair = index / 2;
    if !spec.openings.is_empty() {
        let text = &spec.openings[pair % spec.openings.len()];
        return G::parse_position(text).map_err(|e| format!("bad opening '{text}': {e}"));
    }
    let mut rng = imcts::rng::seeded(derive_seed(spec.seed, pair as u64, 0xb0a2d));
    Ok(G::paired_start(&mut rng).unwrap_or_else(G::new))
}

/// Set by Ctrl-C (SIGINT) or SIGTERM in commands that install [`stop_on_signals`]: matches then
/// finish no new game and abandon the ones in progress after the current move.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// Installs the SIGINT/SIGTERM handler that sets [`STOP`]; a second signal exits at once
/// (code 130).
pub fn stop_on_signals() -> Result<(), String> {
    ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    })
    .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))
}

/// Plays game `index` of the match: A moves first in even games. `Ok(None)` if [`STOP`] was
/// set before the game ended (the game is abandoned, not recorded).
pub fn play_game<G: MatchGame>(
    spec: &MatchSpec,
    index: usize,
) -> Result<Option<GameRecord>, String> {
    let mut game: G = start_position(spec, index)?;
    let start = crate::games::position_string(&game);
    let a_first = index.is_multiple_of(2);
    let seed_a = derive_seed(spec.seed, index as u64, 1);
    let seed_b = derive_seed(spec.seed, index as u64, 2);
    let budget_b = spec.budget_b();
    let mut a = crate::player::build::<G>(&spec.a, &spec.budget, None, Some(seed_a))?;
    let mut b = crate::player::build::<G>(&spec.b, &budget_b, None, Some(seed_b))?;
    let a_player = if a_first {
        Player::First
    } else {
        Player::Second
    };
    let mut moves = Vec::new();
    let mut work = [(0u64, 0u64); 2];
    let mut clock = wall_clock();
    let mut plies = 0;
    while !game.is_terminal() && plies < MAX_PLIES {
        if STOP.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let a_to_move = game.side_to_move() == a_player;
        let (player, memory) = if a_to_move { &mut a } else { &mut b };
        let budget = if a_to_move { spec.budget } else { budget_b };
        let decision = player.search_parallel(
            &mut game,
            budget,
            &mut clock,
            memory,
            &mut StdThreads(spec.search_threads[usize::from(!a_to_move)]),
            crate::search::parallel_settings(spec.parallel[usize::from(!a_to_move)]),
        );
        let Some(mv) = decision.best else { break };
        if !game.is_legal(mv) {
            let spec_text = if a_to_move { &spec.a } else { &spec.b };
            return Err(format!("player '{spec_text}' chose an illegal move"));
        }
        let w = &mut work[usize::from(!a_to_move)];
        w.0 += decision.simulations;
        w.1 += 1;
        moves.push(crate::games::move_string(&game, mv));
        a.0.advance(mv, &mut a.1);
        b.0.advance(mv, &mut b.1);
        game.make(mv);
        plies += 1;
    }
    let outcome = game.outcome();
    let a_result = match outcome {
        Some(Outcome::Win(p)) if p == a_player => 1,
        Some(Outcome::Win(_)) => -1,
        _ => 0,
    };
    Ok(Some(GameRecord {
        index,
        a_first,
        start,
        moves,
        outcome,
        a_result,
        work,
    }))
}

/// Running and final tallies of a match, from A's side.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games (or, for paired protocols, pairs) won by A.
    pub a_wins: u64,
    /// Won by B.
    pub b_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Pairs discarded because the same seat won both games (paired protocols only).
    pub discarded: u64,
    /// Simulations and moves of A, then of B.
    pub work: [(u64, u64); 2],
}

impl Tally {
    /// Adds another run's counts (pooling independent runs of one match).
    pub fn add(&mut self, other: &Tally) {
        self.a_wins += other.a_wins;
        self.b_wins += other.b_wins;
        self.draws += other.draws;
        self.discarded += other.discarded;
        for (w, o) in self.work.iter_mut().zip(other.work) {
            w.0 += o.0;
            w.1 += o.1;
        }
    }

    /// Counted results (wins, losses and draws; discarded pairs are not counted).
    pub fn counted(&self) -> u64 {
        self.a_wins + self.b_wins + self.draws
    }

    /// A's score rate, a draw counting half.
    pub fn a_rate(&self) -> f64 {
        let n = self.counted();
        if n == 0 {
            0.5
        } else {
            (self.a_wins as f64 + 0.5 * self.draws as f64) / n as f64
        }
    }

    /// The 95% Wilson score interval of A's rate, `(low, high)`, within `[0, 1]`.
    ///
    /// The paper's normal interval `p ± 1.96·sqrt(p(1−p)/n)` misbehaves at small `n` and at the
    /// edges: two drawn games gave `50% ± 69.3`, and 20 losses `0% ± 0`. Wilson's interval stays
    /// inside `[0, 1]` and is never empty: two draws give `[9.5%, 90.5%]`, 20 losses
    /// `[0%, 16.1%]`. For large `n` and `p` away from 0 and 1 the two agree. With no counted
    /// game it is `[0, 1]`. Draws count half, as in the rate.
    pub fn wilson95(&self) -> (f64, f64) {
        let n = self.counted() as f64;
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let z = 1.96f64;
        let p = self.a_rate();
        let denom = 1.0 + z * z / n;
        let center = (p + z * z / (2.0 * n)) / denom;
        let half = z / denom * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
        ((center - half).max(0.0), (center + half).min(1.0))
    }

    /// Half the width of the 95% Wilson interval ([`wilson95`](Self::wilson95)); the JSON
    /// field `ci95`.
    pub fn ci95(&self) -> f64 {
        let (lo, hi) = self.wilson95();
        (hi - lo) / 2.0
    }

    /// Average simulations per move of A (`side` 0) or B (`side` 1).
    pub fn sims_per_move(&self, side: usize) -> f64 {
        let (w, m) = self.work[side];
        if m == 0 { 0.0 } else { w as f64 / m as f64 }
    }

    fn add_work(&mut self, r: &GameRecord) {
        for s in 0..2 {
            self.work[s].0 += r.work[s].0;
            self.work[s].1 += r.work[s].1;
        }
    }

    /// Adds one game (ordinary protocol).
    pub fn add_game(&mut self, r: &GameRecord) {
        self.add_work(r);
        match r.a_result {
            1 => self.a_wins += 1,
            -1 => self.b_wins += 1,
            _ => self.draws += 1,
        }
    }

    /// Adds a pair of games on the same board with seats swapped (paired protocol): a side
    /// wins the pair if it won one game and at least drew the other; if the same seat won both
    /// games the pair is discarded.
    pub fn add_pair(&mut self, g1: &GameRecord, g2: &GameRecord) {
        self.add_work(g1);
        self.add_work(g2);
        let (x, y) = (g1.a_result, g2.a_result);
        match (x + y).signum() {
            1 => self.a_wins += 1,
            -1 => self.b_wins += 1,
            _ if x == 0 => self.draws += 1,
            _ => self.discarded += 1,
        }
    }
}

/// The tally of a match's games given in game order, as the match counts them (paired
/// protocols: consecutive games `2p`, `2p + 1` form pair `p`).
pub fn tally_in_order(records: &[GameRecord], paired: bool) -> Tally {
    let mut tally = Tally::default();
    if paired {
        for pair in records.chunks(2) {
            if let [g1, g2] = pair {
                tally.add_pair(g1, g2);
            }
        }
    } else {
        for r in records {
            tally.add_game(r);
        }
    }
    tally
}

/// How a match ended.
pub struct MatchOutcome {
    /// The tally of the finished games (paired protocols: of the complete pairs).
    pub tally: Tally,
    /// The finished games, in game order (resumed ones included).
    pub records: Vec<GameRecord>,
    /// Whether [`STOP`] cut the match short.
    pub interrupted: bool,
}

/// Plays a whole match on `spec.threads` threads (only `spec.shard`'s games), calling
/// `progress` on the main thread after each finished game with the tally so far. Game `i`
/// depends only on the seed and `i`, so the same seed gives the same games whatever the thread
/// count or shard (with simulation budgets). It skips the games in `finished` (a resumed match:
/// they count as played), calls `on_game` on the main thread with each game as it finishes (to
/// record it at once), and stops early, without error, when [`STOP`] is set.
pub fn run_match_with<G: MatchGame>(
    spec: &MatchSpec,
    finished: Vec<GameRecord>,
    mut progress: impl FnMut(&Tally, usize),
    mut on_game: impl FnMut(&GameRecord) -> Result<(), String>,
) -> Result<MatchOutcome, String> {
    // Validate the specs once, before any thread starts.
    crate::player::parse::<G>(&spec.a, None)?;
    crate::player::parse::<G>(&spec.b, None)?;
    let paired = spec.paired::<G>();
    if paired && spec.games % 2 == 1 {
        return Err(format!(
            "{} matches play pairs of games on the same random board: --games must be even (got {})",
            G::NAME,
            spec.games
        ));
    }
    let games = spec.games;
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Result<GameRecord, String>>();
    let mut records: Vec<Option<GameRecord>> = crate::memory::filled(games, None, "game records")?;
    let mut error = None;
    let resumed = finished.len();
    for r in finished {
        let i = r.index;
        if i >= games {
            return Err(format!(
                "the resumed record has game index {i}, past --games {games}"
            ));
        }
        if records[i].is_some() {
            return Err(format!("the resumed record holds game {i} twice"));
        }
        if !spec.shard.owns(i, paired) {
            return Err(format!(
                "the resumed record holds game {i}, which is not shard {}'s",
                spec.shard
            ));
        }
        records[i] = Some(r);
    }
    // Only this shard's games; each keeps its index, and so its seeds and start.
    let todo: Vec<usize> = (0..games)
        .filter(|&i| records[i].is_none() && spec.shard.owns(i, paired))
        .collect();
    let todo = &todo;
    let threads = spec.threads.clamp(1, todo.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= todo.len() || STOP.load(Ordering::Relaxed) {
                        break;
                    }
                    let r = match play_game::<G>(spec, todo[k]) {
                        Ok(Some(rec)) => Ok(rec),
                        Ok(None) => break,
                        Err(e) => Err(e),
                    };
                    let failed = r.is_err();
                    if tx.send(r).is_err() || failed {
                        next.store(todo.len(), Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut tally = Tally::default();
        let mut done = resumed;
        for r in rx {
            let r = r.and_then(|rec| on_game(&rec).map(|()| rec));
            match r {
                Ok(rec) => {
                    let i = rec.index;
                    if !paired {
                        tally.add_game(&rec);
                    }
                    records[i] = Some(rec);
                    if paired {
                        let p = i / 2 * 2;
                        if let (Some(g1), Some(g2)) = (&records[p], &records[p + 1]) {
                            let (g1, g2) = (g1.clone(), g2.clone());
                            tally.add_pair(&g1, &g2);
                        }
                    }
                    done += 1;
                    progress(&tally, done);
                }
                Err(e) => {
                    error.get_or_insert(e);
                    next.store(todo.len(), Ordering::Relaxed);
                }
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    // Recount in game order so the tally does not depend on finishing order. Paired protocols
    // count complete pairs only (an interrupted match may leave half a pair).
    let mut tally = Tally::default();
    if paired {
        for pair in records.chunks(2) {
            if let [Some(g1), Some(g2)] = pair {
                tally.add_pair(g1, g2);
            }
        }
    } else {
        for r in records.iter().flatten() {
            tally.add_game(r);
        }
    }
    let records: Vec<GameRecord> = records.into_iter().flatten().collect();
    let interrupted = records.len() < spec.shard.games_of(games, paired);
    Ok(MatchOutcome {
        tally,
        records,
        interrupted,
    })
}
