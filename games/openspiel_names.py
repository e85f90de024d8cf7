"""OpenSpiel games by name: ``openspiel:nim(pile_sizes=1;3;5;7)`` parsed, typed and checked against OpenSpiel.

A name is ``openspiel:`` then one of ``pyspiel.registered_names()``, then optionally its parameters in
parentheses as ``key=value`` separated by commas (OpenSpiel's own spelling).  Each value is read as the type of
the parameter's default in the game type's ``parameter_specification`` (int, float, bool or text); nothing is
evaluated.  A game this toolkit cannot solve exactly is refused with the reason: chance nodes, simultaneous
moves, imperfect information, more than two players, or two players whose returns are not zero-sum.  A game is
first loaded and played in a child process (``games.openspiel_probe``): parameters that crash OpenSpiel are
refused instead of ending this process.

OpenSpiel is an optional extra (``pip install -e '.[openspiel]'``); ``pyspiel`` is imported on first use.
"""

from __future__ import annotations

import difflib
import importlib
import re

from cgbase.validation import integer_text, number_text
from games.openspiel_probe import first_line, probe, quiet_stderr

__all__ = ["PREFIX", "is_openspiel_name", "pyspiel_module", "split_name", "typed_params", "load_openspiel_game"]

PREFIX = "openspiel:"
INSTALL = "pip install -e '.[openspiel]' (or pip install open_spiel)"
_NAME = re.compile(r"[a-z0-9_]+")
_CALL = re.compile(r"([^()]*)\((.*)\)")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TEXT_VALUE = re.compile(r"[A-Za-z0-9_.;:+-]*")  # a text parameter: no ',', '(', ')', '=' (OpenSpiel's separators)
INT32 = 2**31 - 1  # OpenSpiel's integer parameters are C++ ints


def is_openspiel_name(name) -> bool:
    """Whether ``name`` names an OpenSpiel game (starts with ``openspiel:``).

    Examples
    --------
    >>> is_openspiel_name("openspiel:tic_tac_toe"), is_openspiel_name("nim")
    (True, False)
    """
    return isinstance(name, str) and name.startswith(PREFIX)


def pyspiel_module(purpose: str = "an OpenSpiel game"):
    """``pyspiel``, imported on first use; a ``ValueError`` saying how to install it when it is missing.

    Examples
    --------
    >>> pyspiel_module().__name__
    'pyspiel'
    """
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        raise ValueError(f"{purpose} needs OpenSpiel: {INSTALL}") from None


def split_name(name: str) -> tuple[str, dict[str, str]]:
    """``openspiel:GAME(key=value,...)`` as OpenSpiel's game name and its parameters as text (not yet typed).

    The prefix is optional; a key given twice, an empty key or a word without ``=`` is a ``ValueError``.

    Examples
    --------
    >>> split_name("openspiel:nim(pile_sizes=1;3;5;7,is_misere=false)")
    ('nim', {'pile_sizes': '1;3;5;7', 'is_misere': 'false'})
    >>> split_name("openspiel:tic_tac_toe")
    ('tic_tac_toe', {})
    """
    if not isinstance(name, str):
        raise ValueError(f"an OpenSpiel game name is text such as 'openspiel:tic_tac_toe', got {name!r}")
    body = name[len(PREFIX):] if name.startswith(PREFIX) else name
    call = _CALL.fullmatch(body)
    game, inside = (call.group(1), call.group(2)) if call else (body, None)
    if not _NAME.fullmatch(game):
        raise ValueError(f"{name!r} is not an OpenSpiel game name: write openspiel:GAME or "
                         "openspiel:GAME(key=value,...), e.g. openspiel:nim(pile_sizes=1;3;5;7)")
    params: dict[str, str] = {}
    for word in ([] if inside is None or not inside.strip() else inside.split(",")):
        key, eq, value = word.strip().partition("=")
        if not eq or not _KEY.fullmatch(key):
            raise ValueError(f"{name!r}: parameters are key=value separated by commas, got {word!r}")
        if key in params:
            raise ValueError(f"{name!r}: parameter {key} is given twice: give it once")
        params[key] = value
    return game, params


def _defaults(pyspiel, game: str) -> dict:
    """The parameters (name -> default) OpenSpiel declares for ``game`` (its ``parameter_specification``)."""
    types = {t.short_name: t for t in pyspiel.registered_games()}
    if game not in types:
        near = difflib.get_close_matches(game, list(types), n=3, cutoff=0.5)
        hint = f"did you mean: {', '.join(near)}?" if near else "see pyspiel.registered_names()"
        raise ValueError(f"OpenSpiel has no game {game!r}; {hint}")
    return dict(types[game].parameter_specification)


