//! Players and sessions: what every host (the command line's search, match, engine and Gomocup
//! commands, the benchmark, the C ABI) runs, written once.
//!
//! - A [`Player`] is MCTS or αβ, built from a validated [`PlayerSpec`]. It keeps what lasts
//!   between searches (the MCTS searcher's state: configuration, generator, the position its
//!   tree belongs to) but not the memory it searches in: every call that touches the tree takes
//!   the caller's [`Memory`], so a C host can keep the player in a handle and the memory beside
//!   it, and a `no_std` host can use a static buffer. Every search answers with one
//!   [`Decision`], whatever the algorithm, with one [`Proven`] value.
//! - A [`Session`] is a game in progress: the position, a bounded undo history and a player,
//!   whose tree follows the moves played (tree reuse) and is forgotten on undo or a new
//!   position.

use crate::game::{Game, Outcome, Player as Side, Problem};
use crate::search::alphabeta::{self, PV_CAPACITY, Pv, TranspositionTable, TtEntry};
use crate::search::mcts::{Mcts, MctsState, SearchResult};
use crate::search::node::{Node, Proven};
#[cfg(all(
    target_has_atomic = "8",
    target_has_atomic = "16",
    target_has_atomic = "32"
))]
use crate::search::parallel::{ParallelSettings, Threads};
use crate::search::spec::PlayerSpec;
use crate::search::{Budget, Clock, StopReason};

/// The memory a [`Player`] searches in: MCTS tree nodes or an αβ transposition table.
///
/// A host that owns two buffers implements it with [`SplitMemory`]; the C ABI keeps one region
/// and reformats it when the algorithm changes (the MCTS tree is then gone, which the player
/// knows: it drops its tree when it switches algorithm).
pub trait Memory {
    /// The memory as tree nodes (reformatted if it held a table).
    fn nodes(&mut self) -> &mut [Node];
    /// The memory as transposition-table entries (reformatted if it held nodes).
    fn table(&mut self) -> &mut [TtEntry];
    /// The nodes if the memory holds a tree now, without reformatting anything; `None` if it
    /// holds a table.
    fn nodes_if_tree(&mut self) -> Option<&mut [Node]> {
        Some(self.nodes())
    }
}

/// Two separate buffers: nodes for MCTS, entries for αβ (either may be empty).
pub struct SplitMemory<'a> {
    /// The MCTS node pool.
    pub nodes: &'a mut [Node],
    /// The αβ transposition table.
    pub table: &'a mut [TtEntry],
}

impl Memory for SplitMemory<'_> {
    fn nodes(&mut self) -> &mut [Node] {
        self.nodes
    }
    fn table(&mut self) -> &mut [TtEntry] {
        self.table
    }
}

/// What a search decided, for MCTS and αβ alike.
pub struct Decision<G: Game> {
    /// The move to play; `None` only when the position is finished.
    pub best: Option<G::Move>,
    /// The value for the side to move in `[-1, 1]`. MCTS: the proven value, else the chosen
    /// child's mean reward. αβ: the root score (proven wins are `>=`
    /// [`alphabeta::PROVEN_WIN`]).
    pub value: f32,
    /// The game-theoretic value for the side to move, if the search proved it.
    pub proven: Proven,
    /// αβ: plies to the proven end of the game (`0` for a finished root); MCTS: `None`.
    pub proven_in: Option<u32>,
    /// MCTS: simulations run. αβ: nodes searched.
    pub simulations: u64,
    /// MCTS: tree nodes in use when the search stopped. αβ: nodes searched.
    pub nodes: u64,
    /// αβ: the last completed depth; MCTS: `0`.
    pub depth: u32,
    /// MCTS: whether the node pool ran out of room during the search.
    pub pool_full: bool,
    /// Why the search stopped.
    pub stop: StopReason,
    /// Microseconds spent by the host clock (`0` with [`crate::search::NoClock`]).
    pub elapsed_us: u64,
    /// αβ: the principal variation. MCTS: empty (read it from the tree with
    /// [`Player::principal_variation`]).
    pub pv: Pv<G>,
}

