//! The cost of crossing the C ABI: the same work through `imcts_*` calls and through the
//! kernel directly, in one run, so the difference is the boundary (pointer checks, string
//! parsing and formatting, `catch_unwind`).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use imcts::games::breakthrough::{Breakthrough, MoveList};
use imcts::search::mcts::Mcts;
use imcts::search::node::Node;
use imcts::search::{Budget, NoClock, spec};
use imcts::{Game, MoveBuffer};
use imcts_ffi::*;
use std::ffi::c_char;
use std::hint::black_box;

const NODES: usize = 4096;
/// Simulations per benchmarked search.
const SIMS: u64 = 100;

/// An engine over 16-byte-aligned memory that lives as long as the returned buffer.
fn engine() -> (Vec<u128>, *mut imcts_engine) {
    let mut size = 0usize;
    // SAFETY: valid out-pointer.
    assert_eq!(
        unsafe { imcts_engine_size(IMCTS_GAME_BREAKTHROUGH, NODES, &mut size) },
        imcts_status::Ok
    );
    let mut mem = vec![0u128; size / 16 + 1];
    let mut e = std::ptr::null_mut();
    // SAFETY: aligned memory of at least `size` bytes, valid out-pointer.
    let st = unsafe {
        imcts_engine_init(
            mem.as_mut_ptr().cast(),
            size,
            IMCTS_GAME_BREAKTHROUGH,
            NODES,
            &mut e,
        )
    };
    assert_eq!(st, imcts_status::Ok);
    (mem, e)
}

fn abi_calls(c: &mut Criterion) {
    let mut g = c.benchmark_group("abi");
    g.throughput(Throughput::Elements(1));
    let (_mem, e) = engine();

    // A play + undo pair of a move given as text, against make + undo in the kernel.
    g.bench_function("play_undo_text", |b| {
        b.iter(|| {
            // SAFETY: live engine; the move text is valid for its length.
            unsafe {
                assert_eq!(imcts_engine_play(e, c"e2-e3".as_ptr(), 5), imcts_status::Ok);
                assert_eq!(imcts_engine_undo(e), imcts_status::Ok);
            }
        })
    });
    g.bench_function("kernel_parse_make_undo", |b| {
        let mut pos = Breakthrough::new();
        b.iter(|| {
            let mv = pos.parse_move(black_box("e2-e3")).unwrap();
            let u = pos.make(mv);
            pos.undo(mv, u);
        })
    });

    // The legal-move list as text, against generating the list in the kernel.
    let mut buf = vec![0 as c_char; 1024];
    g.bench_function("legal_moves_text", |b| {
        b.iter(|| {
            let (mut len, mut count) = (0usize, 0usize);
            // SAFETY: live engine, buffer valid for its length.
            let st = unsafe {
                imcts_engine_legal_moves(e, buf.as_mut_ptr(), buf.len(), &mut len, &mut count)
            };
            assert_eq!((st, count), (imcts_status::Ok, 22));
        })
    });
    g.bench_function("kernel_legal_moves", |b| {
        let pos = Breakthrough::new();
        let mut list = MoveList::new();
        b.iter(|| {
            pos.legal_moves(black_box(&mut list));
            assert_eq!(list.moves().len(), 22);
        })
    });

    // A SIMS-simulation search, through the ABI and directly.
    let mut config = std::mem::MaybeUninit::uninit();
    // SAFETY: valid pointers; the spec text is valid for its length.
    let st = unsafe {
        imcts_config_parse(
            IMCTS_GAME_BREAKTHROUGH,
            c"mcts".as_ptr(),
            4,
            config.as_mut_ptr(),
        )
    };
    assert_eq!(st, imcts_status::Ok);
    // SAFETY: written by the successful call.
    let config = unsafe { config.assume_init() };
    let budget = imcts_budget {
        simulations: SIMS,
        nodes: 0,
        time_us: 0,
        clock: None,
        clock_ctx: std::ptr::null_mut(),
    };
    g.throughput(Throughput::Elements(SIMS));
    g.bench_function("search_sims", |b| {
        b.iter(|| {
            let mut r = std::mem::MaybeUninit::<imcts_result>::uninit();
            // SAFETY: live engine, valid pointers.
            let st = unsafe { imcts_engine_search(e, &config, &budget, r.as_mut_ptr()) };
            assert_eq!(st, imcts_status::Ok);
            // SAFETY: written on success.
            assert_eq!(unsafe { r.assume_init() }.simulations, SIMS);
        })
    });
    g.bench_function("kernel_search_sims", |b| {
        let cfg = spec::parse_mcts::<Breakthrough>("mcts").unwrap();
        let mut nodes = vec![Node::EMPTY; NODES];
        let mut seed = 0u64;
        b.iter(|| {
            // A new seed each time, as the engine's generator moves on between its searches:
            // repeating one identical search would flatter the kernel (warm branch predictors).
            seed += 1;
            let mut pos = Breakthrough::new();
            let c = cfg.with_seed(seed);
            let mut m = Mcts::new(&mut nodes, c);
            let r = m.search(&mut pos, Budget::iterations(SIMS), &mut NoClock);
            assert_eq!(r.simulations, SIMS);
        })
    });
    g.finish();
}

criterion_group!(benches, abi_calls);
criterion_main!(benches);
