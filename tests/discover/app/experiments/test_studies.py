"""The Nim study's and the Nim thesis's experiments: records, reports written whole, the commands."""

from __future__ import annotations

import json

from discover.app.experiments import learner_study, nim_scenarios
from games import make_game


def test_learning_study_runs_every_pairing():
    study = learner_study.run(make_game("nim", heaps=2), 3, ("q", "bayes"), episodes=1_500, games=100)
    assert set(study["curves"]) == {"q", "bayes"}
    assert set(study["first"]["q"]) == {"q", "bayes", "random"}
    assert all(0 <= v <= 1 for row in study["second"].values() for v in row.values())


def test_nim_scenarios_record_and_report(tmp_path):
    record = nim_scenarios.run(seeds=2, cap=20_000)
    assert [(r["opponent"], r["backup"]) for r in record["rows"]] == [(o, b) for o, _, b in nim_scenarios.SCENARIOS]
    against_optimal = record["rows"][0]
    assert len(against_optimal["episodes"]) == 2 and all(e is not None and e % 100 == 0 for e in against_optimal["episodes"])
    nim_scenarios.write(record, tmp_path / "scenarios")
    assert sorted(p.name for p in (tmp_path / "scenarios").iterdir()) == ["index.html", "index.md", "scenarios.json"]
    assert json.loads((tmp_path / "scenarios" / "scenarios.json").read_text())["cap"] == 20_000


def test_scenarios_command(cli, tmp_path):
    code, out, err = cli("scenarios", "--seeds", "1", "--cap", "5000", "--out", str(tmp_path / "s"))
    assert code == 0 and "Q vs optimal" in out and "wrote" in out
    assert (tmp_path / "s" / "index.html").is_file()
