"""The least failure of a pretension: a sum it gets wrong, none below it in colex order (brute force over a box of
words), and none at all exactly when ``proof.explore`` proves it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from discover.quotients import HeapComponents, quotient_rule
from discover.quotients.least_failure import least_failure
from discover.quotients.proof import explore
from games import make_game

BOX = 2  # the brute force tries every word with at most this many of each heap


def _state(monoid, element, transitions, word):
    x, t = 0, frozenset()
    for c in word:
        e = element[c]
        x, t = int(monoid.table[x, e]), (frozenset(int(monoid.table[s, e]) for s in t) |
                                         frozenset(int(monoid.table[x, s]) for s in transitions[c]))
    return x, t


def _wrong(monoid, x, t) -> bool:
    p = monoid.p_portion
    return bool(p[x]) if not t else bool(p[x]) == any(p[s] for s in t)


def _colex(word, ids):
    return tuple(word.count(c) for c in reversed(ids))


@pytest.mark.parametrize("code, heaps", [("0.77", 8), ("0.15", 8), ("0.07", 9)])
def test_the_least_failure_is_wrong_least_and_absent_only_when_proved(code, heaps):
    components = HeapComponents(make_game("octal", code=code, misere=True), heaps=heaps)
    rule = quotient_rule(components)
    m, ids = rule.monoid, list(range(1, heaps + 1))
    rng = np.random.default_rng(3)
    refuted = 0
    for trial in range(30):
        element = dict(rule.element)
        if trial:  # the quotient itself first, then one or two heaps sent to other elements
            for c in rng.choice(ids, size=int(rng.integers(1, 3)), replace=False):
                element[int(c)] = int(rng.integers(m.order))
        transitions = {c: frozenset(m.product(element[i] for i in o) for o in components.options(c)) for c in ids}
        least = least_failure(m, element, transitions, ids)
        assert (least is None) == (explore(m, element, transitions, ids)[1] is None)
        if least is None:
            continue
        refuted += 1
        assert _wrong(m, *_state(m, element, transitions, least))
        wrong_in_box = [_colex(w, ids) for w in (tuple(c for c, k in zip(ids, counts) for _ in range(k))
                                                 for counts in itertools.product(range(BOX + 1), repeat=len(ids)))
                        if _wrong(m, *_state(m, element, transitions, w))]
        key = _colex(list(least), ids)
        assert not wrong_in_box or key <= min(wrong_in_box)
        if max(key) <= BOX:
            assert key == min(wrong_in_box)
    assert refuted >= 10  # wrong pretensions were found wrong, not only right ones proved
