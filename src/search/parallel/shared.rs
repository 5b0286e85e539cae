//! The tree several threads search at once, and one thread's simulation loop over it.
//!
//! The loop is [`Mcts`](super::super::mcts::Mcts)'s (select, expand, play out, back up) with
//! atomic node statistics, a virtual loss on the way down, and expansions claimed with a
//! compare-and-swap. docs/parallel.md lists the races this allows and why each is benign.

use super::super::config::{Expansion, MAX_ADDED_VISITS, MctsConfig};
use super::super::math::sqrt_ln;
use super::super::mcts::{
    CLOCK_INTERVAL, MAX_TREE_DEPTH, child_start, for_first, in_paper_code_order, score, score_kind,
    uct_choice,
};
use super::super::node::{NodeId, Proven, flag, has_header};
use super::super::{Budget, Clock, ROOT_VISIT_LIMIT, StopReason, playout};
use super::atomic_node::AtomicNode;
use crate::SearchRng;
use crate::game::{Game, MoveBuffer, Player};
use crate::rng::seeded;
use core::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, Ordering};

/// Simulation counters: 64-bit where the target has 64-bit atomics, else 32-bit (a search of
/// more than 4,294,967,295 simulations on such a target would wrap its count).
#[cfg(target_has_atomic = "64")]
type AtomicCount = core::sync::atomic::AtomicU64;
#[cfg(not(target_has_atomic = "64"))]
type AtomicCount = AtomicU32;

/// A counter's value as `u64`, and back (saturating).
#[cfg(target_has_atomic = "64")]
#[inline(always)]
fn wide(n: u64) -> u64 {
    n
}
#[cfg(target_has_atomic = "64")]
#[inline(always)]
fn narrow(n: u64) -> u64 {
    n
}
#[cfg(not(target_has_atomic = "64"))]
#[inline(always)]
fn wide(n: u32) -> u64 {
    u64::from(n)
}
#[cfg(not(target_has_atomic = "64"))]
#[inline(always)]
fn narrow(n: u64) -> u32 {
    n.min(u64::from(u32::MAX)) as u32
}

/// Simulations a thread claims at a time from a simulation budget.
const CLAIM: u64 = 16;

/// A value on a cache line of its own (128 bytes: two 64-byte lines, as adjacent-line
/// prefetchers fetch them in pairs), so that writes to it do not slow readers of its
/// neighbours.
#[repr(align(128))]
struct Line<T>(T);

/// `first_child` of a node whose children one thread is creating: never a pool index (pools
/// hold at most `u32::MAX - 1` nodes, so indices stop at `u32::MAX - 2`).
const CLAIMED: u32 = u32::MAX - 1;
const UNEXPANDED: u32 = u32::MAX;

/// No stop reason recorded yet.
const RUNNING: u8 = u8::MAX;

/// One step of a path: the node entered, the move that entered it, its undo, and whether its
/// statistics go through the thread's [`Batch`] (no virtual loss was put on it).
type Step<G> = (NodeId, <G as Game>::Move, <G as Game>::Undo, bool);

/// Visits from which a node's statistics are updated in batches ([`Batch`]): a node seen with
/// at least this many when a simulation enters it takes no virtual loss, and its backup is
/// added to the thread's batch. At these counts the batch's delay (at most [`BATCH_SIMS`]
/// simulations of each thread) moves a mean by under 1%, and one virtual loss moves UCT's score
/// less still.
const BATCH_VISITS: u32 = 4096;

/// Simulations a thread runs between two flushes of its batch.
const BATCH_SIMS: u32 = 16;

/// Node updates a batch holds; a further node is updated directly.
const BATCH_NODES: usize = 32;

/// One thread's pending updates of heavily visited nodes: `(node, visits, reward)` to add.
///
/// The nodes near the root are on nearly every simulation's path (Kalah: two simulations share
/// 3.2 of their 15 nodes at 300,000 simulations, `examples/parallel_cost.rs`), so updating them
/// at every simulation moves their cache lines between the cores at every simulation of every
/// thread. A batch writes each of them once per [`BATCH_SIMS`] simulations instead; the counts
/// are exact once the thread has flushed at its end.
struct Batch {
    items: heapless::Vec<(u32, u32, f32), BATCH_NODES>,
    sims: u32,
}

