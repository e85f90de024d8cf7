"""Every game family is named in words, with its parameters, misère play and the octal games' known names."""

from __future__ import annotations

import pytest

from games import GAMES, custom_game, make_game
from games.titles import TITLES


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_family_has_words(name):
    assert name in TITLES
    game = make_game(name)
    assert game.title() and game.title() != repr(game) and "_" not in game.title().replace("Nim_", "")


@pytest.mark.parametrize("name, params, words", [
    ("nim", {"heaps": 1}, "Nim with 1 heap"),
    ("nim", {"heaps": 4, "misere": True}, "misère Nim with 4 heaps"),
    ("wythoff", {"misere": True}, "misère Wythoff's game"),
    ("octal", {"code": "0.137"}, "the octal game 0.137 (Dawson's chess)"),
    ("octal", {"code": "0.16"}, "the octal game 0.16"),
    ("moore", {"heaps": 4, "k": 2}, "Moore's Nim_2 with 4 heaps"),
    ("notakto", {"n": 4, "k": 3, "boards": 2}, "Notakto 4 x 4, 3 in a row on 2 boards"),
])
def test_words(name, params, words):
    assert make_game(name, **params).title() == words


def test_custom_game_keeps_its_name():
    game = custom_game("take-1-or-{2}", lambda p: [(p[0] - s,) for s in (1, 2) if s <= p[0]], dims=1)
    assert game.title() == "take-1-or-{2}"
