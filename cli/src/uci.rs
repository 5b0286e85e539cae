//! `imcts uci`: the UCI grammar (the chess engines' protocol) for all five games, so GUI
//! writers and tournament scripts can drive imcts with tools they already have.
//!
//! Moves and positions use each game's own notation (`a2-a3`, `h8`, `c3`, …); `position pos
//! <string>` takes a position string as `imcts search --position` does. White is the first
//! player: `wtime`/`winc` are the first player's clock, `btime`/`binc` the second's.
//!
//! The search runs on a worker thread while the main thread keeps reading commands; `stop`
//! sets a flag that the kernel sees through its clock hook (the clock jumps past any budget),
//! so the search ends within one clock check (64 simulations) and `bestmove` follows at once.
//! MCTS searches in slices of [`INFO_INTERVAL_MS`] over one tree, with an `info` line after
//! each slice; αβ prints one `info` line at the end of its search.
//!
//! The `score` in `info` lines comes from the value `v ∈ [-1, 1]` for the side to move (see
//! [`score`]): `cp round(400·log10((1+v)/(1−v)))` with `v` kept within ±0.9999, so at most
//! ±1720 (the chess convention where 400 centipawns make 10:1 odds, reading `(1+v)/2` as the
//! winning chance); a proven
//! win or loss is `mate ±N` when the αβ search knows the distance `N` in own moves, and `cp
//! ±32000` when MCTS proved it without a distance; a proven draw is `cp 0`.

use crate::search::wall_clock;
use imcts::Game;
use imcts::search::alphabeta::TtEntry;
use imcts::search::node::{Node, Proven};
use imcts::search::spec::{self, PlayerSpec};
use imcts::search::{Budget, StopReason};
use imcts::session::{Decision, Memory, Player, Session};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

/// How often an MCTS search reports an `info` line, in milliseconds.
pub const INFO_INTERVAL_MS: u64 = 250;

/// Moves still to play assumed when the GUI sends no `movestogo`.
pub const DEFAULT_MOVES_TO_GO: u64 = 20;

/// The default `Move Overhead`: milliseconds kept back from every clock for the GUI's and the
/// operating system's latency.
pub const DEFAULT_OVERHEAD_MS: u64 = 50;

/// A slice's time budget when no time limit applies (8.9 years).
const NO_LIMIT_MS: u64 = 1 << 38;

/// How far each clock reading jumps once `stop` is set (35 years, beyond every budget).
const STOP_JUMP_US: u64 = 1 << 50;

/// The default `Pool` (MCTS tree nodes, 24 bytes each).
pub const DEFAULT_POOL: usize = crate::player::DEFAULT_NODES;

/// The largest `Pool` accepted.
pub const MAX_POOL: usize = 1 << 26;

/// The time-budget rule: with `left` milliseconds on the clock, an increment of `inc` and
/// `movestogo` moves to the next time control (`None`: sudden death), think for
///
/// `min(usable / mtg + inc·3/4, usable / 2)`, at least 1 ms,
///
/// where `usable = left − overhead` and `mtg = movestogo` (or [`DEFAULT_MOVES_TO_GO`]). Never
/// more than half of what is usable, so the clock can only run out through latency beyond the
/// overhead; with sudden death each move takes a twentieth of what is left.
pub fn time_budget_ms(left: u64, inc: u64, movestogo: Option<u64>, overhead: u64) -> u64 {
    let usable = left.saturating_sub(overhead);
    let mtg = movestogo.filter(|&m| m > 0).unwrap_or(DEFAULT_MOVES_TO_GO);
    let share = (usable / mtg).saturating_add(inc.saturating_mul(3) / 4);
    share.min(usable / 2).max(1)
}

/// The `score` of an `info` line for a value `v` (side to move) and its proof, as described in
/// the [module documentation](self). `proven_in` is the distance in plies when known.
pub fn score(v: f32, proven: Proven, proven_in: Option<u32>) -> String {
    match (proven, proven_in) {
        (Proven::Win, Some(p)) => format!("mate {}", p.div_ceil(2).max(1)),
        (Proven::Loss, Some(p)) => format!("mate -{}", p.div_ceil(2).max(1)),
        (Proven::Win, None) => "cp 32000".into(),
        (Proven::Loss, None) => "cp -32000".into(),
        (Proven::Draw, _) => "cp 0".into(),
        (Proven::Unknown, _) => {
            let v = f64::from(v).clamp(-0.9999, 0.9999);
            let cp = (400.0 * ((1.0 + v) / (1.0 - v)).log10()).round();
            format!("cp {}", cp as i64)
        }
    }
}

