//! Engines in caller memory: a game position with its undo history, an MCTS searcher's state and
//! a node pool (or αβ transposition table) carved from the same buffer.
//!
//! Memory layout of the buffer given to [`imcts_engine_init`] (aligned to
//! [`imcts_engine_align`]):
//!
//! ```text
//! [ Engine header | pad | the game's Side (its size only) | pad to 8 | region: node_capacity × 24 bytes ]
//! ```
//!
//! Only the engine's own game is stored, so a Tic-Tac-Toe engine is not sized by Lines of
//! Action's repetition history ([`imcts_engine_size`] depends on the game).
//!
//! The region holds the MCTS node pool. An αβ search reuses it as its transposition table
//! (16-byte entries, so `node_capacity × 24 / 16` of them): switching between MCTS and αβ
//! therefore forgets the MCTS tree (or the table), which is rebuilt by the next search. The
//! engine finds the region by its offset from itself, so it must not be moved after init.

use crate::config::{
    IMCTS_MOVE_CAPACITY, IMCTS_PROVEN_DRAW, IMCTS_PROVEN_LOSS, IMCTS_PROVEN_UNKNOWN,
    IMCTS_PROVEN_WIN, Validated, imcts_budget, imcts_config, imcts_result, validate,
};
use crate::text::{self, Fixed};
use crate::{boundary, imcts_status};
use core::ffi::{c_char, c_void};
use core::marker::PhantomData;
use core::mem::{align_of, size_of};
use imcts::game::{Game, MoveBuffer, Outcome, Player as Side_};
use imcts::search::alphabeta::TtEntry;
use imcts::search::config::Valid;
use imcts::search::node::{Node, Proven};
use imcts::search::spec::{self, PlayerSpec};
use imcts::search::{Budget, Clock, StopReason};
use imcts::session::{Memory, Player, Session, SessionError};

/// A game id (`imcts_engine_init`, `imcts_config_default`, `imcts_config_parse`).
pub type imcts_game = u32;
/// Breakthrough on 8×8 (moves `a2-a3`, `b5xc6`).
pub const IMCTS_GAME_BREAKTHROUGH: imcts_game = 0;
/// Lines of Action.
pub const IMCTS_GAME_LOA: imcts_game = 1;
/// Kalah(6,4) (moves `1`–`6`).
pub const IMCTS_GAME_KALAH: imcts_game = 2;
/// Tic-Tac-Toe.
pub const IMCTS_GAME_TICTACTOE: imcts_game = 3;
/// Outer-Open Gomoku on 15×15.
pub const IMCTS_GAME_GOMOKU: imcts_game = 4;

/// How a game stands (`imcts_engine_outcome`).
pub type imcts_outcome = u32;
/// The game goes on.
pub const IMCTS_OUTCOME_ONGOING: imcts_outcome = 0;
/// The first player (who moves first from the start position) won.
pub const IMCTS_OUTCOME_FIRST_WINS: imcts_outcome = 1;
/// The second player won.
pub const IMCTS_OUTCOME_SECOND_WINS: imcts_outcome = 2;
/// The game ended in a draw.
pub const IMCTS_OUTCOME_DRAW: imcts_outcome = 3;

/// The moves an engine remembers for `imcts_engine_undo`. Past this many plies the oldest move
/// is forgotten (play never fails for lack of room; only the last 256 moves can be undone).
pub const IMCTS_HISTORY_CAPACITY: usize = 256;

/// The longest position string, in bytes, any game accepts: longer input to
/// `imcts_engine_set_position` is `IMCTS_STATUS_BAD_POSITION` without being parsed.
pub const IMCTS_MAX_POSITION_LEN: usize = 512;
const _: () = assert!(IMCTS_MAX_POSITION_LEN == imcts::game::MAX_POSITION_LEN);

/// An engine: a game position and a searcher, living in caller memory. Opaque; only ever
/// handled through pointers returned by [`imcts_engine_init`].
pub struct imcts_engine {
    _private: [u8; 0],
}

/// The games built in: the kernel's `game_registry!`. Everything here that depends on the set
/// of games (the [`GameId`] and per-game engine enums, id conversions, the dispatch macros) is
/// generated from it; each `IMCTS_GAME_*` constant above must equal its game's registry id
/// (checked at compile time by [`define_games`]).
macro_rules! game_list {
    ([$($callback:tt)*] $args:tt) => {
        imcts::game_registry! { [$($callback)*] $args }
    };
}

/// Generates [`GameId`], [`Games`] and their conversions from [`game_list`].
macro_rules! define_games {
    ({} $($variant:ident = $id:literal, $name:literal => $ty:ty;)*) => {
        // Every IMCTS_GAME_* constant names its game's registry id.
        const _: () = {
            let ids: &[(imcts_game, &str)] = &[
                (IMCTS_GAME_BREAKTHROUGH, "breakthrough"),
                (IMCTS_GAME_LOA, "loa"),
                (IMCTS_GAME_KALAH, "kalah"),
                (IMCTS_GAME_TICTACTOE, "tictactoe"),
                (IMCTS_GAME_GOMOKU, "gomoku"),
            ];
            assert!(ids.len() == [$($id),*].len());
            let mut i = 0;
            while i < ids.len() {
                assert!(ids[i].0 == i as imcts_game);
                i += 1;
            }
            $(assert!(const_str_eq(ids[$id].1, $name));)*
        };

        /// A game built into this library.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub(crate) enum GameId {
            $($variant,)*
        }

        impl GameId {
            /// The game with this `IMCTS_GAME_*` id; `UnknownGame` for any other value.
            pub(crate) fn from_u32(id: u32) -> Result<GameId, imcts_status> {
                match id {
                    $($id => Ok(GameId::$variant),)*
                    _ => Err(imcts_status::UnknownGame),
                }
            }

            fn to_u32(self) -> u32 {
                match self {
                    $(GameId::$variant => $id,)*
                }
            }
        }

        /// The largest alignment of any game's [`Side`].
        const SIDE_ALIGN: usize = {
            let mut a = 1;
            $(if align_of::<Side<$ty>>() > a {
                a = align_of::<Side<$ty>>();
            })*
            a
        };

        impl GameId {
            /// The bytes of this game's [`Side`].
            const fn side_bytes(self) -> usize {
                match self {
                    $(GameId::$variant => size_of::<Side<$ty>>(),)*
                }
            }
        }
    };
}
/// `a == b` for the compile-time id check.
const fn const_str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

