"""Defect classes: no silent coercion of parameters, and custom games whose moves misbehave name what went wrong.

A text, a float or a number where a flag or an integer belongs is refused, not read as something else (before,
``misere="false"`` gave misere play and ``subtract=[1.5, 2]`` became (1, 2)); a custom ``moves`` that raises,
returns a non-integer coordinate, a bare number, text or the wrong number of coordinates gives one
``ValueError`` naming the function, the position and what came back (before, ``(n - 1.5,)`` was truncated and a
rule was "verified" for another game); a constant rule has one value per position.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from discover.rule import Rule
from games import custom_game, make_game
from solvers import solve


@pytest.mark.parametrize("name, params, words", [
    ("wythoff", {"misere": "false"}, "misere must be True or False"),
    ("nim", {"misere": 1}, "misere must be True or False"),
    ("nim", {"heaps": 3.0}, "heaps must be a positive integer"),
    ("nim", {"heaps": True}, "heaps must be a positive integer"),
    ("subtraction", {"subtract": [1.5, 2]}, "positive integers"),
    ("subtraction", {"subtract": "1,2"}, "positive integers"),
    ("subtraction", {"subtract": [True, 2]}, "positive integers"),
    ("octal", {"code": 0.16}, "code must be text"),
    ("hexadecimal", {"code": 7}, "code must be text"),
    ("moore", {"heaps": 3, "k": 1.0}, "k must be an integer"),
])
def test_parameters_of_the_wrong_kind_are_refused(name, params, words):
    with pytest.raises(ValueError, match=words):
        make_game(name, **params)


def raises(p):
    raise KeyError(p)


def half_steps(p):
    return [(p[0] - 1.5,)] if p[0] else []


def bare_numbers(p):
    return [p[0] - 1] if p[0] else []


def text(p):
    return "moves"


def three_coordinates(p):
    return [(0, 0, 0)] if p[0] else []


def true_as_a_coordinate(p):
    return [(True,)] if p[0] else []


def two_as_a_float(p):
    return [(p[0] - 1,)] * 3 + [(2.0,)] if p[0] == 4 else []


def beyond_64_bits(p):
    return [(p[0] - 1,), (2**64,)] if p[0] == 4 else []


@pytest.mark.parametrize("moves, words", [
    (raises, "raised KeyError"),
    (half_steps, r"returned \(-?[0-9.]+,\): coordinates must be integers"),
    (bare_numbers, "returned 0 among its options, not a position"),
    (text, "returned 'moves', not a list of positions"),
    (three_coordinates, r"returned \(0, 0, 0\), a position of 3 coordinates where the game's have 1"),
    (true_as_a_coordinate, r"returned \(True,\)"),
    (two_as_a_float, r"returned \(2.0,\): coordinates must be integers"),
    (beyond_64_bits, r"returned \(18446744073709551616,\): coordinates must fit in 64 bits"),
])
def test_a_misbehaving_moves_function_is_named_with_the_position(moves, words):
    game = custom_game("odd", moves, dims=1)
    with pytest.raises(ValueError, match=f"the moves function '{moves.__name__}' of 'odd' at \\(.*\\) {words}"):
        solve(game, bound=4)


@pytest.mark.parametrize("args, words", [
    (("odd", half_steps, 1.0), "dims must be a positive integer"),
    (("odd", half_steps, 1, "no"), "misere must be True or False"),
    ((7, half_steps, 1), "name must be text"),
])
def test_custom_game_parameters_are_checked(args, words):
    with pytest.raises(ValueError, match=words):
        custom_game(*args)


def test_the_command_answers_bad_words_in_one_line(cli, one_error_line):
    one_error_line(*cli("solve", "wythoff", "misere=maybe"))
    one_error_line(*cli("solve", "subtraction", "subtract=1.5,2"))


@pytest.mark.parametrize("constant", [sp.false, sp.true, False, True])
def test_a_constant_rule_has_one_value_per_position(constant):
    rule = Rule(constant, ("a", "b"))
    values = rule.predicate(np.array([[1, 2], [3, 4], [5, 6]]))
    assert values.shape == (3,) and bool(values[0]) == bool(constant)
