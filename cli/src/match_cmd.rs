//! `imcts match`: two players, N games, seats alternating, games in parallel.

use crate::arena::{self, GameRecord, MatchGame, MatchSpec, Tally};
use crate::search::BudgetArgs;
use crate::shard::Shard;
use clap::Args;
use imcts::{Game, Outcome, Player};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};

/// Arguments of `imcts match`.
#[derive(Args, Clone)]
pub struct MatchArgs {
    /// Game: breakthrough, loa, kalah, tictactoe, gomoku.
    pub game: String,
    /// Player A's spec, e.g. 'mcts(ipp,im0.4)'.
    #[arg(long)]
    pub a: String,
    /// Player B's spec, e.g. 'mcts(ipp)'.
    #[arg(long)]
    pub b: String,
    /// Number of games (each side moves first in half of them; Kalah plays pairs).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Player B's simulations per move, if not `--sims` (each player its own budget, as the
    /// paper's equal-time rows give a slow configuration fewer simulations than a fast one:
    /// `--sims 20900 --sims-b 49850`).
    #[arg(long, requires = "sims")]
    pub sims_b: Option<u64>,
    /// Games played in parallel.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[command(flatten)]
    pub search_threads: crate::search::SearchThreadsArgs,
    /// Threads searching player B's tree, if not `--search-threads` (e.g. 2 threads against 1
    /// at equal time: `--search-threads 2 --search-threads-b 1 --ms 100`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=crate::search::MAX_SEARCH_THREADS as i64))]
    pub search_threads_b: Option<u32>,
    /// Player B's `--parallel`, if not the same as A's (root against tree parallelism).
    #[arg(long, value_enum)]
    pub parallel_b: Option<crate::search::Parallel>,
    /// Match seed; the same seed gives the same games whatever the thread count (with --sims).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A file of opening positions, one position string per line ('#' starts a comment); each
    /// opening is played twice with seats swapped.
    #[arg(long)]
    pub openings: Option<String>,
    /// Write every game, one JSON object per line, to this file (created before the first game,
    /// one line written as each game finishes).
    #[arg(long)]
    pub record: Option<String>,
    /// Continue the match recorded in this file (by `--record`, possibly cut short by Ctrl-C):
    /// its games are kept, the missing ones up to `--games` are played and appended to it.
    #[arg(long, conflicts_with = "record")]
    pub resume: Option<String>,
    /// Play only shard I of N (0-based): game g goes to shard g mod N (Kalah: pair p to shard
    /// p mod N), seeds unchanged; combine the shards' records with `imcts merge`.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse, default_value = "0/1")]
    pub shard: Shard,
    /// Print one JSON summary object instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bar (it is shown only when stderr is a terminal anyway).
    #[arg(long)]
    pub quiet: bool,
}

/// The opening positions in an openings file's text, with their line numbers (from 1): `#`
/// starts a comment (a whole line or the rest of one; no position string contains `#`), and
/// blank lines are skipped.
pub fn opening_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let line = line.split('#').next().unwrap_or("").trim();
        (!line.is_empty()).then_some((i + 1, line))
    })
}

/// Reads an openings file for game `G`; every position must parse, and an error names the
/// file and line.
pub fn read_openings<G: imcts::Game>(path: &str) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut list = Vec::new();
    for (line, position) in opening_lines(&text) {
        G::parse_position(position)
            .map_err(|e| format!("{path}:{line}: bad {} opening: {e}", G::NAME))?;
        list.push(position.to_string());
    }
    if list.is_empty() {
        return Err(format!("{path} holds no opening positions"));
    }
    Ok(list)
}

impl MatchArgs {
    /// The match to play.
    pub fn spec<G: imcts::Game>(&self) -> Result<MatchSpec, String> {
        if self.games == 0 {
            return Err("--games must be at least 1".into());
        }
        check_threads(self.threads)?;
        Ok(MatchSpec {
            a: self.a.clone(),
            b: self.b.clone(),
            games: self.games,
            budget: self.budget.budget()?,
            b_budget: self.b_budget()?,
            threads: self.threads,
            search_threads: [
                self.search_threads.search_threads,
                self.search_threads_b
                    .unwrap_or(self.search_threads.search_threads),
            ],
            parallel: [
                self.search_threads.parallel,
                self.parallel_b.unwrap_or(self.search_threads.parallel),
            ],
            seed: self.seed,
            openings: match &self.openings {
                Some(p) => read_openings::<G>(p)?,
                None => Vec::new(),
            },
            shard: self.shard,
        })
    }
}

