"""Games defined by a plain Python ``moves`` function."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from games.base import Game
from games.symbolic import MoveRelation

__all__ = ["CustomGame", "custom_game"]


class CustomGame(Game):
    """An impartial game from a function mapping an integer tuple to its successors.

    Examples
    --------
    >>> g = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], dims=1)
    >>> g.moves((3,))
    [(2,), (1,)]
    """

    def __init__(self, name: str, moves: Callable, dims: int, misere: bool = False, relation=None):
        if not callable(moves):
            raise TypeError(f"moves must be a function of a position, got {moves!r}")
        if isinstance(dims, bool) or not isinstance(dims, int) or dims < 1:
            raise ValueError(f"dims must be a positive integer, got {dims!r}")
        super().__init__()
        self.name = str(name)
        self.dims = dims
        self.misere = bool(misere)
        self._moves = moves
        if relation is not None and not isinstance(relation, MoveRelation):
            raise TypeError(f"relation must be a games.symbolic relation such as Steps(...), got {relation!r}")
        self._relation = relation

    def move_relation(self):
        """The relation given to ``custom_game``, or None."""
        return self._relation

    def moves(self, position) -> list[tuple[int, ...]]:
        position = tuple(int(x) for x in position)
        result = self._moves(position)
        if not isinstance(result, Iterable):
            raise ValueError(f"{self.name}: moves{position} returned {result!r}, not a list of positions")
        options = []
        for option in result:
            option = tuple(int(x) for x in option)
            if len(option) != self.dims:
                raise ValueError(
                    f"{self.name}: moves{position} returned {option}, not a position of {self.dims} coordinates"
                )
            options.append(option)
        return options

    def __repr__(self) -> str:
        return f"custom_game({self.name!r}, dims={self.dims})"

    def spec(self) -> dict:
        return {"name": self.name, "params": {"dims": self.dims, "misere": self.misere}, "custom": True}


def custom_game(name: str, moves: Callable, dims: int, misere: bool = False, relation=None) -> CustomGame:
    """Make a game from ``moves(position) -> iterable of positions`` over ``dims`` integer coordinates.

    ``solve(game, bound=B)`` uses the box [0, B]^dims (a move leaving it is an error naming
    the position); ``solve(game, starts=[...])`` uses the positions reachable from the starts.
    ``relation`` (a ``games.symbolic`` relation, e.g. ``take_from_one(1, (1, 2))``) states the same
    moves symbolically so that rules can be proved for every position; the prover first checks it
    against ``moves`` on a small box.

    Examples
    --------
    >>> from games.symbolic import take_from_one
    >>> g = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1,
    ...                 relation=take_from_one(1, (1, 2)))
    >>> g.move_relation().words()
    'subtract t·v (t in {1, 2}, every coordinate staying ≥ 0) for v in 1'
    """
    return CustomGame(name, moves, dims, misere, relation)
