"""The brute-force checks of a heap game's quotient: every sum of few tokens, and classes by outcomes."""

from __future__ import annotations

import numpy as np
import pytest

from discover.quotients import BipartiteMonoid, HeapComponents, QuotientRule, discover_quotient, quotient_rule
from discover.quotients.brute import check_token_sums, outcome_classes, token_sums
from games import make_game
from solvers.heap_sums import HeapSums

T2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))


def test_token_sums_are_the_partitions():
    sums = token_sums(8)
    assert len(sums) == sum([1, 1, 2, 3, 5, 7, 11, 15, 22])  # partition numbers p(0) .. p(8)
    assert len(set(sums)) == len(sums) and all(list(s) == sorted(s, reverse=True) for s in sums)
    with pytest.raises(ValueError, match="tokens"):
        token_sums(-1)


def test_a_false_quotient_is_refuted_and_split():
    game = make_game("octal", code="0.77", misere=True)
    wrong = QuotientRule(T2, {n: 1 for n in range(1, 7)})  # misère Nim's rule of heaps of one, on Kayles
    check = check_token_sums(wrong, HeapSums(game), 6)
    assert not check.passed and "refuted on every sum of heaps of at most 6 tokens" in check.line()
    classes = outcome_classes(wrong, HeapSums(game), 3, 3)
    assert not classes.passed and classes.split and "the quotient is false" in classes.line()


def test_a_proved_quotient_passes_and_its_elements_are_told_apart():
    game = make_game("octal", code="0.77", misere=True)
    rule = quotient_rule(HeapComponents(game, heaps=12), removal_limit=2)
    solver = HeapSums(game)
    assert check_token_sums(rule, solver, 12).passed
    classes = outcome_classes(rule, solver, 6, 6)
    assert classes.passed and classes.classes == classes.elements


@pytest.mark.slow
def test_kayles_whole_quotient_of_forty_elements_against_the_solver():
    """The proved Kayles quotient (40 elements) on every sum of at most 24 tokens; its sums of at most 10 tokens
    fall in as many solver classes as elements."""
    game = make_game("octal", code="0.77", misere=True)
    found = discover_quotient(game, heaps=200, checks=())
    assert found.status == "proved" and found.rule.monoid.order == 40
    solver = HeapSums(game)
    assert check_token_sums(found.rule, solver, 24).passed
    classes = outcome_classes(found.rule, solver, 10, 10)
    assert classes.passed and classes.classes == classes.elements