impl Batch {
    fn new() -> Self {
        Batch {
            items: heapless::Vec::new(),
            sims: 0,
        }
    }

    /// Adds a simulation's `visits` and `reward` for `node` to the batch (or to the node if
    /// the batch is full).
    #[inline(always)]
    fn add(&mut self, node: &AtomicNode, id: NodeId, visits: u32, reward: f32) {
        if let Some(e) = self.items.iter_mut().find(|e| e.0 == id.0) {
            e.1 += visits;
            e.2 += reward;
        } else if self.items.push((id.0, visits, reward)).is_err() {
            node.add(visits, reward);
        }
    }

    /// Writes every pending update to its node.
    fn flush(&mut self, nodes: &[AtomicNode]) {
        for &(id, visits, reward) in &self.items {
            nodes[id as usize].add(visits, reward);
        }
        self.items.clear();
        self.sims = 0;
    }
}

/// Everything the threads of one search share. Built by
/// [`Mcts::search_parallel`](super::super::mcts::Mcts::search_parallel); each thread runs
/// [`Shared::work`].
pub struct Shared<'t, G: Game> {
    nodes: &'t [AtomicNode],
    /// Nodes in use; written at every expansion, so on a cache line of its own.
    len: Line<AtomicU32>,
    capacity: u32,
    pub(crate) config: MctsConfig<G>,
    root: G,
    budget: Budget,
    virtual_loss: u32,
    /// Simulations handed out (only with a simulation budget), a few at a time.
    claimed: Line<AtomicCount>,
    /// Simulations finished (each thread adds its own count once, at its end).
    done: AtomicCount,
    /// Read before every simulation, written once: apart from the counters.
    stop: Line<AtomicBool>,
    reason: AtomicU8,
    pool_full: AtomicBool,
    start_us: u64,
}

/// How a thread's attempt to expand a node went.
enum Expanded {
    /// The node has children now (this thread's or another's).
    Yes,
    /// Another thread is creating them: treat the node as a leaf this time.
    Busy,
    /// No room in the pool.
    Full,
}

impl<'t, G: Game> Shared<'t, G> {
    /// The shared state over `nodes`, of which the first `len` are the tree (the root
    /// expanded).
    pub(crate) fn new(
        nodes: &'t [AtomicNode],
        len: u32,
        config: MctsConfig<G>,
        root: G,
        budget: Budget,
        virtual_loss: u32,
        start_us: u64,
    ) -> Self {
        Shared {
            capacity: nodes.len() as u32,
            nodes,
            len: Line(AtomicU32::new(len)),
            config,
            root,
            budget,
            // Beyond what a count can carry safely (`ROOT_VISIT_LIMIT`'s margin).
            virtual_loss: virtual_loss.min(MAX_ADDED_VISITS),
            claimed: Line(AtomicCount::new(0)),
            done: AtomicCount::new(0),
            stop: Line(AtomicBool::new(false)),
            reason: AtomicU8::new(RUNNING),
            pool_full: AtomicBool::new(false),
            start_us,
        }
    }

    /// Nodes in use.
    pub(crate) fn len(&self) -> u32 {
        self.len.0.load(Ordering::Acquire)
    }

    /// Simulations finished by all threads.
    pub(crate) fn simulations(&self) -> u64 {
        wide(self.done.load(Ordering::Acquire))
    }

    /// Whether some thread found the pool full.
    pub(crate) fn pool_full(&self) -> bool {
        self.pool_full.load(Ordering::Acquire)
    }

