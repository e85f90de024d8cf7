"""Learned against exact: how far a learner's partition and policy are from the solver's.

The learned partition thresholds the value table with a confidence (P at most
``-confidence``, N at least ``confidence``, unsure between), as the HQN paper builds its dataset.
(``discover.app.render.partitions.compare_figure`` draws the two side by side.) The scores: accuracy over the whole universe (unsure counts as wrong), coverage and
accuracy on the confident positions, the optimal-move rate (N positions where every
greedy move reaches a P position) with the Nim thesis's deviation count, and the confusion counts.
"""

from __future__ import annotations

import numpy as np

from discover import defaults

__all__ = ["compare"]

_LEARNED = ("P", "N", "unsure")


def compare(value_table, solution=None, confidence: float | None = None) -> dict:
    """Scores of a ``ValueTable`` against the exact solution of the same universe.

    Examples
    --------
    >>> from games import make_game
    >>> from learners import QLearner
    >>> table = QLearner(random_state=0).fit(make_game("nim", heaps=2), bound=3, episodes=3000).value_table_
    >>> scores = compare(table, confidence=0.5)
    >>> scores["accuracy"], scores["deviations"], scores["confusion"]["P"]
    (1.0, 0, {'P': 4, 'N': 0, 'unsure': 0})
    """
    from learners import Arena
    from learners.metrics import deviations

    arena = Arena(value_table.game, value_table.bound, solution)
    if arena.universe != value_table.universe:
        raise ValueError(f"the solution covers {arena.universe!r}, the value table {value_table.universe!r}")
    confidence = defaults.ENGINES.confidence if confidence is None else confidence
    learned = value_table.partition(confidence)
    exact = arena.outcome
    wins = (exact == 1) & (np.diff(arena.indptr) > 0)
    wrong = deviations(arena, arena.best_edges(value_table.q))
    sure = learned != 0
    rows = {"P": exact == -1, "N": exact == 1, "draw": exact == 0}
    columns = {"P": learned == -1, "N": learned == 1, "unsure": learned == 0}
    confusion = {r: {c: int((rm & cm).sum()) for c, cm in columns.items()} for r, rm in rows.items() if rm.any()}
    return {
        "game": repr(value_table.game), "bound": value_table.bound, "confidence": confidence,
        "positions": int(exact.size),
        "accuracy": float(np.mean(learned == exact)),
        "coverage": float(np.mean(sure)),
        "accuracy_confident": float(np.mean(learned[sure] == exact[sure])) if sure.any() else float("nan"),
        "optimal_move_rate": float(1 - wrong / wins.sum()) if wins.any() else float("nan"),
        "deviations": int(wrong),
        "confusion": confusion,
        "learner": value_table.meta,
    }
