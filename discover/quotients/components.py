"""What a quotient is computed from: components and their options (and, to check it, outcomes of sums).

A *component* is anything hashable with an id (a heap size, a canonical board).  The construction
(``discover.quotients.construct``) reads only the components' options; the plain construction and the checks
(``discover.quotients.plain``, ``discover.quotients.check``) read outcomes of sums from a solver.  A set of
components is given by an object with:

``ids()``
    The components, in an order in which every option of a component is a sum of earlier components (heaps by
    size; boards by marks, most first).  The set must be *hereditarily closed*: every component an option
    names is itself one of the ids.
``options(c)``
    The sums one move from component ``c``: a list of tuples of component ids (``()``: the empty sum).
``outcome(sums)``
    For each sum (a tuple of ids) the outcome for the player to move, 1 win or -1 loss, from an exact solver
    (only the plain construction and the checks call it).
``label(c)``
    The component in words ("heap 5").

``HeapComponents`` is this for the heaps of a one-heap game; ``discover.quotients.boards.NotaktoBoards`` for the
live boards of Notakto.
"""

from __future__ import annotations

import numpy as np

from games import Game
from solvers.heap_sums import HeapSums

__all__ = ["HeapComponents", "MAX_HEAPS"]

#: heaps a quotient may be built over: each is added by its own step (its options: O(n) sums of earlier heaps), so
#: a million is beyond any budget; a larger count is refused before its list is made
MAX_HEAPS = 1_000_000


class HeapComponents:
    """The heaps 1 .. ``heaps`` of a one-heap game as components; the empty heap is the empty sum.

    Examples
    --------
    >>> from games import make_game
    >>> kayles = HeapComponents(make_game("octal", code="0.77", misere=True), heaps=3)
    >>> kayles.ids(), kayles.options(3)
    ([1, 2, 3], [(1,), (1, 1), (2,)])
    >>> kayles.outcome([(1,), (2, 2)]).tolist()
    [-1, -1]
    """

    def __init__(self, game: Game, heaps: int, solver: HeapSums | None = None):
        if not isinstance(heaps, int) or isinstance(heaps, bool) or heaps < 1:
            raise ValueError(f"heaps must be a positive integer, got {heaps!r}")
        if heaps > MAX_HEAPS:
            raise ValueError(f"heaps={heaps:,} is more than the {MAX_HEAPS:,} heaps a quotient is built over (one "
                             f"step each; the list of heaps alone would take {heaps * 36 / 2**30:,.1f} GiB): give "
                             "fewer heaps")
        self.game = game
        self.heaps = heaps
        self.solver = solver if solver is not None else HeapSums(game)

    def ids(self) -> list[int]:
        """Heap sizes 1 .. heaps."""
        return list(range(1, self.heaps + 1))

    def options(self, c: int) -> list[tuple[int, ...]]:
        """The sums one move from a heap of ``c``: the heaps each option leaves."""
        return self.solver.heap_options(int(c))

    def outcome(self, sums) -> np.ndarray:
        """Outcome of each sum of heaps, from ``solvers.heap_sums``."""
        return self.solver.outcome(sums)

    @staticmethod
    def label(c) -> str:
        """``"heap 5"``."""
        return f"heap {c}"
