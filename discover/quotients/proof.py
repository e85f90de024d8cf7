"""The proof that a candidate quotient is the misère quotient of a set of components.

A *pretension* (the word of Siegel's MisereSolver) is a bipartite monoid ``(Q, P)`` with an element for every
component.  A sum X of components then has an element x (the product) and a *transition set* T: the elements
of its options (one component replaced by one of its options).  T depends only on the sum's parts, and
adding one more component c to a sum maps (x, T) to ::

    (x c,  {t c : t in T}  ∪  {x s : s in T(c)})

so the pairs (x, T) of all sums are the states reachable from (1, {}) by these steps, finitely many.  If every
reachable state is *consistent* (T empty and x not in P: a sum with no move is won by the player to move in
misère play; or T not empty and x in P exactly when no element of T is), then by induction on sums a sum is a
P-position exactly when its element lies in P.  If moreover Q is reduced and every element is the element of
some sum, Q is the misère quotient (Plambeck and Siegel, "Misère quotients for impartial games": the quotient is
the reduced bipartite monoid through which the outcome of every sum factors).

Consistency splits in two halves, checked apart as MisereSolver does:

- *P-side*: no P-marked sum has a P-marked option.  An option of a sum X replaces one component c by an option of
  c, so its element is y s (y the element of the rest of X, s in T(c)): it suffices that for every element y of
  a sum and every component c, y e(c) in P implies y s not in P for each s in T(c).
- *N-side*: every sum off P with a move has a P-marked option.  A state (x, T') with T' ⊆ T (T' not empty)
  *dominates* (x, T): if (x, T') has a P-marked option so does (x, T), and the step is monotone in T, so every
  state reached from a dominated one is dominated by one reached from its dominator.  ``explore`` keeps, for
  each element, only the minimal transition sets seen (MisereSolver's transition-set lower bounds) and visits
  breadth first from those: a small fraction of the states.

Components with the same element and transition set take the same step, so the walk takes each step once
(thousands of Notakto boards share a few dozen).  The states live in numpy arrays (transition sets as bitsets)
and the walk is a numba kernel; it stops when its
arrays are full, and goes on once they are doubled (the limit on states is checked before each doubling).
Nothing here uses outcomes computed by a solver, only the components' options.
"""

from __future__ import annotations


import numba as nb
import numpy as np

from cgbase.deadline import Deadline
from discover.quotients.monoid import BipartiteMonoid

__all__ = ["Exploration", "explore", "dominated", "step_arrays"]

CAPACITY = 1024  # states an exploration's arrays hold at first (doubled when full)
PAUSE = 1 << 16  # states a walk keeps between two looks at the deadline
_GOOD, _BAD, _FULL = 0, 1, 2  # how a walk ended: every state consistent, a state inconsistent, the arrays full


class Exploration:
    """The states (x, T) kept so far (for each element x, the minimal transition sets seen, linked from
    ``head[x]``), each with the state and component that first reached it.

    Parameters
    ----------
    order : int
        The monoid's order (the width of the bitsets).
    """

    def __init__(self, order: int, capacity: int | None = None):
        capacity = CAPACITY if capacity is None else capacity
        self.width = (order + 63) // 64
        self.xs = np.zeros(capacity, dtype=np.int64)
        self.bits = np.zeros((capacity, self.width), dtype=np.uint64)
        self.parent = np.full(capacity, -1, dtype=np.int64)
        self.via = np.full(capacity, -1, dtype=np.int64)
        self.alive = np.zeros(capacity, dtype=np.bool_)
        self.next = np.full(capacity, -1, dtype=np.int64)
        self.head = np.full(order, -1, dtype=np.int64)
        self.alive[0], self.head[0], self.count = True, 0, 1  # state 0: the empty sum, (1, {})

    def __len__(self) -> int:
        return self.count

    def copy(self) -> "Exploration":
        """A copy whose walks leave this one as it is."""
        other = Exploration.__new__(Exploration)
        other.width, other.count = self.width, self.count
        for name in ("xs", "bits", "parent", "via", "alive", "next", "head"):
            setattr(other, name, getattr(self, name).copy())
        return other

    def grow(self, limit: int) -> None:
        """Double the arrays (``ValueError`` once past ``limit`` states)."""
        if self.count > limit:
            raise ValueError(f"proving the quotient visits more than {limit:,} states: use fewer components")
        n = 2 * self.xs.size
        for name, fill in (("xs", 0), ("parent", -1), ("via", -1), ("alive", False), ("next", -1)):
            old = getattr(self, name)
            new = np.full(n, fill, dtype=old.dtype)
            new[:old.size] = old
            setattr(self, name, new)
        bits = np.zeros((n, self.width), dtype=np.uint64)
        bits[:self.bits.shape[0]] = self.bits
        self.bits = bits

    def arrays(self):
        return self.xs, self.bits, self.parent, self.via, self.alive, self.next, self.head

    def witness(self, i: int, ids) -> tuple:
        """The sum (components of ``ids``, in the order added) that first reached state ``i``."""
        word = []
        while self.parent[i] >= 0:
            word.append(ids[int(self.via[i])])
            i = int(self.parent[i])
        return tuple(reversed(word))

    def firsts(self) -> tuple[np.ndarray, np.ndarray]:
        """The elements reached and, for each, the first state kept with it."""
        first = _firsts(self.head, self.next, self.alive)
        xs = np.flatnonzero(first >= 0)
        return xs, first[xs]


