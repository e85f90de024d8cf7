"""Reports: the files a report holds, what they say, folder names, and all-or-nothing writing."""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest
import sympy as sp
from matplotlib.image import imread

from discover.expr.nodes import BitXor
from discover.find import Discovery, find_rule
from discover.app.render import report as report_module
from discover.app.render.report import check_report_folder, report_folder, write_report
from discover.rule import Rule
from discover.verify import verify_rule
from games import custom_game, make_game

n = sp.Symbol("n")
SUBTRACTION = make_game("subtraction", subtract=(1, 3, 4))
FILES = {"index.md", "index.html", "exact.png", "grundy.png", "rule.json", "discovery.json"}  # a verified rule's
DISAGREEING = {"rule.png", "disagreement.png"}  # drawn only where a rule differs from the solver


@pytest.fixture(scope="module")
def found():
    return find_rule(SUBTRACTION, games=10)


def _trial(game, rule, bound, train_bound=10):
    """A Discovery for a hand-made rule, judged by the real checks."""
    checks = verify_rule(rule, game, bound, games=5)
    ok = all(c.passed for c in checks)
    return Discovery(game, rule, "verified" if ok else "refuted", bound if ok else None, [rule], checks,
                     train_bound, bound)


def _read(folder, name):
    return (folder / name).read_text(encoding="utf-8")


def test_subtraction_report_holds_every_file_and_reads_back(found, tmp_path):
    assert found.status == "verified"
    folder = write_report(found, tmp_path / "sub")
    assert folder == tmp_path / "sub"
    assert set(os.listdir(folder)) == FILES
    for name in FILES:
        if name.endswith(".png"):
            assert (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            height, width = imread(folder / name).shape[:2]
            assert width > 800 and height > 200, name

    rule = Rule.from_json(_read(folder, "rule.json"))
    assert rule.text() == found.rule.text() == "n mod 7 ∈ {0, 2}"
    heaps = np.arange(2000)[:, None]
    assert np.array_equal(rule.predicate(heaps), found.rule.predicate(heaps))
    record = json.loads(_read(folder, "discovery.json"))
    assert record == json.loads(json.dumps(found.to_record()))
    assert Rule.from_json(record["rule"]).text() == rule.text()

    md = _read(folder, "index.md")
    assert "**Status: verified** up to bound 300" in md
    assert f"$$\n{found.rule.latex()}\n$$" in md
    assert "Plain text: `n mod 7 ∈ {0, 2}`" in md
    assert "periodic with period 7" in md  # the engine's words
    assert "| check | passed | detail | counterexample | seconds |" in md
    for check in found.checks:
        assert f"| {check.name} | yes |" in md
    assert "| 1 | `n mod 7 ∈ {0, 2}` | sequence | 7 | 100.00% |" in md
    assert "## Strategy and proof" in md and f"`{found.strategy.text()}`" in md
    assert f"Proved for every position, by {found.proof.method}" in md
    for image in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md):
        assert (folder / image).is_file()
    assert len(re.findall(r"!\[", md)) == 2
    assert "The rule and the solver agree on every one of the 301 positions drawn" in md

    page = _read(folder, "index.html")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page and "http://" not in page and "https://" not in page
    assert "<code>n \\bmod 7 \\in \\{0, 2\\}</code>" in page
    assert '<math display="block"><mrow><mrow><mi>n</mi><mo>mod</mo><mn>7</mn></mrow>' in page  # typeset offline
    sources = re.findall(r'<img src="([^"]+)"', page)
    assert sorted(sources) == sorted(f for f in FILES if f.endswith(".png"))


