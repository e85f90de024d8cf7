"""The positions reachable from a start, generated layer by layer in numba (board games).

In a board game where every move adds one stone (Hex, Notakto, tic-tac-toe), every play from
the start to a position has the same length, so the reachable positions fall into layers by
the number of stones: layer t + 1 is exactly the set of options of layer t.  Each layer is one
call of the game's move kernel per block of positions and one ``np.unique`` of the option keys;
no Python loop runs over positions.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from cgbase.memory import check_memory
from games.universe import Universe

__all__ = ["layered_universe", "sorted_unique"]

BLOCK_BYTES = 1 << 24  # size of the kernel's option buffer per block


@nb.njit(cache=True, nogil=True)
def _option_keys(counts, out, strides, keys, m):
    """Append the keys of a block's options to ``keys`` from index ``m``; return the new end."""
    dims = strides.size
    for r in range(counts.size):
        for j in range(counts[r]):
            key = 0
            for i in range(dims):
                key += out[r, j, i] * strides[i]
            keys[m] = key
            m += 1
    return m


def sorted_unique(keys: np.ndarray) -> np.ndarray:
    """The distinct values of an int64 array, sorted (a sort and a mask: faster than ``np.unique``).

    Examples
    --------
    >>> sorted_unique(np.array([5, 1, 5, 3, 1])).tolist()
    [1, 3, 5]
    """
    keys = np.sort(keys, kind="stable")
    if keys.size < 2:
        return keys
    keep = np.empty(keys.size, dtype=np.bool_)
    keep[0] = True
    np.not_equal(keys[1:], keys[:-1], out=keep[1:])
    return keys[keep]


def layered_universe(game, starts, limits, max_positions: float, bound=None) -> Universe:
    """Every position reachable from ``starts``, for a game whose moves each add one stone.

    Parameters
    ----------
    game : Game
        A game with a numba move ``kernel`` whose options have one part.
    starts : (m, dims) array of int
        The start positions (their layer is their number of stones, the sum of the popcounts).
    limits : sequence of int
        Largest value of each coordinate (the universe's radix; for bitboards ``2**cells - 1``).
    max_positions : float
        An upper bound on the number of reachable positions, checked against memory first.
    bound : int, optional
        Recorded as the universe's ``bound`` (board games record their side n).

    Returns
    -------
    Universe
        A subset universe (sorted keys).

    Examples
    --------
    >>> from games import make_game
    >>> game = make_game("tictactoe")
    >>> layered_universe(game, [(0, 0)], [511, 511], 6046).size
    5478
    """
    if game.kernel is None or game.parts != 1:
        raise ValueError(f"{game!r}: a layered universe needs a move kernel with single-part options")
    check_memory(8.0 * 3 * max_positions, f"the reachable positions of {game!r} (up to {max_positions:,.0f})")
    shape = Universe(limits)
    starts = np.asarray(starts, dtype=np.int64).reshape(-1, shape.dims)
    stones = np.array([sum(int(x).bit_count() for x in row) for row in starts], dtype=np.int64)
    params = game.kernel_params()
    max_moves = game.max_moves(shape.limits)
    block = max(1, BLOCK_BYTES // (8 * max_moves * game.dims))
    out = np.empty((min(block, 1 << 20), max_moves, game.dims), dtype=np.int64)
    counts = np.zeros(out.shape[0], dtype=np.int64)
    depth = int(stones.min())
    keys = sorted_unique(starts[stones == depth] @ shape.strides)
    found = [keys]
    while keys.size or (stones > depth).any():
        layer = shape.decode(keys)
        chunks = [starts[stones == depth + 1] @ shape.strides]
        for lo in range(0, layer.shape[0], out.shape[0]):
            rows = layer[lo: lo + out.shape[0]]
            game.kernel(rows, params, counts[: rows.shape[0]], out[: rows.shape[0]])
            chunk = np.empty(int(counts[: rows.shape[0]].sum()), dtype=np.int64)
            _option_keys(counts[: rows.shape[0]], out, shape.strides, chunk, 0)
            chunks.append(chunk)
        keys = sorted_unique(np.concatenate(chunks))
        found.append(keys)
        depth += 1
    return Universe(shape.limits, keys=np.sort(np.concatenate(found), kind="stable"), bound=bound)
