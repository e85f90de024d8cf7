"""Conformance suite for learners: every learner on every registered game, one named case per check.

Cases are ``test_learner_conformance[<learner>-<game>-<check>]``. Each learner is fitted on the
registry's default parameters of each family at a small bound; games whose moves split a heap
into a sum of heaps are refused with a ``ValueError`` instead (a check of its own).
``KNOWN_FAILURES`` maps ``(learner, game, check)`` to a reason; keep it empty.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from games import GAMES, make_game
from learners import Arena, GreedyAgent
from learners.registry import LEARNERS, make_learner

KNOWN_FAILURES: dict[tuple[str, str, str], str] = {}
EPISODES = 400
RECORD_KEYS = {"episode", "deviations", "optimal_move_rate", "win_rate_random", "win_rate_optimal", "seconds"}


def _bound(game) -> int:
    return {1: 12, 2: 5}.get(game.dims, 2)


@functools.lru_cache(maxsize=None)
def _fitted(learner: str, name: str, seed: int = 0):
    game = make_game(name)
    return make_learner(learner, seed).fit(game, bound=_bound(game), episodes=EPISODES, eval_every=100)


def check_fit_returns_the_learner(learner, name):
    game = make_game(name)
    fresh = make_learner(learner)
    assert fresh.fit(game, bound=_bound(game), episodes=50) is fresh


def check_table_covers_the_universe(learner, name):
    table = _fitted(learner, name).value_table_
    arena = Arena(table.game, table.bound)
    assert table.universe == arena.universe and table.q.shape == arena.targets.shape
    assert np.isfinite(table.value).all() and (np.abs(table.value) <= 1).all()
    ends = np.diff(table.indptr) == 0
    assert (table.value[ends] == table.game.terminal_values(table.universe.positions(np.flatnonzero(ends)))).all()


def check_history_records(learner, name):
    fitted = _fitted(learner, name)
    assert [r["episode"] for r in fitted.history_] == [100, 200, 300, 400]
    for record in fitted.history_:
        assert RECORD_KEYS <= set(record)
        assert 0 <= record["deviations"] <= (Arena(fitted.value_table_.game, fitted.value_table_.bound).outcome == 1).sum()


def check_same_seed_same_table(learner, name):
    game = make_game(name)
    again = make_learner(learner, 0).fit(game, bound=_bound(game), episodes=EPISODES, eval_every=100)
    assert np.array_equal(again.value_table_.q, _fitted(learner, name).value_table_.q)


def check_policy_plays_legal_moves(learner, name):
    table = _fitted(learner, name).value_table_
    agent, rng = GreedyAgent(table), np.random.default_rng(0)
    live = np.flatnonzero(np.diff(table.indptr) > 0)
    for s in live[:: max(1, live.size // 20)]:
        position = tuple(int(x) for x in table.universe.positions([s])[0])
        assert agent.move(table.game, position, rng) in table.game.moves(position)


def check_sum_of_heaps_refused(learner, name):
    with pytest.raises(ValueError, match="sum of heaps"):
        make_learner(learner).fit(make_game(name), bound=6, episodes=10)


CHECKS = [check_fit_returns_the_learner, check_table_covers_the_universe, check_history_records,
          check_same_seed_same_table, check_policy_plays_legal_moves]


def _cases():
    for learner in LEARNERS:
        for name in GAMES:
            checks = CHECKS if make_game(name).parts == 1 else [check_sum_of_heaps_refused]
            for check in checks:
                label = check.__name__.removeprefix("check_")
                marks = ([pytest.mark.xfail(reason=KNOWN_FAILURES[(learner, name, label)], strict=True)]
                         if (learner, name, label) in KNOWN_FAILURES else [])
                yield pytest.param(learner, name, check, id=f"{learner}-{name}-{label}", marks=marks)


@pytest.mark.parametrize("learner, name, check", list(_cases()))
def test_learner_conformance(learner, name, check):
    check(learner, name)