impl<G: Game> Clone for Decision<G> {
    fn clone(&self) -> Self {
        Decision {
            pv: self.pv.clone(),
            ..*self
        }
    }
}

impl<G: Game> core::fmt::Debug for Decision<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Decision")
            .field("best", &self.best)
            .field("value", &self.value)
            .field("proven", &self.proven)
            .field("simulations", &self.simulations)
            .field("nodes", &self.nodes)
            .field("stop", &self.stop)
            .finish_non_exhaustive()
    }
}

/// A searcher, MCTS or αβ, between searches. See the [module documentation](self).
pub struct Player<G: Game> {
    kind: Kind<G>,
}

enum Kind<G: Game> {
    Mcts(MctsState<G>),
    AlphaBeta(
        crate::search::config::Valid<alphabeta::AlphaBetaConfig<G>>,
        usize,
    ),
}

impl<G: Game> Player<G> {
    /// A player for a validated spec, with no tree yet.
    pub fn new(spec: PlayerSpec<G>) -> Self {
        Player {
            kind: match spec {
                PlayerSpec::Mcts(cfg) => Kind::Mcts(MctsState::new(cfg)),
                PlayerSpec::AlphaBeta(cfg, tt) => Kind::AlphaBeta(cfg, tt),
            },
        }
    }

    /// The configuration the player searches with.
    pub fn spec(&self) -> PlayerSpec<G> {
        match &self.kind {
            Kind::Mcts(state) => PlayerSpec::Mcts(state.valid_config()),
            Kind::AlphaBeta(cfg, tt) => PlayerSpec::AlphaBeta(*cfg, *tt),
        }
    }

    /// Switches to `spec`. The same MCTS configuration keeps the tree and the generator; any
    /// other change forgets the tree (its statistics depend on the configuration) and reseeds.
    pub fn configure(&mut self, spec: PlayerSpec<G>, memory: &mut impl Memory) {
        match (&mut self.kind, spec) {
            (Kind::Mcts(state), PlayerSpec::Mcts(cfg)) => {
                if state.config() != cfg.get() {
                    match memory.nodes_if_tree() {
                        Some(nodes) => state.run(nodes, |m| m.set_config(cfg)),
                        None => *state = MctsState::new(cfg),
                    }
                }
            }
            (_, spec) => *self = Player::new(spec),
        }
    }

    /// Whether the player runs MCTS.
    pub fn is_mcts(&self) -> bool {
        matches!(self.kind, Kind::Mcts(_))
    }