@nb.njit(cache=True, nogil=True)
def _firsts(head, nxt, alive):
    first = np.full(head.size, -1, dtype=np.int64)
    for x in range(head.size):
        j = head[x]
        while j != -1:
            if alive[j]:
                first[x] = j  # the lists run from the last state kept to the first
            j = nxt[j]
    return first


@nb.njit(cache=True, nogil=True, inline="always")
def _step(x, row, e, table, tptr, tflat, k, out):
    """The state (x, T) plus a component (element e, transition set ``tflat[tptr[k]:tptr[k + 1]]``): its element,
    and its transition set into ``out``; returns (element, whether the set is empty)."""
    out[:] = 0
    for w in range(row.size):
        word = row[w]
        b = 0
        while word:
            if word & np.uint64(1):
                t = table[w * 64 + b, e]
                out[t >> 6] |= np.uint64(1) << np.uint64(t & 63)
            word >>= np.uint64(1)
            b += 1
    for q in range(tptr[k], tptr[k + 1]):
        t = table[x, tflat[q]]
        out[t >> 6] |= np.uint64(1) << np.uint64(t & 63)
    empty = True
    for w in range(out.size):
        if out[w]:
            empty = False
            break
    return table[x, e], empty


@nb.njit(cache=True, nogil=True)
def _admit(y, out, empty, xs, bits, alive, nxt, head, count):
    """Keep state (y, out) as state ``count`` unless a kept state equals or dominates it; drop those it dominates.
    True when kept."""
    j = head[y]
    while j != -1:
        if alive[j]:
            below, above, other_empty = True, True, True
            for w in range(out.size):
                a, b = bits[j, w], out[w]
                if a & ~b:
                    below = False
                if b & ~a:
                    above = False
                if a:
                    other_empty = False
            if below and (empty or not other_empty):  # j's set lies inside: equal, or a non-empty one dominates
                return False
            if above and not empty and not other_empty:
                alive[j] = False
        j = nxt[j]
    xs[count] = y
    bits[count] = out
    alive[count] = True
    nxt[count] = head[y]
    head[y] = count
    return True


@nb.njit(cache=True, nogil=True, inline="always")
def _consistent(y, out, empty, p, pbits):
    if empty:
        return not p[y]
    hit = False
    for w in range(out.size):
        if out[w] & pbits[w]:
            hit = True
            break
    return p[y] == (not hit)


