"""Multiplication tables of commutative monoids (numba): ``table_from_actions`` builds one from its generators'
actions, ``table_flaw`` checks one.

A trial's reduction (``trial.Trial.reduced``) knows its quotient by the action of each generator on the classes,
and a rule record holds its monoid that way (``monoid.BipartiteMonoid.to_record``); the table follows row by row
along a breadth-first tree from the identity, ``(y g) x = (y x) g``: one pass over its k² entries.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["table_from_actions", "table_flaw"]

TILE = 64  # rows and columns the symmetry check compares at a time (a tile and its mirror stay in cache)


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
    table, reached = _rows(np.ascontiguousarray(moves, dtype=np.int32))
    if reached != table.shape[0]:
        raise ValueError(f"{source}: the generators reach {reached:,} of the {table.shape[0]:,} elements")
    return table


@nb.njit(cache=True, nogil=True)
def _rows(moves):
    gens, k = moves.shape
    table = np.empty((k, k), dtype=np.int32)
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


def table_flaw(table: np.ndarray) -> str | None:
    """What keeps a square table of integers from being a commutative monoid's with identity 0 (products out of range,
    a row 0 that is not the identity, an asymmetry), or None: one pass, tile by tile, with no temporary arrays.

    Examples
    --------
    >>> table_flaw(np.array([[0, 1], [1, 0]])), table_flaw(np.array([[0, 1], [0, 1]]))
    (None, 'element 0 must be the identity and the table symmetric (a commutative monoid)')
    """
    code = _flaw(np.ascontiguousarray(table))  # compiled for the table's own integer type: no copy
    return [None, "a monoid table's products must be elements 0 .. order - 1",
            "element 0 must be the identity and the table symmetric (a commutative monoid)"][code]


@nb.njit(cache=True, nogil=True)
def _flaw(table):
    n = table.shape[0]
    for j in range(n):
        if table[0, j] != j:
            return 2
    for i0 in range(0, n, TILE):
        for j0 in range(i0, n, TILE):
            for i in range(i0, min(i0 + TILE, n)):
                for j in range(max(j0, i), min(j0 + TILE, n)):
                    v, w = table[i, j], table[j, i]
                    if v < 0 or v >= n or w < 0 or w >= n:
                        return 1
                    if v != w:
                        return 2
    return 0
