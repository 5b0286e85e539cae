//! The C ABI driven from Rust: every function, every error path, and the promise that a failed
//! call changes nothing. Under Miri (`cargo +nightly miri test -p imcts-ffi`) the tests that
//! run thousands of simulations are skipped; the rest check the unsafe layer for UB.

use core::ffi::{CStr, c_char, c_void};
use core::ptr::{null, null_mut};
use imcts_ffi::*;

/// Engine memory with the alignment the library asks for.
struct Mem {
    words: Vec<u128>,
}

impl Mem {
    fn new(bytes: usize) -> Mem {
        Mem {
            words: vec![0u128; bytes.div_ceil(16) + 1],
        }
    }
    fn ptr(&mut self) -> *mut c_void {
        self.words.as_mut_ptr().cast()
    }
}

fn size(game: u32, nodes: usize) -> usize {
    let mut s = 0;
    // SAFETY: valid out-pointer.
    assert_eq!(
        unsafe { imcts_engine_size(game, nodes, &mut s) },
        imcts_status::Ok
    );
    s
}

fn engine(mem: &mut Mem, game: u32, nodes: usize) -> *mut imcts_engine {
    let mut e = null_mut();
    let len = mem.words.len() * 16;
    // SAFETY: `mem` holds `len` bytes, 16-aligned.
    let st = unsafe { imcts_engine_init(mem.ptr(), len, game, nodes, &mut e) };
    assert_eq!(st, imcts_status::Ok);
    e
}

fn new_engine(game: u32, nodes: usize) -> (Mem, *mut imcts_engine) {
    let mut mem = Mem::new(size(game, nodes));
    let e = engine(&mut mem, game, nodes);
    (mem, e)
}

fn position(e: *const imcts_engine) -> String {
    let mut buf = [0 as c_char; 512];
    let mut len = 0;
    // SAFETY: valid buffer and out-pointer.
    let st = unsafe { imcts_engine_position(e, buf.as_mut_ptr(), buf.len(), &mut len) };
    assert_eq!(st, imcts_status::Ok);
    // SAFETY: NUL-terminated by the library.
    let s = unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap();
    assert_eq!(s.len(), len);
    s.to_owned()
}

fn moves(e: *const imcts_engine) -> (String, usize) {
    let mut buf = vec![0 as c_char; 4096];
    let (mut len, mut count) = (0, 0);
    // SAFETY: valid buffer and out-pointers.
    let st =
        unsafe { imcts_engine_legal_moves(e, buf.as_mut_ptr(), buf.len(), &mut len, &mut count) };
    assert_eq!(st, imcts_status::Ok);
    // SAFETY: NUL-terminated by the library.
    let s = unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap();
    assert_eq!(s.len(), len);
    (s.to_owned(), count)
}

fn play(e: *mut imcts_engine, mv: &str) -> imcts_status {
    // SAFETY: valid string slice.
    unsafe { imcts_engine_play(e, mv.as_ptr().cast(), mv.len()) }
}

fn parse(game: u32, spec: &str) -> Result<imcts_config, imcts_status> {
    let mut c = std::mem::MaybeUninit::uninit();
    // SAFETY: valid string and out-pointer.
    match unsafe { imcts_config_parse(game, spec.as_ptr().cast(), spec.len(), c.as_mut_ptr()) } {
        // SAFETY: written on success.
        imcts_status::Ok => Ok(unsafe { c.assume_init() }),
        e => Err(e),
    }
}

fn sims(n: u64) -> imcts_budget {
    imcts_budget {
        simulations: n,
        nodes: 0,
        time_us: 0,
        clock: None,
        clock_ctx: null_mut(),
    }
}

fn search(e: *mut imcts_engine, c: &imcts_config, b: &imcts_budget) -> imcts_result {
    let mut r = std::mem::MaybeUninit::uninit();
    // SAFETY: valid pointers.
    let st = unsafe { imcts_engine_search(e, c, b, r.as_mut_ptr()) };
    assert_eq!(st, imcts_status::Ok);
    // SAFETY: written on success.
    unsafe { r.assume_init() }
}

fn best(r: &imcts_result) -> String {
    // SAFETY: NUL-terminated by the library.
    unsafe { CStr::from_ptr(r.best_move.as_ptr()) }
        .to_str()
        .unwrap()
        .to_owned()
}

