"""The Hex exploration experiment: run on tiny budgets, the statistics, the report folder and bad input."""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest

from discover.app.experiments.explore import preset, run, verdict, write
from learners.repeats import interval, share_interval
from games import make_game

TINY = {"layers": 2, "width": 4, "games": 4, "batch_size": 8}


@pytest.fixture(scope="module")
def record():
    return run(make_game("hex", n=2), ["minimax", "joint", "solver"], episodes=24, seeds=[0, 1, 2], learner=TINY,
               eval_every=8)


def test_every_variant_has_the_same_games_and_seeds(record):
    assert [(r["variant"], r["seed"]) for r in record["runs"]] == [
        (v, s) for v in ("minimax", "joint", "solver") for s in (0, 1, 2)]
    for r in record["runs"]:
        assert [h["episode"] for h in r["history"]] == [8, 16, 24]
        assert 0.0 <= r["final"]["accuracy"] <= 1.0 and r["final"]["opening_wins"] in (0.0, 1.0)
    assert record["measure"]["source"] == "retrograde solver" and record["measure"]["final_positions"] == 19


def test_the_summary_pairs_seeds_against_the_baseline(record):
    finals = {(r["variant"], r["seed"]): r["final"]["accuracy"] for r in record["runs"]}
    difference = record["summary"]["joint"]["difference"]
    assert difference["values"] == pytest.approx([finals["joint", s] - finals["minimax", s] for s in (0, 1, 2)])
    assert "difference" not in record["summary"]["minimax"]
    assert record["summary"]["solver"]["accuracy"]["mean"] == pytest.approx(np.mean([finals["solver", s] for s in (0, 1, 2)]))


def test_interval_by_hand():
    entry = interval([1.0, 2.0, 3.0])  # sd 1, t(0.975, 2) = 4.3027
    assert entry["mean"] == 2.0 and entry["high"] - 2.0 == pytest.approx(4.302653 / np.sqrt(3))
    assert np.isnan(interval([0.5])["low"]) and interval([np.nan, 0.5])["n"] == 1


def test_intervals_of_shares_stay_inside_0_and_1():
    entry = interval([0.8, 0.9, 1.0], (0.0, 1.0))  # the t interval alone would reach 1.148
    assert entry["low"] == pytest.approx(0.9 - 4.302653 * 0.1 / np.sqrt(3)) and entry["high"] == 1.0
    share, low, high = share_interval(10, 10)  # Wilson: 10 of 10 games
    assert share == 1.0 and 0.69 < low < 0.73 and high == pytest.approx(1.0)
    assert share_interval(0, 10)[1] == pytest.approx(0.0) and 0 < share_interval(0, 10)[2] < 0.31


def test_the_report_folder_is_written_whole_and_replaced(record, tmp_path):
    folder = tmp_path / "hex-n2-explore"
    files = ["curves.png", "explore.json", "index.html", "index.md", "openings.png"]
    write(record, folder)
    assert sorted(os.listdir(folder)) == files
    (folder / "stale.txt").write_text("from an earlier run")
    write(record, folder)
    assert sorted(os.listdir(folder)) == files
    assert sorted(os.listdir(tmp_path)) == ["hex-n2-explore"]  # no temporary folder left behind
    saved = json.loads((folder / "explore.json").read_text())
    assert saved["settings"]["episodes"] == 24 and len(saved["runs"]) == 9
    text = (folder / "index.md").read_text()
    assert "| joint |" in text and "| solver |" in text and "figure 1" in text and "](openings.png)" in text
    assert "1.148" not in text and all(float(x) <= 1 for x in re.findall(r"\[[0-9.]+, ([0-9.]+)\]", text)[:3])
    with pytest.raises(ValueError, match="is not a folder"):
        write(record, folder / "index.md")


