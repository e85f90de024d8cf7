"""A finite commutative monoid with a P-portion (a *bipartite monoid*), and its reduction.

Elements are ``0 .. order - 1``, 0 the identity; ``table[x, y]`` is the product ``x y``; ``p_portion`` marks
the elements a P-position maps to.  Two elements are *indistinguishable* when ``x z`` and ``y z`` fall on the
same side of the P-portion for every ``z``; a misère quotient has none (Plambeck and Siegel, "Misère quotients
for impartial games": a quotient is a *reduced* bipartite monoid), and ``reduced`` merges them (Moore's
partition refinement under multiplication by the generators, which is the coarsest congruence that keeps the
P-portion).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["BipartiteMonoid", "refine", "MAX_ACTIONS"]

MAX_ACTIONS = 1 << 22  # numbers a record's actions hold (generators times order): about 30 MB of JSON


def _int32_table(table: np.ndarray) -> np.ndarray:
    """A square ``table`` as int32, refused (``ValueError``) when an entry is not an element: none wraps round."""
    if table.dtype != np.int32:
        table = np.asarray(table, dtype=np.int64)
        if table.min() < 0 or table.max() >= table.shape[0]:
            raise ValueError("a monoid table's products must be elements 0 .. order - 1")
        table = table.astype(np.int32)
    return np.ascontiguousarray(table)


@dataclass
class BipartiteMonoid:
    """A commutative monoid given by its multiplication table, with a P-portion.

    Parameters
    ----------
    table : numpy.ndarray
        (order, order) integers, ``table[x, y] = x y``; element 0 is the identity.  Held as int32 (half the
        memory of int64: a quotient of 32,768 elements takes 4 GiB).
    p_portion : numpy.ndarray
        (order,) booleans: the elements a P-position maps to.

    Examples
    --------
    >>> t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))  # T2: a^2 = 1, P = {a}
    >>> t2.order, t2.product([1, 1, 1]), t2.is_reduced()
    (2, 1, True)
    """

    table: np.ndarray
    p_portion: np.ndarray

    def __post_init__(self):
        table = np.asarray(self.table)
        self.p_portion = np.asarray(self.p_portion, dtype=bool)
        n = table.shape[0] if table.ndim else 0
        if table.shape != (n, n) or self.p_portion.shape != (n,) or n == 0:
            raise ValueError(f"a monoid table is square and its P-portion has one entry per element, got "
                             f"{table.shape} and {self.p_portion.shape}")
        self.table = _int32_table(table)
        from discover.quotients.tables import table_flaw  # numba, loaded only when a monoid is made

        flaw = table_flaw(self.table)
        if flaw:
            raise ValueError(flaw)

    @property
    def order(self) -> int:
        """The number of elements."""
        return int(self.table.shape[0])

    def product(self, elements) -> int:
        """The product of ``elements`` (the identity for none).

        Examples
        --------
        >>> BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True])).product([])
        0
        """
        x = 0
        for y in elements:
            x = int(self.table[x, int(y)])
        return x

    def is_associative(self) -> bool:
        """True when ``(x y) z = x (y z)`` for all elements (checked on the whole table).

        Examples
        --------
        >>> BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True])).is_associative()
        True
        """
        t = self.table
        return all(bool((t[t[x]] == t[x][t]).all()) for x in range(self.order))

    def classes(self, generators) -> np.ndarray:
        """The class of each element under indistinguishability, as labels ``0 .. k - 1`` (first seen first).

        ``generators``: elements that generate the monoid; refining by multiplication with them refines by
        every product (Moore's algorithm).

        Examples
        --------
        >>> m = BipartiteMonoid(np.array([[0, 1, 2, 3], [1, 2, 3, 2], [2, 3, 2, 3], [3, 2, 3, 2]]),
        ...                     np.array([False, True, False, True]))  # a^4 = a^2 over T2: 1 ~ a^2, a ~ a^3
        >>> m.classes([1]).tolist()
        [0, 1, 0, 1]
        """
        return refine(self.p_portion, [self.table[:, int(g)] for g in generators])

    def is_reduced(self) -> bool:
        """True when no two elements are indistinguishable."""
        return int(self.classes(range(self.order)).max()) + 1 == self.order

    def reduced(self, generators) -> tuple["BipartiteMonoid", np.ndarray]:
        """The reduced monoid and the map from this monoid's elements onto it (the identity stays 0).

        Examples
        --------
        >>> m = BipartiteMonoid(np.array([[0, 1, 2, 3], [1, 2, 3, 2], [2, 3, 2, 3], [3, 2, 3, 2]]),
        ...                     np.array([False, True, False, True]))
        >>> small, onto = m.reduced([1])
        >>> small.order, onto.tolist()
        (2, [0, 1, 0, 1])
        """
        labels = self.classes(generators)
        k = int(labels.max()) + 1
        first = np.full(k, -1, dtype=np.int64)
        for x in range(self.order - 1, -1, -1):
            first[labels[x]] = x
        table = labels[self.table[np.ix_(first, first)]]
        return BipartiteMonoid(table, self.p_portion[first]), labels

    def to_record(self, generators) -> dict:
        """Plain data, the table held by the actions of ``generators`` (elements that generate the monoid): order,
        generators, ``actions[j][x]`` = x times generator j, and the P-portion's elements; ``from_record`` reads it.
        A few generators' actions take ``order`` numbers each where the table takes ``order`` squared.

        Examples
        --------
        >>> BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True])).to_record([1])
        {'order': 2, 'generators': [1], 'actions': [[1, 0]], 'p_portion': [1]}
        """
        gens = [int(g) for g in generators]
        if len(gens) * self.order > MAX_ACTIONS:
            raise ValueError(f"{len(gens):,} generators' actions on {self.order:,} elements are more than the "
                             f"{MAX_ACTIONS:,} numbers a record holds")
        return {"order": self.order, "generators": gens, "actions": self.table[:, gens].T.tolist(),
                "p_portion": np.flatnonzero(self.p_portion).tolist()}

    @classmethod
    def from_record(cls, order: int, generators, actions, p_portion, source: str = "the monoid") -> "BipartiteMonoid":
        """The monoid of ``to_record``'s data, checked before its table is built: every action a map of the
        ``order`` elements that sends the identity to its generator, the actions commuting, every element
        reached from the identity, and the table's memory within the machine's (``cgbase.memory``).  Commuting
        actions under which the identity reaches every element make a commutative monoid, so the table built is
        one (associative too).

        Raises
        ------
        ValueError
            Naming what is wrong, before any table is allocated.

        Examples
        --------
        >>> BipartiteMonoid.from_record(2, [1], [[1, 0]], [1]).table.tolist()
        [[0, 1], [1, 0]]
        >>> BipartiteMonoid.from_record(3, [1, 2], [[1, 2, 0], [2, 0, 2]], [1])
        Traceback (most recent call last):
        ...
        ValueError: the monoid: the actions of generators 0 and 1 do not commute
        """
        from cgbase.memory import check_memory

        if len(actions) * order > MAX_ACTIONS:
            raise ValueError(f"{source}: {len(actions):,} actions on {order:,} elements are more than the "
                             f"{MAX_ACTIONS:,} numbers a record holds")
        moves = np.asarray(actions, dtype=np.int64).reshape(len(actions), -1) if len(actions) else \
            np.zeros((0, order), dtype=np.int64)
        gens = np.asarray(generators, dtype=np.int64).reshape(-1)
        if moves.shape != (gens.size, order) or (moves < 0).any() or (moves >= order).any():
            raise ValueError(f"{source}: one action per generator, each {order} elements below {order}")
        if gens.size and not (moves[:, 0] == gens).all():
            raise ValueError(f"{source}: each generator's action must send the identity (element 0) to it")
        for j in range(gens.size):
            for k in range(j):
                if not (moves[j][moves[k]] == moves[k][moves[j]]).all():
                    raise ValueError(f"{source}: the actions of generators {k} and {j} do not commute")
        p = np.asarray(p_portion, dtype=np.int64).reshape(-1)
        if ((p < 0) | (p >= order)).any():
            raise ValueError(f"{source}: the P-portion's elements must be below {order}")
        check_memory(4 * order * order, f"{source}'s table of {order:,} elements", "use a smaller quotient")
        from discover.quotients.tables import table_from_actions  # numba, loaded only when a record is read

        marked = np.zeros(order, dtype=bool)
        marked[p] = True
        return cls(table_from_actions(moves, source), marked)


def refine(p_portion, actions, deadline=None) -> np.ndarray:
    """Moore's partition refinement: the coarsest labelling of elements ``0 .. n - 1`` that separates the
    P-portion and is kept by each action (``action[x]``: the element ``x`` goes to), labels in order of first
    appearance; ``deadline`` (a ``cgbase.deadline.Deadline``) is checked at each round.

    Examples
    --------
    >>> refine(np.array([False, True, False, True]), [np.array([1, 2, 3, 2])]).tolist()
    [0, 1, 0, 1]
    """
    labels = _relabel(np.asarray(p_portion).astype(np.int64))
    while True:
        if deadline is not None:
            deadline.check("the reduction of a trial monoid")
        refined = _relabel_columns(labels, actions)
        if refined.max() == labels.max():
            return refined
        labels = refined


def _relabel(values: np.ndarray) -> np.ndarray:
    """Labels 0, 1, ... in order of first appearance (so the identity's class is 0)."""
    from discover.quotients.labels import pair_labels  # numba, loaded only when a monoid is reduced

    return pair_labels(np.zeros(values.size, dtype=np.int64), values.reshape(-1))


def _relabel_columns(labels: np.ndarray, actions) -> np.ndarray:
    """Labels of the rows ``(labels[x], labels[a[x]] for a in actions)`` in order of first appearance, one column
    at a time (pairs hashed, ``labels.pair_labels``: stacking the columns of a trial monoid's millions of elements
    takes a gigabyte)."""
    from discover.quotients.labels import pair_labels

    acc = labels
    for a in actions:
        acc = pair_labels(acc, labels[a])
    return acc
