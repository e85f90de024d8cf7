"""``check_learner``: the learner contract as named checks a user can run on their own learner.

In the manner of scikit-learn's ``check_estimator``: ``learner_checks(learner, game)`` yields
``(name, check)`` pairs (each ``check()`` raises ``AssertionError`` naming what broke), and
``check_learner(learner, game)`` runs them all, each failure raised as ``AssertionError`` with the
check's name in front. Budgets are tiny (``Learner.budget(GAMES, arena)``): the checks test the
contract, not how well the learner learns.
"""

from __future__ import annotations

import inspect

import numpy as np

__all__ = ["check_learner", "learner_checks", "GAMES"]

GAMES = 24  # games of a check's fit


def _bound(game) -> int:
    return {1: 12, 2: 5}.get(game.dims, 2)


def learner_checks(learner, game=None):
    """The named checks of ``learner`` on ``game`` (default: three-heap Nim), as ``(name, check)`` pairs.

    Examples
    --------
    >>> from learners import QLearner
    >>> [name for name, _ in learner_checks(QLearner())][:3]
    ['constructor_stores_parameters', 'clone_is_unfitted_and_equal', 'policy_before_fit_refused']
    """
    from games import make_game
    from learners.arena import Arena

    game = make_game("nim", heaps=3) if game is None else game
    fitted = {}

    def fit(seed: int = 0):
        if seed not in fitted:
            from sklearn.base import clone

            bound = _bound(game)
            arena = Arena(game, bound)
            fresh = clone(learner).set_params(random_state=seed)
            result = fresh.fit(game, bound=bound, solution=arena.solution, **fresh.budget(GAMES, arena))
            assert result is fresh, f"fit returned {type(result).__name__}, not the learner"
            fitted[seed] = fresh
        return fitted[seed]

    def constructor_stores_parameters():
        signature = inspect.signature(type(learner).__init__)
        params = [p for p in signature.parameters.values() if p.name != "self"]
        positional = [p.name for p in params if p.kind is not inspect.Parameter.KEYWORD_ONLY]
        assert not positional, f"constructor parameters must be keyword-only: {positional}"
        missing = [p.name for p in params if p.default is inspect.Parameter.empty]
        assert not missing, f"every constructor parameter needs a default: {missing}"
        assert "random_state" in signature.parameters, "the constructor takes no random_state"
        assert set(learner.get_params()) == {p.name for p in params}, "get_params does not list the constructor's"

    def clone_is_unfitted_and_equal():
        from sklearn.base import clone

        copy = clone(learner)
        assert copy is not learner and _same(copy.get_params(), learner.get_params()), "clone changed the parameters"
        assert not [k for k in vars(copy) if k.endswith("_") and not k.startswith("_")], "clone carries fitted state"
        changed = clone(learner).set_params(random_state=7)
        assert changed.random_state == 7, "set_params(random_state=7) did not set it"

    def policy_before_fit_refused():
        from sklearn.base import clone

        try:
            clone(learner).policy()
        except ValueError:
            return
        raise AssertionError("policy() of an unfitted learner must raise ValueError")

    def fit_returns_the_learner():
        fit(0)

    def history_records():
        history = fit(0).history_
        assert isinstance(history, list) and history, "history_ must be a non-empty list of records"
        assert all(isinstance(r, dict) and r for r in history), "each history_ record must be a non-empty dict"
        episodes = [r.get("episode") for r in history]
        assert all(isinstance(e, int) for e in episodes), "each record names its episode: the games played so far"
        assert episodes == sorted(episodes), "the records' episodes must not decrease"

    def value_table_covers_the_universe():
        fitted_learner = fit(0)
        table = getattr(fitted_learner, "value_table_", None)
        if not type(learner).value_table:
            return
        assert table is not None, "a learner with value_table = True left no value_table_"
        assert table.game == game, f"value_table_ is of {table.game!r}, not {game!r}"
        assert table.q.shape == table.targets.shape, "one Q value per move of the universe"
        assert np.isfinite(table.value).all() and (np.abs(table.value) <= 1).all(), "values must lie in [-1, 1]"
        ends = np.diff(table.indptr) == 0
        terminal = table.game.terminal_values(table.universe.positions(np.flatnonzero(ends)))
        assert (table.value[ends] == terminal).all(), "terminal positions must hold the terminal rule's value"

    def same_seed_same_result():
        from sklearn.base import clone

        again_learner = clone(learner).set_params(random_state=0)
        bound = _bound(game)
        arena = Arena(game, bound)
        again = again_learner.fit(game, bound=bound, solution=arena.solution, **again_learner.budget(GAMES, arena))
        first = fit(0)
        if type(learner).value_table and first.value_table_ is not None:
            assert np.array_equal(again.value_table_.q, first.value_table_.q), "the same seed gave another table"
        else:
            assert _strip(again.history_) == _strip(first.history_), "the same seed gave another history"

    def policy_plays_legal_moves():
        agent, rng = fit(0).policy(), np.random.default_rng(0)
        universe = game.universe(_bound(game))
        ids = np.arange(0, universe.size, max(1, universe.size // 25))
        for position in universe.positions(ids):
            position = tuple(int(x) for x in position)
            options = game.moves(position)
            if options:
                move = agent.move(game, position, rng)
                assert tuple(move) in [tuple(o) for o in options], f"{move} is no move from {position}"

    def sums_of_heaps_refused():
        from games import make_game

        try:
            learner.check_game(make_game("octal", code="0.77"))
        except ValueError:
            return
        raise AssertionError("check_game must refuse a sum of heaps (octal 0.77) with a ValueError")

    def bad_seed_refused():
        from sklearn.base import clone

        bad = clone(learner).set_params(random_state=-1)
        arena = Arena(game, _bound(game))
        try:
            bad.fit(game, bound=_bound(game), solution=arena.solution, **bad.budget(GAMES, arena))
        except ValueError:
            return
        raise AssertionError("fit with random_state=-1 must raise ValueError")

    yield "constructor_stores_parameters", constructor_stores_parameters
    yield "clone_is_unfitted_and_equal", clone_is_unfitted_and_equal
    yield "policy_before_fit_refused", policy_before_fit_refused
    yield "sums_of_heaps_refused", sums_of_heaps_refused
    learner.check_game(game)
    yield "fit_returns_the_learner", fit_returns_the_learner
    yield "history_records", history_records
    yield "value_table_covers_the_universe", value_table_covers_the_universe
    yield "same_seed_same_result", same_seed_same_result
    yield "policy_plays_legal_moves", policy_plays_legal_moves
    yield "bad_seed_refused", bad_seed_refused


def check_learner(learner, game=None) -> None:
    """Run every check of ``learner_checks``; the first failure is an ``AssertionError`` naming its check.

    Examples
    --------
    >>> from learners import QLearner
    >>> check_learner(QLearner())
    """
    from cgbase.checks import run_checks

    run_checks(learner_checks(learner, game))


def _same(a: dict, b: dict) -> bool:
    return all(repr(a[k]) == repr(b[k]) for k in a) and set(a) == set(b)


def _strip(history: list) -> list:
    """History records without wall-clock fields."""
    return [{k: v for k, v in r.items() if "seconds" not in k} for r in history]
