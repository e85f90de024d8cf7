"""Plambeck and Siegel's construction of a misère quotient, component by component.

``QuotientBuilder.add(c)`` extends the proved quotient of the components so far by one component c whose
options are sums of earlier components:

1. *Conservative extension*: c's transition set T(c) is the set of its options' elements (products in the
   current quotient Q).  For each element x of Q on the right side of the P-portion (x in P exactly when no
   element of T(c) is), the pretension with c mapped to x is checked: first by ``proof.dominated`` (a sum with
   element x whose transition set lies inside T(c) proves it at once), then by ``proof.explore``, only from the
   states that add c.  The x that passes is c's element (in a reduced Q at most one can) and Q does not change.
2. *Growth*: when no element passes, c becomes a new generator, one at a time as MisereSolver extends a quotient:
   the trial monoid is Q times the cyclic monoid ``g^4 = g^2`` of c (``trial.Trial``), its P-portion marked by
   first sums and reduced, and the result is proved by ``proof.explore`` over every component.  A trial refuted
   there is *recalibrated* on its least failure (``least_failure``: the colex-least sum it gets wrong, on which
   MisereSolver recalibrates, its successive least failures growing): a few of the components in it (one, then two,
   ...) are set free as cyclic factors of their own (relation ``g^(a+2) = g^a``, a at least the count in the
   sum less one), the rest kept as the part of the failed trial they generate, until a trial gets that sum right
   (failing that, every component in it is set free with a larger a); then the proof is tried again.  With
   ``free_alike`` a component set free takes with it the components of its element that fail alike in that sum
   (``_failing_alike``), all on one new generator.

Every quotient this returns has been proved for the components added: a sum of them is a P-position exactly
when its element lies in the P-portion, and the monoid is reduced.
"""

from __future__ import annotations

import hashlib
import itertools

import numpy as np

from cgbase.deadline import Deadline
from discover.quotients.least_failure import least_failure
from discover.quotients.monoid import BipartiteMonoid
from discover.quotients.proof import Exploration, dominated, explore
from discover.quotients.trial import MAX_TRIAL_BYTES, Trial

__all__ = ["QuotientBuilder", "MAX_TRIAL", "MAX_ORDER"]

MAX_TRIAL = 1 << 23  # elements of a trial monoid before growth is refused
MAX_ORDER = 16384  # elements of a reduced quotient or trial (its int32 table: 1 GiB; the most a rule record holds)
START_INDEX = 2  # a new generator's first trial relation: g^4 = g^2


