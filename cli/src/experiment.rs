//! `imcts experiment <name> [--scale quick|paper]`: named presets that re-run the papers'
//! head-to-head experiments and print our figure beside the paper's.
//!
//! `quick` uses simulation budgets (time budgets for rows against αβ, whose nodes are not
//! comparable with simulations) and few games, so a preset fits in minutes on two cores; its
//! figures have wide confidence intervals. `paper` uses the paper's time per move (1 s) and
//! game counts, and takes hours to days.

use crate::arena::{self, MatchGame, MatchSpec, Tally};
use crate::match_cmd::{progress_bar, score_message};
use crate::shard::Shard;
use clap::{Args, ValueEnum};
use imcts::search::Budget;

/// How big to run a preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Scale {
    /// Minutes on two cores: simulation budgets, few games.
    Quick,
    /// The paper's settings: one second per move, the paper's game counts.
    Paper,
}

impl Scale {
    /// Its name on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Quick => "quick",
            Scale::Paper => "paper",
        }
    }
}

/// `--budget`: budgets other than the scale's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BudgetChoice {
    /// Each configuration gets the simulations the paper's Java code ran in the paper's time
    /// per move (its rate on this machine type × seconds; see `paper_budget.rs`).
    Paper,
}

/// Arguments of `imcts experiment`.
#[derive(Args)]
pub struct ExperimentArgs {
    /// Preset name; `list` shows them all.
    pub name: String,
    /// quick (minutes) or paper (the paper's settings).
    #[arg(long, value_enum, default_value_t = Scale::Quick)]
    pub scale: Scale,
    /// Override the games per row.
    #[arg(long)]
    pub games: Option<usize>,
    /// Override the simulations per move (quick scale).
    #[arg(long, conflicts_with = "budget")]
    pub sims: Option<u64>,
    /// `paper`: simulations per move = each configuration's Java rate (`paper_budget.rs`) × the
    /// paper's seconds per move, A and B each their own; rows without a measured rate are
    /// skipped.
    #[arg(long, value_enum)]
    pub budget: Option<BudgetChoice>,
    /// Games in parallel.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Seed of every row's match.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// One JSON object per row instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Play only shard I of N of every row (game g goes to shard g mod N, seeds unchanged);
    /// combine the shards' --record files with `imcts merge`.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse, default_value = "0/1")]
    pub shard: Shard,
    /// Draw the sweep (A's win rate against α, 95% Wilson intervals, the paper's points) as an
    /// SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<String>,
    /// Write every game of every row, one JSON object per line (as `imcts match --record`; `a`,
    /// `b` name the row), to this file: created before the first game, written as games finish.
    #[arg(long)]
    pub record: Option<String>,
    /// No progress bar (it is shown only when stderr is a terminal anyway).
    #[arg(long)]
    pub quiet: bool,
}

/// One row of a preset: A against B, and what the paper reports for A.
#[derive(Clone, Debug)]
pub struct Row {
    /// Player A's spec.
    pub a: String,
    /// Player B's spec.
    pub b: String,
    /// The paper's win rate of A in percent, if it gives one.
    pub paper: Option<f64>,
    /// The paper's game count for this row.
    pub paper_games: usize,
    /// Seconds per move in the paper.
    pub paper_secs: f64,
    /// Whether a player is αβ (quick scale then uses time, not simulations).
    pub alphabeta: bool,
}

fn row(a: &str, b: &str, paper: Option<f64>, games: usize, secs: f64) -> Row {
    Row {
        a: a.into(),
        b: b.into(),
        paper,
        paper_games: games,
        paper_secs: secs,
        alphabeta: a.starts_with("ab") || b.starts_with("ab"),
    }
}

