"""How a toolkit game maps to an OpenSpiel game: its start, actions, length, terminal values and observations.

``games.openspiel_export`` builds its ``pyspiel`` classes on a ``Layout``; nothing here imports ``pyspiel``.
"""

from __future__ import annotations

import numpy as np

from games.base import Game
from games.boardgame import BoardGame

__all__ = ["Layout", "make_layout", "ACTIONS_KEPT"]

ACTIONS_KEPT = 1_000_000  # positions whose actions an exported game remembers (MCTS asks the same ones again)


class Layout:
    """What an exported game needs of a toolkit game: its start, action space, length and observation shape."""

    def __init__(self, game: Game, start: tuple[int, ...], bound: int | None):
        self.game, self.start, self.bound = game, start, bound
        self.board, self.sum = isinstance(game, BoardGame), game.parts > 1
        self._kept: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {}
        if self.sum:  # at most `bound` heaps, each with its own options
            self.num_actions = max(1, sum(len(game.moves((h,))) for h in range(1, bound + 1)))
            self.max_length = 2 * bound  # a move takes a token or adds a heap, and there are at most bound heaps
            self.shape = (bound,)
        elif self.board:
            self.cells = game.cells
            self.num_actions = self.cells if not game.impartial else game.dims * self.cells
            self.max_length = game.dims * self.cells
            self.shape = (game.dims, game.n, game.n)
        else:
            # the universe's own limits: moves that add (staircase, Poker Nim) reach beyond the box's corner
            limits = game.universe(max(bound, *start)).limits.astype(np.int64)
            self.num_actions, self.max_length = _action_count(game, limits), _length_cap(game, int(limits[0]))
            self.shape = (len(game.feature_names),)

    def actions(self, position: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
        """Action -> option at ``position``, in ascending order of action (remembered for up to ``ACTIONS_KEPT``
        positions)."""
        found = self._kept.get(position)
        if found is None:
            if len(self._kept) >= ACTIONS_KEPT:
                self._kept.clear()
            found = self._kept[position] = self._actions(position)
        return found

    def _actions(self, position: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
        options = self._sum_options(position) if self.sum else self.game.moves(position)
        if not self.board:
            if len(options) > self.num_actions:
                raise ValueError(f"{position} has {len(options)} options, more than the {self.num_actions} actions "
                                 f"the export allows for bound {self.bound}: export with a larger bound")
            return dict(enumerate(options))
        found = {}
        for option in options:
            added = [(q, int(o) ^ int(p)) for q, (o, p) in enumerate(zip(option, position)) if o != p]
            q, bit = added[0] if len(added) == 1 else (0, 0)
            if bit == 0 or bit & (bit - 1) or int(option[q]) < int(position[q]):
                raise ValueError(f"{self.game!r}: the move {position} -> {option} does not place one stone")
            found[(q * self.cells if self.game.impartial else 0) + bit.bit_length() - 1] = option
        return dict(sorted(found.items()))

    def _sum_options(self, heaps: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Every distinct sum one move leads to: one heap replaced by one of its options (largest heaps first)."""
        found = {}
        for i, heap in enumerate(heaps):
            if i and heaps[i - 1] == heap:
                continue
            rest = heaps[:i] + heaps[i + 1:]
            for parts in self.game.moves((heap,)):
                found.setdefault(tuple(sorted(rest + parts, reverse=True)), None)
        return list(found)

    def terminal_value(self, position: tuple[int, ...]) -> float:
        """The value of a position with no move for the player to move."""
        if self.sum:
            return float(self.game.terminal_outcome())
        return float(self.game.terminal_values([position])[0])

    def checked(self, position) -> tuple[int, ...]:
        """``position`` as a tuple of ints (a sum: its heaps, largest first), or a ``ValueError``."""
        position = tuple(int(x) for x in position)
        if self.sum:
            for heap in position:
                self.game.check_position(np.asarray([heap], dtype=np.int64))
            return tuple(sorted((h for h in position if h > 0), reverse=True))
        self.game.check_position(np.asarray(position, dtype=np.int64))
        return position

    def observation(self, position: tuple[int, ...]) -> np.ndarray:
        if self.sum:
            return np.bincount(np.minimum(position, self.bound), minlength=self.bound + 1)[1:].astype(np.float32)
        p = np.asarray([position], dtype=np.int64)
        if self.board:
            return ((p[0][:, None] >> np.arange(self.cells)) & 1).astype(np.float32).ravel()
        return self.game.features(p)[0].astype(np.float32)

    def __deepcopy__(self, memo):
        return self  # shared by every state of the game: OpenSpiel's clone() deep-copies a Python state


def make_layout(game: Game, bound=None, start=None) -> Layout:
    """The layout of ``game`` exported from ``start`` within ``bound`` (see ``games.openspiel_export.as_openspiel``);
    a ``ValueError`` when the two do not fit the game.

    Examples
    --------
    >>> from games import make_game
    >>> layout = make_layout(make_game("tictactoe"))
    >>> layout.num_actions, layout.shape, list(layout.actions((0b1, 0b10)))
    (9, (2, 3, 3), [2, 3, 4, 5, 6, 7, 8])
    """
    if game.parts > 1 and game.dims > 1:
        raise ValueError(f"{game!r}: an option is a sum of positions of {game.dims} coordinates, whose repeats cancel "
                         f"(coins turned twice): the export plays sums of one-coordinate heaps only")
    if isinstance(game, BoardGame):
        if bound is not None or start is not None:
            raise ValueError(f"{game!r} starts from its empty board: leave out bound and start")
        return Layout(game, tuple(game.start), None)
    if start is None:
        if bound is None:
            raise ValueError(f"{game!r} has no start of its own: give bound=B (the start is (B, ..., B)) or start=")
        start = (bound,) * game.dims
        if game.parts == 1 and not game.universe(bound).contains(np.array([start]))[0]:
            start = tuple(game.universe(bound).positions()[-1].tolist())  # Welter's corner is no position: its last
    start = tuple(int(x) for x in start)
    if bound is None:
        bound = sum(start) if game.parts > 1 else max(start, default=0)
    if isinstance(bound, bool) or not isinstance(bound, (int, np.integer)) or bound < 1:
        raise ValueError(f"bound must be a positive integer, got {bound!r}")
    if game.parts > 1 and sum(start) > bound:
        raise ValueError(f"the heaps {start} hold {sum(start)} tokens, more than bound {bound}: give a larger bound")
    layout = Layout(game, start, int(bound))
    layout.start = layout.checked(start)
    return layout


def _action_count(game: Game, limits: np.ndarray) -> int:
    """Most options of any position within ``limits``: the game's own bound, else counted over the box."""
    try:
        return max(int(game.max_moves(limits)), 1)
    except NotImplementedError:
        counts, _ = game.option_rows(game.universe(int(limits[0])).positions())
        return max(int(counts.max(initial=0)), 1)


def _length_cap(game: Game, bound: int) -> int:
    """Moves after which a play is a draw: the box's positions (no acyclic play visits one twice)."""
    return int(min((bound + 1) ** game.dims, 10**9))