const GAMES: [u32; 5] = [
    IMCTS_GAME_BREAKTHROUGH,
    IMCTS_GAME_LOA,
    IMCTS_GAME_KALAH,
    IMCTS_GAME_TICTACTOE,
    IMCTS_GAME_GOMOKU,
];

#[test]
fn sizes_alignment_and_init_errors() {
    let mut align = 0;
    // SAFETY: valid out-pointer / NULL.
    unsafe {
        assert_eq!(imcts_engine_align(&mut align), imcts_status::Ok);
        assert_eq!(imcts_engine_align(null_mut()), imcts_status::NullPointer);
    }
    assert!(align.is_power_of_two() && align <= 16);
    let base = size(IMCTS_GAME_BREAKTHROUGH, 0);
    assert_eq!(size(IMCTS_GAME_BREAKTHROUGH, 100), base + 2400);
    let mut s = 7;
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(imcts_engine_size(99, 10, &mut s), imcts_status::UnknownGame);
        assert_eq!(
            imcts_engine_size(0, usize::MAX, &mut s),
            imcts_status::CapacityTooLarge
        );
    }
    assert_eq!(s, 7, "outputs untouched on failure");

    let mut mem = Mem::new(size(0, 64) + 64);
    let mut e: *mut imcts_engine = null_mut();
    let len = size(0, 64);
    // SAFETY: every pointer is valid for its length, or NULL on purpose.
    unsafe {
        assert_eq!(
            imcts_engine_init(null_mut(), len, 0, 64, &mut e),
            imcts_status::NullPointer
        );
        assert_eq!(
            imcts_engine_init(mem.ptr(), len, 0, 64, null_mut()),
            imcts_status::NullPointer
        );
        assert_eq!(
            imcts_engine_init(mem.ptr(), len, 9, 64, &mut e),
            imcts_status::UnknownGame
        );
        assert_eq!(
            imcts_engine_init(mem.ptr(), len - 1, 0, 64, &mut e),
            imcts_status::MemoryTooSmall
        );
        let off = mem.ptr().cast::<u8>().add(4).cast();
        assert_eq!(
            imcts_engine_init(off, len, 0, 64, &mut e),
            imcts_status::Misaligned
        );
        assert!(e.is_null());
        assert_eq!(
            imcts_engine_init(mem.ptr(), len, 0, 64, &mut e),
            imcts_status::Ok
        );
        assert_eq!(e.cast::<c_void>(), mem.ptr());
        let mut g = 9;
        assert_eq!(imcts_engine_game(e, &mut g), imcts_status::Ok);
        assert_eq!(g, IMCTS_GAME_BREAKTHROUGH);
        // Memory that holds no engine.
        let mut junk = Mem::new(len);
        assert_eq!(
            imcts_engine_game(junk.ptr().cast(), &mut g),
            imcts_status::BadEngine
        );
        assert_eq!(imcts_engine_game(null(), &mut g), imcts_status::NullPointer);
    }
}

#[test]
#[cfg_attr(miri, ignore = "thousands of simulations: too slow under Miri")]
fn every_game_plays_searches_and_undoes() {
    for game in GAMES {
        let (_mem, e) = new_engine(game, 4000);
        let start = position(e);
        let (list, count) = moves(e);
        assert_eq!(list.split(' ').count(), count, "{list}");
        let first = list.split(' ').next().unwrap().to_owned();
        assert_eq!(play(e, &first), imcts_status::Ok);
        assert_ne!(position(e), start);
        let mut h = 0;
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(imcts_engine_history_len(e, &mut h), imcts_status::Ok);
            assert_eq!(h, 1);
            assert_eq!(imcts_engine_undo(e), imcts_status::Ok);
            assert_eq!(imcts_engine_undo(e), imcts_status::NothingToUndo);
        }
        assert_eq!(position(e), start);

        let mut cfg = std::mem::MaybeUninit::uninit();
        // SAFETY: valid out-pointer.
        assert_eq!(
            unsafe { imcts_config_default(game, cfg.as_mut_ptr()) },
            imcts_status::Ok
        );
        // SAFETY: written on success.
        let cfg = unsafe { cfg.assume_init() };
        let r = search(e, &cfg, &sims(300));
        let mv = best(&r);
        assert_eq!(mv.len(), r.best_move_len as usize);
        assert!(list.split(' ').any(|m| m == mv), "{mv} not in {list}");
        assert_eq!(position(e), start, "search leaves the position alone");
        assert_eq!(play(e, &mv), imcts_status::Ok);

        // Position round trip.
        let p = position(e);
        // SAFETY: valid string.
        let st = unsafe { imcts_engine_reset(e) };
        assert_eq!(st, imcts_status::Ok);
        assert_eq!(position(e), start);
        // SAFETY: valid string.
        let st = unsafe { imcts_engine_set_position(e, p.as_ptr().cast(), p.len()) };
        assert_eq!(st, imcts_status::Ok);
        assert_eq!(position(e), p);
        // SAFETY: valid pointer.
        assert_eq!(unsafe { imcts_engine_undo(e) }, imcts_status::NothingToUndo);

        // αβ on the same engine (the region becomes the table), then MCTS again.
        let ab = parse(game, "ab(depth3,tt1000)").unwrap();
        let r = search(e, &ab, &sims(0));
        assert!(!best(&r).is_empty());
        assert!(r.depth >= 1);
        let r = search(e, &cfg, &sims(100));
        assert!(moves(e).0.split(' ').any(|m| m == best(&r)));
    }
}

