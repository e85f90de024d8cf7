"""The sequence-structure engine: eventual periodicity (1-D tables) and complementary pairs (2-D).

One portfolio member that hands a table to the idea that fits its shape:

- a 1-D table (feature ``n``): ``discover.engines.periods1d`` (pre-period, period, saltus,
  listed exceptions);
- a symmetric 2-coordinate table of P positions: ``discover.engines.pairs`` (a_k = mex of the
  earlier values, b_k = a_k + c k, Beatty form ⌊kα⌋ confirmed exactly).
"""

from __future__ import annotations

from discover.engines.base import Engine
from discover.engines.pairs import PairsEngine
from discover.engines.periods1d import PeriodicEngine

__all__ = ["SequenceEngine"]


class SequenceEngine(Engine):
    """Periodic rules for 1-D tables and complementary-pairs rules for 2-D tables.

    Parameters
    ----------
    max_period, margin, limit : optional
        The periodic part's (``PeriodicEngine``).
    min_pairs : int
        The pairs part's (``PairsEngine``).
    random_state : ignored
        Accepted for the common contract; both parts are deterministic.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(40)[:, None]
    >>> SequenceEngine().fit(X, X[:, 0] % 4 == 0, feature_names=["n"]).candidates_[0].expr
    Eq(Mod(n, 4), 0)
    """

    name = "sequence"

    def __init__(self, max_period=None, margin=3, limit=3, min_pairs=4, random_state=None):
        self.max_period = max_period
        self.margin = margin
        self.limit = limit
        self.min_pairs = min_pairs
        self.random_state = random_state

    def fit(self, X, y, *, feature_names, sample_weight=None, target="P"):
        candidates, notes = [], []
        parts = (PeriodicEngine(max_period=self.max_period, margin=self.margin, limit=self.limit,
                                random_state=self.random_state),
                 PairsEngine(min_pairs=self.min_pairs, random_state=self.random_state))
        for part in parts:
            part.fit(X, y, feature_names=feature_names, sample_weight=sample_weight, target=target)
            candidates += part.candidates_
            notes += [n for n in part.notes_ if n not in notes]
        for c in candidates:
            c.engine = self.name
        self.candidates_, self.notes_ = self._ranked(candidates), notes
        return self
