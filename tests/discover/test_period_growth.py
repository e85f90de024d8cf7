"""One-heap periods longer than the training bound: the table grows until its period settles, the rule is
verified far beyond it; near misses are refuted or left unproved, never proved."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from discover.find import FindSettings, find_rule
from discover.period_growth import settled_bound
from discover.proofs.prove import prove_rule
from discover.rule import Rule
from discover.verify import verify_rule
from games import custom_game
from games.declared import declared_game
from solvers import solve
from solvers.periods.sequences import settled_period

SUBTRACT = (1, 3, 4, 180)


def subtraction(extra=None):
    """Subtraction {1, 3, 4, 180} as a custom game, with ``extra[n]`` one more option of heap n."""
    extra = extra or {}
    return custom_game("s1-3-4-180", lambda p: [(p[0] - t,) for t in SUBTRACT if t <= p[0]]
                       + [(m,) for m in extra.get(p[0], ())], 1)


def p_table(game, bound):
    return (solve(game, bound=bound).outcome_table == -1).astype(np.int64)


def test_its_p_positions_have_period_183():
    assert settled_period(p_table(subtraction(), 2000)) == (0, 183)


def test_the_table_grows_until_the_period_settles():
    assert settled_bound(subtraction(), 480) == 1920
    assert settled_bound(subtraction(), 480, limit=1000) is None


def test_settled_bound_refuses_bad_input():
    with pytest.raises(ValueError, match="one-heap and two-heap"):
        settled_bound(custom_game("triple", lambda p: [], 3), 10)
    with pytest.raises(ValueError, match="bound must be a positive integer"):
        settled_bound(subtraction(), 0)


def test_find_rule_finds_period_183_and_verifies_it_far_beyond():
    found = find_rule(subtraction(), settings=FindSettings(games=4))
    assert found.status == "verified"
    assert found.train_bound == 1920 and found.verified_bound == 19200
    assert found.rule.text().startswith("a mod 183 ∈ {0, 2, 7, 9,")
    heaps = np.arange(20000)[:, None]
    assert np.array_equal(found.rule.predicate(heaps), p_table(subtraction(), 19999).astype(bool))
    # moves() states no relation: one is inferred on the verification box, and the proof rests on it, saying so
    assert found.proof.status == "proved" and found.proof.rests_on["agrees_with_moves_up_to"] == 19200
    assert found.proof.statement.endswith("which agrees with moves() on every position up to 19,200")


def test_a_move_planted_inside_the_verification_bound_is_not_verified():
    planted = subtraction({4941: (0,)})  # heap 4941 = 27 * 183 (P by the period) gets a move to 0 (P)
    assert p_table(subtraction(), 4941)[4941] == 1
    found = find_rule(planted, settings=FindSettings(games=0, prove=False, strategy=False))
    assert found.status != "verified"


@pytest.mark.slow
def test_an_exception_planted_beyond_the_bound_is_not_proved():
    game = declared_game({"name": "s1-3-4-180", "heaps": 1, "moves": [{"take": list(SUBTRACT)}]})
    a = sp.Symbol("a")
    residues = np.flatnonzero(p_table(game, 182)).tolist()
    period = sp.Contains(sp.Mod(a, 183), sp.FiniteSet(*residues), evaluate=False)
    rule = Rule(sp.Or(period, sp.Eq(a, 50_000)), ("a",))  # 50,000 = 273 * 183 + 41: an N position called P
    assert 41 not in residues and all(c.passed for c in verify_rule(rule, game, 2000, games=0, play=False))
    proof = prove_rule(rule, game, time_budget=10)
    assert proof.status in ("disproved", "unknown"), proof


def test_the_growth_stops_before_a_graph_past_its_budget_of_moves():
    """Take at most half (heap n: n / 2 options, no period): the growth stops where the next graph would have
    more than GROWTH_MOVES moves, long before a table whose graph would not fit in memory."""
    from discover import period_growth
    from solvers.graph import estimated_moves

    half = declared_game({"name": "half", "heaps": 1, "moves": [{"take": {"up_to": "half"}}]})
    seen = []
    assert settled_bound(half, 480, progress=seen.append) is None
    assert seen[-1].startswith(f"no period settled on graphs of up to {period_growth.GROWTH_MOVES:,} moves")
    last = int(seen[-1].split("(bound ")[1].split()[0])
    assert estimated_moves(half, half.universe(last)) > period_growth.GROWTH_MOVES
    assert estimated_moves(half, half.universe(last // 2)) <= period_growth.GROWTH_MOVES