    /// Runs `f` on the MCTS searcher over `memory` (tree inspection: root children, the node
    /// pool); `None` for αβ or when the memory holds no tree.
    pub fn with_mcts<R>(
        &mut self,
        memory: &mut impl Memory,
        f: impl FnOnce(&mut Mcts<'_, G>) -> R,
    ) -> Option<R> {
        let Kind::Mcts(state) = &mut self.kind else {
            return None;
        };
        let nodes = memory.nodes_if_tree()?;
        Some(state.run(nodes, f))
    }

    /// Runs `f` on a read-only view of the MCTS tree in `memory` (root children, principal
    /// variation) without first checking the whole tree ([`MctsState::inspect`]): O(what `f`
    /// reads) where [`with_mcts`](Self::with_mcts) reads every node. `None` for αβ or when the
    /// memory holds no tree.
    pub fn inspect_mcts<R>(
        &self,
        memory: &mut impl Memory,
        f: impl FnOnce(&Mcts<'_, G>) -> R,
    ) -> Option<R> {
        let Kind::Mcts(state) = &self.kind else {
            return None;
        };
        let nodes = memory.nodes_if_tree()?;
        Some(state.inspect(nodes, f))
    }

    /// MCTS: the chosen move, then the most visited replies, from the last search's tree.
    pub fn principal_variation(&mut self, memory: &mut impl Memory) -> Pv<G> {
        let mut pv = Pv::<G>::new();
        self.inspect_mcts(memory, |m| m.principal_variation::<PV_CAPACITY>(&mut pv));
        pv
    }

    /// Searches `game` within `budget` and decides. `game` is left as it was.
    pub fn search<C: Clock>(
        &mut self,
        game: &mut G,
        budget: Budget,
        clock: &mut C,
        memory: &mut impl Memory,
    ) -> Decision<G> {
        match &mut self.kind {
            Kind::Mcts(state) => {
                mcts_decision(state.run(memory.nodes(), |m| m.search(game, budget, clock)))
            }
            Kind::AlphaBeta(cfg, entries) => {
                let table = memory.table();
                let n = (*entries).min(table.len());
                let mut tt = TranspositionTable::new(&mut table[..n]);
                let tt = if n > 0 { Some(&mut tt) } else { None };
                let start = clock.now_us();
                let r = alphabeta::search(game, cfg, budget, tt, clock);
                let proven = r.proven();
                Decision {
                    best: r.best_move,
                    value: r.value,
                    proven,
                    proven_in: match proven {
                        Proven::Win | Proven::Loss => {
                            alphabeta::proven_plies(r.value).map(i32::unsigned_abs)
                        }
                        _ => None,
                    },
                    simulations: r.nodes,
                    nodes: r.nodes,
                    depth: r.depth,
                    pool_full: false,
                    stop: r.stop,
                    elapsed_us: clock.now_us().saturating_sub(start),
                    pv: r.pv,
                }
            }
        }
    }

    /// [`search`](Self::search) on the threads `threads` lends (MCTS: several threads search
    /// one tree, see [`crate::search::parallel`]; αβ, one thread, and configurations the
    /// parallel search does not support: exactly [`search`](Self::search)). `clock` is read on
    /// the calling thread only.
    #[cfg(all(
        target_has_atomic = "8",
        target_has_atomic = "16",
        target_has_atomic = "32"
    ))]
    pub fn search_parallel<C: Clock>(
        &mut self,
        game: &mut G,
        budget: Budget,
        clock: &mut C,
        memory: &mut impl Memory,
        threads: &mut dyn Threads,
        settings: ParallelSettings,
    ) -> Decision<G> {
        match &mut self.kind {
            Kind::Mcts(state) if threads.count() > 1 => {
                mcts_decision(state.run(memory.nodes(), |m| {
                    m.search_parallel(game, budget, clock, threads, settings)
                }))
            }
            _ => self.search(game, budget, clock, memory),
        }
    }

    /// Tells the player that `mv` was played from the position of its tree: with tree reuse
    /// the subtree under `mv` becomes the tree, otherwise the tree is forgotten.
    pub fn advance(&mut self, mv: G::Move, memory: &mut impl Memory) {
        match &mut self.kind {
            // Without reuse the tree is forgotten: no need to read it.
            Kind::Mcts(state) if !state.config().reuse_tree => state.forget(),
            _ => {
                self.with_mcts(memory, |m| m.advance(mv));
            }
        }
    }

    /// Forgets the tree (a new game, an undo, a new position). The generator goes on.
    pub fn clear(&mut self, _memory: &mut impl Memory) {
        if let Kind::Mcts(state) = &mut self.kind {
            state.forget();
        }
    }
}

/// An MCTS search's result as a [`Decision`].
fn mcts_decision<G: Game>(r: SearchResult<G>) -> Decision<G> {
    Decision {
        best: r.best,
        value: r.value,
        proven: r.proven,
        proven_in: None,
        simulations: r.simulations,
        nodes: r.nodes_used as u64,
        depth: 0,
        pool_full: r.pool_full,
        stop: r.stop,
        elapsed_us: r.elapsed_us,
        pv: Pv::<G>::new(),
    }
}

/// Why a session refused a request; the session is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// The game is already over.
    GameOver,
    /// The move is not legal in the current position.
    Illegal,
    /// The text is not a move of this game.
    BadMove(Problem),
    /// There is no move to undo.
    NothingToUndo,
}

impl core::fmt::Display for SessionError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SessionError::GameOver => f.write_str("the game is already over"),
            SessionError::Illegal => f.write_str("illegal move"),
            SessionError::BadMove(p) => write!(f, "bad move: {p}"),
            SessionError::NothingToUndo => f.write_str("no move to undo"),
        }
    }
}

