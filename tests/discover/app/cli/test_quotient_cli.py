"""``discover GAME misere=true`` for heap games prints the misère quotient, its proof status and a winning move."""

from __future__ import annotations

import json

from discover.app.cli import main


def test_misere_octal_prints_a_proved_quotient(capsys):
    assert main(["octal", "code=0.75", "misere=true", "--heaps", "40", "--seconds", "60"]) == 0
    out = capsys.readouterr().out
    assert "Rule (proved)" in out and "order 8, P-portion (2 elements)" in out
    assert "proved for every sum of heaps of any size" in out
    assert "period 2 from heap 8, proved by the periodicity theorem" in out
    assert "verified on every sum of up to 3 components of size <= 8" in out
    assert "Winning move from" in out


def test_a_game_without_moves_prints_its_rule_and_no_winning_move(capsys):
    # every sum is an N-position with no move (the player to move has won): there is no move to show
    assert main(["octal", "code=0.0", "misere=true"]) == 0
    captured = capsys.readouterr()
    assert "Rule (proved)" in captured.out and "order 1, P-portion (0 elements)" in captured.out
    assert "no heap made it grow" in captured.out and "Winning move" not in captured.out
    assert captured.err == ""


def test_a_quotient_without_a_proved_period_is_only_verified(capsys):
    assert main(["octal", "code=0.77", "misere=true", "--heaps", "12", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "verified" and record["proof"]["status"] == "unknown" and record["heaps"] == 12
    assert "heaps beyond 12 are not decided" in record["statement"]
    assert record["rule"]["kind"] == "misere_quotient" and record["rule"]["order"] == 24


def test_misere_heap_games_with_a_bound_are_refused_in_one_line(capsys):
    assert main(["octal", "code=0.77", "misere=true", "--bound", "10"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "misère quotient" in err


def test_out_of_memory_names_the_size_option_given(capsys, monkeypatch):
    import discover.quotients.discovery

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(discover.quotients.discovery, "discover_quotient", exhausted)  # find_rule's quotient road
    assert main(["octal", "code=0.77", "misere=true", "--heaps", "100"]) == 2
    assert capsys.readouterr().err == "discover: out of memory: use a smaller --heaps\n"  # was "a smaller bound"
    assert main(["octal", "code=0.77", "misere=true"]) == 2
    assert capsys.readouterr().err == "discover: out of memory: the work does not fit in the memory this machine allows\n"
