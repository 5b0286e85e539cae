//! MCTS simulations per second for the main configurations of every game, from the start and a
//! middle game. Each iteration runs a fresh search (fresh tree, a new seed: repeating one
//! identical search lets branch predictors learn it and flatters the figure) and asserts it ran
//! the whole simulation budget.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use imcts::Game;
use imcts::games::breakthrough::Breakthrough;
use imcts::games::gomoku::Gomoku;
use imcts::games::kalah::Kalah;
use imcts::games::lines_of_action::LinesOfAction;
use imcts::games::tictactoe::TicTacToe;
use imcts::search::mcts::Mcts;
use imcts::search::node::Node;
use imcts::search::{Budget, NoClock, spec};
use std::time::Duration;

const BREAKTHROUGH_MIDDLE: &str = "pppppppp/1ppp1ppp/4p3/p7/2P1P3/1P6/P2P1PPP/PPPPPPP1 w";
const LINES_OF_ACTION_MIDDLE: &str = "1XXX1XX1/O6O/O1X1O3/O6O/O1O4O/O2X3O/7O/1XX1XXX1 b";
const KALAH_MIDDLE: &str = "0,6,6,1,6,0/1,6,6,5,0,7/3-1 s";

/// The middle position of issue 12's table (the paper-comparison rows of `docs/performance.md`).
const BT_PAPER_MIDDLE: &str = "8/1pp3p1/pppp1ppp/1p1p1p1p/1P1P1P1P/PPPP1PPP/P3P2P/8 w";

/// Benches `players` from each of `positions` (`None`: the initial position) with `sims`
/// simulations per search. The group is `<game>_mcts`, as `breakthrough_mcts` always was.
fn bench_game<G: Game>(
    c: &mut Criterion,
    nodes: &mut [Node],
    sims: u64,
    positions: &[(&str, Option<&str>)],
    players: &[&str],
) {
    bench_in_group::<G>(
        c,
        &format!("{}_mcts", G::NAME),
        nodes,
        sims,
        positions,
        players,
    );
}

/// [`bench_game`] in the group `group`, each benchmark named `<game>/<player>/<position>`
/// when the group is not the game's own.
fn bench_in_group<G: Game>(
    c: &mut Criterion,
    group: &str,
    nodes: &mut [Node],
    sims: u64,
    positions: &[(&str, Option<&str>)],
    players: &[&str],
) {
    let prefix = if group == format!("{}_mcts", G::NAME) {
        String::new()
    } else {
        format!("{}/", G::NAME)
    };
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(sims));
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for &(name, position) in positions {
        let pos = match position {
            None => G::new(),
            Some(p) => G::parse_position(p).expect("valid position"),
        };
        for &player in players {
            let cfg = spec::parse_mcts::<G>(player).expect("valid spec");
            let mut seed = 0u64;
            g.bench_function(format!("{prefix}{player}/{name}"), |b| {
                b.iter(|| {
                    seed += 1;
                    let c = cfg.with_seed(seed);
                    let mut game = pos.clone();
                    let mut mcts = Mcts::new(nodes, c);
                    let r = mcts.search(&mut game, Budget::iterations(sims), &mut NoClock);
                    assert_eq!(r.simulations, sims, "{player}/{name}");
                    r.best
                })
            });
        }
    }
    g.finish();
}

fn all_games(c: &mut Criterion) {
    let mut nodes = vec![Node::EMPTY; 1 << 20];
    bench_game::<Breakthrough>(
        c,
        &mut nodes,
        20_000,
        &[("start", None), ("middle", Some(BREAKTHROUGH_MIDDLE))],
        &["mcts", "mcts(ipp)", "mcts(bl,im0.4)", "mcts(bl',im0.4)"],
    );
    bench_game::<LinesOfAction>(
        c,
        &mut nodes,
        3_000,
        &[("start", None), ("middle", Some(LINES_OF_ACTION_MIDDLE))],
        &[
            "mcts",
            "mcts(ipp)",
            "mcts(ipp,im0.2,pb)",
            "mcts(ipp,one,fet20,im0.2)",
            "mcts(one,det0.7,ipp)",
        ],
    );
    // αβ playouts (MC-LOA's selective 2-ply search): fewer simulations per search.
    bench_game::<LinesOfAction>(
        c,
        &mut nodes,
        300,
        &[("start", None), ("middle", Some(LINES_OF_ACTION_MIDDLE))],
        &["mcts(one,det0.7,abp)", "mcts(abp,fet4,im0.4)"],
    );
    bench_game::<Kalah>(
        c,
        &mut nodes,
        20_000,
        &[("start", None), ("middle", Some(KALAH_MIDDLE))],
        &["mcts", "mcts(im0.3)"],
    );
    bench_game::<TicTacToe>(
        c,
        &mut nodes,
        10_000,
        &[("start", None)],
        &["mcts", "mcts(im0.5)"],
    );
    bench_game::<Gomoku>(
        c,
        &mut nodes,
        2_000,
        &[("start", None)],
        &["mcts", "mcts(im0.4)"],
    );
}

/// Issue 12's table, row by row (`docs/performance.md`, "The papers' configurations"): the
/// paper's Breakthrough configurations from the start and the middle game, and Kalah's
/// `fet4` rows, 20,000 simulations a search (5,000 for the slow `bl` rows).
fn paper_table(c: &mut Criterion) {
    let mut nodes = vec![Node::EMPTY; 1 << 20];
    let bt = [("start", None), ("middle", Some(BT_PAPER_MIDDLE))];
    let group = "paper_table";
    bench_in_group::<Breakthrough>(
        c,
        group,
        &mut nodes,
        20_000,
        &bt,
        &[
            "mcts",
            "mcts(ipp)",
            "mcts(efLH,bl')",
            "mcts(efLH,bl',im0.6)",
        ],
    );
    bench_in_group::<Breakthrough>(
        c,
        group,
        &mut nodes,
        5_000,
        &bt,
        &["mcts(bl)", "mcts(bl,im0.4)"],
    );
    bench_in_group::<Kalah>(
        c,
        group,
        &mut nodes,
        20_000,
        &[("start", None)],
        &["mcts(fet4)", "mcts(fet4,im0.3)"],
    );
}

criterion_group!(benches, all_games, paper_table);
criterion_main!(benches);
