"""The parity experiment (``discover.app.experiments.parity``) and ``discover alphazero nim heaps=N --guided``, tiny budgets."""

from __future__ import annotations

import json

import numpy as np
import pytest
import sympy as sp

from discover.app.experiments.parity import discover_guide_rule, opening_scores, train_arm
from discover.app.experiments.parity_report import first_expert, verdict
from discover.app.experiments.parity_settings import ParitySettings
from discover.rule import Rule
from learners.alphazero.guide import GuideSettings

pytest.importorskip("torch")

TINY = dict(iterations=1, games_per_iteration=4, simulations=4, eval_games=4, hidden=(8,), opening_positions=6,
            random_openings=2, guide=GuideSettings(games=4))


def test_settings_default_to_the_papers_start_and_check_their_values():
    assert ParitySettings().start == (1, 3, 5, 7, 9, 11, 13)
    for bad in ({"heaps": 1}, {"start": (1, 2)}, {"confidence": 1.0}, {"seeds": ()}, {"arms": ("alone", "alone")}):
        with pytest.raises(ValueError):
            ParitySettings(**bad)


def test_the_rule_comes_from_the_learners_own_table():
    found = discover_guide_rule(ParitySettings(rule_heaps=2, rule_bound=3, rule_games=128), seed=0)
    assert found["source"].startswith("AlphaZeroLearner self-play, ") and found["learned"].startswith("learned table:")
    if found["rule_json"] is not None:  # the rule's provenance is the learned table, never the solver's
        assert Rule.from_json(found["rule_json"]).provenance["source"] == found["source"]
    assert not found["usable"] or found["general"] is not None  # only a rule for any number of heaps may guide


def test_only_a_rule_stated_for_any_number_of_heaps_lifts_to_more_heaps():
    from discover.expr.text import general_text

    general = Rule(sp.Eq(sp.Symbol("xor_all"), 0), ("a", "b", "c"))
    named = Rule(sp.Eq(sp.Symbol("a"), sp.Symbol("b")), ("a", "b"))
    assert general_text(general.expr) == "[the xor of all coordinates] = 0" and general_text(named.expr) is None
    positions = np.random.default_rng(0).integers(0, 14, size=(200, 7))
    assert (general.predicate(positions) == (np.bitwise_xor.reduce(positions, axis=1) == 0)).all()


def test_a_guided_arm_is_the_same_for_a_seed_and_records_its_rule():
    rule = Rule(sp.Eq(sp.Symbol("xor_all"), 0), ("a", "b", "c"))
    settings = ParitySettings(heaps=3, **TINY)
    runs = [train_arm(settings, "guided", 0, rule.to_json()) for _ in range(2)]
    strip = [[{k: v for k, v in r.items() if "seconds" not in k} for r in one["history"]] for one in runs]
    assert strip[0] == strip[1] and runs[0]["openings"] == runs[1]["openings"]
    assert set(runs[0]["openings"]) == {"network", "guided"} and runs[0]["start_value"] == 1  # 1 ^ 3 ^ 5 = 7: N
    assert [r["iteration"] for r in runs[0]["history"]] == [0, 1] and "guide_weight" in runs[0]["history"][1]


def test_opening_scores_count_only_the_games_a_seat_can_win():
    from games import make_game
    from learners.alphazero.play import OptimalMover
    from solvers import solve

    game = make_game("nim", heaps=3)
    solution = solve(game, starts=[(1, 3, 5)])
    positions = np.array([[1, 3, 5], [1, 2, 3], [0, 3, 5]])
    result = opening_scores(game, solution, OptimalMover(game, solution), positions, np.random.default_rng(0), 20)
    assert result["first"]["winnable"] == 2 and result["second"]["winnable"] == 1
    assert result["first"]["won"] == 2 and result["second"]["won"] == 1  # the perfect player wins what it can


def test_expert_play_is_counted_from_where_it_lasts_to_the_end():
    history = [{"iteration": i, "score_optimal_first": s, "optimal_move_rate": m}
               for i, s, m in ((0, 0.0, 0.1), (10, 100.0, 1.0), (20, 90.0, 1.0), (30, 100.0, 1.0))]
    assert first_expert(history, "first") == 30 and first_expert(history[:3], "first") is None
    assert first_expert(history[:2], "first", rate=None) == 10


def test_the_command_writes_the_report_and_refuses_what_it_does_not_take(cli, tmp_path):
    out = tmp_path / "nim-heaps3-parity"
    code, stdout, _ = cli("alphazero", "nim", "heaps=3", "--guided", "--iterations", "1", "--games", "4",
                          "--simulations", "4", "--eval-games", "4", "--hidden", "8", "--rule-heaps", "2",
                          "--rule-games", "64", "--seed", "3", "--repeats", "2", "--out", str(out))
    assert code == 0, stdout
    assert {p.name for p in out.iterdir()} == {"parity.json", "index.md", "index.html", "scores.png"}
    record = json.loads((out / "parity.json").read_text())
    assert record["settings"]["start"] == [1, 3, 5] and record["runs"][0]["arm"] == "alone"
    assert record["settings"]["seeds"] == [3, 4] and {r["seed"] for r in record["runs"]} == {3, 4}
    assert "Expert play here means" in (out / "index.md").read_text() and verdict(record).endswith("either arm.")
    for extra in (("--bound", "5"), ("--shards", "2"), ("--start", "random")):
        assert cli("alphazero", "nim", "heaps=3", "--guided", *extra, "--out", str(tmp_path / "x"))[0] == 2
    assert cli("alphazero", "wythoff", "--guided", "--out", str(tmp_path / "y"))[0] == 2
    assert cli("alphazero", "nim", "heaps=3", "--rule-heaps", "3", "--out", str(tmp_path / "z"))[0] == 2
    assert cli("alphazero", "nim", "heaps=3", "--repeats", "2", "--out", str(tmp_path / "z"))[0] == 2
    # the summary reads the report beside its folder, one row per arm and seed, and trains nothing
    assert cli("alphazero", "nim", "--guided", "--summary", "--out", str(tmp_path / "s"))[0] == 0
    summary = (tmp_path / "s" / "index.md").read_text()
    assert summary.count("| 3 | 48 (exact) |") == len(record["runs"]) and "nim-heaps3-parity" in summary
    for words in (("nim", "heaps=3"), ("nim", "--iterations", "2"), ("nim", "--repeats", "2"), ("wythoff",)):
        assert cli("alphazero", *words, "--guided", "--summary", "--out", str(tmp_path / "t"))[0] == 2
    assert cli("alphazero", "nim", "--summary", "--out", str(tmp_path / "t"))[0] == 2


def test_a_start_too_large_to_solve_is_refused_before_the_rule_is_sought(cli, tmp_path, monkeypatch):
    """The start is checked first (it was refused only after 3,840 discovery games): a box too large to solve is
    sampled, and one whose total is too large to sample is refused."""
    import discover.app.experiments.parity as parity

    monkeypatch.setattr(parity, "discover_guide_rule", lambda *a: pytest.fail("the rule was sought first"))
    code, _, err = cli("alphazero", "nim", "heaps=7", "--guided", "--start", "100000,3,5,7,9,11,13",
                       "--out", str(tmp_path / "p"))
    assert code == 2 and "a stratified sample takes at most" in err and not (tmp_path / "p").exists()