#[test]
fn failed_calls_change_nothing() {
    let (_mem, e) = new_engine(IMCTS_GAME_BREAKTHROUGH, 1000);
    assert_eq!(play(e, "a2-a3"), imcts_status::Ok);
    let before = position(e);
    assert_eq!(play(e, "a2-a3"), imcts_status::IllegalMove);
    assert_eq!(play(e, "a7-a5"), imcts_status::IllegalMove);
    assert_eq!(play(e, "zz"), imcts_status::BadMove);
    assert_eq!(play(e, ""), imcts_status::BadMove);
    let bad_utf8 = [0xffu8, 0xfe];
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(
            imcts_engine_play(e, bad_utf8.as_ptr().cast(), 2),
            imcts_status::InvalidUtf8
        );
        assert_eq!(imcts_engine_play(e, null(), 0), imcts_status::NullPointer);
        assert_eq!(
            imcts_engine_play(null_mut(), c"a7-a6".as_ptr(), 5),
            imcts_status::NullPointer
        );
        assert_eq!(
            imcts_engine_set_position(e, c"nonsense".as_ptr(), 8),
            imcts_status::BadPosition
        );
        assert_eq!(
            imcts_engine_set_position(e, bad_utf8.as_ptr().cast(), 2),
            imcts_status::InvalidUtf8
        );
    }
    assert_eq!(position(e), before);
    let mut h = 0;
    // SAFETY: valid pointers.
    unsafe { imcts_engine_history_len(e, &mut h) };
    assert_eq!(h, 1);

    // Short buffers: the needed length, nothing else written.
    let mut buf = [b'#' as c_char; 8];
    let mut len = 0;
    // SAFETY: valid pointers; capacities as given.
    unsafe {
        assert_eq!(
            imcts_engine_position(e, buf.as_mut_ptr(), buf.len(), &mut len),
            imcts_status::BufferTooSmall
        );
        assert_eq!(len, before.len());
        assert!(buf.iter().all(|&b| b == b'#' as c_char));
        let mut len2 = 0;
        assert_eq!(
            imcts_engine_position(e, null_mut(), 0, &mut len2),
            imcts_status::BufferTooSmall
        );
        assert_eq!(len2, before.len());
        // Exactly the length (no room for the NUL) is too small; one more fits.
        let mut exact = vec![0 as c_char; before.len()];
        assert_eq!(
            imcts_engine_position(e, exact.as_mut_ptr(), exact.len(), &mut len2),
            imcts_status::BufferTooSmall
        );
        let mut fits = vec![0 as c_char; before.len() + 1];
        assert_eq!(
            imcts_engine_position(e, fits.as_mut_ptr(), fits.len(), &mut len2),
            imcts_status::Ok
        );
        assert_eq!(
            imcts_engine_position(e, null_mut(), 4, &mut len2),
            imcts_status::NullPointer
        );
        let mut count = 0;
        assert_eq!(
            imcts_engine_legal_moves(e, buf.as_mut_ptr(), buf.len(), &mut len, &mut count),
            imcts_status::BufferTooSmall
        );
        assert_eq!(count, 0);
        assert_eq!(len, moves(e).0.len());
    }

    // Bad configurations and budgets.
    let good = parse(IMCTS_GAME_BREAKTHROUGH, "mcts(ipp,im0.4)").unwrap();
    let mut r = imcts_result {
        best_move: [0; IMCTS_MOVE_CAPACITY],
        best_move_len: 77,
        value: 0.0,
        simulations: 0,
        nodes: 0,
        elapsed_us: 0,
        stop: 0,
        proven: 0,
        depth: 0,
        pool_full: 0,
    };
    for tweak in [
        (|c: &mut imcts_config| c.alpha = 1.5) as fn(&mut imcts_config),
        |c| c.uct_c = f32::NAN,
        |c| c.value_mode = 9,
        |c| c.algorithm = 5,
        |c| c.playout = 3,
        |c| c.bbq_playouts = 0,
        |c| c.bbq_big = 1,
        |c| c.eval = 2,
        |c| c.det_interval = 0,
        |c| c.epsilon_greedy = 2.0,
        |c| c.expansion = 3,
        |c| c.ab_max_depth = 0,
    ] {
        let mut c = good;
        tweak(&mut c);
        if c.ab_max_depth == 0 {
            c.algorithm = IMCTS_ALGORITHM_ALPHABETA;
        }
        // SAFETY: valid pointers.
        let st = unsafe { imcts_engine_search(e, &c, &sims(10), &mut r) };
        assert_eq!(st, imcts_status::BadConfig, "{c:?}");
    }
    let timed = imcts_budget {
        time_us: 1000,
        ..sims(0)
    };
    // SAFETY: valid pointers / NULL on purpose.
    unsafe {
        assert_eq!(
            imcts_engine_search(e, &good, &timed, &mut r),
            imcts_status::BadBudget
        );
        assert_eq!(
            imcts_engine_search(e, null(), &timed, &mut r),
            imcts_status::NullPointer
        );
        assert_eq!(
            imcts_engine_search(e, &good, null(), &mut r),
            imcts_status::NullPointer
        );
        assert_eq!(
            imcts_engine_search(e, &good, &timed, null_mut()),
            imcts_status::NullPointer
        );
    }
    assert_eq!(r.best_move_len, 77, "result untouched on failure");
    // Informed playouts and node priors are Breakthrough's only.
    let mut kalah = good;
    kalah.playout = IMCTS_PLAYOUT_RANDOM;
    let (_m2, k) = new_engine(IMCTS_GAME_KALAH, 100);
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(
            imcts_engine_search(k, &good, &sims(5), &mut r),
            imcts_status::BadConfig
        );
        kalah.eval = 0;
        assert_eq!(
            imcts_engine_search(k, &kalah, &sims(5), &mut r),
            imcts_status::Ok
        );
    }
    assert_eq!(position(e), before);
}

