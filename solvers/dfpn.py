"""Depth-first proof-number search (df-pn) with a transposition table, in numba.

For a position with the player to move, the proof number ``pn`` is (an estimate of) how many
positions must still be solved to prove a win, the disproof number ``dn`` to prove a loss.
In negamax form a position's ``pn`` is the least ``dn`` of its children and its ``dn`` the sum
of their ``pn``; a proved win has ``(0, INF)``, a proved loss ``(INF, 0)``.  The search expands
the most proving child under thresholds, as in A. Nagai's df-pn (2002; its recursive ``MID``
run with an explicit stack, since numba cannot cache recursive functions), and stores every
result in a transposition table keyed by the game's symmetric-invariant key, so a position
reached by several move orders (or a symmetric one) is solved once.

The table is open addressing over ``2**bits`` slots (key + 1, 0 for empty), probing 8 slots
and overwriting an unproved entry when all are taken; a lost entry is only recomputed, so the
results stay exact.  The games' rules are in ``solvers.search_rules``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from solvers.search_rules import expand, state_key

__all__ = ["INF", "Table", "prove", "lookup"]

INF = np.int64(1) << 40
PROBES = 8


class Table:
    """A transposition table of ``2**bits`` entries (24 bytes each)."""

    def __init__(self, bits: int):
        self.keys = np.zeros(1 << bits, dtype=np.int64)
        self.pn = np.zeros(1 << bits, dtype=np.int64)
        self.dn = np.zeros(1 << bits, dtype=np.int64)

    @property
    def used(self) -> int:
        return int(np.count_nonzero(self.keys))


@nb.njit(cache=True, nogil=True)
def _slot(keys, pn, dn, key):
    mask = keys.size - 1
    h = key * 0x5851F42D4C957F2D
    h ^= h >> 31
    first = h & mask
    spare = -1
    for p in range(PROBES):
        j = (first + p) & mask
        if keys[j] == key + 1 or keys[j] == 0:
            return j
        if spare < 0 and pn[j] != 0 and dn[j] != 0:
            spare = j
    return spare if spare >= 0 else first


@nb.njit(cache=True, nogil=True)
def _get(keys, pn, dn, key):
    j = _slot(keys, pn, dn, key)
    if keys[j] == key + 1:
        return pn[j], dn[j]
    return np.int64(1), np.int64(1)


@nb.njit(cache=True, nogil=True)
def _put(keys, pn, dn, key, p, d):
    j = _slot(keys, pn, dn, key)
    keys[j] = key + 1
    pn[j] = p
    dn[j] = d


@nb.njit(cache=True, nogil=True)
def _prove(family, params, root, keys, pn, dn, max_children, depth_limit, stats):
    """df-pn from ``root`` with an explicit stack (numba cannot cache recursive functions)."""
    width = root.size
    children = np.zeros((depth_limit + 1, max_children, width), dtype=np.int64)
    ckeys = np.zeros((depth_limit + 1, max_children), dtype=np.int64)
    states = np.zeros((depth_limit + 2, width), dtype=np.int64)
    frame_key = np.zeros(depth_limit + 2, dtype=np.int64)
    frame_pn = np.zeros(depth_limit + 2, dtype=np.int64)  # thresholds of each frame
    frame_dn = np.zeros(depth_limit + 2, dtype=np.int64)
    count = np.full(depth_limit + 2, -1, dtype=np.int64)  # children listed, -1 before expansion
    states[0] = root
    frame_key[0] = state_key(family, params, root)
    frame_pn[0] = INF
    frame_dn[0] = INF
    depth = 0
    while depth >= 0:
        key = frame_key[depth]
        if count[depth] < 0:
            stats[0] += 1
            status, m = expand(family, params, states[depth], children[depth], ckeys[depth])
            if status != 0:
                _put(keys, pn, dn, key, 0 if status == 1 else INF, INF if status == 1 else 0)
                depth -= 1
                continue
            count[depth] = m
        proof = INF  # least dn of a child: this position's proof number
        disproof = 0  # sum of the children's pn: its disproof number
        best = 0
        best_pn = np.int64(0)
        second = INF
        for j in range(count[depth]):
            cp, cd = _get(keys, pn, dn, ckeys[depth, j])
            disproof = min(disproof + cp, INF)
            if cd < proof:
                second = proof
                proof = cd
                best = j
                best_pn = cp
            elif cd < second:
                second = cd
        if proof >= frame_pn[depth] or disproof >= frame_dn[depth] or (stats[1] > 0 and stats[0] >= stats[1]):
            _put(keys, pn, dn, key, proof, disproof)
            count[depth] = -1
            depth -= 1
            continue
        # descend into the most proving child with thresholds that return here when it stops being so
        states[depth + 1] = children[depth, best]
        frame_key[depth + 1] = ckeys[depth, best]
        frame_pn[depth + 1] = frame_dn[depth] - disproof + best_pn
        frame_dn[depth + 1] = min(frame_pn[depth], second + 1)
        count[depth + 1] = -1
        depth += 1
    return _get(keys, pn, dn, frame_key[0])


def prove(family: int, params: np.ndarray, state, table: Table, max_children: int, depth_limit: int,
          max_nodes: int = 0) -> tuple[int, int]:
    """Solve ``state`` for the player to move: (+1 win, -1 loss, 0 stopped at ``max_nodes``), nodes.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers.search_rules import HEX, hex_params
    >>> game = make_game("hex", n=3)
    >>> prove(HEX, hex_params(game.kernel_params()), (0, 0), Table(12), 9, 9)[0]
    1
    """
    stats = np.array([0, max_nodes], dtype=np.int64)
    state = np.asarray(state, dtype=np.int64)
    p, d = _prove(family, params, state, table.keys, table.pn, table.dn, max_children, depth_limit, stats)
    return (1 if p == 0 else -1 if d == 0 else 0), int(stats[0])


def lookup(family: int, params: np.ndarray, state, table: Table) -> tuple[int, int]:
    """The (pn, dn) stored for ``state``, or (1, 1) when the table has none."""
    key = state_key(family, params, np.asarray(state, dtype=np.int64))
    p, d = _get(table.keys, table.pn, table.dn, key)
    return int(p), int(d)
