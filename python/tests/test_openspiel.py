"""imcts.openspiel: the action and board mappings against OpenSpiel's own games, and full games
of the bot against pyspiel.MCTSBot."""

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import imcts  # noqa: E402
from imcts.openspiel import SUPPORTED_GAMES, Bot, UnsupportedGameError, action_to_move  # noqa

GAMES = sorted(SUPPORTED_GAMES)


def os_board(game_name, position):
    """OpenSpiel's board lines (as its ``str(state)`` prints them) for an imcts position."""
    board, side = position.split(" ")[:2]
    if game_name == "breakthrough":
        ranks = []
        for rank in board.split("/"):  # rank 8 first
            row = ""
            for ch in rank:
                row += "." * int(ch) if ch.isdigit() else ch
            ranks.append(row)
        # imcts rank k is OpenSpiel row 9 - k; imcts White ("P", first) is OpenSpiel "b".
        rows = ranks[::-1]  # imcts rank 1 first = OpenSpiel row 8 first
        table = str.maketrans({"P": "b", "p": "w"})
        return [f"{8 - i}{r.translate(table)}" for i, r in enumerate(rows)]
    if game_name == "mancala":
        south, north, stores = board.split("/")
        s = south.split(",")
        n = north.split(",")
        s_store, n_store = stores.split("-")
        top = "-" + "-".join(reversed(n)) + "-"
        middle = n_store + "-" * 11 + s_store
        bottom = "-" + "-".join(s) + "-"
        return [top, middle, bottom]
    if game_name == "tic_tac_toe":
        return [row.lower() for row in board.split("/")]
    raise AssertionError(game_name)


def check_state(game_name, state, engine):
    """imcts' engine and OpenSpiel's state agree: legal moves one to one, board, mover, end."""
    lines = str(state).split("\n")
    want = os_board(game_name, engine.position)
    if game_name == "mancala" and state.is_terminal():
        # imcts sweeps the remaining stones into their owner's store at the end; OpenSpiel
        # leaves them in the houses and adds them up in its returns. Compare the totals.
        top, middle, bottom = (line.strip("-").split("-") for line in lines[:3])
        north = sum(map(int, top)) + int(middle[0])
        south = sum(map(int, bottom)) + int(middle[-1])
        assert [str(north), str(south)] == [want[1].split("-")[0], want[1].split("-")[-1]]
    else:
        assert lines[: len(want)] == want
    assert state.is_terminal() == engine.is_over
    if state.is_terminal():
        returns = state.returns()
        want = {"first": [1.0, -1.0], "second": [-1.0, 1.0], "draw": [0.0, 0.0]}
        assert returns == want[engine.outcome]
        return
    assert state.current_player() == engine.side_to_move
    ours = engine.legal_moves
    mapped = [action_to_move(state, a, ours) for a in state.legal_actions()]
    assert sorted(mapped) == sorted(ours), "a bijection between legal actions and moves"


@pytest.mark.parametrize("game_name", GAMES)
def test_mapping_agrees_at_random_states(game_name):
    game = pyspiel.load_game(game_name)
    rng = random.Random(2024)
    states = 0
    for _ in range(60):
        state = game.new_initial_state()
        engine = imcts.Engine(SUPPORTED_GAMES[game_name], pool_nodes=100)
        check_state(game_name, state, engine)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            engine.play(action_to_move(state, action, engine.legal_moves))
            state.apply_action(action)
            check_state(game_name, state, engine)
            states += 1
    assert states > 300


@pytest.mark.parametrize("game_name", GAMES)
def test_full_game_against_openspiel_mcts(game_name):
    game = pyspiel.load_game(game_name)
    for imcts_player in (0, 1):
        ours = Bot(game_name, spec="mcts(seed3,reuse)", sims=300, pool_nodes=50_000)
        theirs = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 7), 2.0, 100, 50,
                                 True, 11, False)
        state = game.new_initial_state()
        plies = sims = 0
        while not state.is_terminal():
            bot = ours if state.current_player() == imcts_player else theirs
            action = bot.step(state)
            if bot is ours:
                sims += ours.last_result.simulations
            assert action in state.legal_actions()
            state.apply_action(action)
            plies += 1
        assert plies > 0 and sum(state.returns()) == 0
        assert sims > 0 and ours.last_result.best_move is not None


def test_time_budget_and_restart():
    bot = Bot("tic_tac_toe", spec="mcts", ms=5, pool_nodes=10_000)
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    state.apply_action(4)
    assert bot.step(state) in state.legal_actions()
    # A different game history: the bot starts over from the new state.
    other = game.new_initial_state()
    other.apply_action(0)
    other.apply_action(8)
    assert bot.step(other) in other.legal_actions()
    assert bot.engine.history_len == 2


def test_bad_arguments():
    with pytest.raises(UnsupportedGameError) as info:
        Bot("lines_of_action")
    assert info.value.field == "game_name" and "MSO" in str(info.value)
    with pytest.raises(UnsupportedGameError):
        Bot("chess")
    with pytest.raises(imcts.InvalidTypeError):
        Bot(7)
    with pytest.raises(imcts.SpecError):
        Bot("mancala", spec="mcts(ipp)")
    with pytest.raises(imcts.BudgetError):
        Bot("mancala", ms=-1)
    with pytest.raises(imcts.InvalidArgument):
        Bot("mancala", ms=None)
    bot = Bot("breakthrough", sims=10, pool_nodes=1000)
    with pytest.raises(imcts.InvalidArgument) as info:
        bot.step(pyspiel.load_game("tic_tac_toe").new_initial_state())
    assert info.value.field == "state"
    with pytest.raises(imcts.InvalidTypeError):
        bot.step("not a state")
    finished = pyspiel.load_game("breakthrough").new_initial_state()
    rng = random.Random(1)
    while not finished.is_terminal():
        finished.apply_action(rng.choice(finished.legal_actions()))
    with pytest.raises(imcts.InvalidArgument):
        bot.step(finished)