#[test]
fn specs_parse_into_the_config() {
    let c = parse(IMCTS_GAME_BREAKTHROUGH, "mcts(ipp,im0.4)").unwrap();
    assert_eq!(c.algorithm, IMCTS_ALGORITHM_MCTS);
    assert_eq!(c.playout, IMCTS_PLAYOUT_INFORMED);
    assert_eq!(c.value_mode, IMCTS_VALUE_MODE_IMPLICIT);
    assert!((c.alpha - 0.4).abs() < 1e-6);
    assert_eq!(c.solver, 1);
    let c = parse(
        IMCTS_GAME_BREAKTHROUGH,
        "mcts(bl',reuse,seed7,efLH,mb5,one,nosolver,c0.5)",
    )
    .unwrap();
    assert_eq!(c.fixed_cutoff, 20);
    assert_eq!(c.node_priors, 10);
    assert_eq!((c.reuse_tree, c.seed, c.eval, c.max_backprop), (1, 7, 1, 5));
    assert_eq!((c.expansion, c.solver), (IMCTS_EXPANSION_ONE_CHILD, 0));
    assert_eq!(c.uct_c, 0.5);
    let c = parse(IMCTS_GAME_BREAKTHROUGH, "mcts(bl,pb2,detk3,code-ties)").unwrap();
    assert!((c.epsilon_greedy - 0.1).abs() < 1e-6 && (c.dynamic_cutoff - 0.5).abs() < 1e-6);
    assert_eq!((c.progressive_bias, c.det_interval), (2.0, 3));
    let c = parse(IMCTS_GAME_BREAKTHROUGH, "ab(efLH,depth6,tt4096)").unwrap();
    assert_eq!(
        (c.algorithm, c.eval, c.ab_max_depth, c.ab_tt_entries),
        (1, 1, 6, 4096)
    );
    for bad in [
        "mcts(nope)",
        "mcts(im2)",
        "mcts(ipp",
        "foo",
        "mcts(ipp,ipp)",
        "ab(depth0)",
    ] {
        assert_eq!(
            parse(IMCTS_GAME_BREAKTHROUGH, bad),
            Err(imcts_status::BadSpec),
            "{bad}"
        );
    }
    assert_eq!(
        parse(IMCTS_GAME_KALAH, "mcts(ipp)"),
        Err(imcts_status::BadSpec)
    );
    assert!(parse(IMCTS_GAME_LOA, "mcts(one,abp,det0.7,im0.2)").is_ok());
    // Labels the struct has no field for are refused, not dropped: a tie-break other than the
    // game's among them (Breakthrough's is the paper's code's).
    for uncarried in [
        "mcts(bl,random-ties)",
        "mcts(efLH,bl',im0.6,random-ties)",
        "mcts(ipp,random-ties)",
        "mcts(bl,text-det)",
        "mcts(ipp,text-ipp)",
        "mcts(text-solver)",
        "mcts(im0.4,text-proven)",
        "mcts(code-proof-visits)",
        "mcts(im0.4,ep10)",
    ] {
        assert_eq!(
            parse(IMCTS_GAME_BREAKTHROUGH, uncarried),
            Err(imcts_status::BadSpec),
            "{uncarried}"
        );
    }
    assert_eq!(
        parse(IMCTS_GAME_LOA, "mcts(np)"),
        Err(imcts_status::BadSpec)
    );
    // The presets break ties as the game does, so the struct carries them; Kalah's default is
    // random ties, so there `code-ties` is the label the struct cannot carry.
    for preset in ["mcts(bl)", "mcts(efLH,bl',im0.6)", "mcts(ipp,code-ties)"] {
        assert!(parse(IMCTS_GAME_BREAKTHROUGH, preset).is_ok(), "{preset}");
    }
    for uncarried in [
        "mcts(fet4,code-ties)",
        "mcts(fet4,im0.3,code-end-eval)",
        "mcts(fet4,im0.3,code-unproven-draws)",
    ] {
        assert_eq!(
            parse(IMCTS_GAME_KALAH, uncarried),
            Err(imcts_status::BadSpec),
            "{uncarried}"
        );
    }
    assert!(parse(IMCTS_GAME_KALAH, "mcts(fet4,random-ties)").is_ok());
    let mut out = std::mem::MaybeUninit::uninit();
    // SAFETY: deliberately invalid UTF-8 / NULL.
    unsafe {
        assert_eq!(
            imcts_config_parse(0, [0xc3u8, 0x28].as_ptr().cast(), 2, out.as_mut_ptr()),
            imcts_status::InvalidUtf8
        );
        assert_eq!(
            imcts_config_parse(0, null(), 0, out.as_mut_ptr()),
            imcts_status::NullPointer
        );
        assert_eq!(
            imcts_config_parse(0, c"mcts".as_ptr(), 4, null_mut()),
            imcts_status::NullPointer
        );
        assert_eq!(
            imcts_config_default(0, null_mut()),
            imcts_status::NullPointer
        );
        assert_eq!(
            imcts_config_default(7, out.as_mut_ptr()),
            imcts_status::UnknownGame
        );
    }
}

