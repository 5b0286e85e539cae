//! The node pool: nodes in memory the caller provides, handed out by bump allocation.
//!
//! Children of a node are allocated together as one contiguous block, so a node needs only
//! `(first_child, children)`. Running out of room is a normal outcome: [`Pool::alloc`] returns
//! `None` and the search keeps working on the tree it has. Tree reuse compacts the subtree of a
//! played move to the front of the pool ([`Pool::compact_to`]) in linear time without extra
//! memory.

use super::node::{Node, NodeId, ScanCache, flag, has_header};

/// A bump allocator of [`Node`]s over a caller-provided slice.
#[derive(Debug)]
pub struct Pool<'a> {
    nodes: &'a mut [Node],
    len: u32,
}

impl<'a> Pool<'a> {
    /// A pool over `nodes`. Only the first `u32::MAX - 1` nodes are ever used.
    pub fn new(nodes: &'a mut [Node]) -> Self {
        Pool { nodes, len: 0 }
    }

    /// How many nodes the pool can hold.
    #[inline]
    pub fn capacity(&self) -> u32 {
        self.nodes.len().min(u32::MAX as usize - 1) as u32
    }

    /// How many nodes are in use.
    #[inline]
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether no node is in use.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Declares the first `len` nodes in use again (after [`super::mcts::Mcts::resume`]),
    /// if they fit and their child links stay inside them; otherwise empties the pool and
    /// returns `false`. Checking the links keeps a stale or foreign buffer from sending the
    /// search out of bounds.
    pub fn restore_len(&mut self, len: u32) -> bool {
        if len > self.capacity() {
            self.len = 0;
            return false;
        }
        let ok = self.nodes[..len as usize].iter().all(|n| {
            n.flags & flag::EXPANDED == 0
                || (n.first_child as u64 + n.children as u64 <= len as u64 && n.added <= n.children)
        });
        self.len = if ok { len } else { 0 };
        ok
    }

    /// Declares the first `len` nodes in use again without checking their links (an empty
    /// pool if `len` does not fit), for read-only walks that follow links only through
    /// [`children_checked`](Self::children_checked): [`super::mcts::MctsState::inspect`].
    /// O(1), where [`restore_len`](Self::restore_len) reads every node.
    pub(crate) fn assume_len(&mut self, len: u32) {
        self.len = if len <= self.capacity() { len } else { 0 };
    }

