"""Every registered game through ``games.checks.check_game`` and ``solvers.checks.check_solver``, one named
case per check.

Each case is a game at a small bound: the registry's defaults for every family in ``games.GAMES``,
a few interesting parameter sets, and custom games defined from plain Python functions (one of
them loopy, with known draws).  Each check is a separate pytest case named
``test_conformance[<case>-<check>]``, e.g. ``test_conformance[nim-3-moves_deterministic]``.

The solver's references are computed by ``solvers.checks`` from ``game.moves`` alone (the terminal
rule, the mex rule, the xor of the parts of a sum of heaps), never by the solver's code; the loopy
custom games' expected draws are written out here.

Board games (Notakto, Hex, tic-tac-toe: ``game.universe_from_start``) ignore the bound: their
universe is every position reachable from the empty board.  Checks that only mean something for
some games are chosen by what the game declares: Grundy values compared for impartial normal-play games and
refused for the others (Hex, tic-tac-toe, the misere Notakto), remoteness for single positions and refused
for sums of heaps, board symmetries for board games (the others must declare none).

``KNOWN_FAILURES`` maps ``(case id, check)`` to a reason; such a case is an expected failure (a stale entry
stops the collection: ``cgbase.checks.parametrize_with_checks``). Keep it empty: a failure is a bug to fix, not a
line to add.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from cgbase.checks import parametrize_with_checks
from games import GAMES, Game, custom_game, make_game
from games.checks import game_checks
from solvers.checks import reference_outcomes, solver_checks

KNOWN_FAILURES: dict[tuple[str, str], str] = {}


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


@parametrize_with_checks({cid: (case.game, case.bound) for cid, case in CASES.items()}, game_checks, solver_checks,
                         known_failures=KNOWN_FAILURES)
def test_conformance(check):
    check()


@pytest.mark.parametrize("cid", [cid for cid, case in CASES.items() if case.loopy])
def test_loopy_references_find_the_known_draws(cid):
    case = CASES[cid]
    positions = [tuple(int(x) for x in p) for p in case.game.universe(case.bound).positions()]
    assert reference_outcomes(case.game, positions) == case.draws


def test_every_registered_family_has_a_case():
    covered = {case.game.name for case in CASES.values()}
    assert set(GAMES) <= covered


