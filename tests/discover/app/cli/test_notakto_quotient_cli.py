"""``discover notakto n=3 boards=B`` prints Notakto's rule over boards; ``discover report`` draws its table."""

from __future__ import annotations

import json

from discover.app.cli import main


def test_three_boards_print_the_proved_published_quotient(capsys):
    assert main(["notakto", "n=3", "boards=3"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Rule (proved)" in out and "order 18, P-portion (4 elements)" in out
    assert "3 empty boards: element ac², N: the first player wins" in out
    assert "matches Plambeck and Whitehead's quotient element by element" in out
    assert "proved for every position of any number of 3 x 3 boards" in out
    assert "verified on every position of 2 boards (202,500, the solver's universe)" in out
    assert "verified on every sum of 1 to 3 of the live boards computed, up to symmetry (18,423 positions" in out
    assert "Winning move from the start: X on board" in out
    assert "live boards by element: 1 ×3, a ×17, b ×15" in out  # as Plambeck and Whitehead list them


def test_two_boards_as_json_are_a_second_player_win(capsys):
    assert main(["notakto", "n=3", "boards=2", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "verified" and record["proof"]["status"] == "proved"
    assert record["road"] == "misère quotient over boards" and record["boards_added"] == record["boards_live"] == 46
    assert record["start_element"] == "c²" and record["rule"]["kind"] == "misere_quotient"
    assert len(record["rule"]["p_portion"]) == 4


def test_a_budget_too_small_is_partial_and_never_proved(capsys):
    assert main(["notakto", "n=3", "boards=2", "--seconds", "1e-9", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "verified" and record["proof"]["status"] == "unknown" and record["boards_added"] < 46
    assert "not complete" in record["statement"] and record["start_element"] is None


def test_report_draws_the_multiplication_table(capsys, tmp_path):
    folder = tmp_path / "notakto"
    assert main(["report", "notakto", "n=3", "boards=2", "--out", str(folder)]) == 0
    assert (folder / "multiplication.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = (folder / "index.md").read_text()
    assert "Rule (proved):" in text and "multiplication.png" in text and "`board .../.../...` | d |" in text
    assert json.loads((folder / "rule.json").read_text())["kind"] == "misere_quotient"


def test_report_of_a_misere_heap_game_draws_its_table(capsys, tmp_path):
    folder = tmp_path / "kayles"
    assert main(["report", "octal", "code=0.75", "misere=true", "--heaps", "30", "--out", str(folder)]) == 0
    assert (folder / "multiplication.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| `heap 1` |" in (folder / "index.md").read_text()