def _typed(game: str, key: str, value, default):
    """One parameter as the type of its default: text is parsed, a Python value is checked."""
    what = f"openspiel:{game} parameter {key}"
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        lowered = str(value).strip().lower() if isinstance(value, str) else None
        if lowered in ("true", "1", "yes", "on"):
            return True
        if lowered in ("false", "0", "no", "off"):
            return False
        raise ValueError(f"{what} must be true or false, got {value!r}")
    if isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool):
            if abs(value) > INT32:
                raise ValueError(f"{what} must be an integer from {-INT32} to {INT32}, got {value!r}")
            return value
        if not isinstance(value, str):
            raise ValueError(f"{what} must be an integer, got {value!r}")
        return integer_text(value, what, -INT32, INT32)
    if isinstance(default, float):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return number_text(repr(float(value)), what)
        if not isinstance(value, str):
            raise ValueError(f"{what} must be a number, got {value!r}")
        return number_text(value, what)
    if isinstance(default, str):
        if not isinstance(value, str) or not _TEXT_VALUE.fullmatch(value) or len(value) > 200:
            raise ValueError(f"{what} must be text of letters, digits and . ; : _ + - (at most 200), got {value!r}")
        return value
    raise ValueError(f"{what} is a {type(default).__name__} parameter (a nested game?), which is not supported")


def typed_params(game: str, params: dict) -> dict:
    """``params`` (text or Python values) typed by the defaults OpenSpiel declares for ``game``.

    Examples
    --------
    >>> typed_params("nim", {"pile_sizes": "1;3", "is_misere": "false"})
    {'pile_sizes': '1;3', 'is_misere': False}
    >>> typed_params("nim", {"piles": "1;3"})
    Traceback (most recent call last):
    ...
    ValueError: openspiel:nim has no parameter 'piles'; valid: is_misere, pile_sizes
    """
    defaults = _defaults(pyspiel_module(), game)
    out = {}
    for key, value in params.items():
        if key not in defaults:
            valid = ", ".join(sorted(defaults)) or "it takes no parameters"
            raise ValueError(f"openspiel:{game} has no parameter {key!r}; valid: {valid}")
        out[key] = _typed(game, key, value, defaults[key])
    return out


def _refusal(game_type, players: int) -> str | None:
    """Why a loaded game cannot be solved exactly here, or None."""
    kind = type(game_type)
    if game_type.dynamics != kind.Dynamics.SEQUENTIAL:
        return "its players move simultaneously"
    if game_type.chance_mode != kind.ChanceMode.DETERMINISTIC:
        return "it has chance nodes"
    if game_type.information != kind.Information.PERFECT_INFORMATION:
        return "it has imperfect information"
    if players > 2:
        return f"it has {players} players"
    if players == 2 and game_type.utility != kind.Utility.ZERO_SUM:
        return f"its returns are {game_type.utility.name.lower().replace('_', '-')}, not zero-sum"
    return None


def load_openspiel_game(game: str, params: dict):
    """OpenSpiel's game ``game`` loaded with typed ``params``, once checked to be sequential, deterministic, of
    perfect information, and two-player zero-sum or one-player; else a ``ValueError`` naming why.

    Examples
    --------
    >>> load_openspiel_game("nim", {"pile_sizes": "1;2"}).num_players()
    2
    >>> load_openspiel_game("kuhn_poker", {})
    Traceback (most recent call last):
    ...
    ValueError: openspiel:kuhn_poker cannot be solved exactly here: it has chance nodes (only sequential, deterministic games of perfect information, two-player zero-sum or one-player)
    """
    pyspiel = pyspiel_module()
    typed = typed_params(game, params)
    probe(pyspiel, game, typed)
    try:
        with quiet_stderr():
            loaded = pyspiel.load_game(game, typed)
            players = loaded.num_players()
    except Exception as err:  # noqa: BLE001 - OpenSpiel refuses the parameters with its own error
        raise ValueError(f"OpenSpiel cannot load {game} with {typed}: {first_line(err)}") from None
    why = _refusal(loaded.get_type(), players)
    if why is not None:
        raise ValueError(f"openspiel:{game} cannot be solved exactly here: {why} (only sequential, deterministic "
                         "games of perfect information, two-player zero-sum or one-player)")
    return loaded