    /// The first stop reason recorded (`Iterations` if none: a thread ran out of its work).
    pub(crate) fn stop_reason(&self) -> StopReason {
        match self.reason.load(Ordering::Acquire) {
            1 => StopReason::Nodes,
            2 => StopReason::Time,
            3 => StopReason::Proven,
            5 => StopReason::PoolFull,
            8 => StopReason::VisitLimit,
            _ => StopReason::Iterations,
        }
    }

    /// Records `why` the search stopped, if it is the first reason.
    fn note(&self, why: StopReason) {
        let _ =
            self.reason
                .compare_exchange(RUNNING, why as u8, Ordering::AcqRel, Ordering::Relaxed);
    }

    /// Ends the search for every thread, recording `why` if it is the first reason.
    fn halt(&self, why: StopReason) {
        self.note(why);
        self.stop.0.store(true, Ordering::Release);
    }

    /// One thread's share of the search: simulations until a limit is reached or another
    /// thread stops the search. `index` (0, 1, …) seeds the thread's random generator; `clock`
    /// is given to one thread only (the one that checks the time budget; the others see its
    /// stop). Returns the simulations this thread ran.
    pub fn work(&self, index: u32, mut clock: Option<&mut dyn Clock>) -> u64 {
        super::super::math::prepare_tables();
        let mut rng = seeded(
            self.config
                .seed
                .wrapping_add(u64::from(index).wrapping_mul(0x9e37_79b9_7f4a_7c15)),
        );
        let mut game = self.root.clone();
        let max_sims = match (
            self.budget.iterations,
            self.budget.nodes,
            self.budget.time_us,
        ) {
            (None, None, None) => Some(1),
            (s, _, _) => s,
        };
        let mut mine: u64 = 0;
        let mut batch = Batch::new();
        // Simulations this thread has claimed and not yet run.
        let mut credit: u64 = 0;
        loop {
            if self.stop.0.load(Ordering::Acquire) {
                break;
            }
            if self.config.solver && self.nodes[0].proven() != Proven::Unknown {
                self.halt(StopReason::Proven);
                break;
            }
            // The root's count runs behind by the threads' batches at most, far less than the
            // limit's margin.
            if self.nodes[0].visits() >= ROOT_VISIT_LIMIT {
                self.halt(StopReason::VisitLimit);
                break;
            }
            if let Some(m) = max_sims {
                if credit == 0 {
                    credit = self.claim(m);
                    if credit == 0 {
                        // Only this thread is done: the others still run what they claimed.
                        self.note(StopReason::Iterations);
                        break;
                    }
                }
                credit -= 1;
            }
            if self.budget.nodes.is_some_and(|m| self.len() as u64 >= m) {
                self.halt(StopReason::Nodes);
                break;
            }
            if let (Some(t), Some(c)) = (self.budget.time_us, clock.as_mut()) {
                if mine.is_multiple_of(CLOCK_INTERVAL)
                    && c.now_us().saturating_sub(self.start_us) >= t
                {
                    self.halt(StopReason::Time);
                    break;
                }
            }
            let full = self.simulate(&mut game, &mut rng, &mut batch);
            mine += 1;
            batch.sims += 1;
            if batch.sims >= BATCH_SIMS {
                batch.flush(self.nodes);
            }
            if full {
                self.pool_full.store(true, Ordering::Release);
                if self.config.stop_when_full {
                    self.halt(StopReason::PoolFull);
                    break;
                }
            }
        }
        batch.flush(self.nodes);
        self.done.fetch_add(narrow(mine), Ordering::AcqRel);
        mine
    }

    /// Takes up to [`CLAIM`] of the `max` simulations not yet handed out; `0` once all are.
    /// Claiming a few at a time keeps the threads from meeting on this counter at every
    /// simulation; the total run is still exactly `max`.
    fn claim(&self, max: u64) -> u64 {
        let c = &self.claimed.0;
        let mut cur = c.load(Ordering::Relaxed);
        loop {
            let left = max.saturating_sub(wide(cur));
            if left == 0 {
                return 0;
            }
            let take = left.min(CLAIM);
            match c.compare_exchange_weak(
                cur,
                narrow(wide(cur) + take),
                Ordering::AcqRel,
                Ordering::Relaxed,
            ) {
                Ok(_) => return take,
                Err(seen) => cur = seen,
            }
        }
    }