impl MatchArgs {
    /// B's budget when `--sims-b` gives it one of its own: A's budget with B's simulations.
    fn b_budget(&self) -> Result<Option<imcts::search::Budget>, String> {
        match self.sims_b {
            None => Ok(None),
            Some(0) => Err("--sims-b must be at least 1".into()),
            Some(n) => Ok(Some(imcts::search::Budget {
                iterations: Some(n),
                ..self.budget.budget()?
            })),
        }
    }
}

/// `--threads` must be at least 1 (match, tournament, experiment).
pub fn check_threads(threads: usize) -> Result<(), String> {
    if threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    Ok(())
}

pub fn run(args: &MatchArgs) -> Result<(), String> {
    crate::with_game!(args.game.as_str(), G => run_game::<G>(args))
}

/// A progress bar on stderr: games done out of the total, the running score with its 95%
/// interval, elapsed time and ETA. Hidden when `quiet` or when stderr is not a terminal, so
/// pipes, files and JSON consumers see nothing of it.
pub fn progress_bar(total: usize, label: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(total as u64);
    pb.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} {msg} ({elapsed}, ETA {eta})",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    pb.set_prefix(label.to_string());
    pb
}

/// The running score as the progress bar shows it: results, then A's score rate with the
/// same 95% interval as the summary.
pub fn score_message(t: &Tally) -> String {
    let mut s = format!("A {} B {} draws {}", t.a_wins, t.b_wins, t.draws);
    if t.discarded > 0 {
        s.push_str(&format!(" discarded {}", t.discarded));
    }
    if t.counted() > 0 {
        let (lo, hi) = t.wilson95();
        s.push_str(&format!(
            " A {:.1}% [{:.1}, {:.1}]",
            100.0 * t.a_rate(),
            100.0 * lo,
            100.0 * hi
        ));
    }
    s
}

fn run_game<G: MatchGame>(args: &MatchArgs) -> Result<(), String> {
    let spec = args.spec::<G>()?;
    // Open the record before the first game, so a bad path fails at once.
    let (mut record, finished) = match (&args.record, &args.resume) {
        (Some(path), _) => (Some(RecordFile::create(path)?), Vec::new()),
        (None, Some(path)) => {
            let finished = read_records::<G>(path, &spec)?;
            (Some(RecordFile::append(path)?), finished)
        }
        (None, None) => (None, Vec::new()),
    };
    arena::stop_on_signals()?;
    let pb = progress_bar(
        spec.shard.games_of(spec.games, spec.paired::<G>()),
        "match",
        args.quiet,
    );
    let m = arena::run_match_with::<G>(
        &spec,
        finished,
        |t, done| {
            pb.set_position(done as u64);
            pb.set_message(score_message(t));
        },
        |r| match &mut record {
            Some(f) => f.write::<G>(&spec, r),
            None => Ok(()),
        },
    )?;
    pb.finish_and_clear();
    print_summary::<G>(&spec, &m.tally, m.records.len(), args.json);
    if spec.shard != Shard::WHOLE && !args.json {
        println!(
            "shard {} of the match's {} games: `imcts merge` on every shard's --record prints the whole match",
            spec.shard, spec.games
        );
    }
    if m.interrupted {
        let resume = match (&args.record, &args.resume) {
            (Some(p), _) | (None, Some(p)) => format!("; continue with --resume {p}"),
            (None, None) => String::new(),
        };
        eprintln!(
            "interrupted: {} of {} games finished{resume}",
            m.records.len(),
            spec.shard.games_of(spec.games, spec.paired::<G>())
        );
        std::process::exit(130);
    }
    Ok(())
}

/// A record file: one JSON object per game, written (and flushed) as each game finishes.
pub struct RecordFile {
    path: String,
    file: std::fs::File,
    /// Fields added to every line (an experiment's name and row), for `imcts merge`.
    context: serde_json::Map<String, serde_json::Value>,
}

impl RecordFile {
    /// Creates (or truncates) the file.
    pub fn create(path: &str) -> Result<Self, String> {
        let file = std::fs::File::create(path).map_err(|e| format!("cannot create {path}: {e}"))?;
        Ok(RecordFile {
            path: path.to_string(),
            file,
            context: serde_json::Map::new(),
        })
    }

    /// Opens an existing record to add games after its lines.
    pub fn append(path: &str) -> Result<Self, String> {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {path} for appending: {e}"))?;
        Ok(RecordFile {
            path: path.to_string(),
            file,
            context: serde_json::Map::new(),
        })
    }