/// A named preset.
pub struct Preset {
    /// Its name on the command line.
    pub name: &'static str,
    /// The game.
    pub game: &'static str,
    /// What it reproduces.
    pub about: &'static str,
    /// Games per row at quick scale.
    pub quick_games: usize,
    /// Simulations per move at quick scale.
    pub quick_sims: u64,
    /// Milliseconds per move for αβ rows at quick scale.
    pub quick_ms: u64,
    /// The rows.
    pub rows: fn(Scale, u64) -> Vec<Row>,
    /// Opening positions (the file's text, one position per line), if the preset uses them.
    pub openings: Option<&'static str>,
}

/// LOA's 100 balanced openings (see the file's header for how they were made).
const LINES_OF_ACTION_OPENINGS: &str = include_str!("../../data/openings/loa.txt");

/// The LOA search of the paper's MC-LOA stand-in: one child per simulation, evaluation cut-off
/// of playouts at |v| ≥ 0.7, with the given playout and extra labels.
fn loa(extra: &str) -> String {
    format!("mcts(one,det0.7,{extra})")
}

fn lines_of_action_fig4(_: Scale, _: u64) -> Vec<Row> {
    let mut rows = Vec::new();
    for base in ["ipp", "abp", "abp,pb"] {
        for a in ["0.1", "0.2", "0.4"] {
            rows.push(row(
                &loa(&format!("{base},im{a}")),
                &loa(base),
                None,
                1000,
                1.0,
            ));
        }
    }
    rows
}

fn lines_of_action_table5(scale: Scale, _: u64) -> Vec<Row> {
    let all = vec![
        row(
            &loa("abp,pb,im0.2"),
            &loa("abp,pb"),
            Some(50.59),
            32000,
            1.0,
        ),
        row(&loa("abp,pb,im0.2"), &loa("abp,pb"), Some(50.91), 6000, 5.0),
        row(&loa("abp,im0.2"), &loa("abp"), Some(59.90), 1000, 1.0),
        row(&loa("abp,im0.2"), &loa("abp"), Some(63.10), 6000, 5.0),
        row(&loa("abp,im0.2"), &loa("abp"), Some(63.80), 2600, 10.0),
        row(&loa("abp"), "ab(mia)", Some(40.0), 2000, 5.0),
        row(&loa("abp,im0.2"), "ab(mia)", Some(51.0), 2000, 5.0),
        row(&loa("abp,pb"), "ab(mia)", Some(61.8), 20000, 5.0),
        row(&loa("abp,pb,im0.2"), "ab(mia)", Some(63.3), 20000, 5.0),
    ];
    match scale {
        Scale::Paper => all,
        // Quick: one row of each kind.
        Scale::Quick => vec![
            all[0].clone(),
            all[2].clone(),
            all[5].clone(),
            all[6].clone(),
        ],
    }
}

/// Seed 003, Tables 4–5 in spirit: Dist(k) players against each other in Outer-Open Gomoku.
fn gomoku_dist(_: Scale, _: u64) -> Vec<Row> {
    use crate::bbq_experiments::GOMOKU_DIST_SPECS as D;
    vec![
        row(D[0], D[1], None, 100, 1.0),
        row(D[0], D[2], None, 100, 1.0),
        row(D[0], D[3], None, 100, 1.0),
        row(D[1], D[2], None, 100, 1.0),
    ]
}

/// Seed 003's Depth(30/40/50) comparison with Dist(1).
fn gomoku_depth(_: Scale, _: u64) -> Vec<Row> {
    use crate::bbq_experiments::GOMOKU_DEPTH_SPECS as D;
    vec![
        row(D[0], D[1], None, 100, 1.0),
        row(D[0], D[2], None, 100, 1.0),
        row(D[1], D[2], None, 100, 1.0),
    ]
}

/// Kalah, Figure 1 of the short paper (Figure 4 of the long one): MCTS(fet4,imα) against
/// MCTS(fet4) on random boards; the paper peaks near 70% at α = 0.3.
fn kalah_fig1(_: Scale, _: u64) -> Vec<Row> {
    ["0.1", "0.2", "0.3", "0.4", "0.5", "0.7"]
        .iter()
        .map(|a| {
            row(
                &format!("mcts(fet4,im{a})"),
                "mcts(fet4)",
                if *a == "0.3" { Some(70.0) } else { None },
                1000,
                1.0,
            )
        })
        .collect()
}