game_list!([define_games] {});

/// Runs `$body` with the type alias `$G` bound to the game type of the [`GameId`] `$id`.
macro_rules! dispatch_game {
    ($id:expr, $G:ident => $body:expr) => {
        $crate::engine::game_list!([$crate::engine::dispatch_game_arms] {($id) $G ($body)})
    };
}

/// The match of [`dispatch_game`], one arm per game of [`game_list`].
macro_rules! dispatch_game_arms {
    ({($id:expr) $G:ident ($body:expr)} $($variant:ident = $gid:literal, $name:literal => $ty:ty;)*) => {
        match $id {
            $($crate::engine::GameId::$variant => {
                type $G = $ty;
                $body
            })*
        }
    };
}
pub(crate) use {dispatch_game, dispatch_game_arms, game_list};

/// Runs `$body` with `$s` bound to the engine's [`Side`], whatever its game (`$games` is a
/// `&mut Games` or a `&GamesRef`).
macro_rules! with_side {
    ($games:expr, $s:ident => $body:expr) => {
        game_list!([with_side_arms] {($games) $s ($body)})
    };
}

/// The match of [`with_side`], one arm per game of [`game_list`].
macro_rules! with_side_arms {
    ({($games:expr) $s:ident ($body:expr)} $($variant:ident = $gid:literal, $name:literal => $ty:ty;)*) => {
        {
            let games = $games;
            match games.id() {
                $($crate::engine::GameId::$variant => {
                    // SAFETY: the engine's id is this arm's game, so its side is a Side<$ty>.
                    // (Callers often sit inside an `unsafe` block already.)
                    #[allow(unused_unsafe)]
                    let $s = unsafe { games.side::<$ty>() };
                    $body
                })*
            }
        }
    };
}

/// One game's engine state: the kernel's session, with the C ABI's history bound, and the
/// principal variation of the last search (for [`imcts_engine_pv`]), emptied whenever the
/// position changes. Derefs to the session.
struct Side<G: Game> {
    session: Session<G, IMCTS_HISTORY_CAPACITY>,
    pv: imcts::search::alphabeta::Pv<G>,
}

impl<G: Game> core::ops::Deref for Side<G> {
    type Target = Session<G, IMCTS_HISTORY_CAPACITY>;
    fn deref(&self) -> &Self::Target {
        &self.session
    }
}

impl<G: Game> core::ops::DerefMut for Side<G> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.session
    }
}

impl<G: Game> Side<G> {
    /// Writes the stored principal variation, each move in the notation of the position it is
    /// played from, separated by single spaces.
    fn write_pv(&self, out: &mut dyn core::fmt::Write) -> core::fmt::Result {
        let mut game = self.game().clone();
        for (i, &mv) in self.pv.iter().enumerate() {
            if i > 0 {
                out.write_char(' ')?;
            }
            game.write_move(mv, &mut Adapter(out))?;
            game.make(mv);
        }
        Ok(())
    }
}

/// A session at the start position whose player is the default MCTS configuration (each search
/// passes its configuration; [`Player::configure`] keeps the tree while it stays the same).
fn new_side<G: Game>() -> Side<G> {
    Side {
        session: Session::new(Player::new(PlayerSpec::Mcts(Valid::default()))),
        pv: heapless::Vec::new(),
    }
}

fn parse_move<G: Game>(s: &Side<G>, text: &str) -> Result<G::Move, imcts_status> {
    s.parse_move(text).map_err(session_status)
}

fn session_status(e: SessionError) -> imcts_status {
    match e {
        SessionError::Illegal | SessionError::GameOver => imcts_status::IllegalMove,
        SessionError::BadMove(_) => imcts_status::BadMove,
        SessionError::NothingToUndo => imcts_status::NothingToUndo,
    }
}

fn play<G: Game>(s: &mut Side<G>, text: &str, region: &mut Region) -> Result<(), imcts_status> {
    let mv = parse_move(s, text)?;
    s.play(mv, region).map_err(session_status)?;
    s.pv.clear();
    Ok(())
}

fn undo<G: Game>(s: &mut Side<G>, region: &mut Region) -> Result<(), imcts_status> {
    s.undo(region).map_err(session_status)?;
    s.pv.clear();
    Ok(())
}

fn set_position<G: Game>(
    s: &mut Side<G>,
    text: &str,
    region: &mut Region,
) -> Result<(), imcts_status> {
    let game = G::parse_position(text).map_err(|_| imcts_status::BadPosition)?;
    s.set_position(game, region);
    s.pv.clear();
    Ok(())
}

fn write_moves<G: Game>(s: &Side<G>, out: &mut dyn core::fmt::Write) -> core::fmt::Result {
    let game = s.game();
    let mut list = G::MoveList::default();
    game.legal_moves(&mut list);
    for (i, &mv) in list.moves().iter().enumerate() {
        if i > 0 {
            out.write_char(' ')?;
        }
        game.write_move(mv, &mut Adapter(out))?;
    }
    Ok(())
}

fn move_count<G: Game>(s: &Side<G>) -> usize {
    let mut list = G::MoveList::default();
    s.game().legal_moves(&mut list);
    list.moves().len()
}

fn outcome<G: Game>(s: &Side<G>) -> imcts_outcome {
    match s.outcome() {
        None => IMCTS_OUTCOME_ONGOING,
        Some(Outcome::Draw) => IMCTS_OUTCOME_DRAW,
        Some(Outcome::Win(Side_::First)) => IMCTS_OUTCOME_FIRST_WINS,
        Some(Outcome::Win(Side_::Second)) => IMCTS_OUTCOME_SECOND_WINS,
    }
}

