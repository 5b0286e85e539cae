//! `imcts merge RECORDS...`: the shards' records of one match, tournament or experiment
//! (`--shard i/N --record FILE`) put back together, printing what the unsharded run would print
//! (text or `--json`, the same fields). Every game is replayed from its record; overlapping shards,
//! missing games and records of different configurations are refused (exit code 2).

use crate::arena::{MatchGame, MatchSpec, Tally};
use crate::experiment::{self, RowResult, Scale};
use crate::match_cmd::{parse_record, text_field, uint_field};
use crate::shard::Shard;
use clap::{Args, ValueEnum};
use imcts::search::Budget;
use serde_json::Value;
use std::collections::BTreeMap;

/// Arguments of `imcts merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// The record files (`--record` of `match`, `tournament` or `experiment`), one per shard
    /// (tournaments: one per shard and pass), in any order.
    #[arg(required = true, value_name = "RECORDS")]
    pub records: Vec<String>,
    /// Print the JSON the unsharded run's `--json` prints.
    #[arg(long)]
    pub json: bool,
    /// Experiments: draw the sweep as an SVG file (as `experiment --plot`).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<String>,
    /// Matches: pool complete runs of one match made with different `--seed`s (independent
    /// games, so their counts add up); each seed's records must hold all its games.
    #[arg(long)]
    pub pool_seeds: bool,
}

/// The fields of a record line that describe the game played, not the match it belongs to.
/// `games` is among them: a match resumed with a larger `--games` appends lines with the new
/// count to lines with the old one (game *i* does not depend on the count), so the match has as
/// many games as its largest count says.
const PER_GAME: &[&str] = &[
    "index", "a_seat", "result", "a_result", "start", "moves", "a_sims", "a_moves", "b_sims",
    "b_moves", "shard", "games",
];

/// The fields every line of one experiment shares, whatever its row.
const PER_EXPERIMENT: &[&str] = &["game", "experiment", "scale", "rows", "seed"];

/// One line of one record file.
struct Line {
    file: usize,
    line: usize,
    v: Value,
}

/// `file:line` of a line.
fn place(files: &[String], l: &Line) -> String {
    format!("{}:{}", files[l.file], l.line)
}

pub fn run(args: &MergeArgs) -> Result<(), String> {
    let mut lines = Vec::new();
    for (file, path) in args.records.iter().enumerate() {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        for (n, raw) in text.lines().enumerate() {
            if raw.trim().is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(raw)
                .map_err(|e| format!("{path}:{}: not a JSON record: {e}", n + 1))?;
            if !v.is_object() {
                return Err(format!("{path}:{}: not a JSON record object", n + 1));
            }
            lines.push(Line {
                file,
                line: n + 1,
                v,
            });
        }
    }
    let Some(first) = lines.first() else {
        return Err(format!(
            "no games in {}: nothing to merge",
            args.records.join(", ")
        ));
    };
    let at = |msg: String| format!("{}: {msg}", place(&args.records, first));
    let game = text_field(&first.v, "game", &at)?;
    crate::with_game!(game.as_str(), G => merge::<G>(args, &lines))
}

/// The same value of `field` in `l` as in `reference`, or a mismatched-configuration error.
fn same(files: &[String], field: &str, reference: &Line, l: &Line) -> Result<(), String> {
    let (x, y) = (reference.v.get(field), l.v.get(field));
    if x == y {
        return Ok(());
    }
    let show = |v: Option<&Value>| v.map_or("(absent)".to_string(), Value::to_string);
    let hint = if field == "seed" && is_match(reference) {
        " (or pool complete runs of one match with --pool-seeds)"
    } else {
        ""
    };
    Err(format!(
        "mismatched configurations: {} has {field} = {} but {} has {field} = {}; \
         merge the records of one run only{hint}",
        place(files, reference),
        show(x),
        place(files, l),
        show(y)
    ))
}

