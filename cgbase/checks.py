"""How the toolkit's public checks run: one by one (``run_checks``) or as pytest cases (``parametrize_with_checks``).

In the manner of scikit-learn's ``utils/estimator_checks.py``: every check is a module-level, documented
``check_*`` function of the object it checks (``games.checks.check_moves_deterministic(game, bound)``), and
a ``*_checks`` generator (``games.checks.game_checks``) yields the checks that apply to one object, chosen by
what the object declares (a game's ``universe_from_start``, a learner's ``value_table`` ...), each bound to its
arguments with ``functools.partial``. ``check_game``, ``check_solver``, ``check_learner`` and ``check_engine``
run them with ``run_checks``; the conformance suite turns them into one named pytest case each with
``parametrize_with_checks``. Work several checks share (a universe, a solution, a fitted learner) is computed
once by a function wrapped in ``shared``.
"""

from __future__ import annotations

import functools
from collections import OrderedDict

__all__ = ["check_name", "run_checks", "parametrize_with_checks", "shared"]


def check_name(check) -> str:
    """The name of a check: its function's name without ``check_`` (the name in failures and in test ids).

    Examples
    --------
    >>> def check_moves_deterministic(game, bound): ...
    >>> check_name(functools.partial(check_moves_deterministic, None, 4))
    'moves_deterministic'
    """
    return getattr(check, "func", check).__name__.removeprefix("check_")


def run_checks(checks) -> None:
    """Run the checks (callables taking no argument) in order; the first failure is an ``AssertionError`` with the
    check's name in front.

    Examples
    --------
    >>> def check_positive(x):
    ...     assert x > 0, f"{x} is not positive"
    >>> run_checks([functools.partial(check_positive, 2), functools.partial(check_positive, -1)])
    Traceback (most recent call last):
    AssertionError: positive: -1 is not positive
    """
    for check in checks:
        try:
            check()
        except AssertionError as err:
            raise AssertionError(f"{check_name(check)}: {err}") from err


def parametrize_with_checks(cases, *yield_checks, known_failures=None):
    """A ``pytest.mark.parametrize`` over argument ``check``: one case per check of every object in ``cases``.

    Parameters
    ----------
    cases : mapping of str to tuple
        Case id -> the arguments of the ``yield_checks`` generators (``{"nim-3": (game, 7)}``).
    *yield_checks : callables
        Generators of checks (``games.checks.game_checks``, ``solvers.checks.solver_checks`` ...), called with a
        case's arguments; each yields checks taking no argument.
    known_failures : mapping of (str, str) to str, optional
        ``(case id, check name) -> reason``: such a case is a strict expected failure. Keep it empty.

    Returns
    -------
    pytest.MarkDecorator
        Cases named ``<case id>-<check name>`` (``nim-3-moves_deterministic``); the test calls ``check()``.

    Raises
    ------
    ValueError
        When ``known_failures`` names a case or check that does not exist (a stale entry).

    Examples
    --------
    >>> def check_positive(x):
    ...     assert x > 0
    >>> def checks(x):
    ...     yield functools.partial(check_positive, x)
    >>> mark = parametrize_with_checks({"two": (2,), "three": (3,)}, checks)
    >>> [p.id for p in mark.args[1]]
    ['two-positive', 'three-positive']
    """
    import pytest

    known_failures = dict(known_failures or {})
    params, seen = [], set()
    for cid, args in cases.items():
        for produce in yield_checks:
            for check in produce(*args):
                key = (cid, check_name(check))
                seen.add(key)
                marks = [pytest.mark.xfail(reason=known_failures[key], strict=True)] if key in known_failures else []
                params.append(pytest.param(check, id=f"{cid}-{key[1]}", marks=marks))
    stale = sorted(set(known_failures) - seen)
    if stale:
        raise ValueError(f"known failures name no case: {stale}; remove them")
    return pytest.mark.parametrize("check", params)


def shared(maxsize: int = 8):
    """Cache a function of the objects under check by their identity (games, learners and engines need not be
    hashable, and two equal custom games may move differently), keeping the last ``maxsize`` results: the
    work several checks of one object share is done once.

    Examples
    --------
    >>> calls = []
    >>> @shared()
    ... def universe(game, bound):
    ...     calls.append(bound)
    ...     return list(range(bound))
    >>> game = object()
    >>> universe(game, 3) is universe(game, 3), calls
    (True, [3])
    """
    def decorate(function):
        cache = OrderedDict()

        @functools.wraps(function)
        def cached(*args):
            key = tuple((type(a), a) if isinstance(a, (bool, int, float, str, type(None))) else id(a) for a in args)
            if key in cache:
                cache.move_to_end(key)
                return cache[key][1]
            value = function(*args)
            cache[key] = (args, value)  # the arguments are kept, so their ids are not reused while cached
            if len(cache) > maxsize:
                cache.popitem(last=False)
            return value

        cached.cache_clear = cache.clear
        return cached

    return decorate
