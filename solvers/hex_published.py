"""The published winning first moves of Hex on n x n boards (n <= 8), to compare our solvers with.

Cells are ``(row, column)`` of our board (``games.hex``: the first player joins top and bottom,
cell (0, 0) is an acute corner).  Source: the list of first moves to swap in Benzene (the Hex
programs of the University of Alberta, file ``share/swap-moves.txt``: the openings that win for
the first player), whose cell ``xN`` is our ``(row = letter index, column = N - 1)``; that reading
agrees with our retrograde and search solvers on every 3 x 3, 4 x 4 and 5 x 5 opening.  The 7 x 7
results are those of Hayward, Björnsson, Johanson, Kan, Po and van Rijswijck, "Solving 7x7 Hex:
virtual connections and game-state reduction" (2003), whose table of proof trees lists the same
winners (its ``a1``-``a7``, ``b1``-``b3``: our column 0 and cells (0, 1), (1, 1), (2, 1)); the 8 x 8
ones Henderson, Arneson and Hayward, "Solving 8x8 Hex" (2009).  Benzene's 7 x 7 list names ``e3``
twice and ``e2`` never: ``e2`` is the 180-degree twin of the listed ``c6``, so it is taken as meant.
"""

from __future__ import annotations

import numpy as np

__all__ = ["PUBLISHED", "published_openings"]

_LISTS = {
    3: "b1 c1 b2 a3 b3",
    4: "d1 c2 b3 a4",
    5: "d1 e1 b2 c2 d2 b3 c3 d3 b4 c4 d4 a5 b5",
    6: "c1 d1 e1 f1 b2 c2 d2 e2 b3 c3 d3 e3 b4 c4 d4 e4 b5 c5 d5 e5 a6 b6 c6 d6",
    7: "d1 f1 g1 c2 d2 e2 f2 b3 c3 d3 e3 f3 c4 d4 e4 b5 c5 d5 e5 f5 b6 c6 d6 e6 a7 b7 d7",
    8: "h1 g2 h2 b3 c3 d3 e3 f3 g3 b4 c4 d4 e4 f4 g4 h4 a5 b5 c5 d5 e5 f5 g5 b6 c6 d6 e6 f6 g6 a7 b7 a8",
}

#: n -> the set of (row, column) cells whose first move wins
PUBLISHED = {n: frozenset(("abcdefgh".index(w[0]), int(w[1:]) - 1) for w in words.split())
             for n, words in _LISTS.items()}


def published_openings(n: int) -> np.ndarray:
    """The published value of each first move on the n x n board: +1 wins, -1 loses (n from 3 to 8).

    Examples
    --------
    >>> published_openings(4).astype(int).tolist()[0]  # the first row: only the obtuse corner wins
    [-1, -1, -1, 1]
    """
    if n not in PUBLISHED:
        raise ValueError(f"published Hex openings are for n in {sorted(PUBLISHED)}, got {n!r}")
    values = -np.ones((n, n))
    for r, c in PUBLISHED[n]:
        values[r, c] = 1
    return values