@nb.njit(cache=True, nogil=True)
def _walk(chain, start, resume, stop, cap, table, p, pbits, elem, tptr, tflat, rep, xs, bits, parent, via, alive,
          nxt, head, count):
    """Breadth first from state ``start`` (``chain`` < 0: every step from every state), or the chains of step
    ``chain`` from the states ``start .. stop - 1`` (the first from state ``resume`` when >= 0).  Step k adds a
    component of element ``elem[k]``, transition set ``tflat[tptr[k]:tptr[k + 1]]``, recorded as the component
    ``rep[k]``.  It stops as full at ``cap`` states (at most the arrays' size).  Returns (how it ended, states, where
    to go on, the inconsistent state or the chain's state to go on from)."""
    out = np.zeros(bits.shape[1], dtype=np.uint64)
    i = start
    while i < (count if chain < 0 else stop):
        if alive[i]:
            if chain < 0:
                if count + elem.size > cap:
                    return _FULL, count, i, -1
                for k in range(elem.size):
                    y, empty = _step(xs[i], bits[i], elem[k], table, tptr, tflat, k, out)
                    if _admit(y, out, empty, xs, bits, alive, nxt, head, count):
                        parent[count], via[count] = i, rep[k]
                        count += 1
                        if not _consistent(y, out, empty, p, pbits):
                            return _BAD, count, i, count - 1
            else:
                cur = i if resume < 0 else resume
                resume = -1
                while True:
                    if count >= cap:
                        return _FULL, count, i, cur
                    y, empty = _step(xs[cur], bits[cur], elem[chain], table, tptr, tflat, chain, out)
                    if not _admit(y, out, empty, xs, bits, alive, nxt, head, count):
                        break
                    parent[count], via[count] = cur, rep[chain]
                    count += 1
                    if not _consistent(y, out, empty, p, pbits):
                        return _BAD, count, i, count - 1
                    cur = count - 1
        i += 1
    return _GOOD, count, i, -1


@nb.njit(cache=True, nogil=True)
def _dominates(e, tr, bits, alive, nxt, head):
    """Whether a kept state of element e has a non-empty transition set inside the bitset ``tr``."""
    j = head[e]
    while j != -1:
        if alive[j]:
            inside, nonempty = True, False
            for w in range(tr.size):
                if bits[j, w] & ~tr[w]:
                    inside = False
                    break
                if bits[j, w]:
                    nonempty = True
            if inside and nonempty:
                return True
        j = nxt[j]
    return False


def _bitset(elements, width: int) -> np.ndarray:
    out = np.zeros(width, dtype=np.uint64)
    t = np.fromiter(elements, dtype=np.uint64)
    np.bitwise_or.at(out, (t >> np.uint64(6)).astype(np.int64), np.uint64(1) << (t & np.uint64(63)))
    return out


def _p_side(monoid: BipartiteMonoid, seen: Exploration, steps, elements=None) -> tuple | None:
    """A sum on P with an option on P: ``(state, component index)``, one of ``steps`` (component index, element,
    transition set) added to the first sum kept of an element reached (of ``elements`` only, when given)."""
    ys, first = seen.firsts()
    if elements is not None:
        keep = np.isin(ys, elements)
        ys, first = ys[keep], first[keep]
    p, table = monoid.p_portion, monoid.table
    for k, e, tr in steps:
        if not tr or not ys.size:
            continue
        bad = p[table[ys, e]] & p[table[np.ix_(ys, np.asarray(tr, dtype=np.int64))]].any(axis=1)
        if bad.any():
            return int(first[int(np.argmax(bad))]), k
    return None


def dominated(monoid: BipartiteMonoid, done: Exploration, e: int, tr) -> bool:
    """True when a new component with element ``e`` and transition set ``tr`` is proved without exploring: a kept
    state (e, T') with T' ⊆ ``tr`` is a sum K the component dominates, so every state a sum with the component
    reaches is dominated by one a sum with K reaches (kept already), and the P-side holds for it (MisereSolver's
    fast check of a conservative extension).  ``done``'s states then stand as they are.

    Examples
    --------
    >>> t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))
    >>> heap1 = explore(t2, {1: 1}, {1: frozenset({0})}, [1])[0]
    >>> dominated(t2, heap1, 1, frozenset({0})), dominated(t2, heap1, 1, frozenset({1}))  # another heap 1; {*} as a
    (True, False)
    """
    if not tr or not _dominates(int(e), _bitset(tr, done.width), done.bits, done.alive, done.next, done.head):
        return False
    return _p_side(monoid, done, [(0, int(e), tuple(tr))]) is None


