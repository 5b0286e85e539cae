//! `imcts tournament`: the paper's hierarchical elimination tournaments (appendix B). Each
//! round pairs the first remaining player with the last, the second with the second-to-last,
//! and so on; with an odd count the middle player gets a bye. Winners (and the bye) go on, in
//! their order, until one is left.

use crate::arena::{self, GameRecord, MatchGame, MatchSpec, Tally};
use crate::match_cmd::{
    RecordFile, parse_record, progress_bar, score_message, text_field, uint_field,
};
use crate::search::BudgetArgs;
use crate::shard::Shard;
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
    /// Write every game, one JSON object per line (as `imcts match --record`, plus the
    /// tournament's `players`, `round` and `slot`), to this file.
    #[arg(long)]
    pub record: Option<String>,
    /// Play only shard I of N of every match (game g goes to shard g mod N, seeds unchanged). A
    /// round needs every shard's games before the next can be paired: the run stops after the
    /// first round it cannot decide; run the shards again with --known.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse, default_value = "0/1")]
    pub shard: Shard,
    /// Records of earlier runs of this tournament (any shard): their games count and are not
    /// played again.
    #[arg(long, num_args = 1.., value_name = "RECORDS")]
    pub known: Vec<String>,
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

/// The seed of the match in `slot` of `round` (from 1) of a tournament seeded `seed`.
pub fn match_seed(seed: u64, round: u64, slot: usize) -> u64 {
    arena::derive_seed(seed, round, slot as u64)
}