fn best_move_into<G: Game>(game: &G, mv: Option<G::Move>, out: &mut imcts_result) {
    let mut s = Fixed::<{ IMCTS_MOVE_CAPACITY - 1 }>::new();
    if let Some(mv) = mv {
        if game.write_move(mv, &mut s).is_err() {
            s.len = 0;
        }
    }
    for (dst, &src) in out.best_move.iter_mut().zip(&s.bytes[..s.len]) {
        *dst = src as c_char;
    }
    out.best_move[s.len] = 0;
    out.best_move_len = s.len as u32;
}

/// Searches with `config` (the player is reconfigured only if it changed) and converts the
/// kernel's decision into the C result.
fn search<G: Game>(
    s: &mut Side<G>,
    config: Validated<G>,
    budget: Budget,
    clock: &mut HostClock,
    region: &mut Region,
    threads: &mut threads::Lent<'_>,
) -> imcts_result {
    s.player_mut().configure(config, region);
    let d = match threads {
        #[cfg(all(
            target_has_atomic = "8",
            target_has_atomic = "16",
            target_has_atomic = "32",
            not(all(target_arch = "wasm32", not(target_feature = "atomics")))
        ))]
        Some((t, settings)) => s.search_parallel(budget, clock, region, &mut **t, *settings),
        _ => s.search(budget, clock, region),
    };
    s.pv = if s.player().is_mcts() {
        s.player_mut().principal_variation(region)
    } else {
        d.pv.clone()
    };
    let mut out = imcts_result::EMPTY;
    best_move_into(s.game(), d.best, &mut out);
    out.value = d.value;
    out.simulations = d.simulations;
    out.nodes = d.nodes;
    out.elapsed_us = d.elapsed_us;
    out.stop = d.stop as u32;
    out.depth = d.depth;
    out.pool_full = d.pool_full as u8;
    out.proven = match d.proven {
        Proven::Unknown => IMCTS_PROVEN_UNKNOWN,
        Proven::Win => IMCTS_PROVEN_WIN,
        Proven::Loss => IMCTS_PROVEN_LOSS,
        Proven::Draw => IMCTS_PROVEN_DRAW,
    };
    out
}

/// `&mut dyn Write` as a sized `Write` for the games' generic writers.
struct Adapter<'a, 'b>(&'a mut (dyn core::fmt::Write + 'b));

impl core::fmt::Write for Adapter<'_, '_> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.0.write_str(s)
    }
}

/// What the region after the engine currently holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum RegionMode {
    Nodes,
    Table,
}

/// Marks an initialised engine ("imcts-en").
const MAGIC: u64 = 0x696d_6374_732d_656e;

/// The engine's header, at the start of the caller's buffer; its game's [`Side`] follows at
/// [`SIDE_OFFSET`].
#[repr(C)]
struct Engine {
    magic: u64,
    node_capacity: usize,
    mode: RegionMode,
    /// The `IMCTS_GAME_*` id, checked on every open (a damaged buffer reads as a bad engine).
    game: imcts_game,
}

/// The alignment of the engine memory (the region needs 8 for table entries).
const ALIGN: usize = {
    let a = align_of::<Engine>();
    let a = if a > SIDE_ALIGN { a } else { SIDE_ALIGN };
    let a = if a > align_of::<Node>() {
        a
    } else {
        align_of::<Node>()
    };
    if a > align_of::<TtEntry>() {
        a
    } else {
        align_of::<TtEntry>()
    }
};

/// Where the game's [`Side`] starts, from the engine's address.
const SIDE_OFFSET: usize = size_of::<Engine>().div_ceil(ALIGN) * ALIGN;

const _: () = assert!(size_of::<Node>() == 24 && size_of::<TtEntry>() == 16);
const _: () = assert!(ALIGN.is_multiple_of(align_of::<Node>()));
const _: () = assert!(ALIGN.is_multiple_of(align_of::<TtEntry>()));

impl GameId {
    /// Where the region starts, from the engine's address, for an engine playing this game (a
    /// multiple of [`ALIGN`]).
    const fn region_offset(self) -> usize {
        (SIDE_OFFSET + self.side_bytes()).div_ceil(ALIGN) * ALIGN
    }
}

/// An open engine's game state for writing: which game, and where its [`Side`] lives.
struct Games<'a> {
    id: GameId,
    side: *mut u8,
    _engine: PhantomData<&'a mut u8>,
}

impl Games<'_> {
    /// Which game this is.
    fn id(&self) -> GameId {
        self.id
    }

    /// The game's side.
    ///
    /// # Safety
    /// `G` must be the game type of [`Games::id`] (the [`with_side`] macro's arms).
    unsafe fn side<G: Game>(&mut self) -> &mut Side<G> {
        // SAFETY: init wrote a Side of the engine's game at this address (aligned: SIDE_OFFSET
        // is a multiple of ALIGN >= its alignment); G is that game (caller's guarantee); the
        // borrow of `self` keeps the access exclusive.
        unsafe { &mut *self.side.cast::<Side<G>>() }
    }
}

/// An open engine's game state for reading only.
struct GamesRef<'a> {
    id: GameId,
    side: *const u8,
    _engine: PhantomData<&'a u8>,
}

impl GamesRef<'_> {
    /// Which game this is.
    fn id(&self) -> GameId {
        self.id
    }

    /// The game's side.
    ///
    /// # Safety
    /// `G` must be the game type of [`GamesRef::id`] (the [`with_side`] macro's arms).
    unsafe fn side<G: Game>(&self) -> &Side<G> {
        // SAFETY: as in `Games::side`, shared access only.
        unsafe { &*self.side.cast::<Side<G>>() }
    }
}

/// The node memory after the engine, as raw parts.
struct Region {
    ptr: *mut u8,
    bytes: usize,
    mode: RegionMode,
}

