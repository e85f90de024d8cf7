"""The strategy check's and the self-play's fast paths give exactly what the plain ones give.

``box_positions`` against ``Universe.positions``; the rule's labels read by id (``KnownLabels``) against the rule
evaluated on the new positions, where moves leave the box or land on ids not labelled yet; ``check_strategy``
with and without the labels (the same gaps in the same order); ``tabled`` against the function it reads.
"""

import numpy as np
import pytest
import sympy as sp

import discover.find_strategy as find_strategy_module
from discover.box_positions import box_positions
from discover.expr.nodes import BitXor
from discover.find_strategy import check_strategy
from discover.known_labels import KnownLabels
from discover.rule import Rule
from discover.self_play import tabled
from discover.strategy import HEAP, Branch, Strategy
from games import make_game
from games.symbolic import Steps, take_from_one
from games.universe import Universe


@pytest.mark.parametrize("limits", [[5, 5, 5, 5], [3, 70, 2], [40, 40], [0, 5], [9]])
def test_box_positions_match_decoding(limits):
    universe = Universe(limits)
    rng = np.random.default_rng(0)
    cuts = {0, universe.size, 1, universe.size - 1, *rng.integers(0, universe.size + 1, 12).tolist()}
    for lo in sorted(cuts):
        for hi in sorted(c for c in cuts if c >= lo):
            assert np.array_equal(box_positions(universe, lo, hi), universe.positions(np.arange(lo, hi)))


def test_box_positions_refuse_a_subset_universe_or_a_bad_range():
    with pytest.raises(ValueError, match="box universe"):
        box_positions(Universe.from_positions(np.array([[1, 2], [3, 0]])), 0, 1)
    with pytest.raises(ValueError, match="lo <= hi"):
        box_positions(Universe([3, 3]), 5, 2)


def _misere_nim(dims):
    xor, top = sp.Symbol("xor_all"), sp.Symbol("max_all")
    rule = Rule(sp.Piecewise((sp.Eq(xor, 1), top <= 1), (sp.Eq(xor, 0), True)), tuple("abcd"[:dims]))
    branches = [Branch((BitXor(HEAP, xor),), per_heap=True), Branch((0,), per_heap=True),
                Branch((1,), per_heap=True)]
    return rule, branches


@pytest.mark.parametrize("filled", [0, 300, 4096])
def test_known_labels_give_the_rule_s_verdicts(filled):
    """Labelled ids read, unlabelled ones (``filled`` < the box) and moves beyond the box (a relation that lets
    a heap grow) judged by the rule: the misses and the moves are the plain ones."""
    rule, branches = _misere_nim(3)
    universe = Universe.box(3, 15)
    growing = Steps(((1, 0, 0), (0, 1, 0), (0, 0, 1), (-1, 0, 0)))  # heap a may also grow by any amount
    known = KnownLabels(rule, universe)
    known.fill(0, rule.predicate(universe.positions(np.arange(filled))))
    rng = np.random.default_rng(1)
    ids = rng.choice(universe.size, 600, replace=False)
    positions = universe.positions(ids)
    for relation, extra in ((take_from_one(3), []), (growing, [Branch((HEAP + 20,), per_heap=True)]),
                            (growing, [Branch((sp.Symbol("a") + 3, sp.Symbol("b"), sp.Symbol("c")))])):
        strategy = Strategy(rule, relation, extra + branches)
        plain = strategy.misses(positions)
        assert np.array_equal(strategy.misses(positions, known, ids), plain)
        assert 0 < plain.sum() < len(plain)  # both verdicts occur


def test_known_labels_need_ids_and_are_filled_in_order():
    rule, branches = _misere_nim(2)
    known = KnownLabels(rule, Universe.box(2, 4))
    with pytest.raises(ValueError, match="fill in order"):
        known.fill(3, np.ones(2, dtype=bool))
    with pytest.raises(ValueError, match="ids of the positions"):
        Strategy(rule, take_from_one(2), branches).misses(np.array([[1, 2]]), known)


def test_check_strategy_finds_the_same_gaps_with_and_without_labels(monkeypatch):
    """A strategy with gaps (the misère move without "leave 1"): the same first gaps, in id order."""
    game = make_game("nim", heaps=3, misere=True)
    rule, branches = _misere_nim(3)
    strategy = Strategy(rule, game.move_relation(), branches[:2])
    monkeypatch.setattr(find_strategy_module, "CHECK_BLOCK", 1000)  # several blocks: moves into earlier ones
    fast = check_strategy(strategy, game, 20, most=50)
    monkeypatch.setattr(find_strategy_module, "KNOWN_POSITIONS", 0)
    plain = check_strategy(strategy, game, 20, most=50)
    assert len(fast) == 50 and np.array_equal(fast, plain)
    assert len(check_strategy(Strategy(rule, game.move_relation(), branches), game, 20)) == 0


def test_tabled_reads_what_the_function_gives_inside_and_outside_the_universe():
    universe = Universe.box(2, 6)
    calls = []

    def xor(X):
        calls.append(len(X))
        return X[:, 0] ^ X[:, 1]

    read = tabled(xor, universe)
    X = np.array([[3, 5], [6, 6], [7, 1], [0, 9], [2, 2]])
    assert read(X).tolist() == (X[:, 0] ^ X[:, 1]).tolist()
    assert calls == [universe.size, 2]  # the table once, then only the two positions outside the box
    assert tabled(xor, Universe.box(3, 20)) is xor  # too large: the function itself