/// Refuses to mix the records of a match, an experiment and a tournament.
fn same_kind(files: &[String], first: &Line, l: &Line) -> Result<(), String> {
    for field in ["experiment", "tournament"] {
        if first.v.get(field).is_some() != l.v.get(field).is_some() {
            return same(files, field, first, l);
        }
    }
    Ok(())
}

/// A line's shard (`shard` field).
fn shard_of(files: &[String], l: &Line) -> Result<Shard, String> {
    let at = |msg: String| format!("{}: {msg}", place(files, l));
    let text = text_field(&l.v, "shard", &at)?;
    Shard::parse(&text).map_err(at)
}

/// Budget text back to a budget, for [`experiment::budgets_text`]: `1000 sims`, `50 ms`, …
fn budget_from_text(text: &str) -> Result<Budget, String> {
    let mut b = Budget {
        iterations: None,
        nodes: None,
        time_us: None,
    };
    for part in text.split(", ") {
        let (n, unit) = part
            .split_once(' ')
            .ok_or_else(|| format!("'{text}' is not a budget"))?;
        let n: u64 = n.parse().map_err(|_| format!("'{text}' is not a budget"))?;
        match unit {
            "sims" => b.iterations = Some(n),
            "ms" => b.time_us = Some(n.saturating_mul(1000)),
            "us" => b.time_us = Some(n),
            "nodes" => b.nodes = Some(n),
            _ => return Err(format!("'{text}' is not a budget")),
        }
    }
    Ok(b)
}

/// One match's lines (a whole match, or one experiment row) checked and counted.
struct Merged {
    tally: Tally,
    games: usize,
}

/// Checks one match's lines (same configuration, no game twice, none missing, each game in the
/// shard it claims) and counts them as the unsharded run would.
fn merge_match<G: MatchGame>(
    files: &[String],
    group: &[&Line],
    what: &str,
) -> Result<Merged, String> {
    let reference = group[0];
    for l in group {
        let keys: Vec<&String> = reference
            .v
            .as_object()
            .into_iter()
            .chain(l.v.as_object())
            .flat_map(|o| o.keys())
            .collect();
        for k in keys {
            if !PER_GAME.contains(&k.as_str()) {
                same(files, k, reference, l)?;
            }
        }
    }
    let at0 = |msg: String| format!("{}: {msg}", place(files, reference));
    let mut games = 0;
    for l in group {
        let at = |msg: String| format!("{}: {msg}", place(files, l));
        let n = usize::try_from(uint_field(&l.v, "games", &at)?)
            .map_err(|_| at("'games' too large".into()))?;
        games = games.max(n);
    }
    let paired = {
        let mut rng = imcts::rng::seeded(0);
        text_field(&reference.v, "openings", &at0)? == "none" && G::paired_start(&mut rng).is_some()
    };
    let count = shard_of(files, reference)?.count;
    let mut slots: Vec<Option<(&Line, crate::arena::GameRecord)>> =
        crate::memory::filled(games, None, "game records")?;
    for l in group {
        let at = |msg: String| format!("{}: {msg}", place(files, l));
        let shard = shard_of(files, l)?;
        if shard.count != count {
            return Err(format!(
                "mismatched configurations: {} is shard {} but {} is shard {}",
                place(files, reference),
                shard_of(files, reference)?,
                place(files, l),
                shard
            ));
        }
        let r = parse_record::<G>(&l.v, &at)?;
        if r.index >= games {
            return Err(at(format!(
                "game index {} is past the match's {games} games",
                r.index
            )));
        }
        if !shard.owns(r.index, paired) {
            return Err(at(format!("game {} is not shard {shard}'s", r.index)));
        }
        let claimed = l.v.get("a_result").and_then(Value::as_i64);
        if claimed != Some(i64::from(r.a_result)) {
            return Err(at(format!(
                "game {}: a_result {} is not what its moves give ({})",
                r.index,
                claimed.map_or("(absent)".into(), |c| c.to_string()),
                r.a_result
            )));
        }
        if let Some((other, _)) = &slots[r.index] {
            return Err(format!(
                "overlapping shards: {what}game {} is in {} and in {}",
                r.index,
                place(files, other),
                place(files, l)
            ));
        }
        let i = r.index;
        slots[i] = Some((l, r));
    }
    let missing: Vec<usize> = (0..games).filter(|&i| slots[i].is_none()).collect();
    if !missing.is_empty() {
        let mut shards: Vec<usize> = missing
            .iter()
            .map(|&g| if paired { g / 2 } else { g } % count)
            .collect();
        shards.dedup();
        shards.sort_unstable();
        shards.dedup();
        let shown: Vec<String> = missing.iter().take(10).map(|g| g.to_string()).collect();
        let shard_list: Vec<String> = shards.iter().map(|s| format!("{s}/{count}")).collect();
        return Err(format!(
            "missing games: {what}{} of {games} games are not in the records (games {}{}; \
             shards {}): give every shard's complete record",
            missing.len(),
            shown.join(", "),
            if missing.len() > 10 { ", …" } else { "" },
            shard_list.join(", ")
        ));
    }
    let records: Vec<crate::arena::GameRecord> =
        slots.into_iter().flatten().map(|(_, r)| r).collect();
    Ok(Merged {
        tally: crate::arena::tally_in_order(&records, paired),
        games,
    })
}

