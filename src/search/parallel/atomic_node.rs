//! The caller's node memory seen as atomics, so several threads can search one tree in it.
//!
//! [`AtomicNode`] has [`Node`]'s exact layout with every field an atomic of the same size. The
//! parallel search borrows the pool's `&mut [Node]` and reads and writes it through
//! [`view`] as `&[AtomicNode]` for the duration of the search; when the borrow ends the same
//! memory is an ordinary tree again, which the single-threaded code (best move, principal
//! variation, tree reuse, the next search) reads as before.

use super::super::node::{Node, Proven, flag};
use core::mem::{align_of, offset_of, size_of};
#[cfg(target_has_atomic = "64")]
use core::sync::atomic::AtomicU64;
use core::sync::atomic::{AtomicI8, AtomicU8, AtomicU16, AtomicU32, Ordering};

/// [`Node`] with atomic fields (see the module documentation). `reward` and `value` hold the
/// bits of an `f32`; `proven` the discriminant of a [`Proven`].
///
/// Where the target has 64-bit atomics, `visits` and `reward` (the first eight bytes, 8-byte
/// aligned) are one [`Stats`] word, read with one load and updated with one compare-and-swap,
/// so a reader always sees a pair from the same moment and a virtual loss or a backup is one
/// read-modify-write instead of two. Elsewhere they are two 32-bit atomics.
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

/// `visits` and the bits of `reward` as one 64-bit word, in memory order (`visits` first).
#[cfg(target_has_atomic = "64")]
#[repr(transparent)]
struct Stats(AtomicU64);

/// `visits` and the bits of `reward`, two 32-bit words.
#[cfg(not(target_has_atomic = "64"))]
#[repr(C)]
struct Stats {
    visits: AtomicU32,
    reward: AtomicU32,
}

/// The shifts of `visits` and of `reward`'s bits in the 64-bit word that holds them in memory
/// order (`visits` at the lower address).
#[cfg(all(target_has_atomic = "64", target_endian = "little"))]
const SHIFTS: (u32, u32) = (0, 32);
#[cfg(all(target_has_atomic = "64", target_endian = "big"))]
const SHIFTS: (u32, u32) = (32, 0);

#[cfg(target_has_atomic = "64")]
impl Stats {
    #[inline(always)]
    fn pack(visits: u32, reward: f32) -> u64 {
        (u64::from(visits) << SHIFTS.0) | (u64::from(reward.to_bits()) << SHIFTS.1)
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
    fn store(&self, visits: u32, reward: f32) {
        self.0.store(Self::pack(visits, reward), Ordering::Relaxed);
    }

    #[inline(always)]
    fn add(&self, visits: u32, reward: f32) {
        let mut cur = self.0.load(Ordering::Relaxed);
        loop {
            let (n, r) = Self::unpack(cur);
            let new = Self::pack(n.wrapping_add(visits), r + reward);
            match self
                .0
                .compare_exchange_weak(cur, new, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return,
                Err(seen) => cur = seen,
            }
        }
    }
}

#[cfg(not(target_has_atomic = "64"))]
impl Stats {
    #[inline(always)]
    fn load(&self) -> (u32, f32) {
        (
            self.visits.load(Ordering::Relaxed),
            f32::from_bits(self.reward.load(Ordering::Relaxed)),
        )
    }

    #[inline(always)]
    fn store(&self, visits: u32, reward: f32) {
        self.visits.store(visits, Ordering::Relaxed);
        self.reward.store(reward.to_bits(), Ordering::Relaxed);
    }

    #[inline(always)]
    fn add(&self, visits: u32, reward: f32) {
        if visits != 0 {
            self.visits.fetch_add(visits, Ordering::Relaxed);
        }
        let mut cur = self.reward.load(Ordering::Relaxed);
        loop {
            let new = (f32::from_bits(cur) + reward).to_bits();
            match self
                .reward
                .compare_exchange_weak(cur, new, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return,
                Err(seen) => cur = seen,
            }
        }
    }
}

// The layouts agree field by field, so a `Node` and an `AtomicNode` are the same bytes.
const _: () = {
    assert!(size_of::<AtomicNode>() == size_of::<Node>());
    assert!(align_of::<AtomicNode>() == align_of::<Node>());
    assert!(size_of::<Stats>() == 8);
    assert!(offset_of!(AtomicNode, stats) == offset_of!(Node, visits));
    assert!(offset_of!(Node, reward) == offset_of!(Node, visits) + 4);
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

    /// `visits` and `reward`, read together (one load where the target has 64-bit atomics).
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
        let (n, r) = self.stats();
        if n == 0 { 0.0 } else { r / n as f32 }
    }

    /// Adds `visits` (wrapping, so `1 - vl` works) and `reward` to the statistics: one
    /// compare-and-swap loop on the pair where the target has 64-bit atomics, else a
    /// `fetch_add` and a compare-and-swap loop on the `f32`'s bits.
    #[inline(always)]
    pub(crate) fn add(&self, visits: u32, reward: f32) {
        self.stats.add(visits, reward);
    }

    /// Sets the statistics of a node no other thread can reach yet.
    #[inline(always)]
    pub(crate) fn set_stats(&self, visits: u32, reward: f32) {
        self.stats.store(visits, reward);
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
        self.stats.store(e.visits, e.reward);
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
