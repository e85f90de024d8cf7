"""The trial monoid of the construction's growth step: a known monoid times cyclic monoids, marked and reduced.

A trial is ``B × C_1 × ... × C_k``: B a finite commutative monoid given by its table (the part of the quotient so
far that the components kept in place generate), each C_i the cyclic monoid ``g^(a+2) = g^a`` of a component set
free (a new generator; every element of a misère quotient satisfies such a relation, Plambeck and Siegel).  An
element is the code ``b + |B| * sum(e_i * stride_i)`` of its part in B and its exponents ``e_i < a_i + 2``.

The P-portion is marked as MisereSolver marks it: the sums of components are enumerated in colex order (the
largest component's count first), each element is decided by the first sum that reaches it (P when that sum has
a move and none of its options' elements is P), and an extension stops as soon as it reaches an element decided
already (a later sum of that element is never the first).  Options precede their sum in that order, so every
option's element is decided first.  Then the trial is reduced (indistinguishable elements merged).  This is one
guess; ``proof.explore`` decides whether it is the quotient.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from cgbase.memory import check_memory
from discover.quotients.monoid import BipartiteMonoid, refine
from discover.quotients.tables import table_from_actions

__all__ = ["Trial", "MAX_TRIAL_BYTES"]

MAX_TRIAL_BYTES = 2 << 30  # memory a trial's marking and reduction may take before it is refused


@nb.njit(cache=True, nogil=True, inline="always")
def _mul(x, y, base, m, index, radix, stride):
    """The product of two codes."""
    cx, cy = x // m, y // m
    code = base[x % m, y % m]
    for i in range(radix.size):
        v = (cx // stride[i]) % radix[i] + (cy // stride[i]) % radix[i]
        if v >= radix[i]:
            v = index[i] + (v - index[i]) % 2
        code += m * v * stride[i]
    return code


@nb.njit(cache=True, nogil=True)
def _times(size, y, base, m, index, radix, stride):
    """Each code times ``y``, as int32 codes."""
    out = np.empty(size, dtype=np.int32)
    for x in range(size):
        out[x] = _mul(x, y, base, m, index, radix, stride)
    return out


@nb.njit(cache=True, nogil=True)
def _mark(size, elem, optptr, opts, base, m, index, radix, stride):
    """P-portion by first sums in colex order (see the module's docstring).  Level j holds the sum of the components
    j, j + 1, ... fixed so far: its element ``x[j]`` and its transition set ``buf[start[j]:end[j]]``."""
    n = elem.size
    p = np.zeros(size, dtype=np.bool_)
    marked = np.zeros(size, dtype=np.bool_)
    stamp = np.zeros(size, dtype=np.int64)
    x = np.zeros(n + 1, dtype=np.int64)
    start = np.zeros(n + 1, dtype=np.int64)
    end = np.zeros(n + 1, dtype=np.int64)
    buf = np.empty(1024, dtype=np.int64)
    tick = 0
    j = n - 1
    entering = True
    while j < n:
        if entering:  # component j's count starts at 0: copy level j + 1 down
            x[j] = x[j + 1]
            start[j] = end[j + 1]
            need = start[j] + end[j + 1] - start[j + 1]
            if need > buf.size:
                grown = np.empty(2 * need, dtype=np.int64)
                grown[:buf.size] = buf
                buf = grown
            buf[start[j]:need] = buf[start[j + 1]:end[j + 1]]
            end[j] = need
            if j > 0:
                j -= 1
                continue
        else:  # one more of component j, unless its sum's element was reached before
            if optptr[j + 1] == optptr[j]:
                j += 1
                continue
            y = _mul(x[j], elem[j], base, m, index, radix, stride)
            if marked[y]:
                j += 1
                continue
            tick += 1
            need = end[j] + end[j] - start[j] + optptr[j + 1] - optptr[j]
            if need > buf.size:
                grown = np.empty(2 * need, dtype=np.int64)
                grown[:buf.size] = buf
                buf = grown
            top = end[j]
            for q in range(start[j], end[j]):
                t = _mul(buf[q], elem[j], base, m, index, radix, stride)
                if stamp[t] != tick:
                    stamp[t] = tick
                    buf[top] = t
                    top += 1
            for q in range(optptr[j], optptr[j + 1]):
                t = _mul(x[j], opts[q], base, m, index, radix, stride)
                if stamp[t] != tick:
                    stamp[t] = tick
                    buf[top] = t
                    top += 1
            buf[start[j]:start[j] + top - end[j]] = buf[end[j]:top]
            end[j] = start[j] + top - end[j]
            x[j] = y
            if j > 0:
                j -= 1
                entering = True
                continue
        # a new first sum at level 0: decide its element
        z = x[0]
        moved = end[0] > start[0]
        found = False
        for q in range(start[0], end[0]):
            if p[buf[q]]:
                found = True
                break
        marked[z] = True
        p[z] = moved and not found
        entering = False
    return p


class Trial:
    """``B × C_1 × ... × C_k``: ``base`` a commutative monoid's table, ``index[i]`` the relation ``g^(a+2) = g^a`` of
    each cyclic factor.

    Examples
    --------
    >>> t = Trial(np.zeros((1, 1), dtype=np.int64), [0])   # one generator, g^2 = 1: the two-element group
    >>> t.size, t.free(0), t.product([1, 1]), t.product([1, 1, 1])
    (2, 1, 0, 1)
    """

    def __init__(self, base: np.ndarray, index, max_size: int | None = None):
        self.base = np.ascontiguousarray(base, dtype=np.int32)
        self.m = int(self.base.shape[0])
        self.index = np.asarray(index, dtype=np.int64).reshape(-1)
        self.radix = self.index + 2
        self.stride = np.concatenate([[1], np.cumprod(self.radix)[:-1]]).astype(np.int64)
        self.size = self.m * int(np.prod(self.radix.astype(object)))
        if max_size is not None and self.size > max_size:
            raise ValueError(f"a trial monoid of {self.size:,} elements (limit {max_size:,})")

    def estimated_bytes(self, generators: int) -> int:
        """Memory the marking and reduction take: per element, the marks, an int32 action per generator, labels
        and the refinement's hash table."""
        return self.size * (4 * generators + 64)

    def _args(self):
        return self.base, self.m, self.index, self.radix, self.stride

    def free(self, i: int) -> int:
        """The code of cyclic factor ``i``'s generator."""
        return self.m * int(self.stride[i])

    def product(self, codes) -> int:
        """The product of ``codes`` (the identity for none)."""
        codes = iter(codes)
        x = int(next(codes, 0))
        for y in codes:
            x = int(_mul(x, int(y), *self._args()))
        return x

    def p_portion(self, elements, options) -> np.ndarray:
        """The P-portion marked from the components' codes ``elements`` (in an order in which options come first)
        and ``options[j]``: the codes of component j's options.

        Examples
        --------
        >>> Trial(np.zeros((1, 1), dtype=np.int64), [0]).p_portion([1], [[0]]).tolist()   # misère Nim heap of 1
        [False, True]
        """
        optptr = np.zeros(len(options) + 1, dtype=np.int64)
        optptr[1:] = np.cumsum([len(o) for o in options])
        opts = np.array([t for o in options for t in o], dtype=np.int64)
        return _mark(self.size, np.asarray(elements, dtype=np.int64), optptr, opts, *self._args())

    def reduced(self, p_portion: np.ndarray, generators, max_order: int | None = None, deadline=None):
        """``(monoid, labels)``: the reduced bipartite monoid (``generators``: codes that generate the trial) and
        each code's element in it; a ``ValueError`` before its table is built when it has more than ``max_order``
        elements, an ``OutOfTime`` at a round of the refinement once ``deadline`` (a ``cgbase.deadline.Deadline``)
        has passed."""
        actions = [_times(self.size, int(g), *self._args()) for g in generators]
        labels = refine(p_portion, actions, deadline)
        k = int(labels.max()) + 1
        if max_order is not None and k > max_order:
            raise ValueError(f"the quotient reduces to {k:,} elements, more than the {max_order:,} a rule record "
                             f"holds (its table would take {4 * k * k / 2**20:,.0f} MB)")
        check_memory(4 * k * k, f"the table of a trial's quotient of {k:,} elements", "use fewer components")
        first = np.full(k, -1, dtype=np.int64)
        first[labels[::-1]] = np.arange(self.size, dtype=np.int64)[::-1]
        moves = [labels[a[first]] for a in actions]  # each generator's action on the classes
        del actions
        return BipartiteMonoid(table_from_actions(np.stack(moves)), p_portion[first]), labels