fn table2(_: Scale, _: u64) -> Vec<Row> {
    vec![
        row("mcts(ipp)", "mcts", Some(94.30), 1000, 1.0),
        row("mcts(ege0.1,det0.5)", "mcts(ipp)", Some(68.80), 1000, 1.0),
        row("mcts(ipp,im0.4)", "mcts(ipp)", Some(82.30), 1000, 1.0),
        row(
            "mcts(ipp,fet20,im0.4)",
            "mcts(ipp,fet20)",
            Some(87.20),
            1000,
            1.0,
        ),
        row("mcts(bl,im0.4)", "mcts(bl,cb0.4)", Some(67.80), 1000, 1.0),
        row("mcts(bl,im0.4)", "mcts(bl,pbim0.4)", Some(65.50), 1000, 1.0),
        row("mcts(bl,im0.6)", "mcts(bl)", Some(63.30), 1000, 1.0),
        row("mcts(bl,im0.6,np)", "mcts(bl)", Some(77.90), 1000, 1.0),
        row("mcts(efMS,bl)", "mcts(efLH,bl')", Some(40.20), 1000, 1.0),
        row("mcts(efMS,bl,np)", "mcts(efLH,bl')", Some(78.00), 1000, 1.0),
        row(
            "mcts(efMS,bl,np,im0.4)",
            "mcts(efLH,bl')",
            Some(84.90),
            1000,
            1.0,
        ),
        row(
            "mcts(efMS,bl,np,im0.4)",
            "mcts(efLH,bl',im0.6)",
            Some(53.40),
            2000,
            1.0,
        ),
    ]
}

fn fig2(_: Scale, _: u64) -> Vec<Row> {
    let mut rows = Vec::new();
    for a in ["0.2", "0.4", "0.6", "0.8"] {
        let paper = if a == "0.6" { Some(63.30) } else { None };
        rows.push(row(
            &format!("mcts(bl,im{a})"),
            "mcts(bl)",
            paper,
            1000,
            1.0,
        ));
    }
    for a in ["0.2", "0.4", "0.6", "0.8"] {
        rows.push(row(
            &format!("mcts(bl,im{a},np)"),
            "mcts(bl,np)",
            None,
            1000,
            1.0,
        ));
    }
    rows
}

fn fig3(_: Scale, _: u64) -> Vec<Row> {
    ["0.2", "0.4", "0.6", "0.8"]
        .iter()
        .map(|a| {
            row(
                &format!("mcts(efLH,bl',im{a})"),
                "mcts(efLH,bl')",
                None,
                1000,
                1.0,
            )
        })
        .collect()
}

/// Table 3's thresholds are for about 20k simulations per move (the authors' Java at 1 s);
/// at quick scale they shrink in proportion to the simulations per move.
fn table3(scale: Scale, sims: u64) -> Vec<Row> {
    let paper = [
        (100, 81.9),
        (500, 73.1),
        (1000, 69.1),
        (5000, 65.2),
        (10000, 63.6),
        (20000, 66.2),
        (30000, 67.0),
    ];
    paper
        .iter()
        .map(|&(t, p)| {
            let t = match scale {
                Scale::Paper => t,
                Scale::Quick => (t as u64 * sims / 20_000).max(1) as u32,
            };
            row(
                "mcts(bl,im0.4)",
                &format!("mcts(bl,mb{t})"),
                Some(p),
                1000,
                1.0,
            )
        })
        .collect()
}

