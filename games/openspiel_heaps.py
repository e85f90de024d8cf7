"""OpenSpiel games whose states are positions of a game of this toolkit (``as_toolkit_game``): the pile sizes of
OpenSpiel's Nim are a position of ``nim``; any other game maps through a ``features`` function the user gives.

An OpenSpiel game is enumerated state by state (``games.openspiel``), so its positions are state ids and rule
discovery would see one feature.  When each state maps to a position of a toolkit game ``like`` (its heaps or
coordinates), and the map is checked on every reachable state (each state's moves lead exactly to the positions
``like.moves`` gives, each terminal state ends as ``like`` ends it), the rule of ``like`` is the rule of the
OpenSpiel game on all its states, and the toolkit's discovery, verification and proofs apply to ``like``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from games.openspiel import END, PASS, OpenSpielGame
from games.registry import make_game

__all__ = ["ToolkitView", "as_toolkit_game", "nim_piles", "HEAP_GAMES"]


def nim_piles(state) -> tuple[int, ...]:
    """The pile sizes of an OpenSpiel Nim state, read from its text (``"(0): 1 3 5"``).

    Examples
    --------
    >>> class State:
    ...     def __str__(self): return "(1): 0 3 5"
    >>> nim_piles(State())
    (0, 3, 5)
    """
    text = str(state)
    match = re.fullmatch(r"\(\d+\):((?: \d+)*)", text.strip())
    if match is None:
        raise ValueError(f"cannot read pile sizes from the Nim state {text[:60]!r}")
    return tuple(int(x) for x in match.group(1).split())


def _nim_like(game: OpenSpielGame):
    heaps = len(nim_piles(game.state(game.start)))
    return make_game("nim", heaps=heaps, misere=bool(game.spiel.get_parameters()["is_misere"]))  # OpenSpiel's default


#: OpenSpiel games read as toolkit games without help: name -> (features of a state, the toolkit game)
HEAP_GAMES = {"nim": (nim_piles, _nim_like)}


@dataclass
class ToolkitView:
    """An OpenSpiel game read as a toolkit game: ``like``, the map checked on every reachable state."""

    openspiel: OpenSpielGame
    like: object  # games.Game
    states: int  # the OpenSpiel game's states (and terminal states) checked
    positions: int  # the distinct positions of ``like`` they map to

    def line(self) -> str:
        """The check in one sentence."""
        return (f"{self.openspiel!r} is {self.like!r} on its reachable states: each of its {self.states:,} states is "
                f"the position of its features ({self.positions:,} positions), its moves and its end are "
                f"{self.like!r}'s (checked on every state); the rule below is {self.like!r}'s")


def as_toolkit_game(game: OpenSpielGame, features=None, like=None) -> ToolkitView:
    """Read an OpenSpiel game as a toolkit game, the map checked on every reachable state.

    Parameters
    ----------
    game : games.openspiel.OpenSpielGame
    features : callable, optional
        ``features(state) -> tuple of int``: the position of ``like`` an OpenSpiel state is (default: the
        game's own reader in ``HEAP_GAMES``, Nim's pile sizes).
    like : games.Game, optional
        The toolkit game (default: the one ``HEAP_GAMES`` names, ``nim`` with as many heaps and the same
        misère flag).

    Raises
    ------
    ValueError
        The game has no reader and none was given, a move leaves the same player to move, or a state's moves or
        end differ from those of its position in ``like`` (the first such state is named).

    Examples
    --------
    >>> from games.openspiel import openspiel_game
    >>> view = as_toolkit_game(openspiel_game("nim(pile_sizes=1;2)"))
    >>> view.like, view.states, view.positions  # OpenSpiel's Nim is misère unless told otherwise
    (nim(heaps=2, misere=True), 8, 6)
    """
    short = game.openspiel_name.split("(")[0]
    if features is None or like is None:
        if short not in HEAP_GAMES:
            raise ValueError(f"{game!r}: no reader of its states as a toolkit game's positions is known (known: "
                             f"{', '.join(HEAP_GAMES)}); in Python, give games.openspiel_heaps.as_toolkit_game "
                             "features(state) -> position and the toolkit game `like` they are positions of")
        reader, make_like = HEAP_GAMES[short]
        features = features or reader
        like = like or make_like(game)
    if (game.kinds == PASS).any():
        raise ValueError(f"{game!r}: some moves leave the same player to move, which a toolkit game's positions "
                         "cannot say")
    positions = np.array([features(game.state((i,))) for i in range(game.size)], dtype=np.int64).reshape(
        game.size, -1)
    for i in range(game.size):
        where = f"{game!r}: the state {game.render((i,))[:60]!r} (position {tuple(positions[i].tolist())})"
        options = Counter(map(tuple, positions[game.targets[game.indptr[i]:game.indptr[i + 1]]].tolist()))
        expected = Counter(like.moves(positions[i]))
        if options != expected:
            raise ValueError(f"{where} moves to {sorted(options)}, where {like!r} moves to {sorted(expected)}")
        if game.kinds[i] == END and int(like.terminal_values(positions[i:i + 1])[0]) != int(game.terminal_table[i]):
            raise ValueError(f"{where} ends with {int(game.terminal_table[i])} for the player to move, where "
                             f"{like!r} ends with {int(like.terminal_values(positions[i:i + 1])[0])}")
    return ToolkitView(game, like, game.size, len({tuple(p) for p in positions.tolist()}))