/// Overlap between files: a shard may come from one file only.
fn check_files(files: &[String], lines: &[Line]) -> Result<(), String> {
    let mut shard_file: BTreeMap<(String, String), usize> = BTreeMap::new();
    for l in lines {
        let shard = shard_of(files, l)?.to_string();
        // An experiment's rows (a tournament's matches, several matches' players) share a
        // shard; key by them too, so one file may hold many. Runs with other seeds are other
        // runs, not overlapping shards (`same` names the seed, `--pool-seeds` pools them).
        let row = ["row", "round", "slot", "a", "b", "seed"]
            .map(|f| l.v.get(f).map_or(String::new(), Value::to_string))
            .join(" ");
        let key = (shard.clone(), row);
        match shard_file.get(&key) {
            Some(&f) if f != l.file => {
                return Err(format!(
                    "overlapping shards: {} and {} both hold shard {shard}",
                    files[f], files[l.file]
                ));
            }
            _ => {
                shard_file.insert(key, l.file);
            }
        }
    }
    Ok(())
}

/// A tournament: one match per (round, slot), paired as the bracket pairs them.
fn merge_tournament<G: MatchGame>(args: &MergeArgs, lines: &[Line]) -> Result<(), String> {
    let files = &args.records;
    let first = &lines[0];
    let at0 = |msg: String| format!("{}: {msg}", place(files, first));
    if args.plot.is_some() {
        return Err(
            "--plot draws an experiment's sweep over α: these are the records of a tournament"
                .into(),
        );
    }
    for l in lines {
        for f in ["game", "tournament", "tournament_seed", "games", "budget"] {
            same(files, f, first, l)?;
        }
    }
    let players: Vec<String> = first
        .v
        .get("tournament")
        .and_then(Value::as_array)
        .and_then(|a| a.iter().map(|p| p.as_str().map(String::from)).collect())
        .ok_or_else(|| at0("'tournament' is not a list of player specs".into()))?;
    let seed = uint_field(&first.v, "tournament_seed", &at0)?;
    let mut groups: BTreeMap<(u64, u64), Vec<&Line>> = BTreeMap::new();
    for l in lines {
        let at = |msg: String| format!("{}: {msg}", place(files, l));
        let key = (
            uint_field(&l.v, "round", &at)?,
            uint_field(&l.v, "slot", &at)?,
        );
        groups.entry(key).or_default().push(l);
    }
    crate::tournament::bracket(&players, args.json, |round, slot, a, b| {
        let what = format!("round {round} match {slot} ({a} vs {b}): ");
        let group = groups.remove(&(round, slot as u64)).ok_or_else(|| {
            format!(
                "missing games: {what}no game of it is in the records; give every shard's \
                 records of every round"
            )
        })?;
        let l = group[0];
        let at = |msg: String| format!("{}: {msg}", place(files, l));
        let want_seed = crate::tournament::match_seed(seed, round, slot);
        if text_field(&l.v, "a", &at)? != a
            || text_field(&l.v, "b", &at)? != b
            || uint_field(&l.v, "seed", &at)? != want_seed
        {
            return Err(at(format!(
                "mismatched configurations: {what}the bracket pairs {a} with {b} (seed \
                 {want_seed}) there"
            )));
        }
        Ok(Some(merge_match::<G>(files, &group, &what)?.tally))
    })?;
    if let Some(((round, slot), group)) = groups.into_iter().next() {
        return Err(format!(
            "mismatched configurations: {} holds a game of round {round} match {slot}, which \
             this tournament does not play",
            place(files, group[0])
        ));
    }
    Ok(())
}