#[test]
#[cfg_attr(miri, ignore = "thousands of simulations: too slow under Miri")]
fn full_pool_and_tiny_pool_still_give_legal_moves() {
    let cfg = parse(IMCTS_GAME_BREAKTHROUGH, "mcts(ipp,im0.4)").unwrap();
    for nodes in [0, 1, 48, 49, 200] {
        let (_mem, e) = new_engine(IMCTS_GAME_BREAKTHROUGH, nodes);
        let r = search(e, &cfg, &sims(500));
        assert!(
            moves(e).0.split(' ').any(|m| m == best(&r)),
            "{nodes} nodes"
        );
        assert_eq!(r.pool_full, 1, "{nodes} nodes");
        assert!(r.nodes <= nodes as u64);
        let mut stop_full = cfg;
        stop_full.stop_when_full = 1;
        let r = search(e, &stop_full, &sims(500));
        assert_eq!(r.stop, IMCTS_STOP_POOL_FULL);
    }
}

#[test]
#[cfg_attr(miri, ignore = "thousands of simulations: too slow under Miri")]
fn tree_reuse_follows_played_moves_and_searches_repeat() {
    let cfg = parse(IMCTS_GAME_BREAKTHROUGH, "mcts(ipp,im0.4,reuse)").unwrap();
    let run = || {
        let (mem, e) = new_engine(IMCTS_GAME_BREAKTHROUGH, 20000);
        let r1 = search(e, &cfg, &sims(400));
        let reply = best(&r1);
        assert_eq!(play(e, &reply), imcts_status::Ok);
        // The opponent's likely reply is in the tree: its subtree is kept.
        let r2 = search(e, &cfg, &sims(1));
        drop(mem);
        (reply, r1.nodes, r2.nodes)
    };
    let (mv, n1, n2) = run();
    assert!(n2 > 1 && n2 < n1, "reused subtree {n2} of {n1}");
    assert_eq!(run(), (mv, n1, n2), "same seed, same search");
}

