"""The trial monoid of the construction's growth step: a product of cyclic monoids, its P-portion and reduction.

A trial is the product of cyclic monoids ``g^(a+2) = g^a``, one per generator; an element is a code
``sum(e_i * stride_i)`` of exponents ``e_i < a_i + 2`` (``stride``: the running product of the radices).  Its
P-portion is marked from the generators' options (an element with a move is P when none of its moves is P; an
element with none is not, in misère play), and the trial is reduced (indistinguishable elements merged).

Nothing here holds a move graph or one array of exponents per generator: the marking pass (numba) computes each
element's moves from its exponents as it goes, and the reduction's actions (multiplication by each generator)
are int32, so a trial of 8 million elements over a dozen generators needs a few hundred megabytes, not the
gigabytes a materialised graph takes.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from discover.quotients.monoid import BipartiteMonoid, refine

__all__ = ["CyclicProduct"]


@nb.njit(cache=True, nogil=True)
def _mark_p(size, index, radix, stride, optptr, optexp):
    """P-portion of the trial (-1 in ``bad`` when a move does not lead to a smaller code)."""
    k = radix.size
    p = np.zeros(size, dtype=np.bool_)
    d = np.empty(k, dtype=np.int64)
    bad = 0
    for x in range(size):
        r = x
        for i in range(k):
            d[i] = r % radix[i]
            r //= radix[i]
        moved = False
        found = False
        for j in range(k):
            if d[j] == 0:
                continue
            for m in range(optptr[j], optptr[j + 1]):
                y = 0
                for i in range(k):
                    v = d[i] + optexp[m, i]
                    if i == j:
                        v -= 1
                    if v >= radix[i]:
                        v = index[i] + (v - index[i]) % 2
                    y += v * stride[i]
                if y >= x:
                    bad = -1
                moved = True
                if p[y]:
                    found = True
                    break
            if found:
                break
        p[x] = moved and not found
    return p, bad


@nb.njit(cache=True, nogil=True)
def _unit_action(size, j, index, radix, stride):
    """Each element times generator ``j``, as int32 codes."""
    out = np.empty(size, dtype=np.int32)
    r, s, a = radix[j], stride[j], index[j]
    for x in range(size):
        e = (x // s) % r
        f = e + 1
        if f >= r:
            f = a + (f - a) % 2
        out[x] = x + (f - e) * s
    return out


class CyclicProduct:
    """The product of cyclic monoids ``g^(a+2) = g^a`` over generators with indices ``index``.

    Examples
    --------
    >>> t = CyclicProduct([0])                   # one generator, g^2 = 1: the two-element group
    >>> t.size, t.code([1]), t.code([2]), t.times(np.array([0, 1]), 1).tolist()
    (2, 1, 0, [1, 0])
    """

    def __init__(self, index, max_size: int | None = None):
        self.index = np.asarray(index, dtype=np.int64)
        self.radix = self.index + 2
        self.stride = np.concatenate([[1], np.cumprod(self.radix)[:-1]]).astype(np.int64)
        self.size = int(np.prod(self.radix.astype(object)))
        if max_size is not None and self.size > max_size:
            raise ValueError(f"a trial monoid of {self.size:,} elements (limit {max_size:,})")

    def exponents(self, code: int) -> np.ndarray:
        """The exponent of each generator in the element ``code``."""
        return (int(code) // self.stride) % self.radix

    def code(self, exponents) -> int:
        """The element with these exponents (any size: reduced by the relations)."""
        e = np.asarray(exponents, dtype=np.int64)
        e = np.where(e >= self.radix, self.index + (e - self.index) % 2, e)
        return int(e @ self.stride)

    def times(self, codes: np.ndarray, other: int) -> np.ndarray:
        """Each of ``codes`` times the element ``other``."""
        out = np.array(codes, dtype=np.int64, copy=True)
        e = self.exponents(other)
        for j in np.flatnonzero(e):
            r = int(self.radix[j])
            moved = np.arange(r) + e[j]
            table = np.where(moved >= r, self.index[j] + (moved - self.index[j]) % 2, moved) - np.arange(r)
            out += int(self.stride[j]) * table[(out // int(self.stride[j])) % r]
        return out

    def p_portion(self, options) -> np.ndarray:
        """The P-portion marked from ``options[j]``: the codes generator j's options have.

        Raises
        ------
        RuntimeError
            If a move leads to a code not below its start (an option names a later component).

        Examples
        --------
        >>> CyclicProduct([0]).p_portion([[0]]).tolist()   # misère Nim heap of 1: g is P, the identity is not
        [False, True]
        """
        optptr = np.zeros(len(options) + 1, dtype=np.int64)
        optptr[1:] = np.cumsum([len(o) for o in options])
        optexp = np.zeros((int(optptr[-1]), self.radix.size), dtype=np.int64)
        row = 0
        for o in options:
            for t in o:
                optexp[row] = self.exponents(t)
                row += 1
        p, bad = _mark_p(self.size, self.index, self.radix, self.stride, optptr, optexp)
        if bad:
            raise RuntimeError("a trial monoid's moves are not ordered: a component's option names a later one")
        return p

    def reduced(self, p_portion: np.ndarray, max_order: int | None = None, deadline=None):
        """``(monoid, labels, first)``: the reduced bipartite monoid, each code's element in it, and the first code
        of each element; a ``ValueError`` before its table is built when it has more than ``max_order`` elements
        (``deadline``: checked by the refinement)."""
        actions = [_unit_action(self.size, j, self.index, self.radix, self.stride) for j in range(self.radix.size)]
        labels = refine(p_portion, actions, deadline)
        del actions
        k = int(labels.max()) + 1
        if max_order is not None and k > max_order:
            raise ValueError(f"the quotient reduces to {k:,} elements, more than the {max_order:,} it may hold (its "
                             f"table would take {8 * k * k / 2**30:,.1f} GiB)")
        first = np.full(k, -1, dtype=np.int64)
        first[labels[::-1]] = np.arange(self.size, dtype=np.int64)[::-1]
        table = np.stack([labels[self.times(first, int(r))] for r in first])
        return BipartiteMonoid(table, p_portion[first]), labels, first