/// The records of matches (not of an experiment or a tournament): one match, or several whose
/// lines are told apart by their players. One match prints its summary, as `match` does. Several
/// that are rows of one experiment preset (the points of a sweep played as resumable matches,
/// e.g. with `--sims-b`) print as that experiment's table, with the paper's numbers, and
/// `--plot` draws them; other sets print each match's summary in turn.
/// One match's records split by seed, each seed's run merged as a whole (every check of
/// [`merge_match`]), and the runs' counts added up. Returns the pooled counts and the seeds, in
/// increasing order.
fn pool_seeds<G: MatchGame>(
    files: &[String],
    group: &[&Line],
    what: &str,
) -> Result<(Merged, Vec<u64>), String> {
    let mut by_seed: BTreeMap<u64, Vec<&Line>> = BTreeMap::new();
    for l in group {
        let at = |msg: String| format!("{}: {msg}", place(files, l));
        by_seed
            .entry(uint_field(&l.v, "seed", &at)?)
            .or_default()
            .push(l);
    }
    let mut pooled = Merged {
        tally: Tally::default(),
        games: 0,
    };
    for (seed, lines) in &by_seed {
        // The runs of one match differ in their seed alone.
        for l in lines {
            let keys = group[0].v.as_object().into_iter().chain(l.v.as_object());
            for k in keys.flat_map(|o| o.keys()) {
                if !PER_GAME.contains(&k.as_str()) && k != "seed" {
                    same(files, k, group[0], l)?;
                }
            }
        }
        let m = merge_match::<G>(files, lines, &format!("{what}seed {seed}: "))?;
        pooled.tally.add(&m.tally);
        pooled.games += m.games;
    }
    Ok((pooled, by_seed.into_keys().collect()))
}

