"""Every registered learner through ``learners.checks``, one named case per check.

Cases are ``test_learner_conformance[<learner>-<game>-<check>]``: each learner on every registered game
(the family's default parameters) it declares it can learn (``Learner.check_game``), with the checks its
declarations call for (``value_table``, ``opponents``).
``KNOWN_FAILURES`` maps ``(learner-game, check)`` to a reason; keep it empty.
"""

from __future__ import annotations

from cgbase.checks import parametrize_with_checks
from games import GAMES, make_game
from learners.checks import learner_checks
from learners.registry import LEARNERS, make_learner

KNOWN_FAILURES: dict[tuple[str, str], str] = {}


def _learns(learner: str, game: str) -> bool:
    try:
        make_learner(learner).check_game(make_game(game))
    except ValueError:
        return False
    return True


CASES = {f"{learner}-{game}": (make_learner(learner), make_game(game))
         for learner in LEARNERS for game in GAMES if _learns(learner, game)}


@parametrize_with_checks(CASES, learner_checks, known_failures=KNOWN_FAILURES)
def test_learner_conformance(check):
    check()


def test_every_learner_refuses_what_it_cannot_learn():
    for learner in LEARNERS:
        refused = [game for game in GAMES if not _learns(learner, game)]
        expected = [game for game in GAMES if make_game(game).parts > 1
                    or (learner == "qnetwork" and make_game(game).line_directions is None)
                    or (learner == "hqn" and make_game(game).universe_from_start)
                    or (learner == "board_q" and not make_game(game).universe_from_start)]
        assert refused == expected, learner