/// What `go` asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// `wtime`, `btime` in ms.
    pub time: [Option<u64>; 2],
    /// `winc`, `binc` in ms.
    pub inc: [u64; 2],
    /// `movestogo`.
    pub movestogo: Option<u64>,
    /// `movetime` in ms.
    pub movetime: Option<u64>,
    /// `nodes`: MCTS simulations, αβ nodes.
    pub nodes: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
}

/// Parses the words after `go`.
pub fn parse_go(rest: &str) -> Result<Limits, String> {
    let mut l = Limits::default();
    let mut words = rest.split_whitespace();
    while let Some(w) = words.next() {
        if w == "infinite" {
            l.infinite = true;
            continue;
        }
        if w == "ponder" {
            continue;
        }
        let mut number = || -> Result<u64, String> {
            words
                .next()
                .ok_or_else(|| format!("go {w}: missing number"))?
                .parse::<i64>()
                .map(|n| n.max(0) as u64)
                .map_err(|_| format!("go {w}: expected a whole number"))
        };
        match w {
            "wtime" => l.time[0] = Some(number()?),
            "btime" => l.time[1] = Some(number()?),
            "winc" => l.inc[0] = number()?,
            "binc" => l.inc[1] = number()?,
            "movestogo" => l.movestogo = Some(number()?),
            "movetime" => l.movetime = Some(number()?),
            "nodes" => l.nodes = Some(number()?),
            "depth" | "mate" => {
                number()?;
            }
            other => return Err(format!("go: unknown word '{other}'")),
        }
    }
    Ok(l)
}

/// The two buffers a player searches in, owned.
pub struct Owned {
    nodes: Vec<Node>,
    table: Vec<TtEntry>,
}

impl Memory for Owned {
    fn nodes(&mut self) -> &mut [Node] {
        &mut self.nodes
    }
    fn table(&mut self) -> &mut [TtEntry] {
        &mut self.table
    }
}

/// Where lines go: shared by the reader and the search thread.
type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    // A closed stdout ends the engine at the next read; nothing to do here.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// One game's engine state behind a trait object, so `setoption name Game` can switch games.
trait UciGame: Send {
    fn set_player(&mut self, spec: &str) -> Result<(), String>;
    fn set_pool(&mut self, nodes: usize);
    fn new_game(&mut self);
    fn position(&mut self, base: Option<&str>, moves: &[&str]) -> Result<(), String>;
    fn go(&mut self, limits: Limits, overhead: u64, stop: &AtomicBool, out: &Out);
}

struct UciSession<G: Game> {
    session: Session<G>,
    memory: Owned,
    spec_text: String,
    /// The spec as given; the session's player may have tree reuse turned on for slicing.
    spec: PlayerSpec<G>,
    pool: usize,
    /// The last `position` command: base (`None`: start) and moves, to play only new moves.
    base: Option<String>,
    moves: Vec<String>,
}

/// The player the session searches with: MCTS always keeps its tree between the slices of one
/// `go` (tree reuse on); whether it keeps it between moves is decided in `go` from the spec.
fn sliced<G: Game>(spec: PlayerSpec<G>) -> PlayerSpec<G> {
    match spec {
        PlayerSpec::Mcts(cfg) => {
            let mut c = cfg.into_inner();
            c.reuse_tree = true;
            // The spec was valid; turning reuse on keeps it valid.
            PlayerSpec::Mcts(c.validate().unwrap_or(cfg))
        }
        other => other,
    }
}

/// Memory for `spec`: `pool` tree nodes for MCTS, the spec's table for αβ.
pub fn memory_for<G: Game>(spec: &PlayerSpec<G>, pool: usize) -> Owned {
    match spec {
        PlayerSpec::Mcts(_) => Owned {
            nodes: vec![Node::EMPTY; pool],
            table: Vec::new(),
        },
        PlayerSpec::AlphaBeta(_, tt) => Owned {
            nodes: Vec::new(),
            table: vec![TtEntry::EMPTY; *tt],
        },
    }
}