fn merge_matches<G: MatchGame>(args: &MergeArgs, lines: &[Line]) -> Result<(), String> {
    let files = &args.records;
    let mut by_players: Vec<((String, String), Vec<&Line>)> = Vec::new();
    for l in lines {
        let at = |msg: String| format!("{}: {msg}", place(files, l));
        let key = (text_field(&l.v, "a", &at)?, text_field(&l.v, "b", &at)?);
        match by_players.iter_mut().find(|(k, _)| *k == key) {
            Some((_, group)) => group.push(l),
            None => by_players.push((key, vec![l])),
        }
    }
    let summary = |group: &[&Line], m: &Merged| -> Result<(), String> {
        let at = |msg: String| format!("{}: {msg}", place(files, group[0]));
        let spec = MatchSpec {
            a: text_field(&group[0].v, "a", &at)?,
            b: text_field(&group[0].v, "b", &at)?,
            games: m.games,
            budget: Budget::iterations(1),
            b_budget: None,
            threads: 1,
            search_threads: [1, 1],
            parallel: [crate::search::Parallel::Tree; 2],
            seed: uint_field(&group[0].v, "seed", &at)?,
            openings: Vec::new(),
            shard: Shard::WHOLE,
        };
        crate::match_cmd::print_summary::<G>(&spec, &m.tally, m.games, args.json);
        Ok(())
    };
    if args.pool_seeds {
        if args.plot.is_some() {
            return Err("--pool-seeds and --plot: pooled runs are matches, not a sweep".into());
        }
        for ((a, b), group) in &by_players {
            let what = if by_players.len() > 1 {
                format!("{a} against {b}: ")
            } else {
                String::new()
            };
            let (m, seeds) = pool_seeds::<G>(files, group, &what)?;
            let spec = MatchSpec {
                a: a.clone(),
                b: b.clone(),
                games: m.games,
                budget: Budget::iterations(1),
                b_budget: None,
                threads: 1,
                search_threads: [1, 1],
                parallel: [crate::search::Parallel::Tree; 2],
                seed: seeds[0],
                openings: Vec::new(),
                shard: Shard::WHOLE,
            };
            crate::match_cmd::print_pooled_summary::<G>(
                &spec, &m.tally, m.games, args.json, &seeds,
            );
        }
        return Ok(());
    }
    if let [(_, group)] = &by_players[..] {
        if args.plot.is_some() {
            return Err(
                "--plot draws a sweep over α: these are the records of one match (give the \
                 records of every point, or of an experiment)"
                    .into(),
            );
        }
        let m = merge_match::<G>(files, group, "")?;
        return summary(group, &m);
    }
    // Several matches: the preset (of this game) whose rows hold every pair of players.
    let preset = experiment::PRESETS.iter().find(|p| {
        let rows = (p.rows)(Scale::Paper, p.quick_sims);
        p.game == G::NAME
            && by_players
                .iter()
                .all(|((a, b), _)| rows.iter().any(|r| r.a == *a && r.b == *b))
    });
    let Some(preset) = preset else {
        if args.plot.is_some() {
            return Err(format!(
                "--plot: these {} matches are not the rows of one experiment preset of {}, \
                 so there is no sweep to draw",
                by_players.len(),
                G::NAME
            ));
        }
        for ((a, b), group) in &by_players {
            let m = merge_match::<G>(files, group, &format!("{a} against {b}: "))?;
            summary(group, &m)?;
        }
        return Ok(());
    };
    if args.plot.is_some() {
        let specs = by_players.iter().map(|((a, _), _)| a.as_str());
        crate::plot::check_sweep(preset.name, specs)?;
    }
    if !args.json {
        experiment::print_header(preset.about, Scale::Paper);
    }
    let rows = (preset.rows)(Scale::Paper, preset.quick_sims);
    let mut results = Vec::new();
    for ((a, b), group) in &by_players {
        let l = group[0];
        let at = |msg: String| format!("{}: {msg}", place(files, l));
        let m = merge_match::<G>(files, group, &format!("{a} against {b}: "))?;
        let budget = budget_from_text(&text_field(&l.v, "budget", &at)?).map_err(&at)?;
        // Records written before `b_budget` existed gave both players one budget.
        let b_budget = match l.v.get("b_budget") {
            Some(_) => budget_from_text(&text_field(&l.v, "b_budget", &at)?).map_err(&at)?,
            None => budget,
        };
        let row = rows
            .iter()
            .find(|r| r.a == *a && r.b == *b)
            .expect("the preset was chosen for holding every pair");
        let result = RowResult {
            a: a.clone(),
            b: b.clone(),
            games: m.games,
            budget: experiment::budgets_text(&budget, &b_budget),
            tally: m.tally,
            paper: row.paper,
            paper_secs: row.paper_secs,
        };
        experiment::print_row(preset.name, G::NAME, &result, Shard::WHOLE, args.json);
        results.push(result);
    }
    if let Some(path) = &args.plot {
        crate::plot::sweep(path, preset, &results)?;
    }
    Ok(())
}