impl Memory for Region {
    /// The region as nodes, reformatting it if it held a table.
    fn nodes(&mut self) -> &mut [Node] {
        let count = self.bytes / size_of::<Node>();
        let ptr = self.ptr.cast::<Node>();
        if self.mode != RegionMode::Nodes {
            for i in 0..count {
                // SAFETY: the region has `bytes` writable bytes aligned for Node (checked at
                // init, REGION_OFFSET is a multiple of the alignment), and `i < count`.
                unsafe { ptr.add(i).write(Node::EMPTY) };
            }
            self.mode = RegionMode::Nodes;
        }
        // SAFETY: every node was written as a valid `Node` (at init or just above) and the
        // region is only reached through this engine, which the caller must not share.
        unsafe { core::slice::from_raw_parts_mut(ptr, count) }
    }

    /// The region as nodes, if that is what it holds (no reformatting).
    fn nodes_if_tree(&mut self) -> Option<&mut [Node]> {
        (self.mode == RegionMode::Nodes).then(|| self.nodes())
    }

    /// The region as transposition-table entries, emptied if it held nodes.
    fn table(&mut self) -> &mut [TtEntry] {
        let count = self.bytes / size_of::<TtEntry>();
        let ptr = self.ptr.cast::<TtEntry>();
        if self.mode != RegionMode::Table {
            for i in 0..count {
                // SAFETY: as in `nodes`, with TtEntry's alignment (8) checked at compile time.
                unsafe { ptr.add(i).write(TtEntry::EMPTY) };
            }
            self.mode = RegionMode::Table;
        }
        // SAFETY: every entry was written as a valid `TtEntry`; exclusive as in `nodes`.
        unsafe { core::slice::from_raw_parts_mut(ptr, count) }
    }
}

/// Consecutive equal readings after which the host's clock counts as frozen
/// ([`IMCTS_FROZEN_CLOCK_READS`] in the header).
const FROZEN_READS: u32 = crate::config::IMCTS_FROZEN_CLOCK_READS;

/// The host's clock callback as a kernel [`Clock`], with the frozen-clock guard: once it has
/// returned the same value `FROZEN_READS` times in a row, it reads as `time_us` later than that
/// value, so a time budget ends instead of the search running forever.
pub(crate) struct HostClock {
    now: crate::config::imcts_clock_fn,
    ctx: *mut c_void,
    /// The budget's time limit: how far a frozen clock jumps.
    time_us: u64,
    /// The first and the latest value read.
    first: Option<u64>,
    last: Option<u64>,
    /// How many readings in a row equalled `last`.
    same: u32,
}

impl HostClock {
    /// Whether the guard fired during the search.
    fn froze(&self) -> bool {
        self.same >= FROZEN_READS
    }
}

impl Clock for HostClock {
    fn now_us(&mut self) -> u64 {
        let v = match self.now {
            // SAFETY: the caller of imcts_engine_search promised a callable clock that does not
            // unwind, and passes `ctx` as it gave it.
            Some(f) => unsafe { f(self.ctx) },
            None => 0,
        };
        self.first.get_or_insert(v);
        if self.last == Some(v) {
            self.same = self.same.saturating_add(1);
        } else {
            self.last = Some(v);
            self.same = 0;
        }
        if self.froze() {
            v.saturating_add(self.time_us)
        } else {
            v
        }
    }
}

/// The total bytes for an engine playing `id` with `node_capacity` nodes.
fn engine_bytes(id: GameId, node_capacity: usize) -> Result<usize, imcts_status> {
    if node_capacity > u32::MAX as usize - 1 {
        return Err(imcts_status::CapacityTooLarge);
    }
    node_capacity
        .checked_mul(size_of::<Node>())
        .and_then(|b| b.checked_add(id.region_offset()))
        .filter(|&b| b <= isize::MAX as usize)
        .ok_or(imcts_status::CapacityTooLarge)
}

/// Checks that `ptr` is non-NULL, aligned and starts with the magic `imcts_engine_init` writes
/// and a known game, which it returns; reads only.
///
/// # Safety
/// `ptr` must be NULL or point to at least an engine's worth of readable memory.
unsafe fn check_engine(ptr: *const imcts_engine) -> Result<GameId, imcts_status> {
    if ptr.is_null() {
        return Err(imcts_status::NullPointer);
    }
    if !(ptr as usize).is_multiple_of(ALIGN) {
        return Err(imcts_status::BadEngine);
    }
    // SAFETY: the pointer is non-NULL, aligned and (caller's guarantee) points to at least an
    // engine's worth of memory; the magic is a plain u64 at offset 0 of the repr(C) struct.
    if unsafe { ptr.cast::<u64>().read() } != MAGIC {
        return Err(imcts_status::BadEngine);
    }
    // SAFETY: as above; the magic says imcts_engine_init wrote a whole header here.
    let game = unsafe { (*ptr.cast::<Engine>()).game };
    GameId::from_u32(game).map_err(|_| imcts_status::BadEngine)
}

/// Checks `ptr` and splits it into the engine and its region.
///
/// # Safety
/// `ptr` must be NULL or a pointer returned by `imcts_engine_init` whose memory is still valid
/// and not in use elsewhere for the returned lifetime.
unsafe fn open<'a>(
    ptr: *mut imcts_engine,
) -> Result<(&'a mut Engine, Games<'a>, Region), imcts_status> {
    // SAFETY: forwarded from the caller.
    let id = unsafe { check_engine(ptr) }?;
    // SAFETY: the magic says imcts_engine_init wrote an Engine here; the caller guarantees
    // exclusive access for 'a.
    let engine = unsafe { &mut *ptr.cast::<Engine>() };
    let games = Games {
        id,
        // SAFETY: init wrote the game's Side at SIDE_OFFSET, inside the buffer and disjoint
        // from the header.
        side: unsafe { ptr.cast::<u8>().add(SIDE_OFFSET) },
        _engine: PhantomData,
    };
    let region = Region {
        // SAFETY: init checked that the buffer extends region_offset + node_capacity * 24
        // bytes past `ptr`; the region pointer derives from the caller's pointer, disjoint from
        // the header and the side.
        ptr: unsafe { ptr.cast::<u8>().add(id.region_offset()) },
        bytes: engine.node_capacity * size_of::<Node>(),
        mode: engine.mode,
    };
    Ok((engine, games, region))
}

