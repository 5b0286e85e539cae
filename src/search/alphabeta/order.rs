//! Lazy static move ordering: the table move first, then [`Game::order_class`] descending,
//! generation order within a class.
//!
//! Move lists are the game's own fixed-capacity type, which the search cannot reorder in place,
//! so the order is produced lazily: one pass records which classes occur (and caches the classes
//! of the first [`CLASS_CACHE`] moves), then each class is yielded in turn by a scan of the list.
//! After a cutoff the remaining scans never happen, and a position whose moves all share one
//! class (the common case) costs one pass.

use crate::game::Game;

/// Moves whose class is cached; later moves recompute it during the scans.
const CLASS_CACHE: usize = 64;

/// An iterator-like cursor over a node's moves in search order. `next` must be called with the
/// position the moves were generated in (after the child's undo).
pub(super) struct MoveOrder<M: Copy> {
    /// Yielded before everything else, then skipped in the scans.
    first: Option<M>,
    first_done: bool,
    /// Bit `c` set if some move not yet scanned has class `c`.
    present: [u64; 4],
    /// The class being scanned and the position of the scan.
    class: u8,
    index: usize,
    /// All moves share one class: no class checks during the scan.
    single_class: bool,
    /// Nothing left to yield.
    done: bool,
    classes: [u8; CLASS_CACHE],
}

impl<M: Copy + Eq> MoveOrder<M> {
    /// Prepares the order of `moves` (legal in `game`); `first`, if given, must be one of them.
    #[inline]
    pub(super) fn new<G: Game<Move = M>>(game: &G, moves: &[M], first: Option<M>) -> Self {
        let mut o = MoveOrder {
            first,
            first_done: first.is_none(),
            present: [0; 4],
            class: 0,
            index: 0,
            single_class: true,
            done: moves.is_empty(),
            classes: [0; CLASS_CACHE],
        };
        let mut seen: Option<u8> = None;
        for (i, &mv) in moves.iter().enumerate() {
            let c = game.order_class(mv);
            if let Some(slot) = o.classes.get_mut(i) {
                *slot = c;
            }
            o.present[(c >> 6) as usize] |= 1 << (c & 63);
            match seen {
                None => seen = Some(c),
                Some(s) if s != c => o.single_class = false,
                _ => {}
            }
        }
        if let Some(top) = o.highest() {
            o.class = top;
        }
        o
    }

    /// The highest class still present.
    fn highest(&self) -> Option<u8> {
        (0..4)
            .rev()
            .find(|&w| self.present[w] != 0)
            .map(|w| (w as u32 * 64 + 63 - self.present[w].leading_zeros()) as u8)
    }

    /// The next move to search, or `None` when all were yielded.
    #[inline]
    pub(super) fn next<G: Game<Move = M>>(&mut self, game: &G, moves: &[M]) -> Option<M> {
        if !self.first_done {
            self.first_done = true;
            return self.first;
        }
        while !self.done {
            while self.index < moves.len() {
                let i = self.index;
                self.index += 1;
                let mv = moves[i];
                if Some(mv) == self.first {
                    continue;
                }
                if self.single_class {
                    return Some(mv);
                }
                let c = match self.classes.get(i) {
                    Some(&c) => c,
                    None => game.order_class(mv),
                };
                if c == self.class {
                    return Some(mv);
                }
            }
            // This class is exhausted: go on with the next lower one present.
            let c = self.class;
            self.present[(c >> 6) as usize] &= !(1 << (c & 63));
            self.index = 0;
            match self.highest() {
                Some(next) if !self.single_class => self.class = next,
                _ => self.done = true,
            }
        }
        None
    }
}
