"""The Python API of imcts: engines, searches, results, and bad input of every kind."""

import random

import pytest

import imcts

START = {
    "breakthrough": "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w",
    "kalah": "4,4,4,4,4,4/4,4,4,4,4,4/0-0 s",
    "tictactoe": ".../.../... x",
    "loa": "1XXXXXX1/O6O/O6O/O6O/O6O/O6O/O6O/1XXXXXX1 b",
}


@pytest.mark.parametrize("game", sorted(START))
def test_start_position_moves_and_undo(game):
    e = imcts.Engine(game, pool_nodes=10_000)
    assert e.game == game and e.position == START[game]
    assert e.side_to_move == 0 and e.outcome is None and not e.is_over
    moves = e.legal_moves
    assert moves and len(set(moves)) == len(moves)
    e.play(moves[0])
    assert e.position != START[game] and e.history_len == 1
    e.undo()
    assert e.position == START[game] and e.history_len == 0


def test_aliases_and_repr():
    assert imcts.Engine("tic_tac_toe", pool_nodes=100).game == "tictactoe"
    assert imcts.Engine(" LOA ", pool_nodes=100).game == "loa"
    assert "kalah" in repr(imcts.Engine("kalah", pool_nodes=100))
    assert imcts.version() == "0.1.0" and imcts.abi_version() == 1


def test_search_result_and_children():
    e = imcts.Engine("breakthrough", spec="mcts(ipp,im0.4,seed1)", pool_nodes=100_000)
    r = e.search(sims=1500)
    assert r.best_move in e.legal_moves
    assert r.simulations == 1500 and r.stop == "iterations" and r.proven is None
    assert -1.0 <= r.value <= 1.0 and 0 < r.nodes <= 100_000 and not r.pool_full
    assert sorted(c.move for c in r.children) == sorted(e.legal_moves)
    assert sum(c.visits for c in r.children) == 1500
    visits = [c.visits for c in r.children]
    assert visits == sorted(visits, reverse=True)
    assert all(-1.0 <= c.mean <= 1.0 for c in r.children)
    # The position is unchanged by a search; the same seed repeats the same search.
    assert e.position == START["breakthrough"]
    again = imcts.Engine("breakthrough", spec="mcts(ipp,im0.4,seed1)", pool_nodes=100_000)
    s = again.search(sims=1500)
    assert (s.best_move, s.value, s.nodes, s.children) == (r.best_move, r.value, r.nodes,
                                                           r.children)
    a = imcts.Engine("kalah", spec="mcts(seed9)", pool_nodes=50_000).search(sims=800)
    b = imcts.Engine("kalah", spec="mcts(seed9)", pool_nodes=50_000).search(sims=800)
    assert (a.best_move, a.value, a.children) == (b.best_move, b.value, b.children)


def test_time_and_node_budgets():
    e = imcts.Engine("breakthrough", pool_nodes=1_000_000)
    r = e.search(ms=5)
    assert r.stop == "time" and r.simulations > 0 and r.best_move in e.legal_moves
    r = e.search(nodes=300)
    assert r.stop == "nodes" and r.nodes >= 300


def test_tictactoe_is_solved_as_a_draw():
    e = imcts.Engine("tictactoe", spec="mcts(seed2)", pool_nodes=100_000)
    r = e.search(sims=200_000)
    assert r.proven == "draw" and r.stop == "proven"


def test_alpha_beta_and_spec_change():
    e = imcts.Engine("breakthrough", spec="ab(depth3)", pool_nodes=10_000)
    r = e.search(sims=10**6)
    assert r.depth == 3 and r.stop == "max-depth" and r.children == ()
    e.spec = "mcts(seed4)"
    assert e.spec == "mcts(seed4)" and e.search(sims=100).children


def test_specs_with_labels_the_c_struct_cannot_carry():
    # Evaluation priors, LOA's strongest player (docs/quick-scale.md), and the paper-code labels.
    e = imcts.Engine("loa", spec="mcts(fet0,im0.6,c0.3,ep10,seed2)", pool_nodes=50_000)
    r = e.search(sims=2000)
    assert r.best_move in e.legal_moves and r.simulations == 2000
    e.spec = "mcts(im0.4,text-proven)"
    assert e.search(sims=200).best_move in e.legal_moves
    b = imcts.Engine("breakthrough", spec="mcts(bl,random-ties,seed3)", pool_nodes=20_000)
    assert b.search(sims=300).best_move in b.legal_moves
    # Breakthrough breaks ties as the paper's code does; Kalah's code-ties only a spec carries.
    k = imcts.Engine("kalah", spec="mcts(fet4,im0.3,code-ties)", pool_nodes=20_000)
    assert k.search(sims=300).best_move in k.legal_moves
    with pytest.raises(imcts.SpecError):
        imcts.Engine("loa", spec="mcts(np,ep)")


def test_finished_game_and_tiny_pool():
    e = imcts.Engine("tictactoe", pool_nodes=0)
    for m in ["A1", "A2", "B1", "B2", "C1"]:
        e.play(m)
    assert e.outcome == "first" and e.is_over and e.legal_moves == []
    r = e.search(sims=10)
    assert r.best_move is None and r.stop == "game-over"
    with pytest.raises(imcts.IllegalMoveError):
        e.play("C3")
    # No room for a tree: the engine still answers with a legal move.
    t = imcts.Engine("breakthrough", pool_nodes=0)
    assert t.search(sims=100).best_move in t.legal_moves


