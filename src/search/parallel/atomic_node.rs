//! The caller's node memory seen as atomics, so several threads can search one tree in it.
//!
//! [`AtomicNode`] has [`Node`]'s exact layout with every field an atomic of the same size. The
//! parallel search borrows the pool's `&mut [Node]` and reads and writes it through
//! [`view`] as `&[AtomicNode]` for the duration of the search; when the borrow ends the same
//! memory is an ordinary tree again, which the single-threaded code (best move, principal
//! variation, tree reuse, the next search) reads as before.

use super::super::node::{Node, Proven, flag};
use super::super::stats;
use core::mem::{align_of, offset_of, size_of};
#[cfg(any(test, not(target_has_atomic = "64")))]
use core::sync::atomic::AtomicBool;
#[cfg(target_has_atomic = "64")]
use core::sync::atomic::AtomicU64;
use core::sync::atomic::{AtomicI8, AtomicU8, AtomicU16, AtomicU32, Ordering};

/// [`Node`] with atomic fields (see the module documentation). `stat` and `value` hold the
/// bits of the node's reward statistic ([`stats`]) and of its implicit value; `proven` the
/// discriminant of a [`Proven`].
///
/// Where the target has 64-bit atomics, `visits` and `stat` (the first eight bytes, 8-byte
/// aligned) are one [`Stats`] word, read with one load and updated with one compare-and-swap,
/// so a reader always sees a pair from the same moment and a virtual loss or a backup is one
/// read-modify-write instead of two. Elsewhere they are two 32-bit atomics, updated under one
/// of a few spin locks (the statistic's form depends on the count, so the two change together).
#[repr(C, align(8))]
pub(crate) struct AtomicNode {
    stats: Stats,
    pub(crate) first_child: AtomicU32,
    pub(crate) value: AtomicU32,
    pub(crate) mv: AtomicU16,
    pub(crate) children: AtomicU16,
    pub(crate) added: AtomicU16,
    pub(crate) proven: AtomicI8,
    pub(crate) flags: AtomicU8,
}

/// `visits` and `stat` as one 64-bit word, in memory order (`visits` first).
#[cfg(target_has_atomic = "64")]
#[repr(transparent)]
struct Stats(AtomicU64);

/// `visits` and `stat`, two 32-bit words.
#[cfg(not(target_has_atomic = "64"))]
type Stats = TwoWords;

/// The statistics as two 32-bit atomics (targets without 64-bit atomics; compiled for the tests
/// everywhere, so that they run).
#[cfg(any(test, not(target_has_atomic = "64")))]
#[repr(C)]
pub(super) struct TwoWords {
    visits: AtomicU32,
    stat: AtomicU32,
}

/// The shifts of `visits` and of `stat` in the 64-bit word that holds them in memory order
/// (`visits` at the lower address).
#[cfg(all(target_has_atomic = "64", target_endian = "little"))]
const SHIFTS: (u32, u32) = (0, 32);
#[cfg(all(target_has_atomic = "64", target_endian = "big"))]
const SHIFTS: (u32, u32) = (32, 0);

#[cfg(target_has_atomic = "64")]
impl Stats {
    #[inline(always)]
    fn pack(visits: u32, stat: f32) -> u64 {
        (u64::from(visits) << SHIFTS.0) | (u64::from(stat.to_bits()) << SHIFTS.1)
    }

    #[inline(always)]
    fn unpack(w: u64) -> (u32, f32) {
        (
            (w >> SHIFTS.0) as u32,
            f32::from_bits((w >> SHIFTS.1) as u32),
        )
    }

    #[inline(always)]
    fn load(&self) -> (u32, f32) {
        Self::unpack(self.0.load(Ordering::Relaxed))
    }

    #[inline(always)]
    fn store(&self, visits: u32, stat: f32) {
        self.0.store(Self::pack(visits, stat), Ordering::Relaxed);
    }

    #[inline(always)]
    fn add(&self, visits: u32, reward: f32) {
        let mut cur = self.0.load(Ordering::Relaxed);
        loop {
            let (n, b) = Self::unpack(cur);
            let (n, b) = stats::add(n, b, visits, reward);
            match self.0.compare_exchange_weak(
                cur,
                Self::pack(n, b),
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return,
                Err(seen) => cur = seen,
            }
        }
    }
}

