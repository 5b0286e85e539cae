"""An imcts engine as an OpenSpiel bot (``pyspiel.Bot``), to pit imcts against OpenSpiel's own.

    import pyspiel
    from imcts.openspiel import Bot
    game = pyspiel.load_game("breakthrough")
    bot = Bot("breakthrough", spec="mcts(ipp,im0.4,reuse)", ms=100)
    state = game.new_initial_state()
    state.apply_action(bot.step(state))

Supported games and how OpenSpiel's actions and boards map to imcts:

``breakthrough`` (8×8, the default parameters)
    OpenSpiel's first player, Black, starts on rows 7–8 and moves down; imcts' first player,
    White, starts on ranks 1–2 and moves up. Files stay, rows flip: OpenSpiel square
    ``(file, row)`` is imcts ``(file, 9 - row)``, so OpenSpiel ``a7a6`` is imcts ``a2-a3`` and
    ``b7c6*`` (a capture) is ``b2xc3``. The rules agree (a piece on the far row or all enemy
    pieces captured wins; captures only diagonally).
``mancala`` (Kalah(6,4))
    OpenSpiel's pits 1–6 are player 0's houses (its store is pit 7), pits 8–13 player 1's (store
    pit 0), sown upwards. imcts counts each mover's houses 1–6 from its own left in sowing
    order, so action ``a`` is move ``a`` for player 0 and ``a - 7`` for player 1. The rules
    agree: extra turn in the own store, capture only when the opposite house has stones, the
    game ends when a side's houses are empty and remaining stones go to their owner.
    (OpenSpiel also ends a game after 1000 moves as a draw; Kalah games are far shorter.)
``tic_tac_toe``
    Action ``3·r + c`` (row ``r`` from the top) is imcts square ``"ABC"[c]`` + ``3 - r``
    (imcts rows count from the bottom).

``lines_of_action`` is **not** supported: OpenSpiel plays the MSO rules (a move connecting
both sides wins for the mover; a side without a move loses; a board repeated once, whoever is
to move, draws; 1000 plies draw), while imcts plays the Computer Olympiad rules (a double
connection draws; a side without a move passes; the third repetition with the same side to
move draws; 600 plies draw). The kernel has options for the first two, but not for OpenSpiel's
repetition rule, and positions reach it through the C ABI only with the default rules.
"""

from __future__ import annotations

from typing import Callable, Dict, Hashable, List, Optional

try:
    import pyspiel  # type: ignore[import-not-found, unused-ignore]
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        "imcts.openspiel needs OpenSpiel: pip install open_spiel (or imcts[openspiel])"
    ) from err

from . import DEFAULT_POOL_NODES, Engine, EngineError, InvalidArgument, InvalidTypeError, \
    SearchResult

__all__ = ["Bot", "SUPPORTED_GAMES", "UnsupportedGameError", "action_to_move", "move_to_action"]

#: OpenSpiel game names the bot plays, and the imcts game each maps to.
SUPPORTED_GAMES: Dict[str, str] = {
    "breakthrough": "breakthrough",
    "mancala": "kalah",
    "tic_tac_toe": "tictactoe",
}

_REFUSED = {
    "lines_of_action": "OpenSpiel's lines_of_action uses the MSO rules (a move connecting both "
                       "sides wins for the mover, a side without a move loses, any repeated "
                       "board draws), imcts the Computer Olympiad rules (a double connection "
                       "draws, no move means pass, a third repetition draws)",
}


class UnsupportedGameError(InvalidArgument):
    """The OpenSpiel game is not one the bot can play (see :data:`SUPPORTED_GAMES`)."""


def _breakthrough_os_key(state: "pyspiel.State", action: int) -> Hashable:
    text = state.action_to_string(state.current_player(), action)  # e.g. "b7c6*"
    return (text[0], 9 - int(text[1]), text[2], 9 - int(text[3]))


def _breakthrough_key(move: str) -> Hashable:  # e.g. "b2xc3"
    return (move[0], int(move[1]), move[3], int(move[4]))


def _mancala_os_key(state: "pyspiel.State", action: int) -> Hashable:
    return str(action if state.current_player() == 0 else action - 7)


def _tictactoe_os_key(state: "pyspiel.State", action: int) -> Hashable:
    row, col = divmod(action, 3)
    return "ABC"[col] + str(3 - row)


# Per OpenSpiel game: an OpenSpiel action (in a state) and an imcts move as one common key.
_KEYS: Dict[str, "tuple[Callable[[pyspiel.State, int], Hashable], Callable[[str], Hashable]]"] = {
    "breakthrough": (_breakthrough_os_key, _breakthrough_key),
    "mancala": (_mancala_os_key, str),
    "tic_tac_toe": (_tictactoe_os_key, str.upper),
}


def _game_name(state: "pyspiel.State") -> str:
    return state.get_game().get_type().short_name


def _moves_by_key(game_name: str, legal_moves: List[str]) -> Dict[Hashable, str]:
    our_key = _KEYS[game_name][1]
    return {our_key(m): m for m in legal_moves}


