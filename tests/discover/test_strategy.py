"""Strategies: playing, printing, JSON, discovery over the game's moves, and the agent that plays them.

Moves are checked against the solver (every N position of a bound gets a move into a solver-P
position) and against the closed forms far beyond the bound, never against the rule's own say.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import sympy as sp

from discover.expr.nodes import BitXor, DigitSum, digit_sum
from discover.expr.tree import from_tree, to_tree
from discover.find_strategy import check_strategy, find_strategy
from discover.rule import Rule
from discover.strategy import HEAP, Branch, Strategy
from games import make_game
from learners import OptimalAgent, match
from learners.strategy_agent import StrategyAgent
from solvers import solve

S = sp.Symbol


def nim(heaps=3):
    game = make_game("nim", heaps=heaps)
    rule = Rule(sp.Eq(S("xor_all"), 0), game.feature_names)
    return game, Strategy(rule, game.move_relation(), [Branch((BitXor(HEAP, S("xor_all")),), per_heap=True)])


def test_nim_strategy_moves_into_the_solvers_p_positions():
    game, strategy = nim()
    solution = solve(game, bound=15)
    positions = solution.universe.positions()
    n_positions = positions[solution.outcome_table == 1]
    moved = strategy.moves(n_positions)
    assert (moved >= 0).all()
    assert (solution.outcome(moved) == -1).all()
    assert game.move_relation().allows(n_positions, moved).all()
    p_positions = positions[solution.outcome_table == -1]
    assert (strategy.moves(p_positions) == -1).all()
    with pytest.raises(ValueError, match="no move into a P position"):
        strategy.move((1, 2, 3))
    assert strategy.move((1, 2, 4)) == (1, 2, 3)


def test_text_latex_and_json_round_trip():
    game, strategy = nim()
    assert strategy.text() == "take h_j - (h_j ⊕ s) from a heap j where h_j ⊕ s < h_j, s = a ⊕ b ⊕ c"
    assert strategy.latex() == r"h_{j} \to h_{j} \oplus s, \quad s = a \oplus b \oplus c"
    back = Strategy.from_json(strategy.to_json())
    assert back.branches == strategy.branches and back.relation == strategy.relation
    assert back.rule.expr == strategy.rule.expr and back.text() == strategy.text()
    wythoff = make_game("wythoff")
    diagonal = S("min_all") - sp.floor(sp.GoldenRatio * S("spread"))
    rule = Rule(sp.Eq(S("min_all"), sp.floor(sp.GoldenRatio * S("spread"))), ("a", "b"))
    two = Strategy(rule, wythoff.move_relation(), [Branch((S("a") - diagonal, S("b") - diagonal)),
                                                   Branch((S("a"), sp.floor(sp.GoldenRatio * S("a")) + 1))])
    assert Strategy.from_json(json.loads(two.to_json())).branches == two.branches
    assert two.text().startswith("the first legal move into a P position among: (1) (a, b) → (a - s + ⌊φ·t⌋")


@pytest.mark.parametrize("tree", [
    ["Symbol", "__import__('os').system('true')"], ["Eval", ["Integer", 1]], ["Integer", "1"], ["Integer", True],
    ["Add"], "a + b", ["Contains", ["Symbol", "n"], ["0"]], ["Rational", 1, 0],
])
def test_expression_trees_are_parsed_against_a_whitelist(tree):
    with pytest.raises(ValueError):
        from_tree(tree)


def test_expression_trees_round_trip():
    n, a, b = S("n"), S("a"), S("b")
    for expr in [sp.Contains(sp.Mod(n, 7), sp.FiniteSet(0, 2)), sp.floor(sp.GoldenRatio * sp.Abs(a - b)),
                 sp.Piecewise((sp.Eq(a, 1), sp.Le(b, 1)), (sp.Eq(a, 0), True)), DigitSum(3, a, b, n),
                 sp.floor(a / 3) + sp.Rational(1, 2) * b, sp.Min(a, b) ** 2]:
        assert from_tree(json.loads(json.dumps(to_tree(expr)))) == expr


def test_digit_sums_against_brute_force():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2**20, size=(500, 4))
    assert np.array_equal(digit_sum(2, X), np.bitwise_xor.reduce(X, axis=1))
    for m in (3, 4, 5):
        want = [sum((sum((int(x) >> b) & 1 for x in row) % m) * m**b for b in range(21)) for row in X]
        assert digit_sum(m, X).tolist() == want
    assert int(DigitSum(3, *[int(x) for x in X[0]])) == want[0] if m == 3 else True
    with pytest.raises(ValueError, match="exceed int64"):
        digit_sum(4, np.array([[2**40, 1]]))
    with pytest.raises(ValueError, match="non-negative"):
        digit_sum(3, np.array([[-1, 1]]))


@pytest.mark.parametrize("name, params, expr, bound", [
    ("subtraction", {"subtract": (1, 2, 3)}, sp.Eq(sp.Mod(S("n"), 4), 0), 40),
    ("subtraction", {"subtract": (2, 3, 7)}, sp.Contains(sp.Mod(S("n"), 5), sp.FiniteSet(0, 1)), 40),
    ("nim", {"heaps": 2}, sp.Eq(S("spread"), 0), 40),
    ("chomp", {"rows": 2}, sp.Eq(S("spread"), 1), 40),
    ("moore", {"heaps": 3, "k": 2}, sp.Eq(S("spread"), 0), 12),
])
def test_find_strategy_and_check_it_against_the_solver(name, params, expr, bound):
    game = make_game(name, **params)
    strategy = find_strategy(Rule(expr, game.feature_names), game, bound=bound, train_bound=6)
    assert strategy is not None and strategy.checked_bound == bound
    solution = solve(game, bound=bound + bound // 2)  # beyond the check bound
    positions = solution.universe.positions()
    n_positions = positions[solution.outcome_table == 1]
    moved = strategy.moves(n_positions)
    assert (moved >= 0).all() and (solution.outcome(moved) == -1).all()
    assert len(check_strategy(strategy, game, bound + bound // 2)) == 0


def test_check_strategy_lists_the_gaps():
    game = make_game("subtraction", subtract=(1, 2, 3))
    rule = Rule(sp.Eq(sp.Mod(S("n"), 4), 0), ("n",))
    only_one = Strategy(rule, game.move_relation(), [Branch((S("n") - 1,))])
    assert check_strategy(only_one, game, 12)[:, 0].tolist() == [2, 3, 6, 7, 10, 11]


def test_find_strategy_refuses_what_it_cannot_search():
    grundy = make_game("lasker")
    with pytest.raises(ValueError, match="single positions"):
        find_strategy(Rule(sp.Eq(S("n"), 0), ("n",)), grundy)
    with pytest.raises(ValueError, match="P rule"):
        find_strategy(Rule(sp.Eq(S("n"), 0), ("n",), target="grundy"), make_game("subtraction"))


def _take12(relation=None):
    from games import custom_game

    return custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1, relation=relation)


def test_a_custom_game_with_a_relation_gets_a_strategy():
    from games.symbolic import take_from_one

    game = _take12(take_from_one(1, (1, 2)))
    strategy = find_strategy(Rule(sp.Eq(sp.Mod(S("a"), 3), 0), ("a",)), game)
    assert strategy is not None and strategy.relation == game.move_relation()
    solution = solve(game, bound=strategy.checked_bound)
    n = solution.universe.positions(np.flatnonzero(solution.outcome_table == 1))
    assert (solution.outcome(strategy.moves(n)) == -1).all()


def test_a_custom_game_without_a_relation_gets_a_strategy_over_its_moves():
    from discover.strategy import MovesOf

    game = _take12()
    strategy = find_strategy(Rule(sp.Eq(sp.Mod(S("a"), 3), 0), ("a",)), game)
    assert isinstance(strategy.relation, MovesOf) and strategy.text() == "a → a - a mod 3"
    solution = solve(game, bound=strategy.checked_bound)
    n = solution.universe.positions(np.flatnonzero(solution.outcome_table == 1))
    assert (solution.outcome(strategy.moves(n)) == -1).all()
    record = strategy.to_json()
    assert Strategy.from_json(record, game=game).moves(n).tolist() == strategy.moves(n).tolist()
    with pytest.raises(ValueError, match="pass that game"):
        Strategy.from_json(record)
    # a move moves() does not give is illegal, whatever the rule says of where it leads
    assert MovesOf(game).allows(np.array([[5], [5], [0]]), np.array([[3], [2], [0]])).tolist() == [True, False, False]


def test_strategy_agent_never_loses_to_the_optimal_player():
    game, strategy = nim()
    solution = solve(game, bound=7)
    rng = np.random.default_rng(1)
    n_ids = np.flatnonzero(solution.outcome_table == 1)
    starts = [tuple(p) for p in solution.universe.positions(np.sort(rng.choice(n_ids, 60, replace=False))).tolist()]
    result = match(game, StrategyAgent(strategy), OptimalAgent(solution), starts, seed=1)
    assert result["wins"] == 60 and result["losses"] == 0
    with pytest.raises(TypeError, match="moves"):
        StrategyAgent(lambda p: p)


def test_strategy_agent_weights_pick_the_strategy_move():
    from learners import Arena

    game, strategy = nim(2)
    arena = Arena(game, bound=5)
    weights = StrategyAgent(strategy).edge_weights(arena)
    sources = arena.universe.positions()[arena.sources]
    targets = arena.universe.positions(arena.targets)
    chosen = weights > 0
    n_rows = np.bitwise_xor.reduce(sources, axis=1) != 0
    assert (np.bitwise_xor.reduce(targets[chosen & n_rows], axis=1) == 0).all()
    assert chosen[~n_rows].all()  # from a P position every move is allowed


@pytest.mark.slow
def test_unit_step_games_fit_heap_moves_only(monkeypatch):
    """Misère Nim on 3 heaps (`discover nim heaps=3 misere=true --bound 5`) searched without the theorems' moves:
    its steps are unit vectors, so a step along one is a heap move the pooled heap fit already covers; the
    per-vector step fits (most of the search's time before) are skipped and a strategy is still found."""
    import discover.find_strategy as module
    from discover import find_rule

    def refuse(*args):
        raise AssertionError("a per-vector step fit ran for a game whose steps are unit vectors")

    monkeypatch.setattr(module._Search, "_fit_steps", refuse)
    monkeypatch.setattr(module, "theorem_strategies", lambda *args: [])
    found = find_rule(make_game("nim", heaps=3, misere=True), bound=5, prove=False)
    assert found.strategy is not None and "theorem" not in found.strategy.provenance
    assert found.strategy.text().startswith("the first legal move into a P position among: (1) take h_j - (h_j ⊕ t)")
    assert_wins_against_the_solver(found.strategy, found.game, found.strategy.checked_bound + 4)


def assert_wins_against_the_solver(strategy, game, bound):
    """From every N position of the solver's up to ``bound``, the strategy's move is legal and lands in a
    solver-P position."""
    solution = solve(game, bound=bound)
    positions = solution.universe.positions()
    n_positions = _playable(game, positions[solution.outcome_table == 1])
    moved = strategy.moves(n_positions)
    assert (moved >= 0).all()
    assert game.move_relation().allows(n_positions, moved).all()
    assert (solution.outcome(moved) == -1).all()


def _playable(game, positions):
    counts, _ = game.option_block(positions)
    return positions[counts > 0]


WYTHOFF = sp.Eq(S("min_all"), sp.floor(sp.GoldenRatio * S("spread")))
MISERE_WYTHOFF = sp.Piecewise((sp.Ne(S("min_all"), S("spread")), sp.Eq(S("max_all"), S("nonzero"))), (WYTHOFF, True))
MISERE_NIM = sp.Piecewise((sp.Eq(S("xor_all"), 1), S("max_all") <= 1), (sp.Eq(S("xor_all"), 0), True))
EUCLID = sp.Piecewise((True, sp.Eq(S("min_all"), 0)), (False, sp.Eq(S("spread"), 0)),
                      (S("max_all") <= sp.floor(sp.GoldenRatio * S("min_all")), True))


@pytest.mark.parametrize("name, params, expr, theorem, branches, bound", [
    ("nim", {"heaps": 3}, sp.Eq(S("xor_all"), 0), "the nim-sum move", 1, 20),
    ("nim", {"heaps": 2}, sp.Eq(S("spread"), 0), "the nim-sum move", 1, 30),
    ("nim", {"heaps": 3, "misere": True}, MISERE_NIM, "Bouton's misère Nim move", 3, 20),
    ("nim", {"heaps": 4, "misere": True}, MISERE_NIM, "Bouton's misère Nim move", 3, 9),
    ("staircase", {"stairs": 3}, sp.Eq(S("s1"), S("s3")), "the nim-sum move", 2, 10),
    ("wythoff", {}, WYTHOFF, "Wythoff's pairs", 5, 60),
    ("wythoff", {"misere": True}, MISERE_WYTHOFF, "Wythoff's pairs", 8, 60),
    ("moore", {"heaps": 3, "k": 2}, sp.Eq(S("spread"), 0), "Moore's pair moves", 3, 12),
    ("moore", {"heaps": 4, "k": 2}, sp.Eq(S("dsum3_all"), 0), "Moore's pair moves", 12, 7),
    ("euclid", {}, EUCLID, "Euclid's remainder moves", 4, 60),
])
def test_the_theorems_moves_win_against_the_solver(name, params, expr, theorem, branches, bound):
    game = make_game(name, **params)
    strategy = find_strategy(Rule(expr, game.feature_names), game, bound=bound, train_bound=min(bound, 6))
    assert strategy.provenance["theorem"].startswith(theorem) and len(strategy.branches) == branches
    assert strategy.checked_bound == bound
    assert_wins_against_the_solver(strategy, game, bound + bound // 2)  # beyond the check bound


def test_misere_nim_in_bouton_s_words():
    game = make_game("nim", heaps=3, misere=True)
    strategy = find_strategy(Rule(MISERE_NIM, game.feature_names), game, bound=12, train_bound=5)
    assert strategy.text() == ("the first legal move into a P position among: (1) take h_j - (h_j ⊕ s) from a heap j "
                               "where h_j ⊕ s < h_j; (2) empty a heap j; (3) leave 1 in a heap j where 1 < h_j, "
                               "s = a ⊕ b ⊕ c")


def test_a_theorem_s_moves_that_fail_are_never_claimed(monkeypatch):
    """Moves that are legal but miss P positions somewhere (heap to 0, then heap to 1) are checked and refused; the
    search then finds a strategy that holds, and no false winning strategy is reported."""
    import discover.find_strategy as module

    wrong = [Branch((0,), per_heap=True), Branch((1,), per_heap=True)]
    monkeypatch.setattr(module, "theorem_strategies", lambda *args: [("a wrong theorem", wrong)])
    game = make_game("nim", heaps=2)
    strategy = find_strategy(Rule(sp.Eq(S("spread"), 0), game.feature_names), game, bound=20, train_bound=6)
    assert strategy is not None and "theorem" not in strategy.provenance
    assert strategy.branches != wrong
    assert_wins_against_the_solver(strategy, game, 30)
    only_wrong = Strategy(Rule(sp.Eq(S("spread"), 0), game.feature_names), game.move_relation(), wrong)
    assert len(check_strategy(only_wrong, game, 20)) > 0


def test_the_check_stops_at_the_first_gaps_and_skips_terminal_positions():
    game = make_game("subtraction", subtract=(1, 2, 3))
    rule = Rule(sp.Eq(sp.Mod(S("n"), 4), 0), ("n",))
    only_one = Strategy(rule, game.move_relation(), [Branch((S("n") - 1,))])
    assert check_strategy(only_one, game, 400, most=1)[:, 0].tolist() == [2]
    assert check_strategy(only_one, game, 400, most=3)[:, 0].tolist() == [2, 3, 6]
    misere = make_game("nim", heaps=2, misere=True)  # (0, 0): N in misère play, and no move is needed there
    never = Strategy(Rule(MISERE_NIM, misere.feature_names), misere.move_relation(), [Branch((S("a") + 1, S("b")))])
    gaps = check_strategy(never, misere, 3).tolist()
    assert len(gaps) == 16 - 4 - 1 and [0, 0] not in gaps  # P: (0, 1), (1, 0), (2, 2), (3, 3); (0, 0) is terminal
    assert check_strategy(never, misere, 3, most=1).tolist() == gaps[:1]


def test_the_strategy_check_bound_stays_within_the_verified_bound():
    game = make_game("nim", heaps=3)
    strategy = find_strategy(Rule(sp.Eq(S("xor_all"), 0), game.feature_names), game, verified_bound=40)
    assert strategy.checked_bound == 40


@pytest.mark.parametrize("values, per_heap", [((S("a"), S("b") - 2), False), ((HEAP - 5,), True)])
def test_a_move_to_a_negative_coordinate_is_never_a_strategy_move(values, per_heap):
    """``misses`` is True exactly where ``moves`` gives -1, whatever the relation says of a candidate that leaves a
    coordinate below 0 (Chomp's relation allowed a row cut to -1; ``misses`` took it for a move, ``moves`` gave -1)."""
    game = make_game("chomp", rows=2)
    positions = game.universe(8).positions()
    rule = Rule(S("b") < 0, game.feature_names)  # P only where a row is below 0
    strategy = Strategy(rule, game.move_relation(), [Branch(values, per_heap=per_heap)])
    moved = strategy.moves(positions)
    assert (strategy.misses(positions) == (moved < 0).any(axis=1)).all()
    assert strategy.misses(positions).all()
