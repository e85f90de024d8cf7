"""Virtual connections of Hex by H-search: which cells, chains and sides a player can join for sure.

For player X the *nodes* are the empty cells, X's chains and X's two sides (a chain touching a
side is the side).  A **full** connection between nodes u and v with carrier C (a set of empty
cells, u and v left out) means X joins u and v using only C even if the opponent moves first; a
**semi** connection means X joins them moving first (its carrier holds the cell X must play).
An empty endpoint counts as if X had a stone there.  H-search (V. Anshelevich, "A hierarchical
approach to computer Hex", 2002) derives them from adjacency with two rules:

* AND: full (u, m) and full (m, v) with disjoint carriers, neither holding the other's far end:
  through an X chain m a full (u, v) with the union; through an empty cell m a semi (u, v) with
  the union and m.
* OR: semis (u, v) whose carriers have no common cell make a full (u, v) with their union
  (whatever the opponent plays, one of them is untouched and X plays its key).

As in Benzene (the Hex programs of the University of Alberta) each pair keeps at most ``FULL``
full and ``SEMI`` semi carriers, smallest first, supersets dropped; the OR rule combines a new
semi with up to three others.  Fewer carriers mean fewer connections found, never a false one.
Bitsets are int64: cells up to 62 (n <= 7), nodes (cells and two sides) up to 51.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games.boards import popcount
from games.hex import hex_connected
from solvers.hex_patterns import chains, hex_tables

__all__ = ["FULL", "SEMI", "h_search", "connections", "workspace"]

FULL, SEMI = 16, 32  # carriers kept per pair
QUEUE = 1 << 16  # full connections waiting to be combined (a ring; when it is full a new one is not combined)
EMPTY, CHAIN = 1, 2  # node kinds (0: not a node)


@nb.njit(cache=True, nogil=True)
def _drop_supersets(lists, counts, u, v, c):
    """Remove from pair (u, v) of ``lists`` each carrier that holds all of ``c``."""
    m = counts[u, v]
    k = 0
    while k < m:
        if lists[u, v, k] & c == c:
            m -= 1
            lists[u, v, k] = lists[u, v, m]
        else:
            k += 1
    counts[u, v] = m


@nb.njit(cache=True, nogil=True)
def _has_subset(lists, counts, u, v, c):
    for k in range(counts[u, v]):
        if lists[u, v, k] & c == lists[u, v, k]:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def _store(lists, counts, u, v, c, cap):
    """Keep ``c`` in pair (u, v): appended, or in place of the largest when ``cap`` are kept and it is smaller."""
    m = counts[u, v]
    if m < cap:
        lists[u, v, m] = c
        counts[u, v] = m + 1
        return True
    worst = 0
    for k in range(1, m):
        if popcount(lists[u, v, k]) > popcount(lists[u, v, worst]):
            worst = k
    if popcount(c) >= popcount(lists[u, v, worst]):
        return False
    lists[u, v, worst] = c
    return True


@nb.njit(cache=True, nogil=True)
def _add_full(F, fn, S, sn, u, v, c, queue, qstate, partners):
    if u > v:
        u, v = v, u
    if _has_subset(F, fn, u, v, c):
        return
    _drop_supersets(F, fn, u, v, c)
    if not _store(F, fn, u, v, c, F.shape[2]):
        return
    partners[u] |= np.int64(1) << v
    partners[v] |= np.int64(1) << u
    _drop_supersets(S, sn, u, v, c)
    if qstate[2] < queue.shape[0]:
        tail = (qstate[0] + qstate[2]) % queue.shape[0]
        queue[tail, 0] = u
        queue[tail, 1] = v
        queue[tail, 2] = c
        qstate[2] += 1


@nb.njit(cache=True, nogil=True)
def _note(found, nfound, carrier):
    """Append ``carrier`` to ``found[:nfound]`` while there is room (the rest are left out: fewer, never false,
    connections); the new length."""
    if nfound < found.size:
        found[nfound] = carrier
        return nfound + 1
    return nfound


@nb.njit(cache=True, nogil=True)
def _add_semi(F, fn, S, sn, u, v, c, queue, qstate, partners, found):
    if u > v:
        u, v = v, u
    if _has_subset(F, fn, u, v, c) or _has_subset(S, sn, u, v, c):
        return
    _drop_supersets(S, sn, u, v, c)
    if not _store(S, sn, u, v, c, S.shape[2]):
        return
    # OR rule: the new semi with one, two or three others whose carriers leave no common cell
    m = sn[u, v]
    nfound = 0
    for i in range(m):
        ci = S[u, v, i]
        i1 = c & ci
        if ci == c or i1 == c:
            continue
        if i1 == 0:
            nfound = _note(found, nfound, c | ci)
            continue
        for j in range(i + 1, m):
            cj = S[u, v, j]
            i2 = i1 & cj
            if cj == c or i2 == i1:
                continue
            if i2 == 0:
                nfound = _note(found, nfound, c | ci | cj)
                continue
            for k in range(j + 1, m):
                ck = S[u, v, k]
                if ck != c and i2 & ck == 0:
                    nfound = _note(found, nfound, c | ci | cj | ck)
    for k in range(nfound):
        _add_full(F, fn, S, sn, u, v, found[k], queue, qstate, partners)


def workspace(cells: int, full_cap: int = FULL, semi_cap: int = SEMI) -> tuple:
    """The arrays one H-search fills, ``(F, fn, S, sn, queue)``, for a board of ``cells`` cells keeping
    ``full_cap`` full and ``semi_cap`` semi carriers per pair; reused by every search given them (allocating
    them anew took about a fifth of a 7 x 7 search).

    Examples
    --------
    >>> F, fn, S, sn, queue = workspace(9, 4, 8)
    >>> F.shape, S.shape, fn.shape
    ((11, 11, 4), (11, 11, 8), (11, 11))
    """
    nodes = cells + 2
    return (np.zeros((nodes, nodes, full_cap), dtype=np.int64), np.zeros((nodes, nodes), dtype=np.int64),
            np.zeros((nodes, nodes, semi_cap), dtype=np.int64), np.zeros((nodes, nodes), dtype=np.int64),
            np.zeros((QUEUE, 3), dtype=np.int64))


@nb.njit(cache=True, nogil=True)
def h_search(xs, ys, side_a, side_b, geo, neighbours, work, stop_at_sides):
    """H-search for the player with stones ``xs`` (opponent ``ys``) joining the cell masks ``side_a`` and
    ``side_b``, in the arrays ``work`` (``workspace``): ``(F, fn, S, sn, label)`` with pair (u, v), u < v, holding ``fn[u, v]`` full carriers
    ``F[u, v, :fn]`` and ``sn[u, v]`` semi carriers; node ``cells`` is the first side, ``cells + 1`` the
    second, ``label[c]`` the node of cell c (-1 for an opponent's stone).  With ``stop_at_sides`` 1 it stops
    as soon as the sides have a full connection, with 2 a full or a semi one (0: never).  The player must not have joined the sides already."""
    cells = neighbours.size
    nodes = cells + 2
    F, fn, S, sn, queue = work
    fn[:] = 0
    sn[:] = 0
    label = np.empty(cells, dtype=np.int64)
    chains(xs, side_a, side_b, geo, label)
    empty = geo[1] & ~(xs | ys)
    kind = np.zeros(nodes, dtype=np.int64)
    kind[cells] = CHAIN
    kind[cells + 1] = CHAIN
    for c in range(cells):
        if (empty >> c) & 1:
            label[c] = c
            kind[c] = EMPTY
        elif label[c] >= 0:
            kind[label[c]] = CHAIN
    qstate = np.zeros(3, dtype=np.int64)  # head, (unused), length
    partners = np.zeros(nodes, dtype=np.int64)  # partners[u]: the nodes with a full connection to u (a bitset)
    found = np.zeros(64, dtype=np.int64)  # the OR rule's new full carriers (scratch)
    for c in range(cells):
        u = label[c]
        if u < 0:
            continue
        near = neighbours[c]
        for d in range(cells):
            if (near >> d) & 1 and label[d] >= 0 and label[d] != u:
                _add_full(F, fn, S, sn, u, label[d], 0, queue, qstate, partners)
        if (side_a >> c) & 1 and u != cells:
            _add_full(F, fn, S, sn, u, cells, 0, queue, qstate, partners)
        if (side_b >> c) & 1 and u != cells + 1:
            _add_full(F, fn, S, sn, u, cells + 1, 0, queue, qstate, partners)
    while qstate[2] > 0:
        if stop_at_sides and (fn[cells, cells + 1] > 0 or (stop_at_sides == 2 and sn[cells, cells + 1] > 0)):
            break
        head = qstate[0]
        u, v, c1 = queue[head, 0], queue[head, 1], queue[head, 2]
        qstate[0] = (head + 1) % QUEUE
        qstate[2] -= 1
        for side in range(2):
            m, e = (u, v) if side == 0 else (v, u)
            if m >= cells:
                continue  # a side is never the middle of an AND
            ys_left = partners[m]
            while ys_left:
                low = ys_left & -ys_left
                ys_left ^= low
                y = popcount(low - 1)
                if y == e or y == m or kind[y] == 0:
                    continue
                lo, hi = (m, y) if m < y else (y, m)
                for k in range(fn[lo, hi]):
                    c2 = F[lo, hi, k]
                    if c1 & c2 or (kind[e] == EMPTY and (c2 >> e) & 1) or (kind[y] == EMPTY and (c1 >> y) & 1):
                        continue
                    if kind[m] == CHAIN:
                        _add_full(F, fn, S, sn, e, y, c1 | c2, queue, qstate, partners)
                    else:
                        _add_semi(F, fn, S, sn, e, y, c1 | c2 | (np.int64(1) << m), queue, qstate, partners, found)
    return F, fn, S, sn, label


def connections(n: int, first, second, player: int, *, full_cap: int = FULL, semi_cap: int = SEMI) -> dict:
    """The virtual connections of ``player`` (0 joins top and bottom, 1 left and right) on an n x n board
    with the first player's stones ``first`` and the second's ``second`` (bitboards, bit ``r * n + c``).

    Returns ``{"full": {(u, v): [carrier, ...]}, "semi": {...}}`` with u < v node names: a cell index for an
    empty cell, ``"A"`` / ``"B"`` for the player's first / second side (top / bottom, or left / right), and
    ``("chain", c)`` for a chain of the player's stones named by its least cell c; carriers are bitsets.

    Examples
    --------
    >>> vc = connections(3, 0, 0, 0)  # the first player on the empty 3 x 3 board
    >>> ("A", "B") in vc["full"]  # moving second, the first player cannot join top and bottom ...
    False
    >>> vc["semi"][("A", "B")] == [1 << 1 | 1 << 2 | 1 << 4 | 1 << 6 | 1 << 7]  # ... moving first: the centre
    True
    >>> vc["full"][(4, "A")]  # and its bridge to the top
    [6]
    """
    geometry, neighbours, _, sides = hex_tables(n)
    if player not in (0, 1):
        raise ValueError(f"player must be 0 (the first, top and bottom) or 1 (the second, left and right), got {player!r}")
    xs, ys = (int(first), int(second)) if player == 0 else (int(second), int(first))
    if hex_connected(np.int64(xs), sides[player, 0], sides[player, 1], geometry):
        raise ValueError(f"player {player} has joined the sides already: connections are for unfinished games")
    F, fn, S, sn, label = h_search(xs, ys, sides[player, 0], sides[player, 1], geometry, neighbours,
                                   workspace(n * n, full_cap, semi_cap), 0)
    cells = n * n

    def name(node: int):
        if node >= cells:
            return "AB"[node - cells]
        return node if label[node] == node and not (xs >> node) & 1 else ("chain", node)

    out = {"full": {}, "semi": {}}
    for kind, lists, counts in (("full", F, fn), ("semi", S, sn)):
        for u, v in zip(*np.nonzero(counts)):
            out[kind][(name(int(u)), name(int(v)))] = sorted(int(c) for c in lists[u, v, :counts[u, v]])
    return out

