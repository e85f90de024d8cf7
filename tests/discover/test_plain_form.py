"""``plain_form``: a rule restated in its plainest form equal to it on the whole verification bound, never a
form that differs anywhere on it."""

from __future__ import annotations

import numpy as np
import sympy as sp

from discover.plain_form import plain_form, plainness
from discover.rule import Rule
from games import make_game

n = sp.Symbol("n")


def test_scaled_residue_becomes_a_set_of_residues():
    # a learner-fed search gave (3·n) mod 11 ≤ 3; the solver's table gives n mod 11 ∈ {0, 1, 4, 8}
    game = make_game("subtraction", subtract=(2, 5, 6))
    odd = Rule(sp.Le(sp.Mod(3 * n, 11), 3), ("n",))
    plain = plain_form(odd, game, 300, 30)
    assert plain.text() == "n mod 11 ∈ {0, 1, 4, 8}" and plainness(plain) < plainness(odd)
    assert plain.provenance["plain_form_of"] == "(3·n) mod 11 ≤ 3"
    heaps = np.arange(10_000)[:, None]
    assert np.array_equal(plain.predicate(heaps), odd.predicate(heaps))


def test_a_plainer_candidate_that_differs_somewhere_is_not_taken():
    game = make_game("subtraction", subtract=(2, 5, 6))
    odd = Rule(sp.Le(sp.Mod(3 * n, 11), 3), ("n",))
    near = Rule(sp.Contains(sp.Mod(n, 11), sp.FiniteSet(0, 1, 4)), ("n",))  # plainer, wrong at n = 8
    assert plain_form(odd, game, 300, 30, engines=(), candidates=[near]) is odd


def test_a_plain_rule_stays_as_it_is():
    rule = Rule(sp.Eq(sp.Mod(n, 4), 0), ("n",))
    assert plain_form(rule, make_game("subtraction"), 300, 30) is rule