    #[inline(always)]
    fn node(&self, id: NodeId) -> &AtomicNode {
        &self.nodes[id.index()]
    }

    /// Allocates `count` blank nodes (a compare-and-swap on the length, so two threads never
    /// get the same slots); `None` if they don't fit.
    fn alloc(&self, count: u32) -> Option<u32> {
        let mut start = self.len.0.load(Ordering::Relaxed);
        loop {
            let end = start.checked_add(count).filter(|&e| e <= self.capacity)?;
            match self
                .len
                .0
                .compare_exchange_weak(start, end, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => break,
                Err(seen) => start = seen,
            }
        }
        for n in &self.nodes[start as usize..(start + count) as usize] {
            n.clear();
        }
        Some(start)
    }

    /// One simulation (as `Mcts::simulate`): returns whether the pool was too full to expand.
    fn simulate(&self, game: &mut G, rng: &mut SearchRng, batch: &mut Batch) -> bool {
        let mut path: heapless::Vec<Step<G>, MAX_TREE_DEPTH> = heapless::Vec::new();
        let mut node = NodeId::ROOT;
        let mut full = false;
        let reward_first: f32 = loop {
            let n = self.node(node);
            let flags = n.flags();
            if node != NodeId::ROOT {
                if let Some(r) = n.proven().reward() {
                    break for_first(r, mover(flags));
                }
                if flags & flag::TERMINAL != 0 {
                    break game.outcome().map_or(0.0, |o| o.reward(Player::First));
                }
            }
            if flags & flag::EXPANDED == 0
                && (node == NodeId::ROOT || flags & flag::VISITED != 0)
                && path.len() < MAX_TREE_DEPTH
            {
                if let Expanded::Full = self.expand(node, game) {
                    full = true;
                }
            }
            // A node is played out from on its first visit even if the solver step
            // (`expand_lost_siblings`) has already expanded it, as in the one-thread search
            // (row B18 of docs/reproduction.md).
            let f = n.flags();
            if f & flag::EXPANDED != 0
                && path.len() < MAX_TREE_DEPTH
                && (node == NodeId::ROOT || f & flag::VISITED != 0)
            {
                let child = self.select(node, game, rng);
                let c = self.node(child);
                let Some(mv) = G::decode_move(c.mv.load(Ordering::Relaxed)) else {
                    break 0.0;
                };
                // Virtual loss: until this simulation backs up, the child counts `vl` more
                // visits, all lost, so the other threads prefer its siblings. A heavily
                // visited child is updated through the batch instead (see `Batch`).
                let batched = c.visits() >= BATCH_VISITS;
                if self.virtual_loss > 0 && !batched {
                    c.add(self.virtual_loss, -(self.virtual_loss as f32));
                }
                let u = game.make(mv);
                let _ = path.push((child, mv, u, batched));
                node = child;
                continue;
            }
            let mut scratch = game.clone();
            break playout::run(&mut scratch, &self.config, rng).0;
        };
        self.backpropagate(&path, reward_first, batch);
        // The paper's code's solver step on the way back up, as in the one-thread search
        // (`Mcts::expand_lost_siblings`, row B16 of docs/reproduction.md); once it has run, the
        // nodes above it take up the new proofs.
        let fix = self.config.solver && !self.config.text_solver;
        let mut dirty = false;
        while let Some((child, mv, u, _)) = path.pop() {
            game.undo(mv, u);
            if !fix {
                continue;
            }
            let parent = path.last().map_or(NodeId::ROOT, |s| s.0);
            if dirty {
                self.refresh(parent);
            }
            if self.node(child).proven() == Proven::Loss
                && self.node(parent).proven() == Proven::Unknown
            {
                if let Expanded::Full = self.expand_lost_siblings(parent, game) {
                    full = true;
                }
                dirty = true;
            }
        }
        full
    }