    /// All the pool's slots (used or not) and its length, for the parallel search
    /// ([`super::parallel`]), which shares them between threads and hands the length back
    /// through [`restore_len`](Self::restore_len).
    #[cfg(all(
        target_has_atomic = "8",
        target_has_atomic = "16",
        target_has_atomic = "32"
    ))]
    pub(crate) fn slots_mut(&mut self) -> &mut [Node] {
        let cap = self.capacity() as usize;
        &mut self.nodes[..cap]
    }

    /// Forgets every node.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Allocates `count` contiguous blank nodes; `None` (and nothing allocated) if they don't fit.
    #[inline]
    pub fn alloc(&mut self, count: u32) -> Option<NodeId> {
        let start = self.len;
        let end = start.checked_add(count)?;
        if end > self.capacity() {
            return None;
        }
        self.nodes[start as usize..end as usize].fill(Node::EMPTY);
        self.len = end;
        Some(NodeId(start))
    }

    /// Like [`alloc`](Self::alloc), each new node written once as `make(i)` gives it (`i` from
    /// 0): an expansion that knows its children's fields at once skips the blank fill. `make`
    /// runs only when the nodes fit.
    #[inline]
    pub fn alloc_with(&mut self, count: u32, make: impl FnMut(u32) -> Node) -> Option<NodeId> {
        self.alloc_block(count, false, make)
    }

    /// A block of `count` children, as [`alloc_with`](Self::alloc_with), behind a blank header
    /// slot ([`ScanCache`]) when the block size has one ([`has_header`]): what expansions call.
    /// Returns the first child.
    #[inline]
    pub(crate) fn alloc_children(
        &mut self,
        count: u32,
        make: impl FnMut(u32) -> Node,
    ) -> Option<NodeId> {
        let header = u16::try_from(count).is_ok_and(has_header);
        self.alloc_block(count, header, make)
    }

    #[inline(always)]
    fn alloc_block(
        &mut self,
        count: u32,
        header: bool,
        mut make: impl FnMut(u32) -> Node,
    ) -> Option<NodeId> {
        let start = self.len;
        let first = start + u32::from(header);
        let end = first.checked_add(count)?;
        if end > self.capacity() {
            return None;
        }
        if header {
            self.nodes[start as usize] = Node::EMPTY;
        }
        for (i, slot) in self.nodes[first as usize..end as usize]
            .iter_mut()
            .enumerate()
        {
            *slot = make(i as u32);
        }
        self.len = end;
        Some(NodeId(first))
    }

    /// The scan cache in the header in front of the children block starting at `first`, if
    /// the block has a header ([`has_header`] of `children`) and the header holds one. A slot
    /// outside the pool (a corrupted tree) holds none.
    #[cfg(not(feature = "compact-code"))]
    #[inline(always)]
    pub(crate) fn scan_cache(&self, first: u32, children: u16) -> Option<ScanCache> {
        if !has_header(children) {
            return None;
        }
        let slot = self.nodes.get((first as usize).wrapping_sub(1))?;
        ScanCache::from_node(slot)
    }

    /// Writes (or with `None` clears) the scan cache in the header in front of the children
    /// block starting at `first`; nothing if the block has no header.
    #[inline(always)]
    pub(crate) fn set_scan_cache(&mut self, first: u32, children: u16, cache: Option<ScanCache>) {
        if !has_header(children) {
            return;
        }
        if let Some(slot) = self.nodes.get_mut((first as usize).wrapping_sub(1)) {
            *slot = cache.map_or(Node::EMPTY, ScanCache::to_node);
        }
    }

    /// The node `id`. `id` must have been allocated.
    #[inline(always)]
    pub fn get(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// The node `id`, mutably.
    #[inline(always)]
    pub fn get_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    /// The child slots of `id` that have been entered into the tree (see [`Node`]'s `added`).
    #[inline(always)]
    pub fn children(&self, id: NodeId) -> &[Node] {
        let n = &self.nodes[id.index()];
        if n.flags & flag::EXPANDED == 0 {
            return &[];
        }
        let start = n.first_child as usize;
        &self.nodes[start..start + n.added as usize]
    }

    /// [`children`](Self::children) for any `id` and any links: empty where the id or the
    /// links leave the pool's slots, so a walk over an unchecked tree cannot panic (the
    /// final move and the principal variation, also over a tree whose links were not checked:
    /// [`MctsState::inspect`](super::mcts::MctsState::inspect)).
    pub fn children_checked(&self, id: NodeId) -> &[Node] {
        let Some(n) = self.nodes.get(id.index()) else {
            return &[];
        };
        if n.flags & flag::EXPANDED == 0 {
            return &[];
        }
        self.nodes
            .get(n.first_child as usize..)
            .and_then(|rest| rest.get(..n.added as usize))
            .unwrap_or(&[])
    }

    /// The sum of the visits of `id`'s children (UCT's parent count with node or evaluation
    /// priors). Not generic, so `compact-code` builds keep one copy for every game.
    #[cfg_attr(feature = "compact-code", inline(never))]
    #[cfg_attr(not(feature = "compact-code"), inline(always))]
    pub(crate) fn children_visits(&self, id: NodeId) -> u32 {
        self.children(id).iter().map(|c| c.visits).sum()
    }

    /// The header slots of the used nodes ([`ScanCache`]), in index order: for the tests,
    /// which check or compare trees node by node.
    #[cfg(test)]
    pub(crate) fn header_slots(&self) -> std::vec::Vec<usize> {
        let mut slots: std::vec::Vec<usize> = self.nodes[..self.len as usize]
            .iter()
            .filter(|n| n.flags & flag::EXPANDED != 0 && has_header(n.children))
            .map(|n| n.first_child as usize - 1)
            .collect();
        slots.sort_unstable();
        slots
    }

    /// Makes the subtree under `new_root` the whole tree, moved to the front of the pool with
    /// `new_root` at index 0. Linear in the pool length, no extra memory.
    ///
    /// Works because a block of children is always allocated after its parent: a scan in index
    /// order meets every parent before its children. Pass 1 marks the subtree and rewrites each
    /// kept parent's `first_child` to the block's *new* index, borrowing the first child's
    /// `first_child` field to carry the parent's index until the scan reaches that child.
    /// Pass 2 slides the kept nodes down in order (new index ≤ old index, so nothing unread is
    /// overwritten).
    pub fn compact_to(&mut self, new_root: NodeId) {
        let len = self.len as usize;
        let r = new_root.index();
        if r >= len {
            self.clear();
            return;
        }
        for n in &mut self.nodes[r..len] {
            n.flags &= !flag::KEEP;
        }
        self.nodes[r].flags |= flag::KEEP;
        let mut kept = 0u32;
        for i in r..len {
            if self.nodes[i].flags & flag::KEEP == 0 {
                continue;
            }
            let new_index = kept;
            kept += 1;
            // If this node is the first child of a kept parent, the parent's index was parked
            // in our `first_child` and our own `first_child` in the parent's: swap them back and
            // point the parent at our new index.
            if self.nodes[i].flags & flag::PARKED != 0 {
                let parent = self.nodes[i].first_child as usize;
                self.nodes[i].first_child = self.nodes[parent].first_child;
                self.nodes[parent].first_child = new_index;
                self.nodes[i].flags &= !flag::PARKED;
            }
            let node = self.nodes[i];
            if node.flags & flag::EXPANDED != 0 && node.children > 0 {
                let f = node.first_child as usize;
                for c in &mut self.nodes[f..f + node.children as usize] {
                    c.flags |= flag::KEEP;
                }
                // The block's header goes with it, and stays in front of it: no kept node
                // lies between them.
                if has_header(node.children) && f > 0 {
                    self.nodes[f - 1].flags |= flag::KEEP;
                }
                // Park: the parent holds the child's own first_child, the child holds the parent.
                self.nodes[i].first_child = self.nodes[f].first_child;
                self.nodes[f].first_child = i as u32;
                self.nodes[f].flags |= flag::PARKED;
            }
        }
        let mut k = 0usize;
        for i in r..len {
            if self.nodes[i].flags & flag::KEEP != 0 {
                let mut n = self.nodes[i];
                n.flags &= !flag::KEEP;
                self.nodes[k] = n;
                k += 1;
            }
        }
        self.len = kept;
    }
}
