"""``check_game``: what every game must do, as named checks a user can run on their own game.

In the manner of scikit-learn's ``utils/estimator_checks.py``: each check is a module-level ``check_*(game,
bound)`` that raises ``AssertionError`` naming what broke; ``game_checks(game, bound)`` yields those that apply
to the game (board games, ``universe_from_start``, have their symmetries checked; the others must declare none),
bound to their arguments; ``check_game(game, bound)`` runs them all, a failure raised with its check's name in
front. These checks use the game alone; the solver's agreement with a plain recursion over ``game.moves`` is
``solvers.checks.check_solver``.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from cgbase.checks import run_checks, shared

__all__ = ["check_game", "game_checks", "small_bound", "SAMPLE", "check_moves_deterministic",
           "check_moves_inside_universe", "check_universe_dense_index", "check_terminal_values_in_range",
           "check_features_shape", "check_pickle_roundtrip", "check_spec_rebuilds",
           "check_symmetries_commute_with_moves", "check_no_board_symmetries"]

SAMPLE = 400  # positions a check looks at one by one


def small_bound(game) -> int | None:
    """A bound whose universe has about a thousand positions (None for board games, which ignore it).

    Examples
    --------
    >>> from games import make_game
    >>> small_bound(make_game("subtraction")), small_bound(make_game("wythoff")), small_bound(make_game("nim"))
    (40, 30, 9)
    """
    if game.universe_from_start:
        return None
    return 40 if game.dims == 1 else max(2, min(30, int(round(1000 ** (1 / game.dims))) - 1))


@shared()
def _universe(game, bound):
    """The universe, its positions and a sample of at most about ``SAMPLE`` of them as tuples of ints."""
    universe = game.universe(small_bound(game) if bound is None else bound)
    positions = universe.positions()
    sample = [tuple(int(x) for x in p) for p in positions[:: max(1, len(positions) // SAMPLE)]]
    return universe, positions, sample


def check_moves_deterministic(game, bound=None) -> None:
    """``moves(p)`` is the same on every call and for a tuple, a list or an array, and is a list of int tuples.

    Examples
    --------
    >>> from games import make_game
    >>> check_moves_deterministic(make_game("nim", heaps=2), 5)
    """
    for p in _universe(game, bound)[2]:
        first = game.moves(p)
        assert game.moves(p) == first, f"moves({p}) changed between two calls"
        assert game.moves(list(p)) == first and game.moves(np.array(p, dtype=np.int64)) == first, \
            f"moves({p}) depends on the type of the position"
        assert all(isinstance(o, tuple) and all(type(x) is int for x in o) for o in first), \
            f"moves({p}) must return tuples of ints, got {first!r}"


def check_moves_inside_universe(game, bound=None) -> None:
    """Every option of every position lies in the universe (each part of a sum of heaps, for ``parts > 1``).

    Examples
    --------
    >>> from games import make_game
    >>> check_moves_inside_universe(make_game("octal", code="0.77"), 20)
    """
    universe, positions, _ = _universe(game, bound)
    for p in positions:
        for option in game.moves(p):
            parts = game.option_parts(option)
            assert len(parts) <= game.parts, f"{tuple(p)} -> {option}: more parts than game.parts"
            for part in parts:
                assert len(part) == game.dims and min(part) >= 0, f"{tuple(p)} -> {option}"
                assert universe.contains(np.array([part]))[0], f"{tuple(p)} -> {option} leaves {universe!r}"


def check_universe_dense_index(game, bound=None) -> None:
    """``universe.positions()`` lists each position once, and ``index`` maps them back to 0, 1, ... size - 1.

    Examples
    --------
    >>> from games import make_game
    >>> check_universe_dense_index(make_game("wythoff"), 6)
    """
    universe, positions, _ = _universe(game, bound)
    assert positions.shape == (universe.size, game.dims), f"positions() has shape {positions.shape}"
    assert len({tuple(p) for p in positions.tolist()}) == universe.size, "two ids map to one position"
    assert np.array_equal(universe.index(positions), np.arange(universe.size)), "index(positions()) != ids"


def check_terminal_values_in_range(game, bound=None) -> None:
    """``terminal_values`` gives -1, 0 or 1 for each position without a move.

    Examples
    --------
    >>> from games import make_game
    >>> check_terminal_values_in_range(make_game("nim", heaps=2, misere=True), 5)
    """
    ends = [p for p in _universe(game, bound)[2] if not game.moves(p)]
    if ends:
        values = np.asarray(game.terminal_values(ends))
        assert values.shape == (len(ends),) and set(values.tolist()) <= {-1, 0, 1}, \
            f"terminal_values must give -1, 0 or 1 per position, got {values.tolist()}"


def check_features_shape(game, bound=None) -> None:
    """Distinct non-empty feature names, and ``features`` a finite number per position and name.

    Examples
    --------
    >>> from games import make_game
    >>> check_features_shape(make_game("nim", heaps=3), 4)
    """
    positions = _universe(game, bound)[1]
    names = game.feature_names
    assert len(names) >= 1 and len(set(names)) == len(names), f"feature names {names!r} must be distinct"
    assert all(isinstance(n, str) and n for n in names), "feature names must be non-empty strings"
    x = np.asarray(game.features(positions))
    assert x.shape == (len(positions), len(names)), f"features() has shape {x.shape}"
    assert np.issubdtype(x.dtype, np.number) and np.isfinite(x).all(), "features must be finite numbers"


def check_pickle_roundtrip(game, bound=None) -> None:
    """The game survives cloudpickle, the serialiser of the parallel workers (``cgbase.parallel``), unchanged:
    a game whose moves are a lambda or a function of ``__main__`` passes, as ``solve(..., workers=2)`` runs it.

    Examples
    --------
    >>> from games import custom_game
    >>> take12 = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], dims=1)
    >>> check_pickle_roundtrip(take12, 9)
    """
    import cloudpickle

    sample = _universe(game, bound)[2]
    try:
        twin = cloudpickle.loads(cloudpickle.dumps(game))
    except Exception as err:  # whatever the game holds that cannot travel to a worker
        raise AssertionError(f"the game does not pickle with cloudpickle ({type(err).__name__}: {err}): parallel "
                             "workers need it; keep open files, locks and generators out of the game") from None
    assert twin == game and hash(twin) == hash(game) and repr(twin) == repr(game), "pickling changed the game"
    assert all(twin.moves(p) == game.moves(p) for p in sample), "pickling changed the moves"


def check_spec_rebuilds(game, bound=None) -> None:
    """``make_game(**game.spec())`` rebuilds a registered game; a custom game says so and is not registered.

    Examples
    --------
    >>> from games import make_game
    >>> check_spec_rebuilds(make_game("subtraction", subtract=(1, 3, 4)))
    """
    from games.registry import GAMES, make_game

    spec = game.spec()
    if spec.get("custom"):
        assert game.name not in GAMES or GAMES[game.name] is not type(game), "a registered game says it is custom"
        return
    params = {k: tuple(v) if isinstance(v, list) else v for k, v in spec["params"].items()}
    assert make_game(spec["name"], **params) == game, "make_game(**spec) does not rebuild the game"


def check_symmetries_commute_with_moves(game, bound=None) -> None:
    """A board game's symmetries (the first the identity) map the options of a position onto those of its image,
    and ``canonical`` forms are fixed points (games with ``universe_from_start``).

    Examples
    --------
    >>> from games import make_game
    >>> check_symmetries_commute_with_moves(make_game("notakto", n=2, k=2))
    """
    sample = _universe(game, bound)[2]
    points = np.array(sample, dtype=np.int64)
    images = game.symmetric_positions(points)
    assert images.shape == (game.symmetries.shape[0], len(points), game.dims), f"images of shape {images.shape}"
    assert np.array_equal(images[0], points), "the first symmetry must be the identity"
    canonical = game.canonical(points)
    assert np.array_equal(game.canonical(canonical), canonical), "canonical forms must be fixed points"
    for i, p in enumerate(sample):
        options = game.moves(p)
        if not options:
            continue
        option_images = game.symmetric_positions(np.array(options, dtype=np.int64))
        for k in range(images.shape[0]):
            image = tuple(int(x) for x in images[k, i])
            expected = {tuple(int(x) for x in o) for o in option_images[k]}
            assert set(game.moves(image)) == expected, \
                f"symmetry {k} maps {p} to {image}, but not the options of one onto the other's"


def check_no_board_symmetries(game, bound=None) -> None:
    """Only board games (``universe_from_start``) declare board symmetries (``symmetric_positions``).

    Examples
    --------
    >>> from games import make_game
    >>> check_no_board_symmetries(make_game("wythoff"))
    """
    assert not hasattr(game, "symmetric_positions"), "only board games declare board symmetries"


def game_checks(game, bound=None):
    """The checks that apply to ``game`` on ``game.universe(bound)`` (default ``small_bound(game)``), each a
    callable taking no argument.

    Examples
    --------
    >>> from cgbase.checks import check_name
    >>> from games import make_game
    >>> [check_name(check) for check in game_checks(make_game("nim", heaps=2))][:2]
    ['moves_deterministic', 'moves_inside_universe']
    """
    bound = small_bound(game) if bound is None else bound
    for check in (check_moves_deterministic, check_moves_inside_universe, check_universe_dense_index,
                  check_terminal_values_in_range, check_features_shape, check_pickle_roundtrip, check_spec_rebuilds):
        yield partial(check, game, bound)
    if game.universe_from_start:
        yield partial(check_symmetries_commute_with_moves, game, bound)
    else:
        yield partial(check_no_board_symmetries, game, bound)


def check_game(game, bound=None) -> None:
    """Run every check of ``game_checks``; the first failure is an ``AssertionError`` naming its check.

    Parameters
    ----------
    game : Game
        A registered or custom game.
    bound : int, optional
        The universe checked (default ``small_bound(game)``; board games ignore it).

    Raises
    ------
    AssertionError
        ``"<check>: <what broke>"`` for the first check that fails.

    Examples
    --------
    >>> from games import make_game
    >>> check_game(make_game("subtraction", subtract=(1, 3, 4)), 30)
    """
    run_checks(game_checks(game, bound))