    /// The paper's code's solver step (as `Mcts::expand_lost_siblings`): a child of `node` has
    /// just been found a proven loss for the side to move at `node` (`game` is at `node`). Each
    /// child in turn, up to the first one that is not a proven loss, is expanded if it is
    /// still a leaf, so a child the opponent wins at once is proven at once. A child another
    /// thread is expanding ends the walk (its proof comes with that thread's expansion, and
    /// reaches `node` at a later backup). Returns `Full` if the pool had no room.
    fn expand_lost_siblings(&self, node: NodeId, game: &mut G) -> Expanded {
        let first = self.node(node).first_child.load(Ordering::Relaxed);
        // The siblings' proofs and values may change without a visit: a scan cache left in
        // the block's header by a one-thread search of this tree no longer holds.
        let children = self.node(node).children.load(Ordering::Relaxed);
        if has_header(children) {
            if let Some(h) = self.nodes.get((first as usize).wrapping_sub(1)) {
                h.clear();
            }
        }
        let mut outcome = Expanded::Yes;
        for (i, c) in self.children(node).iter().enumerate() {
            if c.proven() == Proven::Unknown && c.flags() & (flag::EXPANDED | flag::TERMINAL) == 0 {
                let Some(mv) = G::decode_move(c.mv.load(Ordering::Relaxed)) else {
                    break;
                };
                let u = game.make(mv);
                let r = self.expand(NodeId(first + i as u32), game);
                game.undo(mv, u);
                match r {
                    Expanded::Yes => {}
                    other => {
                        outcome = other;
                        break;
                    }
                }
            }
            if c.proven() != Proven::Loss {
                break;
            }
        }
        self.refresh(node);
        outcome
    }

    /// Claims `node` and creates its children (all of them, each evaluated, then the one-ply
    /// backup), publishing them with one release `fetch_or` of `EXPANDED`.
    fn expand(&self, node: NodeId, game: &mut G) -> Expanded {
        let n = self.node(node);
        if n.first_child
            .compare_exchange(UNEXPANDED, CLAIMED, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            // Someone else's claim, or their children are already published.
            return if n.flags() & flag::EXPANDED != 0 {
                Expanded::Yes
            } else {
                Expanded::Busy
            };
        }
        let mut moves = G::MoveList::default();
        let sorted = self.config.code_ties && game.legal_moves_in_paper_code_order(&mut moves);
        if !sorted {
            game.legal_moves(&mut moves);
        }
        let moves = moves.moves();
        let count = moves.len() as u32;
        if count == 0 {
            n.flags.fetch_or(flag::TERMINAL, Ordering::Release);
            n.first_child.store(UNEXPANDED, Ordering::Release);
            return Expanded::Yes;
        }
        // A block that has a header slot gets it here too, blank (`alloc` clears it), so that
        // the tree has the one-thread search's layout (`Pool::alloc_children`).
        let header = u32::from(has_header(count as u16));
        let Some(first) = self.alloc(count + header).map(|start| start + header) else {
            // Give the claim back: a later simulation may find room (fewer children).
            n.first_child.store(UNEXPANDED, Ordering::Release);
            return Expanded::Full;
        };
        let mover_flag = if game.side_to_move() == Player::Second {
            flag::MOVER_SECOND
        } else {
            0
        };
        // `code-ties`: the children in the paper's code's order, as `Mcts::expand` puts them.
        let order = if self.config.code_ties && !sorted {
            in_paper_code_order(game, moves)
        } else {
            None
        };
        for i in 0..moves.len() {
            let c = &self.nodes[(first + i as u32) as usize];
            let mv = moves[order.as_ref().map_or(i, |o| usize::from(o[i]))];
            c.mv.store(G::encode_move(mv), Ordering::Relaxed);
            c.flags.store(mover_flag, Ordering::Relaxed);
            self.init_child(c, mv, game);
        }
        n.children.store(count as u16, Ordering::Relaxed);
        n.added.store(count as u16, Ordering::Relaxed);
        n.first_child.store(first, Ordering::Relaxed);
        n.flags.fetch_or(flag::EXPANDED, Ordering::Release);
        self.refresh(node);
        Expanded::Yes
    }

