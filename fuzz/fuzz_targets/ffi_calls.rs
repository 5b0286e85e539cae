//! Arbitrary call sequences through the C ABI: no call panics (a caught panic would come back
//! as `IMCTS_STATUS_PANIC`), every failed call leaves the position and history unchanged, and a
//! successful search returns a move the engine accepts.
#![no_main]

use imcts_ffi::*;
use libfuzzer_sys::fuzz_target;
use std::ffi::c_char;

/// A small cursor over the fuzz input.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }
    fn slice(&mut self, max: usize) -> &[u8] {
        let n = (self.byte().unwrap_or(0) as usize)
            .min(max)
            .min(self.0.len());
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        a
    }
}

/// The position string and history length, to check that failed calls change nothing.
fn snapshot(e: *mut imcts_engine) -> (Vec<u8>, usize) {
    let mut buf = vec![0 as c_char; 4096];
    let mut len = 0usize;
    let mut hist = 0usize;
    // SAFETY: `e` is a live engine; the buffers are valid for their lengths.
    unsafe {
        assert_eq!(
            imcts_engine_position(e, buf.as_mut_ptr(), buf.len(), &mut len),
            imcts_status::Ok
        );
        assert_eq!(imcts_engine_history_len(e, &mut hist), imcts_status::Ok);
    }
    (buf[..len].iter().map(|&c| c as u8).collect(), hist)
}

fn check(st: imcts_status, e: *mut imcts_engine, before: &(Vec<u8>, usize)) {
    assert_ne!(st, imcts_status::Panic, "a panic reached the boundary");
    if st != imcts_status::Ok {
        assert_eq!(
            &snapshot(e),
            before,
            "a failed call ({st:?}) changed the engine"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let game = (b.byte().unwrap_or(0) % 6) as u32;
    let capacity = b.byte().unwrap_or(0) as usize * 4;
    let mut size = 0usize;
    // SAFETY: valid out-pointer.
    let st = unsafe { imcts_engine_size(game, capacity, &mut size) };
    if st != imcts_status::Ok {
        assert_eq!(st, imcts_status::UnknownGame);
        return;
    }
    let mut mem = vec![0u128; size / 16 + 2];
    let mut e: *mut imcts_engine = std::ptr::null_mut();
    // SAFETY: `mem` is 16-byte aligned and at least `size` bytes long.
    let st = unsafe { imcts_engine_init(mem.as_mut_ptr().cast(), size, game, capacity, &mut e) };
    assert_eq!(st, imcts_status::Ok);
    let mut config = std::mem::MaybeUninit::<imcts_config>::uninit();
    // SAFETY: valid out-pointer.
    assert_eq!(
        unsafe { imcts_config_default(game, config.as_mut_ptr()) },
        imcts_status::Ok
    );
    // SAFETY: initialised by the successful call above.
    let mut config = unsafe { config.assume_init() };
    while let Some(op) = b.byte() {
        let before = snapshot(e);
        // SAFETY (all calls below): `e` is live, every pointer is valid for the length given.
        let st = match op % 8 {
            0 => {
                // Play a legal move by index, read back from the engine's list.
                let mut buf = vec![0 as c_char; 8192];
                let (mut len, mut count) = (0usize, 0usize);
                let st = unsafe {
                    imcts_engine_legal_moves(e, buf.as_mut_ptr(), buf.len(), &mut len, &mut count)
                };
                assert_eq!(st, imcts_status::Ok);
                let text: Vec<u8> = buf[..len].iter().map(|&c| c as u8).collect();
                let moves: Vec<&[u8]> = text
                    .split(|&c| c == b' ')
                    .filter(|m| !m.is_empty())
                    .collect();
                assert_eq!(moves.len(), count);
                match moves.get(b.byte().unwrap_or(0) as usize % count.max(1)) {
                    Some(m) => {
                        let st = unsafe { imcts_engine_play(e, m.as_ptr().cast(), m.len()) };
                        assert_eq!(st, imcts_status::Ok, "a listed move was refused");
                        st
                    }
                    None => imcts_status::Ok,
                }
            }
            1 => {
                let m = b.slice(12);
                unsafe { imcts_engine_play(e, m.as_ptr().cast(), m.len()) }
            }
            2 => unsafe { imcts_engine_undo(e) },
            3 => {
                let p = b.slice(300);
                unsafe { imcts_engine_set_position(e, p.as_ptr().cast(), p.len()) }
            }
            4 => {
                let s = b.slice(40);
                let mut c = config;
                let st = unsafe { imcts_config_parse(game, s.as_ptr().cast(), s.len(), &mut c) };
                if st == imcts_status::Ok {
                    config = c;
                } else {
                    assert_eq!(c, config, "a failed parse wrote its output");
                }
                st
            }
            5 => {
                // Tweak a raw config field to an arbitrary value.
                let v = b.byte().unwrap_or(0);
                match v % 6 {
                    0 => config.playout = u32::from(v / 6),
                    1 => config.alpha = f32::from(v) / 100.0,
                    2 => config.value_mode = u32::from(v / 6),
                    3 => config.uct_c = f32::from(v) - 100.0,
                    4 => config.eval = u32::from(v / 6),
                    _ => config.algorithm = u32::from(v / 60),
                }
                imcts_status::Ok
            }
            6 => {
                let sims = u64::from(b.byte().unwrap_or(1) % 64);
                let budget = imcts_budget {
                    simulations: sims,
                    nodes: 0,
                    time_us: 0,
                    clock: None,
                    clock_ctx: std::ptr::null_mut(),
                };
                let mut r = std::mem::MaybeUninit::<imcts_result>::uninit();
                let st = unsafe { imcts_engine_search(e, &config, &budget, r.as_mut_ptr()) };
                if st == imcts_status::Ok {
                    // SAFETY: written on success.
                    let r = unsafe { r.assume_init() };
                    if r.best_move_len > 0 {
                        let st = unsafe {
                            imcts_engine_play(e, r.best_move.as_ptr(), r.best_move_len as usize)
                        };
                        assert_eq!(st, imcts_status::Ok, "the search's move was refused");
                    }
                }
                st
            }
            _ => {
                // Short output buffers report the length needed and write nothing else.
                let cap = b.byte().unwrap_or(0) as usize % 16;
                let mut buf = vec![b'#' as c_char; 16];
                let mut len = 0usize;
                let st = unsafe { imcts_engine_position(e, buf.as_mut_ptr(), cap, &mut len) };
                if st == imcts_status::BufferTooSmall {
                    assert!(len >= cap);
                    assert!(
                        buf.iter().all(|&c| c == b'#' as c_char),
                        "a short buffer was written"
                    );
                }
                st
            }
        };
        check(st, e, &before);
    }
});
