"""learners.sweep, discover.app.render.sweep and ``discover sweep``: strict grids, the same sweep.json on every backend and worker
count, resuming a killed sweep, the report."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from cgbase.parallel import Workers
from discover.app.render.sweep import write
from games import make_game
from learners import sweep

NIM2 = make_game("nim", heaps=2)
GRID = "alpha=0.2,0.9 epsilon=0.1"


def tiny(workers=None, folder=None, repeats=2):
    return sweep.run("q", NIM2, GRID, bound=3, repeats=repeats, episodes=800, opponent="copy", points=4,
                     workers=workers, folder=folder)


@pytest.fixture(scope="module")
def serial_text():
    return sweep.sweep_json(tiny())


@pytest.mark.parametrize("text, message", [
    ("alpah=0.1", "no parameter 'alpah' (did you mean alpha?)"),
    ("random_state=1,2", "seeds are the sweep's"),
    ("alpha=0.1 alpha=0.2", "alpha is given twice"),
    ("alpha", "is not name=value"),
    ("alpha=0.1,", "alpha='' is neither"),
    ("gamma=1/2", "gamma='1/2' is neither"),
    ("alpha=1.5", "cannot take alpha=1.5: alpha must be in (0, 1]"),
    ("backup=sideways", "cannot take backup=sideways"),
    ("backup=1", "backup=1 is not a str"),
    ("epsilon=true", "epsilon=True is not a float"),
    ("epsilon=nan", "cannot take epsilon=nan: epsilon must be a number"),
])
def test_grid_text_is_parsed_strictly(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        sweep.parse_grid(text, "q")


def test_grid_values_take_the_parameters_kinds():
    assert sweep.parse_grid("alpha=1,visits gamma=0.5 backup=reply", "q") == {
        "alpha": [1.0, "visits"], "gamma": [0.5], "backup": ["reply"]}
    assert sweep.grid_points(sweep.parse_grid("", "bayes")) == [{}]


def test_runs_hold_params_seed_metrics_and_curve(serial_text):
    record = json.loads(serial_text)
    assert record["sweep"]["grid"] == {"alpha": [0.2, 0.9], "epsilon": [0.1]}
    assert [(r["params"]["alpha"], r["seed"]) for r in record["runs"]] == [(0.2, 0), (0.2, 1), (0.9, 0), (0.9, 1)]
    run = record["runs"][0]
    assert run["curve"]["episode"] == [200, 400, 600, 800]
    assert set(run["final"]) >= {"deviations", "optimal_move_rate", "win_rate_random", "win_rate_optimal",
                                 "optimal_move_rate_mean", "episodes_to_optimal"}
    assert run["final"]["deviations"] == run["curve"]["deviations"][-1]
    assert len({json.dumps(r["curve"]) for r in record["runs"]}) == 4  # seeds and settings differ


def test_local_workers_and_ray_write_the_serial_numbers(serial_text, ray_instance):
    assert sweep.sweep_json(tiny(Workers("local", 2))) == serial_text
    assert sweep.sweep_json(tiny(Workers("ray"))) == serial_text


def test_a_folder_resumes_and_refuses_other_settings(tmp_path, serial_text):
    folder = tmp_path / "sweep"
    first = tiny(folder=folder, repeats=1)  # half the runs
    assert first["resumed"] == 0 and len(first["runs"]) == 2
    again = tiny(folder=folder)
    assert again["resumed"] == 2 and sweep.sweep_json(again) == serial_text
    write(again, folder)
    assert sorted(p.name for p in folder.iterdir()) == ["curves.png", "index.html", "index.md", "sweep.json"]
    assert tiny(folder=folder)["resumed"] == 4  # a finished sweep is read back from its sweep.json
    with pytest.raises(ValueError, match="other settings.*episodes 800"):
        sweep.run("q", NIM2, GRID, bound=3, episodes=900, opponent="copy", points=4, folder=folder)


def test_report_ranks_settings_with_intervals(tmp_path):
    record = tiny()
    write(record, tmp_path / "s", rank="deviations")
    text = (tmp_path / "s" / "index.md").read_text()
    assert "best first by deviations at the end" in text and "| rank | alpha | epsilon |" in text
    with pytest.raises(ValueError, match="no run has the metric 'score'"):
        write(record, tmp_path / "t", rank="score")


def test_sweep_command_and_bad_input(cli, one_error_line, tmp_path):
    code, out, err = cli("sweep", "q", "nim", "heaps=2", "--bound", "3", "--grid", "alpha=0.5", "--repeats", "2",
                         "--episodes", "500", "--backend", "serial", "--out", str(tmp_path / "s"))
    assert code == 0 and out.startswith("1. alpha=0.5: optimal_move_rate_mean") and "2 runs (0 resumed)" in out
    one_error_line(*cli("sweep", "q", "nim", "--grid", "alpah=0.1", "--out", str(tmp_path / "x")))
    one_error_line(*cli("sweep", "bayes", "nim", "--backend", "serial", "--workers", "2"))
    one_error_line(*cli("sweep", "q", "nim", "--address", "auto", "--out", str(tmp_path / "y")))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    one_error_line(*cli("sweep", "q", "nim", "--out", str(tmp_path / "other")))


@pytest.mark.slow
def test_a_killed_sweep_resumes_to_the_same_result(tmp_path):
    folder = tmp_path / "killed"
    command = [sys.executable, "-m", "discover", "sweep", "q", "nim", "heaps=2", "--bound", "3", "--grid",
               "alpha=0.1,0.3,0.5,0.7,0.9", "--repeats", "3", "--episodes", "20000", "--opponent", "copy",
               "--points", "4", "--backend", "serial", "--out", str(folder)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    journal = folder / sweep.JOURNAL
    deadline = time.monotonic() + 300
    while process.poll() is None and time.monotonic() < deadline:
        if journal.is_file() and journal.read_text().count("\n") >= 4:  # the settings and three runs
            break
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    finished = journal.read_text().count("\n") - 1
    assert 3 <= finished < 15, finished
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert f"15 runs ({finished} resumed)" in resumed.stdout
    whole = sweep.run("q", NIM2, "alpha=0.1,0.3,0.5,0.7,0.9", bound=3, repeats=3, episodes=20_000,
                      opponent="copy", points=4)
    assert (folder / "sweep.json").read_text() == sweep.sweep_json(whole)


def test_an_unknown_rank_is_refused_before_any_run(tmp_path):
    folder = tmp_path / "s"
    with pytest.raises(ValueError, match="no metric 'zzz': use one of deviations, .*optimal_move_rate_mean"):
        sweep.run("q", NIM2, GRID, bound=3, episodes=10**9, opponent="copy", folder=folder, rank="zzz")
    assert not folder.exists()
    assert sweep.check_rank("alphazero", NIM2, "value_loss", bound=3) == "value_loss"
