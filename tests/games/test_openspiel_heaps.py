"""OpenSpiel games read as toolkit games (games.openspiel_heaps): Nim's states are nim positions, any game maps
through a features function, and the map is checked on every state; `discover openspiel:nim(...)` prints the
nim-sum rule."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

from games import make_game  # noqa: E402
from games.openspiel import openspiel_game  # noqa: E402
from games.openspiel_heaps import as_toolkit_game, nim_piles  # noqa: E402


@pytest.mark.parametrize("misere", [False, True])
def test_openspiels_nim_is_our_nim(misere):
    view = as_toolkit_game(openspiel_game(f"nim(pile_sizes=2;3;1,is_misere={str(misere).lower()})"))
    assert view.like == make_game("nim", heaps=3, misere=misere)
    assert view.positions == 3 * 4 * 2 and view.states > view.positions  # a pile tuple per player to move


def test_a_features_function_the_user_gives():
    reversed_piles = as_toolkit_game(openspiel_game("nim(pile_sizes=1;3,is_misere=false)"),
                                     features=lambda s: nim_piles(s)[::-1], like=make_game("nim", heaps=2))
    assert reversed_piles.positions == 8


def test_a_map_that_does_not_hold_is_refused_naming_the_state():
    game = openspiel_game("nim(pile_sizes=1;3,is_misere=false)")
    with pytest.raises(ValueError, match=r"the state .* ends with -1 for the player to move, where nim\(heaps=2, "
                                         r"misere=True\) ends with 1"):
        as_toolkit_game(game, like=make_game("nim", heaps=2, misere=True), features=nim_piles)
    with pytest.raises(ValueError, match="moves to"):
        as_toolkit_game(game, like=make_game("subtraction", subtract=(1,)), features=lambda s: (sum(nim_piles(s)),))
    with pytest.raises(ValueError, match="no reader"):
        as_toolkit_game(openspiel_game("tic_tac_toe"))


def test_discover_prints_the_nim_sum_rule(cli, one_error_line):
    code, out, err = cli("openspiel:nim(pile_sizes=3;5;7,is_misere=false)")
    assert code == 0 and "P iff a ⊕ b ⊕ c = 0" in out and "proved for every position" in out
    assert "is nim(heaps=3, misere=False) on its reachable states" in err and len(err.splitlines()) == 1
    one_error_line(*cli("openspiel:tic_tac_toe"))
