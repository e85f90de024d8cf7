"""Game-state reduction for Hex: cells whose colour cannot matter, filled in before a position is searched.

A cell c is *useless for* player X when an X stone on c could never join two X chains (or an X
chain and an X side) that are not joined without it, however the other empty cells are filled.
The local test looks at c's six neighbours in ring order (a neighbour off the board is the side
of the board there): every two neighbours that are X or empty must be adjacent to each other or
already share an X chain (an X stone's chain, or for an empty neighbour each chain and X side
it touches).  The test only grows truer as stones are added, so one pass may fill many cells.

Three fill-in rules follow (Hayward, Björnsson, Johanson, Kan, Po and van Rijswijck, "Solving
7x7 Hex: virtual connections and game-state reduction", 2003; Henderson, Arneson and Hayward,
"Solving 8x8 Hex", 2009):

* **dead** (useless for both): its colour never matters; it is filled with the second player's.
* **captured** by P (useless for the opponent Y): Y on c is worth no more than P on c, so c is
  filled with P (a Y stone there would be as good as P's, by the final boards).
* **captured pair** {x, y} of adjacent empty cells for P: after Y plays one, P answers with the
  other and Y's stone is useless; both are filled with P.

Each rule keeps the value of the position for both players, whoever is to move; the turn is
therefore carried apart from the stone counts by the solver (``solvers.hex_solver``).

One more rule prunes the moves of the player X to move without filling anything (Björnsson,
Hayward, Johanson and van Rijswijck, "Dead cell analysis in Hex and the Shannon game", 2007):
``vulnerable`` cells, which an opponent stone on a neighbour makes useless for X.
"""

from __future__ import annotations

from functools import lru_cache

import numba as nb
import numpy as np

from games.hex import hex_connected, hex_flood, hex_geometry

__all__ = ["hex_tables", "fill_in", "useless", "vulnerable"]

# ring codes for a neighbour off the board: X's first side, X's second side, a side of the opponent's
SIDE_A, SIDE_B, OTHER_SIDE = -1, -2, -3
RING = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0))  # consecutive directions are adjacent cells


@lru_cache(maxsize=8)
def hex_tables(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(geometry, neighbours, ring, sides)`` of an n x n board (numpy arrays, read-only use).

    ``neighbours[c]`` is the bitmask of c's neighbour cells; ``ring[X, c]`` the six neighbours of c
    in ring order for player X (0 joins top and bottom, 1 left and right), a cell index or -1 / -2
    (X's first / second side) / -3 (the opponent's side); ``sides[X]`` X's two sides as row or
    column masks.

    Examples
    --------
    >>> geometry, neighbours, ring, sides = hex_tables(3)
    >>> bin(int(neighbours[0])), ring[0, 0].tolist(), ring[1, 0].tolist()
    ('0b1010', [1, -1, -1, -3, -3, 3], [1, -3, -3, -1, -1, 3])
    """
    if not isinstance(n, int) or not 1 <= n <= 7:
        raise ValueError(f"Hex tables are for n in [1, 7] (cells fit a 62-bit set), got {n!r}")
    geometry = hex_geometry(n)
    neighbours = np.zeros(n * n, dtype=np.int64)
    ring = np.zeros((2, n * n, 6), dtype=np.int64)
    for r in range(n):
        for c in range(n):
            for k, (dr, dc) in enumerate(RING):
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n:
                    neighbours[r * n + c] |= 1 << (rr * n + cc)
                    ring[:, r * n + c, k] = rr * n + cc
                    continue
                ring[0, r * n + c, k] = SIDE_A if rr < 0 else SIDE_B if rr >= n else OTHER_SIDE
                ring[1, r * n + c, k] = SIDE_A if cc < 0 else SIDE_B if cc >= n else OTHER_SIDE
    sides = np.array([[geometry[4], geometry[5]], [geometry[6], geometry[7]]], dtype=np.int64)
    return geometry, neighbours, ring, sides


@nb.njit(cache=True, nogil=True)
def chains(xs, side_a, side_b, geo, label):
    """Label X's stones ``xs`` by chain into ``label`` (cells: the chain's least cell; a chain on X's first
    side: ``cells``, on the second: ``cells + 1``; other cells -1).  True when one chain joins both sides."""
    cells = label.size
    label[:] = -1
    won = hex_connected(xs, side_a, side_b, geo)
    rest = xs
    for side, mark in ((side_b, cells + 1), (side_a, cells)):
        group = hex_flood(xs, side, geo)
        rest &= ~group
        while group:
            low = group & -group
            label[_index(low)] = mark
            group ^= low
    while rest:
        group = hex_flood(xs, rest & -rest, geo)
        rest &= ~group
        first = _index(group & -group)
        while group:
            low = group & -group
            label[_index(low)] = first
            group ^= low
    return won


@nb.njit(cache=True, nogil=True)
def _index(bit):
    i = 0
    while (bit >> i) != 1:
        i += 1
    return i


@nb.njit(cache=True, nogil=True)
def _chain_sets(xs, empty, side_a, side_b, neighbours, label, sets):
    """``sets[c]``: the chains an X stone on c belongs to (bit per label), for X's stones and empty cells."""
    cells = label.size
    for c in range(cells):
        bit = np.int64(1) << c
        s = np.int64(0)
        if xs & bit:
            s = np.int64(1) << label[c]
        elif empty & bit:
            if side_a & bit:
                s |= np.int64(1) << cells
            if side_b & bit:
                s |= np.int64(1) << (cells + 1)
            near = neighbours[c] & xs
            while near:
                low = near & -near
                s |= np.int64(1) << label[_index(low)]
                near ^= low
        sets[c] = s


