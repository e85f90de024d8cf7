"""A Hex solver with virtual connections: depth-first proof-number search over reduced positions.

At each position, for the player P to move (after ``solvers.hex_patterns.fill_in`` has filled
the dead and captured cells):

* P has a full or semi connection between P's sides (``solvers.hex_connections``): P wins;
* the opponent has a full connection between theirs: P loses;
* otherwise P must play in the *must-play region*, the cells common to the carriers of every
  semi connection the opponent has between the opponent's sides (a move outside one leaves it
  whole, and the opponent completes it); an empty region: P loses;
* P's *vulnerable* cells leave the region (``solvers.hex_patterns.vulnerable``: an opponent stone
  on a neighbour would make them useless for P); an emptied region: P loses.

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
from solvers.hex_connections import FULL, SEMI, h_search, workspace
from solvers.hex_patterns import fill_in, hex_tables, vulnerable

__all__ = ["HexSolver", "evaluate", "hex_openings"]

INF = 1 << 60


class _Stopped(Exception):
    """The node budget of a call ran out."""


@nb.njit(cache=True, nogil=True)
def _rotate(x, cells):
    out = np.int64(0)
    for i in range(cells):
        if (x >> i) & 1:
            out |= np.int64(1) << (cells - 1 - i)
    return out


@nb.njit(cache=True, nogil=True)
def _smallest(lists, count):
    best = lists[0]
    for k in range(1, count):
        if popcount(lists[k]) < popcount(best):
            best = lists[k]
    return best


@nb.njit(cache=True, nogil=True)
def _cover(carriers, count, empty, must):
    """The union of a few carriers whose common cells (within ``empty``) are ``must``, as the common cells of
    all ``count`` are: the smallest first, then each one that leaves the fewest common cells (a small proof)."""
    if count == 0:
        return np.int64(0)
    common = empty
    union = np.int64(0)
    while common != must:
        best, best_left = -1, popcount(common) + 1
        for k in range(count):
            left = popcount(common & carriers[k]) * 64 + popcount(carriers[k] & ~union)
            if best < 0 or left < best_left:
                best, best_left = k, left
        common &= carriers[best]
        union |= carriers[best]
    return union


@nb.njit(cache=True, nogil=True)
def evaluate(a, b, turn, geo, neighbours, ring, sides, centre, work, prune):
    """``(status, a, b, moves, proof, filled)`` of a position with player ``turn`` to move (0 the first player,
    stones ``a``): ``status`` +1 won, -1 lost, else 0 with ``moves`` the cells to try, best first; ``a`` and
    ``b`` after fill-in, ``filled`` the cells it gave each player.  ``proof``: for a decided position the
    cells the winner's connection uses (its carrier), else the cells of the opponent's semi connections
    that made the must-play region and, with ``prune``, the killers of the vulnerable cells left out of it
    (``solvers.hex_patterns.vulnerable``)."""
    cells = neighbours.size
    none = np.zeros(0, dtype=np.int64)
    a, b, got_a, got_b = fill_in(a, b, geo, neighbours, ring, sides)
    filled = np.array([got_a, got_b], dtype=np.int64)
    if hex_connected(a, sides[0, 0], sides[0, 1], geo):
        return (1 if turn == 0 else -1), a, b, none, np.int64(0), filled
    if hex_connected(b, sides[1, 0], sides[1, 1], geo):
        return (1 if turn == 1 else -1), a, b, none, np.int64(0), filled
    xs, ys = (a, b) if turn == 0 else (b, a)
    F, fn, S, sn, _ = h_search(xs, ys, sides[turn, 0], sides[turn, 1], geo, neighbours, work, 2)
    if fn[cells, cells + 1] > 0:
        return 1, a, b, none, _smallest(F[cells, cells + 1], fn[cells, cells + 1]), filled
    if sn[cells, cells + 1] > 0:
        return 1, a, b, none, _smallest(S[cells, cells + 1], sn[cells, cells + 1]), filled
    F, fn, S, sn, _ = h_search(ys, xs, sides[1 - turn, 0], sides[1 - turn, 1], geo, neighbours, work, 1)
    if fn[cells, cells + 1] > 0:
        return -1, a, b, none, _smallest(F[cells, cells + 1], fn[cells, cells + 1]), filled
    must = geo[1] & ~(a | b)
    for k in range(sn[cells, cells + 1]):
        must &= S[cells, cells + 1, k]
    held = _cover(S[cells, cells + 1], sn[cells, cells + 1], geo[1] & ~(a | b), must)
    if must and prune:
        pruned, killers = vulnerable(xs, ys, must, geo, neighbours, ring[turn], sides[turn, 0], sides[turn, 1])
        must &= ~pruned
        held |= killers
    if must == 0:
        return -1, a, b, none, held, filled
    count = popcount(must)
    moves = np.empty(count, dtype=np.int64)
    score = np.empty(count, dtype=np.int64)
    m = 0
    for c in range(cells):
        if (must >> c) & 1:
            inside = 0
            for k in range(sn[cells, cells + 1]):
                inside += (S[cells, cells + 1, k] >> c) & 1
            moves[m] = c
            score[m] = -inside * 1000 + centre[c]
            m += 1
    return 0, a, b, moves[np.argsort(score, kind="mergesort")], held, filled


@nb.njit(cache=True, nogil=True)
def _child_keys(a, b, turn, moves, cells):
    """The transposition key parts (a, b) of each child, the least of the position and its rotation, and 1
    where that is the rotation."""
    out = np.zeros((moves.size, 3), dtype=np.int64)
    for i in range(moves.size):
        bit = np.int64(1) << moves[i]
        ca, cb = (a | bit, b) if turn == 0 else (a, b | bit)
        ra, rb = _rotate(ca, cells), _rotate(cb, cells)
        if ra < ca or (ra == ca and rb < cb):
            ca, cb = ra, rb
            out[i, 2] = 1
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
    prune : bool
        Leave the mover's vulnerable cells out of each must-play region (``solvers.hex_patterns.vulnerable``).

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

    def __init__(self, n: int, full_cap: int = FULL, semi_cap: int = SEMI, prune: bool = True):
        self.n = n
        self.cells = n * n
        self.geometry, self.neighbours, self.ring, self.sides = hex_tables(n)
        c = (n - 1) / 2
        self.centre = np.array([int(2 * (abs(i // n - c) + abs(i % n - c) + abs(i // n + i % n - 2 * c)))
                                for i in range(self.cells)], dtype=np.int64)
        for name, cap in (("full_cap", full_cap), ("semi_cap", semi_cap)):
            if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= 64:
                raise ValueError(f"{name} must be an integer in [1, 64], got {cap!r}")
        if not isinstance(prune, bool):
            raise ValueError(f"prune must be True or False, got {prune!r}")
        self.full_cap, self.semi_cap, self.prune = full_cap, semi_cap, prune
        self.work = workspace(self.cells, full_cap, semi_cap)
        self.epsilon = 1
        self.table: dict[int, tuple[int, int]] = {}
        self.children: dict[int, list] = {}
        self.proofs: dict[int, int] = {}
        self.nodes = 0
        self._limit: int | None = None

    def _key(self, a: int, b: int, turn: int) -> int:
        ra, rb = int(_rotate(a, self.cells)), int(_rotate(b, self.cells))
        a, b = min((a, b), (ra, rb))
        return a | b << self.cells | turn << (2 * self.cells)

    def _split(self, key: int) -> tuple[int, int, int]:
        mask = (1 << self.cells) - 1
        return key & mask, (key >> self.cells) & mask, key >> (2 * self.cells)

    def _expand(self, key: int):
        """``(status, proof)`` of a decided position ``key``, else ``(0, node)``: the node's children
        ``[(key, move, rotated)]``, the cells of the opponent's semi connections, the cells fill-in gave the
        player to move and the other, and the moves still alive (a bitset)."""
        if self._limit is not None and self.nodes >= self._limit:
            raise _Stopped
        a, b, turn = self._split(key)
        self.nodes += 1
        status, fa, fb, moves, proof, filled = evaluate(np.int64(a), np.int64(b), turn, self.geometry,
                                                        self.neighbours, self.ring, self.sides, self.centre,
                                                        self.work, self.prune)
        if status:
            winner = turn if status == 1 else 1 - turn
            return int(status), int(proof) | int(filled[winner])
        shift, last = self.cells, (1 - turn) << (2 * self.cells)
        kids = [(int(x) | int(y) << shift | last, int(move), bool(r))
                for (x, y, r), move in zip(_child_keys(fa, fb, turn, moves, self.cells), moves)]
        alive = sum(1 << int(move) for move in moves)
        return 0, [kids, int(proof), int(filled[turn]), int(filled[1 - turn]), alive]

    def _proof(self, kid: int, rotated: bool) -> int:
        proof = self.proofs[kid]
        return int(_rotate(np.int64(proof), self.cells)) if rotated else proof

    def _mid(self, key: int, th_pn: int, th_dn: int) -> None:
        node = self.children.get(key)
        if node is None:
            status, node = self._expand(key)
            if status:
                self.table[key] = (0, INF) if status == 1 else (INF, 0)
                self.proofs[key] = node
                return
            self.children[key] = node
        table = self.table
        kids = node[0]
        while True:
            alive = node[4]
            for kid, move, rotated in kids:  # a refuted move: the moves outside its proof lose as well
                if alive >> move & 1 and table.get(kid, (1, 1))[0] == 0:
                    alive &= self._proof(kid, rotated) | 1 << move
            node[4] = alive
            proof, disproof, best, best_pn, second, winner = INF, 0, 0, 0, INF, None
            for kid, move, rotated in kids:
                if not alive >> move & 1:
                    continue
                cp, cd = table.get(kid, (1, 1))
                disproof = min(disproof + cp, INF)
                if cd < proof:
                    proof, second, best, best_pn = cd, proof, kid, cp
                    winner = (kid, move, rotated)
                elif cd < second:
                    second = cd
            if proof == 0:
                kid, move, rotated = winner
                self._solved(key, 1, self._proof(kid, rotated) | 1 << move | node[2])
                return
            if disproof == 0:
                cells = node[1] | node[3]
                for kid, move, rotated in kids:
                    if alive >> move & 1:
                        cells |= self._proof(kid, rotated)
                self._solved(key, -1, cells)
                return
            if proof >= th_pn or disproof >= th_dn:
                table[key] = (proof, disproof)
                return
            self._mid(best, th_dn - disproof + best_pn, min(th_pn, second + 1 + (second >> 2) * self.epsilon))

    def _solved(self, key: int, value: int, proof: int) -> None:
        self.table[key] = (0, INF) if value == 1 else (INF, 0)
        self.proofs[key] = proof
        del self.children[key]

    def solve(self, first: int, second: int, to_move: int | None = None) -> tuple[int, int]:
        """``(value, proof)``: the value for the player to move (+1 win, -1 loss) and a proof set, cells
        outside which the loser may own every empty cell without changing the value.

        Examples
        --------
        >>> value, proof = HexSolver(3).solve(1 << 4, 0)  # the centre: the second player, to move, loses
        >>> value, bin(proof)  # the first player's bridges to the top and the bottom
        (-1, '0b11000110')
        """
        first, second, turn = self._check(first, second, to_move)
        value = self.value(first, second, turn)
        key = self._key(first, second, turn)
        rotated = key & ((1 << (2 * self.cells)) - 1) != first | second << self.cells
        return value, self._proof(key, rotated)

    def value(self, first: int, second: int, to_move: int | None = None, max_nodes: int | None = None) -> int:
        """The value of a position for the player to move: +1 win, -1 loss, 0 when ``max_nodes`` more
        positions evaluated did not settle it (the work stays in the table for the next call).

        ``first`` and ``second`` are the players' bitboards (bit ``r * n + c``); ``to_move`` is 0 (the
        first player) or 1, by default from the stone counts.
        """
        first, second, turn = self._check(first, second, to_move)
        if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1):
            raise ValueError(f"max_nodes must be a positive integer or None, got {max_nodes!r}")
        self._limit = self.nodes + max_nodes if max_nodes else None
        key = self._key(first, second, turn)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * self.cells + 100))
        try:
            while True:
                pn, dn = self.table.get(key, (1, 1))
                if pn == 0 or dn == 0:
                    return 1 if pn == 0 else -1
                self._mid(key, INF, INF)
        except _Stopped:
            return 0
        finally:
            sys.setrecursionlimit(limit)

    def timed_value(self, first: int, second: int, to_move: int | None = None,
                    max_nodes: int | None = None) -> tuple[int, int, float]:
        """``(value, nodes, cpu seconds)`` of one proof (nodes and CPU time of this call alone)."""
        nodes, clock = self.nodes, time.process_time()
        value = self.value(first, second, to_move, max_nodes)
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


def hex_openings(n: int, progress=None, solver: HexSolver | None = None,
                 max_nodes: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The value of every first move on the empty n x n board for the first player, with the work of each.

    Returns ``(values, nodes, cpu)``, each n x n: +1 where the opening wins, -1 where it loses, 0 where
    its proof and its 180-degree twin's both ran past ``max_nodes`` positions (unsettled; the rotation keeps
    each player's sides, so twins have one value); the positions evaluated and the CPU seconds its own proof
    took (0 for the twin of an opening proved before, found in the table).
    ``progress(done, total)`` is called after each opening.

    Examples
    --------
    >>> values, nodes, cpu = hex_openings(3)
    >>> values.astype(int).tolist()  # the middle row and the two obtuse corners win
    [[-1, -1, 1], [1, 1, 1], [1, -1, -1]]
    """
    solver = solver or HexSolver(n)
    values, nodes, cpu = np.zeros((n, n)), np.zeros((n, n), dtype=np.int64), np.zeros((n, n))
    for cell in range(n * n):
        value, work, seconds = solver.timed_value(1 << cell, 0, 1, max_nodes)
        values.flat[cell], nodes.flat[cell], cpu.flat[cell] = -value, work, seconds
        if progress is not None:
            progress(cell + 1, n * n)
    unsettled = values == 0  # an opening left open takes the value of its 180-degree twin when that one settled
    values[unsettled] = values[::-1, ::-1][unsettled]
    return values, nodes, cpu