/// Spin locks for the two-word statistics: a node takes the one its address picks.
#[cfg(any(test, not(target_has_atomic = "64")))]
static LOCKS: [AtomicBool; 16] = [const { AtomicBool::new(false) }; 16];

#[cfg(any(test, not(target_has_atomic = "64")))]
impl TwoWords {
    /// Blank statistics (for the tests).
    #[cfg(test)]
    pub(super) const fn new() -> Self {
        TwoWords {
            visits: AtomicU32::new(0),
            stat: AtomicU32::new(0),
        }
    }

    /// The two words, read one after the other without the lock: under concurrency the pair
    /// can be one update apart (an estimate off by a simulation; at the threshold of
    /// [`stats::MEAN_FROM`] visits, one reading of the other form).
    #[inline(always)]
    pub(super) fn load(&self) -> (u32, f32) {
        (
            self.visits.load(Ordering::Relaxed),
            f32::from_bits(self.stat.load(Ordering::Relaxed)),
        )
    }

    #[inline(always)]
    pub(super) fn store(&self, visits: u32, stat: f32) {
        self.visits.store(visits, Ordering::Relaxed);
        self.stat.store(stat.to_bits(), Ordering::Relaxed);
    }

    /// The update under the node's lock, so that no two updates interleave.
    #[inline(always)]
    pub(super) fn add(&self, visits: u32, reward: f32) {
        let lock = &LOCKS[(self as *const Self as usize / 24) % LOCKS.len()];
        while lock
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            core::hint::spin_loop();
        }
        let (n, b) = self.load();
        let (n, b) = stats::add(n, b, visits, reward);
        self.store(n, b);
        lock.store(false, Ordering::Release);
    }
}

// The layouts agree field by field, so a `Node` and an `AtomicNode` are the same bytes.
const _: () = {
    assert!(size_of::<AtomicNode>() == size_of::<Node>());
    assert!(align_of::<AtomicNode>() == align_of::<Node>());
    assert!(size_of::<Stats>() == 8);
    assert!(offset_of!(AtomicNode, stats) == offset_of!(Node, visits));
    assert!(offset_of!(Node, stat) == offset_of!(Node, visits) + 4);
    assert!(offset_of!(AtomicNode, first_child) == offset_of!(Node, first_child));
    assert!(offset_of!(AtomicNode, value) == offset_of!(Node, value));
    assert!(offset_of!(AtomicNode, mv) == offset_of!(Node, mv));
    assert!(offset_of!(AtomicNode, children) == offset_of!(Node, children));
    assert!(offset_of!(AtomicNode, added) == offset_of!(Node, added));
    assert!(offset_of!(AtomicNode, proven) == offset_of!(Node, proven));
    assert!(offset_of!(AtomicNode, flags) == offset_of!(Node, flags));
    assert!(size_of::<Proven>() == 1);
};

/// `nodes` as atomics, for as long as the exclusive borrow lasts.
#[allow(unsafe_code)]
pub(crate) fn view(nodes: &mut [Node]) -> &[AtomicNode] {
    // SAFETY: `AtomicNode` has `Node`'s size, alignment and field offsets (checked at compile
    // time above), and each atomic has the size and bit validity of the integer it replaces
    // (`f32` fields are read and written as their bits, which every `u32` is a valid pattern
    // of). The `&mut` borrow makes this view the only way to the memory while it lives, so no
    // non-atomic access can race with the atomic ones. Every value the parallel search stores
    // is a valid `Node` field: `proven` only ever receives the discriminants of `Proven`
    // (`store_proven`), so the memory is a valid `[Node]` again when the borrow ends.
    unsafe { core::slice::from_raw_parts(nodes.as_mut_ptr().cast::<AtomicNode>(), nodes.len()) }
}

impl AtomicNode {
    /// The solver value.
    #[inline(always)]
    pub(crate) fn proven(&self) -> Proven {
        decode_proven(self.proven.load(Ordering::Acquire))
    }

    /// The solver value, read with sequential consistency (see `Shared::refresh`).
    #[inline]
    pub(crate) fn proven_seq_cst(&self) -> Proven {
        decode_proven(self.proven.load(Ordering::SeqCst))
    }

