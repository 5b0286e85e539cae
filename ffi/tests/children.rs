//! `imcts_engine_root_children`: the root children after a search agree with the result and
//! the legal moves, follow the buffer convention, and disappear when the tree is cleared.

use core::ffi::{CStr, c_char, c_void};
use core::ptr::null_mut;
use imcts_ffi::*;

/// An engine in 16-aligned memory that lives as long as this value.
struct Engine {
    _mem: Vec<u128>,
    e: *mut imcts_engine,
}

fn engine(game: u32, nodes: usize) -> Engine {
    let mut size = 0;
    // SAFETY: valid out-pointer.
    assert_eq!(
        unsafe { imcts_engine_size(game, nodes, &mut size) },
        imcts_status::Ok
    );
    let mut mem = vec![0u128; size.div_ceil(16)];
    let mut e = null_mut();
    let len = mem.len() * 16;
    // SAFETY: `mem` holds `len` bytes, 16-aligned, and outlives the engine.
    let st =
        unsafe { imcts_engine_init(mem.as_mut_ptr().cast::<c_void>(), len, game, nodes, &mut e) };
    assert_eq!(st, imcts_status::Ok);
    Engine { _mem: mem, e }
}

fn config(game: u32, spec: &str) -> imcts_config {
    let mut cfg = core::mem::MaybeUninit::uninit();
    // SAFETY: valid string and out-pointer.
    let st =
        unsafe { imcts_config_parse(game, spec.as_ptr().cast(), spec.len(), cfg.as_mut_ptr()) };
    assert_eq!(st, imcts_status::Ok, "{spec}");
    // SAFETY: written on success.
    unsafe { cfg.assume_init() }
}

fn search(e: &Engine, cfg: &imcts_config, sims: u64) -> imcts_result {
    let budget = imcts_budget {
        simulations: sims,
        nodes: 0,
        time_us: 0,
        clock: None,
        clock_ctx: null_mut(),
    };
    let mut out = core::mem::MaybeUninit::uninit();
    // SAFETY: valid engine, config, budget and out-pointer.
    let st = unsafe { imcts_engine_search(e.e, cfg, &budget, out.as_mut_ptr()) };
    assert_eq!(st, imcts_status::Ok);
    // SAFETY: written on success.
    unsafe { out.assume_init() }
}

fn children(e: &Engine) -> Vec<(String, imcts_child)> {
    let mut count = usize::MAX;
    // SAFETY: NULL with capacity 0 asks for the count; valid out-pointer.
    let st = unsafe { imcts_engine_root_children(e.e, null_mut(), 0, &mut count) };
    if count == 0 {
        assert_eq!(st, imcts_status::Ok);
        return Vec::new();
    }
    assert_eq!(st, imcts_status::BufferTooSmall);
    let mut buf = vec![
        imcts_child {
            mv: [0; IMCTS_MOVE_CAPACITY],
            mv_len: 0,
            visits: 0,
            mean: 0.0,
            value: 0.0,
            proven: 0,
        };
        count
    ];
    let mut written = 0;
    // SAFETY: `buf` has room for `count` entries; valid out-pointer.
    let st = unsafe { imcts_engine_root_children(e.e, buf.as_mut_ptr(), count, &mut written) };
    assert_eq!((st, written), (imcts_status::Ok, count));
    buf.into_iter()
        .map(|c| {
            // SAFETY: NUL-terminated by the library.
            let s = unsafe { CStr::from_ptr(c.mv.as_ptr()) }.to_str().unwrap();
            assert_eq!(s.len(), c.mv_len as usize);
            (s.to_owned(), c)
        })
        .collect()
}

fn legal_moves(e: &Engine) -> Vec<String> {
    let mut buf = vec![0 as c_char; 4096];
    let (mut len, mut count) = (0, 0);
    // SAFETY: valid buffer and out-pointers.
    let st =
        unsafe { imcts_engine_legal_moves(e.e, buf.as_mut_ptr(), buf.len(), &mut len, &mut count) };
    assert_eq!(st, imcts_status::Ok);
    // SAFETY: NUL-terminated by the library.
    let s = unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap();
    s.split(' ').map(str::to_owned).collect()
}

fn play(e: &Engine, mv: &str) {
    // SAFETY: valid string slice.
    let st = unsafe { imcts_engine_play(e.e, mv.as_ptr().cast(), mv.len()) };
    assert_eq!(st, imcts_status::Ok, "{mv}");
}

