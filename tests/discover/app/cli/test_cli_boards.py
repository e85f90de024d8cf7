"""The ``discover`` command on board games: ``solve`` summarises, rule discovery refuses in one line (Notakto, whose
rule is a misère quotient over boards, is tested in ``test_notakto_quotient_cli``)."""

from __future__ import annotations

import pytest


def test_solve_notakto_prints_a_summary(cli):
    code, out, err = cli("solve", "notakto", "n=3")
    assert code == 0 and err == ""
    words = " ".join(out.split())  # the table wraps lines at the terminal width
    assert "notakto(n=3, k=3, boards=1) solved over the positions reachable from the empty board" in words
    assert "450" in words and "the first player wins" in words


def test_solve_tictactoe_and_show(cli, tmp_path):
    path = str(tmp_path / "t.npz")
    code, out, _ = cli("solve", "tictactoe", "--save", path)
    assert code == 0 and "5,478" in out and "a draw" in out
    code, out, _ = cli("show", path)
    assert code == 0 and "tictactoe()" in out and "a draw" in out


@pytest.mark.parametrize("argv", [
    ("hex", "n=2"), ("rule", "tictactoe"), ("report", "tictactoe"), ("hex", "n=3", "--bound", "4"),
])
def test_rule_discovery_on_a_board_game_is_one_line(cli, one_error_line, argv):
    code, out, err = cli(*argv)
    one_error_line(code, out, err)
    assert "board game" in err and "discover solve" in err


@pytest.mark.parametrize("argv, words", [
    (("solve", "hex", "n=8"), "n <= 7"), (("solve", "notakto", "k=4"), "k <= 3"), (("solve", "hex", "n=0"), "n >= 1"),
])
def test_bad_board_games_are_one_line(cli, one_error_line, argv, words):
    code, out, err = cli(*argv)
    one_error_line(code, out, err)
    assert words in err


def test_solve_draws_the_first_moves_of_hex(cli, tmp_path):
    path = tmp_path / "hex3.png"
    code, out, err = cli("solve", "hex", "n=3", "--plot", str(path))
    assert code == 0 and err == ""
    assert "5 of 9 win" in out and "L L W" in out and "W L L" in out
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_solve_hex_6x6_uses_the_solver_with_virtual_connections(cli):
    code, out, err = cli("solve", "hex", "n=6")
    assert code == 0 and err == ""
    words = " ".join(out.split())
    assert "by proof-number search with virtual connections" in words and "24 of 36 win" in words
    assert "agree on 36 of 36 first moves" in words and "(0, 5) W" in words and "positions" in words


def test_solve_too_large_for_the_retrograde_uses_the_search(cli, one_error_line, tmp_path):
    code, out, err = cli("solve", "notakto", "n=3", "boards=3")
    assert code == 0 and err == ""
    words = " ".join(out.split())
    assert "by proof-number search" in words and "27 of 27 win" in words and "the first player wins" in words
    code, out, err = cli("solve", "notakto", "n=3", "boards=3", "--save", str(tmp_path / "s.npz"))
    one_error_line(code, out, err)
    assert "leave out --save" in err and not (tmp_path / "s.npz").exists()


def test_show_a_saved_board_game_with_its_first_moves(cli, tmp_path):
    saved, figure = tmp_path / "n4.npz", tmp_path / "n4.svg"
    assert cli("solve", "notakto", "n=4", "--save", str(saved))[0] == 0
    code, out, err = cli("show", str(saved), "--plot", str(figure))
    assert code == 0 and "0 of 16 win" in out and "the second player wins" in out
    assert figure.read_text().lstrip().startswith("<?xml")
