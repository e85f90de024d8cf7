"""games.pettingzoo: every kind of toolkit game as an AEC environment, checked by PettingZoo's own api_test, with
the terminal rewards of normal play, misère play and board games."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from games import custom_game, make_game  # noqa: E402
from games.pettingzoo import env  # noqa: E402


def _take_1_2(p):
    return [(p[0] - t,) for t in (1, 2) if t <= p[0]]


GAMES = {
    "nim": (make_game("nim", heaps=3), {"bound": 4}),
    "wythoff misère": (make_game("wythoff", misere=True), {"bound": 5}),
    "subtraction": (make_game("subtraction", subtract=(1, 3, 4)), {"bound": 20}),
    "hex": (make_game("hex", n=3), {}),
    "notakto": (make_game("notakto", n=3), {}),
    "custom": (custom_game("take-1-2", _take_1_2, dims=1), {"bound": 9}),
}


@pytest.mark.parametrize("name", GAMES)
def test_api_test_passes(name):
    game, kwargs = GAMES[name]
    api_test(env(game, **kwargs), num_cycles=200)


def _play(table, actions):
    table.reset()
    for action in actions:
        table.step(action)
    return table


def test_rewards_normal_and_misere_play():
    normal = _play(env(make_game("nim", heaps=2), bound=2, start=(2, 0)), [1])  # option 1: take both
    assert normal.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert all(normal.terminations.values())
    misere = _play(env(make_game("nim", heaps=2, misere=True), bound=2, start=(2, 0)), [1])
    assert misere.rewards == {"player_0": -1.0, "player_1": 1.0}  # who cannot move wins
    longer = _play(env(make_game("nim", heaps=2), bound=2, start=(2, 0)), [0, 0])  # one token each
    assert longer.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert longer._cumulative_rewards == longer.rewards


def test_observation_mask_and_the_moves():
    game = make_game("subtraction", subtract=(1, 3, 4))
    table = env(game, bound=20, start=(5,))
    table.reset()
    seen = table.observe("player_0")
    assert seen["observation"].tolist() == [5]
    assert seen["action_mask"].tolist() == [1, 1, 1]  # 5 -> 4, 2, 1
    assert not table.observe("player_1")["action_mask"].any()  # not its turn
    table.step(2)
    assert table.observe("player_1")["observation"].tolist() == [game.moves((5,))[2][0]]


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError, match="give bound=B"):
        env(make_game("nim", heaps=2))
    with pytest.raises(ValueError, match="not a position"):
        env(make_game("nim", heaps=2), bound=3, start=(4, 0))
    with pytest.raises(ValueError, match="sum of heaps"):
        env(make_game("octal", code="0.07"), bound=5)
    table = env(make_game("nim", heaps=2), bound=3, start=(1, 0))
    table.reset()
    with pytest.raises(ValueError, match="not legal"):
        table.step(3)


def test_seeded_starts_repeat():
    def starts(seed):
        table = env(make_game("wythoff"), bound=30)
        table.reset(seed=seed)
        first = table.position.tolist()
        table.reset()
        return first, table.position.tolist()

    assert starts(3) == starts(3)
    assert np.array(starts(3)).shape == (2, 2)