fn table4(scale: Scale, _: u64) -> Vec<Row> {
    let all = vec![
        row("ab(efMS)", "ab(efLH)", Some(70.40), 2000, 1.0),
        row("ab(efMS)", "ab(efLH)", Some(53.40), 500, 5.0),
        row("ab(efMS)", "ab(efLH)", Some(31.25), 400, 10.0),
        row("mcts(bl)", "ab(efMS)", Some(27.55), 2000, 1.0),
        row("mcts(bl)", "ab(efMS)", Some(39.00), 1000, 5.0),
        row("mcts(bl)", "ab(efMS)", Some(47.60), 500, 10.0),
        row("mcts(bl,im0.4)", "ab(efMS)", Some(45.05), 2000, 1.0),
        row("mcts(bl,im0.4)", "ab(efMS)", Some(61.60), 1000, 5.0),
        row("mcts(bl,im0.4)", "ab(efMS)", Some(61.80), 500, 10.0),
        row("mcts(efLH,bl')", "ab(efLH)", Some(7.90), 2000, 1.0),
        row("mcts(efLH,bl')", "ab(efLH)", Some(10.80), 1000, 5.0),
        row("mcts(efLH,bl')", "ab(efLH)", Some(12.60), 500, 10.0),
        row("mcts(efLH,bl',im0.6)", "ab(efLH)", Some(28.95), 2000, 1.0),
        row("mcts(efLH,bl',im0.6)", "ab(efLH)", Some(39.30), 1000, 5.0),
        row("mcts(efLH,bl',im0.6)", "ab(efLH)", Some(41.20), 500, 10.0),
    ];
    match scale {
        Scale::Paper => all,
        // Quick: the one-second rows only, at a short time per move.
        Scale::Quick => all.into_iter().filter(|r| r.paper_secs == 1.0).collect(),
    }
}

/// Every preset.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "table2",
        game: "breakthrough",
        about: "Table 2: summary of Breakthrough results (efMS and efLH)",
        quick_games: 20,
        quick_sims: 1000,
        quick_ms: 50,
        rows: table2,
        openings: None,
    },
    Preset {
        name: "fig2",
        game: "breakthrough",
        about: "Figure 2: MCTS(bl,imα) vs MCTS(bl), without and with node priors",
        quick_games: 20,
        quick_sims: 1000,
        quick_ms: 50,
        rows: fig2,
        openings: None,
    },
    Preset {
        name: "fig3",
        game: "breakthrough",
        about: "Figure 3: MCTS(efLH,bl',imα) vs the alternative baseline MCTS(efLH,bl')",
        quick_games: 20,
        quick_sims: 1000,
        quick_ms: 50,
        rows: fig3,
        openings: None,
    },
    Preset {
        name: "table3",
        game: "breakthrough",
        about: "Table 3: MCTS(bl,im0.4) vs max-backprop MCTS(bl,mbT)",
        quick_games: 20,
        quick_sims: 1000,
        quick_ms: 50,
        rows: table3,
        openings: None,
    },
    Preset {
        name: "table4",
        game: "breakthrough",
        about: "Table 4: MCTS(imα) and MCTS against αβ (quick: the 1 s rows at 50 ms per move)",
        quick_games: 10,
        quick_sims: 1000,
        quick_ms: 50,
        rows: table4,
        openings: None,
    },
    Preset {
        name: "gomoku-dist",
        game: "gomoku",
        about: "Seed 003: Dist(1/2/3/∞) candidate restriction with best+quick win, depth 50",
        quick_games: 10,
        quick_sims: 2000,
        quick_ms: 200,
        rows: gomoku_dist,
        openings: None,
    },
    Preset {
        name: "gomoku-depth",
        game: "gomoku",
        about: "Seed 003: Depth(30/40/50) playout caps with best+quick win, Dist(1)",
        quick_games: 10,
        quick_sims: 2000,
        quick_ms: 200,
        rows: gomoku_depth,
        openings: None,
    },
    Preset {
        name: "kalah-fig1",
        game: "kalah",
        about: "Kalah: MCTS(fet4,imα) vs MCTS(fet4), paired random boards (paper: ~70% at α = 0.3)",
        quick_games: 40,
        quick_sims: 1000,
        quick_ms: 50,
        rows: kalah_fig1,
        openings: None,
    },
    Preset {
        name: "loa-fig4",
        game: "loa",
        about: "LOA Figure 4: MCTS(imα) vs MCTS with simple playouts, αβ playouts, and αβ playouts + PB",
        quick_games: 10,
        quick_sims: 300,
        quick_ms: 200,
        rows: lines_of_action_fig4,
        openings: Some(LINES_OF_ACTION_OPENINGS),
    },
    Preset {
        name: "loa-table5",
        game: "loa",
        about: "LOA Table 5: MCTS(im0.2) vs MCTS and against αβ (quick: αβ rows at 200 ms per move)",
        quick_games: 10,
        quick_sims: 300,
        quick_ms: 200,
        rows: lines_of_action_table5,
        openings: Some(LINES_OF_ACTION_OPENINGS),
    },
];

