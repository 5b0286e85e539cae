//! imcts on a microcontroller: one MCTS search of the Breakthrough start position with the
//! paper's `mcts(ipp,im0.4)` player, its node pool in an 8 KiB static buffer, printed over
//! semihosting. No allocator, no `std`. Exits with success if the move is legal.
#![no_std]
#![no_main]

use core::mem::MaybeUninit;
use core::ptr::addr_of_mut;

use cortex_m as _; // links the critical-section implementation
use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hprintln};
use panic_halt as _;

use imcts::Game;
use imcts::game::move_string;
use imcts::games::breakthrough::Breakthrough;
use imcts::search::mcts::Mcts;
use imcts::search::node::Node;
use imcts::search::{Budget, NoClock};

/// Bytes of the node pool: 8 KiB, 341 nodes of 24 bytes.
const POOL_BYTES: usize = 8 * 1024;
const NODES: usize = POOL_BYTES / core::mem::size_of::<Node>();
/// Simulations of the search.
const SIMULATIONS: u64 = 300;
// The player's configuration, built without parsing (also compiled by the kernel's test
// `tests/firmware_player.rs`, which checks it against the spec).
include!("player.rs");

/// `v` in thousandths, rounded half away from zero (printed without float formatting, which
/// would link about 10 KiB of `core::fmt` float code).
fn milli(v: f32) -> i32 {
    (v * 1000.0 + if v < 0.0 { -0.5 } else { 0.5 }) as i32
}

/// The node pool, in `.bss` (not `.data`: a `[Node::EMPTY; N]` initialiser would cost 8 KiB of
/// flash for its image), filled with blank nodes at start-up.
static mut POOL: MaybeUninit<[Node; NODES]> = MaybeUninit::uninit();

unsafe extern "C" {
    /// The lowest address of the stack (cortex-m-rt's linker script).
    static _stack_end: u32;
    /// The initial stack pointer, the top of the stack.
    static _stack_start: u32;
}

/// The deepest the stack has been so far, in bytes: cortex-m-rt painted it with
/// `STACK_PAINT_VALUE` at reset, and the stack grows down from `_stack_start`.
fn stack_peak() -> usize {
    let bottom = &raw const _stack_end as usize;
    let top = &raw const _stack_start as usize;
    let mut addr = bottom;
    while addr < top {
        // SAFETY: `bottom..top` is the stack region of RAM, word-aligned (asserted by the
        // linker script); a volatile read of a painted or used word is always valid.
        let word = unsafe { core::ptr::read_volatile(addr as *const u32) };
        if word != cortex_m_rt::STACK_PAINT_VALUE {
            break;
        }
        addr += 4;
    }
    top - addr
}

#[entry]
fn main() -> ! {
    let base = addr_of_mut!(POOL).cast::<Node>();
    for i in 0..NODES {
        // SAFETY: `base` points to NODES nodes of static memory; `i < NODES`. Only this
        // function (which runs once, and is the only code that names POOL) touches it.
        unsafe { base.add(i).write(Node::EMPTY) };
    }
    // SAFETY: all NODES nodes were just initialised; the slice is the only reference to POOL
    // for the rest of the program, since `main` never returns.
    let nodes: &'static mut [Node] = unsafe { core::slice::from_raw_parts_mut(base, NODES) };

    let ok = match player().validate() {
        Ok(config) => {
            let mut game = Breakthrough::new();
            let mut mcts = Mcts::new(nodes, config);
            let r = mcts.search(&mut game, Budget::iterations(SIMULATIONS), &mut NoClock);
            match r.best {
                Some(mv) if game.is_legal(mv) => {
                    let v = milli(r.value);
                    hprintln!(
                        "bestmove {} player {} sims {} nodes {}/{} pool {} B stack {} B value {}{}.{:03} stop {}",
                        move_string(&game, mv),
                        PLAYER,
                        r.simulations,
                        r.nodes_used,
                        mcts.capacity(),
                        POOL_BYTES,
                        stack_peak(),
                        if v < 0 { "-" } else { "" },
                        v.unsigned_abs() / 1000,
                        v.unsigned_abs() % 1000,
                        r.stop.name()
                    );
                    true
                }
                _ => {
                    hprintln!("error: no legal move");
                    false
                }
            }
        }
        Err(_) => {
            hprintln!("error: invalid player configuration");
            false
        }
    };
    debug::exit(if ok {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    #[allow(clippy::empty_loop)]
    loop {}
}
