"""Declared games in discovery: their relations' z3 forms say what the compiled kernel does, a rule is found
and proved end to end, and ``discover --game-spec FILE`` reads a declaration without executing anything."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
import z3

from discover.expr.smt import Arithmetic
from discover.find import find_rule
from discover.proofs.moves_smt import MovesSmt
from discover.proofs.prove import relation_agrees
from games import declared_game, make_game

GAMES = {
    "take13-or-both": {"heaps": 2, "moves": [{"take": {"min": 1, "max": 3}}, {"take": 1, "from": "all"}]},
    "half-or-diagonal": {"heaps": 2, "moves": [{"take": {"up_to": "half"}}, {"take": "any", "from": "all"}]},
    "knight": {"heaps": 2, "moves": [{"step": [[2, 1], [1, 2]]}]},
    "queen-or-knight": {"heaps": 2, "moves": [{"step": [[2, 1], [1, 2]]}, {"step": [[1, 1]], "times": "any"}]},
    "moore-or-chomp-ish": {"heaps": 3, "moves": [{"some": 2}, {"step": [[3, 0, 1]], "times": [1, 2]}]},
}
SPEC = 'name = "knight"\nheaps = 2\n\n[[moves]]\nstep = [[2, 1], [1, 2]]\n'


def _concrete(formula) -> bool:
    return z3.is_true(z3.simplify(formula))


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("bits", [None, 4])
def test_z3_formulas_match_the_kernel(name, bits):
    game = declared_game({"name": name, **GAMES[name]})
    assert relation_agrees(game) is None
    arithmetic = Arithmetic() if bits is None else Arithmetic(bits=bits, width=bits + 6)
    moves = MovesSmt(game.move_relation(), game.dims, arithmetic)
    const = arithmetic.const
    box = list(itertools.product(range(5 if game.dims == 2 else 3), repeat=game.dims))
    for p in box:
        zp = [const(x) for x in p]
        options = set(game.moves(p))
        assert _concrete(moves.terminal(zp)) == (not options), p
        for q in box:
            assert _concrete(moves.is_move(zp, [const(x) for x in q])) == (q in options), (p, q)
            if q in options:
                assert _concrete(moves.measure([const(x) for x in q]) < moves.measure(zp))


@pytest.mark.slow
def test_a_declared_knight_is_found_and_proved():
    game = declared_game({"name": "knight", **GAMES["knight"]})
    found = find_rule(game, bound=20, verify_bound=60, games=10)
    assert found.status == "verified" and found.proof.status == "proved", found.proof.line()
    positions = game.universe(60).positions()
    from solvers import solve

    solution = solve(game, bound=60)
    assert np.array_equal(found.rule.predicate(positions), solution.outcome(positions) == -1)


def test_game_spec_on_the_command_line(cli, tmp_path):
    path = tmp_path / "knight.toml"
    path.write_text(SPEC)
    code, out, err = cli("--game-spec", str(path), "--bound", "20", "--verify-bound", "60", "--json")
    assert code == 0, err
    record = json.loads(out)
    assert record["status"] == "verified" and record["game"]["name"] == "knight"
    assert record["proof"]["status"] == "proved"
    assert record["proof"]["statement"] == "for every position"  # relation and kernel from one declaration


@pytest.mark.parametrize("text, words", [
    ('name = "k"\nheaps = 2\n[[moves]]\nstep = "__import__(\'os\')"\n', "moves[0].step"),
    ("name = ", "not valid TOML"),
])
def test_bad_game_spec_is_one_line(cli, one_error_line, tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    code, out, err = cli("--game-spec", str(path))
    one_error_line(code, out, err)
    assert words in err


def test_game_spec_and_a_game_name_conflict(cli, one_error_line, tmp_path):
    path = tmp_path / "knight.toml"
    path.write_text(SPEC)
    one_error_line(*cli("nim", "--game-spec", str(path)))


def test_a_declared_octal_game_goes_to_the_take_and_break_engine():
    moves = [{"take": [1, 2]}, {"split": 2, "remove": [1, 2]}]  # Kayles, 0.77
    declared = declared_game({"name": "kayles", "heaps": 1, "moves": moves})
    found = find_rule(declared, heaps=4096, seconds=30)
    assert found.source == "take_and_break" and found.status == "verified" and found.proof.status == "proved"
    builtin = find_rule(make_game("octal", code="0.77"), heaps=4096, seconds=30)
    assert np.array_equal(found.rule.evaluate(np.arange(500)[:, None]), builtin.rule.evaluate(np.arange(500)[:, None]))