def test_position_setter_and_reset():
    e = imcts.Engine("kalah", pool_nodes=1000, position="0,0,0,0,0,1/1,0,0,0,0,0/20-26 s")
    assert e.legal_moves == ["6"]
    e.play("6")
    assert e.side_to_move == 0  # the last stone landed in the own store: South again
    e.reset()
    assert e.position == START["kalah"]


# (call, expected exception class, field named in the message)
BAD = [
    (lambda: imcts.Engine("chess"), imcts.UnknownGameError, "game"),
    (lambda: imcts.Engine(3), imcts.InvalidTypeError, "game"),
    (lambda: imcts.Engine("kalah", spec="mcts(nonsense)"), imcts.SpecError, "spec"),
    (lambda: imcts.Engine("kalah", spec="mcts(ipp)"), imcts.SpecError, "spec"),
    (lambda: imcts.Engine("kalah", spec=None), imcts.InvalidTypeError, "spec"),
    (lambda: imcts.Engine("kalah", pool_nodes=-1), imcts.PoolSizeError, "pool_nodes"),
    (lambda: imcts.Engine("kalah", pool_nodes=2**32), imcts.PoolSizeError, "pool_nodes"),
    (lambda: imcts.Engine("kalah", pool_nodes=4_000_000_000), imcts.PoolSizeError,
     "pool_nodes"),
    (lambda: imcts.Engine("kalah", pool_nodes=1.5), imcts.InvalidTypeError, "pool_nodes"),
    (lambda: imcts.Engine("kalah", pool_nodes=True), imcts.InvalidTypeError, "pool_nodes"),
    (lambda: imcts.Engine("kalah", position="1,2,3"), imcts.PositionError, "position"),
]

BAD_ON_ENGINE = [
    (lambda e: e.play("a1-a5"), imcts.IllegalMoveError, "move"),
    (lambda e: e.play("e2-e4"), imcts.IllegalMoveError, "move"),
    (lambda e: e.play("hello"), imcts.MoveError, "move"),
    (lambda e: e.play(""), imcts.MoveError, "move"),
    (lambda e: e.play(None), imcts.InvalidTypeError, "move"),
    (lambda e: e.play(b"e2-e3"), imcts.InvalidTypeError, "move"),
    (lambda e: e.play("\ud800"), imcts.InvalidArgument, "move"),
    (lambda e: e.play("x" * 100_000), imcts.InvalidArgument, "move"),
    (lambda e: e.undo(), imcts.NothingToUndoError, "undo"),
    (lambda e: setattr(e, "position", "8/8/8 w"), imcts.PositionError, "position"),
    (lambda e: setattr(e, "position", 42), imcts.InvalidTypeError, "position"),
    (lambda e: setattr(e, "spec", "mcts(c-1)"), imcts.SpecError, "spec"),
    (lambda e: e.search(), imcts.BudgetError, "sims"),
    (lambda e: e.search(sims=0), imcts.BudgetError, "sims"),
    (lambda e: e.search(sims=-5), imcts.BudgetError, "sims"),
    (lambda e: e.search(sims=2**64), imcts.BudgetError, "sims"),
    (lambda e: e.search(sims=1.0), imcts.InvalidTypeError, "sims"),
    (lambda e: e.search(ms=0), imcts.BudgetError, "ms"),
    (lambda e: e.search(ms=float("inf")), imcts.BudgetError, "ms"),
    (lambda e: e.search(ms=float("nan")), imcts.BudgetError, "ms"),
    (lambda e: e.search(ms=10**400), imcts.BudgetError, "ms"),
    (lambda e: e.search(ms="5"), imcts.InvalidTypeError, "ms"),
    (lambda e: e.search(nodes=-1), imcts.BudgetError, "nodes"),
]


@pytest.mark.parametrize("call,exc,field", BAD)
def test_bad_constructor_arguments(call, exc, field):
    with pytest.raises(exc) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert info.value.field == field and str(info.value).startswith(field + ": ")


@pytest.mark.parametrize("call,exc,field", BAD_ON_ENGINE)
def test_bad_input_names_the_field_and_changes_nothing(call, exc, field):
    e = imcts.Engine("breakthrough", spec="mcts(seed1)", pool_nodes=20_000)
    before = (e.position, e.spec, e.history_len)
    with pytest.raises(exc) as info:
        call(e)
    assert isinstance(info.value, ValueError)
    assert info.value.field == field and str(info.value).startswith(field + ": ")
    assert (e.position, e.spec, e.history_len) == before


def test_random_garbage_never_crashes():
    rng = random.Random(12345)
    alphabet = "abcdefgh12345678xX-/ ,.woOpP()0123456789;é\x00\n"
    for game in ["breakthrough", "kalah", "tictactoe", "loa", "gomoku"]:
        e = imcts.Engine(game, pool_nodes=5_000)
        for _ in range(300):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
            for action in (lambda: e.play(text), lambda: setattr(e, "position", text),
                           lambda: setattr(e, "spec", text)):
                try:
                    action()
                except imcts.InvalidArgument:
                    pass
            assert isinstance(e.position, str)
        e.spec = "mcts(seed1)"
        e.reset()
        assert e.search(sims=50).best_move in e.legal_moves


def test_random_games_play_to_the_end():
    rng = random.Random(7)
    for game in ["breakthrough", "kalah", "tictactoe", "loa", "gomoku"]:
        e = imcts.Engine(game, pool_nodes=1_000)
        plies = 0
        while not e.is_over and plies < 1000:
            e.play(rng.choice(e.legal_moves))
            plies += 1
        assert e.is_over, game
        assert e.outcome in ("first", "second", "draw")