impl<G: Game + Send> UciSession<G>
where
    G::Undo: Send,
{
    fn new(pool: usize, spec_text: &str) -> Result<Self, String> {
        let spec = spec::parse::<G>(spec_text).map_err(|e| format!("bad player spec {e}"))?;
        Ok(UciSession {
            session: Session::new(Player::new(sliced(spec))),
            memory: memory_for(&spec, pool),
            spec_text: spec_text.into(),
            spec,
            pool,
            base: None,
            moves: Vec::new(),
        })
    }

    /// Whether the spec asked for tree reuse between moves.
    fn keeps_tree(&self) -> bool {
        match &self.spec {
            PlayerSpec::Mcts(c) => c.get().reuse_tree,
            _ => false,
        }
    }

    /// The `info` line after a slice: the MCTS PV comes from the tree, αβ's from the search.
    fn info_line(&mut self, d: &Decision<G>, sims: u64, started: Instant, is_mcts: bool) -> String {
        let pv: Vec<G::Move> = if is_mcts {
            self.session
                .player_mut()
                .principal_variation(&mut self.memory)
                .to_vec()
        } else {
            d.pv.to_vec()
        };
        self.info(d, sims, started.elapsed().as_micros() as u64, &pv)
    }

    fn info(&mut self, d: &Decision<G>, sims: u64, elapsed_us: u64, pv: &[G::Move]) -> String {
        let mut g = self.session.game().clone();
        let mut names = Vec::new();
        for &mv in pv {
            if g.is_terminal() || !g.is_legal(mv) {
                break;
            }
            names.push(crate::games::move_string(&g, mv));
            g.make(mv);
        }
        let ms = elapsed_us / 1000;
        let nps = sims.saturating_mul(1_000_000) / elapsed_us.max(1);
        let mut line = format!(
            "info depth {} nodes {sims} nps {nps} time {ms} score {} string value {:.4}",
            d.depth.max(names.len() as u32),
            score(d.value, d.proven, d.proven_in),
            d.value
        );
        // UCI ends `string` at the line's end, so the PV goes before it.
        if !names.is_empty() {
            let at = line.find(" string").unwrap_or(line.len());
            line.insert_str(at, &format!(" pv {}", names.join(" ")));
        }
        line
    }
}