@nb.njit(cache=True, nogil=True)
def useless(c, xs, empty, ring_x, sets, cells):
    """Whether an X stone on the empty cell ``c`` could never join anything (see the module); cells outside
    ``xs | empty`` count as the opponent's, so a hypothetical opponent stone is left out of ``empty``."""
    mine = np.zeros(6, dtype=np.int64)  # chain set of each neighbour that is X or empty, 0 when the opponent's
    for k in range(6):
        p = ring_x[c, k]
        if p == SIDE_A:
            mine[k] = np.int64(1) << cells
        elif p == SIDE_B:
            mine[k] = np.int64(1) << (cells + 1)
        elif p >= 0 and (xs | empty) & (np.int64(1) << p):
            mine[k] = sets[p] | (np.int64(1) << 62)  # the top bit marks 'present' for an empty cell on no chain
    for i in range(6):
        if mine[i] == 0:
            continue
        for j in range(i + 2, 6):
            if mine[j] == 0 or (i == 0 and j == 5):
                continue
            if (mine[i] & mine[j]) & ~(np.int64(1) << 62) == 0:
                return False
    return True


@nb.njit(cache=True, nogil=True)
def fill_in(a, b, geo, neighbours, ring, sides):
    """``(a, b, captured_a, captured_b)`` after filling dead and captured cells until none is left (see the
    module): the first player's and the second player's stones, and which filled cells each got."""
    cells = neighbours.size
    label = np.empty(cells, dtype=np.int64)
    sets = np.empty((2, cells), dtype=np.int64)
    got = np.zeros(2, dtype=np.int64)
    changed = True
    while changed:
        changed = False
        stones = (a, b)
        empty = geo[1] & ~(a | b)
        for x in range(2):
            if chains(stones[x], sides[x, 0], sides[x, 1], geo, label):
                return a, b, got[0], got[1]
            _chain_sets(stones[x], empty, sides[x, 0], sides[x, 1], neighbours, label, sets[x])
        fill = np.zeros(2, dtype=np.int64)  # cells to fill with each player's stones
        rest = empty
        while rest:
            low = rest & -rest
            rest ^= low
            c = _index(low)
            for x in range(2):
                if useless(c, stones[x], empty, ring[x], sets[x], cells):
                    fill[1 - x] |= low  # useless for x: the other player takes it (dead cells go to 1)
                    break
        if fill[0] | fill[1]:
            a |= fill[0]
            b |= fill[1]
            got |= fill
            changed = True
            continue
        for p in range(2):  # captured pairs of p: the opponent y = 1 - p plays one, p the other
            y = 1 - p
            rest = empty & ~(a | b)
            while rest and not changed:
                low = rest & -rest
                rest ^= low
                c = _index(low)
                near = neighbours[c] & empty & ~(a | b) & ~((low << 1) - 1)
                while near:
                    other = near & -near
                    near ^= other
                    if useless(c, stones[y], empty & ~other, ring[y], sets[y], cells) and \
                            useless(_index(other), stones[y], empty & ~low, ring[y], sets[y], cells):
                        if p == 0:
                            a |= low | other
                        else:
                            b |= low | other
                        got[p] |= low | other
                        changed = True  # the chains changed: label them again before the next pair
                        break
    return a, b, got[0], got[1]


@nb.njit(cache=True, nogil=True)
def vulnerable(xs, ys, candidates, geo, neighbours, ring_x, side_a, side_b):
    """``(pruned, killers)``: the ``candidates`` (empty cells) that an opponent stone on one of their empty
    neighbours, the *killer*, would make useless for X (stones ``xs``, opponent ``ys``), and those killers.

    X to move may leave every such cell out: if a vulnerable move c wins, the killer's answer k makes c worth
    no more than an opponent stone, so X wins with the opponent on c and k and X to move, by a move that
    wins the position itself (Hex is monotone); repeating this with ever more opponent stones, some winning
    move is not vulnerable.  A proof of a loss must hold the killers (X owning one would stop its kill)."""
    cells = neighbours.size
    label = np.empty(cells, dtype=np.int64)
    sets = np.empty(cells, dtype=np.int64)
    chains(xs, side_a, side_b, geo, label)
    empty = geo[1] & ~(xs | ys)
    _chain_sets(xs, empty, side_a, side_b, neighbours, label, sets)
    pruned, killers = np.int64(0), np.int64(0)
    rest = candidates
    while rest:
        low = rest & -rest
        rest ^= low
        c = _index(low)
        near = neighbours[c] & empty
        while near:
            k = near & -near
            near ^= k
            if useless(c, xs, empty & ~k, ring_x, sets, cells):
                pruned |= low
                killers |= k
                break
    return pruned, killers

