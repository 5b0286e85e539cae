//! `imcts tournament`: the paper's hierarchical elimination tournaments (appendix B). Each
//! round pairs the first remaining player with the last, the second with the second-to-last,
//! and so on; with an odd count the middle player gets a bye. Winners (and the bye) go on, in
//! their order, until one is left.

use crate::arena::{self, MatchGame, MatchSpec};
use crate::match_cmd::{progress_bar, score_message};
use crate::search::BudgetArgs;
use clap::Args;

/// Arguments of `imcts tournament`.
#[derive(Args)]
pub struct TournamentArgs {
    /// Game: breakthrough, loa, kalah, tictactoe, gomoku.
    pub game: String,
    /// The players' specs (two or more).
    #[arg(long, num_args = 2.., required = true)]
    pub players: Vec<String>,
    /// Games per head-to-head match (seats swapped halfway).
    #[arg(long, default_value_t = 10)]
    pub games_per_match: usize,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Games in parallel.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of every match.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print each match and the winner as JSON lines.
    #[arg(long)]
    pub json: bool,
    /// No progress bar (it is shown only when stderr is a terminal anyway).
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: &TournamentArgs) -> Result<(), String> {
    crate::with_game!(args.game.as_str(), G => run_game::<G>(args))
}

/// One round's pairing of `n` players: index pairs (first, last), …, and the bye, if any.
pub fn pairings(n: usize) -> (Vec<(usize, usize)>, Option<usize>) {
    let pairs = (0..n / 2).map(|i| (i, n - 1 - i)).collect();
    let bye = (n % 2 == 1).then_some(n / 2);
    (pairs, bye)
}

fn run_game<G: MatchGame>(args: &TournamentArgs) -> Result<(), String> {
    if args.games_per_match == 0 {
        return Err("--games-per-match must be at least 1".into());
    }
    crate::match_cmd::check_threads(args.threads)?;
    let budget = args.budget.budget()?;
    // Every spec is checked before round 1, not when its round comes.
    for p in &args.players {
        crate::player::build::<G>(p, &imcts::search::Budget::iterations(1), Some(1), None)?;
    }
    let mut players = args.players.clone();
    let mut round = 1;
    while players.len() > 1 {
        if !args.json {
            println!("round {round}");
        }
        let (pairs, bye) = pairings(players.len());
        // Survivors keep their order: the winner of pair i takes position i, the bye stays in
        // the middle.
        let mut next: Vec<Option<String>> = vec![None; players.len().div_ceil(2)];
        for (slot, &(i, j)) in pairs.iter().enumerate() {
            let spec = MatchSpec {
                a: players[i].clone(),
                b: players[j].clone(),
                games: args.games_per_match,
                budget,
                threads: args.threads,
                search_threads: [1, 1],
                seed: arena::derive_seed(args.seed, round, slot as u64),
                openings: Vec::new(),
            };
            let pb = progress_bar(spec.games, &format!("{} vs {}", spec.a, spec.b), args.quiet);
            let (t, _) = arena::run_match::<G>(&spec, |t, done| {
                pb.set_position(done as u64);
                pb.set_message(score_message(t));
            })?;
            pb.finish_and_clear();
            // More wins goes on; on a tie, the earlier-listed player (the paper does not say).
            let (w, l, ws, ls) = if t.b_wins > t.a_wins {
                (j, i, t.b_wins, t.a_wins)
            } else {
                (i, j, t.a_wins, t.b_wins)
            };
            if args.json {
                let obj = serde_json::json!({
                    "round": round, "winner": players[w], "winner_wins": ws,
                    "loser": players[l], "loser_wins": ls, "draws": t.draws,
                });
                println!("{obj}");
            } else {
                println!(
                    "winner {} ({ws}) vs. loser {} ({ls})",
                    players[w], players[l]
                );
            }
            next[slot] = Some(players[w].clone());
        }
        if let Some(b) = bye {
            if !args.json {
                println!("{} gets a bye", players[b]);
            }
            next[pairs.len()] = Some(players[b].clone());
        }
        players = next.into_iter().flatten().collect();
        round += 1;
    }
    if args.json {
        println!("{}", serde_json::json!({ "champion": players[0] }));
    } else {
        println!("Winner: {}", players[0]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::pairings;

    #[test]
    fn pairs_first_with_last_and_gives_the_middle_a_bye() {
        // The paper's first fet round: 13 players, fet0 vs fet1000, …, fet8 (index 6) gets a bye.
        let (pairs, bye) = pairings(13);
        assert_eq!(pairs[0], (0, 12));
        assert_eq!(pairs[5], (5, 7));
        assert_eq!(bye, Some(6));
        // Round two: 7 survivors, winner 0 meets the bye (index 6), index 3 gets the bye.
        let (pairs, bye) = pairings(7);
        assert_eq!(pairs, vec![(0, 6), (1, 5), (2, 4)]);
        assert_eq!(bye, Some(3));
        assert_eq!(pairings(2), (vec![(0, 1)], None));
    }
}
