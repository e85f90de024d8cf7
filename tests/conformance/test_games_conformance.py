"""Conformance suite for games and the exact solver: every registered game, one named case per check.

Each case is a game at a small bound: the registry's defaults for every family in ``games.GAMES``,
a few interesting parameter sets, and custom games defined from plain Python functions (one of
them loopy, with known draws).  Each check is a separate pytest case named
``test_conformance[<case>-<check>]``, e.g. ``test_conformance[nim-3-moves_deterministic]``.

The reference values are computed here by a plain memoised recursion over ``game.moves`` (the
terminal rule, the mex rule, the xor of the parts of a sum of heaps), never by the solver's code.

Board games (Notakto, Hex, tic-tac-toe: ``game.universe_from_start``) ignore the bound: their
universe is every position reachable from the empty board.  Checks that only mean something for
some games say so by their condition: Grundy values only for impartial normal-play games (so
never for Hex, tic-tac-toe or the misere Notakto), board symmetries only for board games.

``KNOWN_FAILURES`` maps ``(case id, check)`` to a reason; such a case is an expected failure.
Keep it empty: a failure is a bug to fix, not a line to add.
"""

from __future__ import annotations

import functools
import inspect
import pickle
import sys
from dataclasses import dataclass, field

import numpy as np
import pytest

from games import GAMES, Game, custom_game, make_game
from solvers import build_graph, solve
from solvers.grundy import topological_order

KNOWN_FAILURES: dict[tuple[str, str], str] = {}

SAMPLE = 400  # positions per check where a check looks at single positions


# -- custom games (module-level functions, so the games pickle) ------------------------------
def swap_moves(p):
    """Take 1 or 2 from a, 1 from both, or swap the coordinates when a > b.

    Acyclic (a + b never grows and a swap is never followed by a swap back) but not descending
    in id order, so the solver must find a topological order."""
    a, b = p
    options = [(a - t, b) for t in (1, 2) if t <= a]
    if a and b:
        options.append((a - 1, b - 1))
    if a > b:
        options.append((b, a))
    return options


def loopy_moves(p):
    """0 has no move, 1 -> 0, 2 <-> 3 forever, 4 -> 3 or 1: draws at 2, 3 and 4."""
    return {0: [], 1: [(0,)], 2: [(3,)], 3: [(2,)], 4: [(3,), (1,)]}[p[0]]


def loopy_escape_moves(p):
    """0 has no move, 1 <-> 2 forever, 3 -> 2 or 0: 3 wins by moving to 0, 1 and 2 draw."""
    return {0: [], 1: [(2,)], 2: [(1,)], 3: [(2,), (0,)]}[p[0]]


# -- cases -----------------------------------------------------------------------------
@dataclass
class Case:
    id: str
    game: Game
    bound: int
    draws: dict = field(default_factory=dict)  # loopy games: expected outcome of every position

    @property
    def loopy(self) -> bool:
        return bool(self.draws)

    @property
    def grundy_defined(self) -> bool:
        return self.game.impartial and not self.game.misere and not self.loopy


def case_id(game: Game) -> str:
    """``nim-3``, ``nim-2-misere``, ``moore-3-k2``, ``subtraction-1,3,4``, ``wythoff``."""
    words = [game.name]
    for i, (key, value) in enumerate(game.params.items()):
        if isinstance(value, bool):
            if value:
                words.append(key)
        elif isinstance(value, tuple):
            words.append(",".join(str(v) for v in value))
        else:
            words.append(str(value) if i == 0 else f"{key}{value}")
    return "-".join(words)


# Small bounds: the reference recursion in Python must stay fast.
BOUNDS = {
    ("nim", 2): 12, ("nim", 3): 7, ("nim", 4): 4,
    ("wythoff", 2): 14, ("euclid", 2): 14, ("wythoff_nd", 2): 12, ("wythoff_nd", 3): 5,
    ("moore", 3): 5, ("moore", 4): 3,
    ("staircase", 2): 6, ("staircase", 3): 3, ("staircase", 4): 2,
    ("chomp", 2): 12, ("chomp", 3): 6, ("chomp", 4): 4,
}


def small_bound(game: Game) -> int:
    if game.universe_from_start:
        return 1  # ignored: a board game's universe is the positions reachable from its start
    if (game.name, game.dims) in BOUNDS:
        return BOUNDS[(game.name, game.dims)]
    if game.dims == 1:
        return 40
    # an unknown family: about a thousand positions
    return max(2, min(10, int(1000 ** (1 / game.dims)) - 1))


