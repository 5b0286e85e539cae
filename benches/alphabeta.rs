//! αβ search speed: nodes per second with a fixed node budget, from the start and from a
//! middle-game position, without and with a transposition table.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use imcts::Game;
use imcts::games::breakthrough::{Breakthrough, BtEval};
use imcts::search::alphabeta::{AlphaBetaConfig, TranspositionTable, TtEntry, search};
use imcts::search::{Budget, NoClock, StopReason};
use std::hint::black_box;

/// Nodes per search. The budget always runs out mid-iteration here, so the node count is exact.
const NODES: u64 = 200_000;

fn bench_position(c: &mut Criterion, name: &str, pos: &Breakthrough) {
    let mut g = c.benchmark_group("alphabeta");
    g.throughput(Throughput::Elements(NODES));
    g.sample_size(20);
    let config = AlphaBetaConfig::<Breakthrough>::new(BtEval::Schadd);
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

criterion_group!(benches, alphabeta);
criterion_main!(benches);