/// Runs `f` on an open engine and stores the region's mode back.
///
/// # Safety
/// As for [`open`].
unsafe fn with_engine<R>(
    ptr: *mut imcts_engine,
    f: impl FnOnce(&mut Games, &mut Region) -> Result<R, imcts_status>,
) -> Result<R, imcts_status> {
    // SAFETY: forwarded from the caller.
    let (engine, mut games, mut region) = unsafe { open(ptr) }?;
    let r = f(&mut games, &mut region);
    engine.mode = region.mode;
    r
}

/// Runs `f` on an engine for reading only: nothing is written through `ptr`, so a host may keep
/// the engine in read-only memory while it calls the `const imcts_engine *` entry points.
///
/// # Safety
/// `ptr` must be NULL or a pointer returned by `imcts_engine_init` whose memory is still valid
/// and not being changed by another call for the duration of this one.
unsafe fn with_engine_ref<R>(
    ptr: *const imcts_engine,
    f: impl FnOnce(&GamesRef) -> Result<R, imcts_status>,
) -> Result<R, imcts_status> {
    // SAFETY: forwarded from the caller.
    let id = unsafe { check_engine(ptr) }?;
    let games = GamesRef {
        id,
        // SAFETY: the magic says imcts_engine_init wrote the game's Side at SIDE_OFFSET, inside
        // the buffer; only shared access.
        side: unsafe { ptr.cast::<u8>().add(SIDE_OFFSET) },
        _engine: PhantomData,
    };
    f(&games)
}

/// Writes the memory needed for an engine playing `game` with a pool of `node_capacity` search
/// nodes (24 bytes each) to `*out_size`. With fewer than `1 + max legal moves` nodes, one more
/// where a position can have 8 to 64 moves (50 for Breakthrough: the root, the header slot of its
/// children's block and 48 children), MCTS cannot build a tree and plays the best one-ply
/// evaluation. The size depends on the game, since an engine stores only its own game's state
/// (on x86-64 about 0.5 KB for Tic-Tac-Toe, 11.5 KB for Lines of Action, before the nodes): to
/// switch games in one buffer, size it for the largest.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, UNKNOWN_GAME, CAPACITY_TOO_LARGE, PANIC (hosted builds).
///
/// # Safety
/// `out_size` must be NULL or valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_size(
    game: imcts_game,
    node_capacity: usize,
    out_size: *mut usize,
) -> imcts_status {
    boundary(|| {
        if out_size.is_null() {
            return Err(imcts_status::NullPointer);
        }
        let bytes = engine_bytes(GameId::from_u32(game)?, node_capacity)?;
        // SAFETY: non-NULL and valid for writes (caller's guarantee).
        unsafe { out_size.write(bytes) };
        Ok(())
    })
}

/// Writes the alignment engine memory needs (a power of two, at most 16) to `*out_align`.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, PANIC (hosted builds).
///
/// # Safety
/// `out_align` must be NULL or valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_align(out_align: *mut usize) -> imcts_status {
    boundary(|| {
        if out_align.is_null() {
            return Err(imcts_status::NullPointer);
        }
        // SAFETY: non-NULL and valid for writes (caller's guarantee).
        unsafe { out_align.write(ALIGN) };
        Ok(())
    })
}

/// Initialises an engine for `game` in `mem` (`len` bytes, aligned to `imcts_engine_align`,
/// at least `imcts_engine_size(game, node_capacity)` long) at the game's start position, and
/// writes its handle (equal to `mem`) to `*out_engine`. The memory then belongs to the engine
/// until the caller stops using it; there is nothing to free. Re-initialising is allowed.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, UNKNOWN_GAME, CAPACITY_TOO_LARGE, MISALIGNED, MEMORY_TOO_SMALL, PANIC (hosted builds).
///
/// # Safety
/// `mem` must be NULL or valid for reading and writing `len` bytes, used by nothing else while
/// the engine is in use; `out_engine` must be NULL or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_init(
    mem: *mut c_void,
    len: usize,
    game: imcts_game,
    node_capacity: usize,
    out_engine: *mut *mut imcts_engine,
) -> imcts_status {
    boundary(|| {
        if mem.is_null() || out_engine.is_null() {
            return Err(imcts_status::NullPointer);
        }
        let id = GameId::from_u32(game)?;
        let needed = engine_bytes(id, node_capacity)?;
        if !(mem as usize).is_multiple_of(ALIGN) {
            return Err(imcts_status::Misaligned);
        }
        if len < needed {
            return Err(imcts_status::MemoryTooSmall);
        }
        let engine = Engine {
            magic: MAGIC,
            node_capacity,
            mode: RegionMode::Table,
            game: id.to_u32(),
        };
        let ptr = mem.cast::<Engine>();
        // SAFETY: `mem` is aligned for Engine (ALIGN >= its alignment) and has at least
        // SIDE_OFFSET >= size_of::<Engine>() writable bytes (checked above).
        unsafe { ptr.write(engine) };
        // SAFETY: the game's Side fits between SIDE_OFFSET (a multiple of ALIGN, which is at
        // least its alignment) and the region offset, inside `len` (checked above).
        let side = unsafe { mem.cast::<u8>().add(SIDE_OFFSET) };
        dispatch_game!(id, G => {
            // SAFETY: as just said; the memory may be uninitialised, so it is written, not
            // assigned (a Side owns nothing to drop).
            unsafe { side.cast::<Side<G>>().write(new_side::<G>()) }
        });
        let mut region = Region {
            // SAFETY: region_offset + node_capacity * 24 <= len, checked above.
            ptr: unsafe { mem.cast::<u8>().add(id.region_offset()) },
            bytes: node_capacity * size_of::<Node>(),
            mode: RegionMode::Table,
        };
        // Formats the region as empty nodes (the memory may be uninitialised).
        region.nodes();
        // SAFETY: `ptr` was just written with a valid Engine and nothing else refers to it.
        unsafe { (*ptr).mode = region.mode };
        // SAFETY: `out_engine` is non-NULL and valid for writes (caller's guarantee).
        unsafe { out_engine.write(mem.cast::<imcts_engine>()) };
        Ok(())
    })
}

