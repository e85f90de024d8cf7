"""Outcome and remoteness for the player to move, by retrograde analysis over a game graph.

Outcome: +1 win, -1 loss, 0 draw (a position from which neither side can force a win in a
game with cycles).  Remoteness: moves to the end under optimal play (the winner hurries,
the loser delays); -1 for draws.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from solvers.graph import Graph

__all__ = ["outcome_descending", "retrograde"]


@nb.njit(cache=True)
def outcome_descending(indptr, targets, terminal):
    """Outcome in one pass when every option has a smaller id (no cycles possible)."""
    n = indptr.size - 1
    out = np.empty(n, dtype=np.int8)
    for i in range(n):
        if indptr[i] == indptr[i + 1]:
            out[i] = terminal
            continue
        out[i] = -1
        for j in range(indptr[i], indptr[i + 1]):
            if out[targets[j]] == -1:
                out[i] = 1
                break
    return out


@nb.njit(cache=True)
def _reverse(indptr, targets):
    n = indptr.size - 1
    rptr = np.zeros(n + 1, dtype=np.int64)
    for j in range(targets.size):
        rptr[targets[j] + 1] += 1
    for i in range(n):
        rptr[i + 1] += rptr[i]
    fill = rptr[:-1].copy()
    sources = np.empty(targets.size, dtype=np.int64)
    for i in range(n):
        for j in range(indptr[i], indptr[i + 1]):
            t = targets[j]
            sources[fill[t]] = i
            fill[t] += 1
    return rptr, sources


@nb.njit(cache=True)
def _retrograde(indptr, targets, terminal):
    n = indptr.size - 1
    rptr, sources = _reverse(indptr, targets)
    outcome = np.zeros(n, dtype=np.int8)
    remoteness = np.full(n, -1, dtype=np.int64)
    pending = np.empty(n, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    head = 0
    tail = 0
    for i in range(n):
        pending[i] = indptr[i + 1] - indptr[i]
        if pending[i] == 0:
            outcome[i] = terminal
            remoteness[i] = 0
            queue[tail] = i
            tail += 1
    while head < tail:
        u = queue[head]
        head += 1
        for k in range(rptr[u], rptr[u + 1]):
            w = sources[k]
            if outcome[w] != 0:
                continue
            if outcome[u] == -1:
                outcome[w] = 1
            else:
                pending[w] -= 1
                if pending[w] > 0:
                    continue
                outcome[w] = -1
            remoteness[w] = remoteness[u] + 1
            queue[tail] = w
            tail += 1
    return outcome, remoteness


def retrograde(graph: Graph, terminal: int) -> tuple[np.ndarray, np.ndarray]:
    """Outcome (int8) and remoteness (int64) of every position of a graph with single-part options.

    Examples
    --------
    >>> import numpy as np
    >>> g = Graph(np.array([0, 0, 1, 3]), np.array([[0], [0], [1]]))
    >>> [x.tolist() for x in retrograde(g, -1)]
    [[-1, 1, 1], [0, 1, 1]]
    """
    return _retrograde(graph.indptr, graph.targets[:, 0], np.int8(terminal))
