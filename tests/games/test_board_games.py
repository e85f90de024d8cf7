"""Board games (Notakto, Hex, tic-tac-toe): rules, bad input, known results by the retrograde solver,
and cross-checks against OpenSpiel and against plain-Python minimax written here from the rules.

The plain-Python references below share no code with ``games`` or ``solvers``: lines, Hex
neighbours and connections are recomputed from the definitions, positions are sets of cells.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from games import make_game
from solvers import solve
from solvers.search import search


# -- plain-Python rules ----------------------------------------------------------------------------
def py_lines(n: int, k: int) -> list[frozenset]:
    lines = []
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr) * n + c + i * dc for i in range(k)
                         if 0 <= r + i * dr < n and 0 <= c + i * dc < n]
                if len(cells) == k:
                    lines.append(frozenset(cells))
    return lines


def py_hex_connected(stones: frozenset, n: int, vertical: bool) -> bool:
    """Breadth-first search from one side through ``stones`` (vertical: top to bottom)."""
    def side(cell, first):
        r, c = divmod(cell, n)
        return (r if vertical else c) == (0 if first else n - 1)

    frontier = [s for s in stones if side(s, True)]
    seen = set(frontier)
    while frontier:
        cell = frontier.pop()
        if side(cell, False):
            return True
        r, c = divmod(cell, n)
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1)):
            if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc in stones - seen:
                seen.add((r + dr) * n + c + dc)
                frontier.append((r + dr) * n + c + dc)
    return False


def bits(cells) -> int:
    return sum(1 << c for c in cells)


def py_hex_value(n: int):
    """Memoised minimax of Hex over (first's cells, second's cells): +1 when the player to move wins."""
    @functools.cache
    def value(first: frozenset, second: frozenset) -> int:
        if py_hex_connected(first, n, True) or py_hex_connected(second, n, False):
            return -1
        mover_first = len(first) == len(second)
        empty = set(range(n * n)) - first - second
        for cell in empty:
            child = value(first | {cell}, second) if mover_first else value(first, second | {cell})
            if child == -1:
                return 1
        return -1

    return value


def py_notakto_value(n: int, k: int):
    """Memoised minimax of Notakto: ``value(boards)`` for a sequence of boards (sets of cells), each
    position remembered by its live boards up to the square's symmetries and the boards' order."""
    lines = py_lines(n, k)
    cells = range(n * n)
    turn = [c % n * n + n - 1 - c // n for c in cells]  # (r, c) -> (c, n - 1 - r)
    mirror = [c // n * n + n - 1 - c % n for c in cells]  # (r, c) -> (r, n - 1 - c)
    images = [list(cells)]
    for _ in range(3):
        images.append([turn[x] for x in images[-1]])
    images += [[mirror[x] for x in image] for image in images]

    def key(boards) -> tuple:
        live = [b for b in map(frozenset, boards) if not any(line <= b for line in lines)]
        return tuple(sorted(min(tuple(sorted(image[c] for c in b)) for image in images) for b in live))

    @functools.cache
    def solved(boards: tuple) -> int:
        if not boards:
            return 1  # the previous player killed the last board
        children = (key([*boards[:q], (*b, c), *boards[q + 1:]]) for q, b in enumerate(boards)
                    for c in cells if c not in b)
        return 1 if any(solved(child) == -1 for child in children) else -1

    return lambda boards: solved(key(boards))


def py_tictactoe_value():
    lines = py_lines(3, 3)

    @functools.cache
    def value(x: frozenset, o: frozenset) -> int:
        if any(line <= x or line <= o for line in lines):
            return -1
        empty = set(range(9)) - x - o
        if not empty:
            return 0
        best = -1
        for cell in empty:
            v = -(value(x | {cell}, o) if len(x) == len(o) else value(x, o | {cell}))
            best = max(best, v)
        return best

    return value


def cells_of(b: int) -> frozenset:
    return frozenset(i for i in range(b.bit_length()) if b >> i & 1)


# -- bad input -------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, params, words", [
    ("notakto", {"n": 0}, "n=0"), ("notakto", {"n": -2}, "n=-2"), ("notakto", {"n": 8}, "n <= 7"),
    ("notakto", {"n": 3, "k": 4}, "k=4.*k <= 3"), ("notakto", {"k": 0}, "k=0"), ("notakto", {"boards": 0}, "boards=0"),
    ("notakto", {"n": 2.5}, "2.5"), ("notakto", {"boards": True}, "boards=True"),
    ("hex", {"n": 0}, "n=0.*n >= 1"), ("hex", {"n": 8}, "n=8.*n <= 7"), ("hex", {"n": "4"}, "'4'"),
])
def test_bad_parameters_name_the_value_and_the_fix(name, params, words):
    with pytest.raises(ValueError, match=words):
        make_game(name, **params)


@pytest.mark.parametrize("name, params, fix", [
    ("hex", {"n": 5}, "n <= 4"), ("notakto", {"n": 5}, "n = 4 with one board"),
    ("notakto", {"n": 3, "boards": 3}, "boards <= 2"),
])
def test_universe_too_large_for_the_retrograde(name, params, fix):
    game = make_game(name, **params)
    with pytest.raises(ValueError, match=f"{fix}.*solvers.search"):
        solve(game)


@pytest.mark.parametrize("name, position", [
    ("hex", (1, 1)), ("hex", (0, 1)), ("hex", (7, 0)), ("hex", (1 << 9, 0)), ("tictactoe", (0, 1)),
    ("tictactoe", (3, 3)), ("notakto", (-1,)), ("notakto", (1 << 9,)), ("notakto", (0, 0)),
])
def test_bad_positions_are_refused(name, position):
    with pytest.raises(ValueError, match="position"):
        make_game(name).moves(position)


def test_board_bound_is_ignored_and_recorded_as_the_side():
    game = make_game("hex", n=3)
    assert solve(game, bound=17).universe == solve(game).universe
    assert solve(game).bound == 3
    with pytest.raises(ValueError, match="bound must be None or a positive integer"):
        game.universe(-1)


def test_parameters_from_the_command_line():
    from games import parse_params

    assert parse_params("notakto", ["n=4", "k=none", "boards=2"]) == {"n": 4, "k": None, "boards": 2}
    assert make_game("notakto", **parse_params("notakto", ["k=2"])) == make_game("notakto", n=3, k=2)


# -- rules -----------------------------------------------------------------------------------------
def test_hex_rules_and_rendering():
    game = make_game("hex", n=3)
    assert game.to_move((0, 0)) == 0 and game.to_move((16, 0)) == 1
    column = bits([1, 4, 7])  # the middle column joins top and bottom
    assert game.winner((column, bits([0, 2]))) == 0 and game.moves((column, bits([0, 2]))) == []
    row = bits([3, 4, 5])
    assert game.winner((bits([0, 1, 8]), row)) == 1
    assert game.winner((bits([0, 4]), bits([3, 5]))) is None
    assert game.render((16, 1)) == "o . .\n . x .\n  . . ."


def test_notakto_rules():
    game = make_game("notakto", n=3, boards=2)
    top_row = bits([0, 1, 2])
    assert game.moves((top_row, top_row)) == []  # both boards dead
    assert len(game.moves((top_row, 0))) == 9  # only the live board
    assert game.terminal_values([(top_row, top_row)]).tolist() == [1]  # the mover wins
    assert game.dead((top_row, 0)).tolist() == [True, False]


def test_symmetries_of_the_square_and_the_rhombus():
    from games.boards import hex_symmetries, square_symmetries

    for n in (1, 2, 3, 4, 5):
        perms = square_symmetries(n)
        assert len({tuple(p) for p in perms.tolist()}) == (8 if n > 1 else 1)
        assert all(sorted(p) == list(range(n * n)) for p in perms.tolist())
        assert hex_symmetries(n).shape == (2, n * n)
    game = make_game("tictactoe")
    corners = game.symmetric_positions([[1, 0]])[:, 0, 0]
    assert sorted(set(corners.tolist())) == [1, 4, 64, 256]


def test_hex_rotation_keeps_adjacency_and_sides():
    """The 180-degree rotation maps neighbours to neighbours and each player's pair of sides to itself."""
    from games.boards import hex_symmetries

    n = 4

    def near(a, b):
        (r, c), (s, d) = divmod(a, n), divmod(b, n)
        return (s - r, d - c) in {(0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1)}

    turn = [int(x) for x in hex_symmetries(n)[1]]
    assert all(near(a, b) == near(turn[a], turn[b]) for a in range(n * n) for b in range(n * n))
    top, bottom = set(range(n)), set(range(n * n - n, n * n))
    assert {turn[c] for c in top} == bottom
    left = {r * n for r in range(n)}
    assert {turn[c] for c in left} == {r * n + n - 1 for r in range(n)}


