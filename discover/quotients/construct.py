"""Plambeck and Siegel's construction of a misère quotient, component by component.

``QuotientBuilder.add(c)`` extends the proved quotient of the components so far by one component c whose
options are sums of earlier components:

1. *Conservative extension*: c's transition set T(c) is the set of its options' elements (products in the
   current quotient Q).  For each element x of Q on the right side of the P-portion (x in P exactly when no
   element of T(c) is), the pretension with c mapped to x is checked: first by ``proof.dominated`` (a sum with
   element x whose transition set lies inside T(c) proves it at once), then by ``proof.explore``, only from the
   states that add c.  The x that passes is c's element (in a reduced Q at most one can) and Q does not change.
2. *Growth*: when no element passes, c becomes a new generator.  A trial monoid is the product of cyclic
   monoids ``g^(a+2) = g^a``, one per generator (every element of a misère quotient satisfies such a relation,
   Plambeck and Siegel), each other component being the word of generators its element had; its P-portion is
   marked sum by sum from the transition sets (a sum is P when it has a move and none of its moves is P), the
   trial is reduced (indistinguishable elements merged, ``BipartiteMonoid.reduced``), and the result is proved
   by ``proof.explore`` over every component.  A failure names a sum; the components in it are made generators
   of their own (or their exponents raised), as MisereSolver's recalibration does, and the trial is built
   again.

Every quotient this returns has been proved for the components added: a sum of them is a P-position exactly
when its element lies in the P-portion, and the monoid is reduced.
"""

from __future__ import annotations

import numpy as np

from discover.quotients.monoid import BipartiteMonoid
from discover.quotients.proof import Exploration, dominated, explore
from discover.quotients.trial import CyclicProduct

__all__ = ["QuotientBuilder", "MAX_TRIAL"]

MAX_TRIAL = 1 << 23  # elements of a trial monoid before growth is refused (about 1.3 GB at the limit)
START_INDEX = 2  # a new generator's first trial relation: g^4 = g^2


