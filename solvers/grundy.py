"""Grundy values (the mex rule) over a game graph, for impartial games under normal play.

An option with several parts (a sum of heaps) has the xor of its parts' values.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from solvers.graph import Graph

__all__ = ["grundy_values", "topological_order"]


@nb.njit(cache=True, nogil=True)
def _mex_in_order(indptr, targets, order):
    n = indptr.size - 1
    grundy = np.full(n, -1, dtype=np.int64)
    max_degree = 0
    for i in range(n):
        max_degree = max(max_degree, indptr[i + 1] - indptr[i])
    stamp = np.full(max_degree + 2, -1, dtype=np.int64)
    for i in order:
        for j in range(indptr[i], indptr[i + 1]):
            value = 0
            for q in range(targets.shape[1]):
                value ^= grundy[targets[j, q]]
            if value <= max_degree:
                stamp[value] = i
        g = 0
        while stamp[g] == i:
            g += 1
        grundy[i] = g
    return grundy


@nb.njit(cache=True, nogil=True)
def _kahn(indptr, targets):
    # reverse topological order: a position comes after all of its options' parts
    n = indptr.size - 1
    waiting = np.zeros(n, dtype=np.int64)
    users_ptr = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        for j in range(indptr[i], indptr[i + 1]):
            for q in range(targets.shape[1]):
                users_ptr[targets[j, q] + 1] += 1
            waiting[i] += targets.shape[1]
    for i in range(n):
        users_ptr[i + 1] += users_ptr[i]
    fill = users_ptr[:-1].copy()
    users = np.empty(users_ptr[n], dtype=np.int64)
    for i in range(n):
        for j in range(indptr[i], indptr[i + 1]):
            for q in range(targets.shape[1]):
                t = targets[j, q]
                users[fill[t]] = i
                fill[t] += 1
    order = np.empty(n, dtype=np.int64)
    tail = 0
    for i in range(n):
        if waiting[i] == 0:
            order[tail] = i
            tail += 1
    head = 0
    while head < tail:
        u = order[head]
        head += 1
        for k in range(users_ptr[u], users_ptr[u + 1]):
            w = users[k]
            waiting[w] -= 1
            if waiting[w] == 0:
                order[tail] = w
                tail += 1
    return order[:tail]


def topological_order(graph: Graph) -> np.ndarray:
    """Ids ordered so that every option comes before its position; ``ValueError`` on a cycle."""
    if graph.descending:
        return np.arange(graph.size, dtype=np.int64)
    order = _kahn(graph.indptr, graph.targets)
    if order.size < graph.size:
        raise ValueError(
            "the game graph has a cycle: Grundy values are defined here only for games that always end"
        )
    return order


def grundy_values(graph: Graph) -> np.ndarray:
    """Grundy value of every position of an acyclic graph.

    Examples
    --------
    >>> import numpy as np
    >>> g = Graph(np.array([0, 0, 1, 3]), np.array([[0], [0], [1]]))
    >>> grundy_values(g).tolist()
    [0, 1, 2]
    """
    return _mex_in_order(graph.indptr, graph.targets, topological_order(graph))
