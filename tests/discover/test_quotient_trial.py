"""The growth step's trial monoid: its product, P-portion and reduction against direct computations."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from discover.quotients.trial import Trial

T2 = np.array([[0, 1], [1, 0]])  # the two-element group as a base


def _first_sums(t: Trial, elements, options, most: int = 6) -> list[bool]:
    """P by the definition of the marking: every sum of at most ``most`` of each component, in colex order; an
    element is decided by the first sum that reaches it."""
    n = len(elements)
    p: dict = {}
    for counts in sorted(itertools.product(range(most + 1), repeat=n), key=lambda c: c[::-1]):
        x = t.product([e for e, k in zip(elements, counts) for _ in range(k)])
        if x in p:
            continue
        moves = []
        for j in range(n):
            if counts[j]:
                rest = [e for i, (e, k) in enumerate(zip(elements, counts)) for _ in range(k - (i == j))]
                moves += [t.product(rest + [o]) for o in options[j]]
        p[x] = bool(moves) and not any(p[m] for m in moves)
    return [p.get(x, False) for x in range(t.size)]


def test_product_is_a_commutative_monoid():
    t = Trial(T2, [1, 0])
    assert t.size == 2 * 3 * 2
    for x, y, z in itertools.product(range(t.size), repeat=3):
        assert t.product([x, y]) == t.product([y, x])
        assert t.product([t.product([x, y]), z]) == t.product([x, t.product([y, z])])
    g = t.free(0)
    assert t.product([g] * 3) == g and len({0, g, t.product([g, g])}) == 3  # index 1: g^3 = g, and no less


def test_p_portion_is_decided_by_first_sums():
    t = Trial(T2, [1, 0])
    a, g, h = 1, t.free(0), t.free(1)
    # a heap of 1 (a in the base), then components with options among the earlier ones
    elements, options = [a, g, h], [[0], [0, a], [t.product([a, g]), g]]
    assert t.p_portion(elements, options).tolist() == _first_sums(t, elements, options)


def test_reduction_is_a_congruence_that_keeps_the_p_portion():
    t = Trial(T2, [1, 0])
    a, g, h = 1, t.free(0), t.free(1)
    p = t.p_portion([a, g, h], [[0], [0, a], [t.product([a, g]), g]])
    monoid, labels = t.reduced(p, [a, g, h])
    assert monoid.is_associative() and monoid.is_reduced()
    assert (monoid.p_portion[labels] == p).all()
    for x, y in itertools.product(range(t.size), repeat=2):
        assert labels[t.product([x, y])] == monoid.table[labels[x], labels[y]]


def test_oversized_trials_are_refused():
    with pytest.raises(ValueError, match="limit 4"):
        Trial(np.zeros((1, 1), dtype=np.int64), [2, 2], max_size=4)


def test_a_trial_is_sized_by_its_distinct_elements_not_its_components(monkeypatch):
    """Two hundred components alike (misère Nim heaps of 1) share one element: a trial's reduction acts by each
    distinct element once, so its memory estimate counts them, not the components (Notakto's thousands of boards
    share a few dozen elements)."""
    import discover.quotients.construct as construct

    monkeypatch.setattr(construct, "MAX_TRIAL_BYTES", 2000)  # 8 elements x (4 x 202 + 64) bytes would pass it
    ones = {i: [()] for i in range(1, 201)}
    q = construct.QuotientBuilder(lambda c: [(), (1,)] if c == "two" else ones[c])
    for c in [*ones, "two"]:
        q.add(c)
    assert q.monoid.order == 6 and len(set(q.element.values())) == 2