class QuotientBuilder:
    """The misère quotient of the components added so far, proved after every ``add``.

    Parameters
    ----------
    options : callable
        ``options(c)``: the sums (tuples of earlier components) one move from component ``c``.
    max_trial : int
        The largest trial monoid growth may build (``ValueError`` beyond: the quotient may be infinite).
    free_alike : bool
        When a component of a failed trial's witness is set free, set free with it (sharing its new generator)
        the components of its element whose sum with the rest of the witness fails too.  For many components
        sharing a few elements (Notakto's boards), where setting them free one at a time doubles the trial as
        often as the element has components; heaps keep MisereSolver's one at a time (the default).

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

    def __init__(self, options, max_trial: int = MAX_TRIAL, deadline: Deadline | None = None,
                 free_alike: bool = False):
        self.options = options
        self.max_trial = max_trial
        self.free_alike = free_alike
        self.deadline = Deadline.of(deadline)
        self.monoid = BipartiteMonoid(np.zeros((1, 1), dtype=np.int64), np.zeros(1, dtype=bool))
        self.element: dict = {}
        self.transitions: dict = {}
        self.ids: list = []
        self.growth: list = []
        self._states = Exploration(1)

    def _transition_set(self, c, monoid=None, element=None) -> frozenset:
        """c's transition set in the quotient so far (or in ``monoid`` with ``element``)."""
        monoid, element = (self.monoid, self.element) if monoid is None else (monoid, element)
        return frozenset(monoid.product(element[i] for i in o) for o in self.options(c))

    def add(self, c) -> None:
        """Add component ``c`` (its options name only components added before) and prove the new quotient, within
        the builder's ``deadline`` (``cgbase.deadline.Deadline``: the proof and the growth look at it as they go).

        Raises
        ------
        ValueError
            If ``c`` was added already, an option names a component not added yet, growth needs a trial monoid
            larger than ``max_trial`` or a quotient larger than ``MAX_ORDER``, or the deadline passes
            (``OutOfTime``; the builder then holds the quotient of the components before ``c``).
        """
        if c in self.element:
            raise ValueError(f"component {c!r} was added already")
        for o in self.options(c):
            missing = [i for i in o if i not in self.element]
            if missing:
                raise ValueError(f"an option of component {c!r} names {missing[0]!r}, not added yet: add components "
                                 "in an order in which options come first")
        self.deadline.check(f"component {c!r}")
        self.ids.append(c)
        try:
            self._place(c, self.deadline)
        except ValueError:  # the quotient outgrew the limit or the time: keep the quotient of the components before c
            self.ids.pop()
            self.element.pop(c, None)
            self.transitions.pop(c, None)
            raise

    def _place(self, c, deadline) -> None:
        """c's element: one of the quotient so far (a conservative extension), or the quotient grows."""
        tr = self._transition_set(c)
        self.transitions[c] = tr
        p = self.monoid.p_portion
        want_p = bool(tr) and not any(p[t] for t in tr)
        sides = [x for x in range(self.monoid.order) if bool(p[x]) == want_p]
        for x in sides:
            if dominated(self.monoid, self._states, x, tr):
                self.element[c] = x
                return
        for x in sides:
            self.element[c] = x
            states, witness = explore(self.monoid, self.element, self.transitions, self.ids, self._states, c,
                                      deadline=deadline)
            if witness is None:
                self._states = states
                return
        self._grow(c, deadline)

    # -- growth -----------------------------------------------------------------------------------------
    def _grow(self, c, deadline) -> None:
        old = {i: self.element[i] for i in self.ids if i != c}
        monoid, element = self._trial(self.monoid.table, old, [((c,), START_INDEX)])
        tried = set()  # trials seen: one seen again sets every component of the witness free, a cycle broken
        while True:
            transitions = {i: self._transition_set(i, monoid, element) for i in self.ids}
            states, witness = explore(monoid, element, transitions, self.ids, deadline=deadline)
            if witness is None:
                break
            witness = least_failure(monoid, element, transitions, self.ids, deadline=deadline)
            key = _fingerprint(monoid, [element[i] for i in self.ids])
            monoid, element = self._recalibrate(monoid, element, transitions, witness, deadline, key in tried)
            tried.add(key)
        self.monoid, self.element, self.transitions, self._states = monoid, element, transitions, states
        self.growth.append((c, monoid.order))

    def _trial(self, base, kept: dict, free: list):
        """The reduced trial ``base`` (the kept components' elements in it) times one cyclic factor per free group
        (``free``: the group's components, which share its generator, and its index a); each component's element
        in it."""
        try:
            trial = Trial(base, [index for _, index in free], self.max_trial)
            code = dict(kept)
            code.update({i: trial.free(k) for k, (group, _) in enumerate(free) for i in group})
            generators = sorted(set(code.values()))  # the reduction acts by each distinct code once
            if trial.estimated_bytes(len(generators)) > MAX_TRIAL_BYTES:
                raise ValueError(f"a trial monoid of {trial.size:,} elements needs about "
                                 f"{trial.estimated_bytes(len(generators)) / 2**30:.1f} GiB")
        except ValueError as err:
            raise ValueError(f"the misère quotient grows past {err} at component {self.ids[-1]!r}: it may be "
                             "infinite; use fewer components") from None
        steps = {}  # components with the same code and options' codes mark alike: the marking takes one of each
        for i in self.ids:
            if self.options(i):
                steps.setdefault((code[i], tuple(sorted({trial.product(code[j] for j in o)
                                                         for o in self.options(i)}))), i)
        p_portion = trial.p_portion([x for x, _ in steps], [list(t) for _, t in steps])
        monoid, labels = trial.reduced(p_portion, generators, MAX_ORDER, self.deadline)
        return monoid, {i: int(labels[code[i]]) for i in self.ids}

    def _recalibrate(self, monoid, element, transitions, witness, deadline, again: bool = False):
        """A trial that gets the outcome of the sum ``witness`` right (see the module's docstring); ``again``: the
        failed trial was tried before, so every component of the witness is set free with a larger index."""
        should_p = not monoid.p_portion[monoid.product(element[i] for i in witness)]
        counts = {i: witness.count(i) for i in self.ids if i in witness}
        alike = _failing_alike(monoid, element, transitions, witness, self.ids) if self.free_alike else \
            {i: (i,) for i in counts}

        def freed(groups):
            deadline.check(f"the growth at component {self.ids[-1]!r} (a trial of order {monoid.order:,} failed)")
            free = {i for group, _ in groups for i in group}
            return self._trial(*_submonoid(monoid, {i: element[i] for i in self.ids if i not in free}), groups)

        for size in range(1, 0 if again else len(counts) + 1):
            for free in itertools.combinations(counts, size):
                trial, trial_element = freed([(alike[i], max(_index_of(monoid, element[i]), counts[i] - 1))
                                              for i in free])
                if bool(trial.p_portion[trial.product(trial_element[i] for i in witness)]) == should_p:
                    return trial, trial_element
        return freed([((i,), max(_index_of(monoid, element[i]), counts[i]) + 2) for i in counts])


