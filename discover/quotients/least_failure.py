"""The colex-least sum a pretension gets wrong, found as Siegel's MisereSolver finds it.

A sum of components is a word, a count for each component, and words are ordered colex: the one with more of
the last component added is larger, ties broken by the component before, and so on (the order in which
``trial._mark`` decides each element by its first sum).  A trial is then right on every sum below its least
failure; MisereSolver recalibrates on that sum, and its successive least failures grow (Plambeck and Siegel,
"Misère quotients for impartial games"; MisereSolver's ``lexLeastPFailure`` and ``lexLeastNFailure``).
``proof.explore``'s witness is the first failure of a breadth-first walk instead: right to refute a trial, not the
one to recalibrate on.

- *P-side*: a P-marked sum u + c with a P-marked option u + s (s an option of c): it depends on u's element x only,
  so the least is ``first(x) + c``, with ``first(x)`` the colex-first word of x.
- *N-side*: the words in colex order, depth first, stopping at the first sum off P with a move and no P-marked
  option, or on P with no move (or at the P-side's failure, when that comes first).  A word whose state (x, T)
  has a state seen before with the same x and T' ⊆ T is not extended: its extensions are dominated by those of a
  smaller word, which fail first if they fail at all (``proof``'s domination).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from cgbase.deadline import Deadline
from discover.quotients.monoid import BipartiteMonoid
from discover.quotients.proof import CAPACITY, PAUSE, Exploration, _admit, _bitset, _step, step_arrays

__all__ = ["least_failure"]

_DONE, _FAILED, _PAUSED, _FULL = 0, 1, 2, 3


@nb.njit(cache=True, nogil=True)
def _first_words(table, elem):
    """Each element's colex-first word (a count per step; -1 in column 0 for an element no word reaches)."""
    n = elem.size
    words = np.full((table.shape[0], max(n, 1)), -1, dtype=np.int64)
    heaps = np.zeros(n, dtype=np.int64)
    el = np.zeros(n + 1, dtype=np.int64)
    depth = -1
    while depth < n:
        if depth == -1:
            for k in range(n):
                words[el[0], k] = heaps[k]
            if n == 0:
                words[0, 0] = 0
                break
            depth += 1
            continue
        heaps[depth] += 1
        if heaps[depth] > 0:
            el[depth] = table[el[depth], elem[depth]]
        if words[el[depth], 0] < 0:
            depth -= 1
            if depth >= 0:
                el[depth] = el[depth + 1]
        else:
            heaps[depth] = -1
            depth += 1
    return words


@nb.njit(cache=True, nogil=True, inline="always")
def _below(a, b, depth):
    """Whether word ``a`` (its counts below ``depth`` taken as 0) is colex-smaller than word ``b``."""
    for k in range(a.size - 1, depth - 1, -1):
        if a[k] != b[k]:
            return a[k] < b[k]
    for k in range(depth - 1, -1, -1):
        if b[k] > 0:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def _p_failure(table, p, elem, tptr, tflat, words):
    """The least P-side failure as a word (empty when there is none)."""
    n = elem.size
    best = np.empty(0, dtype=np.int64)
    word = np.zeros(n, dtype=np.int64)
    for x in range(table.shape[0]):
        if words[x, 0] < 0:
            continue
        for k in range(n):
            if not p[table[x, elem[k]]]:
                continue
            for q in range(tptr[k], tptr[k + 1]):
                if p[table[x, tflat[q]]]:
                    word[:] = words[x]
                    word[k] += 1
                    if best.size == 0 or _below(word, best, 0):
                        best = word.copy()
                    break
    return best