def step_arrays(element: dict, transitions: dict, ids):
    """The distinct steps of the components ``ids``: components with the same element and transition set take the
    same step, named by the first of them.  Returns ``(steps, first, elem, sets, tptr, tflat)``: each key's step
    index, each step's first position in ``ids``, its element, its sorted transition set, and the sets flattened
    (step k's set is ``tflat[tptr[k]:tptr[k + 1]]``)."""
    steps, first = {}, []
    for position, c in enumerate(ids):
        key = (int(element[c]), frozenset(transitions[c]))
        if key not in steps:
            steps[key] = len(first)
            first.append(position)
    elem = np.array([e for e, _ in steps], dtype=np.int64)
    sets = [sorted(int(t) for t in ts) for _, ts in steps]
    tptr = np.zeros(len(sets) + 1, dtype=np.int64)
    tptr[1:] = np.cumsum([len(t) for t in sets])
    tflat = np.array([t for ts in sets for t in ts], dtype=np.int64)
    return steps, first, elem, sets, tptr, tflat


def explore(monoid: BipartiteMonoid, element: dict, transitions: dict, ids, done: Exploration | None = None,
            added=None, limit: int = 2_000_000, deadline: Deadline | None = None):
    """Check every state reachable by adding components ``ids`` (up to domination); return ``(exploration,
    witness)``.

    Parameters
    ----------
    monoid : BipartiteMonoid
    element : dict
        Each component's element.
    transitions : dict
        Each component's transition set (the elements of its options), a frozenset.
    ids : sequence
        The components sums are made of (``done`` was explored with the same ids, less ``added``, in order).
    done : Exploration, optional
        States already proved consistent for ``ids`` less ``added``: only the steps adding ``added`` from them,
        and everything after, are explored (a new component's check, heap by heap).
    added : component id, optional
        The one component new since ``done``.
    limit : int
        Refuse (``ValueError``) an exploration past this many states.
    deadline : cgbase.deadline.Deadline, optional
        The exploration stops when it passes (``OutOfTime``, a ``ValueError``), every ``PAUSE`` states.

    Returns
    -------
    (Exploration, tuple or None)
        The states kept (a copy of ``done`` extended, when given; ``done`` itself when an earlier component has
        ``added``'s element and transition set, so takes the same step), and the sum of a state found inconsistent
        (None when every state is consistent: the pretension is proved).

    Examples
    --------
    >>> t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))
    >>> states, witness = explore(t2, {1: 1}, {1: frozenset({0})}, [1])   # misère Nim heaps of size 1
    >>> witness, len(states)
    (None, 3)
    >>> explore(t2, {1: 0}, {1: frozenset({0})}, [1])[1]   # heap 1 mapped to the identity: refuted by one heap
    (1,)
    """
    ids = list(ids)
    p = np.ascontiguousarray(monoid.p_portion, dtype=np.bool_)
    table = monoid.table  # int32, contiguous
    steps, first, elem, sets, tptr, tflat = step_arrays(element, transitions, ids)
    rep = np.array(first, dtype=np.int64)
    pbits = _bitset(np.flatnonzero(p), (monoid.order + 63) // 64)
    if done is None:
        seen, chain, start, stop = Exploration(monoid.order), -1, 0, 0
        if p[0]:
            return seen, ()
    else:
        chain = steps[(int(element[added]), frozenset(transitions[added]))]
        if first[chain] != ids.index(added):  # another component takes the same step: ``done`` is closed under it
            return done, None
        # sums commute, so the steps do too: the states of ``done`` are closed (up to domination) under every other
        # component's step, and every new state is reached from one of them by adding ``added`` again and again
        seen, start, stop = done.copy(), 0, done.count
    before, resume = seen.firsts()[0], -1
    while True:  # the walk pauses every PAUSE states kept, for the deadline
        cap = min(seen.xs.size, seen.count + PAUSE)
        status, seen.count, start, last = _walk(chain, start, resume, stop, cap, table, p, pbits, elem, tptr, tflat,
                                                rep, *seen.arrays(), seen.count)
        if status == _BAD:
            return seen, seen.witness(last, ids)
        if status == _GOOD:
            break
        if deadline is not None:
            deadline.check(f"the proof of a quotient of order {monoid.order:,} ({seen.count:,} states)")
        if cap == seen.xs.size:
            seen.grow(limit)
        resume = last
    steps = [(k, int(elem[k]), tuple(sets[k])) for k in range(len(sets))]
    if done is None:
        failure = _p_side(monoid, seen, steps)
    else:
        failure = _p_side(monoid, seen, [steps[chain]]) or \
            _p_side(monoid, seen, [s for s in steps if s[0] != chain], np.setdiff1d(seen.firsts()[0], before))
    return seen, None if failure is None else seen.witness(failure[0], ids) + (ids[first[failure[1]]],)