# -- known results by the retrograde solver --------------------------------------------------------
def test_tictactoe_is_a_draw_with_5478_positions():
    sol = solve(make_game("tictactoe"))
    assert sol.universe.size == 5478
    assert sol.outcome([[0, 0]]).tolist() == [0]
    assert sol.outcome([[1 << c, 0] for c in range(9)]).tolist() == [0] * 9


def test_notakto_3x3_first_player_wins_only_through_the_centre():
    game = make_game("notakto", n=3)
    sol = solve(game)
    assert int(sol.outcome([game.start])[0]) == 1
    options = game.moves(game.start)
    assert [o for o, v in zip(options, sol.outcome(options)) if v == -1] == [(16,)]


@pytest.mark.parametrize("boards, winner", [(1, 1), (2, -1)])
def test_notakto_3x3_on_several_boards(boards, winner):
    game = make_game("notakto", n=3, boards=boards)
    assert int(solve(game).outcome([game.start])[0]) == winner


def test_notakto_4x4_is_a_second_player_win():
    game = make_game("notakto", n=4)
    sol = solve(game)
    assert sol.universe.size == 61950 and int(sol.outcome([game.start])[0]) == -1


@pytest.mark.parametrize("n", [1, 2, 3])
def test_hex_is_a_first_player_win(n):
    game = make_game("hex", n=n)
    assert int(solve(game).outcome([game.start])[0]) == 1