INTERESTING = [
    ("nim", {"heaps": 2}), ("nim", {"heaps": 2, "misere": True}),
    ("nim", {"heaps": 3}), ("nim", {"heaps": 3, "misere": True}), ("nim", {"heaps": 4}),
    ("wythoff", {"misere": True}), ("wythoff_nd", {"heaps": 2}),
    ("subtraction", {"subtract": (1, 3, 4)}), ("subtraction", {"subtract": (2, 3, 7)}), ("subtraction", {"subtract": 5}),
    ("octal", {"code": "0.77"}), ("octal", {"code": "0.07"}), ("octal", {"code": "0.137"}), ("octal", {"code": "4.07"}),
    ("moore", {"heaps": 3, "k": 2}), ("moore", {"heaps": 4, "k": 3}), ("moore", {"heaps": 3, "k": 1}),
    ("staircase", {"stairs": 2}), ("staircase", {"stairs": 3}), ("staircase", {"stairs": 4}),
    ("chomp", {"rows": 2}), ("chomp", {"rows": 3}), ("chomp", {"rows": 4}),
    ("notakto", {"n": 1}), ("notakto", {"n": 3, "k": 2}), ("notakto", {"n": 2, "k": 2, "boards": 3}),
    ("hex", {"n": 1}), ("hex", {"n": 2}),
]


def build_cases() -> list[Case]:
    games = [make_game(name) for name in GAMES]
    games += [make_game(name, **params) for name, params in INTERESTING if name in GAMES]
    cases, seen = [], set()
    for game in games:
        cid = case_id(game)
        if cid not in seen:
            seen.add(cid)
            cases.append(Case(cid, game, small_bound(game)))
    cases += [
        Case("custom-swap", custom_game("swap", swap_moves, dims=2), 6),
        Case("custom-swap-misere", custom_game("swap", swap_moves, dims=2, misere=True), 6),
        Case("custom-loopy", custom_game("loopy", loopy_moves, dims=1), 4,
             draws={(0,): -1, (1,): 1, (2,): 0, (3,): 0, (4,): 0}),
        Case("custom-loopy-misere", custom_game("loopy", loopy_moves, dims=1, misere=True), 4,
             draws={(0,): 1, (1,): -1, (2,): 0, (3,): 0, (4,): 1}),
        Case("custom-loopy-escape", custom_game("escape", loopy_escape_moves, dims=1), 3,
             draws={(0,): -1, (1,): 0, (2,): 0, (3,): 1}),
    ]
    return cases


CASES = {case.id: case for case in build_cases()}


# -- references: plain recursion over game.moves -----------------------------------------
def mex(values) -> int:
    values = set(values)
    g = 0
    while g in values:
        g += 1
    return g


def reference(case: Case):
    """Per position of the universe: (outcome, grundy or None), from game.moves alone."""
    game = case.game
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    positions = [tuple(int(x) for x in p) for p in game.universe(case.bound).positions()]
    if case.loopy:
        return {p: (v, None) for p, v in fixed_point_outcomes(game, positions).items()}

    @functools.cache
    def outcome(p):
        options = game.moves(p)
        if not options:
            return int(game.terminal_values([p])[0])
        values = {outcome(o) for o in options}
        return 1 if -1 in values else (0 if 0 in values else -1)  # a draw where the best is a drawn end

    @functools.cache
    def grundy(p):
        if game.parts == 1:
            return mex(grundy(o) for o in game.moves(p))
        # a sum of heaps: an option is a tuple of single heaps, its value the xor of theirs
        values = []
        for option in game.moves(p):
            x = 0
            for heap in option:
                x ^= grundy((heap,))
            values.append(x)
        return mex(values)

    if game.parts > 1:
        assert game.dims == 1, "a sum of heaps is made of one-coordinate heaps"
        return {p: (1 if grundy(p) else -1, grundy(p)) for p in positions}
    return {p: (outcome(p), grundy(p) if case.grundy_defined else None) for p in positions}


def fixed_point_outcomes(game: Game, positions) -> dict:
    """Outcomes with draws, by repeating the win/loss rules until nothing changes."""
    moves = {p: game.moves(p) for p in positions}
    value = {p: None for p in positions}
    changed = True
    while changed:
        changed = False
        for p, options in moves.items():
            if value[p] is not None:
                continue
            if not options:
                value[p] = int(game.terminal_values([p])[0])
            elif any(value[o] == -1 for o in options):
                value[p] = 1
            elif all(value[o] == 1 for o in options):
                value[p] = -1
            else:
                continue
            changed = True
    return {p: 0 if v is None else v for p, v in value.items()}