/// Writes the engine's game id to `*out_game`.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, BAD_ENGINE, PANIC (hosted builds).
///
/// # Safety
/// `engine` must be NULL or an engine from `imcts_engine_init` not in use elsewhere;
/// `out_game` must be NULL or valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_game(
    engine: *const imcts_engine,
    out_game: *mut imcts_game,
) -> imcts_status {
    boundary(|| {
        if out_game.is_null() {
            return Err(imcts_status::NullPointer);
        }
        // SAFETY: forwarded from the caller; read-only.
        let id = unsafe { with_engine_ref(engine, |games| Ok(games.id())) }?;
        // SAFETY: non-NULL and valid for writes (caller's guarantee).
        unsafe { out_game.write(id.to_u32()) };
        Ok(())
    })
}

/// Sets the position from a string in the game's notation (Breakthrough:
/// `rank8/…/rank1 side`, as `imcts_engine_position` writes it). Clears the undo history and
/// the search tree. `IMCTS_STATUS_BAD_POSITION` (also for input longer than
/// `IMCTS_MAX_POSITION_LEN` bytes) leaves the engine unchanged; `imcts_position_error` says
/// which field is wrong.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, INVALID_UTF8, BAD_ENGINE, BAD_POSITION, PANIC (hosted builds).
///
/// # Safety
/// `engine` as for `imcts_engine_game`; `position` must be NULL or point to `len` readable
/// bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_set_position(
    engine: *mut imcts_engine,
    position: *const c_char,
    len: usize,
) -> imcts_status {
    boundary(|| {
        // SAFETY: the caller guarantees `len` readable bytes at `position` (or NULL, checked).
        let text = unsafe { text::input(position, len) }?;
        // SAFETY: forwarded from the caller.
        unsafe { with_engine(engine, |g, r| with_side!(g, s => set_position(s, text, r))) }
    })
}

/// Resets to the game's start position, clearing the undo history and the search tree.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, BAD_ENGINE, PANIC (hosted builds).
///
/// # Safety
/// `engine` as for `imcts_engine_game`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_reset(engine: *mut imcts_engine) -> imcts_status {
    boundary(|| {
        // SAFETY: forwarded from the caller.
        unsafe {
            with_engine(engine, |g, r| {
                with_side!(g, s => {
                    s.reset(r);
                    s.pv.clear();
                });
                Ok(())
            })
        }
    })
}

/// Writes the position in the game's notation to `buf` (buffer convention of the crate docs).
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, BAD_ENGINE, BUFFER_TOO_SMALL, PANIC (hosted builds).
///
/// # Safety
/// `engine` as for `imcts_engine_game`; `buf` must be NULL or valid for writing `capacity`
/// bytes; `out_len` must be NULL or valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_position(
    engine: *const imcts_engine,
    buf: *mut c_char,
    capacity: usize,
    out_len: *mut usize,
) -> imcts_status {
    boundary(|| {
        let body = |g: &GamesRef| {
            with_side!(g, s => {
                // SAFETY: buffer validity forwarded from the caller.
                unsafe {
                    text::output(buf, capacity, out_len, |w| {
                        s.game().write_position(&mut Adapter(w))
                    })
                }
            })
        };
        // SAFETY: forwarded from the caller; read-only.
        unsafe { with_engine_ref(engine, body) }
    })
}

/// Writes the legal moves, separated by single spaces, to `buf` (buffer convention of the
/// crate docs; an empty string when the game is over) and their number to `*out_count`.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, BAD_ENGINE, BUFFER_TOO_SMALL, PANIC (hosted builds).
///
/// # Safety
/// As for `imcts_engine_position`; `out_count` must be NULL or valid for writing a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_legal_moves(
    engine: *const imcts_engine,
    buf: *mut c_char,
    capacity: usize,
    out_len: *mut usize,
    out_count: *mut usize,
) -> imcts_status {
    boundary(|| {
        if out_count.is_null() {
            return Err(imcts_status::NullPointer);
        }
        let body = |g: &GamesRef| {
            with_side!(g, s => {
                // SAFETY: buffer validity forwarded from the caller.
                unsafe { text::output(buf, capacity, out_len, |w| write_moves(s, w)) }?;
                Ok(move_count(s))
            })
        };
        // SAFETY: forwarded from the caller; read-only.
        let count = unsafe { with_engine_ref(engine, body) }?;
        // SAFETY: non-NULL and valid for writes (caller's guarantee).
        unsafe { out_count.write(count) };
        Ok(())
    })
}

/// Plays a move given in the game's notation. `IMCTS_STATUS_BAD_MOVE` for text that names no
/// move, `IMCTS_STATUS_ILLEGAL_MOVE` for a move not legal here (or any move once the game is
/// over); either way the engine is unchanged. With tree reuse on, the search tree keeps the
/// subtree of the move.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, INVALID_UTF8, BAD_ENGINE, BAD_MOVE, ILLEGAL_MOVE, PANIC (hosted builds).
///
/// # Safety
/// `engine` as for `imcts_engine_game`; `mv` must be NULL or point to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_play(
    engine: *mut imcts_engine,
    mv: *const c_char,
    len: usize,
) -> imcts_status {
    boundary(|| {
        // SAFETY: the caller guarantees `len` readable bytes at `mv` (or NULL, checked).
        let text = unsafe { text::input(mv, len) }?;
        // SAFETY: forwarded from the caller.
        unsafe { with_engine(engine, |g, r| with_side!(g, s => play(s, text, r))) }
    })
}

/// Takes back the last move played (up to `IMCTS_HISTORY_CAPACITY` moves, not past a
/// `imcts_engine_set_position`); `IMCTS_STATUS_NOTHING_TO_UNDO` when there is none. Clears the
/// search tree.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, BAD_ENGINE, NOTHING_TO_UNDO, PANIC (hosted builds).
///
/// # Safety
/// `engine` as for `imcts_engine_game`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_undo(engine: *mut imcts_engine) -> imcts_status {
    boundary(|| {
        // SAFETY: forwarded from the caller.
        unsafe { with_engine(engine, |g, r| with_side!(g, s => undo(s, r))) }
    })
}

