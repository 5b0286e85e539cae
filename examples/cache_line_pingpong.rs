//! How long one cache line takes to move from one core to the other: the floor under every
//! node that two threads of the shared-tree search both write (docs/performance.md, "What
//! bounds two threads on one tree").
//!
//! Two threads hand a counter back and forth in one 64-byte line: each waits until the
//! counter is its turn, then increments it. Every increment needs the line the other core
//! wrote last, so a round trip is two transfers. Prints the median over the repeats of the
//! wall-clock time per transfer. Both threads spin, so it needs two idle cores.
//!
//! ```sh
//! cargo run --release --example cache_line_pingpong -- 2000000 5
//! ```
//!
//! Arguments: round trips, repeats. It uses nothing of the kernel; it stands among its examples
//! because it measures what the parallel search meets on a machine.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// One counter alone in its cache line.
#[repr(align(64))]
struct Line(AtomicU64);

/// Nanoseconds per transfer of the line between two threads, over `trips` round trips.
fn ping_pong(trips: u64) -> f64 {
    let line = Line(AtomicU64::new(0));
    let start = Instant::now();
    std::thread::scope(|s| {
        for parity in 0..2u64 {
            let line = &line;
            s.spawn(move || {
                for i in 0..trips {
                    let mine = 2 * i + parity;
                    while line.0.load(Ordering::Acquire) != mine {
                        std::hint::spin_loop();
                    }
                    line.0.store(mine + 1, Ordering::Release);
                }
            });
        }
    });
    start.elapsed().as_nanos() as f64 / (2 * trips) as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let trips: u64 = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2_000_000);
    let repeats: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5);
    let two: Vec<f64> = (0..repeats.max(1)).map(|_| ping_pong(trips)).collect();
    println!(
        "between two threads: {:.1} ns a transfer (median of {}; runs {:?})",
        median(two.clone()),
        two.len(),
        two.iter().map(|t| format!("{t:.1}")).collect::<Vec<_>>()
    );
}
