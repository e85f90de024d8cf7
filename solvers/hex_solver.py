"""A Hex solver with virtual connections: depth-first proof-number search over reduced positions.

At each position, for the player P to move (after ``solvers.hex_patterns.fill_in`` has filled
the dead and captured cells):

* P has a full or semi connection between P's sides (``solvers.hex_connections``): P wins;
* the opponent has a full connection between theirs: P loses;
* otherwise P must play in the *must-play region*, the cells common to the carriers of every
  semi connection the opponent has between the opponent's sides (a move outside one leaves it
  whole, and the opponent completes it); an empty region: P loses.

The moves of the region, ordered by how many of those carriers hold them (then centre first),
are searched by df-pn (A. Nagai, 2002) with a transposition table keyed by the position, the
turn and the 180-degree rotation, as in Henderson, Arneson and Hayward, "Solving 8x8 Hex"
(2009).  The turn is carried apart from the stones since filled cells break the stone counts.
"""

from __future__ import annotations

import sys
import time

import numba as nb
import numpy as np

from games.boards import popcount
from games.hex import hex_connected
from solvers.hex_connections import FULL, SEMI, h_search
from solvers.hex_patterns import fill_in, hex_tables

__all__ = ["HexSolver", "evaluate"]

INF = 1 << 60


@nb.njit(cache=True, nogil=True)
def _rotate(x, cells):
    out = np.int64(0)
    for i in range(cells):
        if (x >> i) & 1:
            out |= np.int64(1) << (cells - 1 - i)
    return out


@nb.njit(cache=True, nogil=True)
def evaluate(a, b, turn, geo, neighbours, ring, sides, centre, full_cap, semi_cap):
    """``(status, a, b, moves)`` of a position with player ``turn`` to move (0 the first player, stones ``a``):
    +1 won, -1 lost, else 0 with ``moves`` the cells to try, best first; ``a`` and ``b`` after fill-in."""
    cells = neighbours.size
    a, b, _, _ = fill_in(a, b, geo, neighbours, ring, sides)
    none = np.zeros(0, dtype=np.int64)
    if hex_connected(a, sides[0, 0], sides[0, 1], geo):
        return (1 if turn == 0 else -1), a, b, none
    if hex_connected(b, sides[1, 0], sides[1, 1], geo):
        return (1 if turn == 1 else -1), a, b, none
    xs, ys = (a, b) if turn == 0 else (b, a)
    F, fn, S, sn, _ = h_search(xs, ys, sides[turn, 0], sides[turn, 1], geo, neighbours, full_cap, semi_cap, True)
    if fn[cells, cells + 1] > 0 or sn[cells, cells + 1] > 0:
        return 1, a, b, none
    F, fn, S, sn, _ = h_search(ys, xs, sides[1 - turn, 0], sides[1 - turn, 1], geo, neighbours, full_cap,
                               semi_cap, True)
    if fn[cells, cells + 1] > 0:
        return -1, a, b, none
    must = geo[1] & ~(a | b)
    for k in range(sn[cells, cells + 1]):
        must &= S[cells, cells + 1, k]
    if must == 0:
        return -1, a, b, none
    count = popcount(must)
    moves = np.empty(count, dtype=np.int64)
    score = np.empty(count, dtype=np.int64)
    m = 0
    for c in range(cells):
        if (must >> c) & 1:
            held = 0
            for k in range(sn[cells, cells + 1]):
                held += (S[cells, cells + 1, k] >> c) & 1
            moves[m] = c
            score[m] = -held * 1000 + centre[c]
            m += 1
    return 0, a, b, moves[np.argsort(score, kind="mergesort")]


@nb.njit(cache=True, nogil=True)
def _child_keys(a, b, turn, moves, cells):
    """The transposition key parts (a, b) of each child, the least of the position and its rotation."""
    out = np.empty((moves.size, 2), dtype=np.int64)
    for i in range(moves.size):
        bit = np.int64(1) << moves[i]
        ca, cb = (a | bit, b) if turn == 0 else (a, b | bit)
        ra, rb = _rotate(ca, cells), _rotate(cb, cells)
        if ra < ca or (ra == ca and rb < cb):
            ca, cb = ra, rb
        out[i, 0] = ca
        out[i, 1] = cb
    return out


