"""Outcome and remoteness for the player to move, by retrograde analysis over a game graph.

Outcome: +1 win, -1 loss, 0 draw (a position from which neither side can force a win in a
game with cycles, or whose best play ends on a drawn terminal position such as a full
tic-tac-toe board).  Remoteness: moves to the end under optimal play (the winner hurries,
the loser delays); -1 for draws.  The outcome at a position with no move is given per
position (``terminal``, from ``Game.terminal_values``); a scalar means the same for all.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from solvers.graph import Graph

__all__ = ["outcome_descending", "outcome_ascending", "retrograde", "terminal_table", "terminal_values"]


def terminal_values(game, universe, graph: Graph) -> np.ndarray:
    """Outcome for the player to move at each position of the graph with no move (0 elsewhere),
    from ``game.terminal_values``: the per-position table the passes below take.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import build_graph
    >>> g = make_game("subtraction", subtract=(2,))
    >>> u = g.universe(3)
    >>> terminal_values(g, u, build_graph(g, u)).tolist()
    [-1, -1, 0, 0]
    """
    ends = np.flatnonzero(graph.indptr[1:] == graph.indptr[:-1])
    table = np.zeros(graph.size, dtype=np.int8)
    if ends.size:
        table[ends] = game.terminal_values(universe.positions(ends))
    return table


def terminal_table(terminal, n: int) -> np.ndarray:
    """``terminal`` as an int8 array of n entries (a scalar is repeated)."""
    table = np.asarray(terminal, dtype=np.int8)
    if table.ndim == 0:
        return np.full(n, table, dtype=np.int8)
    if table.shape != (n,):
        raise ValueError(f"terminal values have shape {table.shape}, the graph {n} positions")
    return table


@nb.njit(cache=True, nogil=True)
def _outcome_in_order(indptr, targets, terminal, backwards):
    """One pass over ids (upwards, or downwards when ``backwards``) with every option already decided."""
    n = indptr.size - 1
    out = np.empty(n, dtype=np.int8)
    for k in range(n):
        i = n - 1 - k if backwards else k
        if indptr[i] == indptr[i + 1]:
            out[i] = terminal[i]
            continue
        best = -1
        for j in range(indptr[i], indptr[i + 1]):
            v = out[targets[j]]
            if v == -1:
                best = 1
                break
            if v == 0:
                best = 0
        out[i] = best
    return out


def outcome_descending(indptr, targets, terminal) -> np.ndarray:
    """Outcome in one pass when every option has a smaller id (no cycles possible).

    ``terminal``: the outcome at positions with no move, one per position or one for all.

    Examples
    --------
    >>> import numpy as np
    >>> outcome_descending(np.array([0, 0, 1, 3]), np.array([0, 0, 1]), -1).tolist()
    [-1, 1, 1]
    """
    return _outcome_in_order(indptr, targets, terminal_table(terminal, indptr.size - 1), False)


def outcome_ascending(indptr, targets, terminal) -> np.ndarray:
    """Outcome in one pass when every option has a larger id (board games: a move adds a stone).

    Examples
    --------
    >>> import numpy as np
    >>> outcome_ascending(np.array([0, 2, 3, 3]), np.array([1, 2, 2]), [0, 0, -1]).tolist()
    [1, 1, -1]
    """
    return _outcome_in_order(indptr, targets, terminal_table(terminal, indptr.size - 1), True)


@nb.njit(cache=True, nogil=True)
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


@nb.njit(cache=True, nogil=True)
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
        if pending[i] == 0 and terminal[i] != 0:  # a drawn end stays 0 and is never queued
            outcome[i] = terminal[i]
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


def retrograde(graph: Graph, terminal) -> tuple[np.ndarray, np.ndarray]:
    """Outcome (int8) and remoteness (int64) of every position of a graph with single-part options.

    ``terminal``: the outcome at positions with no move, one per position or one for all (+1, -1,
    or 0 for a drawn end, whose remoteness is -1 like every draw).

    Examples
    --------
    >>> import numpy as np
    >>> g = Graph(np.array([0, 0, 1, 3]), np.array([[0], [0], [1]]))
    >>> [x.tolist() for x in retrograde(g, -1)]
    [[-1, 1, 1], [0, 1, 1]]
    """
    return _retrograde(graph.indptr, graph.targets[:, 0], terminal_table(terminal, graph.size))