def test_a_failure_while_writing_leaves_no_folder(found, tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    # the partition figures are already in the temporary folder when the Grundy figure fails
    monkeypatch.setattr(report_module, "grundy_figure", broken)
    with pytest.raises(RuntimeError, match="disk on fire"):
        write_report(found, tmp_path / "sub")
    assert os.listdir(tmp_path) == []


def test_a_failure_keeps_the_previous_report_whole(found, tmp_path, monkeypatch):
    folder = write_report(found, tmp_path / "sub")
    before = {name: (folder / name).read_bytes() for name in os.listdir(folder)}

    def broken(*args, **kwargs):
        raise RuntimeError("interrupted")

    monkeypatch.setattr(report_module, "write_document", broken)
    with pytest.raises(RuntimeError):
        write_report(found, folder)
    assert os.listdir(tmp_path) == ["sub"]
    assert {name: (folder / name).read_bytes() for name in os.listdir(folder)} == before

    monkeypatch.undo()
    (folder / "stale.txt").write_text("from an older report")
    write_report(found, folder)  # a report is replaced as a whole
    assert set(os.listdir(folder)) == FILES
    assert os.listdir(tmp_path) == ["sub"]


def test_refuses_targets_that_are_not_reports(found, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(ValueError, match="is not an earlier result"):
        write_report(found, mine)
    assert os.listdir(mine) == ["notes.txt"]
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="is not a folder"):
        write_report(found, tmp_path / "file")
    with pytest.raises(ValueError, match="file is a file"):
        check_report_folder(tmp_path / "file" / "reports" / "sub")  # refused before any work
    with pytest.raises(TypeError, match="Discovery"):
        write_report(found.rule, tmp_path / "x")
    assert sorted(os.listdir(tmp_path)) == ["file", "mine"]


def test_refuted_rule_shows_its_counterexample_and_disagreement(tmp_path):
    wrong = Rule(sp.Eq(sp.Mod(n, 4), 0), ("n",))
    discovery = _trial(SUBTRACTION, wrong, 60)
    assert discovery.status == "refuted"
    folder = write_report(discovery, tmp_path / "wrong")
    md = _read(folder, "index.md")
    assert "**Status: refuted**" in md and "failed the check 'agreement with the solver'" in md
    assert "| agreement with the solver | NO |" in md and "`position=(2,), rule=N, solver=P`" in md
    truth = np.isin(np.arange(61) % 7, (0, 2))
    said = np.arange(61) % 4 == 0
    assert f"disagree on {int((truth != said).sum())} of 61 positions drawn" in md
    assert "the ring marks the counterexample (2,)" in md
    assert DISAGREEING <= set(os.listdir(folder))


def test_a_counterexample_beyond_the_usual_window_is_drawn(tmp_path):
    # right up to 503, wrong at 504 and 505 only: a window from 0 would show no disagreement
    planted = sp.Or(sp.And(sp.Contains(sp.Mod(n, 7), sp.FiniteSet(0, 2)), sp.Ne(n, 504)), sp.Eq(n, 505))
    discovery = _trial(SUBTRACTION, Rule(planted, ("n",)), 1000)
    assert discovery.status == "refuted"
    md = _read(write_report(discovery, tmp_path / "far"), "index.md")
    assert "disagree on 2 of 301 positions drawn (354 ≤ n ≤ 654)" in md
    assert "the ring marks the counterexample (504,)" in md


def test_no_rule_report_draws_the_exact_partition_only(tmp_path):
    discovery = Discovery(SUBTRACTION, None, "none", None, [], [], 30, 90)
    folder = write_report(discovery, tmp_path / "none")
    assert set(os.listdir(folder)) == {"index.md", "index.html", "exact.png", "grundy.png", "discovery.json"}
    md = _read(folder, "index.md")
    assert "**Status: no rule**" in md and "No rule was put on trial." in md
    assert "rule.json" not in md


def test_three_heap_nim_draws_two_slices(tmp_path):
    a, b, c = sp.symbols("a b c")
    game = make_game("nim", heaps=3)
    discovery = _trial(game, Rule(sp.Eq(BitXor(a, b, c), 0), ("a", "b", "c")), 12)
    assert discovery.status == "verified"
    folder = write_report(discovery, tmp_path / "nim")
    assert set(os.listdir(folder)) == FILES
    md = _read(folder, "index.md")
    assert "a \\oplus b \\oplus c = 0" in md
    assert "agree on every one of the 338 positions drawn" in md  # two slices of 13 x 13
    assert "slice c = 0 and slice c = 7" in md  # the middle slice shows the xor pattern, 0 and 1 are diagonals
    height, width = imread(folder / "exact.png").shape[:2]
    assert width > 1.5 * height  # two square slices side by side


def test_misere_game_has_no_grundy_figure_and_2d_disagreement(tmp_path):
    a, b = sp.symbols("a b")
    game = make_game("wythoff", misere=True)
    discovery = _trial(game, Rule(sp.Eq(a, b), ("a", "b")), 20)
    assert discovery.status == "refuted"
    folder = write_report(discovery, tmp_path / "w")
    assert "grundy.png" not in os.listdir(folder)
    assert {"exact.png", "rule.png", "disagreement.png"} <= set(os.listdir(folder))


def test_grundy_rule_disagreement_counts_wrong_values(tmp_path):
    game = make_game("octal", code="0.3")  # Grundy value n mod 2
    wrong = Rule(2 * sp.Mod(n, 2), ("n",), target="grundy")  # right P positions, wrong values
    discovery = _trial(game, wrong, 40)
    assert discovery.status == "refuted"
    md = _read(write_report(discovery, tmp_path / "octal"), "index.md")
    assert "disagree on 20 of 41 positions drawn (0 ≤ n ≤ 40) (Grundy values compared)" in md


@pytest.mark.parametrize(
    "game, name",
    [
        (make_game("wythoff"), "wythoff"),
        (make_game("wythoff", misere=True), "wythoff-misere"),
        (make_game("nim", heaps=3), "nim-heaps3"),
        (make_game("nim", heaps=4, misere=True), "nim-heaps4-misere"),
        (make_game("euclid"), "euclid"),
        (make_game("subtraction", subtract=(1, 3, 4)), "subtraction-subtract1_3_4"),
        (make_game("octal", code="0.07"), "octal-code0.07"),
        (make_game("moore", heaps=4, k=2), "moore-heaps4-k2"),
        (custom_game("my game/2", lambda p: [], dims=1), "my_game_2-dims1"),
    ],
)
def test_report_folder_names(game, name):
    assert report_folder(game).as_posix() == f"reports/{name}"
    assert report_folder(game, root="out").as_posix() == f"out/{name}"