static mut TICKS: u64 = 0;

unsafe extern "C" fn fake_clock(ctx: *mut c_void) -> u64 {
    assert_eq!(ctx as usize, 42);
    // SAFETY: only this test's single thread touches TICKS.
    unsafe {
        TICKS += 1000;
        TICKS
    }
}

#[test]
#[cfg_attr(miri, ignore = "thousands of simulations: too slow under Miri")]
fn time_budget_reads_the_host_clock() {
    let (_mem, e) = new_engine(IMCTS_GAME_BREAKTHROUGH, 5000);
    let cfg = parse(IMCTS_GAME_BREAKTHROUGH, "mcts").unwrap();
    let b = imcts_budget {
        time_us: 5000,
        clock: Some(fake_clock),
        clock_ctx: 42 as *mut c_void,
        ..sims(0)
    };
    let r = search(e, &cfg, &b);
    assert_eq!(r.stop, IMCTS_STOP_TIME);
    assert!(r.elapsed_us >= 5000);
    assert!(r.simulations > 0);
}

#[test]
fn finished_games_and_history_capacity() {
    let (_mem, e) = new_engine(IMCTS_GAME_TICTACTOE, 100);
    for mv in moves(e).0.split(' ').take(1) {
        assert_eq!(play(e, mv), imcts_status::Ok);
    }
    // Play the game out with the first legal move each time.
    loop {
        let (list, count) = moves(e);
        if count == 0 {
            assert_eq!(list, "");
            break;
        }
        let m = list.split(' ').next().unwrap().to_owned();
        assert_eq!(play(e, &m), imcts_status::Ok);
    }
    let mut o = 0;
    // SAFETY: valid pointer.
    assert_eq!(unsafe { imcts_engine_outcome(e, &mut o) }, imcts_status::Ok);
    assert_ne!(o, IMCTS_OUTCOME_ONGOING);
    let cfg = parse(IMCTS_GAME_TICTACTOE, "mcts").unwrap();
    let r = search(e, &cfg, &sims(10));
    assert_eq!(
        (r.stop, r.best_move_len, r.best_move[0]),
        (IMCTS_STOP_GAME_OVER, 0, 0)
    );
    assert_eq!(play(e, "a1"), imcts_status::IllegalMove);

    // Kalah: many games on one engine; the history never exceeds its capacity (the ring
    // behaviour past 256 plies is unit-tested in ffi/src/engine.rs).
    let (_m, k) = new_engine(IMCTS_GAME_KALAH, 10);
    let mut plies = 0;
    'games: for _ in 0..50 {
        // SAFETY: valid pointer.
        unsafe { imcts_engine_reset(k) };
        let mut h = 0;
        loop {
            let (list, count) = moves(k);
            if count == 0 {
                continue 'games;
            }
            let m = list.split(' ').next_back().unwrap().to_owned();
            assert_eq!(play(k, &m), imcts_status::Ok);
            plies += 1;
            // SAFETY: valid pointer.
            unsafe { imcts_engine_history_len(k, &mut h) };
            assert!(h <= IMCTS_HISTORY_CAPACITY);
            if plies > 300 {
                break 'games;
            }
        }
    }
    let mut side = 5;
    // SAFETY: valid pointer.
    assert_eq!(
        unsafe { imcts_engine_side_to_move(k, &mut side) },
        imcts_status::Ok
    );
    assert!(side <= 1);
}

