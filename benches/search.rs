//! MCTS simulations per second for the main configurations, from the start and a middle game.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use imcts::Game;
use imcts::games::breakthrough::Breakthrough;
use imcts::search::mcts::Mcts;
use imcts::search::node::Node;
use imcts::search::{Budget, NoClock, spec};

const SIMS: u64 = 20_000;
const MIDDLE: &str = "pppppppp/1ppp1ppp/4p3/p7/2P1P3/1P6/P2P1PPP/PPPPPPP1 w";

fn breakthrough_mcts(c: &mut Criterion) {
    let mut nodes = vec![Node::EMPTY; 1 << 20];
    let mut g = c.benchmark_group("breakthrough_mcts");
    g.throughput(Throughput::Elements(SIMS));
    g.sample_size(10);
    for (name, position) in [("start", None), ("middle", Some(MIDDLE))] {
        let pos = match position {
            None => Breakthrough::new(),
            Some(p) => Breakthrough::parse_position(p).expect("valid position"),
        };
        for player in ["mcts", "mcts(ipp)", "mcts(bl,im0.4)"] {
            let cfg = spec::parse_mcts::<Breakthrough>(player).expect("valid spec");
            g.bench_function(format!("{player}/{name}"), |b| {
                b.iter(|| {
                    let mut game = pos.clone();
                    let mut mcts = Mcts::new(&mut nodes, cfg);
                    let r = mcts.search(&mut game, Budget::iterations(SIMS), &mut NoClock);
                    assert_eq!(r.simulations, SIMS);
                    r.best
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, breakthrough_mcts);
criterion_main!(benches);