pub fn run(args: &ExperimentArgs) -> Result<(), String> {
    if args.name == "list" {
        for p in PRESETS {
            println!("{:<13} {:<13} {}", p.name, p.game, p.about);
        }
        println!(
            "{:<13} {:<13} Seed 003 Tables 1-3: each move's win rate, plain MCTS vs miniMax-MCTS \
             with depth rewards",
            "ttt-tables", "tictactoe"
        );
        return Ok(());
    }
    if args.games == Some(0) {
        return Err("--games must be at least 1".into());
    }
    if args.sims == Some(0) {
        return Err("--sims must be at least 1".into());
    }
    crate::match_cmd::check_threads(args.threads)?;
    if args.name == "ttt-tables" {
        if args.sims.is_some() || args.budget.is_some() {
            return Err(
                "--sims and --budget have no effect on ttt-tables: each table row fixes its \
                 iterations"
                    .into(),
            );
        }
        if args.shard != Shard::WHOLE || args.record.is_some() || args.plot.is_some() {
            return Err(
                "ttt-tables plays no games: --shard, --record and --plot do not apply".into(),
            );
        }
        return tic_tac_toe_tables(args);
    }
    let preset = PRESETS
        .iter()
        .find(|p| p.name == args.name)
        .ok_or_else(|| {
            let names: Vec<_> = PRESETS.iter().map(|p| p.name).collect();
            format!(
                "unknown experiment '{}'; presets: {}",
                args.name,
                names.join(", ")
            )
        })?;
    crate::with_game!(preset.game, G => run_preset::<G>(preset, args))
}

/// One row's result, as `experiment` prints it and as `imcts merge` rebuilds it from records.
#[derive(Clone, Debug)]
pub struct RowResult {
    /// Player A's spec.
    pub a: String,
    /// Player B's spec.
    pub b: String,
    /// Games played (counted and discarded).
    pub games: usize,
    /// The budget column ([`budgets_text`]).
    pub budget: String,
    /// The results, from A's side.
    pub tally: Tally,
    /// The paper's win rate of A in percent, if it gives one.
    pub paper: Option<f64>,
    /// Seconds per move in the paper.
    pub paper_secs: f64,
}

/// The budget column of a row: one budget, or A's and B's when they differ (`--budget paper`).
pub fn budgets_text(a: &Budget, b: &Budget) -> String {
    let (ta, tb) = (arena::budget_text(a), arena::budget_text(b));
    if ta == tb {
        return ta;
    }
    match (a.iterations, b.iterations) {
        (Some(x), Some(y)) if a.time_us.is_none() && b.time_us.is_none() && a.nodes.is_none() => {
            format!("{x}/{y} sims")
        }
        _ => format!("{ta} / {tb}"),
    }
}

/// The table's title and column heads (text output only).
pub fn print_header(about: &str, scale: Scale) {
    println!("{about} ({} scale)", scale.name());
    println!(
        "{:<26} {:<24} {:>6} {:>10} {:>19} {:>8}",
        "A", "B", "games", "budget", "ours A% [95% CI]", "paper"
    );
}