impl<G: Game + Send> UciGame for UciSession<G>
where
    G::Undo: Send,
{
    fn set_player(&mut self, text: &str) -> Result<(), String> {
        let spec = spec::parse::<G>(text).map_err(|e| format!("bad player spec {e}"))?;
        self.memory = memory_for(&spec, self.pool);
        self.session.set_player(Player::new(sliced(spec)));
        self.spec = spec;
        self.spec_text = text.into();
        Ok(())
    }

    fn set_pool(&mut self, nodes: usize) {
        self.pool = nodes;
        self.memory = memory_for(&self.spec, nodes);
        self.session.set_player(Player::new(sliced(self.spec)));
    }

    fn new_game(&mut self) {
        self.session.reset(&mut self.memory);
        self.base = None;
        self.moves.clear();
    }

    fn position(&mut self, base: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let start = match base {
            None => G::new(),
            Some(t) => G::parse_position(t).map_err(|e| format!("bad position: {e}"))?,
        };
        // All or nothing: the whole line is checked on a copy first.
        let mut trial = start.clone();
        for m in moves {
            if trial.is_terminal() {
                return Err(format!("move {m}: the game is already over"));
            }
            let mv = trial.parse_move(m).map_err(|e| format!("move {m}: {e}"))?;
            trial.make(mv);
        }
        // A player without tree reuse drops its tree now rather than moving it along.
        if !self.keeps_tree() {
            self.session.player_mut().clear(&mut self.memory);
        }
        // The same game continued: play only the new moves, so the tree follows.
        let same_game = base.map(str::to_string) == self.base
            && moves.len() >= self.moves.len()
            && self.moves.iter().zip(moves).all(|(a, b)| a == b);
        let from = if same_game {
            self.moves.len()
        } else {
            self.session.set_position(start, &mut self.memory);
            0
        };
        for m in &moves[from..] {
            let mv = self.session.parse_move(m).map_err(|e| format!("{e}"))?;
            self.session
                .play(mv, &mut self.memory)
                .map_err(|e| format!("{e}"))?;
        }
        self.base = base.map(str::to_string);
        self.moves = moves.iter().map(|s| s.to_string()).collect();
        Ok(())
    }

    fn go(&mut self, limits: Limits, overhead: u64, stop: &AtomicBool, out: &Out) {
        let game = self.session.game().clone();
        if game.is_terminal() {
            say(out, "info string the game is over");
            say(out, "bestmove (none)");
            return;
        }
        let side = game.side_to_move().index();
        let time_ms = match (limits.movetime, limits.time[side]) {
            _ if limits.infinite => None,
            (Some(t), _) => Some(t),
            (None, Some(left)) => Some(time_budget_ms(
                left,
                limits.inc[side],
                limits.movestogo,
                overhead,
            )),
            (None, None) => None,
        };
        // Nothing given at all: a fixed number of simulations, as `imcts search` does.
        let sims = match (limits.nodes, time_ms, limits.infinite) {
            (None, None, false) => Some(10_000),
            (n, _, _) => n,
        };
        let started = Instant::now();
        let is_mcts = matches!(self.spec, PlayerSpec::Mcts(_));
        if is_mcts && !self.keeps_tree() {
            self.session.player_mut().clear(&mut self.memory);
        }
        let mut total = 0u64;
        let mut last: Option<Decision<G>> = None;
        let mut last_info_ms = 0u64;
        loop {
            let elapsed_ms = started.elapsed().as_millis() as u64;
            let left_ms = time_ms.map(|t| t.saturating_sub(elapsed_ms));
            let left_sims = sims.map(|s| s.saturating_sub(total));
            let done = stop.load(Ordering::SeqCst)
                || left_ms == Some(0)
                || left_sims == Some(0)
                || last
                    .as_ref()
                    .is_some_and(|d| !matches!(d.stop, StopReason::Time | StopReason::Iterations));
            if done && last.is_some() {
                break;
            }
            // The kernel reads the clock every 64 simulations, which can be long for a slow
            // game on a loaded machine; so with a time limit MCTS also caps each slice's
            // simulations by the rate measured so far (a 2-simulation probe first).
            let by_rate = match (is_mcts, left_ms) {
                (true, Some(_)) if total == 0 => Some(2),
                (true, Some(l)) => Some((total.saturating_mul(l) / elapsed_ms.max(1)).max(1)),
                _ => None,
            };
            let iterations = match (left_sims, by_rate) {
                (Some(a), Some(b)) => Some(a.min(b).max(1)),
                (a, b) => a.or(b).map(|n| n.max(1)),
            };
            let slice_ms = if is_mcts {
                left_ms.map_or(INFO_INTERVAL_MS, |l| l.clamp(1, INFO_INTERVAL_MS))
            } else {
                left_ms.unwrap_or(NO_LIMIT_MS)
            };
            let budget = Budget {
                iterations,
                nodes: None,
                time_us: Some(slice_ms.saturating_mul(1000)),
            };
            // The stop hook: once `stop` is set every reading jumps 2^50 µs past the last
            // one, so the search ends at its next clock check even if it read its start
            // time after the stop.
            let mut wall = wall_clock();
            let mut latest = 0u64;
            let mut clock = || {
                latest = if stop.load(Ordering::Relaxed) {
                    latest.saturating_add(STOP_JUMP_US)
                } else {
                    wall().max(latest)
                };
                latest
            };
            let d = self.session.search_parallel(
                budget,
                &mut clock,
                &mut self.memory,
                &mut crate::search::protocol_threads(),
                crate::search::protocol_parallel_settings(),
            );
            total += d.simulations;
            let now_ms = started.elapsed().as_millis() as u64;
            if now_ms >= last_info_ms + INFO_INTERVAL_MS || !is_mcts {
                last_info_ms = now_ms;
                let line = self.info_line(&d, total, started, is_mcts);
                say(out, &line);
            }
            last = Some(d);
        }
        if let Some(d) = &last {
            if is_mcts {
                let line = self.info_line(d, total, started, is_mcts);
                say(out, &line);
            }
        }
        // `infinite` answers only after `stop`, even when the search ended by itself.
        while limits.infinite && !stop.load(Ordering::SeqCst) {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let best = last.and_then(|d| d.best).or_else(|| {
            let mut list = G::MoveList::default();
            game.legal_moves(&mut list);
            imcts::MoveBuffer::moves(&list).first().copied()
        });
        match best {
            Some(mv) => say(
                out,
                &format!("bestmove {}", crate::games::move_string(&game, mv)),
            ),
            None => say(out, "bestmove (none)"),
        }
    }
}

fn session_for(name: &str, pool: usize, spec: &str) -> Result<Box<dyn UciGame>, String> {
    crate::with_game!(name, G => UciSession::<G>::new(pool, spec).map(|s| Box::new(s) as Box<dyn UciGame>))
}

/// The engine between commands: its game session, or the search thread that holds it.
struct Engine {
    game_name: String,
    spec: String,
    pool: usize,
    overhead: u64,
    state: Option<Box<dyn UciGame>>,
    search: Option<JoinHandle<Box<dyn UciGame>>>,
    stop: Arc<AtomicBool>,
    out: Out,
}

impl Engine {
    /// Stops a running search (its `bestmove` is printed) and takes the session back.
    fn finish(&mut self) {
        if let Some(h) = self.search.take() {
            self.stop.store(true, Ordering::SeqCst);
            match h.join() {
                Ok(s) => self.state = Some(s),
                Err(_) => {
                    say(&self.out, "info string error: the search failed");
                }
            }
        }
    }

    /// The session, after ending any search (a GUI sends `stop` first; one that does not
    /// gets the search's `bestmove` now rather than a hang under `go infinite`).
    fn session(&mut self) -> Result<&mut Box<dyn UciGame>, String> {
        self.finish();
        if self.state.is_none() {
            self.state = Some(session_for(&self.game_name, self.pool, &self.spec)?);
        }
        Ok(self.state.as_mut().expect("just built"))
    }

    fn setoption(&mut self, rest: &str) -> Result<(), String> {
        let rest = rest
            .strip_prefix("name ")
            .ok_or("setoption: expected 'name <id> [value <x>]'")?;
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "game" => {
                let s = session_for(value, self.pool, "mcts")?;
                self.finish();
                self.state = Some(s);
                self.game_name = value.into();
                self.spec = "mcts".into();
                Ok(())
            }
            "player" => {
                self.session()?.set_player(value)?;
                self.spec = value.into();
                Ok(())
            }
            "pool" => {
                let n: usize = value
                    .parse()
                    .map_err(|_| "Pool: expected a whole number".to_string())?;
                if !(1..=MAX_POOL).contains(&n) {
                    return Err(format!("Pool: between 1 and {MAX_POOL} nodes"));
                }
                self.session()?.set_pool(n);
                self.pool = n;
                Ok(())
            }
            "move overhead" => {
                self.overhead = value
                    .parse()
                    .map_err(|_| "Move Overhead: expected a whole number".to_string())?;
                Ok(())
            }
            "threads" => {
                let n: u32 = value
                    .parse()
                    .map_err(|_| "Threads: expected a whole number".to_string())?;
                let max = crate::search::MAX_SEARCH_THREADS;
                if !(1..=max).contains(&n) {
                    return Err(format!("Threads: between 1 and {max}"));
                }
                // Takes effect at the next `go` (a running search keeps its threads).
                crate::search::set_protocol_threads(n);
                Ok(())
            }
            other => Err(format!("setoption: unknown option '{other}'")),
        }
    }

    fn position(&mut self, rest: &str) -> Result<(), String> {
        let (head, moves) = match rest.split_once(" moves") {
            Some((h, m)) => (h.trim(), m.split_whitespace().collect::<Vec<_>>()),
            None if rest.trim() == "moves" => ("", Vec::new()),
            None => (rest.trim(), Vec::new()),
        };
        let base = if head == "startpos" {
            None
        } else if let Some(p) = head.strip_prefix("pos ").or(head.strip_prefix("fen ")) {
            Some(p.trim())
        } else {
            return Err("position: expected 'startpos' or 'pos <string>', then 'moves ...'".into());
        };
        self.session()?.position(base, &moves)
    }

    fn go(&mut self, rest: &str) -> Result<(), String> {
        let limits = parse_go(rest)?;
        self.session()?;
        let mut s = self.state.take().expect("session() built it");
        self.stop.store(false, Ordering::SeqCst);
        let stop = self.stop.clone();
        let out = self.out.clone();
        let overhead = self.overhead;
        self.search = Some(std::thread::spawn(move || {
            s.go(limits, overhead, &stop, &out);
            s
        }));
        Ok(())
    }
}

