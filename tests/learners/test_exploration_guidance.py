"""Solver guidance: the must-play region against the exact solution and the search's own moves; proved targets."""

from __future__ import annotations

import numpy as np
import pytest

from games import make_game
from learners.exploration.guidance import MustPlay, ProvedTargets
from solvers import solve
from solvers.search_rules import HEX, expand, hex_must_play, hex_params

HEX4 = make_game("hex", n=4)


@pytest.fixture(scope="module")
def hex4():
    return solve(HEX4)


@pytest.fixture(scope="module")
def sample(hex4):
    """3,000 seeded live positions of Hex 4 x 4."""
    live = np.flatnonzero(np.diff(hex4.graph.indptr) > 0)
    return hex4.universe.positions(np.random.default_rng(0).choice(live, size=3000, replace=False))


def test_no_winning_move_lies_outside_the_must_play_region(hex4, sample):
    params = hex_params(HEX4.kernel_params())
    restricted = 0
    for a, b in sample:
        status, must = hex_must_play(params, a, b)
        value = int(hex4.outcome([[a, b]])[0])
        if status != 0:
            assert status == value  # a win at once, or a proved loss
            continue
        empty = ((1 << 16) - 1) & ~(a | b)
        first = int(a).bit_count() == int(b).bit_count()
        for cell in range(16):
            bit = 1 << cell
            if empty & bit and not must & bit:
                option = (a | bit, b) if first else (a, b | bit)
                assert hex4.outcome([option])[0] == 1, f"{(a, b)}: the move at {cell} outside the region wins"
        restricted += must != empty
    assert restricted > 100  # the region did cut moves in many positions


def test_the_region_is_what_the_search_expands(sample):
    params = hex_params(HEX4.kernel_params())
    rotate = HEX4.symmetries[1]
    children, keys = np.zeros((16, 2), dtype=np.int64), np.zeros(16, dtype=np.int64)
    for a, b in sample[:500]:
        status, must = hex_must_play(params, a, b)
        got, m = expand(HEX, params, np.array([a, b]), children, keys)
        assert got == status
        cells = {int(np.log2(int(c[0] ^ a) | int(c[1] ^ b))) for c in children[:m]}
        region = {c for c in range(16) if must >> c & 1}
        assert cells <= region and all(c in cells or rotate[c] in cells for c in region)


def test_must_play_allows_only_the_region_and_refuses_other_games():
    game = make_game("hex", n=3)
    # the first player (cells 0 and 3) threatens to connect at cell 6 only: the second player must block there
    position = np.array([[1 | 8, 2]])
    must = MustPlay(game)
    assert must.regions(position).tolist() == [64]
    options = np.array([[1 | 8, 2 | 1 << c] for c in (4, 5, 6, 7, 8)])
    assert must.allowed(np.repeat(position, 5, axis=0), options).tolist() == [False, False, True, False, False]
    assert must.regions(np.array([[0, 0]])).tolist() == [511]  # no threat: every cell
    with pytest.raises(ValueError, match="must-play"):
        MustPlay(make_game("tictactoe"))


def test_proved_targets_agree_with_the_retrograde(hex4, sample):
    proved = ProvedTargets(HEX4, nodes=100_000)
    targets = proved.targets(sample[:300])
    assert np.isfinite(targets).all()
    assert np.array_equal(targets, (1.0 - hex4.outcome(sample[:300])) / 2.0)


def test_a_small_budget_leaves_early_positions_unproved():
    proved = ProvedTargets(HEX4, nodes=1)
    assert np.isnan(proved.targets(np.array([[0, 0]]))).all()
    connected = np.array([[0b0001000100010001, 0b0010001000100000]])  # the first player's column 0 is complete
    assert ProvedTargets(HEX4, nodes=1).targets(connected).tolist() == [1.0]  # the move into it won