    /// Sets the fields added to every following line (replacing earlier ones).
    pub fn set_context(&mut self, context: serde_json::Map<String, serde_json::Value>) {
        self.context = context;
    }

    /// Writes one game: the match (game, players, seed, games, budget, shard, openings), index,
    /// A's seat, result, start position, moves, and each side's simulations and moves.
    pub fn write<G: Game>(&mut self, spec: &MatchSpec, r: &GameRecord) -> Result<(), String> {
        let result = match r.outcome {
            Some(Outcome::Win(Player::First)) => "1-0",
            Some(Outcome::Win(Player::Second)) => "0-1",
            _ => "1/2",
        };
        let mut line = serde_json::json!({
            "game": G::NAME, "index": r.index, "a_seat": if r.a_first { "first" } else { "second" },
            "result": result, "a_result": r.a_result, "start": r.start, "moves": r.moves,
            "a": spec.a, "b": spec.b, "seed": spec.seed,
            "a_sims": r.work[0].0, "a_moves": r.work[0].1,
            "b_sims": r.work[1].0, "b_moves": r.work[1].1,
            "games": spec.games, "budget": arena::budget_text(&spec.budget),
            "b_budget": arena::budget_text(&spec.budget_b()),
            "openings": arena::openings_digest(&spec.openings),
            "shard": spec.shard.to_string(),
        });
        if let Some(obj) = line.as_object_mut() {
            obj.extend(self.context.clone());
        }
        writeln!(self.file, "{line}")
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.path))
    }
}

/// A record line's field `name`, or an error naming it (`at` adds the file and line).
fn field<'v>(
    v: &'v serde_json::Value,
    name: &str,
    at: &dyn Fn(String) -> String,
) -> Result<&'v serde_json::Value, String> {
    v.get(name).ok_or_else(|| at(format!("no '{name}' field")))
}

/// A record line's string field `name`.
pub fn text_field(
    v: &serde_json::Value,
    name: &str,
    at: &dyn Fn(String) -> String,
) -> Result<String, String> {
    field(v, name, at)?
        .as_str()
        .map(String::from)
        .ok_or_else(|| at(format!("'{name}' is not a string")))
}

/// A record line's whole-number field `name`.
pub fn uint_field(
    v: &serde_json::Value,
    name: &str,
    at: &dyn Fn(String) -> String,
) -> Result<u64, String> {
    field(v, name, at)?
        .as_u64()
        .ok_or_else(|| at(format!("'{name}' is not a whole number")))
}

/// One record line read back as a game of `G`: its moves are replayed from its `start`, so the
/// result is the one the moves give, whatever the line's `result` says.
pub fn parse_record<G: MatchGame>(
    v: &serde_json::Value,
    at: &dyn Fn(String) -> String,
) -> Result<GameRecord, String> {
    let index =
        usize::try_from(uint_field(v, "index", at)?).map_err(|_| at("index too large".into()))?;
    let start = text_field(v, "start", at)?;
    let mut game =
        G::parse_position(&start).map_err(|e| at(format!("game {index}: bad start: {e}")))?;
    let moves: Vec<String> = field(v, "moves", at)?
        .as_array()
        .and_then(|a| a.iter().map(|m| m.as_str().map(String::from)).collect())
        .ok_or_else(|| at("'moves' is not a list of strings".into()))?;
    for m in &moves {
        let mv = game
            .parse_move(m)
            .map_err(|e| at(format!("game {index}: move '{m}': {e}")))?;
        if game.is_terminal() || !game.is_legal(mv) {
            return Err(at(format!("game {index}: move '{m}' is not legal there")));
        }
        game.make(mv);
    }
    let a_first = index.is_multiple_of(2);
    let a_player = if a_first {
        Player::First
    } else {
        Player::Second
    };
    let outcome = game.outcome();
    let a_result = match outcome {
        Some(Outcome::Win(p)) if p == a_player => 1,
        Some(Outcome::Win(_)) => -1,
        _ => 0,
    };
    Ok(GameRecord {
        index,
        a_first,
        start,
        moves,
        outcome,
        a_result,
        work: [
            (uint_field(v, "a_sims", at)?, uint_field(v, "a_moves", at)?),
            (uint_field(v, "b_sims", at)?, uint_field(v, "b_moves", at)?),
        ],
    })
}

