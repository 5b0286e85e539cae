//! αβ search speed: nodes per second with a fixed node budget, from the start and from a
//! middle-game position, without and with a transposition table (Breakthrough), and for every
//! game from its start.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use imcts::Game;
use imcts::games::breakthrough::{Breakthrough, BreakthroughEval};
use imcts::games::gomoku::Gomoku;
use imcts::games::kalah::Kalah;
use imcts::games::lines_of_action::LinesOfAction;
use imcts::games::tictactoe::TicTacToe;
use imcts::search::alphabeta::{AlphaBetaConfig, TranspositionTable, TtEntry, search};
use imcts::search::{Budget, NoClock, StopReason};
use std::hint::black_box;
use std::time::Duration;

/// Nodes per search. The budget always runs out mid-iteration here, so the node count is exact.
const NODES: u64 = 200_000;

fn bench_position(c: &mut Criterion, name: &str, pos: &Breakthrough) {
    let mut g = c.benchmark_group("alphabeta");
    g.throughput(Throughput::Elements(NODES));
    g.sample_size(10);
    let config = AlphaBetaConfig::<Breakthrough>::new(BreakthroughEval::Schadd)
        .validate()
        .expect("the defaults are valid");
    g.bench_function(format!("{name}_nodes200k"), |b| {
        let mut p = pos.clone();
        b.iter(|| {
            let r = search(
                black_box(&mut p),
                &config,
                Budget::iterations(NODES),
                None,
                &mut NoClock,
            );
            assert_eq!(r.nodes, NODES);
            assert_eq!(r.stop, StopReason::Iterations);
            r.best_move
        })
    });
    let mut entries = vec![TtEntry::EMPTY; 1 << 16];
    g.bench_function(format!("{name}_nodes200k_tt64k"), |b| {
        let mut p = pos.clone();
        b.iter(|| {
            let mut tt = TranspositionTable::new(&mut entries);
            tt.clear();
            let r = search(
                black_box(&mut p),
                &config,
                Budget::iterations(NODES),
                Some(&mut tt),
                &mut NoClock,
            );
            assert_eq!(r.nodes, NODES);
            assert_eq!(r.stop, StopReason::Iterations);
            r.best_move
        })
    });
    g.finish();
}

fn alphabeta(c: &mut Criterion) {
    bench_position(c, "start", &Breakthrough::start());
    let middle =
        Breakthrough::parse_position("pppppppp/1ppp1ppp/4p3/p7/2P1P3/1P6/P2P1PPP/PPPPPPP1 w")
            .expect("valid position");
    bench_position(c, "middle", &middle);
}

/// Nodes per second from the initial position of `G` with the default configuration and a
/// 64 Ki-entry table, within `budget` nodes. A search may stop early (Tic-Tac-Toe resolves the
/// whole game), so the node count of a first search is the work each timed search must repeat.
fn per_game<G: Game>(c: &mut Criterion, budget: u64) {
    let config = AlphaBetaConfig::<G>::default()
        .validate()
        .expect("the defaults are valid");
    let mut entries = vec![TtEntry::EMPTY; 1 << 16];
    let run = |entries: &mut [TtEntry]| {
        let mut tt = TranspositionTable::new(entries);
        tt.clear();
        let mut p = G::new();
        search(
            black_box(&mut p),
            &config,
            Budget::iterations(budget),
            Some(&mut tt),
            &mut NoClock,
        )
    };
    let expected = run(&mut entries).nodes;
    let mut g = c.benchmark_group(format!("{}_alphabeta", G::NAME));
    g.throughput(Throughput::Elements(expected));
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    g.bench_function(format!("start_tt64k_max{budget}"), |b| {
        b.iter(|| {
            let r = run(&mut entries);
            assert_eq!(r.nodes, expected);
            r.best_move
        })
    });
    g.finish();
}

fn all_games(c: &mut Criterion) {
    per_game::<Breakthrough>(c, 200_000);
    per_game::<LinesOfAction>(c, 50_000);
    per_game::<Kalah>(c, 200_000);
    per_game::<TicTacToe>(c, 200_000);
    per_game::<Gomoku>(c, 20_000);
}

criterion_group!(benches, alphabeta, all_games);
criterion_main!(benches);