def test_hex_3x3_centre_is_a_winning_opening():
    sol = solve(make_game("hex", n=3))
    assert int(sol.outcome([[16, 0]])[0]) == -1  # the second player, to move after the centre, loses


@pytest.mark.slow
def test_hex_4x4_first_player_win_over_9_million_positions_and_the_search_agrees():
    game = make_game("hex", n=4)
    sol = solve(game)
    assert sol.universe.size == 9_386_235
    assert int(sol.outcome([game.start])[0]) == 1
    winning = [c for c in range(16) if int(sol.outcome([[1 << c, 0]])[0]) == -1]
    assert winning == [3, 6, 9, 12]  # the short diagonal
    # a seeded sample of positions against the plain-Python minimax
    value = py_hex_value(4)
    rng = np.random.default_rng(7)
    positions = sol.universe.positions(rng.choice(sol.universe.size, 150, replace=False))
    positions = positions[np.array([bin(a).count("1") + bin(b).count("1") >= 6 for a, b in positions])]
    for (a, b), got in zip(positions, sol.outcome(positions)):
        assert value(cells_of(int(a)), cells_of(int(b))) == got, (a, b)
    # the proof-number search on every position with at most 2 stones and a seeded sample
    everything = sol.universe.positions()
    positions = np.concatenate([everything[np.bitwise_count(everything).sum(axis=1) <= 2],
                                sol.universe.positions(np.sort(rng.choice(sol.universe.size, 300, replace=False)))])
    got = [search(game, p, moves=False, table_bits=16).value for p in positions]
    np.testing.assert_array_equal(got, sol.outcome(positions))
    assert search(game).winning_moves() == [(1 << c, 0) for c in (3, 6, 9, 12)]


# -- plain-Python minimax over whole universes ----------------------------------------------------
@pytest.mark.parametrize("name, params", [
    ("hex", {"n": 3}), ("tictactoe", {}), ("notakto", {"n": 3}), ("notakto", {"n": 2, "k": 2, "boards": 3}),
    ("notakto", {"n": 3, "k": 2, "boards": 2}),
])
def test_solver_matches_plain_python_minimax(name, params):
    game = make_game(name, **params)
    sol = solve(game)
    positions = sol.universe.positions()
    if name == "hex":
        value = py_hex_value(game.n)
        expected = [value(cells_of(int(a)), cells_of(int(b))) for a, b in positions]
    elif name == "tictactoe":
        value = py_tictactoe_value()
        expected = [value(cells_of(int(x)), cells_of(int(o))) for x, o in positions]
    else:
        value = py_notakto_value(game.n, game.k)
        expected = [value(tuple(cells_of(int(b)) for b in p)) for p in positions]
    np.testing.assert_array_equal(sol.outcome_table, expected)


def test_reachable_positions_match_a_plain_search():
    game = make_game("hex", n=3)
    seen, stack = set(), [game.start]
    while stack:
        p = stack.pop()
        if p not in seen:
            seen.add(p)
            stack.extend(game.moves(p))
    assert sorted(seen) == sorted(map(tuple, solve(game).universe.positions().tolist()))


@pytest.mark.parametrize("name, params, start", [
    ("hex", {"n": 3}, (1, 4)), ("hex", {"n": 4}, (32, 512)), ("tictactoe", {}, (16, 0)), ("notakto", {"n": 3, "boards": 2}, (2, 8)),
])
def test_position_count_bound_holds_from_any_start(name, params, start):
    game = make_game(name, **params)
    empty = np.asarray(game.board(game.start)).size - sum(bin(x).count("1") for x in start)
    assert game.reachable([start]).size <= game.position_count_bound(empty)
    assert game.reachable([game.start]).size <= game.position_count_bound()


def test_reachable_from_late_positions_of_a_board_too_large_for_the_retrograde():
    game = make_game("hex", n=5)
    late = (0b1010101010101, 0b10101010101010)  # 14 stones: the 11 empty cells leave few positions
    assert solve(game, starts=[late]).universe.size <= game.position_count_bound(11)
    with pytest.raises(ValueError, match="reachable from these starts"):
        game.reachable([(1, 2)])
