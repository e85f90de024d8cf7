"""The growth step's trial monoid: its P-portion and reduction against a direct computation."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from discover.quotients.trial import CyclicProduct


def _direct_p(t: CyclicProduct, options) -> list[bool]:
    """P by the definition, element by element over every exponent vector (largest codes need smaller ones)."""
    p = {}
    for code in range(t.size):
        e = t.exponents(code)
        moves = []
        for j in np.flatnonzero(e):
            below = e.copy()
            below[j] -= 1
            for o in options[j]:
                moves.append(t.code(below + t.exponents(o)))
        p[code] = bool(moves) and not any(p[m] for m in moves)
    return [p[c] for c in range(t.size)]


def test_p_portion_matches_the_definition():
    t = CyclicProduct([1, 0, 2])
    # generator 0 (a heap of 1): one option, the empty sum; generator 1: options 1 and g0; generator 2: g0 g1, g0^2
    options = [[0], [0, t.code([1, 0, 0])], [t.code([1, 1, 0]), t.code([2, 0, 0])]]
    assert t.p_portion(options).tolist() == _direct_p(t, options)


def test_multiplication_is_a_commutative_monoid_and_reduction_a_congruence():
    t = CyclicProduct([0, 1])
    codes = np.arange(t.size)
    for x, y in itertools.product(range(t.size), repeat=2):
        assert t.times(np.array([x]), y)[0] == t.times(np.array([y]), x)[0]
    p = t.p_portion([[0], [0, 1]])
    monoid, labels, first = t.reduced(p)
    assert monoid.is_associative() and monoid.is_reduced()
    for g in (1, t.code([0, 1])):  # labels are kept by multiplication with each generator
        assert (labels[t.times(codes, g)] == monoid.table[labels, labels[g]]).all()


def test_unordered_moves_and_oversized_trials_are_refused():
    t = CyclicProduct([0, 0])
    with pytest.raises(RuntimeError, match="not ordered"):
        t.p_portion([[t.code([0, 1])], [0]])  # generator 0's option names generator 1, a later one
    with pytest.raises(ValueError, match="limit 4"):
        CyclicProduct([2, 2], max_size=4)
