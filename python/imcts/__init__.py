"""imcts: MCTS with implicit minimax backups (and αβ) for two-player games.

A Python front end to the imcts kernel through its C ABI. One :class:`Engine` holds a game
position, its undo history and a search tree in memory it owns::

    import imcts
    e = imcts.Engine("breakthrough", spec="mcts(ipp,im0.4)", pool_nodes=200_000)
    e.play("e2-e3")
    r = e.search(sims=2000)
    print(r.best_move, r.value, [(c.move, c.visits) for c in r.children[:3]])

Games: ``breakthrough``, ``loa`` (Lines of Action), ``kalah``, ``tictactoe``, ``gomoku``.
Player specs (``mcts(ipp,im0.4)``, ``mcts(reuse,seed7)``, ``ab(efLH,depth6)``) are the
grammar of the project README. Every bad argument raises an :class:`InvalidArgument`
(a :class:`ValueError`) whose message starts with the argument's name and whose ``field``
attribute holds it. :mod:`imcts.openspiel` adapts an engine to OpenSpiel's ``pyspiel.Bot``.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from . import _imcts

__all__ = [
    "Engine",
    "SearchResult",
    "ChildStats",
    "GAMES",
    "DEFAULT_POOL_NODES",
    "ImctsError",
    "InvalidArgument",
    "InvalidTypeError",
    "UnknownGameError",
    "SpecError",
    "PositionError",
    "MoveError",
    "IllegalMoveError",
    "BudgetError",
    "PoolSizeError",
    "NothingToUndoError",
    "EngineError",
    "version",
    "abi_version",
]

#: Game names and their C ABI ids (``IMCTS_GAME_*``). Aliases map to the same id.
GAMES: Dict[str, int] = {
    "breakthrough": 0,
    "loa": 1,
    "lines_of_action": 1,
    "kalah": 2,
    "tictactoe": 3,
    "tic_tac_toe": 3,
    "gomoku": 4,
}
_CANONICAL = {0: "breakthrough", 1: "loa", 2: "kalah", 3: "tictactoe", 4: "gomoku"}

#: Search nodes of an engine unless ``pool_nodes`` says otherwise (24 bytes each: 24 MiB).
DEFAULT_POOL_NODES = 1 << 20
#: The kernel's limit on a node pool (``2^32 - 2`` nodes).
MAX_POOL_NODES = (1 << 32) - 2

_U64_MAX = (1 << 64) - 1
_STOPS = ["iterations", "nodes", "time", "proven", "single-move", "pool-full", "game-over",
          "max-depth", "visit-limit"]
_PROVEN = [None, "win", "loss", "draw"]
_OUTCOMES = [None, "first", "second", "draw"]

# C ABI status codes (include/imcts.h).
_PANIC, _NULL, _UNKNOWN_GAME, _UTF8, _BAD_POSITION, _BAD_MOVE, _ILLEGAL = 1, 2, 3, 4, 5, 6, 7
_BAD_SPEC, _BAD_CONFIG, _BAD_BUDGET, _MEM_SMALL, _NOTHING_TO_UNDO, _CAPACITY = 8, 9, 10, 12, 14, 16


class ImctsError(Exception):
    """Base class of every exception this package raises."""


class InvalidArgument(ImctsError, ValueError):
    """A bad argument. ``field`` names it; the message starts with ``"<field>: "``."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class InvalidTypeError(InvalidArgument, TypeError):
    """An argument of the wrong type (also a :class:`TypeError`)."""


class UnknownGameError(InvalidArgument):
    """The game name is not one of :data:`GAMES`."""


class SpecError(InvalidArgument):
    """The player spec does not parse for this game."""


class PositionError(InvalidArgument):
    """The position string is malformed or impossible."""


class MoveError(InvalidArgument):
    """The move text names no move of this game."""


class IllegalMoveError(MoveError):
    """The move is well formed but not legal in the current position."""


class BudgetError(InvalidArgument):
    """A search budget (``sims``, ``ms``, ``nodes``) is missing or out of range."""


class PoolSizeError(InvalidArgument):
    """``pool_nodes`` is out of range."""


class NothingToUndoError(InvalidArgument):
    """:meth:`Engine.undo` with no move to take back."""


class EngineError(ImctsError, RuntimeError):
    """The library reported an internal failure (a caught panic); build a new engine."""


def version() -> str:
    """The library version, e.g. ``"0.1.0"``."""
    return _imcts.version()


def abi_version() -> int:
    """The C ABI version the package was built against."""
    return _imcts.abi_version()


def _status(err: Exception) -> Tuple[int, str]:
    code, text = err.args
    return int(code), str(text)


