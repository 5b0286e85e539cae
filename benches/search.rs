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

/// Benches `players` from each of `positions` (`None`: the initial position) with `sims`
/// simulations per search. The group is `<game>_mcts`, as `breakthrough_mcts` always was.
fn bench_game<G: Game>(
    c: &mut Criterion,
    nodes: &mut [Node],
    sims: u64,
    positions: &[(&str, Option<&str>)],
    players: &[&str],
) {
    let mut g = c.benchmark_group(format!("{}_mcts", G::NAME));
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
            g.bench_function(format!("{player}/{name}"), |b| {
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

criterion_group!(benches, all_games);
criterion_main!(benches);