    /// Fills in a new child (as `Mcts::init_child`) before anyone else can see it.
    fn init_child(&self, c: &AtomicNode, mv: G::Move, game: &mut G) {
        let start = child_start(&self.config, game, mv);
        c.set_value(start.value);
        if start.terminal {
            c.flags.fetch_or(flag::TERMINAL, Ordering::Relaxed);
        }
        if start.proven != Proven::Unknown {
            c.proven.store(start.proven as i8, Ordering::Relaxed);
        }
        if let Some((visits, reward)) = start.prior {
            c.set_stats(visits, reward);
        }
    }

    /// The first child and the number of children of an expanded node (acquire: its children
    /// are initialised).
    #[inline(always)]
    fn children(&self, node: NodeId) -> &[AtomicNode] {
        let n = self.node(node);
        if n.flags() & flag::EXPANDED == 0 {
            return &[];
        }
        let first = n.first_child.load(Ordering::Relaxed) as usize;
        let added = n.added.load(Ordering::Relaxed) as usize;
        &self.nodes[first..first + added]
    }

    /// Recomputes `node`'s proof and implicit value from its children (as `Mcts::refresh`).
    /// A proof is only ever added, never taken back ([`AtomicNode::store_proven`]); a value is
    /// not written over a proven node's.
    fn refresh(&self, node: NodeId) {
        let n = self.node(node);
        let children = self.children(node);
        let Some(first) = children.first() else {
            return;
        };
        let same = mover(first.flags()) == mover(n.flags());
        let sign = if same { 1.0 } else { -1.0 };
        if self.config.solver {
            let mut all_proven = true;
            let mut best = Proven::Loss;
            for c in children {
                match c.proven() {
                    Proven::Win => {
                        best = Proven::Win;
                        all_proven = true;
                        break;
                    }
                    Proven::Unknown => all_proven = false,
                    Proven::Draw => best = Proven::Draw,
                    Proven::Loss => {}
                }
            }
            if all_proven {
                let p = if same { best } else { best.flipped() };
                n.store_proven(p);
            } else if best == Proven::Draw {
                let bound = if same {
                    flag::AT_LEAST_DRAW
                } else {
                    flag::AT_MOST_DRAW
                };
                n.flags.fetch_or(bound, Ordering::Relaxed);
            }
        }
        if let Some(r) = n.proven().reward() {
            n.value.store(r.to_bits(), Ordering::SeqCst);
        } else if self.config.backs_up_values() {
            let max = children
                .iter()
                .map(AtomicNode::backed_value)
                .fold(f32::NEG_INFINITY, f32::max);
            let bits = (sign * max).to_bits();
            // Most backups leave the value as it was: then no store (and no cache line taken
            // from the other threads). Skipping cannot leave a stale value behind: the value
            // already there is the one we would write.
            if n.value.load(Ordering::Relaxed) != bits {
                n.value.store(bits, Ordering::SeqCst);
                // A thread may have proven the node between our reading `proven` and this
                // store, and written its value before ours. Sequentially consistent stores and
                // loads on both sides mean that then we see its proof here and put the proven
                // value back.
                if let Some(r) = n.proven_seq_cst().reward() {
                    n.value.store(r.to_bits(), Ordering::SeqCst);
                }
            }
        }
    }

    /// UCT selection (as `Mcts::select`) on atomic statistics, which include the other
    /// threads' virtual losses. Plain UCT (no heuristic mixing, no progressive bias) gets its
    /// own copy of the loop without those branches; every other kind of score takes the
    /// general loop (the single-threaded search also gives Eq. 2's mix a copy, with the whole
    /// simulation loop around it; here that is not measured).
    #[inline(always)]
    fn select(&self, node: NodeId, game: &G, rng: &mut SearchRng) -> NodeId {
        if score_kind(&self.config) == score::PLAIN {
            self.select_with::<{ score::PLAIN }>(node, game, rng)
        } else {
            self.select_with::<{ score::GENERAL }>(node, game, rng)
        }
    }

