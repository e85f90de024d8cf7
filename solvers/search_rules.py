"""Move generation, pruning and transposition keys of the board games, for the proof-number search.

``expand(family, params, state, children, keys)`` is the one entry point (numba): it returns
``(status, m)``: ``status`` +1 when the player to move is proved to win at once, -1 when proved
to lose, else 0 with ``m`` children (distinct up to symmetry) written to ``children[:m]`` and
their transposition keys to ``keys[:m]``.  Only moves that can matter are listed:

* Hex (family 0).  A connected position is lost for the player to move.  The player to move
  wins at once with a cell that connects, or with a cell after which two cells connect (a
  double threat: one stone cannot block both, and the opponent has no connecting cell of
  their own, since a top-bottom and a left-right chain always cross).  If the opponent has
  two connecting cells, the player to move loses; with one, it is the only move.  Otherwise
  every opponent double-threat cell x must be answered inside its carrier ({x} and, when
  there are exactly two threats after x, those two cells): the moves are the intersection
  of the carriers (none left: lost).  Key: the least of the position and its 180-degree
  rotation, one base-3 digit a cell (``3 ** (n * n)`` fits an int64 up to n = 6).
* Notakto (family 1).  Every board dead: the previous player killed the last one, so the
  player to move wins.  A move that kills the last live board loses at once and is never
  listed; with no other move the position is lost.  Key: each board's least image under the
  8 symmetries of the square (a dead board: all ones), boards sorted, packed ``n * n`` bits
  apiece.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games.boards import MAX_BITS, canonical_board, has_line, popcount
from games.hex import hex_connected, hex_win_cells

__all__ = ["HEX", "NOTAKTO", "RULES", "expand", "hex_must_play", "hex_params", "notakto_params"]

HEX, NOTAKTO = 0, 1
# Hex params: geometry (n, full, not_left, not_right, top, bottom, left, right), then the move order
_N, _FULL, _TOP, _BOTTOM, _LEFT, _RIGHT = 0, 1, 4, 5, 6, 7


def _centre_first(n: int) -> np.ndarray:
    c = (n - 1) / 2
    return np.array(sorted(range(n * n), key=lambda i: (abs(i // n - c) + abs(i % n - c), i)), dtype=np.int64)


def hex_params(geometry: np.ndarray) -> np.ndarray:
    """The search parameters of a Hex board: its geometry array, then the cells centre first."""
    return np.concatenate([geometry, _centre_first(int(geometry[0]))]).astype(np.int64)


def notakto_params(n: int, lines: np.ndarray, perms: np.ndarray) -> np.ndarray:
    """The search parameters of Notakto: cells, line count, lines, the 8 symmetries, the cells centre first."""
    return np.concatenate([[n * n, lines.size], lines, perms.reshape(-1), _centre_first(n)]).astype(np.int64)


@nb.njit(cache=True, nogil=True)
def _reverse(bits, cells):
    out = 0
    rest = bits
    while rest:
        low = rest & -rest
        i = 0
        while (low >> i) != 1:
            i += 1
        out |= np.int64(1) << (cells - 1 - i)
        rest ^= low
    return out


@nb.njit(cache=True, nogil=True)
def _listed(keys, m, key):
    """Whether ``key`` is among the first ``m`` children's keys (a symmetric twin already listed)."""
    for j in range(m):
        if keys[j] == key:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def _ternary(a, b, cells):
    """One base-3 digit a cell: 0 empty, 1 the first player's, 2 the second's."""
    key = 0
    power = 1
    for i in range(cells):
        key += (((a >> i) & 1) + 2 * ((b >> i) & 1)) * power
        power *= 3
    return key


@nb.njit(cache=True, nogil=True)
def _hex_key(a, b, cells):
    return min(_ternary(a, b, cells), _ternary(_reverse(a, cells), _reverse(b, cells), cells))


@nb.njit(cache=True, nogil=True)
def hex_must_play(params, a, b):
    """``(status, must)`` of the Hex position ``(a, b)`` (see the module): ``status`` +1 when the player to
    move wins at once, -1 when lost, else 0 with ``must`` the empty cells that may still matter (the one
    cell blocking a connection, the intersection of the carriers of the opponent's double threats, or
    every empty cell when the opponent has no threat)."""
    geo = params[:8]
    if hex_connected(a, geo[_TOP], geo[_BOTTOM], geo) or hex_connected(b, geo[_LEFT], geo[_RIGHT], geo):
        return -1, 0
    first = popcount(a) == popcount(b)
    empty = geo[_FULL] & ~(a | b)
    if first:
        mine, theirs, ms, mg, ts, tg = a, b, geo[_TOP], geo[_BOTTOM], geo[_LEFT], geo[_RIGHT]
    else:
        mine, theirs, ms, mg, ts, tg = b, a, geo[_LEFT], geo[_RIGHT], geo[_TOP], geo[_BOTTOM]
    if hex_win_cells(mine, empty, ms, mg, geo):
        return 1, 0
    threats = hex_win_cells(theirs, empty, ts, tg, geo)
    if threats & (threats - 1):
        return -1, 0
    must = threats
    if not threats:
        rest = empty
        while rest:
            x = rest & -rest
            rest ^= x
            w = hex_win_cells(mine | x, empty & ~x, ms, mg, geo)
            if w & (w - 1):
                return 1, 0
        must = empty
        rest = empty
        while rest:
            x = rest & -rest
            rest ^= x
            w = hex_win_cells(theirs | x, empty & ~x, ts, tg, geo)
            if w & (w - 1):
                must &= (x | w) if popcount(w) == 2 else x
        if must == 0:
            return -1, 0
    return 0, must


