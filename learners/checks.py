"""``check_learner``: the learner contract as named checks a user can run on their own learner.

In the manner of scikit-learn's ``utils/estimator_checks.py``: each check is a module-level ``check_*(learner,
game)`` that raises ``AssertionError`` naming what broke; ``learner_checks(learner, game)`` yields those that
apply to the learner, chosen by what it declares (``value_table``: its table is checked; ``opponents``: a fit
against an opponent is checked), bound to their arguments; ``check_learner(learner, game)`` runs them all, each
failure raised as ``AssertionError`` with the check's name in front. Budgets are tiny
(``Learner.budget(GAMES, arena)``): the checks test the contract, not how well the learner learns. The checks
of one learner share its fits (``cgbase.checks.shared``).
"""

from __future__ import annotations

import inspect
from functools import partial

import numpy as np

from cgbase.checks import run_checks, shared

__all__ = ["check_learner", "learner_checks", "GAMES", "check_constructor_stores_parameters",
           "check_clone_is_unfitted_and_equal", "check_policy_before_fit_refused",
           "check_value_table_before_fit_refused", "check_sums_of_heaps_refused", "check_fit_returns_the_learner",
           "check_history_records", "check_value_table_covers_the_universe", "check_same_seed_same_result",
           "check_policy_plays_legal_moves", "check_bad_seed_refused", "check_fit_against_an_opponent", "small_bound"]

GAMES = 24  # games of a check's fit


@shared(maxsize=4)
def _arena(game):
    """The checks' arena: on a small bound, the first from 12 heaps, 5 a coordinate or 2 on which some position
    has a move (Welter's three coins need a fourth square)."""
    from learners.arena import Arena

    least = {1: 12, 2: 5}.get(game.dims, 2)
    for bound in range(least, least + 8):
        arena = Arena(game, bound)
        if arena.live().size:
            break
    return arena


def small_bound(game) -> int:
    """The bound the checks play ``game`` on: small, with a move somewhere (``_arena``).

    Examples
    --------
    >>> from games import make_game
    >>> small_bound(make_game("nim", heaps=2)), small_bound(make_game("welter"))
    (5, 3)
    """
    return _arena(game).bound


def _fit(learner, game, seed: int = 0, **options):
    """A fresh clone of ``learner`` seeded ``seed``, fitted on ``game`` within the checks' budget."""
    from sklearn.base import clone

    arena = _arena(game)
    fresh = clone(learner).set_params(random_state=seed)
    result = fresh.fit(game, bound=arena.bound, solution=arena.solution, **{**fresh.budget(GAMES, arena), **options})
    assert result is fresh, f"fit returned {type(result).__name__}, not the learner"
    return fresh


@shared(maxsize=4)
def _fitted(learner, game):
    """The fit seeded 0 that several checks share."""
    return _fit(learner, game)


