"""Input validation of games: the registry, parameters, command-line words, positions, custom games."""

from __future__ import annotations

import numpy as np
import pytest

from games import GAMES, custom_game, family_signature, make_game, parse_params


# -- the registry ------------------------------------------------------------------------------
@pytest.mark.parametrize("name, close", [("nimm", "nim"), ("wythof", "wythoff"), ("octl", "octal"), ("chmp", "chomp")])
def test_unknown_game_lists_close_names(name, close):
    with pytest.raises(ValueError, match=rf"unknown game '{name}'.*\b{close}\b"):
        make_game(name)


def test_unknown_game_without_close_names_lists_all():
    with pytest.raises(ValueError) as err:
        make_game("zzzzzz")
    assert all(name in str(err.value) for name in GAMES)


@pytest.mark.parametrize("name, params, hint", [
    ("nim", {"heap": 3}, "heaps"),
    ("nim", {"misre": True}, "misere"),
    ("moore", {"K": 2}, "k"),
    ("euclid", {"size": 3}, "no parameters"),
])
def test_unknown_parameter(name, params, hint):
    with pytest.raises(ValueError, match=rf"{name} has no parameter.*{hint}"):
        make_game(name, **params)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_defaults_build_and_describe_themselves(name):
    game = make_game(name)
    assert game.name == name
    assert make_game(name, **game.params) == game
    assert set(game.params) == {p for p, _, _ in family_signature(name)}


BAD_VALUES = [
    ("nim", {"heaps": 0}), ("nim", {"heaps": -2}), ("nim", {"heaps": 2.5}), ("nim", {"heaps": True}),
    ("nim", {"heaps": "3"}),
    ("wythoff_nd", {"heaps": 0}),
    ("subtraction", {"subtract": ()}), ("subtraction", {"subtract": (0, 1)}), ("subtraction", {"subtract": (-1, 2)}),
    ("subtraction", {"subtract": "abc"}), ("subtraction", {"subtract": (True, 2)}), ("subtraction", {"subtract": None}),
    ("subtraction", {"subtract": 0}),
    ("octal", {"code": "1.2x"}), ("octal", {"code": "077"}), ("octal", {"code": "0."}), ("octal", {"code": "0.8"}),
    ("octal", {"code": "2.7"}), ("octal", {"code": ""}),
    ("moore", {"heaps": 3, "k": 4}), ("moore", {"heaps": 2, "k": 0}), ("moore", {"k": 1.5}), ("moore", {"heaps": 0}),
    ("chomp", {"rows": 1}), ("chomp", {"rows": 0}), ("chomp", {"rows": True}), ("chomp", {"rows": "2"}),
    ("staircase", {"stairs": 0}), ("staircase", {"stairs": 1.0}),
    ("a_wythoff", {"a": 0}), ("a_wythoff", {"a": 2.0}), ("a_wythoff", {"a": 10**6}), ("a_wythoff", {"misere": 1}),
    ("fibonacci_nim", {"ratio": 0}), ("fibonacci_nim", {"ratio": "2"}),
    ("poker_nim", {"heaps": 0}), ("poker_nim", {"heaps": 9}), ("welter", {"coins": 0}), ("welter", {"coins": 9}),
]


@pytest.mark.parametrize("name, params", BAD_VALUES, ids=lambda v: str(v))
def test_bad_parameter_values(name, params):
    key, value = next(iter(params.items())) if len(params) == 1 else list(params.items())[-1]
    with pytest.raises(ValueError, match=key):
        make_game(name, **params)


def test_good_unusual_values():
    assert make_game("subtraction", subtract=5).params["subtract"] == (5,)
    assert make_game("subtraction", subtract=[4, 1, 4]).params["subtract"] == (1, 4)
    assert make_game("nim", heaps=np.int64(2)).dims == 2
    assert make_game("moore", heaps=3, k=3).params["k"] == 3
    assert make_game("octal", code="4.07").params["code"] == "4.07"


