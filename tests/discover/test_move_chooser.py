"""A custom game's strategy when no formula is found: a move chooser over ``moves()``, checked on the verification
bound, said to be no formula, never used by a proof, and claiming nothing beyond its bound."""

from __future__ import annotations

import json

import numpy as np
import pytest
import sympy as sp

import discover.find_strategy
from discover.app.render.proof import strategy_and_proof_blocks
from discover.find import FindSettings, find_rule
from discover.move_chooser import MoveChooser
from discover.rule import Rule
from games import custom_game, make_game
from solvers import solve

SMALL = FindSettings(bound=30, verify_bound=300, games=10, proof_seconds=20)
MOD3 = Rule(sp.Eq(sp.Mod(sp.Symbol("a"), 3), 0), ("a",))


def take12_then_3(p):
    """Take 1 or 2; from n >= 5000 also 3 (then n mod 3 = 0 is no longer P: 5001 → 4998)."""
    return [(p[0] - t,) for t in (1, 2, 3) if t <= p[0] and (t < 3 or p[0] >= 5000)]


@pytest.fixture
def no_formula(monkeypatch):
    """The formula search finds nothing (as it does for a rule whose moves no short expression gives)."""
    monkeypatch.setattr(discover.find_strategy, "find_strategy", lambda *args, **kwargs: None)


def test_a_chooser_moves_into_p_and_finds_the_gaps_of_a_wrong_rule():
    game = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1)
    chooser = MoveChooser(MOD3, game)
    assert chooser.moves(np.array([[0], [3], [4], [5], [100]])).ravel().tolist() == [-1, -1, 3, 3, 99]
    assert chooser.move((8,)) == (6,) and len(chooser.check(200)) == 0
    with pytest.raises(ValueError, match="no option of"):
        chooser.move((6,))
    wrong = MoveChooser(Rule(sp.Eq(sp.Mod(sp.Symbol("a"), 4), 0), ("a",)), game)  # 3 has no option ≡ 0 mod 4
    assert wrong.check(20).ravel().tolist()[:3] == [3, 7, 11]
    assert "not a formula" in chooser.text()
    with pytest.raises(ValueError, match="P rule"):
        MoveChooser(Rule(sp.Mod(sp.Symbol("a"), 3), ("a",), "grundy"), game)


def test_a_chooser_record_names_its_game():
    game = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1)
    record = MoveChooser(MOD3, game, 300).to_json()
    assert MoveChooser.from_json(record, game).move((5,)) == (3,)
    other = custom_game("take13", lambda p: [(p[0] - t,) for t in (1, 3) if t <= p[0]], 1)
    with pytest.raises(ValueError, match="is for the game"):
        MoveChooser.from_json(record, other)
    with pytest.raises(ValueError, match="not a move chooser record"):
        MoveChooser.from_json({**json.loads(record), "kind": "sum of components"}, game)
    with pytest.raises(ValueError, match="checked_bound"):
        MoveChooser.from_json({**json.loads(record), "checked_bound": -1}, game)


def test_with_no_formula_a_custom_rule_gets_a_chooser_that_claims_nothing_beyond_the_box(no_formula):
    """The moves change beyond the box (take 3 too from 5000 on): the chooser is checked on 300, the proof is for
    the inferred relation on that box and does not use the chooser, and beyond the box it plays a losing move."""
    game = custom_game("take12-then-3", take12_then_3, 1)
    found = find_rule(game, settings=SMALL)
    chooser = found.strategy
    assert found.status == "verified" and isinstance(chooser, MoveChooser) and chooser.checked_bound == 300
    assert found.strategy_check.name == "strategy self-play" and found.strategy_check.passed
    assert any("move chooser" in note and "up to bound 300" in note for note in found.notes)
    proof = found.proof
    assert proof.status == "proved" and "with the strategy" not in proof.method
    assert proof.statement.endswith("which agrees with moves() on every position up to 300")
    assert "Strategy: move to the first option of take12-then-3's moves() that the rule calls P (a move chooser " \
           "that lists the options, not a formula)\n  a winning move from every N position up to bound 300 " \
           "(checked)" in found.summary()
    record = json.loads(json.dumps(found.to_record()))
    assert record["strategy"]["kind"] == "move chooser" and record["strategy"]["checked_bound"] == 300
    assert MoveChooser.from_json(record["strategy"], found.game).move((7,)) == (6,)
    assert chooser.move((5005,)) == (5004,) and solve(game, bound=5005).outcome_table[5004] == 1  # a losing move there
    text = " ".join(str(part) for block in strategy_and_proof_blocks(found) for part in block[1:]
                    if isinstance(part, (str, list)))
    assert "a move chooser (no formula)" in text and "no proof uses it" in text


def test_without_a_relation_the_chooser_rests_on_moves_within_the_bound(no_formula):
    found = find_rule(custom_game("take12", take12_then_3, 1),
                      settings=FindSettings(bound=30, verify_bound=300, games=10, infer_relation=False))
    assert isinstance(found.strategy, MoveChooser) and found.strategy.checked_bound == 300
    assert found.proof.status == "unknown"


def test_a_built_in_game_gets_no_chooser(no_formula):
    found = find_rule(make_game("subtraction", subtract=(1, 2)), settings=SMALL)
    assert found.strategy is None and any("hypothesis agent plays any move into P" in n for n in found.notes)