#[test]
fn children_match_the_search_and_the_legal_moves() {
    for game in [
        IMCTS_GAME_BREAKTHROUGH,
        IMCTS_GAME_KALAH,
        IMCTS_GAME_TICTACTOE,
        IMCTS_GAME_LOA,
        IMCTS_GAME_GOMOKU,
    ] {
        let e = engine(game, 20_000);
        assert!(children(&e).is_empty(), "no tree before a search");
        let r = search(&e, &config(game, "mcts(seed3)"), 500);
        let kids = children(&e);
        let mut names: Vec<String> = kids.iter().map(|(m, _)| m.clone()).collect();
        let mut legal = legal_moves(&e);
        names.sort();
        legal.sort();
        assert_eq!(names, legal, "game {game}: one child per legal move");
        // Expanding all children costs no simulation, so visits add up to the simulations.
        let visits: u64 = kids.iter().map(|(_, c)| u64::from(c.visits)).sum();
        assert_eq!(visits, r.simulations, "game {game}");
        for (_, c) in &kids {
            assert!((-1.0..=1.0).contains(&c.mean) && c.proven <= IMCTS_PROVEN_DRAW);
        }
        // SAFETY: NUL-terminated by the library.
        let best = unsafe { CStr::from_ptr(r.best_move.as_ptr()) }
            .to_str()
            .unwrap();
        assert!(names.iter().any(|m| m == best), "game {game}: {best}");
    }
}

#[test]
fn short_buffers_and_null_pointers_are_refused() {
    let e = engine(IMCTS_GAME_TICTACTOE, 1000);
    search(&e, &config(IMCTS_GAME_TICTACTOE, "mcts"), 200);
    let mut buf = [imcts_child {
        mv: [0; IMCTS_MOVE_CAPACITY],
        mv_len: 0,
        visits: 7,
        mean: 0.0,
        value: 0.0,
        proven: 0,
    }; 3];
    let mut count = 0;
    // SAFETY: `buf` has room for 3 entries.
    let st = unsafe { imcts_engine_root_children(e.e, buf.as_mut_ptr(), 3, &mut count) };
    assert_eq!((st, count), (imcts_status::BufferTooSmall, 9));
    assert!(buf.iter().all(|c| c.visits == 7), "nothing written");
    // SAFETY: NULL pointers are checked by the library.
    let st = unsafe { imcts_engine_root_children(e.e, null_mut(), 5, &mut count) };
    assert_eq!(st, imcts_status::NullPointer);
    // SAFETY: as above.
    let st = unsafe { imcts_engine_root_children(e.e, buf.as_mut_ptr(), 3, null_mut()) };
    assert_eq!(st, imcts_status::NullPointer);
    // SAFETY: as above.
    let st = unsafe { imcts_engine_root_children(null_mut(), null_mut(), 0, &mut count) };
    assert_eq!(st, imcts_status::NullPointer);
}

#[test]
fn children_follow_the_tree() {
    let game = IMCTS_GAME_BREAKTHROUGH;
    let e = engine(game, 50_000);
    let reuse = config(game, "mcts(reuse,seed5)");
    let r = search(&e, &reuse, 2000);
    // SAFETY: NUL-terminated by the library.
    let best = unsafe { CStr::from_ptr(r.best_move.as_ptr()) }
        .to_str()
        .unwrap()
        .to_owned();
    let before = children(&e);
    assert_eq!(children(&e).len(), before.len(), "reading changes nothing");
    // With reuse, the played move's subtree becomes the tree: its children are the replies.
    play(&e, &best);
    let replies = children(&e);
    assert!(!replies.is_empty());
    let mut names: Vec<String> = replies.iter().map(|(m, _)| m.clone()).collect();
    let mut legal = legal_moves(&e);
    names.sort();
    legal.sort();
    assert_eq!(names, legal);
    // Undo clears the tree; so does playing without reuse and an αβ search.
    // SAFETY: valid engine.
    assert_eq!(unsafe { imcts_engine_undo(e.e) }, imcts_status::Ok);
    assert!(children(&e).is_empty());
    search(&e, &config(game, "mcts"), 500);
    assert!(!children(&e).is_empty());
    play(&e, "a2-a3");
    assert!(children(&e).is_empty());
    search(&e, &config(game, "mcts"), 500);
    search(&e, &config(game, "ab(depth2)"), 0);
    assert!(children(&e).is_empty());
}