/// Whether a line is a record of `imcts match` (not of an experiment or a tournament).
fn is_match(l: &Line) -> bool {
    l.v.get("experiment").is_none() && l.v.get("tournament").is_none()
}

fn merge<G: MatchGame>(args: &MergeArgs, lines: &[Line]) -> Result<(), String> {
    let files = &args.records;
    check_files(files, lines)?;
    let first = &lines[0];
    let at0 = |msg: String| format!("{}: {msg}", place(files, first));
    // Records of one kind of run only.
    for l in lines {
        same_kind(files, first, l)?;
    }
    if args.pool_seeds && !is_match(first) {
        return Err(
            "--pool-seeds pools the runs of a match; these are the records of an experiment or \
             a tournament"
                .into(),
        );
    }
    if first.v.get("tournament").is_some() {
        return merge_tournament::<G>(args, lines);
    }
    if first.v.get("experiment").is_none() {
        return merge_matches::<G>(args, lines);
    }
    // An experiment: one match per row.
    for l in lines {
        for f in PER_EXPERIMENT {
            same(files, f, first, l)?;
        }
    }
    let name = text_field(&first.v, "experiment", &at0)?;
    let preset = experiment::PRESETS
        .iter()
        .find(|p| p.name == name)
        .ok_or_else(|| at0(format!("unknown experiment '{name}'")))?;
    let scale_name = text_field(&first.v, "scale", &at0)?;
    let scale = Scale::from_str(&scale_name, false)
        .map_err(|_| at0(format!("unknown scale '{scale_name}'")))?;
    let rows: Vec<u64> = first
        .v
        .get("rows")
        .and_then(Value::as_array)
        .and_then(|a| a.iter().map(Value::as_u64).collect())
        .ok_or_else(|| at0("'rows' is not a list of row numbers".into()))?;
    let mut by_row: BTreeMap<u64, Vec<&Line>> = BTreeMap::new();
    for l in lines {
        let at = |msg: String| format!("{}: {msg}", place(files, l));
        let row = uint_field(&l.v, "row", &at)?;
        if !rows.contains(&row) {
            return Err(at(format!(
                "row {row} is not one of the run's rows {rows:?}"
            )));
        }
        by_row.entry(row).or_default().push(l);
    }
    if let Some(row) = rows.iter().find(|r| !by_row.contains_key(r)) {
        return Err(format!(
            "missing games: row {row} of {name} has no game in the records; give every shard's \
             complete record"
        ));
    }
    if args.plot.is_some() {
        let a_specs: Vec<String> = by_row
            .values()
            .map(|g| text_field(&g[0].v, "a", &at0))
            .collect::<Result<_, _>>()?;
        crate::plot::check_sweep(preset.name, a_specs.iter().map(String::as_str))?;
    }
    if !args.json {
        experiment::print_header(preset.about, scale);
    }
    let mut results = Vec::new();
    for (row, group) in &by_row {
        let l = group[0];
        let at = |msg: String| format!("{}: {msg}", place(files, l));
        let m = merge_match::<G>(files, group, &format!("row {row}: "))?;
        let budget = budget_from_text(&text_field(&l.v, "budget", &at)?).map_err(&at)?;
        let b_budget = budget_from_text(&text_field(&l.v, "b_budget", &at)?).map_err(&at)?;
        let result = RowResult {
            a: text_field(&l.v, "a", &at)?,
            b: text_field(&l.v, "b", &at)?,
            games: m.games,
            budget: experiment::budgets_text(&budget, &b_budget),
            tally: m.tally,
            paper: l.v.get("paper_rate").and_then(Value::as_f64),
            paper_secs: l
                .v
                .get("paper_secs")
                .and_then(Value::as_f64)
                .ok_or_else(|| at("'paper_secs' is not a number".into()))?,
        };
        experiment::print_row(preset.name, G::NAME, &result, Shard::WHOLE, args.json);
        results.push(result);
    }
    if let Some(path) = &args.plot {
        crate::plot::sweep(path, preset, &results)?;
    }
    Ok(())
}