/// Runs the bracket, printing it as `imcts tournament` does. `play(round, slot, a, b)` gives
/// the tally of that match, or `None` if it cannot be decided yet (a shard without the other
/// shards' games): then the rest of that round is still played and the bracket stops after it.
/// Returns whether a champion was found.
pub fn bracket(
    players: &[String],
    json: bool,
    mut play: impl FnMut(u64, usize, &str, &str) -> Result<Option<Tally>, String>,
) -> Result<bool, String> {
    let mut players = players.to_vec();
    let mut round = 1;
    while players.len() > 1 {
        if !json {
            println!("round {round}");
        }
        let (pairs, bye) = pairings(players.len());
        // Survivors keep their order: the winner of pair i takes position i, the bye stays in
        // the middle.
        let mut next: Vec<Option<String>> = vec![None; players.len().div_ceil(2)];
        let mut undecided = false;
        for (slot, &(i, j)) in pairs.iter().enumerate() {
            let Some(t) = play(round, slot, &players[i], &players[j])? else {
                undecided = true;
                continue;
            };
            // More wins goes on; on a tie, the earlier-listed player (the paper does not say).
            let (w, l, ws, ls) = if t.b_wins > t.a_wins {
                (j, i, t.b_wins, t.a_wins)
            } else {
                (i, j, t.a_wins, t.b_wins)
            };
            if json {
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
            if !json {
                println!("{} gets a bye", players[b]);
            }
            next[pairs.len()] = Some(players[b].clone());
        }
        if undecided {
            return Ok(false);
        }
        players = next.into_iter().flatten().collect();
        round += 1;
    }
    if json {
        println!("{}", serde_json::json!({ "champion": players[0] }));
    } else {
        println!("Winner: {}", players[0]);
    }
    Ok(true)
}

/// The games of `--known` files, by (round, slot), each with its line (for error messages).
type Known = std::collections::BTreeMap<(u64, usize), Vec<(String, GameRecord)>>;

/// Reads `--known` records: each line must be a game of this tournament (same game, players
/// and seed; its match's players and budget are checked when the match comes up).
fn read_known<G: MatchGame>(
    args: &TournamentArgs,
    budget: &imcts::search::Budget,
) -> Result<Known, String> {
    let mut known = Known::new();
    for path in &args.known {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let place = format!("{path}:{}", n + 1);
            let at = |msg: String| format!("{place}: {msg}");
            let v: serde_json::Value =
                serde_json::from_str(line).map_err(|e| at(format!("not a JSON record: {e}")))?;
            let players: Option<Vec<&str>> = v
                .get("tournament")
                .and_then(|p| p.as_array())
                .and_then(|a| a.iter().map(|p| p.as_str()).collect());
            let this = players.as_deref().is_some_and(|p| p == args.players)
                && text_field(&v, "game", &at)? == G::NAME
                && v.get("tournament_seed").and_then(|s| s.as_u64()) == Some(args.seed)
                && v.get("games").and_then(|s| s.as_u64()) == Some(args.games_per_match as u64)
                && v.get("budget").and_then(|s| s.as_str())
                    == Some(arena::budget_text(budget).as_str());
            if !this {
                return Err(at(format!(
                    "mismatched configurations: not a game of this tournament ({}, the same \
                     --players, --seed {}, --games-per-match {} and budget {})",
                    G::NAME,
                    args.seed,
                    args.games_per_match,
                    arena::budget_text(budget)
                )));
            }
            let round = uint_field(&v, "round", &at)?;
            let slot = usize::try_from(uint_field(&v, "slot", &at)?)
                .map_err(|_| at("slot too large".into()))?;
            let shard = Shard::parse(&text_field(&v, "shard", &at)?).map_err(&at)?;
            if shard.count != args.shard.count {
                return Err(at(format!(
                    "mismatched configurations: a game of shard {shard}, not of a shard of {}",
                    args.shard.count
                )));
            }
            let r = parse_record::<G>(&v, &at)?;
            let list = known.entry((round, slot)).or_default();
            if let Some((other, _)) = list.iter().find(|(_, g)| g.index == r.index) {
                return Err(format!(
                    "overlapping shards: round {round} match {slot} game {} is in {other} and \
                     in {place}",
                    r.index
                ));
            }
            list.push((place, r));
        }
    }
    Ok(known)
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
    let mut known = read_known::<G>(args, &budget)?;
    // A record that is also read with --known (resuming into the same file) is appended to:
    // its games were just read and must not be truncated away.
    let mut record = match &args.record {
        Some(p) if args.known.iter().any(|k| same_file(k, p)) => Some(RecordFile::append(p)?),
        Some(p) => Some(RecordFile::create(p)?),
        None => None,
    };
    arena::stop_on_signals()?;
    let complete = bracket(&args.players, args.json, |round, slot, a, b| {
        let spec = MatchSpec {
            a: a.to_string(),
            b: b.to_string(),
            games: args.games_per_match,
            budget,
            b_budget: None,
            threads: args.threads,
            search_threads: [1, 1],
            parallel: [crate::search::Parallel::Tree; 2],
            seed: match_seed(args.seed, round, slot),
            openings: Vec::new(),
            shard: args.shard,
        };
        let paired = spec.paired::<G>();
        let earlier = known.remove(&(round, slot)).unwrap_or_default();
        // This shard's earlier games are resumed; the other shards' only counted.
        let (mine, others): (Vec<_>, Vec<_>) = earlier
            .into_iter()
            .partition(|(_, g)| args.shard.owns(g.index, paired));
        if let Some(f) = &mut record {
            let serde_json::Value::Object(context) = serde_json::json!({
                "tournament": args.players, "tournament_seed": args.seed,
                "round": round, "slot": slot,
            }) else {
                unreachable!("a JSON object literal")
            };
            f.set_context(context);
        }
        let pb = progress_bar(
            args.shard.games_of(spec.games, paired),
            &format!("{} vs {}", spec.a, spec.b),
            args.quiet,
        );
        let m = arena::run_match_with::<G>(
            &spec,
            mine.into_iter().map(|(_, g)| g).collect(),
            |t, done| {
                pb.set_position(done as u64);
                pb.set_message(score_message(t));
            },
            |g| match &mut record {
                Some(f) => f.write::<G>(&spec, g),
                None => Ok(()),
            },
        )?;
        pb.finish_and_clear();
        if m.interrupted {
            let resume = match &args.record {
                Some(p) => format!("; run the same command with --known {p} to continue"),
                None => String::new(),
            };
            eprintln!(
                "interrupted: round {round} match {slot} ({} vs {}), {} of its {} games \
                 finished{resume}",
                spec.a,
                spec.b,
                m.records.len(),
                args.shard.games_of(spec.games, paired)
            );
            std::process::exit(130);
        }
        let mut slots: Vec<Option<GameRecord>> = vec![None; spec.games];
        for g in m
            .records
            .into_iter()
            .chain(others.into_iter().map(|(_, g)| g))
        {
            if g.index >= spec.games {
                return Err(format!(
                    "round {round} match {slot}: game {} is past --games-per-match {}",
                    g.index, spec.games
                ));
            }
            let i = g.index;
            slots[i] = Some(g);
        }
        if slots.iter().any(Option::is_none) {
            return Ok(None);
        }
        let games: Vec<GameRecord> = slots.into_iter().flatten().collect();
        Ok(Some(arena::tally_in_order(&games, paired)))
    })?;
    if !complete {
        eprintln!(
            "shard {}: this round needs the other shards' games; run every shard again with \
             --known and all records so far, then `imcts merge` them",
            args.shard
        );
    }
    Ok(())
}

/// Whether two paths name one file (by their canonical paths when both exist).
fn same_file(a: &str, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
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
