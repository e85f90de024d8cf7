"""Tables from learners: threshold a learner's value table and hand it to the engines.

This is the Nim thesis's proposal and the HQN paper's dataset: a position whose learned value is
at most ``-confidence`` is labelled P, at least ``confidence`` N, and anything in between is left
out; each label is weighted by how sure the table is (``|value|``).  Rules fitted on such a table
are verified against the solver exactly like rules from exact tables.  The learners are fitted by
``learners.registry.fit_learner``.
"""

from __future__ import annotations

import numpy as np

from discover.table import Table, build_table

__all__ = ["table_from_values"]


def table_from_values(value_table, confidence: float = 0.3) -> Table:
    """The labelled table of the confident positions of a ``ValueTable``.

    Examples
    --------
    >>> from games import make_game
    >>> from learners.registry import fit_learner
    >>> table = table_from_values(fit_learner("q", make_game("nim", heaps=2), bound=3, games=3000).value_table_)
    >>> len(table), int(table.is_p.sum()), table.provenance["source"]
    (16, 4, 'QLearner self-play, 3000 episodes, confidence 0.3')
    """
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
                  "positions": int(labels.size)}
    positions = value_table.universe.positions(keep)
    weights = np.abs(value_table.value[keep])
    return build_table(value_table.game, positions, labels[keep] == -1, None, weights, provenance)