/// Writes how the game stands (`IMCTS_OUTCOME_*`) to `*out_outcome`.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, BAD_ENGINE, PANIC (hosted builds).
///
/// # Safety
/// `engine` as for `imcts_engine_game`; `out_outcome` must be NULL or valid for writing a
/// `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_outcome(
    engine: *const imcts_engine,
    out_outcome: *mut imcts_outcome,
) -> imcts_status {
    boundary(|| {
        if out_outcome.is_null() {
            return Err(imcts_status::NullPointer);
        }
        // SAFETY: forwarded from the caller; read-only.
        let o = unsafe { with_engine_ref(engine, |g| Ok(with_side!(g, s => outcome(s)))) }?;
        // SAFETY: non-NULL and valid for writes (caller's guarantee).
        unsafe { out_outcome.write(o) };
        Ok(())
    })
}

/// Writes the player to move to `*out_player`: `0` for the first player, `1` for the second
/// (Kalah lets a player move several times in a row).
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, BAD_ENGINE, PANIC (hosted builds).
///
/// # Safety
/// `engine` as for `imcts_engine_game`; `out_player` must be NULL or valid for writing a
/// `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_side_to_move(
    engine: *const imcts_engine,
    out_player: *mut u32,
) -> imcts_status {
    boundary(|| {
        if out_player.is_null() {
            return Err(imcts_status::NullPointer);
        }
        // SAFETY: forwarded from the caller; read-only.
        let p = unsafe {
            with_engine_ref(engine, |g| {
                Ok(with_side!(g, s => s.side_to_move().index() as u32))
            })
        }?;
        // SAFETY: non-NULL and valid for writes (caller's guarantee).
        unsafe { out_player.write(p) };
        Ok(())
    })
}

/// Writes how many moves `imcts_engine_undo` can take back to `*out_count`.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, BAD_ENGINE, PANIC (hosted builds).
///
/// # Safety
/// `engine` as for `imcts_engine_game`; `out_count` must be NULL or valid for writing a
/// `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_history_len(
    engine: *const imcts_engine,
    out_count: *mut usize,
) -> imcts_status {
    boundary(|| {
        if out_count.is_null() {
            return Err(imcts_status::NullPointer);
        }
        // SAFETY: forwarded from the caller; read-only.
        let n = unsafe { with_engine_ref(engine, |g| Ok(with_side!(g, s => s.undo_depth()))) }?;
        // SAFETY: non-NULL and valid for writes (caller's guarantee).
        unsafe { out_count.write(n) };
        Ok(())
    })
}

/// Searches the current position with `config` within `budget` and writes the result to
/// `*out`. The position is left as it was: play the move with `imcts_engine_play`.
///
/// MCTS keeps its tree between searches when `config` asks for tree reuse and the moves played
/// since are in the tree; a different configuration starts a new tree (and reseeds). A full
/// node pool is not an error: the search keeps simulating in the tree it has (or stops, with
/// `stop_when_full`) and still returns a legal move, with `pool_full` set. A finished game
/// gives `IMCTS_STATUS_OK` with an empty move and `IMCTS_STOP_GAME_OVER`. `IMCTS_STATUS_BAD_CONFIG`
/// and `IMCTS_STATUS_BAD_BUDGET` are checked before anything changes.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, BAD_BUDGET, BAD_ENGINE, BAD_CONFIG, PANIC (hosted builds).
///
/// # Safety
/// `engine` as for `imcts_engine_game`; `config`, `budget` must be NULL or valid for reading;
/// `out` must be NULL or valid for writing an `imcts_result`; the budget's clock, if any, must
/// be callable with its context for the duration of the call and must not unwind.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_search(
    engine: *mut imcts_engine,
    config: *const imcts_config,
    budget: *const imcts_budget,
    out: *mut imcts_result,
) -> imcts_status {
    // SAFETY: forwarded from the caller.
    boundary(|| unsafe { search_entry(engine, Source::Struct(config), budget, out, &mut None) })
}

/// Searches as [`imcts_engine_search`] does, with the configuration given as a player spec
/// (`mcts(fet0,im0.6,c0.3,ep10)`, `ab(mia)`: the grammar `imcts_config_parse` reads) instead
/// of an [`imcts_config`]. Every label is available here, also those the struct has no field
/// for and `imcts_config_parse` therefore refuses: evaluation priors (`ep`), the paper's-text
/// and paper's-code labels (`text-…`, `code-…`). The spec is parsed for the engine's game at
/// every call (a few microseconds); a spec that fails to parse gives `IMCTS_STATUS_BAD_SPEC`
/// before anything changes (`imcts_config_parse_error` says why). As with
/// `imcts_engine_search`, an unchanged spec keeps a reused tree.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, INVALID_UTF8, BAD_SPEC, BAD_BUDGET,
/// BAD_ENGINE, PANIC (hosted builds).
///
/// # Safety
/// `engine` as for `imcts_engine_game`; `spec` must be NULL or point to `len` readable bytes;
/// `budget` and `out` as for `imcts_engine_search`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_search_spec(
    engine: *mut imcts_engine,
    spec: *const c_char,
    len: usize,
    budget: *const imcts_budget,
    out: *mut imcts_result,
) -> imcts_status {
    boundary(|| {
        // SAFETY: `spec` and `len` forwarded from the caller.
        let text = unsafe { text::input(spec, len) }?;
        // SAFETY: forwarded from the caller.
        unsafe { search_entry(engine, Source::Spec(text), budget, out, &mut None) }
    })
}

/// Where a search's configuration comes from: the C struct, or a player spec.
#[derive(Clone, Copy)]
pub(crate) enum Source<'a> {
    /// An `imcts_config` (validated at the search).
    Struct(*const imcts_config),
    /// A player spec, parsed for the engine's game at the search.
    Spec(&'a str),
}

