"""The multiplication table of a commutative monoid from its generators' actions (numba): ``table_from_actions``.

A trial's reduction (``trial.Trial.reduced``) knows its quotient by the action of each generator on the classes,
and a rule record holds its monoid that way (``monoid.BipartiteMonoid.to_record``); the table follows row by row
along a breadth-first tree from the identity, ``(y g) x = (y x) g``: one pass over its k² entries.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["table_from_actions"]


def table_from_actions(moves: np.ndarray, source: str = "the monoid") -> np.ndarray:
    """The multiplication table of a commutative monoid from its generators' actions (``moves[j][x]`` = x times
    generator j; element 0 the identity), row by row along a breadth-first tree: ``(y g) x = (y x) g``.

    Raises
    ------
    ValueError
        If some element is not reached from the identity.

    Examples
    --------
    >>> table_from_actions(np.array([[1, 2, 0]])).tolist()   # the cyclic group of order 3
    [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    """
    table, reached = _rows(np.ascontiguousarray(moves, dtype=np.int64))
    if reached != table.shape[0]:
        raise ValueError(f"{source}: the generators reach {reached:,} of the {table.shape[0]:,} elements")
    return table


@nb.njit(cache=True, nogil=True)
def _rows(moves):
    gens, k = moves.shape
    table = np.empty((k, k), dtype=np.int64)
    table[0] = np.arange(k)
    seen = np.zeros(k, dtype=np.bool_)
    seen[0] = True
    queue = np.zeros(k, dtype=np.int64)
    head, tail = 0, 1
    while head < tail:
        y = queue[head]
        head += 1
        for g in range(gens):
            z = moves[g, y]
            if not seen[z]:
                seen[z] = True
                for x in range(k):
                    table[z, x] = moves[g, table[y, x]]
                queue[tail] = z
                tail += 1
    return table, tail
