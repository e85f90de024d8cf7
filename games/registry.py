"""The registry of game families: ``make_game(name, **params)`` and command-line parsing.

A name that starts with ``openspiel:`` is an OpenSpiel game (``games.openspiel``): ``make_game("openspiel:nim",
pile_sizes="1;3")`` or ``make_game("openspiel:nim(pile_sizes=1;3)")``, its parameters typed by OpenSpiel's
declared defaults.
"""

from __future__ import annotations

import difflib
import inspect
import types
import typing

from cgbase.validation import INT64_MAX, integer_text
from games.a_wythoff import a_wythoff
from games.base import Game
from games.chomp import chomp
from games.euclid import euclid
from games.fibonacci_nim import fibonacci_nim
from games.heaps import grundy_game, hexadecimal, lasker, octal
from games.hex import hex_game
from games.lines import nim, wythoff, wythoff_nd
from games.moore import moore
from games.notakto import notakto
from games.poker_nim import poker_nim
from games.openspiel import openspiel_game
from games.openspiel_names import is_openspiel_name, split_name, typed_params
from games.staircase import staircase
from games.subtraction import subtraction
from games.tictactoe import tictactoe
from games.turning_corners import turning_corners
from games.welter import welter

__all__ = ["GAMES", "make_game", "parse_params", "family_signature", "game_from_spec"]

GAMES: dict[str, type[Game]] = {
    cls.name: cls
    for cls in (nim, wythoff, euclid, subtraction, octal, hexadecimal, moore, staircase, chomp, lasker, grundy_game,
                wythoff_nd, a_wythoff, fibonacci_nim, poker_nim, welter, turning_corners, notakto, hex_game, tictactoe)
}


def _closest(word: str, choices) -> str:
    near = difflib.get_close_matches(word, list(choices), n=3, cutoff=0.5)
    pool = near or sorted(choices)
    return ", ".join(pool)


def _family(name: str) -> type[Game]:
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; did you mean: {_closest(name, GAMES)}?")
    return GAMES[name]


def family_signature(name: str) -> list[tuple[str, object, object]]:
    """(parameter, type, default) for each parameter of a family."""
    cls = _family(name)
    hints = typing.get_type_hints(cls.__init__)
    sig = inspect.signature(cls.__init__)
    return [
        (p.name, hints.get(p.name, str), p.default)
        for p in sig.parameters.values()
        if p.name != "self"
    ]


def make_game(name: str, **params) -> Game:
    """Build a registered game.

    Examples
    --------
    >>> make_game("nim", heaps=3)
    nim(heaps=3, misere=False)
    >>> make_game("openspiel:nim(pile_sizes=1;2)").universe().size
    8
    """
    if is_openspiel_name(name):
        return openspiel_game(name, params)
    cls = _family(name)
    known = [p for p, _, _ in family_signature(name)]
    for key in params:
        if key not in known:
            hint = _closest(key, known) if known else "it takes no parameters"
            raise ValueError(f"{name} has no parameter {key!r}; valid: {hint}")
    return cls(**params)


def _convert(text: str, kind, what: str):
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType) and type(None) in typing.get_args(kind):
        # an optional parameter (k: int | None): "none" or the other type
        if text.lower() in ("none", ""):
            return None
        other = [a for a in typing.get_args(kind) if a is not type(None)]
        return _convert(text, other[0], what) if len(other) == 1 else text
    if kind is bool:
        lowered = text.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{what} must be true or false, got {text!r}")
    if kind is int:
        return integer_text(text, what, None, INT64_MAX)
    if origin is tuple or kind is tuple:
        return tuple(_convert(part, int, what) for part in text.split(",") if part)
    return text


def parse_params(name: str, words: list[str]) -> dict:
    """Turn ``["heaps=3", "misere=true"]`` into typed keyword parameters of family ``name``; a name given twice,
    an unknown name or a value of the wrong kind is a ``ValueError``.

    Examples
    --------
    >>> parse_params("nim", ["heaps=3", "misere=true"])
    {'heaps': 3, 'misere': True}
    >>> parse_params("nim", ["heaps=3", "heaps=4"])
    Traceback (most recent call last):
    ...
    ValueError: nim parameter heaps is given twice (heaps=3, heaps=4): give it once
    >>> parse_params("openspiel:nim", ["pile_sizes=1;2", "is_misere=false"])
    {'pile_sizes': '1;2', 'is_misere': False}
    """
    if is_openspiel_name(name):
        return _openspiel_params(name, words)
    types = {p: kind for p, kind, _ in family_signature(name)}
    params, given = {}, {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or not key:
            raise ValueError(f"parameters are name=value words, got {word!r}")
        if key in given:
            raise ValueError(f"{name} parameter {key} is given twice ({given[key]}, {word}): give it once")
        given[key] = word
        if key not in types:
            hint = _closest(key, types) if types else "it takes no parameters"
            raise ValueError(f"{name} has no parameter {key!r}; valid: {hint}")
        params[key] = _convert(value, types[key], f"{name} parameter {key}")
    return params


def _openspiel_params(name: str, words: list[str]) -> dict:
    """``name=value`` words as the parameters of the OpenSpiel game ``name``, typed by its declared defaults."""
    game, inside = split_name(name)
    texts: dict[str, str] = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or not key:
            raise ValueError(f"parameters are name=value words, got {word!r}")
        if key in texts or key in inside:
            raise ValueError(f"{name} parameter {key} is given twice: give it once")
        texts[key] = value
    return typed_params(game, texts)


def game_from_spec(spec: dict, game=None, path="the file"):
    """The game a file records (``Game.spec()``), checked against ``game`` when one is given.

    Examples
    --------
    >>> game_from_spec({"name": "nim", "params": {"heaps": 2, "misere": False}})
    nim(heaps=2, misere=False)
    """
    if game is None:
        if spec.get("declared") is not None:  # a declared game records its declaration: plain data, read again
            from games.declared import declared_game

            return declared_game(spec["declared"])
        if spec.get("custom"):
            raise ValueError(f"{path} holds the custom game {spec['name']!r}: pass game=... to load it")
        return make_game(spec["name"], **{k: tuple(v) if isinstance(v, list) else v for k, v in spec["params"].items()})
    if game.spec() != spec:
        raise ValueError(f"{path} holds {spec['name']} {spec['params']}, not {game!r}")
    return game