class QuotientBuilder:
    """The misère quotient of the components added so far, proved after every ``add``.

    Parameters
    ----------
    options : callable
        ``options(c)``: the sums (tuples of earlier components) one move from component ``c``.
    max_trial : int
        The largest trial monoid growth may build (``ValueError`` beyond: the quotient may be infinite).

    Attributes
    ----------
    monoid : BipartiteMonoid
        The quotient so far.
    element : dict
        Each component's element.
    transitions : dict
        Each component's transition set.
    ids : list
        The components, in the order added.
    growth : list
        The components at which the quotient grew, with its order after each.

    Examples
    --------
    >>> nim = {1: [()], 2: [(), (1,)], 3: [(), (1,), (2,)]}   # misère Nim heaps 1, 2, 3
    >>> q = QuotientBuilder(nim.__getitem__)
    >>> q.add(1); q.monoid.order, q.monoid.p_portion.tolist()
    (2, [False, True])
    >>> q.add(2); q.add(3); q.monoid.order, int(q.monoid.p_portion.sum())
    (6, 2)
    """

    def __init__(self, options, max_trial: int = MAX_TRIAL):
        self.options = options
        self.max_trial = max_trial
        self.monoid = BipartiteMonoid(np.zeros((1, 1), dtype=np.int64), np.zeros(1, dtype=bool))
        self.element: dict = {}
        self.transitions: dict = {}
        self.ids: list = []
        self.growth: list = []
        self._words: dict = {}  # each component as a word of generators {generator: exponent}
        self._index: dict = {}  # each generator's trial relation g^(a+2) = g^a: a
        self._element_words: list = [{}]  # each element of the monoid as a word of generators
        self._states = Exploration()

    def _transition_set(self, c) -> frozenset:
        return frozenset(self.monoid.product(self.element[i] for i in o) for o in self.options(c))

    def add(self, c) -> None:
        """Add component ``c`` (its options name only components added before) and prove the new quotient.

        Raises
        ------
        ValueError
            If ``c`` was added already, an option names a component not added yet, or growth needs a trial
            monoid larger than ``max_trial`` (the builder then holds the quotient of the components before ``c``).
        """
        if c in self.element:
            raise ValueError(f"component {c!r} was added already")
        for o in self.options(c):
            missing = [i for i in o if i not in self.element]
            if missing:
                raise ValueError(f"an option of component {c!r} names {missing[0]!r}, not added yet: add components "
                                 "in an order in which options come first")
        self.ids.append(c)
        tr = self._transition_set(c)
        self.transitions[c] = tr
        p = self.monoid.p_portion
        want_p = bool(tr) and not any(p[t] for t in tr)
        sides = [x for x in range(self.monoid.order) if bool(p[x]) == want_p]
        for x in sides:
            if dominated(self.monoid, self._states, x, tr):
                self.element[c] = x
                self._words[c] = dict(self._element_words[x])
                return
        for x in sides:
            self.element[c] = x
            states, witness = explore(self.monoid, self.element, self.transitions, self.ids, self._states, c)
            if witness is None:
                self._states = states
                self._words[c] = dict(self._element_words[x])
                return
        try:
            self._grow(c)
        except ValueError:  # the quotient outgrew the limit: keep the proved quotient of the components before c
            self.ids.pop()
            for table in (self.element, self.transitions, self._words, self._index):
                table.pop(c, None)
            raise

    # -- growth -----------------------------------------------------------------------------------------
    def _grow(self, c) -> None:
        saved_words, saved_index = dict(self._words), dict(self._index)
        for g in self._index:  # each old generator starts from the relation its element satisfies now
            self._index[g] = _index_of(self.monoid, self.element[g], self._index[g])
        self._words[c] = {c: 1}
        self._index[c] = START_INDEX
        try:
            self._grow_from_trials(c)
        except ValueError:
            self._words, self._index = saved_words, saved_index
            raise

    def _grow_from_trials(self, c) -> None:
        while True:
            trial = _Trial(self, [g for g in self.ids if g in self._index])
            monoid, element, transitions, words = trial.reduced()
            states, witness = explore(monoid, element, transitions, self.ids)
            if witness is None:
                break
            self._recalibrate(witness)
        self.monoid, self.element, self.transitions, self._states = monoid, element, transitions, states
        self._element_words = words
        self.growth.append((c, monoid.order))

    def _recalibrate(self, witness) -> None:
        counts = {i: witness.count(i) for i in set(witness)}
        promote = [i for i in counts if i not in self._index]
        for i in promote:
            self._words[i] = {i: 1}
            self._index[i] = START_INDEX
        if not promote:
            for i in counts:
                self._index[i] = max(self._index[i], counts[i]) + 2


def _index_of(monoid: BipartiteMonoid, x: int, default: int) -> int:
    """The least a with x^(a+2) = x^a in ``monoid`` (``default`` if the powers of x do not cycle by 1 or 2)."""
    powers, y = [], 0
    while y not in powers:
        powers.append(y)
        y = int(monoid.table[y, x])
    a = powers.index(y)
    return a if len(powers) - a in (1, 2) else default


class _Trial:
    """The trial monoid over the builder's generators (``trial.CyclicProduct``), its P-portion marked from the
    generators' options, reduced; each component's element and transition set in it."""

    def __init__(self, builder: QuotientBuilder, generators: list):
        self.builder = builder
        self.gens = generators
        try:
            self.product = CyclicProduct([builder._index[g] for g in generators], builder.max_trial)
        except ValueError:
            size = int(np.prod([builder._index[g] + 2 for g in generators], dtype=object))
            raise ValueError(f"the misère quotient grows past a trial monoid of {size:,} elements at component "
                             f"{builder.ids[-1]!r} (limit {builder.max_trial:,}): it may be infinite; use fewer "
                             "components") from None

    def word_code(self, sum_) -> int:
        e = np.zeros(len(self.gens), dtype=np.int64)
        for i in sum_:
            for g, k in self.builder._words[i].items():
                e[self.gens.index(g)] += k
        return self.product.code(e)

    def reduced(self):
        b, t = self.builder, self.product
        p_portion = t.p_portion([sorted({self.word_code(o) for o in b.options(g)}) for g in self.gens])
        monoid, labels, first = t.reduced(p_portion)
        element = {i: int(labels[self.word_code((i,))]) for i in b.ids}
        transitions = {i: frozenset(int(labels[self.word_code(o)]) for o in b.options(i)) for i in b.ids}
        words = [{g: int(e) for g, e in zip(self.gens, t.exponents(r)) if e} for r in first]
        return monoid, element, transitions, words