/// Every path through the node region (pool init, tree reuse on play, undo clearing the tree,
/// the switch to an αβ table and back), small enough to run under Miri.
#[test]
fn light_search_paths() {
    let (_mem, e) = new_engine(IMCTS_GAME_TICTACTOE, 64);
    let cfg = parse(IMCTS_GAME_TICTACTOE, "mcts(im0.3,reuse)").unwrap();
    let r = search(e, &cfg, &sims(12));
    assert_eq!(play(e, &best(&r)), imcts_status::Ok);
    let r = search(e, &cfg, &sims(12));
    assert!(r.nodes > 0);
    // SAFETY: valid pointer.
    assert_eq!(unsafe { imcts_engine_undo(e) }, imcts_status::Ok);
    let ab = parse(IMCTS_GAME_TICTACTOE, "ab(depth2,tt50)").unwrap();
    let r = search(e, &ab, &sims(100_000));
    assert_eq!((r.depth, r.stop), (2, IMCTS_STOP_MAX_DEPTH));
    let r = search(e, &cfg, &sims(12));
    assert!(moves(e).0.split(' ').any(|m| m == best(&r)));
}

fn pv(e: *const imcts_engine) -> (String, usize) {
    let mut buf = vec![0 as c_char; 2048];
    let (mut len, mut count) = (0, 0);
    // SAFETY: valid buffer and out-pointers.
    let st = unsafe { imcts_engine_pv(e, buf.as_mut_ptr(), buf.len(), &mut len, &mut count) };
    assert_eq!(st, imcts_status::Ok);
    // SAFETY: NUL-terminated by the library.
    let s = unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap();
    assert_eq!(s.len(), len);
    (s.to_owned(), count)
}

#[test]
#[cfg_attr(miri, ignore = "thousands of simulations: too slow under Miri")]
fn principal_variation_of_the_last_search() {
    for (game, spec) in [
        (IMCTS_GAME_BREAKTHROUGH, "mcts(ipp,im0.4)"),
        (IMCTS_GAME_BREAKTHROUGH, "ab(depth3)"),
        (IMCTS_GAME_LOA, "mcts"),
        (IMCTS_GAME_KALAH, "ab(depth6)"),
        (IMCTS_GAME_TICTACTOE, "mcts"),
        (IMCTS_GAME_GOMOKU, "mcts(im0.4)"),
    ] {
        let (_mem, e) = new_engine(game, 20000);
        assert_eq!(pv(e), (String::new(), 0), "no search yet");
        let cfg = parse(game, spec).unwrap();
        let r = search(e, &cfg, &sims(2000));
        let (line, count) = pv(e);
        assert!(count >= 2, "{spec}: a line of several moves, got {line:?}");
        assert_eq!(line.split(' ').count(), count);
        assert_eq!(line.split(' ').next(), Some(best(&r).as_str()), "{spec}");
        // Asking changes nothing, and the line is playable move after move.
        assert_eq!(pv(e), (line.clone(), count));
        let before = position(e);
        for mv in line.split(' ') {
            assert_eq!(play(e, mv), imcts_status::Ok, "{spec}: {mv} in {line}");
            assert_eq!(pv(e), (String::new(), 0), "a played move clears it");
        }
        for _ in 0..count {
            // SAFETY: a valid engine.
            assert_eq!(unsafe { imcts_engine_undo(e) }, imcts_status::Ok);
        }
        assert_eq!(position(e), before);
        // Short buffer and NULL pointers follow the crate's conventions (the αβ line may now
        // be shorter: the table kept from the first search cuts it).
        search(e, &cfg, &sims(2000));
        let (line, count) = pv(e);
        assert!(count >= 1);
        let (mut len, mut n) = (0, 7);
        let mut small = [0 as c_char; 1];
        // SAFETY: every pointer is valid for its length, or NULL on purpose.
        unsafe {
            assert_eq!(
                imcts_engine_pv(e, small.as_mut_ptr(), small.len(), &mut len, &mut n),
                imcts_status::BufferTooSmall
            );
            assert_eq!((len, n), (line.len(), 7));
            assert_eq!(
                imcts_engine_pv(e, null_mut(), 0, &mut len, null_mut()),
                imcts_status::NullPointer
            );
            assert_eq!(
                imcts_engine_pv(null(), null_mut(), 0, &mut len, &mut n),
                imcts_status::NullPointer
            );
        }
        assert_eq!(pv(e), (line, count));
    }
}