class HexSolver:
    """Solves Hex positions on an n x n board (n <= 7) by df-pn with virtual connections (see the module).

    One transposition table serves every call, so solving the openings one after the other reuses
    what earlier proofs learnt.  ``nodes`` counts the positions evaluated (fill-in and two H-searches).

    Parameters
    ----------
    n : int
        Board side, 1 to 7.
    full_cap, semi_cap : int
        Full and semi carriers kept per pair of nodes by H-search.

    Examples
    --------
    >>> solver = HexSolver(3)
    >>> solver.value(0, 0)  # the first player wins the empty board
    1
    >>> solver.value(1 << 0, 0)  # a first stone in the acute corner loses (the second player to move wins)
    1
    >>> solver.value(1 << 4, 0)  # the centre wins: the second player, to move, loses
    -1
    """

    def __init__(self, n: int, full_cap: int = FULL, semi_cap: int = SEMI):
        self.n = n
        self.cells = n * n
        self.geometry, self.neighbours, self.ring, self.sides = hex_tables(n)
        c = (n - 1) / 2
        self.centre = np.array([int(2 * (abs(i // n - c) + abs(i % n - c) + abs(i // n + i % n - 2 * c)))
                                for i in range(self.cells)], dtype=np.int64)
        for name, cap in (("full_cap", full_cap), ("semi_cap", semi_cap)):
            if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= 64:
                raise ValueError(f"{name} must be an integer in [1, 64], got {cap!r}")
        self.full_cap, self.semi_cap = full_cap, semi_cap
        self.table: dict[int, tuple[int, int]] = {}
        self.children: dict[int, list[int]] = {}
        self.nodes = 0

    def _key(self, a: int, b: int, turn: int) -> int:
        ra, rb = int(_rotate(a, self.cells)), int(_rotate(b, self.cells))
        a, b = min((a, b), (ra, rb))
        return a | b << self.cells | turn << (2 * self.cells)

    def _split(self, key: int) -> tuple[int, int, int]:
        mask = (1 << self.cells) - 1
        return key & mask, (key >> self.cells) & mask, key >> (2 * self.cells)

    def _expand(self, key: int):
        """Status and child keys of the position ``key``."""
        a, b, turn = self._split(key)
        self.nodes += 1
        status, fa, fb, moves = evaluate(np.int64(a), np.int64(b), turn, self.geometry, self.neighbours, self.ring,
                                         self.sides, self.centre, self.full_cap, self.semi_cap)
        if status:
            return int(status), []
        parts = _child_keys(fa, fb, turn, moves, self.cells)
        shift, last = self.cells, (1 - turn) << (2 * self.cells)
        return 0, [int(x) | int(y) << shift | last for x, y in parts]

    def _mid(self, key: int, th_pn: int, th_dn: int) -> None:
        kids = self.children.get(key)
        if kids is None:
            status, kids = self._expand(key)
            if status:
                self.table[key] = (0, INF) if status == 1 else (INF, 0)
                return
            self.children[key] = kids
        table = self.table
        while True:
            proof, disproof, best, best_pn, second = INF, 0, 0, 0, INF
            for kid in kids:
                cp, cd = table.get(kid, (1, 1))
                disproof = min(disproof + cp, INF)
                if cd < proof:
                    proof, second, best, best_pn = cd, proof, kid, cp
                elif cd < second:
                    second = cd
            if proof >= th_pn or disproof >= th_dn or proof == 0 or disproof == 0:
                table[key] = (proof, disproof)
                if proof == 0 or disproof == 0:
                    del self.children[key]
                return
            self._mid(best, th_dn - disproof + best_pn, min(th_pn, second + 1))

    def value(self, first: int, second: int, to_move: int | None = None) -> int:
        """The value of a position for the player to move: +1 win, -1 loss.

        ``first`` and ``second`` are the players' bitboards (bit ``r * n + c``); ``to_move`` is 0 (the
        first player) or 1, by default from the stone counts.
        """
        first, second, turn = self._check(first, second, to_move)
        key = self._key(first, second, turn)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * self.cells + 100))
        try:
            while True:
                pn, dn = self.table.get(key, (1, 1))
                if pn == 0 or dn == 0:
                    return 1 if pn == 0 else -1
                self._mid(key, INF, INF)
        finally:
            sys.setrecursionlimit(limit)

    def timed_value(self, first: int, second: int, to_move: int | None = None) -> tuple[int, int, float]:
        """``(value, nodes, cpu seconds)`` of one proof (nodes and CPU time of this call alone)."""
        nodes, clock = self.nodes, time.process_time()
        value = self.value(first, second, to_move)
        return value, self.nodes - nodes, time.process_time() - clock

    def _check(self, first, second, to_move) -> tuple[int, int, int]:
        full = (1 << self.cells) - 1
        for name, bits in (("first", first), ("second", second)):
            if isinstance(bits, bool) or not isinstance(bits, (int, np.integer)) or not 0 <= int(bits) <= full:
                raise ValueError(f"{name} must be a bitboard of the {self.n} x {self.n} board, an integer in "
                                 f"[0, {full}], got {bits!r}")
        first, second = int(first), int(second)
        if first & second:
            raise ValueError(f"the stones overlap at {first & second:#x}: a cell holds one stone at most")
        if to_move is None:
            lead = first.bit_count() - second.bit_count()
            if lead not in (0, 1):
                raise ValueError(f"with {first.bit_count()} first and {second.bit_count()} second stones the turn "
                                 "is not implied: pass to_move=0 or 1")
            return first, second, lead
        if to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 (the first player) or 1 (the second), got {to_move!r}")
        return first, second, int(to_move)
