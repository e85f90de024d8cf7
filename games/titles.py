"""Games named in words, as a reader of the literature would: "Nim with 3 heaps", "misère Wythoff's game",
"the octal game 0.137 (Dawson's chess)". Reports and figures use these instead of ``nim(heaps=3)``.

Examples
--------
>>> from games import make_game
>>> title(make_game("nim", heaps=3, misere=True))
'misère Nim with 3 heaps'
>>> title(make_game("subtraction", subtract=(1, 3, 4)))
'the subtraction game S = {1, 3, 4}'
>>> title(make_game("octal", code="0.137"))
"the octal game 0.137 (Dawson's chess)"
"""

from __future__ import annotations

import re

__all__ = ["title"]

# family -> words; {name} fields are the game's parameters (a tuple as its members joined by ", ")
TITLES = {
    "nim": "Nim with {heaps} heaps",
    "wythoff": "Wythoff's game",
    "wythoff_nd": "Wythoff's game on {heaps} heaps",
    "a_wythoff": "Fraenkel's {a}-Wythoff game",
    "poker_nim": "Poker Nim with {heaps} heaps",
    "welter": "Welter's game with {coins} coins",
    "turning_corners": "Turning Corners",
    "fibonacci_nim": "Fibonacci Nim (the next may take up to {ratio} times the last move)",
    "euclid": "Euclid's game",
    "subtraction": "the subtraction game S = {{{subtract}}}",
    "octal": "the octal game {code}",
    "hexadecimal": "the hexadecimal game {code}",
    "moore": "Moore's Nim_{k} with {heaps} heaps",
    "staircase": "Staircase Nim on {stairs} stairs",
    "chomp": "Chomp with {rows} rows",
    "lasker": "Lasker's Nim",
    "grundy_game": "Grundy's game",
    "notakto": "Notakto {n} x {n}",
    "hex": "Hex {n} x {n}",
    "tictactoe": "tic-tac-toe",
}
KNOWN_CODES = {"0.77": "Kayles", "0.07": "Dawson's Kayles", "0.137": "Dawson's chess"}


def title(game) -> str:
    """The game in words: its family's name with its parameters, misère play and known names."""
    params = {k: ", ".join(map(str, v)) if isinstance(v, (tuple, list)) else v for k, v in game.params.items()}
    if game.name not in TITLES:  # a custom game: the name its author gave
        return game.name
    words = re.sub(r"\b1 (heap|stair|row)s\b", r"1 \1", TITLES[game.name].format(**params))
    if game.name in ("octal", "hexadecimal") and game.params.get("code") in KNOWN_CODES:
        words += f" ({KNOWN_CODES[game.params['code']]})"
    if game.name == "notakto":
        k, boards = game.params.get("k"), game.params.get("boards", 1)
        words += (f", {k} in a row" if k not in (None, game.params["n"]) else "") + \
            (f" on {boards} boards" if boards > 1 else "")
    return ("misère " if game.params.get("misere") else "") + words