/// The body of [`imcts_engine_search`], and of `imcts_engine_search_threads` with the threads
/// a host lends.
///
/// # Safety
/// As for [`imcts_engine_search`].
pub(crate) unsafe fn search_entry(
    engine: *mut imcts_engine,
    source: Source<'_>,
    budget: *const imcts_budget,
    out: *mut imcts_result,
    threads: &mut threads::Lent<'_>,
) -> Result<(), imcts_status> {
    {
        if matches!(source, Source::Struct(c) if c.is_null()) || budget.is_null() || out.is_null() {
            return Err(imcts_status::NullPointer);
        }
        // SAFETY: non-NULL and valid for reads (caller's guarantee); both are plain-old-data
        // (integers, floats, a nullable function pointer, a raw pointer), valid for any bits.
        let (config, budget) = unsafe {
            (
                match source {
                    Source::Struct(c) => Some(c.read()),
                    Source::Spec(_) => None,
                },
                budget.read(),
            )
        };
        if budget.time_us != 0 && budget.clock.is_none() {
            return Err(imcts_status::BadBudget);
        }
        let limit = |x: u64| (x != 0).then_some(x);
        let kernel_budget = Budget {
            iterations: limit(budget.simulations),
            nodes: limit(budget.nodes),
            time_us: limit(budget.time_us),
        };
        let mut clock = HostClock {
            now: budget.clock,
            ctx: budget.clock_ctx,
            time_us: budget.time_us,
            first: None,
            last: None,
            same: 0,
        };
        // SAFETY: forwarded from the caller.
        let mut result = unsafe {
            with_engine(engine, |g, r| {
                with_side!(g, s => {
                    let v = match (config, source) {
                        (Some(c), _) => validate(&c)?,
                        (None, Source::Spec(text)) => {
                            spec::parse(text).map_err(|_| imcts_status::BadSpec)?
                        }
                        // Not reached (a struct source is read above); an enum of the read
                        // values instead cost the browser's module 131 bytes.
                        (None, Source::Struct(_)) => return Err(imcts_status::NullPointer),
                    };
                    Ok(search(s, v, kernel_budget, &mut clock, r, threads))
                })
            })
        }?;
        if clock.froze() {
            // The time that really passed by the host's clock (the guard's jump is not time).
            result.elapsed_us = clock
                .last
                .unwrap_or(0)
                .saturating_sub(clock.first.unwrap_or(0));
        }
        // SAFETY: non-NULL and valid for writes (caller's guarantee).
        unsafe { out.write(result) };
        Ok(())
    }
}

/// Writes the principal variation of the last search (the line it expects: the best move, then
/// the replies it considers best; MCTS: the most visited child at each node, αβ: the line of the
/// deepest completed iteration), moves separated by single spaces, to `buf` (buffer convention of
/// the crate docs), and the number of moves to `*out_count`. It is empty before the first search
/// and once the position changes (play, undo, set position, reset). It can be shorter than the
/// game's remainder: the tree, the αβ depth or a transposition-table hit ends it, and it holds
/// at most 64 moves.
///
/// # Safety
/// As for `imcts_engine_legal_moves`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_engine_pv(
    engine: *const imcts_engine,
    buf: *mut c_char,
    capacity: usize,
    out_len: *mut usize,
    out_count: *mut usize,
) -> imcts_status {
    boundary(|| {
        if out_count.is_null() {
            return Err(imcts_status::NullPointer);
        }
        let body = |g: &GamesRef| {
            with_side!(g, s => {
                // SAFETY: buffer validity forwarded from the caller.
                unsafe { text::output(buf, capacity, out_len, |w| s.write_pv(w)) }?;
                Ok(s.pv.len())
            })
        };
        // SAFETY: forwarded from the caller; read-only, so the engine may live in read-only
        // memory (issue 13 item 2).
        let count = unsafe { with_engine_ref(engine, body) }?;
        // SAFETY: non-NULL and valid for writes (caller's guarantee).
        unsafe { out_count.write(count) };
        Ok(())
    })
}

// Stop reasons are passed through as the kernel's discriminants; keep them in step.
const _: () = {
    use crate::config::*;
    assert!(StopReason::Iterations as u32 == IMCTS_STOP_ITERATIONS);
    assert!(StopReason::Nodes as u32 == IMCTS_STOP_NODES);
    assert!(StopReason::Time as u32 == IMCTS_STOP_TIME);
    assert!(StopReason::Proven as u32 == IMCTS_STOP_PROVEN);
    assert!(StopReason::SingleMove as u32 == IMCTS_STOP_SINGLE_MOVE);
    assert!(StopReason::PoolFull as u32 == IMCTS_STOP_POOL_FULL);
    assert!(StopReason::GameOver as u32 == IMCTS_STOP_GAME_OVER);
    assert!(StopReason::MaxDepth as u32 == IMCTS_STOP_MAX_DEPTH);
    assert!(StopReason::VisitLimit as u32 == IMCTS_STOP_VISIT_LIMIT);
};

// The root children's statistics (`imcts_engine_root_children`), in a file of their own.
mod children;
pub use children::*;
mod threads;
pub use threads::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_constants() {
        assert!(ALIGN.is_power_of_two() && ALIGN <= 16);
        assert!(SIDE_OFFSET >= size_of::<Engine>());
        for id in [
            GameId::Breakthrough,
            GameId::TicTacToe,
            GameId::LinesOfAction,
        ] {
            let off = id.region_offset();
            assert!(off.is_multiple_of(ALIGN) && off >= SIDE_OFFSET + id.side_bytes());
            assert_eq!(engine_bytes(id, 10), Ok(off + 240));
            assert_eq!(
                engine_bytes(id, u32::MAX as usize),
                Err(imcts_status::CapacityTooLarge)
            );
        }
    }

    /// Each engine holds only its own game: a Tic-Tac-Toe engine is a few hundred bytes, not
    /// Lines of Action's eleven thousand.
    #[test]
    fn an_engine_is_sized_by_its_own_game() {
        let ttt = engine_bytes(GameId::TicTacToe, 0).unwrap();
        let loa = engine_bytes(GameId::LinesOfAction, 0).unwrap();
        assert!(ttt < 1024, "{ttt}");
        assert!(loa > 8 * ttt, "{loa} vs {ttt}");
    }
}
