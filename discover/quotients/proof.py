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
the reduced bipartite monoid through which the outcome of every sum factors).  ``explore`` visits the states
breadth first and returns the first inconsistent one as a witness sum; nothing here uses outcomes computed by a
solver, only the components' options.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from discover.quotients.monoid import BipartiteMonoid

__all__ = ["Exploration", "explore"]


class Exploration:
    """The states (x, T) reached so far, each with the sum that first reached it (a parent pointer)."""

    def __init__(self):
        self.parent: dict = {(0, frozenset()): None}

    def __len__(self) -> int:
        return len(self.parent)

    def witness(self, state) -> tuple:
        """The sum (component ids, in the order added) that reaches ``state``."""
        word = []
        while self.parent[state] is not None:
            state, c = self.parent[state]
            word.append(c)
        return tuple(reversed(word))


def _consistent(monoid: BipartiteMonoid, state) -> bool:
    x, options = state
    if not options:
        return not monoid.p_portion[x]
    return bool(monoid.p_portion[x]) == (not any(monoid.p_portion[t] for t in options))


def explore(monoid: BipartiteMonoid, element: dict, transitions: dict, ids, done: Exploration | None = None,
            added=None, limit: int = 2_000_000):
    """Visit every state reachable by adding components ``ids``; return ``(exploration, witness)``.

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
        Every state visited (a copy when ``done`` is given), and the first inconsistent state's sum (None when
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

    def step(state, c, e, tr):
        x, options = state
        return (int(table[x, e]), frozenset(int(table[t, e]) for t in options) | frozenset(int(table[x, s]) for s in tr))

    seen = Exploration()
    if done is not None:
        # sums commute, so the steps do too: the states of ``done`` are closed under every other component's step,
        # and every new state is reached from one of them by adding ``added`` again and again
        seen.parent = dict(done.parent)
        c, e, tr = next(s for s in steps if s[0] == added)
        for state in done.parent:
            nxt = step(state, c, e, tr)
            while nxt not in seen.parent:
                seen.parent[nxt] = (state, c)
                if not _consistent(monoid, nxt):
                    return seen, seen.witness(nxt)
                state, nxt = nxt, step(nxt, c, e, tr)
            if len(seen.parent) > limit:
                raise ValueError(f"proving the quotient visits more than {limit:,} states: use fewer components")
        return seen, None
    queue = deque([(0, frozenset())])
    if not _consistent(monoid, queue[0]):
        return seen, ()
    while queue:
        state = queue.popleft()
        for c, e, tr in steps:
            nxt = step(state, c, e, tr)
            if nxt in seen.parent:
                continue
            seen.parent[nxt] = (state, c)
            if not _consistent(monoid, nxt):
                return seen, seen.witness(nxt)
            if len(seen.parent) > limit:
                raise ValueError(f"proving the quotient visits more than {limit:,} states: use fewer components")
            queue.append(nxt)
    return seen, None