fn search_spec(
    e: *mut imcts_engine,
    spec: &str,
    b: &imcts_budget,
) -> Result<imcts_result, imcts_status> {
    let mut r = std::mem::MaybeUninit::uninit();
    // SAFETY: valid pointers; `spec` is `len` readable bytes.
    let st =
        unsafe { imcts_engine_search_spec(e, spec.as_ptr().cast(), spec.len(), b, r.as_mut_ptr()) };
    // SAFETY: written on success.
    (st == imcts_status::Ok)
        .then(|| unsafe { r.assume_init() })
        .ok_or(st)
}

#[test]
#[cfg_attr(miri, ignore = "thousands of simulations: too slow under Miri")]
fn searches_take_a_spec_with_labels_the_struct_cannot_carry() {
    // A spec the struct carries searches exactly as the struct does.
    let spec = "mcts(ipp,im0.4,seed5)";
    let (_m1, a) = new_engine(IMCTS_GAME_BREAKTHROUGH, 20_000);
    let (_m2, b) = new_engine(IMCTS_GAME_BREAKTHROUGH, 20_000);
    let by_struct = search(
        a,
        &parse(IMCTS_GAME_BREAKTHROUGH, spec).unwrap(),
        &sims(500),
    );
    let by_spec = search_spec(b, spec, &sims(500)).unwrap();
    assert_eq!(
        (best(&by_struct), by_struct.simulations, by_struct.nodes),
        (best(&by_spec), by_spec.simulations, by_spec.nodes)
    );
    // So do the presets with the code's tie-break.
    let r = search_spec(b, "mcts(efLH,bl',im0.6)", &sims(500)).unwrap();
    assert_eq!(r.simulations, 500);
    // Evaluation priors, which `imcts_config_parse` refuses, search here.
    let (_m3, loa) = new_engine(IMCTS_GAME_LOA, 50_000);
    let r = search_spec(loa, "mcts(fet0,im0.6,c0.3,ep10)", &sims(2_000)).unwrap();
    assert!(moves(loa).0.split(' ').any(|m| m == best(&r)));
    assert_eq!(r.simulations, 2_000);
    // Bad input: refused, the engine unchanged.
    let before = position(loa);
    for bad in ["mcts(ep0)", "mcts(np)", "mcts(np,ep)", "mcts(", "nope"] {
        assert_eq!(
            search_spec(loa, bad, &sims(10)).unwrap_err(),
            imcts_status::BadSpec,
            "{bad}"
        );
    }
    let mut r = std::mem::MaybeUninit::uninit();
    // SAFETY: deliberately NULL / invalid UTF-8 specs; the other pointers are valid.
    unsafe {
        assert_eq!(
            imcts_engine_search_spec(loa, null(), 0, &sims(10), r.as_mut_ptr()),
            imcts_status::NullPointer
        );
        assert_eq!(
            imcts_engine_search_spec(
                loa,
                [0xc3u8, 0x28].as_ptr().cast(),
                2,
                &sims(10),
                r.as_mut_ptr()
            ),
            imcts_status::InvalidUtf8
        );
        assert_eq!(
            imcts_engine_search_spec(loa, c"mcts".as_ptr(), 4, null(), r.as_mut_ptr()),
            imcts_status::NullPointer
        );
    }
    assert_eq!(position(loa), before);
    // The same verdicts without an engine.
    let check = |game: u32, spec: &str| {
        // SAFETY: `spec` is `len` readable bytes.
        unsafe { imcts_spec_check(game, spec.as_ptr().cast(), spec.len()) }
    };
    assert_eq!(
        check(IMCTS_GAME_LOA, "mcts(fet0,im0.6,c0.3,ep10)"),
        imcts_status::Ok
    );
    assert_eq!(
        check(IMCTS_GAME_BREAKTHROUGH, "mcts(bl,code-ties)"),
        imcts_status::Ok
    );
    assert_eq!(check(IMCTS_GAME_LOA, "mcts(np,ep)"), imcts_status::BadSpec);
    assert_eq!(check(IMCTS_GAME_KALAH, "mcts(ipp)"), imcts_status::BadSpec);
    assert_eq!(check(99, "mcts"), imcts_status::UnknownGame);
    // SAFETY: deliberately NULL.
    assert_eq!(
        unsafe { imcts_spec_check(0, null(), 0) },
        imcts_status::NullPointer
    );
}
