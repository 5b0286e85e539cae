//! `imcts`: the command-line front end of the imcts kernel.

mod agent;
mod arena;
mod bench;
mod engine;
mod experiment;
mod games;
mod match_cmd;
mod perft;
mod search;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// imcts: MCTS with implicit minimax backups for two-player games.
#[derive(Parser)]
#[command(name = "imcts", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences of exactly DEPTH plies (finished games are not extended).
    Perft(perft::PerftArgs),
    /// Search one position and print the best move and the root's children.
    Search(search::SearchArgs),
    /// Play N games between two players, seats alternating.
    Match(match_cmd::MatchArgs),
    /// Speak the line protocol on stdin/stdout (see the README).
    Engine,
    /// Re-run a paper's experiment preset (`imcts experiment list`).
    Experiment(experiment::ExperimentArgs),
    /// Fixed searches per game; prints the `Bench:` signature (total nodes) and simulations/s.
    Bench(bench::BenchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Search(args) => search::run(&args),
        Command::Match(args) => match_cmd::run(&args),
        Command::Engine => engine::run(),
        Command::Experiment(args) => experiment::run(&args),
        Command::Bench(args) => bench::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}
