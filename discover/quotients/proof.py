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

Nothing here uses outcomes computed by a solver, only the components' options.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from discover.quotients.monoid import BipartiteMonoid

__all__ = ["Exploration", "explore", "dominated"]


class Exploration:
    """The states (x, T) kept so far (for each element x, the minimal transition sets seen), each with the sum that
    first reached it (a parent pointer), and the elements reached."""

    def __init__(self, base: "Exploration | None" = None):
        self.base = base  # the proved exploration this one extends (its parent pointers are read, not copied)
        self.parent: dict = {} if base is not None else {(0, frozenset()): None}
        self.minimal: dict = {x: list(sets) for x, sets in base.minimal.items()} if base is not None else \
            {0: [frozenset()]}
        self.dead: set = set(base.dead) if base is not None else set()

    def __len__(self) -> int:
        return len(self.parent) + (len(self.base) if self.base is not None else 0)

    def _parent(self, state):
        here = self
        while state not in here.parent:
            here = here.base
        return here.parent[state]

    def witness(self, state) -> tuple:
        """The sum (component ids, in the order added) that reaches ``state``."""
        word = []
        while (link := self._parent(state)) is not None:
            state, c = link
            word.append(c)
        return tuple(reversed(word))

    def states(self) -> list:
        """The states kept: every state reached is one of them or dominated by one with the same element."""
        return [(x, t) for x, sets in self.minimal.items() for t in sets]

    def admit(self, state, link) -> bool:
        """Keep ``state`` (reached by ``link``: the state before and the component added) unless a kept state
        equals or dominates it; drop the kept states it dominates.  True when kept."""
        x, t = state
        sets = self.minimal.setdefault(x, [])
        if t:
            if any(u and u <= t for u in sets):
                return False
            beaten = [u for u in sets if u and t < u]
            if beaten:
                self.dead.update((x, u) for u in beaten)
                sets[:] = [u for u in sets if not (u and t < u)]
        elif t in sets:
            return False
        sets.append(t)
        self.parent[state] = link
        return True

    def settle(self) -> None:
        """Take the base's parent pointers in (once this exploration is the proved one)."""
        if self.base is not None:
            self.base.settle()
            self.parent = {**self.base.parent, **self.parent}
            self.base = None


def _consistent(monoid: BipartiteMonoid, state) -> bool:
    x, options = state
    if not options:
        return not monoid.p_portion[x]
    return bool(monoid.p_portion[x]) == (not any(monoid.p_portion[t] for t in options))


def _p_side(monoid: BipartiteMonoid, seen: Exploration, steps, elements) -> tuple | None:
    """A sum on P with an option on P (its witness), adding one of ``steps`` to a sum of each of ``elements``."""
    if not elements:
        return None
    ys = np.array(sorted(elements), dtype=np.int64)
    p, table = monoid.p_portion, monoid.table
    for c, e, tr in steps:
        bad = p[table[ys, e]]
        if tr:
            bad &= p[table[np.ix_(ys, np.asarray(tr, dtype=np.int64))]].any(axis=1)
        else:
            bad[:] = False
        if bad.any():
            y = int(ys[int(np.argmax(bad))])
            return seen.witness((y, seen.minimal[y][0])) + (c,)
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
    if not tr or not any(u and u <= tr for u in done.minimal.get(e, ())):
        return False
    return _p_side(monoid, done, [(None, e, tuple(tr))], done.minimal) is None


def explore(monoid: BipartiteMonoid, element: dict, transitions: dict, ids, done: Exploration | None = None,
            added=None, limit: int = 2_000_000):
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
        The components sums are made of.
    done : Exploration, optional
        States already proved consistent for ``ids`` less ``added``: only the steps adding ``added`` from them,
        and everything after, are explored (a new component's check, heap by heap).
    added : component id, optional
        The one component new since ``done``.
    limit : int
        Refuse (``ValueError``) an exploration past this many states.

    Returns
    -------
    (Exploration, tuple or None)
        The states kept (extending ``done`` when given), and the sum of a state found inconsistent (None when
        every state is consistent: the pretension is proved).

    Examples
    --------
    >>> t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))
    >>> states, witness = explore(t2, {1: 1}, {1: frozenset({0})}, [1])   # misère Nim heaps of size 1
    >>> witness, len(states)
    (None, 3)
    >>> explore(t2, {1: 0}, {1: frozenset({0})}, [1])[1]   # heap 1 mapped to the identity: refuted by one heap
    (1,)
    """
    table = monoid.table
    steps = [(c, int(element[c]), tuple(transitions[c])) for c in ids]

    def step(state, e, tr):
        x, options = state
        return (int(table[x, e]), frozenset(int(table[t, e]) for t in options) | frozenset(int(table[x, s]) for s in tr))

    def checked(nxt):
        if len(seen) > limit:
            raise ValueError(f"proving the quotient visits more than {limit:,} states: use fewer components")
        return None if _consistent(monoid, nxt) else seen.witness(nxt)

    if done is not None:
        # sums commute, so the steps do too: the states of ``done`` are closed (up to domination) under every other
        # component's step, and every new state is reached from one of them by adding ``added`` again and again
        seen = Exploration(done)
        c, e, tr = next(s for s in steps if s[0] == added)
        before = set(done.minimal)
        for state in done.states():
            nxt = step(state, e, tr)
            while seen.admit(nxt, (state, c)):
                if (witness := checked(nxt)) is not None:
                    return seen, witness
                state, nxt = nxt, step(nxt, e, tr)
        fresh = set(seen.minimal) - before
        witness = _p_side(monoid, seen, [(c, e, tr)], seen.minimal) or \
            _p_side(monoid, seen, [s for s in steps if s[0] != added], fresh)
        if witness is None:
            seen.settle()
        return seen, witness
    seen = Exploration()
    queue = deque([(0, frozenset())])
    if not _consistent(monoid, queue[0]):
        return seen, ()
    while queue:
        state = queue.popleft()
        if state in seen.dead:
            continue
        for c, e, tr in steps:
            nxt = step(state, e, tr)
            if not seen.admit(nxt, (state, c)):
                continue
            if (witness := checked(nxt)) is not None:
                return seen, witness
            queue.append(nxt)
    return seen, _p_side(monoid, seen, steps, seen.minimal)