@functools.cache
def solved(cid: str, grundy: bool = False, remoteness: bool = False):
    case = CASES[cid]
    return solve(case.game, bound=case.bound, grundy=grundy, remoteness=remoteness)


def sample_positions(case: Case):
    positions = case.game.universe(case.bound).positions()
    step = max(1, len(positions) // SAMPLE)
    return [tuple(int(x) for x in p) for p in positions[::step]]


def as_table(case: Case, values: dict) -> np.ndarray:
    positions = case.game.universe(case.bound).positions()
    return np.array([values[tuple(int(x) for x in p)] for p in positions])


# -- checks ----------------------------------------------------------------------------
def check_moves_deterministic(case: Case):
    """The same position gives the same options, in the same order, every time and in every form."""
    game = case.game
    twin = pickle.loads(pickle.dumps(game))
    for p in sample_positions(case):
        first = game.moves(p)
        assert game.moves(p) == first
        assert game.moves(list(p)) == first
        assert game.moves(np.array(p, dtype=np.int64)) == first
        assert twin.moves(p) == first
        assert all(isinstance(o, tuple) and all(type(x) is int for x in o) for o in first)


def check_moves_inside_universe(case: Case):
    """Every option of every position of the universe is in the universe (for sums: every part)."""
    game = case.game
    universe = game.universe(case.bound)
    for p in universe.positions():
        for option in game.moves(p):
            parts = [option] if game.parts == 1 else [(h,) for h in option]
            assert len(parts) <= game.parts
            for part in parts:
                assert len(part) == game.dims and min(part) >= 0, (p, option)
                assert universe.contains(np.array([part]))[0], f"{tuple(p)} -> {option} leaves {universe!r}"


def check_universe_dense_index(case: Case):
    """Ids 0..n-1 map to distinct positions and back."""
    universe = case.game.universe(case.bound)
    positions = universe.positions()
    assert positions.shape == (universe.size, case.game.dims)
    assert len({tuple(p) for p in positions.tolist()}) == universe.size
    np.testing.assert_array_equal(universe.index(positions), np.arange(universe.size))


def check_well_founded(case: Case):
    """Acyclic games: ids are a topological order or one exists; loopy games: the draws are found."""
    game = case.game
    universe = game.universe(case.bound)
    graph = build_graph(game, universe)
    if case.loopy:
        assert not graph.descending
        with pytest.raises(ValueError, match="cycle"):
            topological_order(graph)
        np.testing.assert_array_equal(solved(case.id).outcome_table, as_table(case, case.draws))
        return
    order = topological_order(graph)
    assert sorted(order.tolist()) == list(range(graph.size))
    rank = np.empty(graph.size, dtype=np.int64)
    rank[order] = np.arange(graph.size)
    sources = np.repeat(np.arange(graph.size), np.diff(graph.indptr))
    for q in range(graph.targets.shape[1]):
        assert (rank[graph.targets[:, q]] < rank[sources]).all(), "an option comes after its position"
    ends = np.flatnonzero(np.diff(graph.indptr) == 0)
    if (game.terminal_values(universe.positions(ends)) != 0).all():
        assert (solved(case.id).outcome_table != 0).all(), "a game that always ends, never on a drawn end, has no draws"


def check_features_shape(case: Case):
    """features(positions) is (n, len(feature_names)), numeric and finite; names are distinct strings."""
    game = case.game
    names = game.feature_names
    assert len(names) >= 1 and len(set(names)) == len(names)
    assert all(isinstance(n, str) and n for n in names)
    positions = game.universe(case.bound).positions()
    x = np.asarray(game.features(positions))
    assert x.shape == (len(positions), len(names))
    assert np.issubdtype(x.dtype, np.number) and np.isfinite(x).all()


def check_pickle_roundtrip(case: Case):
    """The game survives pickle: equal, same hash and repr, and it solves to the same tables."""
    game = case.game
    twin = pickle.loads(pickle.dumps(game))
    assert twin == game and hash(twin) == hash(game) and repr(twin) == repr(game)
    ours, theirs = solved(case.id), solve(twin, bound=case.bound)
    assert theirs.universe == ours.universe
    np.testing.assert_array_equal(theirs.outcome_table, ours.outcome_table)


def check_spec_rebuilds(case: Case):
    """A registered game is rebuilt from its spec by make_game; a custom one says it is custom."""
    game = case.game
    spec = game.spec()
    if spec.get("custom"):
        assert game.name not in GAMES or GAMES[game.name] is not type(game)
        return
    params = {k: tuple(v) if isinstance(v, list) else v for k, v in spec["params"].items()}
    assert make_game(spec["name"], **params) == game


def check_solver_matches_recursion(case: Case):
    """Outcome (and Grundy values where defined) equal a plain memoised recursion over game.moves."""
    expected = reference(case)
    got = solved(case.id, grundy=case.grundy_defined)
    np.testing.assert_array_equal(got.outcome_table, as_table(case, {p: v[0] for p, v in expected.items()}))
    if case.grundy_defined:
        np.testing.assert_array_equal(got.grundy_table, as_table(case, {p: v[1] for p, v in expected.items()}))


def check_grundy_zero_on_p(case: Case):
    """Normal-play impartial games: Grundy value 0 exactly on P positions; elsewhere Grundy is refused."""
    if not case.grundy_defined:
        with pytest.raises(ValueError):
            solve(case.game, bound=case.bound, grundy=True)
        return
    grundy = solved(case.id, grundy=True).grundy_table
    outcome = solved(case.id).outcome_table  # may come from another path (line outcome pass)
    assert (grundy >= 0).all()
    np.testing.assert_array_equal(grundy == 0, outcome == -1)


def check_remoteness_consistent(case: Case):
    """Terminal 0; P: 1 + max over options; N: 1 + min over P options; draws -1 (sums of heaps: refused)."""
    game = case.game
    if game.parts > 1:
        with pytest.raises(ValueError, match="remoteness"):
            solve(game, bound=case.bound, remoteness=True)
        return
    sol = solved(case.id, remoteness=True)
    np.testing.assert_array_equal(sol.outcome_table, solved(case.id).outcome_table)
    universe = sol.universe
    for i, p in enumerate(universe.positions()):
        options = game.moves(p)
        out, rem = int(sol.outcome_table[i]), int(sol.remoteness_table[i])
        if not options:
            end = int(game.terminal_values([p])[0])
            assert (out, rem) == ((end, 0) if end else (0, -1)), tuple(p)  # a drawn end: remoteness -1
            continue
        ids = universe.index(np.array(options))
        o_out, o_rem = sol.outcome_table[ids], sol.remoteness_table[ids]
        if out == 0:
            assert rem == -1 and not (o_out == -1).any(), tuple(p)
            assert (o_out == 0).any(), tuple(p)
        elif out == -1:
            assert (o_out == 1).all() and rem == 1 + o_rem.max(), tuple(p)
        else:
            assert (o_out == -1).any() and rem == 1 + o_rem[o_out == -1].min(), tuple(p)


def check_board_symmetries(case: Case):
    """Board games: symmetric positions, and each position's canonical form, have the same outcome."""
    game = case.game
    if not game.universe_from_start:
        assert not hasattr(game, "symmetric_positions"), "only board games declare board symmetries"
        return
    sol = solved(case.id)
    positions = sol.universe.positions()
    outcome = sol.outcome_table
    images = game.symmetric_positions(positions)
    assert images.shape == (game.symmetries.shape[0], len(positions), game.dims)
    np.testing.assert_array_equal(images[0], positions)  # the identity comes first
    for image in images:
        np.testing.assert_array_equal(sol.outcome(image), outcome)
    canonical = game.canonical(positions)
    np.testing.assert_array_equal(sol.outcome(canonical), outcome)
    np.testing.assert_array_equal(game.canonical(canonical), canonical)  # canonical forms are fixed points


CHECKS = {
    name[len("check_"):]: fn
    for name, fn in sorted(globals().items())
    if name.startswith("check_") and inspect.isfunction(fn)
}


def _params():
    for cid in CASES:
        for check in CHECKS:
            marks = []
            if (cid, check) in KNOWN_FAILURES:
                marks.append(pytest.mark.xfail(reason=KNOWN_FAILURES[(cid, check)], strict=True))
            yield pytest.param(cid, check, id=f"{cid}-{check}", marks=marks)


@pytest.mark.parametrize("cid, check", list(_params()))
def test_conformance(cid, check):
    CHECKS[check](CASES[cid])


def test_every_registered_family_has_a_case():
    covered = {case.game.name for case in CASES.values()}
    assert set(GAMES) <= covered


def test_known_failures_name_real_cases():
    for cid, check in KNOWN_FAILURES:
        assert cid in CASES and check in CHECKS, (cid, check)
