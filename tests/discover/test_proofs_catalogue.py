"""Issue 14's list end to end: find the rule, find its strategy, prove it, and play far beyond the bound.

Each case runs ``benchmarks/proofs.py``'s ``run_case`` (``find_rule`` with default settings,
``find_strategy``, ``prove_rule`` with the strategy) and, for a proved case, plays 1,000 games
from random N positions far beyond the training bound against the optimal player, every position
judged by a closed form of the literature (Nim on 20 heaps below 2^20, Wythoff up to 10^6).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from games import make_game

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "proofs.py"
_spec = importlib.util.spec_from_file_location("benchmark_proofs", _SCRIPT)
proofs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(proofs)


@pytest.mark.slow
@pytest.mark.parametrize("case, method", [
    ("nim3", "theorem: Moore's Nim_k"),  # Bouton's theorem, Moore's for k = 1
    ("misere_nim3", "theorem: Bouton's theorem for misère Nim"),
    ("sub134", "theorem: periodicity of subtraction games"),
    ("staircase3", "linear integer arithmetic, with the strategy"),
    ("chomp2", "linear integer arithmetic, with the strategy"),
    ("wythoff", "theorem: complementary mex pairs"),
    ("moore4", "theorem: Moore's Nim_k"),
    ("euclid", "theorem: Cole and Davie's theorem"),
])
def test_proved_with_a_strategy_that_wins_far_beyond_the_bound(case, method):
    row = proofs.run_case(case, games=1000)
    assert row["status"] == "verified" and row["proof"] == "proved", row
    assert method in row["method"] and row["statement"].startswith("for every position")
    assert row["strategy"] != "none found"
    play = row["play"]
    assert play["games"] == 1000 and play["wins"] == 1000, play


def test_closed_forms_and_random_moves_of_the_far_play():
    rng = np.random.default_rng(0)
    wythoff = make_game("wythoff")
    assert proofs.truth_p(wythoff, [[0, 0], [1, 2], [2, 1], [3, 5], [4, 7], [2, 2]]).tolist() == \
        [True, True, True, True, True, False]
    starts = proofs.random_n_positions(wythoff, 2, 10**6, 50, rng)
    assert not proofs.truth_p(wythoff, starts).any()
    for name, params in [("nim", {"heaps": 4}), ("moore", {"heaps": 4, "k": 2}), ("wythoff", {}),
                         ("subtraction", {"subtract": (2, 3, 7)}), ("staircase", {"stairs": 3}),
                         ("chomp", {"rows": 2}), ("euclid", {})]:
        game = make_game(name, **params)
        X = proofs.random_n_positions(game, game.dims, 30, 200, rng)
        moved = proofs.random_moves(game, X, rng)
        assert game.move_relation().allows(X, moved).all(), name