/// One row as a table line or as one JSON object.
pub fn print_row(experiment: &str, game: &str, r: &RowResult, shard: Shard, json: bool) {
    let t = &r.tally;
    let (lo, hi) = t.wilson95();
    if json {
        let mut obj = serde_json::json!({
            "experiment": experiment, "game": game, "a": r.a, "b": r.b, "games": r.games,
            "budget": r.budget, "a_wins": t.a_wins, "b_wins": t.b_wins, "draws": t.draws,
            "a_rate": t.a_rate(), "ci95": t.ci95(), "ci95_low": lo, "ci95_high": hi,
            "paper_rate": r.paper.map(|p| p / 100.0),
            "paper_secs": r.paper_secs,
        });
        if shard != Shard::WHOLE {
            obj["shard"] = shard.to_string().into();
        }
        println!("{obj}");
    } else {
        let paper = r.paper.map_or("—".to_string(), |p| format!("{p:.1}"));
        println!(
            "{:<26} {:<24} {:>6} {:>10} {:>5.1} [{:>5.1},{:>5.1}] {:>8}",
            r.a,
            r.b,
            r.games,
            r.budget,
            100.0 * t.a_rate(),
            100.0 * lo,
            100.0 * hi,
            paper
        );
    }
}

/// A row's games and budgets (A's, and B's when different), or why the row is not played.
fn row_budget<G: MatchGame>(
    preset: &Preset,
    args: &ExperimentArgs,
    r: &Row,
    sims: u64,
) -> Result<(usize, Budget, Option<Budget>), String> {
    let games = match args.scale {
        Scale::Paper => r.paper_games,
        Scale::Quick => preset.quick_games,
    };
    let games = args.games.unwrap_or(games);
    if args.budget == Some(BudgetChoice::Paper) {
        let a = crate::paper_budget::sims_per_move::<G>(&r.a, r.paper_secs)?;
        let b = crate::paper_budget::sims_per_move::<G>(&r.b, r.paper_secs)?;
        return Ok((games, Budget::iterations(a), Some(Budget::iterations(b))));
    }
    let budget = match args.scale {
        Scale::Paper => Budget::millis((r.paper_secs * 1000.0) as u64),
        Scale::Quick if r.alphabeta => Budget::millis(preset.quick_ms),
        Scale::Quick => Budget::iterations(sims),
    };
    Ok((games, budget, None))
}