impl core::error::Error for SessionError {}

/// The undo history a [`Session`] keeps unless told otherwise (the C ABI's
/// `IMCTS_HISTORY_CAPACITY`).
pub const DEFAULT_HISTORY: usize = 256;

/// A game in progress with a player: the position, the last `H` moves for undo (older ones are
/// forgotten, so play never fails for lack of room) and a [`Player`] whose tree follows play.
pub struct Session<G: Game, const H: usize = DEFAULT_HISTORY> {
    game: G,
    history: heapless::Deque<(G::Move, G::Undo), H>,
    player: Player<G>,
}

impl<G: Game, const H: usize> Session<G, H> {
    /// A session at the start position with `player`.
    pub fn new(player: Player<G>) -> Self {
        Session {
            game: G::new(),
            history: heapless::Deque::new(),
            player,
        }
    }

    /// The current position.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The player.
    pub fn player(&self) -> &Player<G> {
        &self.player
    }

    /// The player, to configure or inspect.
    pub fn player_mut(&mut self) -> &mut Player<G> {
        &mut self.player
    }

    /// How the game stands: `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.game.side_to_move()
    }

    /// How many moves can be undone.
    pub fn undo_depth(&self) -> usize {
        self.history.len()
    }

    /// Replaces the player (its tree, if any, is dropped with it).
    pub fn set_player(&mut self, player: Player<G>) {
        self.player = player;
    }

    /// Back to the start position, with an empty history and no tree.
    pub fn reset(&mut self, memory: &mut impl Memory) {
        self.set_position(G::new(), memory);
    }

    /// Sets the position (history and tree forgotten).
    pub fn set_position(&mut self, game: G, memory: &mut impl Memory) {
        self.game = game;
        self.history.clear();
        self.player.clear(memory);
    }

    /// Parses a move in the game's notation for the current position.
    pub fn parse_move(&self, text: &str) -> Result<G::Move, SessionError> {
        if self.game.is_terminal() {
            return Err(SessionError::GameOver);
        }
        self.game.parse_move(text).map_err(|e| match e.problem {
            Problem::Illegal => SessionError::Illegal,
            p => SessionError::BadMove(p),
        })
    }

    /// Plays `mv`, remembering it for undo and moving the player's tree along.
    pub fn play(&mut self, mv: G::Move, memory: &mut impl Memory) -> Result<(), SessionError> {
        if self.game.is_terminal() {
            return Err(SessionError::GameOver);
        }
        if !self.game.is_legal(mv) {
            return Err(SessionError::Illegal);
        }
        // The tree looks the move up from the old root, so it moves first.
        self.player.advance(mv, memory);
        if self.history.is_full() {
            self.history.pop_front();
        }
        let undo = self.game.make(mv);
        // Cannot fail: room was made above.
        let _ = self.history.push_back((mv, undo));
        Ok(())
    }

    /// Takes back the last move (the tree is forgotten).
    pub fn undo(&mut self, memory: &mut impl Memory) -> Result<G::Move, SessionError> {
        let (mv, undo) = self.history.pop_back().ok_or(SessionError::NothingToUndo)?;
        self.game.undo(mv, undo);
        self.player.clear(memory);
        Ok(mv)
    }

    /// The last move played, if it can be undone.
    pub fn last_move(&self) -> Option<G::Move> {
        self.history.back().map(|&(mv, _)| mv)
    }

    /// Searches the current position within `budget` (it is left as it was).
    pub fn search<C: Clock>(
        &mut self,
        budget: Budget,
        clock: &mut C,
        memory: &mut impl Memory,
    ) -> Decision<G> {
        self.player.search(&mut self.game, budget, clock, memory)
    }

    /// [`search`](Self::search) on several threads ([`Player::search_parallel`]).
    #[cfg(all(
        target_has_atomic = "8",
        target_has_atomic = "16",
        target_has_atomic = "32"
    ))]
    pub fn search_parallel<C: Clock>(
        &mut self,
        budget: Budget,
        clock: &mut C,
        memory: &mut impl Memory,
        threads: &mut dyn Threads,
        settings: ParallelSettings,
    ) -> Decision<G> {
        self.player
            .search_parallel(&mut self.game, budget, clock, memory, threads, settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MoveBuffer;
    use crate::games::breakthrough::Breakthrough;
    use crate::games::tictactoe::TicTacToe;
    use crate::search::NoClock;
    use crate::search::node::flag;
    use crate::search::spec;
    use std::vec;

    struct Owned {
        nodes: std::vec::Vec<Node>,
        table: std::vec::Vec<TtEntry>,
    }

    impl Memory for Owned {
        fn nodes(&mut self) -> &mut [Node] {
            &mut self.nodes
        }
        fn table(&mut self) -> &mut [TtEntry] {
            &mut self.table
        }
    }

    fn owned() -> Owned {
        Owned {
            nodes: vec![Node::EMPTY; 200_000],
            table: vec![TtEntry::EMPTY; 1 << 14],
        }
    }

    fn player<G: Game>(text: &str) -> Player<G> {
        Player::new(spec::parse::<G>(text).unwrap())
    }

    /// αβ and MCTS both prove Tic-Tac-Toe a draw, and say so with the same `Proven`.
    #[test]
    fn both_algorithms_report_a_proven_draw() {
        for text in ["ab", "mcts"] {
            let mut mem = owned();
            let mut s = Session::<TicTacToe, 16>::new(player(text));
            let d = s.search(Budget::iterations(1_000_000), &mut NoClock, &mut mem);
            assert_eq!(d.proven, Proven::Draw, "{text}: {d:?}");
            assert!(d.best.is_some());
        }
    }

    /// A finished position is proven for αβ too (the C ABI and the CLI used to disagree).
    #[test]
    fn finished_positions_are_proven() {
        let g = TicTacToe::parse_position("xxx/oo./... o").unwrap();
        for text in ["ab", "mcts"] {
            let mut mem = owned();
            let mut s = Session::<TicTacToe, 16>::new(player(text));
            s.set_position(g, &mut mem);
            let d = s.search(Budget::iterations(100), &mut NoClock, &mut mem);
            assert_eq!((d.best, d.stop), (None, StopReason::GameOver), "{text}");
            if text == "ab" {
                assert_eq!(d.proven, Proven::Loss);
            }
        }
    }

    /// Play, undo and the bounded history; bad requests change nothing.
    #[test]
    fn play_and_undo_keep_the_position_and_refuse_bad_requests() {
        let mut mem = owned();
        let mut s = Session::<Breakthrough, 2>::new(player("mcts(reuse)"));
        let start = s.game().clone();
        assert_eq!(s.undo(&mut mem), Err(SessionError::NothingToUndo));
        assert_eq!(s.parse_move("a2-a4"), Err(SessionError::Illegal));
        let mut positions = vec![start.clone()];
        for _ in 0..3 {
            let d = s.search(Budget::iterations(200), &mut NoClock, &mut mem);
            s.play(d.best.unwrap(), &mut mem).unwrap();
            positions.push(s.game().clone());
        }
        // Only the last two moves are kept.
        assert_eq!(s.undo_depth(), 2);
        s.undo(&mut mem).unwrap();
        assert_eq!(*s.game(), positions[2]);
        s.undo(&mut mem).unwrap();
        assert_eq!(*s.game(), positions[1]);
        assert_eq!(s.undo(&mut mem), Err(SessionError::NothingToUndo));
        s.reset(&mut mem);
        assert_eq!(*s.game(), start);
    }

    /// With reuse, playing the chosen move keeps its subtree; the search goes on from it.
    #[test]
    fn playing_advances_the_tree() {
        let mut mem = owned();
        let mut s = Session::<Breakthrough, 8>::new(player("mcts(reuse)"));
        let d = s.search(Budget::iterations(2000), &mut NoClock, &mut mem);
        s.play(d.best.unwrap(), &mut mem).unwrap();
        let kept = s
            .player_mut()
            .with_mcts(&mut mem, |m| m.nodes_used())
            .unwrap();
        assert!(kept > 1, "the subtree under the played move is kept");
        s.undo(&mut mem).unwrap();
        let after_undo = s
            .player_mut()
            .with_mcts(&mut mem, |m| m.nodes_used())
            .unwrap();
        assert_eq!(after_undo, 0);
    }

    /// Looking at the tree (principal variation, root children) reads what it walks, not the
    /// whole tree: a node off the principal variation whose links leave the pool, which the
    /// full check of `with_mcts` refuses, changes neither.
    #[test]
    fn inspecting_the_tree_reads_only_what_it_walks() {
        let mut mem = owned();
        let mut p = player::<Breakthrough>("mcts(seed5)");
        let mut g = Breakthrough::new();
        p.search(&mut g, Budget::iterations(3000), &mut NoClock, &mut mem);
        let pv = p.principal_variation(&mut mem);
        let children = |p: &Player<Breakthrough>, mem: &mut Owned| {
            p.inspect_mcts(mem, |m| {
                m.root_children().map(|c| (c.mv, c.visits)).collect()
            })
            .unwrap_or_default()
        };
        let before: std::vec::Vec<_> = children(&p, &mut mem);
        assert!(pv.len() > 2 && before.len() == 22, "{pv:?} {before:?}");
        // Scribble over the least visited root child, which no principal variation enters.
        let root = mem.nodes[0];
        let (i, _) = (0..root.added as usize)
            .map(|i| (i, mem.nodes[root.first_child as usize + i].visits))
            .min_by_key(|&(_, v)| v)
            .unwrap();
        let c = &mut mem.nodes[root.first_child as usize + i];
        (c.flags, c.first_child, c.children, c.added) = (flag::EXPANDED, u32::MAX - 3, 9, 9);
        assert_eq!(p.principal_variation(&mut mem), pv);
        assert_eq!(children(&p, &mut mem), before);
        // The full check refuses the tree (and forgets it): inspecting did not run it.
        assert_eq!(p.with_mcts(&mut mem, |m| m.nodes_used()), Some(0));
    }

    /// Any memory is safe to look at: links scribbled everywhere give wrong or empty answers,
    /// never a panic; forgetting the tree does not read it.
    #[test]
    fn inspecting_scribbled_memory_does_not_panic() {
        let mut rng = crate::rng::seeded(9);
        for round in 0..20 {
            let mut mem = owned();
            let mut p = player::<Breakthrough>("mcts(seed5)");
            let mut g = Breakthrough::new();
            p.search(&mut g, Budget::iterations(500), &mut NoClock, &mut mem);
            for n in mem.nodes.iter_mut().take(5_000) {
                let r = crate::rng::next_u64(&mut rng);
                n.first_child = if round % 2 == 0 {
                    r as u32
                } else {
                    (r as u32) % 6_000
                };
                n.added = (r >> 32) as u16;
                n.children = n.added;
                n.flags = (r >> 48) as u8;
                n.visits = (r >> 8) as u32;
                n.mv = (r >> 20) as u16;
            }
            let _ = p.principal_variation(&mut mem);
            let _ = p.inspect_mcts(&mut mem, |m| m.root_children().count());
            let mut moves = crate::games::breakthrough::MoveList::default();
            g.legal_moves(&mut moves);
            p.advance(moves.moves()[0], &mut mem);
            p.clear(&mut mem);
        }
    }

    /// Switching algorithm and configuration through `configure`.
    #[test]
    fn configure_switches_algorithm() {
        let mut mem = owned();
        let mut p = player::<Breakthrough>("mcts");
        let mut g = Breakthrough::new();
        p.configure(spec::parse("ab(depth2)").unwrap(), &mut mem);
        assert!(!p.is_mcts());
        let d = p.search(&mut g, Budget::iterations(10_000), &mut NoClock, &mut mem);
        assert_eq!(d.depth, 2);
        p.configure(spec::parse("mcts(seed3)").unwrap(), &mut mem);
        assert!(p.is_mcts());
        let d = p.search(&mut g, Budget::iterations(100), &mut NoClock, &mut mem);
        assert_eq!(d.simulations, 100);
    }
}