/// Reads the games of a record file for `--resume`: each line must be a game of this match
/// (same game, players and seed, this shard's, the start position game `index` gets), and its
/// moves are replayed, so the result is the one the moves give.
fn read_records<G: MatchGame>(path: &str, spec: &MatchSpec) -> Result<Vec<GameRecord>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |msg: String| format!("{path}:{}: {msg}", n + 1);
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| at(format!("not a JSON record: {e}")))?;
        if text_field(&v, "game", &at)? != G::NAME
            || text_field(&v, "a", &at)? != spec.a
            || text_field(&v, "b", &at)? != spec.b
            || uint_field(&v, "seed", &at)? != spec.seed
        {
            return Err(at(format!(
                "a game of another match (this one: {}, A = {}, B = {}, seed {})",
                G::NAME,
                spec.a,
                spec.b,
                spec.seed
            )));
        }
        // A game played with other budgets is not a game of this match. Records written before
        // `b_budget` existed have the match's one budget for both players.
        let budget = arena::budget_text(&spec.budget);
        let b_budget = arena::budget_text(&spec.budget_b());
        let recorded = text_field(&v, "budget", &at)?;
        let recorded_b = match v.get("b_budget") {
            Some(_) => text_field(&v, "b_budget", &at)?,
            None => recorded.clone(),
        };
        if recorded != budget || recorded_b != b_budget {
            return Err(at(format!(
                "a game played with budgets A {recorded}, B {recorded_b}, not this match's A {budget}, B {b_budget}"
            )));
        }
        // Records written before sharding existed have no `shard`: they are whole matches.
        let shard = v.get("shard").and_then(|s| s.as_str());
        if shard.is_some_and(|s| s != spec.shard.to_string()) {
            return Err(at(format!(
                "a game of shard {}, not of --shard {}",
                shard.unwrap_or_default(),
                spec.shard
            )));
        }
        let r = parse_record::<G>(&v, &at)?;
        if r.index >= spec.games {
            return Err(at(format!(
                "game index {} is past --games {}",
                r.index, spec.games
            )));
        }
        let expected: G = arena::start_position(spec, r.index)?;
        if r.start != crate::games::position_string(&expected) {
            return Err(at(format!(
                "game {} does not start where this match starts it",
                r.index
            )));
        }
        out.push(r);
    }
    Ok(out)
}

/// Prints the match summary as text or as one JSON object.
pub fn print_summary<G: imcts::Game>(spec: &MatchSpec, t: &Tally, games: usize, json: bool) {
    print_pooled_summary::<G>(spec, t, games, json, &[spec.seed]);
}

/// [`print_summary`] of several runs of one match pooled (`imcts merge --pool-seeds`): `seed`
/// is `spec.seed` (the smallest of the runs' seeds), and with more than one run the JSON adds `seeds` (all of them, in
/// increasing order) and the text a line naming them.
pub fn print_pooled_summary<G: imcts::Game>(
    spec: &MatchSpec,
    t: &Tally,
    games: usize,
    json: bool,
    seeds: &[u64],
) {
    if json {
        let mut obj = serde_json::json!({
            "game": G::NAME, "a": spec.a, "b": spec.b, "games": games,
            "a_wins": t.a_wins, "b_wins": t.b_wins, "draws": t.draws, "discarded": t.discarded,
            "a_rate": t.a_rate(), "ci95": t.ci95(),
            "ci95_low": t.wilson95().0, "ci95_high": t.wilson95().1,
            "a_sims_per_move": t.sims_per_move(0), "b_sims_per_move": t.sims_per_move(1),
            "seed": spec.seed,
        });
        if spec.shard != Shard::WHOLE {
            obj["shard"] = spec.shard.to_string().into();
        }
        if seeds.len() > 1 {
            obj["seeds"] = seeds.into();
        }
        println!("{obj}");
    } else {
        println!(
            "{} games of {}: A = {}  B = {}",
            games,
            G::NAME,
            spec.a,
            spec.b
        );
        if seeds.len() > 1 {
            let list: Vec<String> = seeds.iter().map(u64::to_string).collect();
            println!("pooled runs with seeds {}", list.join(", "));
        }
        if t.discarded > 0 || games != t.counted() as usize {
            println!("pairs counted {} (discarded: {})", t.counted(), t.discarded);
        }
        let (lo, hi) = t.wilson95();
        println!(
            "A wins {}  losses {}  draws {}  rate {:.1}% (95% interval {:.1}-{:.1}%)",
            t.a_wins,
            t.b_wins,
            t.draws,
            100.0 * t.a_rate(),
            100.0 * lo,
            100.0 * hi
        );
        println!(
            "simulations per move: A {:.0}  B {:.0}",
            t.sims_per_move(0),
            t.sims_per_move(1)
        );
    }
}