fn run_preset<G: MatchGame>(preset: &Preset, args: &ExperimentArgs) -> Result<(), String> {
    let sims = args.sims.unwrap_or(preset.quick_sims);
    let rows = (preset.rows)(args.scale, sims);
    if args.sims.is_some() && (args.scale == Scale::Paper || rows.iter().all(|r| r.alphabeta)) {
        return Err(format!(
            "--sims has no effect on {}: {}",
            preset.name,
            if args.scale == Scale::Paper {
                "the paper scale uses the paper's time per move"
            } else {
                "every row plays αβ, which quick scale runs on a time budget"
            }
        ));
    }
    // Every row's budget first: with --budget paper, rows whose players have no measured Java
    // rate are skipped (said on stderr), and a preset with no row left is an error.
    let mut plan = Vec::new();
    let mut skipped = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        match row_budget::<G>(preset, args, r, sims) {
            Ok(b) => plan.push((i, b)),
            Err(why) => skipped.push(format!("skipped: {} vs {}: {why}", r.a, r.b)),
        }
    }
    if plan.is_empty() {
        return Err(format!(
            "--budget paper: no row of {} has Java rates for both players\n{}",
            preset.name,
            skipped.join("\n")
        ));
    }
    for line in skipped {
        eprintln!("{line}");
    }
    if let Some(path) = &args.plot {
        crate::plot::check_sweep(preset.name, rows.iter().map(|r| r.a.as_str()))?;
        crate::plot::check_path(path)?;
    }
    // Open the record before the first game, so a bad path fails at once.
    let mut record = match &args.record {
        Some(p) => Some(crate::match_cmd::RecordFile::create(p)?),
        None => None,
    };
    arena::stop_on_signals()?;
    if !args.json {
        print_header(preset.about, args.scale);
    }
    let played: Vec<usize> = plan.iter().map(|(i, _)| *i).collect();
    let mut results = Vec::new();
    for (i, (games, budget, b_budget)) in plan {
        let r = &rows[i];
        let spec = MatchSpec {
            a: r.a.clone(),
            b: r.b.clone(),
            games,
            budget,
            b_budget,
            threads: args.threads,
            search_threads: [1, 1],
            parallel: [crate::search::Parallel::Tree; 2],
            seed: args.seed,
            openings: preset
                .openings
                .map(|text| {
                    crate::match_cmd::opening_lines(text)
                        .map(|(_, l)| l.to_string())
                        .collect()
                })
                .unwrap_or_default(),
            shard: args.shard,
        };
        if let Some(f) = &mut record {
            // What `imcts merge` needs to rebuild this row of this experiment.
            let serde_json::Value::Object(context) = serde_json::json!({
                "experiment": preset.name, "scale": args.scale.name(), "row": i,
                "rows": played, "paper_rate": r.paper, "paper_secs": r.paper_secs,
            }) else {
                unreachable!("a JSON object literal")
            };
            f.set_context(context);
        }
        let pb = progress_bar(
            args.shard.games_of(games, spec.paired::<G>()),
            &format!("{} vs {}", r.a, r.b),
            args.quiet,
        );
        let m = arena::run_match_with::<G>(
            &spec,
            Vec::new(),
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
        let result = RowResult {
            a: r.a.clone(),
            b: r.b.clone(),
            games: m.records.len(),
            budget: budgets_text(&spec.budget, &spec.budget_b()),
            tally: m.tally,
            paper: r.paper,
            paper_secs: r.paper_secs,
        };
        print_row(preset.name, G::NAME, &result, args.shard, args.json);
        results.push(result);
        if m.interrupted {
            // Ctrl-C: the row above counts the finished games only; later rows are not played.
            eprintln!(
                "interrupted: {} of {} games of this row finished",
                m.records.len(),
                args.shard.games_of(games, spec.paired::<G>())
            );
            std::process::exit(130);
        }
    }
    if args.shard != Shard::WHOLE && !args.json {
        println!(
            "shard {} of every row: `imcts merge` on every shard's --record prints the whole table",
            args.shard
        );
    }
    if let Some(path) = &args.plot {
        crate::plot::sweep(path, preset, &results)?;
    }
    Ok(())
}

