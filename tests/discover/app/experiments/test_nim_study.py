"""discover.app.experiments.nim_study and ``discover study``: sweeps, best settings, repeated tournament, verdict."""

from __future__ import annotations

import json

import pytest

from discover.app.experiments import nim_study
from games import make_game

SMALL = {"q": {"alpha": [0.2, 0.9]}, "qt": {"eta": [1e-3]}, "bayes": {"discount": [0.5, 0.9]}}


def repeat(bayes: float, q: float = 0.5) -> dict:
    return {"first": {"q": {"q": q, "random": q}, "qt": {"q": q, "random": q}, "bayes": {"q": bayes, "random": bayes}}}


@pytest.mark.parametrize("bayes, outcome", [([0.7, 0.72, 0.71], "beats"), ([0.3, 0.32, 0.31], "loses to"),
                                            ([0.4, 0.6, 0.5], "no clear difference")])
def test_verdict_reads_the_interval_of_the_paired_difference(bayes, outcome):
    verdict = nim_study.verdict([repeat(b) for b in bayes])
    assert verdict["q"]["outcome"] == verdict["qt"]["outcome"] == outcome
    assert verdict["paper_claim_holds"] == (outcome == "beats")
    assert verdict["q"]["low"] <= verdict["q"]["difference"] <= verdict["q"]["high"]


def test_study_runs_resumes_and_writes(tmp_path):
    folder = tmp_path / "study"
    args = dict(bound=3, episodes=600, repeats=2, games=60, families=SMALL, folder=folder)
    record = nim_study.run(make_game("nim", heaps=2), **args)
    assert [len(record["sweeps"][f]["runs"]) for f in SMALL] == [4, 2, 4]
    assert record["sweeps"]["q"]["sweep"]["grid"]["backup"] == ["reply"]
    assert set(record["params"]) == {"q", "qt", "bayes"}
    assert len(record["tournament"]["repeats"]) == 2
    again = nim_study.run(make_game("nim", heaps=2), **args)
    assert [again["sweeps"][f]["resumed"] for f in SMALL] == [4, 2, 4]
    assert again["tournament"]["repeats"] == record["tournament"]["repeats"]
    nim_study.write(again, folder)
    assert sorted(p.name for p in folder.iterdir()) == ["bayes", "figure-5.png", "figure-6.png", "index.html",
                                                        "index.md", "q", "qt", "study.json"]
    assert (folder / "q" / "sweep.json").is_file() and not (folder / "tournament.jsonl").exists()
    saved = json.loads((folder / "study.json").read_text())
    assert saved["verdict"]["q"]["outcome"] in ("beats", "loses to", "no clear difference")
    assert "Does the Bayes agent beat the Q agents?" in (folder / "index.md").read_text()


def test_study_command_refuses_bad_input(cli, one_error_line, tmp_path):
    one_error_line(*cli("study", "nim", "--backend", "serial", "--workers", "3", "--out", str(tmp_path / "a")))
    one_error_line(*cli("study", "octal", "code=0.07", "--out", str(tmp_path / "b")))
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "mine.txt").write_text("keep")
    one_error_line(*cli("study", "nim", "--out", str(tmp_path / "c")))


def test_probe_a_tournament_record_missing_its_rates_is_refused_in_one_line(tmp_path):
    """Probe of issue 20: a tournament journal's record without its win rates gave a KeyError."""
    from cgbase.journal import append_record, start_journal
    from cgbase.parallel import Workers

    game, params = make_game("nim", heaps=2), {"q": {"alpha": 0.5}}
    start_journal(tmp_path / nim_study.JOURNAL, {"tournament": {"game": game.spec(), "bound": 3, "params": params,
                                                                "episodes": 100, "games": 10}})
    append_record(tmp_path / nim_study.JOURNAL, {"seed": 0, "second": {}, "n_share": 0.5})
    with pytest.raises(ValueError, match=r"tournament.jsonl, line 2: field first is missing"):
        nim_study._tournament(game, 3, params, 100, 1, 10, 0, Workers("serial"), tmp_path)
