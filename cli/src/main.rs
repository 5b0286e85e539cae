//! `imcts`: the command-line front end of the imcts kernel.

mod arena;
mod bbq_experiments;
mod bench;
mod engine;
mod experiment;
mod games;
mod gomocup;
mod gtp;
mod match_cmd;
mod memory;
mod merge;
mod paper_budget;
mod perft;
mod player;
mod plot;
mod search;
mod shard;
mod tournament;
mod uci;

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
    /// Hierarchical elimination tournament between several players (the paper's appendix B).
    Tournament(tournament::TournamentArgs),
    /// Speak the line protocol on stdin/stdout (see the README).
    Engine(search::SearchThreadsArgs),
    /// Re-run a paper's experiment preset (`imcts experiment list`).
    Experiment(experiment::ExperimentArgs),
    /// Put the records of a sharded match, tournament or experiment (`--shard i/N --record
    /// FILE`) together and print what the unsharded run prints.
    Merge(merge::MergeArgs),
    /// Speak the Gomocup (piskvork) protocol for Gomoku managers.
    Gomocup(gomocup::GomocupArgs),
    /// Fixed searches per game; prints the `Bench:` signature (total nodes) and simulations/s.
    Bench(bench::BenchArgs),
    /// Speak UCI (the chess engines' protocol) for every game; see the README.
    Uci(search::SearchThreadsArgs),
    /// Speak GTP v2 (the Go Text Protocol) for Gomoku and Tic-Tac-Toe; see the README.
    Gtp(gtp::GtpArgs),
}

/// Ends quietly when stdout is closed early (`imcts ... | head`), as command-line tools do,
/// instead of reporting a panic; any other panic is reported as usual.
fn exit_quietly_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

fn main() -> ExitCode {
    exit_quietly_on_broken_pipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Search(args) => search::run(&args),
        Command::Match(args) => match_cmd::run(&args),
        Command::Tournament(args) => tournament::run(&args),
        Command::Engine(args) => engine::run(&args),
        Command::Experiment(args) => experiment::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Gomocup(args) => gomocup::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Uci(args) => uci::run(&args),
        Command::Gtp(args) => gtp::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            // Like clap's usage errors: 2 for anything the user can fix.
            ExitCode::from(2)
        }
    }
}
