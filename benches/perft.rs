//! Move generation speed: bulk-counted perft and make/undo, per game.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use imcts::games::breakthrough::{Breakthrough, MoveList};
use imcts::games::lines_of_action::{LinesOfAction, LoaEval, MoveList as LoaMoveList};
use imcts::{Game, Player, perft};
use std::hint::black_box;

fn breakthrough_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("breakthrough");
    // perft 5 from the start: 6,182,818 leaves (see data/perft/breakthrough.txt).
    let leaves = 6_182_818;
    g.throughput(Throughput::Elements(leaves));
    g.sample_size(10);
    g.bench_function("perft5_bulk", |b| {
        let mut pos = Breakthrough::start();
        b.iter(|| {
            let n = perft(black_box(&mut pos), 5);
            assert_eq!(n, leaves);
            n
        })
    });
    g.finish();

    let mut g = c.benchmark_group("breakthrough");
    // make + undo of every legal move of a middle-game position.
    let pos = Breakthrough::parse_position("pppppppp/1ppp1ppp/4p3/p7/2P1P3/1P6/P2P1PPP/PPPPPPP1 w")
        .expect("valid position");
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    g.throughput(Throughput::Elements(list.len() as u64));
    g.bench_function("make_undo_all_moves", |b| {
        let mut p = pos.clone();
        b.iter(|| {
            for &mv in &list {
                let u = p.make(black_box(mv));
                p.undo(mv, u);
            }
            assert_eq!(p, pos);
        })
    });
    g.finish();
}

fn lines_of_action_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("loa");
    // perft 4 from the start: 1,563,208 leaves (see data/perft/loa.txt).
    let leaves = 1_563_208;
    g.throughput(Throughput::Elements(leaves));
    g.sample_size(10);
    g.bench_function("perft4_bulk", |b| {
        let mut pos = LinesOfAction::start();
        b.iter(|| {
            let n = perft(black_box(&mut pos), 4);
            assert_eq!(n, leaves);
            n
        })
    });

    // make + undo of every legal move of a middle game from random play (also in
    // data/perft/loa.txt).
    let pos = LinesOfAction::parse_position("1XXX1XX1/O6O/O1X1O3/O6O/O1O4O/O2X3O/7O/1XX1XXX1 b")
        .expect("valid position");
    let mut list = LoaMoveList::new();
    pos.legal_moves(&mut list);
    g.throughput(Throughput::Elements(list.len() as u64));
    g.bench_function("make_undo_all_moves", |b| {
        let mut p = pos.clone();
        b.iter(|| {
            for &mv in &list {
                let u = p.make(black_box(mv));
                p.undo(mv, u);
            }
            assert_eq!(p, pos);
        })
    });

    // The evaluation of that position (called at every tree node).
    g.throughput(Throughput::Elements(1));
    g.bench_function("evaluate", |b| {
        b.iter(|| black_box(&pos).evaluate(LoaEval::Mia, Player::First))
    });
    g.finish();
}

criterion_group!(benches, breakthrough_perft, lines_of_action_perft);
criterion_main!(benches);
