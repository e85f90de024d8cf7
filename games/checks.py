"""``check_game``: what every game must do, as named checks a user can run on their own game.

In the manner of scikit-learn's ``check_estimator``: ``game_checks(game, bound)`` yields ``(name, check)``
pairs (each ``check()`` raises ``AssertionError`` naming what broke) and ``check_game(game, bound)`` runs
them all, a failure raised with its check's name in front. These checks use the game alone; the solver's
agreement with a plain recursion over ``game.moves`` is ``solvers.checks.check_solver``.
"""

from __future__ import annotations

import pickle

import numpy as np

from cgbase.checks import run_checks

__all__ = ["check_game", "game_checks", "small_bound", "SAMPLE"]

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


def game_checks(game, bound=None):
    """The named checks of ``game`` on ``game.universe(bound)`` (default ``small_bound(game)``).

    Examples
    --------
    >>> from games import make_game
    >>> [name for name, _ in game_checks(make_game("nim", heaps=2))][:2]
    ['moves_deterministic', 'moves_inside_universe']
    """
    bound = small_bound(game) if bound is None else bound
    universe = game.universe(bound)
    positions = universe.positions()
    sample = [tuple(int(x) for x in p) for p in positions[:: max(1, len(positions) // SAMPLE)]]

    def moves_deterministic():
        for p in sample:
            first = game.moves(p)
            assert game.moves(p) == first, f"moves({p}) changed between two calls"
            assert game.moves(list(p)) == first and game.moves(np.array(p, dtype=np.int64)) == first, \
                f"moves({p}) depends on the type of the position"
            assert all(isinstance(o, tuple) and all(type(x) is int for x in o) for o in first), \
                f"moves({p}) must return tuples of ints, got {first!r}"

    def moves_inside_universe():
        for p in positions:
            for option in game.moves(p):
                parts = [option] if game.parts == 1 else [(h,) for h in option]
                assert len(parts) <= game.parts, f"{tuple(p)} -> {option}: more parts than game.parts"
                for part in parts:
                    assert len(part) == game.dims and min(part) >= 0, f"{tuple(p)} -> {option}"
                    assert universe.contains(np.array([part]))[0], f"{tuple(p)} -> {option} leaves {universe!r}"

    def universe_dense_index():
        assert positions.shape == (universe.size, game.dims), f"positions() has shape {positions.shape}"
        assert len({tuple(p) for p in positions.tolist()}) == universe.size, "two ids map to one position"
        assert np.array_equal(universe.index(positions), np.arange(universe.size)), "index(positions()) != ids"

    def terminal_values_in_range():
        ends = [p for p in sample if not game.moves(p)]
        if ends:
            values = np.asarray(game.terminal_values(ends))
            assert values.shape == (len(ends),) and set(values.tolist()) <= {-1, 0, 1}, \
                f"terminal_values must give -1, 0 or 1 per position, got {values.tolist()}"

    def features_shape():
        names = game.feature_names
        assert len(names) >= 1 and len(set(names)) == len(names), f"feature names {names!r} must be distinct"
        assert all(isinstance(n, str) and n for n in names), "feature names must be non-empty strings"
        x = np.asarray(game.features(positions))
        assert x.shape == (len(positions), len(names)), f"features() has shape {x.shape}"
        assert np.issubdtype(x.dtype, np.number) and np.isfinite(x).all(), "features must be finite numbers"

    def pickle_roundtrip():
        try:
            twin = pickle.loads(pickle.dumps(game))
        except (pickle.PicklingError, AttributeError, TypeError) as err:
            raise AssertionError(f"the game does not pickle ({err}): parallel workers need it; define its moves "
                                 "function at the top level of a module") from None
        assert twin == game and hash(twin) == hash(game) and repr(twin) == repr(game), "pickling changed the game"
        assert all(twin.moves(p) == game.moves(p) for p in sample), "pickling changed the moves"

    def spec_rebuilds():
        from games.registry import GAMES, make_game

        spec = game.spec()
        if spec.get("custom"):
            assert game.name not in GAMES or GAMES[game.name] is not type(game), "a registered game says it is custom"
            return
        params = {k: tuple(v) if isinstance(v, list) else v for k, v in spec["params"].items()}
        assert make_game(spec["name"], **params) == game, "make_game(**spec) does not rebuild the game"

    def symmetries_commute_with_moves():
        if not game.universe_from_start:
            assert not hasattr(game, "symmetric_positions"), "only board games declare board symmetries"
            return
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

    yield "moves_deterministic", moves_deterministic
    yield "moves_inside_universe", moves_inside_universe
    yield "universe_dense_index", universe_dense_index
    yield "terminal_values_in_range", terminal_values_in_range
    yield "features_shape", features_shape
    yield "pickle_roundtrip", pickle_roundtrip
    yield "spec_rebuilds", spec_rebuilds
    yield "symmetries_commute_with_moves", symmetries_commute_with_moves


def check_game(game, bound=None) -> None:
    """Run every check of ``game_checks``; the first failure is an ``AssertionError`` naming its check.

    Examples
    --------
    >>> from games import make_game
    >>> check_game(make_game("subtraction", subtract=(1, 3, 4)), 30)
    """
    run_checks(game_checks(game, bound))
