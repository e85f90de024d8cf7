"""The options of a block of positions, one position after another: how the network learners expand a batch.

AlphaZero's search and self-play (``learners.alphazero``) and the Hex exploration learners
(``learners.exploration``) both ask for the options of many positions at once: ``options_block`` asks the game
once for the whole block (``Game.option_block``: its compiled move kernel, or a custom game's ``moves``) and
returns ``(counts, options)``, the options of position ``i`` being rows ``offsets[i] : offsets[i] + counts[i]``
of ``options`` with ``offsets = option_offsets(counts)``.

Examples
--------
>>> from games import make_game
>>> counts, options = options_block(make_game("subtraction", subtract=(1, 2)), np.array([[2], [0], [1]]))
>>> counts.tolist(), option_offsets(counts).tolist(), options.ravel().tolist()
([2, 0, 1], [0, 2, 2], [1, 0, 0])
"""

from __future__ import annotations

import numpy as np

__all__ = ["options_block", "option_offsets"]


def option_offsets(counts) -> np.ndarray:
    """Where each position's options begin in an options block (``counts`` options per position).

    >>> option_offsets(np.array([1, 2, 0, 3])).tolist()
    [0, 1, 3, 3]
    """
    return np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)


def options_block(game, positions) -> tuple[np.ndarray, np.ndarray]:
    """Options of each of an (m, dims) array: ``(counts, options)``, options one position after another.

    Examples
    --------
    >>> from games import make_game
    >>> counts, options = options_block(make_game("nim", heaps=2), np.array([[1, 0], [0, 2]]))
    >>> counts.tolist(), options.tolist()
    ([1, 2], [[0, 0], [0, 1], [0, 0]])
    """
    P = np.ascontiguousarray(np.asarray(positions, dtype=np.int64).reshape(-1, game.dims))
    if game.parts > 1:
        raise ValueError(f"{game!r} is a sum of heaps (a move splits a heap): the network learners "
                         f"need games whose moves lead to single positions")
    if P.shape[0] == 0:
        return np.zeros(0, dtype=np.int64), np.zeros((0, game.dims), dtype=np.int64)
    counts, out = game.option_block(P)
    return counts, out[np.arange(out.shape[1])[None, :] < counts[:, None]]
