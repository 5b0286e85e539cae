//! `imcts`: the command-line front end of the imcts kernel.

mod games;
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Search(args) => search::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}
