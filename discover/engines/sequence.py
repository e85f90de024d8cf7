"""The sequence-structure engine: eventual periodicity (1-D tables) and complementary pairs (2-D).

One portfolio member that hands a table to the idea that fits its shape:

- a 1-D table (feature ``n``): ``discover.engines.periodic`` (pre-period, period, saltus,
  listed exceptions);
- a symmetric 2-coordinate table of P positions: ``discover.engines.pairs`` (a_k = mex of the
  earlier values, b_k = a_k + c k, Beatty form ⌊kα⌋ confirmed exactly).
"""

from __future__ import annotations

from discover.engines.base import Engine
from discover.engines.pairs import PairsEngine
from discover.engines.periodic import PeriodicEngine

__all__ = ["SequenceEngine"]


class SequenceEngine(Engine):
    """Periodic rules for 1-D tables and complementary-pairs rules for 2-D tables.

    Keyword parameters are passed to both parts (see ``PeriodicEngine`` and ``PairsEngine``).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(40)[:, None]
    >>> SequenceEngine().fit(X, X[:, 0] % 4 == 0, feature_names=["n"]).candidates_[0].expr
    Eq(Mod(n, 4), 0)
    """

    name = "sequence"

    def fit(self, X, y, *, feature_names, sample_weight=None, target="P"):
        candidates = []
        for part in (PeriodicEngine(**self.params), PairsEngine(**self.params)):
            part.fit(X, y, feature_names=feature_names, sample_weight=sample_weight, target=target)
            candidates += part.candidates_
        for c in candidates:
            c.engine = self.name
        self.candidates_ = self._ranked(candidates)
        return self
