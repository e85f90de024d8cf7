"""Issue 39: ``discover report`` replaces an earlier report only with ``--force``, as ``learn`` replaces a run."""

from __future__ import annotations

import os

from discover.app.render.report import report_folder
from games import make_game


def test_report_refuses_to_replace_an_earlier_report_without_force(cli, one_error_line, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = ("report", "subtraction", "subtract=1,2", "--bound", "12", "--verify-bound", "40", "--no-proof")
    code, out, err = cli(*argv, "--out", "r")
    assert code == 0, err
    os.utime(tmp_path / "r" / "index.md", (0, 0))
    code, out, err = cli(*argv, "--out", "r")
    one_error_line(code, out, err)
    assert "holds an earlier report: give --force" in err
    assert os.stat(tmp_path / "r" / "index.md").st_mtime == 0  # untouched
    code, out, err = cli(*argv, "--out", "r", "--force")
    assert code == 0, err
    assert os.stat(tmp_path / "r" / "index.md").st_mtime > 0


def test_report_checks_its_default_folder_before_any_work(cli, one_error_line, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / report_folder(make_game("subtraction", subtract=(1, 2)))
    folder.mkdir(parents=True)
    for name in ("index.md", "discovery.json"):
        (folder / name).write_text("earlier")
    import discover.find

    def no_work(*args, **kwargs):
        raise AssertionError("the rule was looked for before the folder was checked")

    monkeypatch.setattr(discover.find, "find_rule", no_work)
    one_error_line(*cli("report", "subtraction", "subtract=1,2"))
    assert (folder / "index.md").read_text() == "earlier"
