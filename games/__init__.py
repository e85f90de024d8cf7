"""Rules of play: positions, moves, features and bounded universes of combinatorial games.

Examples
--------
>>> from games import make_game
>>> make_game("wythoff").moves((1, 2))
[(0, 2), (1, 1), (1, 0), (0, 1)]
"""

from cgbase.version import __version__
from games.a_wythoff import a_wythoff
from games.base import Game, coordinate_names
from games.boardgame import BoardGame
from games.chomp import chomp
from games.custom import CustomGame, custom_game
from games.declared import DeclaredGame, declared_game, read_game_spec
from games.euclid import euclid
from games.fibonacci_nim import fibonacci_nim
from games.heaps import HeapGame, grundy_game, hexadecimal, lasker, octal
from games.hex import hex_game
from games.lines import LineGame, nim, wythoff, wythoff_nd
from games.moore import moore
from games.notakto import notakto
from games.poker_nim import poker_nim
from games.registry import GAMES, family_signature, make_game, parse_params
from games.staircase import staircase
from games.subtraction import subtraction
from games.tictactoe import tictactoe
from games.turning_corners import turning_corners
from games.universe import Universe
from games.welter import welter

__all__ = [
    "__version__",
    "Game", "LineGame", "HeapGame", "CustomGame", "BoardGame", "Universe", "GAMES",
    "make_game", "parse_params", "family_signature", "custom_game", "coordinate_names",
    "DeclaredGame", "declared_game", "read_game_spec",
    "nim", "wythoff", "wythoff_nd", "a_wythoff", "fibonacci_nim", "poker_nim", "welter", "turning_corners", "euclid",
    "subtraction", "octal", "hexadecimal", "lasker", "grundy_game",
    "moore", "staircase", "chomp", "notakto", "hex_game", "tictactoe",
]