def _raise_status(err: Exception, field: str, value: object = None) -> None:
    """Turns a ``StatusError`` of the extension into the matching public exception."""
    code, text = _status(err)
    shown = "" if value is None else f" {value!r}"
    if code == _UNKNOWN_GAME:
        raise UnknownGameError(field, f"unknown game{shown}") from None
    if code == _BAD_SPEC or code == _BAD_CONFIG:
        raise SpecError(field, f"{text}:{shown}") from None
    if code == _BAD_POSITION:
        raise PositionError(field, f"{text}:{shown}") from None
    if code == _BAD_MOVE:
        raise MoveError(field, f"{text}:{shown}") from None
    if code == _ILLEGAL:
        raise IllegalMoveError(field, f"{text}:{shown}") from None
    if code == _UTF8:
        raise InvalidArgument(field, f"{text}:{shown}") from None
    if code == _BAD_BUDGET:
        raise BudgetError(field, text) from None
    if code in (_MEM_SMALL, _CAPACITY):
        raise PoolSizeError(field, f"{text}:{shown}") from None
    if code == _NOTHING_TO_UNDO:
        raise NothingToUndoError(field, "no move to undo") from None
    raise EngineError(f"{field}: {text} (status {code})") from None


def _text(field: str, value: object, limit: int = 4096) -> str:
    """Checks a text argument: a ``str`` that encodes to UTF-8, not absurdly long."""
    if not isinstance(value, str):
        raise InvalidTypeError(field, f"expected a str, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidArgument(field, f"not valid Unicode text: {value!r}") from None
    if len(value) > limit:
        raise InvalidArgument(field, f"longer than {limit} characters ({len(value)})")
    return value


def _count(field: str, value: object, low: int, high: int) -> int:
    """Checks an integer argument in ``[low, high]`` (``bool`` is refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidTypeError(field, f"expected an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise BudgetError(field, f"must be in [{low}, {high}], got {value}")
    return value


def _game_id(game: object) -> int:
    game = _text("game", game, 64)
    try:
        return GAMES[game.strip().lower()]
    except KeyError:
        names = ", ".join(sorted(GAMES))
        raise UnknownGameError("game", f"unknown game {game!r} (one of: {names})") from None


def _physical_memory() -> Optional[int]:
    """The machine's physical memory in bytes, if the platform says."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return None


@dataclass(frozen=True)
class ChildStats:
    """One root child after an MCTS search, from the view of the side to move at the root."""

    #: The move in the game's notation.
    move: str
    #: Visits (node-prior virtual visits included).
    visits: int
    #: Mean simulation reward in ``[-1, 1]``.
    mean: float
    #: Implicit minimax value (or static evaluation) in ``[-1, 1]``.
    value: float
    #: ``"win"``, ``"loss"`` or ``"draw"`` if the solver proved the move's value, else ``None``.
    proven: Optional[str]


@dataclass(frozen=True)
class SearchResult:
    """What :meth:`Engine.search` found."""

    #: The chosen move, or ``None`` when the game is over.
    best_move: Optional[str]
    #: MCTS: the root value for the side to move in ``[-1, 1]``; αβ: the root score.
    value: float
    #: MCTS: simulations run; αβ: nodes searched.
    simulations: int
    #: MCTS: tree nodes in use; αβ: nodes searched.
    nodes: int
    #: Wall-clock time of the search in milliseconds.
    elapsed_ms: float
    #: Why the search stopped: ``iterations``, ``nodes``, ``time``, ``proven``,
    #: ``single-move``, ``pool-full``, ``game-over``, ``max-depth`` or ``visit-limit``.
    stop: str
    #: ``"win"``, ``"loss"`` or ``"draw"`` for the side to move if proven, else ``None``.
    proven: Optional[str]
    #: αβ: the last completed depth; MCTS: 0.
    depth: int
    #: MCTS: whether the node pool ran full (the move is still legal).
    pool_full: bool
    #: MCTS: every root child, most visited first (empty for αβ and trivial searches).
    children: Tuple[ChildStats, ...]


class Engine:
    """A game position, its undo history and a searcher (MCTS or αβ) with its own memory.

    ``game`` is a name of :data:`GAMES`; ``spec`` a player spec such as ``"mcts(ipp,im0.4)"``
    or ``"ab(depth6)"``; ``pool_nodes`` the number of search nodes (24 bytes each), which is
    also the αβ transposition table's memory. ``position`` optionally sets a start position.
    One engine must not be used from two threads at once (a second caller gets a
    ``RuntimeError`` instead of a race); different engines are independent.
    """

    def __init__(self, game: str, spec: str = "mcts", pool_nodes: int = DEFAULT_POOL_NODES,
                 position: Optional[str] = None) -> None:
        gid = _game_id(game)
        spec = _text("spec", spec, 1024)
        if isinstance(pool_nodes, bool) or not isinstance(pool_nodes, int):
            raise InvalidTypeError("pool_nodes",
                                   f"expected an int, got {type(pool_nodes).__name__}")
        if not 0 <= pool_nodes <= MAX_POOL_NODES:
            raise PoolSizeError("pool_nodes",
                                f"must be in [0, {MAX_POOL_NODES}], got {pool_nodes}")
        try:
            size = _imcts.engine_size(gid, pool_nodes)
        except _imcts.StatusError as err:
            _raise_status(err, "pool_nodes", pool_nodes)
        ram = _physical_memory()
        if ram is not None and size > ram:
            raise PoolSizeError("pool_nodes", f"{pool_nodes} nodes need {size} bytes, more than "
                                f"this machine's {ram} bytes of memory")
        try:
            _imcts.check_spec(gid, spec)
        except _imcts.StatusError as err:
            _raise_status(err, "spec", spec)
        try:
            self._raw = _imcts.RawEngine(gid, pool_nodes, spec)
        except _imcts.StatusError as err:
            _raise_status(err, "pool_nodes", pool_nodes)
        self._game = _CANONICAL[gid]
        self._spec = spec
        self._pool_nodes = pool_nodes
        if position is not None:
            self.position = position

    def __repr__(self) -> str:
        return f"Engine({self._game!r}, spec={self._spec!r}, pool_nodes={self._pool_nodes})"

    @property
    def game(self) -> str:
        """The game's canonical name (``breakthrough``, ``loa``, ``kalah``, ...)."""
        return self._game

    @property
    def pool_nodes(self) -> int:
        """The node capacity of the search memory."""
        return self._pool_nodes

    @property
    def spec(self) -> str:
        """The player spec searches use; assigning a new one checks it first."""
        return self._spec

    @spec.setter
    def spec(self, spec: str) -> None:
        spec = _text("spec", spec, 1024)
        try:
            self._raw.set_spec(spec)
        except _imcts.StatusError as err:
            _raise_status(err, "spec", spec)
        self._spec = spec

    @property
    def position(self) -> str:
        """The position in the game's notation; assigning one clears history and tree."""
        return self._call("position", self._raw.position)

    @position.setter
    def position(self, position: str) -> None:
        position = _text("position", position)
        self._call("position", self._raw.set_position, position)

    @property
    def legal_moves(self) -> List[str]:
        """The legal moves in the game's notation (empty once the game is over)."""
        text = self._call("legal_moves", self._raw.legal_moves)
        return text.split(" ") if text else []

    @property
    def side_to_move(self) -> int:
        """``0`` if the first player (who moves first from the start) is to move, else ``1``."""
        return self._call("side_to_move", self._raw.side_to_move)

    @property
    def outcome(self) -> Optional[str]:
        """``None`` while the game goes on, else ``"first"``, ``"second"`` or ``"draw"``."""
        return _OUTCOMES[self._call("outcome", self._raw.outcome)]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    @property
    def history_len(self) -> int:
        """How many moves :meth:`undo` can take back (at most 256)."""
        return self._call("history_len", self._raw.history_len)

    def play(self, move: str) -> None:
        """Plays ``move``. :class:`MoveError` / :class:`IllegalMoveError` leave all unchanged."""
        move = _text("move", move, 64)
        self._call("move", self._raw.play, move)

    def undo(self) -> None:
        """Takes back the last move; :class:`NothingToUndoError` when there is none."""
        self._call("undo", self._raw.undo)

    def reset(self) -> None:
        """Back to the start position, clearing history and tree."""
        self._call("reset", self._raw.reset)

    def search(self, sims: Optional[int] = None, ms: Optional[float] = None,
               nodes: Optional[int] = None) -> SearchResult:
        """Searches the current position and returns a :class:`SearchResult`.

        Give at least one budget: ``sims`` (MCTS simulations, αβ nodes), ``ms`` (wall-clock
        milliseconds, may be fractional) or ``nodes`` (tree nodes in use); the first one
        reached stops the search. The position is unchanged: play the move with :meth:`play`.
        """
        if sims is None and ms is None and nodes is None:
            raise BudgetError("sims", "give a budget: sims=..., ms=... or nodes=...")
        sim_limit = 0 if sims is None else _count("sims", sims, 1, _U64_MAX)
        node_limit = 0 if nodes is None else _count("nodes", nodes, 1, _U64_MAX)
        time_us = 0
        if ms is not None:
            if isinstance(ms, bool) or not isinstance(ms, (int, float)):
                raise InvalidTypeError("ms", f"expected a number, got {type(ms).__name__}")
            ok = (0 < ms <= _U64_MAX // 1000 if isinstance(ms, int)
                  else math.isfinite(ms) and 0 < ms <= _U64_MAX / 1000)
            if not ok:
                raise BudgetError("ms", f"must be a positive finite number, got {ms!r}")
            time_us = max(1, int(ms * 1000))
        row = self._call("search", self._raw.search, sim_limit, node_limit, time_us)
        best, value, n_sims, n_nodes, elapsed_us, stop, proven, depth, full, kids = row
        children = tuple(sorted(
            (ChildStats(m, v, mean, val, _PROVEN[p] if p < 4 else None)
             for m, v, mean, val, p in kids),
            key=lambda c: -c.visits))
        return SearchResult(
            best_move=best or None, value=value, simulations=n_sims, nodes=n_nodes,
            elapsed_ms=elapsed_us / 1000.0,
            stop=_STOPS[stop] if stop < len(_STOPS) else str(stop),
            proven=_PROVEN[proven] if proven < 4 else None, depth=depth, pool_full=full,
            children=children)

    def _call(self, field: str, fn, *args):  # type: ignore[no-untyped-def]
        try:
            return fn(*args)
        except _imcts.StatusError as err:
            _raise_status(err, field, args[0] if args and field != "search" else None)
