"""Fast path for games whose moves are rays (``LineGame``): O(1) work per position for P/N.

The options of p are the earlier points of the lines through p, one line per direction v.
Every line gets a key that is a linear function of p (coordinates off v's support, and the
differences of coordinates on it), so a pass in id order only has to remember, per line,
whether it already holds a P position (outcome) or which values it holds (Grundy, as bitsets).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from cgbase.memory import check_memory
from games import LineGame, Universe

__all__ = ["line_outcome", "line_grundy", "prepare_lines", "advance", "is_terminal"]


def _line_keys(game: LineGame, limits: np.ndarray):
    """Per direction: coefficients, constant and number of keys of its linear line key."""
    coefs, consts, counts = [], [], []
    for v in game.line_directions:
        support = [i for i, x in enumerate(v) if x]
        s0 = support[0]
        coef = np.zeros(game.dims, dtype=np.int64)
        const, radix_product = 0, 1
        for i in range(game.dims):
            if i == s0:
                continue
            radix = int(limits[i]) + 1 + (int(limits[s0]) if i in support else 0)
            coef[i] = radix_product
            if i in support:
                coef[s0] -= radix_product
                const += radix_product * int(limits[s0])
            radix_product *= radix
        coefs.append(coef)
        consts.append(const)
        counts.append(radix_product)
    bases = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    return np.array(coefs), np.array(consts, dtype=np.int64) + bases, int(np.sum(counts))


@nb.njit(cache=True, inline="always")
def advance(p, limits, key, coefs, first=0):
    """Next position in id order from coordinate ``first`` on, updating the line keys."""
    for i in range(first, p.size):
        p[i] += 1
        for d in range(key.size):
            key[d] += coefs[d, i]
        if p[i] <= limits[i]:
            return
        for d in range(key.size):
            key[d] -= coefs[d, i] * p[i]
        p[i] = 0


@nb.njit(cache=True, inline="always")
def is_terminal(p, supports):
    for d in range(supports.shape[0]):
        blocked = False
        for i in range(p.size):
            if supports[d, i] and p[i] == 0:
                blocked = True
        if not blocked:
            return False
    return True


@nb.njit(cache=True, nogil=True)
def _outcome_pass(limits, coefs, start, nlines, supports, terminal, n):
    # row by row along coordinate 0: the line keys move by a fixed step per cell, and once the
    # line that runs along the row holds a P position, the rest of the row is N
    has_p = np.zeros(nlines, dtype=np.uint8)
    out = np.ones(n, dtype=np.int8)
    p = np.zeros(limits.size, dtype=np.int64)
    row_start = start.copy()
    key = start.copy()
    step = coefs[:, 0].copy()
    ndirs = key.size
    row = limits[0] + 1
    along = False
    for d in range(ndirs):
        along = along or step[d] == 0
    for i in range(0, n, row):
        for d in range(ndirs):
            key[d] = row_start[d]
        for x in range(row):
            seen = 0
            for d in range(ndirs):
                seen |= has_p[key[d]]
            if seen == 0:
                p[0] = x
                value = terminal if is_terminal(p, supports) else -1
                out[i + x] = value
                if value == -1:
                    for d in range(ndirs):
                        has_p[key[d]] = 1
                    if along:
                        break
            for d in range(ndirs):
                key[d] += step[d]
        p[0] = 0
        advance(p, limits, row_start, coefs, 1)
    return out


@nb.njit(cache=True, nogil=True)
def _outcome_pass_2d(size0, size1, use_row, use_col, use_diag, terminal):
    # the same pass for two coordinates with the lines in flat flag arrays; a line along the
    # row needs none: the row ends at its first P position
    col_p = np.zeros(size0, dtype=np.bool_)  # lines along coordinate 1, keyed by x0
    diag_p = np.zeros(size0 + size1, dtype=np.bool_)  # diagonals, keyed by x0 - x1 + size1
    out = np.ones(size0 * size1, dtype=np.int8)
    for x1 in range(size1):
        base = x1 * size0
        for x0 in range(size0):
            if (use_col and col_p[x0]) or (use_diag and diag_p[x0 - x1 + size1]):
                continue
            stuck = (not use_row or x0 == 0) and (not use_col or x1 == 0) and (not use_diag or x0 == 0 or x1 == 0)
            if stuck and terminal == 1:
                continue
            out[base + x0] = -1
            col_p[x0] = True
            diag_p[x0 - x1 + size1] = True
            if use_row:
                break
    return out


@nb.njit(cache=True, nogil=True)
def _grundy_pass(limits, coefs, start, nlines, words, n):
    seen = np.zeros((nlines, words), dtype=np.uint64)
    out = np.empty(n, dtype=np.int64)
    p = np.zeros(limits.size, dtype=np.int64)
    key = start.copy()
    ndirs = key.size
    for i in range(n):
        g = 0
        for w in range(words):
            union = np.uint64(0)
            for d in range(ndirs):
                union |= seen[key[d], w]
            if union != np.uint64(0xFFFFFFFFFFFFFFFF):
                free = ~union
                bit = 0
                while not (free >> np.uint64(bit)) & np.uint64(1):
                    bit += 1
                g = w * 64 + bit
                break
        out[i] = g
        for d in range(ndirs):
            seen[key[d], g // 64] |= np.uint64(1) << np.uint64(g % 64)
        advance(p, limits, key, coefs)
    return out


def prepare_lines(game: LineGame, universe: Universe):
    if not universe.is_box:
        raise ValueError("the line fast path needs a box universe")
    coefs, start, nlines = _line_keys(game, universe.limits)
    supports = np.array(game.line_directions, dtype=np.bool_)
    return coefs, start, nlines, supports


def line_outcome(game: LineGame, universe: Universe) -> np.ndarray:
    """Outcome (+1 / -1) of every position of a box universe of a line game.

    Examples
    --------
    >>> from games import make_game
    >>> g = make_game("wythoff")
    >>> np.flatnonzero(line_outcome(g, g.universe(2)) == -1).tolist()   # (0,0), (2,1), (1,2)
    [0, 5, 7]
    """
    coefs, start, nlines, supports = prepare_lines(game, universe)
    check_memory(universe.size + nlines, f"outcomes of {game!r} over {universe.size:,} positions")
    directions = set(game.line_directions)
    if game.dims == 2 and directions <= {(1, 0), (0, 1), (1, 1)}:
        size0, size1 = (int(x) + 1 for x in universe.limits)
        return _outcome_pass_2d(size0, size1, (1, 0) in directions, (0, 1) in directions, (1, 1) in directions,
                                np.int8(game.terminal_outcome()))
    return _outcome_pass(
        universe.limits, coefs, start, nlines, supports, np.int8(game.terminal_outcome()), universe.size
    )


def line_grundy(game: LineGame, universe: Universe) -> np.ndarray:
    """Grundy value of every position of a box universe of a line game (normal play)."""
    coefs, start, nlines, _ = prepare_lines(game, universe)
    words = game.max_moves(universe.limits) // 64 + 1
    check_memory(8.0 * (universe.size + nlines * words), f"Grundy values of {game!r} over {universe.size:,} positions")
    return _grundy_pass(universe.limits, coefs, start, nlines, words, universe.size)
