//! `imcts match`: two players, N games, seats alternating, games in parallel.

use crate::arena::{self, GameRecord, MatchGame, MatchSpec, Tally};
use crate::search::BudgetArgs;
use clap::Args;
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
    /// Match seed; the same seed gives the same games whatever the thread count (with --sims).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A file of opening positions, one position string per line ('#' starts a comment); each
    /// opening is played twice with seats swapped.
    #[arg(long)]
    pub openings: Option<String>,
    /// Write every game, one JSON object per line, to this file.
    #[arg(long)]
    pub record: Option<String>,
    /// Print one JSON summary object instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bar (it is shown only when stderr is a terminal anyway).
    #[arg(long)]
    pub quiet: bool,
}

/// Reads an openings file: non-empty lines that are not comments.
pub fn read_openings(path: &str) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let list: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect();
    if list.is_empty() {
        return Err(format!("{path} holds no opening positions"));
    }
    Ok(list)
}

impl MatchArgs {
    /// The match to play.
    pub fn spec(&self) -> Result<MatchSpec, String> {
        if self.games == 0 {
            return Err("--games must be at least 1".into());
        }
        Ok(MatchSpec {
            a: self.a.clone(),
            b: self.b.clone(),
            games: self.games,
            budget: self.budget.budget(),
            threads: self.threads.max(1),
            seed: self.seed,
            openings: match &self.openings {
                Some(p) => read_openings(p)?,
                None => Vec::new(),
            },
        })
    }
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
        s.push_str(&format!(
            " A {:.1}% ± {:.1}",
            100.0 * t.a_rate(),
            100.0 * t.ci95()
        ));
    }
    s
}

fn run_game<G: MatchGame>(args: &MatchArgs) -> Result<(), String> {
    let spec = args.spec()?;
    let pb = progress_bar(spec.games, "match", args.quiet);
    let (tally, records) = arena::run_match::<G>(&spec, |t, done| {
        pb.set_position(done as u64);
        pb.set_message(score_message(t));
    })?;
    pb.finish_and_clear();
    if let Some(path) = &args.record {
        write_records::<G>(path, &records)?;
    }
    print_summary::<G>(&spec, &tally, records.len(), args.json);
    Ok(())
}

/// Writes one JSON object per game: index, A's seat, result, start position, moves.
pub fn write_records<G: imcts::Game>(path: &str, records: &[GameRecord]) -> Result<(), String> {
    let mut f = std::fs::File::create(path).map_err(|e| format!("cannot create {path}: {e}"))?;
    for r in records {
        let result = match r.outcome {
            Some(imcts::Outcome::Win(imcts::Player::First)) => "1-0",
            Some(imcts::Outcome::Win(imcts::Player::Second)) => "0-1",
            _ => "1/2",
        };
        let line = serde_json::json!({
            "game": G::NAME, "index": r.index, "a_seat": if r.a_first { "first" } else { "second" },
            "result": result, "a_result": r.a_result, "start": r.start, "moves": r.moves,
        });
        writeln!(f, "{line}").map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    Ok(())
}

/// Prints the match summary as text or as one JSON object.
pub fn print_summary<G: imcts::Game>(spec: &MatchSpec, t: &Tally, games: usize, json: bool) {
    if json {
        let obj = serde_json::json!({
            "game": G::NAME, "a": spec.a, "b": spec.b, "games": games,
            "a_wins": t.a_wins, "b_wins": t.b_wins, "draws": t.draws, "discarded": t.discarded,
            "a_rate": t.a_rate(), "ci95": t.ci95(),
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
        println!(
            "A wins {}  losses {}  draws {}  rate {:.1}% ± {:.1}",
            t.a_wins,
            t.b_wins,
            t.draws,
            100.0 * t.a_rate(),
            100.0 * t.ci95()
        );
        println!(
            "simulations per move: A {:.0}  B {:.0}",
            t.sims_per_move(0),
            t.sims_per_move(1)
        );
    }
}
