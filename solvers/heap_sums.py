"""Exact outcomes of sums of heaps of a one-heap game, in normal or misère play.

A one-heap game (octal, hexadecimal, subtraction, Lasker's Nim, Grundy's game, a declared heap game)
says what a move does to one heap; a *sum* is any number of heaps side by side, a move changes one
of them.  In normal play a sum is decided by its heaps' Grundy values (xor); in misère play it is not,
so ``HeapSums`` searches the sums themselves: every sum reachable from the ones asked (a multiset of
heap sizes, written largest first, empty heaps dropped) becomes a position of one move graph in
compressed sparse rows, solved by the retrograde pass of ``solvers.retrograde`` (every move removes
tokens or, removing none, splits a heap, so ordering sums by tokens and then by fewer heaps puts every
option first).  Positions found once are kept: later questions only add the sums they need.

Examples
--------
>>> from games import make_game
>>> kayles = HeapSums(make_game("octal", code="0.77", misere=True))
>>> kayles.outcome([(1,), (1, 1), (2, 2), (4, 1)]).tolist()
[-1, 1, -1, 1]
"""

from __future__ import annotations

import numpy as np

from games import Game
from solvers.retrograde import outcome_descending

__all__ = ["HeapSums", "canonical_sum"]

MAX_SUMS = 5_000_000  # sums held at once (a few hundred bytes each as Python tuples)


def canonical_sum(heaps) -> tuple[int, ...]:
    """A sum of heaps as the solver keys it: sizes largest first, empty heaps dropped.

    Examples
    --------
    >>> canonical_sum([0, 3, 5, 3])
    (5, 3, 3)
    """
    return tuple(sorted((int(h) for h in heaps if int(h) != 0), reverse=True))


class HeapSums:
    """Outcomes of sums of heaps of ``game`` (a one-heap game), grown on demand.

    Parameters
    ----------
    game : Game
        A game with one coordinate whose ``moves((n,))`` lists the heaps an option leaves.
    max_sums : int
        Refuse (``ValueError``) a question that would hold more sums than this.

    Examples
    --------
    >>> from games import make_game
    >>> HeapSums(make_game("subtraction", subtract=(1, 2), misere=True)).outcome([(1,), (3,), (4,)]).tolist()
    [-1, 1, -1]
    """

    def __init__(self, game: Game, max_sums: int = MAX_SUMS):
        if not isinstance(game, Game) or game.dims != 1 or not game.impartial:
            raise ValueError(f"sums of heaps need an impartial one-heap game, got {game!r}")
        self.game = game
        self.max_sums = max_sums
        self._heap_options: dict[int, list[tuple[int, ...]]] = {}
        self._ids: dict[tuple[int, ...], int] = {}
        self._indptr: list[int] = [0]
        self._targets: list[int] = []
        self._outcome = np.zeros(0, dtype=np.int8)

    def heap_options(self, n: int) -> list[tuple[int, ...]]:
        """The options of one heap of ``n`` tokens, each a canonical sum (``()``: nothing left)."""
        found = self._heap_options.get(n)
        if found is None:
            found = sorted({canonical_sum(o) for o in self.game.moves((n,))}) if n > 0 else []
            self._heap_options[n] = found
        return found

    def options(self, position) -> list[tuple[int, ...]]:
        """The sums one move from ``position`` (a canonical sum): one heap replaced by one of its options.

        Examples
        --------
        >>> from games import make_game
        >>> HeapSums(make_game("octal", code="0.07", misere=True)).options((4, 2))
        [(2, 1, 1), (2, 2), (4,)]
        """
        found, seen = [], set()
        for i, h in enumerate(position):
            if h in seen:
                continue
            seen.add(h)
            rest = position[:i] + position[i + 1:]
            # rest and o are canonical already: sorting their concatenation is the canonical sum (no int() pass)
            found.extend(tuple(sorted(rest + o, reverse=True)) if o else rest for o in self.heap_options(h))
        return found

    def _add(self, starts) -> None:
        new, stack = set(), [s for s in starts if s not in self._ids]
        while stack:
            position = stack.pop()
            if position in new or position in self._ids:
                continue
            new.add(position)
            if len(new) + len(self._ids) > self.max_sums:
                raise ValueError(f"the sums reachable from these exceed {self.max_sums:,} positions: ask about "
                                 "fewer or smaller heaps")
            stack.extend(o for o in self.options(position) if o not in self._ids and o not in new)
        if not new:
            return
        for position in sorted(new, key=lambda p: (sum(p), -len(p), p)):
            self._ids[position] = len(self._ids)
            self._targets.extend(self._ids[o] for o in self.options(position))
            self._indptr.append(len(self._targets))
        indptr, targets = np.array(self._indptr, dtype=np.int64), np.array(self._targets, dtype=np.int64)
        self._outcome = outcome_descending(indptr, targets, self.game.terminal_outcome())

    def outcome(self, sums) -> np.ndarray:
        """Outcome for the player to move of each sum (an iterable of heap sizes each): 1 win, -1 loss.

        Raises
        ------
        ValueError
            If a heap size is negative or the sums reachable exceed ``max_sums``.
        """
        keys = []
        for s in sums:
            heaps = [int(h) for h in s]
            if any(h < 0 for h in heaps):
                raise ValueError(f"heap sizes must be integers >= 0, got {tuple(heaps)}")
            keys.append(canonical_sum(heaps))
        self._add(keys)
        return self._outcome[[self._ids[k] for k in keys]].astype(np.int8)

    @property
    def size(self) -> int:
        """Sums solved so far."""
        return len(self._ids)
