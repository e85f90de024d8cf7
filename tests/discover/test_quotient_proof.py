"""The proof of a pretension: states kept up to domination and the P-side checked apart must give the verdict of
visiting every (element, transition set) state of every sum."""

from __future__ import annotations

import numpy as np
import pytest

from discover.quotients import HeapComponents, discover_quotient, quotient_rule
from discover.quotients import proof
from discover.quotients.proof import explore
from games import make_game


def _every_state(monoid, element, transitions, ids) -> bool:
    """True when every state reachable from (1, {}) is consistent: no domination, no P-side shortcut."""
    p, table = monoid.p_portion, monoid.table
    seen, frontier = {(0, frozenset())}, [(0, frozenset())]
    while frontier:
        nxt = []
        for x, t in frontier:
            if (p[x] and not t) or (t and bool(p[x]) == any(p[s] for s in t)):
                return False
            for c in ids:
                e = element[c]
                state = (int(table[x, e]), frozenset(int(table[s, e]) for s in t) |
                         frozenset(int(table[x, s]) for s in transitions[c]))
                if state not in seen:
                    seen.add(state)
                    nxt.append(state)
        frontier = nxt
    return True


@pytest.mark.parametrize("code, heaps", [("0.77", 12), ("0.15", 10), ("0.07", 14)])
def test_explore_agrees_with_every_state_on_right_and_wrong_pretensions(code, heaps):
    rule = quotient_rule(HeapComponents(make_game("octal", code=code, misere=True), heaps=heaps))
    m, ids = rule.monoid, list(range(1, heaps + 1))
    rng = np.random.default_rng(7)
    verdicts = []
    for trial in range(25):
        element = dict(rule.element)
        if trial:  # the quotient itself first, then one or two heaps sent to other elements
            for c in rng.choice(ids, size=int(rng.integers(1, 3)), replace=False):
                element[int(c)] = int(rng.integers(m.order))
        transitions = {c: frozenset(m.product(element[i] for i in o) for o in rule_options(code, c)) for c in ids}
        full = explore(m, element, transitions, ids)[1] is None
        assert full == _every_state(m, element, transitions, ids)
        # heap by heap from the states of the heaps before, as the construction checks a new heap
        done, ok = explore(m, element, transitions, ids[:-1])
        if ok is None:
            assert (explore(m, element, transitions, ids, done, ids[-1])[1] is None) == full
        assert full or trial  # the quotient itself is proved
        verdicts.append(full)
    assert verdicts.count(False) >= 5  # wrong pretensions were refuted, not only right ones proved


def rule_options(code: str, c: int):
    return HeapComponents(make_game("octal", code=code, misere=True), heaps=c).options(c)


def test_explorations_resume_after_their_arrays_are_doubled(monkeypatch):
    rule = quotient_rule(HeapComponents(make_game("octal", code="0.07", misere=True), heaps=14))
    ids = list(rule.element)
    transitions = {c: frozenset(rule.monoid.product(rule.element[i] for i in o) for o in rule_options("0.07", c))
                   for c in ids}
    wide, _ = explore(rule.monoid, rule.element, transitions, ids)
    wide_done, _ = explore(rule.monoid, rule.element, transitions, ids[:-1])
    monkeypatch.setattr(proof, "CAPACITY", 2)  # full at once: every walk stops and goes on, mid-chain too
    narrow, witness = explore(rule.monoid, rule.element, transitions, ids)
    assert witness is None and len(narrow) == len(wide) and (narrow.xs[:len(wide)] == wide.xs[:len(wide)]).all()
    done, _ = explore(rule.monoid, rule.element, transitions, ids[:-1])
    assert len(done) == len(wide_done)
    again, witness = explore(rule.monoid, rule.element, transitions, ids, done, ids[-1])
    assert witness is None
    with pytest.raises(ValueError, match="more than 10 states"):
        explore(rule.monoid, rule.element, transitions, ids, limit=10)


def test_growth_stops_at_the_deadline_with_the_quotient_of_the_heaps_before():
    found = discover_quotient(make_game("octal", code="0.35", misere=True), seconds=0.5, checks=((2, 6),))
    assert found.stopped.endswith("0.5 seconds") or "0.5-second budget ran out" in found.stopped
    assert found.heaps < 18 and found.status == "verified" and found.checks[0].passed