# -- command-line words ------------------------------------------------------------------------
@pytest.mark.parametrize("name, words, expected", [
    ("subtraction", ["subtract=1,3,4"], {"subtract": (1, 3, 4)}),
    ("subtraction", ["subtract=7"], {"subtract": (7,)}),
    ("nim", ["misere=true"], {"misere": True}),
    ("nim", ["heaps=4", "misere=False"], {"heaps": 4, "misere": False}),
    ("nim", ["misere=yes"], {"misere": True}),
    ("nim", ["misere=0"], {"misere": False}),
    ("wythoff", ["misere=on"], {"misere": True}),
    ("octal", ["code=0.07"], {"code": "0.07"}),
    ("moore", ["heaps=4", "k=3"], {"heaps": 4, "k": 3}),
    ("chomp", ["rows=3"], {"rows": 3}),
    ("euclid", [], {}),
])
def test_parse_params(name, words, expected):
    params = parse_params(name, words)
    assert params == expected
    assert all(type(params[k]) is type(v) for k, v in expected.items())
    make_game(name, **params)


@pytest.mark.parametrize("name, words, match", [
    ("nim", ["misere=maybe"], "true or false"),
    ("nim", ["heaps=three"], "integer"),
    ("nim", ["heaps"], "name=value"),
    ("nim", ["=3"], "name=value"),
    ("nim", ["heap=3"], "heaps"),
    ("subtraction", ["subtract=1,x"], "integer"),
    ("euclid", ["a=1"], "no parameters"),
    ("nimm", ["heaps=3"], "unknown game"),
])
def test_parse_params_errors(name, words, match):
    with pytest.raises(ValueError, match=match):
        parse_params(name, words)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_defaults_survive_the_command_line(name):
    """Writing each default as a word and parsing it back gives the default."""
    words = []
    for key, _, default in family_signature(name):
        text = ",".join(map(str, default)) if isinstance(default, tuple) else str(default).lower()
        words.append(f"{key}={text}")
    assert make_game(name, **parse_params(name, words)) == make_game(name)


# -- positions ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name, position", [("nim", (1, 2)), ("nim", (1, -1, 2)), ("octal", (-3,)), ("chomp", (1, 2, 3))],
                         ids=str)
def test_bad_positions(name, position):
    with pytest.raises(ValueError, match="not a position"):
        make_game(name).moves(position)


def test_features_need_a_table_of_positions():
    game = make_game("wythoff")
    assert game.features([[1, 2], [3, 4]]).shape == (2, 2)
    for bad in ([1, 2], [[1, 2, 3]], np.zeros((2, 2, 2))):
        with pytest.raises(ValueError, match="shape"):
            game.features(bad)


def test_equality_and_hash_follow_parameters():
    assert make_game("nim", heaps=3) == make_game("nim")
    assert make_game("nim", heaps=3) != make_game("nim", heaps=3, misere=True)
    assert make_game("nim", heaps=2) != make_game("wythoff")
    assert len({make_game("nim"), make_game("nim", heaps=3), make_game("nim", heaps=2)}) == 2


# -- custom games ------------------------------------------------------------------------------
def test_custom_game_validation():
    with pytest.raises(TypeError, match="function"):
        custom_game("x", [1, 2], dims=1)
    for dims in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="dims"):
            custom_game("x", lambda p: [], dims=dims)


def test_a_relation_of_another_size_is_refused_at_once():
    from games.symbolic import ProgressionSteps, take_from_one

    for relation in (take_from_one(1, (1, 2)), take_from_one(3), ProgressionSteps(((1,),), 1, 2)):
        with pytest.raises(ValueError, match="does not fit positions of 2 coordinates: its vectors have [13]"):
            custom_game("x", lambda p: [], dims=2, relation=relation)
    assert custom_game("x", lambda p: [], dims=2, relation=take_from_one(2, (1, 2))).move_relation() is not None


def test_custom_moves_must_return_positions():
    not_a_list = custom_game("x", lambda p: 7, dims=1)
    with pytest.raises(ValueError, match="not a list"):
        not_a_list.moves((1,))
    wrong_length = custom_game("x", lambda p: [(0, 0)], dims=1)
    with pytest.raises(ValueError, match="coordinates"):
        wrong_length.moves((1,))
    generator = custom_game("x", lambda p: ((p[0] - t,) for t in (1, 2) if t <= p[0]), dims=1)
    assert generator.moves((3,)) == [(2,), (1,)]
