"""Defect class: requests too large for the machine are refused before anything is allocated, with the size.

Games whose parameters alone would build huge structures (heaps x heaps directions, 2^heaps subsets, boards
beyond a 62-bit key, coordinates beyond 64-bit keys), universes beyond 2^62 positions or beyond memory, and
training or verification tables beyond what discovery takes: each is one ``ValueError`` (one line, status 2,
from the command) that names the size or the limit, raised before the work starts.
"""

from __future__ import annotations

import pytest

from discover.find import find_rule
from games import make_game
from solvers import solve


@pytest.mark.parametrize("name, params, words", [
    ("nim", {"heaps": 20_000}, "heaps <= 1000"),
    ("nim", {"heaps": 10**9}, "heaps <= 1000"),
    ("moore", {"heaps": 40, "k": 20}, "heaps <= 16"),
    ("wythoff_nd", {"heaps": 40}, "heaps <= 16"),
    ("notakto", {"boards": 10**6}, "boards <= 62"),
    ("chomp", {"rows": 10**5}, "rows <= 62"),
    ("staircase", {"stairs": 10**5}, "stairs <= 62"),
])
def test_parameters_that_would_build_too_much_are_refused(name, params, words):
    with pytest.raises(ValueError, match=words):
        make_game(name, **params)


@pytest.mark.parametrize("name, params, bound, words", [
    ("nim", {"heaps": 70}, 1, "more than 2\\^62"),
    ("nim", {"heaps": 3}, 3000, "more than the .* allowed"),
    ("chomp", {"rows": 40}, 1, "needs about .* TB"),
    ("wythoff", {}, 10**6, "931.3 GB"),
])
def test_universes_beyond_memory_are_refused_with_their_size(name, params, bound, words):
    with pytest.raises(ValueError, match=words):
        solve(make_game(name, **params), bound=bound)


def test_discovery_refuses_huge_training_and_verification_tables_before_solving():
    with pytest.raises(ValueError, match="10,000,200,001 positions .*at most 1,000,000"):
        find_rule(make_game("wythoff"), bound=100_000)
    with pytest.raises(ValueError, match="verification bound 1000000 needs about 931.3 GB"):
        find_rule(make_game("wythoff"), bound=30, verify_bound=10**6)


@pytest.mark.parametrize("argv", [
    ("solve", "nim", "heaps=20000"), ("solve", "moore", "heaps=40", "k=20"), ("solve", "wythoff_nd", "heaps=40"),
    ("solve", "notakto", "boards=1000000"), ("solve", "nim", "heaps=1000000000"), ("wythoff", "--bound", "100000"),
    ("solve", "staircase", "stairs=100000"),
])
def test_the_command_answers_in_one_line(cli, one_error_line, argv):
    one_error_line(*cli(*argv))
