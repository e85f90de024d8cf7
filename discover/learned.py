"""Tables from learners: threshold a learner's value table and hand it to the engines.

This is the Nim thesis's proposal and the HQN paper's dataset: a position whose learned value is
at most ``-confidence`` is labelled P, at least ``confidence`` N, and anything in between is left
out; each label is weighted by how sure the table is (``|value|``).  Rules fitted on such a table
are verified against the solver exactly like rules from exact tables.  The learners are fitted by
``learners.registry.fit_learner``.

A rule's training accuracy says how well it fits the learned labels, not how good those labels are:
the table's provenance also records its coverage (the share of positions labelled) and its accuracy
against the solver on the labelled positions (``provenance["learned"]``, which every rule fitted on it
carries and ``learned_table_text`` states).
"""

from __future__ import annotations

import numpy as np

from discover import defaults
from discover.table import Table, build_table

__all__ = ["table_from_values", "learned_table_text"]


def table_from_values(value_table, confidence: float | None = None) -> Table:
    """The labelled table of the confident positions of a ``ValueTable``.

    Examples
    --------
    >>> from games import make_game
    >>> from learners.registry import fit_learner
    >>> table = table_from_values(fit_learner("q", make_game("nim", heaps=2), bound=3, games=3000).value_table_)
    >>> len(table), int(table.is_p.sum()), table.provenance["source"]
    (16, 4, 'QLearner self-play, 3000 episodes, confidence 0.3')
    >>> learned_table_text(table.provenance["learned"])
    'learned table: 16 of 16 positions labelled (coverage 100.0%), 16 of them as the solver says (accuracy 100.0%)'
    """
    confidence = defaults.ENGINES.confidence if confidence is None else confidence
    labels = value_table.partition(confidence)
    keep = np.flatnonzero(labels != 0)
    if keep.size == 0:
        raise ValueError(f"no position of the value table is learned with confidence {confidence}: "
                         f"learn longer or lower the confidence")
    meta = value_table.meta
    opponent = meta.get("opponent", "self")
    how = "self-play" if opponent == "self" else f"play against {opponent}"
    source = f"{meta.get('learner', 'learner')} {how}, {meta.get('episodes', '?')} episodes, confidence {confidence}"
    provenance = {"game": value_table.game.spec(), "bound": value_table.bound, "source": source,
                  "learner": meta, "confidence": confidence, "labelled": int(keep.size),
                  "positions": int(labels.size), "learned": _quality(value_table, labels, keep, confidence)}
    positions = value_table.universe.positions(keep)
    weights = np.abs(value_table.value[keep])
    return build_table(value_table.game, positions, labels[keep] == -1, None, weights, provenance)


def _quality(value_table, labels, keep, confidence: float) -> dict:
    """Coverage of the thresholded table and its agreement with the solver on the labelled positions."""
    from solvers import solve

    truth = solve(value_table.game, bound=value_table.bound).outcome_table
    if truth.shape != labels.shape:
        raise ValueError(f"the value table has {labels.size} positions where {value_table.game!r} at bound "
                         f"{value_table.bound} has {truth.size}: it is not this game's table")
    correct = int(np.sum(np.where(labels[keep] == -1, truth[keep] == -1, truth[keep] == 1)))
    return {"positions": int(labels.size), "labelled": int(keep.size), "coverage": keep.size / labels.size,
            "correct": correct, "solver_accuracy": correct / keep.size, "confidence": confidence}


def learned_table_text(learned: dict) -> str:
    """One line on a learned table: its coverage and its accuracy against the solver.

    Examples
    --------
    >>> learned_table_text({"positions": 512, "labelled": 509, "coverage": 509 / 512, "correct": 73,
    ...                     "solver_accuracy": 73 / 509})
    'learned table: 509 of 512 positions labelled (coverage 99.4%), 73 of them as the solver says (accuracy 14.3%)'
    """
    return (f"learned table: {learned['labelled']:,} of {learned['positions']:,} positions labelled (coverage "
            f"{learned['coverage']:.1%}), {learned['correct']:,} of them as the solver says (accuracy "
            f"{learned['solver_accuracy']:.1%})")
