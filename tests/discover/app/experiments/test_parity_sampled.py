"""The parity experiment on boards too large to solve: Bouton's theorem as the referee, the stratified sample."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from discover.app.experiments.parity import is_exact, train_arm
from discover.app.experiments.parity_referee import BoutonReferee
from discover.app.experiments.parity_report import start_text
from discover.app.experiments.parity_settings import ParitySettings
from games import make_game
from learners.alphazero.guide import GuideSettings
from learners.alphazero.sampled import stratified_box_sample
from solvers import solve


def test_the_referee_agrees_with_the_solver_and_judges_only_nim():
    game = make_game("nim", heaps=4)
    box = np.array(list(itertools.product(range(6), repeat=4)))
    assert (BoutonReferee(game).outcome(box) == solve(game, bound=5).outcome(box)).all()
    for other in (make_game("nim", heaps=3, misere=True), make_game("wythoff")):
        with pytest.raises(ValueError, match="normal play"):
            BoutonReferee(other)


def test_twenty_heaps_of_four_bits_are_refereed_on_a_stratified_sample():
    # Riis's setting: the prover's relation check took bound 1's box of 2^20 positions (2^40 pairs) and hung
    start = np.random.default_rng(0).integers(1, 16, 20)
    referee = BoutonReferee(make_game("nim", heaps=20))
    sample = stratified_box_sample(start, 200, np.random.default_rng(1))
    assert referee.proof.status == "proved" and (sample <= start).all()
    assert (referee.outcome(sample) == np.where(np.bitwise_xor.reduce(sample, axis=1) != 0, 1, -1)).all()
    assert start_text({"start": start.tolist()}).endswith("(nim-sum 4)")
    assert start_text({"start": list(range(1, 40, 2))}) == "the paper's start"


def test_the_exact_measure_stops_where_the_solver_would_not_fit():
    assert is_exact(ParitySettings(heaps=7)) and not is_exact(ParitySettings(heaps=8))


@pytest.mark.slow
def test_eight_heaps_are_scored_on_the_sample_by_the_referee():
    pytest.importorskip("torch")
    settings = ParitySettings(heaps=8, iterations=1, games_per_iteration=4, simulations=4, eval_games=4,
                              hidden=(8,), opening_positions=6, random_openings=2, sample_positions=300,
                              arms=("alone",), guide=GuideSettings(games=4))
    run = train_arm(settings, "alone", 0, None)
    last = run["history"][-1]
    assert run["exact"] is False and run["sample_positions"] == 300 and run["positions"] == 10_321_920
    assert 0 < run["sample_n_positions"] < 300 and last["sample_n_positions"] == run["sample_n_positions"]
    assert last["optimal_move_rate_low"] <= last["optimal_move_rate"] <= last["optimal_move_rate_high"]
    assert run["start_value"] == -1  # 1 ^ 3 ^ ... ^ 15 = 0: the second player wins
    assert "score_optimal_second" in last and "proof for every position" in run["referee_proof"]