/// Seed 003's Tables 1–3: for each Fig. 5 position, player and budget, every move's win rate for
/// the side to move, `(mean + 1)/2`, averaged over many seeded searches. The paper's numbers that
/// survive in its text are printed beside ours.
fn tic_tac_toe_tables(args: &ExperimentArgs) -> Result<(), String> {
    use crate::bbq_experiments::{Fig5, MoveRate, TIC_TAC_TOE_TABLES, root_win_rates};
    use imcts::games::tictactoe::{FIG5A, FIG5B, TicTacToe};
    use imcts::search::node::Node;
    let runs = match args.scale {
        Scale::Quick => args.games.unwrap_or(200),
        Scale::Paper => args.games.unwrap_or(1000),
    };
    let runs = u32::try_from(runs).map_err(|_| "--games: at most 4294967295 runs".to_string())?;
    let paper = |table: u8, spec: &str| -> &'static str {
        match (table, spec.contains("best")) {
            (1, false) => "paper: B2 0.2, C2 0.2 (cannot tell them apart)",
            (1, true) => "paper: B2 0, C2 0.15",
            (2, _) => "paper: all five 0.5-1, order not right",
            (3, _) => "paper: with 5 playouts B2 ~0.5, C2 ~1; A1 at 20x1 is 0.1",
            _ => "",
        }
    };
    let mut nodes = vec![Node::EMPTY; 20_000];
    for row in TIC_TAC_TOE_TABLES {
        let cfg = imcts::search::spec::parse_mcts::<TicTacToe>(row.spec)
            .map_err(|e| format!("bad spec {e}"))?;
        let pos = match row.fig {
            Fig5::A => FIG5A,
            Fig5::B => FIG5B,
        };
        let mv0 = imcts::games::tictactoe::Move(0);
        let mut out = [MoveRate {
            mv: mv0,
            win_rate: 0.0,
            visit_share: 0.0,
            runs_visited: 0,
        }; 9];
        let n = root_win_rates(&pos, cfg, row.iterations, runs, &mut nodes, &mut out);
        let cells: Vec<String> = out[..n]
            .iter()
            .map(|r| {
                format!(
                    "{} {:.2}",
                    crate::games::move_string(&pos, r.mv),
                    r.win_rate
                )
            })
            .collect();
        if args.json {
            let obj = serde_json::json!({
                "experiment": "ttt-tables", "table": row.table, "spec": row.spec,
                "iterations": row.iterations, "runs": runs,
                "rates": out[..n].iter().map(|r| serde_json::json!({
                    "move": crate::games::move_string(&pos, r.mv), "win_rate": r.win_rate,
                    "visit_share": r.visit_share })).collect::<Vec<_>>(),
            });
            println!("{obj}");
        } else {
            println!(
                "Table {} {:<40} {:>4} it: {}   [{}]",
                row.table,
                row.spec,
                row.iterations,
                cells.join("  "),
                paper(row.table, row.spec)
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use imcts::games::breakthrough::Breakthrough;

    fn args(name: &str, scale: Scale) -> ExperimentArgs {
        ExperimentArgs {
            name: name.into(),
            scale,
            games: None,
            sims: None,
            budget: Some(BudgetChoice::Paper),
            threads: 1,
            seed: 1,
            json: false,
            shard: Shard::WHOLE,
            plot: None,
            record: None,
            quiet: true,
        }
    }

    #[test]
    fn the_paper_budget_gives_each_player_its_java_rate() {
        let preset = PRESETS.iter().find(|p| p.name == "fig2").unwrap();
        let rows = (preset.rows)(Scale::Quick, preset.quick_sims);
        assert_eq!(rows[0].a, "mcts(bl,im0.2)");
        // A: bl with im, (6,400 + 29,800) / 2; B: bl, (6,600 + 31,400) / 2 (issue 12's table).
        let (games, a, b) =
            row_budget::<Breakthrough>(preset, &args("fig2", Scale::Quick), &rows[0], 1000)
                .unwrap();
        assert_eq!(games, preset.quick_games);
        assert_eq!((a.iterations, a.time_us), (Some(18_100), None));
        assert_eq!(b.map(|b| b.iterations), Some(Some(19_000)));
        assert_eq!(
            budgets_text(&a, &b.unwrap()),
            "18100/19000 sims",
            "the budget column"
        );
        // The paper scale keeps the paper's game count.
        let (games, _, _) =
            row_budget::<Breakthrough>(preset, &args("fig2", Scale::Paper), &rows[0], 1000)
                .unwrap();
        assert_eq!(games, 1000);
        // Node priors with bl: issue 17's ratio rows, A (6,500 + 34,500) / 2, B (6,600 +
        // 35,200) / 2.
        assert_eq!(rows[4].b, "mcts(bl,np)");
        let (_, a, b) =
            row_budget::<Breakthrough>(preset, &args("fig2", Scale::Quick), &rows[4], 1000)
                .unwrap();
        assert_eq!(budgets_text(&a, &b.unwrap()), "20500/20900 sims");
        // fet20 with ipp was never measured in Java: Table 2 row 4 has no equivalent budget.
        let t2 = PRESETS.iter().find(|p| p.name == "table2").unwrap();
        let rows = (t2.rows)(Scale::Quick, t2.quick_sims);
        assert_eq!(rows[3].a, "mcts(ipp,fet20,im0.4)");
        assert!(
            row_budget::<Breakthrough>(t2, &args("table2", Scale::Quick), &rows[3], 1000).is_err()
        );
    }
}
