"""Nim and misere Nim against OpenSpiel's ``nim``: an independent implementation of the rules.

OpenSpiel's value of a start is computed here by a small memoised minimax over pyspiel states
(its own moves, terminal test and returns); our solver must give the same outcome.
"""

from __future__ import annotations

import pytest

from games import make_game
from solvers import solve

pyspiel = pytest.importorskip("pyspiel")

STARTS = ["1;2;3", "1;3;5;7", "2;2", "3;4", "1;1;1", "1;1", "2;5;7;4", "4;4;1", "5", "0;1;2"]


def openspiel_value(piles: str, misere: bool) -> int:
    """+1 when the first player wins OpenSpiel's nim from these piles, -1 when they lose."""
    game = pyspiel.load_game("nim", {"pile_sizes": piles, "is_misere": misere})
    memo: dict[str, int] = {}

    def value(state) -> int:  # for the player to move
        if state.is_terminal():
            raise AssertionError("value of a terminal state is read from returns()")
        key = str(state)  # "(player): heaps"
        if key not in memo:
            player = state.current_player()
            best = -1
            for action in state.legal_actions():
                child = state.child(action)
                if child.is_terminal():
                    v = 1 if child.returns()[player] > 0 else -1
                else:
                    v = -value(child)
                best = max(best, v)
            memo[key] = best
        return memo[key]

    state = game.new_initial_state()
    if state.is_terminal():  # every pile empty
        return 1 if state.returns()[0] > 0 else -1
    return value(state)


def test_parameter_names():
    params = pyspiel.load_game("nim").get_parameters()
    assert {"pile_sizes", "is_misere"} <= set(params)


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize("piles", STARTS)
def test_nim_matches_openspiel(piles, misere):
    heaps = [int(x) for x in piles.split(";")]
    sol = solve(make_game("nim", heaps=len(heaps), misere=misere), bound=max(heaps))
    assert int(sol.outcome([heaps])[0]) == openspiel_value(piles, misere)


def test_openspiel_misere_flips_some_outcomes():
    """A guard on the comparison itself: the two conventions do differ on these starts."""
    assert openspiel_value("1;1", False) == -1 and openspiel_value("1;1", True) == 1
    assert openspiel_value("1;1;1", False) == 1 and openspiel_value("1;1;1", True) == -1
    assert openspiel_value("1;2;3", False) == -1 and openspiel_value("1;2;3", True) == -1