def action_to_move(state: "pyspiel.State", action: int, legal_moves: List[str]) -> str:
    """The imcts move for OpenSpiel ``action`` in ``state``, given imcts' legal moves of the
    same position (the move's exact text, capture marks included, comes from that list)."""
    os_key = _KEYS[_game_name(state)][0]
    try:
        return _moves_by_key(_game_name(state), legal_moves)[os_key(state, action)]
    except KeyError:
        raise EngineError(f"action: OpenSpiel action {action} "
                          f"({state.action_to_string(state.current_player(), action)}) "
                          f"has no imcts move among {legal_moves}") from None


def move_to_action(state: "pyspiel.State", move: str) -> int:
    """The OpenSpiel action of imcts ``move`` in ``state`` (one of its legal actions)."""
    os_key, our_key = _KEYS[_game_name(state)]
    want = our_key(move)
    for action in state.legal_actions():
        if os_key(state, action) == want:
            return action
    raise EngineError(f"move: imcts move {move!r} is no legal OpenSpiel action here")


class Bot(pyspiel.Bot):
    """An imcts engine playing an OpenSpiel game through the ``pyspiel.Bot`` interface.

    ``game_name`` is an OpenSpiel game name of :data:`SUPPORTED_GAMES` (default parameters);
    ``spec`` an imcts player spec (with ``reuse`` the tree is kept between moves); ``ms`` the
    time per move in milliseconds, or ``sims`` simulations per move instead (deterministic
    for a fixed ``seed<S>`` in the spec). The bot follows any state of its game: it replays the
    state's history into its engine, incrementally when the game continues from the last state
    it saw. :attr:`last_result` holds the last :class:`imcts.SearchResult`.
    """

    def __init__(self, game_name: str, spec: str = "mcts", ms: Optional[float] = 100.0,
                 *, sims: Optional[int] = None, pool_nodes: int = DEFAULT_POOL_NODES) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(game_name, str):
            raise InvalidTypeError("game_name",
                                   f"expected a str, got {type(game_name).__name__}")
        if game_name in _REFUSED:
            raise UnsupportedGameError("game_name", f"{game_name} is not supported: "
                                       f"{_REFUSED[game_name]}")
        if game_name not in SUPPORTED_GAMES:
            raise UnsupportedGameError("game_name", f"unsupported game {game_name!r} (one of: "
                                       f"{', '.join(sorted(SUPPORTED_GAMES))})")
        if ms is None and sims is None:
            raise InvalidArgument("ms", "give a budget per move: ms=... or sims=...")
        self._game_name = game_name
        self._game = pyspiel.load_game(game_name)
        self._engine = Engine(SUPPORTED_GAMES[game_name], spec=spec, pool_nodes=pool_nodes)
        self._ms = ms if sims is None else None
        self._sims = sims
        # Check the budget now rather than at the first move.
        Engine(SUPPORTED_GAMES[game_name], pool_nodes=0).search(sims=self._sims, ms=self._ms)
        self._replica = self._game.new_initial_state()
        self._actions: List[int] = []
        #: The result of the last search, or ``None`` before the first move.
        self.last_result: Optional[SearchResult] = None

    @property
    def engine(self) -> Engine:
        """The engine, in the position of the last state the bot saw."""
        return self._engine

    def restart_at(self, state: "pyspiel.State") -> None:
        """Follows ``state`` (its game must be the bot's)."""
        self._sync(state)

    def restart(self) -> None:
        """Back to the start of the game."""
        self._engine.reset()
        self._replica = self._game.new_initial_state()
        self._actions = []

    def inform_action(self, state: "pyspiel.State", player_id: int, action: int) -> None:
        """Nothing to do: :meth:`step` catches up with the state's history itself."""

    def step(self, state: "pyspiel.State") -> int:
        """The bot's action in ``state`` (a legal OpenSpiel action)."""
        self._sync(state)
        if state.is_terminal():
            raise InvalidArgument("state", "the game is over")
        result = self._engine.search(sims=self._sims, ms=self._ms)
        self.last_result = result
        if result.best_move is None:
            raise EngineError("state: imcts sees a finished game where OpenSpiel does not")
        return move_to_action(state, result.best_move)

    def _sync(self, state: "pyspiel.State") -> None:
        """Brings the engine to ``state`` by playing the actions it has not seen yet."""
        if not isinstance(state, pyspiel.State):
            raise InvalidTypeError("state", f"expected a pyspiel.State, got "
                                   f"{type(state).__name__}")
        if str(state.get_game()) != str(self._game):
            raise InvalidArgument("state", f"a state of {state.get_game()}, but this bot "
                                  f"plays {self._game}")
        history = state.history()
        if history[:len(self._actions)] != self._actions:
            self.restart()
        for action in history[len(self._actions):]:
            move = action_to_move(self._replica, action, self._engine.legal_moves)
            self._engine.play(move)
            self._replica.apply_action(action)
            self._actions.append(action)