    #[inline(always)]
    fn select_with<const SCORE: u8>(&self, node: NodeId, game: &G, rng: &mut SearchRng) -> NodeId {
        let cfg = &self.config;
        let first = self.node(node).first_child.load(Ordering::Relaxed);
        let children = self.children(node);
        let parent_visits = if cfg.seeds_priors() {
            children.iter().map(AtomicNode::visits).sum()
        } else {
            self.node(node).visits()
        };
        let explore = cfg.uct_c * sqrt_ln(parent_visits);
        NodeId(first + uct_choice::<G, AtomicNode, SCORE>(cfg, children, explore, game, rng))
    }

    /// Backs the reward up the path (as `Mcts::backpropagate`), taking the virtual loss back:
    /// each node gains `1 - vl` visits and `reward + vl` (a batched node, which took no virtual
    /// loss, one visit and `reward` through the batch), so once every thread is done the
    /// counts are exactly those of the simulations run.
    fn backpropagate(&self, path: &[Step<G>], mut reward_first: f32, batch: &mut Batch) {
        let vl = self.virtual_loss;
        for i in (0..path.len()).rev() {
            let (id, _, _, batched) = path[i];
            let parent = if i == 0 { NodeId::ROOT } else { path[i - 1].0 };
            let c = self.node(id);
            // Set `VISITED` only if it is not yet: an unconditional read-modify-write would
            // take the node's cache line away from the other threads at every simulation.
            let mut flags = c.flags();
            if flags & flag::VISITED == 0 {
                flags = c.flags.fetch_or(flag::VISITED, Ordering::AcqRel);
            }
            let r = for_first(reward_first, mover(flags));
            if batched {
                batch.add(c, id, 1, r);
            } else {
                // `1 - vl` visits: wrapping arithmetic adds it even when it is negative.
                c.add(1u32.wrapping_sub(vl), r + vl as f32);
            }
            if let Some(t) = self.config.max_backprop {
                if c.visits() >= t && flags & flag::EXPANDED != 0 {
                    if let Some(m) = self.best_mean(id) {
                        reward_first = m;
                    }
                }
            }
            if self.config.backs_up_values() || c.proven() != Proven::Unknown {
                self.refresh(parent);
            }
        }
        // The root is on every path: from `BATCH_VISITS` on, its visit goes through the batch.
        let root = self.node(NodeId::ROOT);
        if root.visits() >= BATCH_VISITS {
            batch.add(root, NodeId::ROOT, 1, 0.0);
        } else {
            root.add(1, 0.0);
        }
        if root.flags() & flag::VISITED == 0 {
            root.flags.fetch_or(flag::VISITED, Ordering::Relaxed);
        }
    }

    /// Max-backprop: the best visited child's mean at `node`, as the first player's reward.
    fn best_mean(&self, node: NodeId) -> Option<f32> {
        let mut best: Option<(f32, Player)> = None;
        for c in self.children(node) {
            if c.visits() == 0 {
                continue;
            }
            let m = c.proven().reward().unwrap_or_else(|| c.mean());
            if best.is_none_or(|(b, _)| m > b) {
                best = Some((m, mover(c.flags())));
            }
        }
        best.map(|(m, mover)| for_first(m, mover))
    }
}

/// Whether a configuration can be searched by several threads: all-children expansion (the
/// unit a thread claims) and none of the BBQ options (their backups rewrite a node's whole
/// reward sum, which is not a commutative update).
pub fn supports<G: Game>(config: &MctsConfig<G>) -> bool {
    config.expansion == Expansion::AllChildren && !config.bbq.is_active()
}

#[inline(always)]
fn mover(flags: u8) -> Player {
    if AtomicNode::mover_second(flags) {
        Player::Second
    } else {
        Player::First
    }
}
