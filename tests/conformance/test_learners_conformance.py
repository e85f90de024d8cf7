"""Every registered learner through ``learners.checks.check_learner``, one named case per check.

Cases are ``test_learner_conformance[<learner>-<game>-<check>]``: each learner on every registered game
(the family's default parameters) it declares it can learn (``Learner.check_game``).
``KNOWN_FAILURES`` maps ``(learner, game, check)`` to a reason; keep it empty.
"""

from __future__ import annotations

import functools

import pytest

from games import GAMES, make_game
from learners.checks import learner_checks
from learners.registry import LEARNERS, make_learner

KNOWN_FAILURES: dict[tuple[str, str, str], str] = {}


def _learns(learner: str, game: str) -> bool:
    try:
        make_learner(learner).check_game(make_game(game))
    except ValueError:
        return False
    return True


@functools.lru_cache(maxsize=None)
def _checks(learner: str, game: str) -> dict:
    return dict(learner_checks(make_learner(learner), make_game(game)))


def _cases():
    for learner in LEARNERS:
        for game in GAMES:
            if not _learns(learner, game):
                continue
            for check in _checks(learner, game):
                marks = ([pytest.mark.xfail(reason=KNOWN_FAILURES[(learner, game, check)], strict=True)]
                         if (learner, game, check) in KNOWN_FAILURES else [])
                yield pytest.param(learner, game, check, id=f"{learner}-{game}-{check}", marks=marks)


@pytest.mark.parametrize("learner, game, check", list(_cases()))
def test_learner_conformance(learner, game, check):
    _checks(learner, game)[check]()


def test_every_learner_refuses_what_it_cannot_learn():
    for learner in LEARNERS:
        refused = [game for game in GAMES if not _learns(learner, game)]
        expected = [game for game in GAMES if make_game(game).parts > 1
                    or (learner == "qnetwork" and make_game(game).line_directions is None)
                    or (learner == "hqn" and make_game(game).universe_from_start)
                    or (learner == "board_q" and not make_game(game).universe_from_start)]
        assert refused == expected, learner
