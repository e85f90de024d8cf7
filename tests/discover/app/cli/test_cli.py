"""Smoke tests of the ``discover`` command with tiny bounds: listing, solving, plotting, saving,
showing, routing a game name to ``rule``, and one stderr line with exit status 2 for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from discover.find import default_bound
from games import make_game
from cgbase.version import __version__
from games import GAMES




# -- working commands ----------------------------------------------------------------------------
def test_version_and_help(cli):
    code, out, _ = cli("--version")
    assert code == 0 and out.strip() == f"discover {__version__}"
    code, out, _ = cli()
    assert code == 0 and "Usage: discover" in out and "solve" in out
    code, out, _ = cli("solve", "--help")
    assert code == 0 and "--bound" in out and "--plot" in out


def test_games_lists_every_family_with_types_and_defaults(cli):
    code, out, err = cli("games")
    assert code == 0 and err == ""
    for name in GAMES:
        assert name in out
    for text in ("heaps: int = 3", "misere: bool = false", "code: str = 0.77", "rows: int = 2"):
        assert text in out


def test_game_name_first_finds_and_verifies_the_rule(cli):
    code, out, err = cli("wythoff")
    assert code == 0 and err == ""
    assert "Rule (verified on bound 300; proved for every position)" in out
    assert "{⌊kφ⌋, ⌊kφ²⌋}" in out and "min(a, b) = ⌊φ·|a - b|⌋" in out
    assert "\nStrategy: " in out and "(a, b) → (a - s + ⌊φ·t⌋, b - s + ⌊φ·t⌋)" in out
    assert "✓ proof for every position (theorem: complementary mex pairs (Wythoff) and Beatty's theorem" in out
    assert out.count("✓") == 4
    code, out, _ = cli("nim", "heaps=2", "misere=true", "--bound", "5", "--engines", "decision_list", "--no-proof")
    assert code == 0 and "nim(heaps=2, misere=True)" in out and "verified on bound 50" in out
    assert "Strategy:" not in out and "proof" not in out
    code, out, _ = cli("wythoff", "--no-strategy", "--json")  # the proof without a strategy: Wythoff's theorem
    record = json.loads(out)
    assert code == 0 and record["strategy"] is None and record["proof"]["status"] == "proved"
    assert "strategy" not in record["timings"]


def test_default_bound_shrinks_with_dimensions():
    bounds = [default_bound(make_game("nim", heaps=k)) for k in (1, 2, 3, 5)]
    assert bounds[0] == bounds[1] == 30
    assert bounds[2] < 30 and bounds[3] < bounds[2]


def test_solve_plot_save_then_show(cli, tmp_path):
    png, saved = tmp_path / "w.png", tmp_path / "w.npz"
    code, out, err = cli("solve", "wythoff", "--bound", "60", "--plot", str(png), "--save", str(saved))
    assert code == 0 and err == ""
    assert "losses (P)" in out and "time" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 1000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.npz", "w.png"]  # no temporary files left
    counts = [line for line in out.splitlines() if "losses (P)" in line]
    code, out, err = cli("show", str(saved))
    assert code == 0 and err == ""
    assert [line for line in out.splitlines() if "losses (P)" in line] == counts


def test_one_dimensional_plot_grundy_and_tuple_parameter(cli, tmp_path):
    png = tmp_path / "s.png"
    code, out, err = cli("solve", "subtraction", "subtract=1,3,4", "--bound", "40", "--grundy", "--plot", str(png))
    assert code == 0, err
    assert "subtract=(1, 3, 4)" in out
    assert "0, 2, 7, 9, 14, 16" in out  # P positions: n mod 7 in {0, 2}
    assert "Grundy values from 0" in out
    assert png.stat().st_size > 1000


def test_remoteness(cli):
    code, out, err = cli("solve", "wythoff", "--bound", "8", "--remoteness")
    assert code == 0, err
    assert "longest game" in out


# -- bad input: one line on stderr, exit status 2 -----------------------------------------------
@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["wythof"], "wythoff"),
        (["solv", "wythoff"], "solve"),
        (["solve", "wythof"], "wythoff"),
        (["solve", "nim", "heap=3"], "heaps"),
        (["solve", "nim", "heaps=x"], "integer"),
        (["solve", "nim", "misere"], "name=value"),
        (["solve", "wythoff", "--bound", "0"], "positive integer"),
        (["solve", "wythoff", "--bound", "-3"], "positive integer"),
        (["solve", "wythoff", "--bound", "abc"], "positive integer"),
        (["solve", "wythoff", "--bound", "2.5"], "positive integer"),
        (["wythoff", "--bound", "0"], "positive integer"),
        (["solve", "nim", "heaps=12", "--bound", "20"], "smaller bound"),
        (["solve", "nim", "heaps=12", "--bound", "1000"], "smaller bound"),
        (["solve"], "name a game"),
        (["solve", "wythoff", "--frobnicate"], "--frobnicate"),
        (["games", "extra"], "extra"),
        (["solve", "wythoff", "misere=true", "--grundy"], "Grundy"),
        (["show", "missing.npz"], "missing.npz"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, one_error_line, tmp_path, monkeypatch, argv, hint):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(*argv)
    one_error_line(code, out, err)
    assert hint in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["x.txt", "no_such_folder/x.png", "3d"])
def test_bad_plot_is_refused_before_solving(cli, one_error_line, tmp_path, name):
    game = ["nim"] if name == "3d" else ["wythoff"]
    target = tmp_path / ("x.png" if name == "3d" else name)
    code, out, err = cli("solve", *game, "--bound", "5", "--plot", str(target))
    one_error_line(code, out, err)
    assert list(tmp_path.iterdir()) == []


def test_corrupt_or_truncated_solution_file(cli, one_error_line, tmp_path):
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a solution at all")
    one_error_line(*cli("show", str(garbage)))
    good = tmp_path / "good.npz"
    assert cli("solve", "wythoff", "--bound", "20", "--save", str(good))[0] == 0
    truncated = tmp_path / "truncated.npz"
    data = good.read_bytes()
    truncated.write_bytes(data[: len(data) // 2])
    one_error_line(*cli("show", str(truncated)))
    one_error_line(*cli("show", str(tmp_path)))


def test_failed_plot_leaves_no_file(cli, tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    def broken(self, handle, **kwargs):
        handle.write(b"half an image")
        raise OSError("disk full")

    monkeypatch.setattr(Figure, "savefig", broken)
    code, out, err = cli("solve", "wythoff", "--bound", "10", "--plot", str(tmp_path / "w.png"))
    assert code == 2 and "disk full" in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


# -- the real process: console script, no traceback, nothing but the table on stdout --------------
def _discover(*argv):
    script = "import sys; from discover.app.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True, timeout=120)


def test_process_exit_codes_and_streams():
    bad = _discover("solve", "wythoff", "--bound", "-1")
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1 and "Traceback" not in bad.stderr
    good = _discover("solve", "wythoff", "--bound", "12")
    assert good.returncode == 0 and good.stderr == ""
    assert "\x1b" not in good.stdout and "losses (P)" in good.stdout


def test_console_script_is_installed():
    script = os.path.join(os.path.dirname(sys.executable), "discover")
    if not os.path.exists(script):
        pytest.skip("the discover script is not installed next to this interpreter")
    done = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"discover {__version__}"


def test_python_dash_m_is_the_same_command():  # what each command imports: test_startup.py
    direct = subprocess.run([sys.executable, "-m", "discover", "--help"], capture_output=True, text=True, timeout=60)
    package = subprocess.run([sys.executable, "-m", "discover.app.cli", "--help"], capture_output=True, text=True,
                             timeout=60)
    assert direct.returncode == package.returncode == 0 and direct.stdout == package.stdout
    assert all(f"  {name} " in direct.stdout for name in ("rule", "report", "learn", "alphazero", "hqn", "solve"))