/// The `uci` handshake's lines.
fn handshake() -> Vec<String> {
    vec![
        format!("id name imcts {}", env!("CARGO_PKG_VERSION")),
        "id author the imcts developers".into(),
        format!(
            "option name Game type combo default breakthrough {}",
            crate::games::ALL
                .iter()
                .map(|g| format!("var {g}"))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        "option name Player type string default mcts".into(),
        format!("option name Pool type spin default {DEFAULT_POOL} min 1 max {MAX_POOL}"),
        format!(
            "option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max 10000"
        ),
        format!(
            "option name Threads type spin default {} min 1 max {}",
            crate::search::protocol_threads().0,
            crate::search::MAX_SEARCH_THREADS
        ),
        "uciok".into(),
    ]
}

/// Runs the protocol over `input`, writing to `output`, until `quit` or end of input.
pub fn serve(input: impl BufRead, output: Box<dyn Write + Send>) -> Result<(), String> {
    let mut e = Engine {
        game_name: "breakthrough".into(),
        spec: "mcts".into(),
        pool: DEFAULT_POOL,
        overhead: DEFAULT_OVERHEAD_MS,
        state: None,
        search: None,
        stop: Arc::new(AtomicBool::new(false)),
        out: Arc::new(Mutex::new(output)),
    };
    for line in input.lines() {
        let line = line.map_err(|e| format!("uci I/O: {e}"))?;
        let line = line.trim();
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let result = match cmd {
            "" => Ok(()),
            "uci" => {
                for l in handshake() {
                    say(&e.out, &l);
                }
                Ok(())
            }
            "isready" => {
                say(&e.out, "readyok");
                Ok(())
            }
            "debug" | "ponderhit" | "register" => Ok(()),
            "setoption" => e.setoption(rest),
            "ucinewgame" => e.session().map(|s| s.new_game()),
            "position" => e.position(rest),
            "go" => e.go(rest),
            "stop" => {
                e.finish();
                Ok(())
            }
            "quit" => break,
            other => Err(format!("unknown command '{other}'")),
        };
        if let Err(msg) = result {
            say(
                &e.out,
                &format!("info string error: {}", msg.replace('\n', " ")),
            );
        }
    }
    e.finish();
    Ok(())
}

/// `imcts uci` on stdin and stdout.
pub fn run(args: &crate::search::SearchThreadsArgs) -> Result<(), String> {
    crate::search::set_protocol_search(args);
    let stdin = std::io::stdin();
    serve(stdin.lock(), Box::new(std::io::stdout()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Over a whole sudden-death game the budgets never add up to the clock, whatever the
    /// number of moves, and a move never takes more than half of what is usable.
    #[test]
    fn sudden_death_budgets_never_spend_the_clock() {
        for clock in [100u64, 1_000, 300_000] {
            let mut left = clock;
            for _ in 0..500 {
                let b = time_budget_ms(left, 0, None, DEFAULT_OVERHEAD_MS);
                let usable = left.saturating_sub(DEFAULT_OVERHEAD_MS);
                assert!(b <= (usable / 2).max(1), "{b} of {left}");
                let before = left;
                left = left.saturating_sub(b);
                // Only the 1 ms floor ever reaches into the overhead.
                assert!(left >= before.min(DEFAULT_OVERHEAD_MS).saturating_sub(1));
            }
        }
        // Five minutes: a twentieth of the usable time per move leaves (19/20)^100 ≈ 0.6% of
        // it after 100 moves, still more than 30 overheads.
        let mut left = 300_000;
        for _ in 0..100 {
            left -= time_budget_ms(left, 0, None, DEFAULT_OVERHEAD_MS);
        }
        assert!(left > 30 * DEFAULT_OVERHEAD_MS, "{left}");
        // Increments are spent, movestogo divides, and the last move of a period keeps half.
        assert_eq!(time_budget_ms(10_050, 400, None, 50), 500 + 300);
        assert_eq!(time_budget_ms(10_050, 0, Some(1), 50), 5_000);
    }

    #[test]
    fn score_maps_values_and_proofs() {
        assert_eq!(score(0.0, Proven::Unknown, None), "cp 0");
        assert_eq!(score(1.0 / 3.0, Proven::Unknown, None), "cp 120");
        assert_eq!(score(-1.0 / 3.0, Proven::Unknown, None), "cp -120");
        assert_eq!(score(1.0, Proven::Unknown, None), "cp 1720");
        assert_eq!(score(1.0, Proven::Win, Some(3)), "mate 2");
        assert_eq!(score(-1.0, Proven::Loss, Some(2)), "mate -1");
        assert_eq!(score(1.0, Proven::Win, None), "cp 32000");
        assert_eq!(score(0.0, Proven::Draw, None), "cp 0");
    }

    #[test]
    fn go_words_parse() {
        let l = parse_go("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5").unwrap();
        assert_eq!(l.time, [Some(1000), Some(2000)]);
        assert_eq!(l.inc, [10, 20]);
        assert_eq!(l.movestogo, Some(5));
        assert!(parse_go("infinite").unwrap().infinite);
        assert!(parse_go("nodes").is_err());
        assert!(parse_go("sideways 3").is_err());
    }
}