def test_search_and_no_exact_measure(tmp_path):
    game = make_game("hex", n=3)
    searched = run(game, ["minimax"], episodes=8, seeds=[0], learner=TINY, exact="search", final_sample=12)
    about = searched["measure"]
    assert about["source"] == "proof-number search" and 0 < about["final_positions"] <= 12
    assert len(about["opening_wins"]) == 9 and "accuracy" in searched["runs"][0]["history"][-1]
    blind = run(game, ["minimax", "joint"], episodes=8, seeds=[0, 1], learner=TINY, exact="none")
    assert "accuracy" not in blind["runs"][0]["final"] and blind["summary"]["joint"]["difference"]["n"] == 0
    write(blind, tmp_path / "blind")
    assert "| joint | - |" in (tmp_path / "blind" / "index.md").read_text()


def test_bad_input_is_refused():
    game = make_game("hex", n=2)
    with pytest.raises(ValueError, match="unknown variants"):
        run(game, ["minimax", "greedy"], episodes=2, seeds=[0])
    with pytest.raises(ValueError, match="seeds"):
        run(game, ["minimax"], episodes=2, seeds=[1, 1])
    with pytest.raises(ValueError, match="exact measure"):
        run(game, ["minimax"], episodes=2, seeds=[0], exact="oracle")


def test_presets_grow_with_the_board():
    budgets = [preset(make_game("hex", n=n))["episodes"] for n in (3, 4, 5)]
    assert budgets == sorted(budgets) and preset(make_game("hex", n=6)) == preset(make_game("hex", n=7))
    seven = preset(make_game("hex", n=7))  # the paper's three methods on a reduced CPU budget
    assert seven["variants"] == ["minimax", "pseudocount", "solver"] and "device" not in seven["learner"]
    assert seven["per_variant"] == {"solver": {"solver_nodes": 20}} and seven["nodes"] >= 100


def test_the_solver_measure_on_positions_met_in_play(tmp_path):
    solved = run(make_game("hex", n=4), ["minimax", "pseudocount", "solver"], episodes=16, seeds=[0, 1],
                 learner=TINY, exact="solver", final_sample=40, nodes=5000, per_variant={"solver": {"solver_nodes": 7}})
    about = solved["measure"]
    assert about["source"] == "solver with virtual connections" and about["node_budget"] == 5000
    assert about["unsettled_positions"] == 0
    assert about["final_positions"] + about["lost_positions"] == about["sampled_positions"]
    assert [r["params"]["solver_nodes"] for r in solved["runs"]] == [0, 0, 0, 0, 7, 7]
    for r in solved["runs"]:
        final = r["final"]
        assert final["settled"] + final["unsettled_moves"] == about["final_positions"]
        assert final["accuracy"] == pytest.approx(final["won"] / final["settled"])
    write(solved, tmp_path / "seven")
    text = (tmp_path / "seven" / "index.md").read_text()
    assert "Wilson" in text and "100,000 self-play games" in text and "| minimax | all |" in text
    assert "--exact solver" in text and "--node-budget 5000" in text and "The paper's claim" in text
    with pytest.raises(ValueError, match="needs Hex up to 7 x 7"):
        run(make_game("tictactoe"), ["minimax"], episodes=2, seeds=[0], exact="solver")


def test_the_paper_claim_by_the_evidence():
    from discover.app.experiments.explore_solved import paper_claim

    def claim(*diffs):
        summary = {f"v{i}": {"difference": {"mean": m, "n": 3, "p_holm": p}} for i, (m, p) in enumerate(diffs)}
        return paper_claim({"settings": {"variants": ["minimax", *summary]}, "summary": summary})[0]

    assert claim((-0.1, 0.01), (-0.05, 0.04)) == "confirmed"
    assert claim((-0.1, 0.01), (0.05, 0.04)) == "refuted"
    assert claim((-0.1, 0.01), (-0.05, 0.2)) == "undecided" and claim((0.1, 0.3)) == "undecided"


def test_holm_adjustment_and_verdict(record):
    raw = {v: record["summary"][v]["difference"]["p_value"] for v in ("joint", "solver")}
    low, high = sorted(raw, key=raw.get)
    assert record["summary"][low]["difference"]["p_holm"] == pytest.approx(min(1.0, 2 * raw[low]))
    assert record["summary"][high]["difference"]["p_holm"] == pytest.approx(max(min(1.0, 2 * raw[low]), raw[high]))
    lines = verdict(record)
    assert len(lines) == 2 and all("minimax" in line for line in lines)
