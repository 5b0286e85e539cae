//! `imcts match`: two players, N games, seats alternating, games in parallel.

use crate::arena::{self, GameRecord, MatchGame, MatchSpec, Tally};
use crate::search::BudgetArgs;
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
    /// Games played in parallel.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[command(flatten)]
    pub search_threads: crate::search::SearchThreadsArgs,
    /// Threads searching player B's tree, if not `--search-threads` (e.g. 2 threads against 1
    /// at equal time: `--search-threads 2 --search-threads-b 1 --ms 100`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=crate::search::MAX_SEARCH_THREADS as i64))]
    pub search_threads_b: Option<u32>,
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
            threads: self.threads,
            search_threads: [
                self.search_threads.search_threads,
                self.search_threads_b
                    .unwrap_or(self.search_threads.search_threads),
            ],
            seed: self.seed,
            openings: match &self.openings {
                Some(p) => read_openings::<G>(p)?,
                None => Vec::new(),
            },
        })
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
    let pb = progress_bar(spec.games, "match", args.quiet);
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
    if m.interrupted {
        let resume = match (&args.record, &args.resume) {
            (Some(p), _) | (None, Some(p)) => format!("; continue with --resume {p}"),
            (None, None) => String::new(),
        };
        eprintln!(
            "interrupted: {} of {} games finished{resume}",
            m.records.len(),
            spec.games
        );
        std::process::exit(130);
    }
    Ok(())
}

/// A record file: one JSON object per game, written (and flushed) as each game finishes.
pub struct RecordFile {
    path: String,
    file: std::fs::File,
}

impl RecordFile {
    /// Creates (or truncates) the file.
    pub fn create(path: &str) -> Result<Self, String> {
        let file = std::fs::File::create(path).map_err(|e| format!("cannot create {path}: {e}"))?;
        Ok(RecordFile {
            path: path.to_string(),
            file,
        })
    }

    fn append(path: &str) -> Result<Self, String> {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {path} for appending: {e}"))?;
        Ok(RecordFile {
            path: path.to_string(),
            file,
        })
    }

    /// Writes one game: the match (game, players, seed), index, A's seat, result, start
    /// position, moves, and each side's simulations and moves.
    pub fn write<G: Game>(&mut self, spec: &MatchSpec, r: &GameRecord) -> Result<(), String> {
        let result = match r.outcome {
            Some(Outcome::Win(Player::First)) => "1-0",
            Some(Outcome::Win(Player::Second)) => "0-1",
            _ => "1/2",
        };
        let line = serde_json::json!({
            "game": G::NAME, "index": r.index, "a_seat": if r.a_first { "first" } else { "second" },
            "result": result, "a_result": r.a_result, "start": r.start, "moves": r.moves,
            "a": spec.a, "b": spec.b, "seed": spec.seed,
            "a_sims": r.work[0].0, "a_moves": r.work[0].1,
            "b_sims": r.work[1].0, "b_moves": r.work[1].1,
        });
        writeln!(self.file, "{line}")
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.path))
    }
}

/// Reads the games of a record file for `--resume`: each line must be a game of this match
/// (same game, players and seed, the start position game `index` gets), and its moves are
/// replayed, so the result is the one the moves give.
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
        let field = |name: &str| v.get(name).ok_or_else(|| at(format!("no '{name}' field")));
        let text_of = |name: &str| -> Result<String, String> {
            field(name)?
                .as_str()
                .map(String::from)
                .ok_or_else(|| at(format!("'{name}' is not a string")))
        };
        let uint = |name: &str| -> Result<u64, String> {
            field(name)?
                .as_u64()
                .ok_or_else(|| at(format!("'{name}' is not a whole number")))
        };
        if text_of("game")? != G::NAME
            || text_of("a")? != spec.a
            || text_of("b")? != spec.b
            || uint("seed")? != spec.seed
        {
            return Err(at(format!(
                "a game of another match (this one: {}, A = {}, B = {}, seed {})",
                G::NAME,
                spec.a,
                spec.b,
                spec.seed
            )));
        }
        let index = usize::try_from(uint("index")?).map_err(|_| at("index too large".into()))?;
        if index >= spec.games {
            return Err(at(format!(
                "game index {index} is past --games {}",
                spec.games
            )));
        }
        let start = text_of("start")?;
        let expected: G = arena::start_position(spec, index)?;
        if start != crate::games::position_string(&expected) {
            return Err(at(format!(
                "game {index} does not start where this match starts it"
            )));
        }
        let moves: Vec<String> = field("moves")?
            .as_array()
            .and_then(|a| a.iter().map(|m| m.as_str().map(String::from)).collect())
            .ok_or_else(|| at("'moves' is not a list of strings".into()))?;
        let mut game = expected;
        for m in &moves {
            let mv = game
                .parse_move(m)
                .map_err(|e| at(format!("game {index}: move '{m}': {e}")))?;
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
        out.push(GameRecord {
            index,
            a_first,
            start,
            moves,
            outcome,
            a_result,
            work: [
                (uint("a_sims")?, uint("a_moves")?),
                (uint("b_sims")?, uint("b_moves")?),
            ],
        });
    }
    Ok(out)
}

/// Prints the match summary as text or as one JSON object.
pub fn print_summary<G: imcts::Game>(spec: &MatchSpec, t: &Tally, games: usize, json: bool) {
    if json {
        let obj = serde_json::json!({
            "game": G::NAME, "a": spec.a, "b": spec.b, "games": games,
            "a_wins": t.a_wins, "b_wins": t.b_wins, "draws": t.draws, "discarded": t.discarded,
            "a_rate": t.a_rate(), "ci95": t.ci95(),
            "ci95_low": t.wilson95().0, "ci95_high": t.wilson95().1,
            "a_sims_per_move": t.sims_per_move(0), "b_sims_per_move": t.sims_per_move(1),
            "seed": spec.seed,
        });
        println!("{obj}");
    } else {
        println!(
            "{} games of {}: A = {}  B = {}",
            games,
            G::NAME,
            spec.a,
            spec.b
        );
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
