//! Playouts per second for every game and playout policy: uniformly random, the game's informed
//! policy (Breakthrough `ipp`, LOA move categories), ε-greedy (`ege0.1`), fixed early
//! termination (`fet20`) and dynamic early termination (`det0.5`); for Lines of Action also αβ
//! playouts (`abp`, MC-LOA's selective 2-ply search) alone and with `det0.7`.
//!
//! Each iteration runs [`PLAYOUTS`] playouts from the same position on fresh copies and asserts
//! that all of them ran and returned a reward in `[-1, 1]`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use imcts::Game;
use imcts::games::breakthrough::Breakthrough;
use imcts::games::gomoku::Gomoku;
use imcts::games::kalah::Kalah;
use imcts::games::lines_of_action::LinesOfAction;
use imcts::games::tictactoe::TicTacToe;
use imcts::rng::seeded;
use imcts::search::{playout, spec};
use std::hint::black_box;
use std::time::Duration;

/// Playouts per timed iteration.
const PLAYOUTS: u64 = 100;

/// The policies, as player specs; `ipp` is skipped for games without an informed policy.
const POLICIES: &[(&str, &str)] = &[
    ("random", "mcts"),
    ("informed", "mcts(ipp)"),
    ("ege0.1", "mcts(ege0.1)"),
    ("fet20", "mcts(fet20)"),
    ("det0.5", "mcts(det0.5)"),
];

/// Lines of Action's αβ-playout rows.
const LINES_OF_ACTION_ALPHA_BETA: &[(&str, &str)] =
    &[("abp", "mcts(abp)"), ("abp,det0.7", "mcts(abp,det0.7)")];

fn playouts<G: Game>(c: &mut Criterion, pos: &G) {
    playouts_of(c, pos, POLICIES);
}

fn playouts_of<G: Game>(c: &mut Criterion, pos: &G, policies: &[(&str, &str)]) {
    let mut g = c.benchmark_group(format!("{}_playout", G::NAME));
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(PLAYOUTS));
    for &(name, player) in policies {
        let Ok(cfg) = spec::parse_mcts::<G>(player) else {
            assert!(!G::HAS_INFORMED_PLAYOUTS && name == "informed", "{player}");
            continue;
        };
        let mut rng = seeded(7);
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut done = 0u64;
                let mut plies = 0u64;
                for _ in 0..PLAYOUTS {
                    let mut game = pos.clone();
                    let (reward, n) = playout::run(black_box(&mut game), &cfg, &mut rng);
                    assert!((-1.0..=1.0).contains(&reward));
                    plies += n as u64;
                    done += 1;
                }
                assert_eq!(done, PLAYOUTS);
                plies
            })
        });
    }
    g.finish();
}

fn all_games(c: &mut Criterion) {
    playouts(c, &Breakthrough::start());
    playouts(c, &LinesOfAction::start());
    playouts_of(c, &LinesOfAction::start(), LINES_OF_ACTION_ALPHA_BETA);
    playouts(c, &Kalah::start());
    playouts(c, &TicTacToe::start());
    playouts(c, &Gomoku::start());
}

criterion_group!(benches, all_games);
criterion_main!(benches);
