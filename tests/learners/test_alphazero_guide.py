"""A rule guiding AlphaZero's search (``learners.alphazero.guide``): the prior it mixes, its confidence, a guided fit."""

from __future__ import annotations

import numpy as np
import pytest

from games import make_game
from learners.alphazero.guide import GuideSettings, RuleGuide, RuleMover
from learners.arena import Arena
from solvers import solve

pytest.importorskip("torch")


def xor_rule(positions):
    return np.bitwise_xor.reduce(np.asarray(positions), axis=1) == 0


def test_the_prior_mixes_the_rules_winning_moves_at_the_weight():
    guide = RuleGuide(xor_rule)
    counts = np.array([3, 2])
    options = np.array([[0, 2], [1, 1], [1, 0], [0, 1], [1, 3]])  # (1, 1) is P; the second position's options: none
    logits = np.array([0.0, 1.0, 2.0, 0.5, -0.5])
    p = np.exp(logits - np.repeat([2.0, 0.5], counts))
    p /= np.repeat(np.add.reduceat(p, [0, 3]), counts)
    for w in (0.0, 0.3, 1.0):
        mixed = np.exp(guide.prior(counts, options, logits, w))
        want = p.copy()
        want[:3] = (1 - w) * p[:3] + w * np.array([0.0, 1.0, 0.0])
        assert np.allclose(mixed, want, atol=1e-9)
        assert np.allclose(np.add.reduceat(mixed, [0, 3]), 1.0)


def test_the_weight_grows_with_the_rules_record_and_stays_below_the_limit():
    guide = RuleGuide(xor_rule, GuideSettings(limit=0.5, steepness=20, threshold=0.9))
    weights = [guide.weight]
    for won in (10, 100, 1000):
        guide.wins, guide.games = won, won
        weights.append(guide.weight)
    assert weights == sorted(weights) and weights[0] < 1e-6 and weights[-1] < 0.5
    guide.wins, guide.games = 500, 1000  # a rule that loses half its claimed games gains nothing
    assert guide.weight < 1e-3


def test_the_rules_agent_moves_into_p_and_scores_itself_against_the_learner():
    game = make_game("nim", heaps=3)
    chosen = RuleMover(game, xor_rule).choose(np.array([[1, 2, 4], [3, 5, 7]]), 0, np.random.default_rng(0))
    assert xor_rule(chosen).all()


@pytest.mark.parametrize("bad", [{"limit": 0}, {"limit": 1.2}, {"steepness": -1}, {"threshold": 2}, {"games": 0}])
def test_guide_settings_are_checked(bad):
    with pytest.raises(ValueError):
        GuideSettings(**bad)


def test_an_arena_takes_a_solution_over_the_positions_reachable_from_a_start():
    game = make_game("nim", heaps=3)
    solution = solve(game, starts=[(1, 2, 3)])
    arena = Arena(game, 3, solution)
    assert arena.size == 2 * 3 * 4 and (arena.outcome == -1).sum() == 6
    with pytest.raises(ValueError, match="not nim"):
        Arena(game, 2, solution)  # a heap of 3 lies outside [0, 2]


def _fit(guide, seed=0, **extra):
    from learners.alphazero.learner import AlphaZeroLearner

    game = make_game("nim", heaps=3)
    solution = solve(game, starts=[(1, 3, 5)])
    learner = AlphaZeroLearner(hidden=(8,), random_state=seed)
    return learner.fit(game, start=(1, 3, 5), iterations=2, games_per_iteration=6, simulations=6, eval_games=6,
                       random_openings=2, solution=solution, guide=guide, **extra)


def _numbers(history):
    return [{k: v for k, v in r.items() if "seconds" not in k} for r in history]


def test_a_guided_fit_records_the_rule_and_is_the_same_for_a_seed():
    runs = [_fit(RuleGuide(xor_rule, GuideSettings(games=8), "xor")) for _ in range(2)]
    first = runs[0].history_
    assert _numbers(first) == _numbers(runs[1].history_)
    assert first[0]["guide_weight"] < 1e-6 and first[0]["guide_claimed"] > 0
    assert first[0]["guide_won"] == first[0]["guide_claimed"]  # a correct rule's strategy never loses where it claims
    assert {"guided_score_optimal_first", "guided_score_optimal_second", "optimal_move_rate"} <= set(first[-1])
    unguided = _fit(None).history_
    assert "guide_weight" not in unguided[-1] and "guided_score_optimal_first" not in unguided[-1]


def test_the_guided_search_uses_the_mixed_prior():
    from learners.alphazero.mcts import Forest

    learner = _fit(None)
    game, guide = learner.game_, RuleGuide(xor_rule)
    guide.wins = guide.games = 2000
    forest = Forest(game, 1, 4, learner.width_, "puct", 1.5)
    root = np.array([[1, 3, 5]])
    plain = forest.search(root, learner.policy_value_, 4, np.random.default_rng(0))
    guided = forest.search(root, guide.evaluator(learner.policy_value_, game), 4, np.random.default_rng(0))
    k = plain.counts[0]
    win = xor_rule(plain.options[0, :k])
    want = (1 - guide.weight) * plain.priors[0, :k] + guide.weight * win / win.sum()
    assert np.allclose(guided.priors[0, :k], want)


def test_a_guide_refuses_shards():
    with pytest.raises(ValueError, match="leave out shards"):
        _fit(RuleGuide(xor_rule), shards=2)


def test_a_guided_run_resumes_from_its_checkpoint(tmp_path):
    from learners.alphazero.learner import AlphaZeroLearner

    game = make_game("nim", heaps=3)
    solution = solve(game, starts=[(1, 3, 5)])
    fit = dict(start=(1, 3, 5), games_per_iteration=4, simulations=4, eval_games=4, solution=solution)
    straight = AlphaZeroLearner(hidden=(8,)).fit(game, iterations=2, guide=RuleGuide(xor_rule, name="x"), **fit)
    path = tmp_path / "ck.npz"
    AlphaZeroLearner(hidden=(8,)).fit(game, iterations=1, checkpoint=path, guide=RuleGuide(xor_rule, name="x"), **fit)
    resumed = AlphaZeroLearner(hidden=(8,)).fit(game, iterations=2, checkpoint=path, guide=RuleGuide(xor_rule, name="x"),
                                                **fit)
    assert _numbers(resumed.history_) == _numbers(straight.history_)