def check_constructor_stores_parameters(learner, game=None) -> None:
    """Constructor parameters keyword-only with defaults, ``random_state`` among them, all in ``get_params``.

    Examples
    --------
    >>> from learners import QLearner
    >>> check_constructor_stores_parameters(QLearner())
    """
    signature = inspect.signature(type(learner).__init__)
    params = [p for p in signature.parameters.values() if p.name != "self"]
    positional = [p.name for p in params if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    assert not positional, f"constructor parameters must be keyword-only: {positional}"
    missing = [p.name for p in params if p.default is inspect.Parameter.empty]
    assert not missing, f"every constructor parameter needs a default: {missing}"
    assert "random_state" in signature.parameters, "the constructor takes no random_state"
    assert set(learner.get_params()) == {p.name for p in params}, "get_params does not list the constructor's"


def check_clone_is_unfitted_and_equal(learner, game=None) -> None:
    """``clone`` keeps the parameters and drops fitted state; ``set_params`` sets ``random_state``.

    Examples
    --------
    >>> from learners import QLearner
    >>> check_clone_is_unfitted_and_equal(QLearner())
    """
    from sklearn.base import clone

    copy = clone(learner)
    assert copy is not learner and _same(copy.get_params(), learner.get_params()), "clone changed the parameters"
    assert not [k for k in vars(copy) if k.endswith("_") and not k.startswith("_")], "clone carries fitted state"
    changed = clone(learner).set_params(random_state=7)
    assert changed.random_state == 7, "set_params(random_state=7) did not set it"


def check_policy_before_fit_refused(learner, game=None) -> None:
    """``policy()`` of an unfitted learner raises ``NotFittedError``.

    Examples
    --------
    >>> from learners import QLearner
    >>> check_policy_before_fit_refused(QLearner())
    """
    from sklearn.base import clone

    from cgbase.fitted import NotFittedError

    try:
        clone(learner).policy()
    except NotFittedError:
        return
    raise AssertionError("policy() of an unfitted learner must raise cgbase.fitted.NotFittedError")


def check_value_table_before_fit_refused(learner, game=None) -> None:
    """A learner that keeps a value table (``value_table``): reading ``value_table_`` before ``fit`` raises
    ``NotFittedError``.

    Examples
    --------
    >>> from learners import QLearner
    >>> check_value_table_before_fit_refused(QLearner())
    """
    from sklearn.base import clone

    from cgbase.fitted import NotFittedError

    try:
        clone(learner).value_table_
    except NotFittedError:
        return
    raise AssertionError("value_table_ of an unfitted learner must raise cgbase.fitted.NotFittedError")


def check_sums_of_heaps_refused(learner, game=None) -> None:
    """``check_game`` refuses a sum of heaps (octal 0.77) with a ``ValueError``.

    Examples
    --------
    >>> from learners import QLearner
    >>> check_sums_of_heaps_refused(QLearner())
    """
    from games import make_game

    try:
        learner.check_game(make_game("octal", code="0.77"))
    except ValueError:
        return
    raise AssertionError("check_game must refuse a sum of heaps (octal 0.77) with a ValueError")


def check_fit_returns_the_learner(learner, game) -> None:
    """``fit`` returns the learner itself.

    Examples
    --------
    >>> from games import make_game
    >>> from learners import QLearner
    >>> check_fit_returns_the_learner(QLearner(), make_game("nim", heaps=2))
    """
    _fitted(learner, game)


def check_history_records(learner, game) -> None:
    """``history_`` is a non-empty list of non-empty dicts, each naming its ``episode``, in order.

    Examples
    --------
    >>> from games import make_game
    >>> from learners import QLearner
    >>> check_history_records(QLearner(), make_game("nim", heaps=2))
    """
    history = _fitted(learner, game).history_
    assert isinstance(history, list) and history, "history_ must be a non-empty list of records"
    assert all(isinstance(r, dict) and r for r in history), "each history_ record must be a non-empty dict"
    episodes = [r.get("episode") for r in history]
    assert all(isinstance(e, int) for e in episodes), "each record names its episode: the games played so far"
    assert episodes == sorted(episodes), "the records' episodes must not decrease"


def check_value_table_covers_the_universe(learner, game) -> None:
    """A learner that keeps a value table (``value_table``): ``value_table_`` is of the game, one Q per move,
    values in [-1, 1], the terminal rule's value at the ends.

    Examples
    --------
    >>> from games import make_game
    >>> from learners import QLearner
    >>> check_value_table_covers_the_universe(QLearner(), make_game("nim", heaps=2))
    """
    table = getattr(_fitted(learner, game), "value_table_", None)
    assert table is not None, "a learner with value_table = True left no value_table_"
    assert table.game == game, f"value_table_ is of {table.game!r}, not {game!r}"
    assert table.q.shape == table.targets.shape, "one Q value per move of the universe"
    assert np.isfinite(table.value).all() and (np.abs(table.value) <= 1).all(), "values must lie in [-1, 1]"
    ends = np.diff(table.indptr) == 0
    terminal = table.game.terminal_values(table.universe.positions(np.flatnonzero(ends)))
    assert (table.value[ends] == terminal).all(), "terminal positions must hold the terminal rule's value"


def check_same_seed_same_result(learner, game) -> None:
    """Two fits with the same seed give the same table (or, without one, the same history but its clock fields).

    Examples
    --------
    >>> from games import make_game
    >>> from learners import QLearner
    >>> check_same_seed_same_result(QLearner(), make_game("nim", heaps=2))
    """
    first, again = _fitted(learner, game), _fit(learner, game)
    if type(learner).value_table and first.value_table_ is not None:
        assert np.array_equal(again.value_table_.q, first.value_table_.q), "the same seed gave another table"
    else:
        assert _strip(again.history_) == _strip(first.history_), "the same seed gave another history"


def check_policy_plays_legal_moves(learner, game) -> None:
    """The fitted ``policy()`` plays a legal move from positions spread over the universe.

    Examples
    --------
    >>> from games import make_game
    >>> from learners import QLearner
    >>> check_policy_plays_legal_moves(QLearner(), make_game("nim", heaps=2))
    """
    agent, rng = _fitted(learner, game).policy(), np.random.default_rng(0)
    universe = game.universe(small_bound(game))
    ids = np.arange(0, universe.size, max(1, universe.size // 25))
    for position in universe.positions(ids):
        position = tuple(int(x) for x in position)
        options = game.moves(position)
        if options:
            move = agent.move(game, position, rng)
            assert tuple(move) in [tuple(o) for o in options], f"{move} is no move from {position}"


def check_bad_seed_refused(learner, game) -> None:
    """``fit`` with ``random_state=-1`` raises a ``ValueError``.

    Examples
    --------
    >>> from games import make_game
    >>> from learners import QLearner
    >>> check_bad_seed_refused(QLearner(), make_game("nim", heaps=2))
    """
    try:
        _fit(learner, game, -1)
    except ValueError:
        return
    raise AssertionError("fit with random_state=-1 must raise ValueError")


def check_fit_against_an_opponent(learner, game) -> None:
    """A learner that plays opponents (``opponents``): ``fit(..., opponent="random")`` returns the learner with a
    history and, where it keeps one, a value table.

    Examples
    --------
    >>> from games import make_game
    >>> from learners import QLearner
    >>> check_fit_against_an_opponent(QLearner(), make_game("nim", heaps=2))
    """
    fitted = _fit(learner, game, 0, opponent="random")
    assert fitted.history_, "a fit against a random opponent left no history_"
    if type(learner).value_table:
        assert fitted.value_table_ is not None, "a fit against a random opponent left no value_table_"


def learner_checks(learner, game=None):
    """The checks that apply to ``learner`` on ``game`` (default: three-heap Nim), each a callable taking no
    argument; a ``ValueError`` from ``learner.check_game`` when the learner cannot learn the game, after the
    checks that need no fit.

    Examples
    --------
    >>> from cgbase.checks import check_name
    >>> from learners import QLearner
    >>> [check_name(check) for check in learner_checks(QLearner())][:3]
    ['constructor_stores_parameters', 'clone_is_unfitted_and_equal', 'policy_before_fit_refused']
    """
    from games import make_game

    game = make_game("nim", heaps=3) if game is None else game
    declares = type(learner)
    yield partial(check_constructor_stores_parameters, learner, game)
    yield partial(check_clone_is_unfitted_and_equal, learner, game)
    yield partial(check_policy_before_fit_refused, learner, game)
    if declares.value_table:
        yield partial(check_value_table_before_fit_refused, learner, game)
    yield partial(check_sums_of_heaps_refused, learner, game)
    learner.check_game(game)
    yield partial(check_fit_returns_the_learner, learner, game)
    yield partial(check_history_records, learner, game)
    if declares.value_table:
        yield partial(check_value_table_covers_the_universe, learner, game)
    yield partial(check_same_seed_same_result, learner, game)
    yield partial(check_policy_plays_legal_moves, learner, game)
    yield partial(check_bad_seed_refused, learner, game)
    if declares.opponents:
        yield partial(check_fit_against_an_opponent, learner, game)


def check_learner(learner, game=None) -> None:
    """Run every check of ``learner_checks``; the first failure is an ``AssertionError`` naming its check.

    Parameters
    ----------
    learner : learners.base.Learner
        An unfitted learner (its parameters are what is checked; fits are made on clones).
    game : Game, optional
        The game learned (default: three-heap Nim).

    Raises
    ------
    AssertionError
        ``"<check>: <what broke>"`` for the first check that fails.
    ValueError
        When the learner cannot learn ``game`` (its ``check_game``).

    Examples
    --------
    >>> from learners import QLearner
    >>> check_learner(QLearner())
    """
    run_checks(learner_checks(learner, game))


def _same(a: dict, b: dict) -> bool:
    return all(repr(a[k]) == repr(b[k]) for k in a) and set(a) == set(b)


def _strip(history: list) -> list:
    """History records without wall-clock fields."""
    return [{k: v for k, v in r.items() if "seconds" not in k} for r in history]