@nb.njit(cache=True, nogil=True)
def _hex_expand(params, state, children, keys):
    cells = params[_N] * params[_N]
    a = state[0]
    b = state[1]
    status, must = hex_must_play(params, a, b)
    if status != 0:
        return status, 0
    first = popcount(a) == popcount(b)
    m = 0
    for k in range(cells):
        bit = np.int64(1) << params[8 + k]
        if not must & bit:
            continue
        na = a | bit if first else a
        nb_ = b if first else b | bit
        key = _hex_key(na, nb_, cells)
        if _listed(keys, m, key):
            continue
        children[m, 0] = na
        children[m, 1] = nb_
        keys[m] = key
        m += 1
    return 0, m


@nb.njit(cache=True, nogil=True)
def _notakto_key(state, params, scratch):
    cells = params[0]
    nlines = params[1]
    lines = params[2: 2 + nlines]
    perms = params[2 + nlines: 2 + nlines + 8 * cells].reshape(8, cells)
    for q in range(state.size):
        scratch[q] = (np.int64(1) << cells) - 1 if has_line(state[q], lines) else canonical_board(state[q], perms)
    ordered = np.sort(scratch[: state.size])
    key = 0
    for q in range(state.size):
        key |= ordered[q] << (q * cells)
    return key


@nb.njit(cache=True, nogil=True)
def _notakto_expand(params, state, children, keys):
    cells = params[0]
    nlines = params[1]
    lines = params[2: 2 + nlines]
    order = params[2 + nlines + 8 * cells:]
    boards = state.size
    live = 0
    for q in range(boards):
        if not has_line(state[q], lines):
            live += 1
    if live == 0:
        return 1, 0
    scratch = np.empty(boards, dtype=np.int64)
    m = 0
    for q in range(boards):
        bits = state[q]
        if has_line(bits, lines):
            continue
        for k in range(cells):
            bit = np.int64(1) << order[k]
            if bits & bit:
                continue
            if live == 1 and has_line(bits | bit, lines):
                continue  # kills the last live board: a loss, never worth listing
            children[m, :boards] = state
            children[m, q] = bits | bit
            key = _notakto_key(children[m, :boards], params, scratch)
            if _listed(keys, m, key):
                continue
            keys[m] = key
            m += 1
    if m == 0:
        return -1, 0
    return 0, m


@nb.njit(cache=True, nogil=True)
def expand(family, params, state, children, keys):
    """Status and children of ``state`` for the game ``family`` (HEX or NOTAKTO); see the module."""
    if family == HEX:
        return _hex_expand(params, state, children, keys)
    return _notakto_expand(params, state, children, keys)


@nb.njit(cache=True, nogil=True)
def state_key(family, params, state):
    """The transposition key of a state (equal for symmetric states)."""
    if family == HEX:
        cells = params[_N] * params[_N]
        return _hex_key(state[0], state[1], cells)
    return _notakto_key(state, params, np.empty(state.size, dtype=np.int64))


def _hex_search(game):
    if 3 ** game.cells >= 2 ** MAX_BITS:
        raise ValueError(f"search: {game!r} needs a key of 3 ** {game.cells} values, more than a {MAX_BITS}-bit "
                         "key holds; use n <= 6 (solvers.hex_solver.HexSolver solves n = 7)")
    return HEX, hex_params(game.kernel_params()), game.cells, game.cells


def _notakto_search(game):
    if game.dims * game.cells > MAX_BITS:
        most = max(1, MAX_BITS // game.cells)
        raise ValueError(f"search: {game!r} needs a key of {game.dims * game.cells} bits, more than {MAX_BITS}; "
                         f"use boards <= {most} for n = {game.n}")
    return NOTAKTO, notakto_params(game.n, game.lines, game.symmetries), game.dims * game.cells, game.dims * game.cells


#: the rules a board game names in ``search_rules``: the game -> (family code, params, children, longest play)
RULES = {"hex": _hex_search, "notakto": _notakto_search}