def _failing_alike(monoid: BipartiteMonoid, element: dict, transitions: dict, witness: tuple, ids) -> dict:
    """For each component c of the inconsistent sum ``witness``: c and the components of c's element whose sum
    with the rest of ``witness`` (once c is taken out) is inconsistent too, in the order of ``ids``."""
    p, table = monoid.p_portion, monoid.table
    out = {}
    for c in dict.fromkeys(witness):
        rest = list(witness)
        rest.remove(c)
        x, t = 0, set()
        for i in rest:
            x, t = int(table[x, element[i]]), {int(table[s, element[i]]) for s in t} | \
                {int(table[x, s]) for s in transitions[i]}
        group = []
        for i in ids:
            if element[i] != element[c]:
                continue
            y = int(table[x, element[i]])
            options = {int(table[s, element[i]]) for s in t} | {int(table[x, s]) for s in transitions[i]}
            if i == c or (bool(p[y]) if not options else bool(p[y]) == any(p[s] for s in options)):
                group.append(i)
        out[c] = tuple(group)
    return out


def _submonoid(monoid: BipartiteMonoid, element: dict):
    """The table of the submonoid the elements ``element`` generate, and each one's element in it: the closure
    grown by each element not in it yet, ``R := R ∪ R x ∪ R x² ∪ ...`` (closed again, as R is)."""
    table = monoid.table
    reached = np.zeros(monoid.order, dtype=bool)
    reached[0] = True
    for x in sorted(set(element.values())):
        if reached[x]:
            continue
        frontier = np.flatnonzero(reached)
        while frontier.size:
            step = np.unique(table[frontier, x])
            frontier = step[~reached[step]]
            reached[frontier] = True
    if reached.all():  # the kept elements generate the whole monoid
        return table, dict(element)
    old = np.flatnonzero(reached)
    relabel = np.full(monoid.order, -1, dtype=np.int32)
    relabel[old] = np.arange(old.size)
    return relabel[table[np.ix_(old, old)]], {i: int(relabel[x]) for i, x in element.items()}


def _fingerprint(monoid: BipartiteMonoid, elements: list) -> bytes:
    """A digest of a trial (its P-portion, the components' elements and their columns of the table), to tell one
    seen before: the components' elements generate a trial, so their columns fix its whole table, and hashing them
    takes ``order`` numbers a generator where the table takes ``order`` squared."""
    digest = hashlib.sha256(np.ascontiguousarray(monoid.p_portion))
    digest.update(np.asarray(elements, dtype=np.int64))
    digest.update(np.ascontiguousarray(monoid.table[:, sorted(set(elements))]))
    return digest.digest()


def _index_of(monoid: BipartiteMonoid, x: int) -> int:
    """The least a with x^(a+2) = x^a in ``monoid`` (powers of a trial's elements cycle by 1 or 2)."""
    powers, y = [], 0
    while y not in powers:
        powers.append(y)
        y = int(monoid.table[y, x])
    return powers.index(y)
