//! The optional transposition table of the αβ search, in memory the caller provides.

/// The kind of value a [`TtEntry`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Bound {
    /// The exact minimax value at the stored depth.
    Exact = 1,
    /// A lower bound (the search failed high).
    Lower = 2,
    /// An upper bound (the search failed low).
    Upper = 3,
}

/// `meta` bits: the bound in bits 0–1 (0 = empty slot), "has a move" in bit 2, "resolved" in
/// bit 3, the search generation in bits 4–7.
const BOUND_MASK: u8 = 0b11;
const HAS_MOVE: u8 = 0b100;
const RESOLVED: u8 = 0b1000;
const GEN_SHIFT: u32 = 4;
const GEN_MASK: u8 = 0b1111;

/// One slot of a [`TranspositionTable`]: 16 bytes.
///
/// Holds the full 64-bit [`Game::key`](crate::Game::key) of the position (so a probe only
/// matches the very same key), the searched depth, the value with its bound, and the best move
/// as [`Game::encode_move`](crate::Game::encode_move) gave it, and whether the value was
/// resolved without any heuristic leaf (so a drawn game can stop deepening). Create slots with
/// [`TtEntry::EMPTY`] (or `Default`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TtEntry {
    pub(crate) key: u64,
    /// Stored relative to the node: proven scores count plies from this position, not the root.
    pub(crate) value: f32,
    pub(crate) mv: u16,
    pub(crate) depth: u8,
    pub(crate) meta: u8,
}

impl TtEntry {
    /// An empty slot.
    pub const EMPTY: TtEntry = TtEntry {
        key: 0,
        value: 0.0,
        mv: 0,
        depth: 0,
        meta: 0,
    };

    /// Whether the slot holds nothing.
    pub fn is_empty(&self) -> bool {
        self.meta & BOUND_MASK == 0
    }

    pub(crate) fn bound(&self) -> Option<Bound> {
        match self.meta & BOUND_MASK {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }

    pub(crate) fn move_code(&self) -> Option<u16> {
        (self.meta & HAS_MOVE != 0).then_some(self.mv)
    }

    /// Whether the value came from a subtree whose leaves were all finished games (no heuristic
    /// leaf, no unresolved table hit): it then holds at any depth.
    pub(crate) fn resolved(&self) -> bool {
        self.meta & RESOLVED != 0
    }

    fn generation(&self) -> u8 {
        self.meta >> GEN_SHIFT
    }
}

/// A fixed-capacity transposition table over a slice the caller owns.
///
/// - **Indexing:** one slot per position, chosen from the key by a multiply-high reduction, so
///   any slice length works (a power of two is not required).
/// - **Verification:** a slot is used only if its stored 64-bit key equals the probed key; the
///   search additionally checks the stored move with
///   [`Game::is_legal`](crate::Game::is_legal) before playing it.
/// - **Replacement — depth-preferred with aging:** a store overwrites the slot if the slot is
///   empty, holds the same position, was written by an earlier search (each call of
///   [`search`](super::search) starts a new generation), or holds a result of the same or a
///   smaller depth. Otherwise the deeper entry of the current search is kept. When the same
///   position is stored without a best move (a fail-low), the old move is kept.
/// - A zero-length slice is a valid table that stores nothing: the same as passing no table.
///
/// The table can be reused across searches (it keeps helping move ordering) or [`clear`]ed.
///
/// [`clear`]: TranspositionTable::clear
#[derive(Debug)]
pub struct TranspositionTable<'a> {
    entries: &'a mut [TtEntry],
    generation: u8,
}

impl<'a> TranspositionTable<'a> {
    /// A table over `entries`. Their content is kept: pass empty slots (e.g.
    /// `[TtEntry::EMPTY; N]`) or [`clear`](TranspositionTable::clear) first.
    pub fn new(entries: &'a mut [TtEntry]) -> Self {
        TranspositionTable {
            entries,
            generation: 0,
        }
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no slots at all (it then stores nothing).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        self.entries.fill(TtEntry::EMPTY);
        self.generation = 0;
    }

    /// The number of occupied slots (walks the whole table; for statistics and tests).
    pub fn occupied(&self) -> usize {
        self.entries.iter().filter(|e| !e.is_empty()).count()
    }

    /// Starts a new search: entries of earlier searches become replaceable.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation + 1) & GEN_MASK;
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<TtEntry> {
        if self.entries.is_empty() {
            return None;
        }
        let e = self.entries[self.index(key)];
        (!e.is_empty() && e.key == key).then_some(e)
    }

    /// Stores a search result for `key` under the replacement policy above.
    #[inline]
    pub(crate) fn store(
        &mut self,
        key: u64,
        depth: u32,
        value: f32,
        bound: Bound,
        mv: Option<u16>,
        resolved: bool,
    ) {
        if self.entries.is_empty() {
            return;
        }
        let i = self.index(key);
        let generation = self.generation;
        let slot = &mut self.entries[i];
        let depth = depth.min(u8::MAX as u32) as u8;
        let same = !slot.is_empty() && slot.key == key;
        let replace =
            slot.is_empty() || same || slot.generation() != generation || depth >= slot.depth;
        if !replace {
            return;
        }
        let (code, has) = match (mv, same) {
            (Some(c), _) => (c, true),
            (None, true) => (slot.mv, slot.meta & HAS_MOVE != 0),
            (None, false) => (0, false),
        };
        *slot = TtEntry {
            key,
            value,
            mv: code,
            depth,
            meta: bound as u8
                | if has { HAS_MOVE } else { 0 }
                | if resolved { RESOLVED } else { 0 }
                | generation << GEN_SHIFT,
        };
    }
}
