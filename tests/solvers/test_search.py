"""The proof-number search (``solvers.search``) against the retrograde solver and known results.

The search prunes with Hex knowledge (immediate wins, double threats, must-play carriers) and
Notakto knowledge (never kill the last board), and keys its table by symmetry classes; every
one of those is checked here against the exhaustive retrograde tables on seeded samples (Hex
4 x 4 in ``tests/test_board_games.py``, which solves it once for both).
"""

from __future__ import annotations

import numpy as np
import pytest

from games import make_game
from solvers import solve
from solvers.search import search


def sample(sol, count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    ids = rng.choice(sol.universe.size, size=min(count, sol.universe.size), replace=False)
    return sol.universe.positions(np.sort(ids))


@pytest.mark.parametrize("name, params, count", [
    ("hex", {"n": 3}, 400), ("hex", {"n": 2}, 32), ("notakto", {"n": 3}, 450), ("notakto", {"n": 4}, 300),
    ("notakto", {"n": 3, "boards": 2}, 300), ("notakto", {"n": 3, "k": 2, "boards": 2}, 200),
    ("notakto", {"n": 2, "k": 2, "boards": 3}, 200), ("notakto", {"n": 1}, 2), ("hex", {"n": 1}, 2),
])
def test_search_matches_the_retrograde(name, params, count):
    game = make_game(name, **params)
    sol = solve(game)
    positions = sample(sol, count, seed=3)
    got = [search(game, p, moves=False).value for p in positions]
    np.testing.assert_array_equal(got, sol.outcome(positions))


def test_move_values_match_the_retrograde():
    game = make_game("hex", n=3)
    sol = solve(game)
    for p in sample(sol, 40, seed=5):
        result = search(game, p)
        options = game.moves(p)
        assert list(result.moves) == options
        if options:
            assert list(result.moves.values()) == (-sol.outcome(options)).tolist()
        assert result.value == int(sol.outcome([p])[0])


@pytest.mark.parametrize("boards, winner", [(1, 1), (2, -1), (3, 1)])
def test_notakto_3x3_boards(boards, winner):
    assert search(make_game("notakto", n=3, boards=boards), moves=False).value == winner


def test_notakto_known_openings():
    result = search(make_game("notakto", n=3))
    assert result.value == 1 and result.winning_moves() == [(16,)]  # only the centre
    assert search(make_game("notakto", n=4), moves=False).value == -1


@pytest.mark.slow
def test_hex_5x5_first_player_wins_through_the_centre_not_the_acute_corner():
    game = make_game("hex", n=5)
    assert search(game, moves=False).value == 1
    assert search(game, (1 << 12, 0), moves=False).value == -1  # after the centre the second player loses
    assert search(game, (1 << 0, 0), moves=False).value == 1  # after the acute corner a1 the second player wins


def test_result_and_bad_input():
    game = make_game("hex", n=2)
    result = search(game)
    assert result.position == (0, 0) and result.value == 1 and result.nodes >= 1 and result.seconds >= 0
    assert search(game, (5, 2)).moves == {}  # the first player has connected: no move
    with pytest.raises(ValueError, match="solvers.solve"):
        search(make_game("tictactoe"))
    with pytest.raises(ValueError, match="n <= 6"):
        search(make_game("hex", n=7))
    with pytest.raises(ValueError, match="boards <= 2"):
        search(make_game("notakto", n=5, boards=3))
    with pytest.raises(ValueError, match="table_bits"):
        search(game, table_bits=3)
    with pytest.raises(ValueError, match="max_nodes"):
        search(game, max_nodes=0)
    with pytest.raises(ValueError, match="position"):
        search(game, (1, 1))
    with pytest.raises(RuntimeError, match="max_nodes"):
        search(make_game("hex", n=4), max_nodes=3, moves=False)
    with pytest.raises(TypeError):
        search("hex")


def test_every_opening_of_three_3x3_notakto_boards_wins_by_an_independent_minimax():
    """The plain-Python minimax of ``tests/games/test_board_games.py`` on every first move."""
    from tests.games.test_board_games import cells_of, py_notakto_value

    value = py_notakto_value(3, 3)
    result = search(make_game("notakto", n=3, boards=3))
    for option, move_value in result.moves.items():
        assert move_value == -value([cells_of(board) for board in option])
    assert result.value == value([frozenset()] * 3) == 1


def test_hex_5x5_search_matches_the_retrograde_from_late_positions():
    """The Hex pruning on the 5 x 5 geometry, checked against the exact retrograde over every
    position reachable from five seeded 13-stone positions (positions of a larger board that the
    retrograde reaches through ``solve(game, starts=...)``)."""
    game = make_game("hex", n=5)
    rng = np.random.default_rng(11)
    starts = []
    while len(starts) < 5:
        cells = rng.permutation(25)[:13]
        start = (sum(1 << int(c) for c in cells[0::2]), sum(1 << int(c) for c in cells[1::2]))
        if game.moves(start):
            starts.append(start)
    sol = solve(game, starts=starts)
    positions = sample(sol, 300, seed=12)
    got = [search(game, p, moves=False).value for p in positions]
    np.testing.assert_array_equal(got, sol.outcome(positions))
    for p in starts:
        result = search(game, p)
        assert list(result.moves.values()) == (-sol.outcome(game.moves(p))).tolist()


def test_progress_counts_the_position_and_each_move():
    calls = []
    result = search(make_game("hex", n=3), progress=lambda done, total: calls.append((done, total)))
    assert calls == [(done, 10) for done in range(1, 11)] and len(result.moves) == 9
    calls.clear()
    search(make_game("hex", n=3), moves=False, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 1)]


def test_proofs_cut_into_slices_give_the_same_values(monkeypatch):
    """Between compiled slices the table keeps the work (and Ctrl-C is seen): tiny slices change no value."""
    import solvers.search as search_module

    game = make_game("hex", n=4)
    whole = search(game)
    monkeypatch.setattr(search_module, "SLICE", 64)
    sliced = search(game)
    assert sliced.moves == whole.moves and sliced.value == whole.value == 1
    with pytest.raises(RuntimeError, match="max_nodes"):
        search(game, max_nodes=100, moves=False)
