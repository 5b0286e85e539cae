//! Move generation speed: bulk-counted perft and make/undo, per game.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use imcts::games::breakthrough::{Breakthrough, MoveList};
use imcts::games::gomoku::Gomoku;
use imcts::games::kalah::Kalah;
use imcts::games::lines_of_action::{
    LinesOfAction, LinesOfActionEval, MoveList as LinesOfActionMoveList,
};
use imcts::games::tictactoe::TicTacToe;
use imcts::{Game, MoveBuffer, Player, perft};
use std::hint::black_box;

/// make + undo of every legal move of `pos`, asserting the position is restored.
fn make_undo_all<G: Game>(c: &mut Criterion, pos: &G) {
    let mut g = c.benchmark_group(G::NAME);
    let mut list = G::MoveList::default();
    pos.legal_moves(&mut list);
    let moves = list.moves().to_vec();
    assert!(!moves.is_empty());
    g.throughput(Throughput::Elements(moves.len() as u64));
    g.bench_function("make_undo_all_moves", |b| {
        let mut p = pos.clone();
        b.iter(|| {
            for &mv in &moves {
                let u = p.make(black_box(mv));
                p.undo(mv, u);
            }
            assert!(p == *pos);
        })
    });
    g.finish();
}

/// make/undo for the games without their own: a Kalah middle game, Tic-Tac-Toe after two
/// moves, and the late Gomoku position of `perft3_endgame`.
fn small_games_make_undo(c: &mut Criterion) {
    let kalah = Kalah::parse_position("0,6,6,1,6,0/1,6,6,5,0,7/3-1 s").expect("valid position");
    make_undo_all(c, &kalah);
    let tic_tac_toe = TicTacToe::parse_position("X../.O./... x").expect("valid position");
    make_undo_all(c, &tic_tac_toe);
    let text = "O3XXXX2O2OX/2OX3OX1XX3/1O4XX2OO1X1/15/1X4OO1OO1OO1/O2XX1O3X4/2X1O2O6X/X4O1XXX3OX/1OO2X1O2O1X2/2XXO1XO3OXX1/X3X1O4O1X1/XO1O2XX4XO1/OO2O1O3OO1X1/O2O1OOXXO3X1/4XX3XX2OO b";
    make_undo_all(c, &Gomoku::parse_position(text).expect("valid position"));
}

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

fn small_games_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("kalah");
    // perft 9 from the start: 2,763,490 leaves (see data/perft/kalah.txt).
    let leaves = 2_763_490;
    g.throughput(Throughput::Elements(leaves));
    g.sample_size(10);
    g.bench_function("perft9_bulk", |b| {
        let mut pos = Kalah::start();
        b.iter(|| {
            let n = perft(black_box(&mut pos), 9);
            assert_eq!(n, leaves);
            n
        })
    });
    g.finish();

    let mut g = c.benchmark_group("tictactoe");
    // perft 9 from the empty board: 127,872 leaves (see data/perft/tictactoe.txt).
    let leaves = 127_872;
    g.throughput(Throughput::Elements(leaves));
    g.bench_function("perft9_bulk", |b| {
        let mut pos = TicTacToe::start();
        b.iter(|| {
            let n = perft(black_box(&mut pos), 9);
            assert_eq!(n, leaves);
            n
        })
    });
    g.finish();

    let mut g = c.benchmark_group("gomoku");
    // perft 4 from the empty board: 104·224·223·222 = 1,153,291,776 leaves, counted in bulk
    // (see data/perft/gomoku.txt).
    let leaves = 1_153_291_776;
    g.throughput(Throughput::Elements(leaves));
    g.sample_size(10);
    g.bench_function("perft4_bulk", |b| {
        let mut pos = Gomoku::start();
        b.iter(|| {
            let n = perft(black_box(&mut pos), 4);
            assert_eq!(n, leaves);
            n
        })
    });
    // A position near the end of a random game, where wins fall inside the horizon.
    let text = "O3XXXX2O2OX/2OX3OX1XX3/1O4XX2OO1X1/15/1X4OO1OO1OO1/O2XX1O3X4/2X1O2O6X/X4O1XXX3OX/1OO2X1O2O1X2/2XXO1XO3OXX1/X3X1O4O1X1/XO1O2XX4XO1/OO2O1O3OO1X1/O2O1OOXXO3X1/4XX3XX2OO b";
    let endgame = Gomoku::parse_position(text).expect("valid position");
    let leaves = 2_317_658;
    g.throughput(Throughput::Elements(leaves));
    g.bench_function("perft3_endgame", |b| {
        let mut pos = endgame;
        b.iter(|| {
            let n = perft(black_box(&mut pos), 3);
            assert_eq!(n, leaves);
            n
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
    let mut list = LinesOfActionMoveList::new();
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
        b.iter(|| black_box(&pos).evaluate(LinesOfActionEval::Mia, Player::First))
    });
    g.finish();
}

criterion_group!(
    benches,
    breakthrough_perft,
    small_games_perft,
    small_games_make_undo,
    lines_of_action_perft
);
criterion_main!(benches);
