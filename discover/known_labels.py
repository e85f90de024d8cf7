"""``KnownLabels``: a rule's P labels of a box universe's positions, read by id instead of evaluating the rule.

``check_strategy`` labels the universe a block of ids at a time and writes each block's labels here; a strategy's
candidate move is then judged by the label of its new position's id wherever that id is already labelled (every
move of Nim, Wythoff or a subtraction game lowers the id, so all of them are), and by the rule elsewhere.  A heap
move changes one coordinate, so its new id is ``id + (new - old) * stride``: neither the new position nor the
rule's features are computed.  The labels read are the rule's own, so the verdicts are the rule's exactly.
"""

from __future__ import annotations

import numpy as np

__all__ = ["KnownLabels"]


class KnownLabels:
    """The P labels of ``rule`` on the ids ``[0, filled)`` of a box ``universe``.

    Parameters
    ----------
    rule : Rule
        A P rule (its ``predicate`` judges the positions not labelled yet).
    universe : games.universe.Universe
        A box universe (a position's id is its key).

    Examples
    --------
    >>> import sympy as sp
    >>> from discover.rule import Rule
    >>> from games.universe import Universe
    >>> universe = Universe.box(2, 3)
    >>> known = KnownLabels(Rule(sp.Eq(sp.Symbol("a"), sp.Symbol("b")), ("a", "b")), universe)
    >>> known.fill(0, np.arange(16) % 5 == 0)  # the labels of ids 0..15: (0, 0), (1, 1), (2, 2), (3, 3)
    >>> known.at(np.array([[2, 2], [2, 3]])).tolist()
    [True, False]
    """

    def __init__(self, rule, universe):
        if not universe.is_box:
            raise ValueError(f"KnownLabels needs a box universe (a position's id is its key), got {universe!r}")
        self.rule = rule
        self.strides = universe.strides
        self.limits = universe.limits
        self.table = np.zeros(universe.size, dtype=bool)
        self.filled = 0

    def fill(self, lo: int, labels) -> None:
        """Write the labels of the ids ``lo, lo + 1, ...`` (from id 0 on, without a hole)."""
        if lo > self.filled:
            raise ValueError(f"labels from id {lo} would leave ids {self.filled}..{lo - 1} unlabelled: fill in order")
        self.table[lo:lo + len(labels)] = labels
        self.filled = max(self.filled, lo + len(labels))

    def _read(self, ids, inside) -> tuple[np.ndarray, np.ndarray | None]:
        """The labels of ``ids`` where ``inside`` and labelled, and the mask of the others (None when there is
        none: the common case, read in one gather)."""
        sure = inside & (ids < self.filled)
        if sure.all():
            return self.table[ids], None
        labels = np.zeros(len(ids), dtype=bool)
        labels[sure] = self.table[ids[sure]]
        return labels, ~sure

    def at(self, positions) -> np.ndarray:
        """The rule's P labels of an (n, dims) array of positions: read where labelled, else from the rule."""
        positions = np.asarray(positions, dtype=np.int64)
        inside = ((positions >= 0) & (positions <= self.limits)).all(axis=1)
        labels, unsure = self._read(np.where(inside, positions @ self.strides, 0), inside)
        if unsure is not None:
            labels[unsure] = self.rule.predicate(positions[unsure])
        return labels

    def column(self, ids, j: int, old, new) -> tuple[np.ndarray, np.ndarray]:
        """Labels of the positions of ``ids`` with coordinate ``j`` changed from ``old`` to ``new`` (all >= 0), and
        the mask of those it cannot read (``new`` beyond the box, or an id not labelled yet; None when it reads them
        all): the caller judges those by the rule.

        Examples
        --------
        >>> import sympy as sp
        >>> from discover.rule import Rule
        >>> from games.universe import Universe
        >>> known = KnownLabels(Rule(sp.Eq(sp.Symbol("a"), sp.Symbol("b")), ("a", "b")), Universe.box(2, 3))
        >>> known.fill(0, np.arange(8) % 5 == 0)  # ids 0..7: (0, 0) and (1, 1) are P
        >>> labels, unsure = known.column(np.array([7, 7]), 0, np.array([3, 3]), np.array([1, 0]))  # (3, 1) to (1, 1), (0, 1)
        >>> labels.tolist(), unsure
        ([True, False], None)
        """
        inside = new <= self.limits[j]
        moved = ids + (new - old) * self.strides[j]
        return self._read(moved if inside.all() else np.where(inside, moved, 0), inside)
