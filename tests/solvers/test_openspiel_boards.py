"""Tic-tac-toe and Hex 3 x 3 against OpenSpiel's ``tic_tac_toe`` and ``hex``: independent rules.

Every state OpenSpiel reaches from its start is visited with our position alongside (an action
is the cell ``r * n + c`` in both; OpenSpiel's player 0 is our first player: X, or the Hex
player joining top and bottom).  OpenSpiel's value of a state is a memoised minimax over its own
``legal_actions``, ``child``, ``is_terminal`` and ``returns``; our solver must give the same
outcome at every state, and both must agree on which states are terminal.
"""

from __future__ import annotations

import pytest

from games import make_game
from solvers import solve

pyspiel = pytest.importorskip("pyspiel")


def walk(spiel_game, our_game):
    """(our position, OpenSpiel's value for the player to move, terminal?) for every reachable state."""
    memo: dict[str, int] = {}
    rows = []

    def value(state, position) -> int:
        key = str(state) + str(state.current_player())
        if key in memo:
            return memo[key]
        if state.is_terminal():
            # the player to move in our terms is the one after the last mover
            mover = len(state.history()) % 2
            v = int(round(state.returns()[mover]))
        else:
            v = -1
            mover = state.current_player()
            for action in state.legal_actions():
                a, b = position
                bit = 1 << action
                child = (a | bit, b) if mover == 0 else (a, b | bit)
                v = max(v, -value(state.child(action), child))
        memo[key] = v
        rows.append((position, v, state.is_terminal()))
        return v

    value(spiel_game.new_initial_state(), (0, 0))
    return rows


@pytest.mark.parametrize("spiel_name, params, name, our_params", [
    ("tic_tac_toe", {}, "tictactoe", {}),
    ("hex", {"board_size": 3}, "hex", {"n": 3}),
])
def test_every_state_matches_openspiel(spiel_name, params, name, our_params):
    game = make_game(name, **our_params)
    sol = solve(game)
    rows = walk(pyspiel.load_game(spiel_name, params), game)
    assert len(rows) == sol.universe.size  # the same reachable positions
    positions = [p for p, _, _ in rows]
    assert sorted(positions) == sorted(map(tuple, sol.universe.positions().tolist()))
    assert sol.outcome(positions).tolist() == [v for _, v, _ in rows]
    assert [not game.moves(p) for p in positions] == [t for _, _, t in rows]


def test_openspiel_agrees_on_the_known_values():
    rows = dict((p, v) for p, v, _ in walk(pyspiel.load_game("tic_tac_toe"), make_game("tictactoe")))
    assert rows[(0, 0)] == 0
    rows = dict((p, v) for p, v, _ in walk(pyspiel.load_game("hex", {"board_size": 3}), make_game("hex", n=3)))
    assert rows[(0, 0)] == 1 and rows[(16, 0)] == -1