    /// Records a proof. Proofs are exact game values and never change once made, so a proof is
    /// only written over `Unknown`; a refresh that raced with the proving one cannot undo it.
    #[inline]
    pub(crate) fn store_proven(&self, p: Proven) {
        let _ = self.proven.compare_exchange(
            Proven::Unknown as i8,
            p as i8,
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
    }

    /// Flag bits ([`flag`]), with acquire ordering: a node seen `EXPANDED` shows its children.
    #[inline(always)]
    pub(crate) fn flags(&self) -> u8 {
        self.flags.load(Ordering::Acquire)
    }

    /// `visits` and `stat`, read together (one load where the target has 64-bit atomics).
    #[inline(always)]
    pub(crate) fn stats(&self) -> (u32, f32) {
        self.stats.load()
    }

    #[inline(always)]
    pub(crate) fn visits(&self) -> u32 {
        self.stats.load().0
    }

    #[inline(always)]
    pub(crate) fn value(&self) -> f32 {
        f32::from_bits(self.value.load(Ordering::Relaxed))
    }

    /// Sets the value of a node no other thread can reach yet.
    #[inline(always)]
    pub(crate) fn set_value(&self, v: f32) {
        self.value.store(v.to_bits(), Ordering::Relaxed);
    }

    /// The implicit value a parent backs up from this node: a proven node's proven reward
    /// (its `value` may not have been written yet by the thread that proved it), else `value`.
    #[inline(always)]
    pub(crate) fn backed_value(&self) -> f32 {
        self.proven().reward().unwrap_or_else(|| self.value())
    }

    /// Mean reward for the mover into the node; `0` before any visit. Where `visits` and
    /// `reward` are two atomics they are read separately, so under concurrency the pair can be
    /// one update apart (see docs/parallel.md: an estimate off by one simulation).
    #[inline(always)]
    pub(crate) fn mean(&self) -> f32 {
        let (n, b) = self.stats();
        stats::mean(n, b)
    }

    /// Adds `visits` (wrapping, so `1 - vl` works) and `reward` to the statistics: one
    /// compare-and-swap loop on the pair where the target has 64-bit atomics, else the two words
    /// under a spin lock ([`stats::add`]).
    #[inline(always)]
    pub(crate) fn add(&self, visits: u32, reward: f32) {
        self.stats.add(visits, reward);
    }

    /// Sets the statistics of a node no other thread can reach yet: `visits` visits whose
    /// rewards add up to `sum` (node priors: fewer visits than [`stats::MEAN_FROM`]).
    #[inline(always)]
    pub(crate) fn set_stats(&self, visits: u32, sum: f32) {
        let mut n = Node::EMPTY;
        n.set_stats(visits, sum);
        self.stats.store(n.visits, n.stat);
    }

    /// Whether the mover into the node is the second player.
    #[inline(always)]
    pub(crate) fn mover_second(flags: u8) -> bool {
        flags & flag::MOVER_SECOND != 0
    }

    /// Writes a blank node (only for nodes no other thread can reach yet).
    #[inline]
    pub(crate) fn clear(&self) {
        let e = Node::EMPTY;
        self.stats.store(e.visits, e.stat);
        self.first_child.store(e.first_child, Ordering::Relaxed);
        self.value.store(e.value.to_bits(), Ordering::Relaxed);
        self.mv.store(e.mv, Ordering::Relaxed);
        self.children.store(e.children, Ordering::Relaxed);
        self.added.store(e.added, Ordering::Relaxed);
        self.proven.store(e.proven as i8, Ordering::Relaxed);
        self.flags.store(e.flags, Ordering::Relaxed);
    }
}

/// A `Proven` from its discriminant (anything else reads as `Unknown`).
#[inline(always)]
fn decode_proven(p: i8) -> Proven {
    match p {
        -1 => Proven::Loss,
        0 => Proven::Draw,
        1 => Proven::Win,
        _ => Proven::Unknown,
    }
}

impl crate::search::mcts::SelectChild for AtomicNode {
    #[inline(always)]
    fn proven(&self) -> Proven {
        AtomicNode::proven(self)
    }
    #[inline(always)]
    fn stats(&self) -> (u32, f32) {
        AtomicNode::stats(self)
    }
    #[inline(always)]
    fn flags(&self) -> u8 {
        AtomicNode::flags(self)
    }
    #[inline(always)]
    fn value(&self) -> f32 {
        AtomicNode::value(self)
    }
    #[inline(always)]
    fn move_code(&self) -> u16 {
        self.mv.load(Ordering::Relaxed)
    }
}