@nb.njit(cache=True, nogil=True)
def _n_failure(table, p, pbits, elem, tptr, tflat, bound, heaps, el, tr, depth, xs, bits, alive, nxt, head, count,
               pause):
    """The words in colex order from where the last call stopped (``heaps``, ``el``, ``tr``, ``depth``), until a
    failure (left in ``heaps``), a word not below ``bound`` (when given), ``pause`` words, or full arrays.
    Returns (how it ended, depth, states kept)."""
    n = elem.size
    out = np.zeros(pbits.size, dtype=np.uint64)
    visited = 0
    while depth < n:
        visited += 1
        if visited > pause:
            return _PAUSED, depth, count
        if count >= xs.size:
            return _FULL, depth, count
        if depth == -1:
            moved, hit = False, False
            for w in range(pbits.size):
                if tr[0, w]:
                    moved = True
                if tr[0, w] & pbits[w]:
                    hit = True
            if p[el[0]] if not moved else not p[el[0]] and not hit:  # a terminal sum on P, or N-side
                return _FAILED, depth, count
            depth += 1
            continue
        heaps[depth] += 1
        if heaps[depth] > 0:
            if bound.size and not _below(heaps, bound, depth):
                return _DONE, depth, count
            y, empty = _step(el[depth], tr[depth], elem[depth], table, tptr, tflat, depth, out)
            tr[depth] = out
            el[depth] = y
            if not _admit(y, out, empty, xs, bits, alive, nxt, head, count):
                heaps[depth] = -1
                depth += 1
                continue
            count += 1
        depth -= 1
        if depth >= 0:
            el[depth] = el[depth + 1]
            tr[depth] = tr[depth + 1]
    return _DONE, depth, count


def least_failure(monoid: BipartiteMonoid, element: dict, transitions: dict, ids, limit: int = 2_000_000,
                  deadline: Deadline | None = None) -> tuple | None:
    """The colex-least sum of the components ``ids`` (in the order added) whose outcome the pretension gets wrong,
    as a tuple of components; None when it gets every sum right.

    Parameters
    ----------
    monoid, element, transitions, ids
        As ``proof.explore``'s.
    limit : int
        Refuse (``ValueError``) a search that keeps more than this many states.
    deadline : cgbase.deadline.Deadline, optional
        Looked at every ``proof.PAUSE`` words (``OutOfTime``, a ``ValueError``, once passed).

    Examples
    --------
    >>> t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))
    >>> least_failure(t2, {1: 1}, {1: frozenset({0})}, [1]) is None      # misère Nim heaps of size 1: right
    True
    >>> least_failure(t2, {1: 1, 2: 1}, {1: frozenset({0}), 2: frozenset({0, 1})}, [1, 2])  # heap 2 taken for 1
    (2,)
    """
    p = np.ascontiguousarray(monoid.p_portion, dtype=np.bool_)
    if p[0]:  # the empty sum, with no move, marked P
        return ()
    ids, deadline = list(ids), Deadline.of(deadline)
    table = monoid.table  # int32, contiguous
    _, first, elem, _, tptr, tflat = step_arrays(element, transitions, ids)
    bound = _p_failure(table, p, elem, tptr, tflat, _first_words(table, elem))
    seen = Exploration(monoid.order, CAPACITY)
    n, width = elem.size, seen.width
    heaps, el, tr = np.zeros(n, dtype=np.int64), np.zeros(n + 1, dtype=np.int64), np.zeros((n + 1, width), np.uint64)
    depth, pbits = -1, _bitset(np.flatnonzero(p), width)
    while True:
        status, depth, seen.count = _n_failure(table, p, pbits, elem, tptr, tflat, bound, heaps, el, tr, depth,
                                               seen.xs, seen.bits, seen.alive, seen.next, seen.head, seen.count,
                                               PAUSE)
        if status == _FAILED:
            return _word(np.maximum(heaps, 0), first, ids)
        if status == _DONE:
            return _word(bound, first, ids) if bound.size else None
        if status == _FULL:
            seen.grow(limit)
        deadline.check(f"the least failure of a trial of order {monoid.order:,} ({seen.count:,} states)")


def _word(counts: np.ndarray, first: list, ids: list) -> tuple:
    """The sum a word of step counts stands for: each step's first component, as often as its count."""
    return tuple(ids[first[k]] for k in range(len(first)) for _ in range(int(counts[k])))
