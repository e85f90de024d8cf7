"""``MoveChooser``: a custom game's strategy when no formula is found, a move into P found by listing the options.

``find_strategy`` looks for a winning-move function written as formulas.  When it finds none for a verified rule
of a custom game, that rule still gets a strategy, stated as what it is: from a position, the first option the
game lists (its ``moves()``, read from the graph ``find_rule`` keeps within the box) that the rule calls P.  It is
a move chooser, not a formula: it needs every option of the position, it is checked on every N position of the
verification bound (each has an option the rule calls P: the closure certificate's part, asked again of the
chooser itself), and nothing is proved from it (``prove_rule`` takes formula strategies only).  Beyond the bound
it plays what ``moves()`` and the rule say, with no claim that the move wins there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np

from cgbase.reading import load_json
from discover.rule import Rule
from discover.strategy import MovesOf
from games import Game

__all__ = ["MoveChooser"]

BLOCK = 1 << 14  # positions whose options are listed at a time


@dataclass
class MoveChooser:
    """From each position, the first of ``game``'s options that ``rule`` calls P.

    Parameters
    ----------
    rule : Rule
        A P rule (target "P") over the game's coordinates.
    game : Game
        A game whose options are single positions (its ``option_rows``: a custom game's ``moves()``).
    checked_bound : int, optional
        The bound on whose every N position (by the rule) the chooser was checked to have a move (``check``).
    provenance : dict
        How it came about (the formula search it stands in for).

    Examples
    --------
    >>> import sympy as sp
    >>> from games import custom_game
    >>> game = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1)
    >>> chooser = MoveChooser(Rule(sp.Eq(sp.Mod(sp.Symbol("a"), 3), 0), ("a",)), game)
    >>> chooser.moves(np.array([[4], [5], [6]])).ravel().tolist(), len(chooser.check(100))
    ([3, 3, -1], 0)
    """

    rule: Rule
    game: Game
    checked_bound: int | None = None
    provenance: dict = field(default_factory=dict)

    def __post_init__(self):
        if not isinstance(self.rule, Rule) or self.rule.target != "P":
            raise ValueError(f"a move chooser needs a P rule (discover.rule.Rule), got {self.rule!r}")
        if not isinstance(self.game, Game) or self.game.parts > 1:
            raise ValueError(f"a move chooser needs a game whose options are single positions, got {self.game!r}")
        if len(self.rule.feature_names) != self.game.dims:
            raise ValueError(f"the rule names {len(self.rule.feature_names)} coordinates and {self.game!r} has "
                             f"{self.game.dims}")
        self._options = MovesOf(self.game)

    def moves(self, positions) -> np.ndarray:
        """The chosen move from each of an (n, dims) array of positions; -1 rows where no option is P by the rule
        (a P or terminal position, or a gap)."""
        positions = np.asarray(positions, dtype=np.int64).reshape(-1, self.game.dims)
        out = np.full_like(positions, -1)
        for lo in range(0, len(positions), BLOCK):
            counts, options = self._options.option_rows(positions[lo:lo + BLOCK])
            if not len(options):
                continue
            wins = np.flatnonzero(self.rule.predicate(options))
            rows = np.repeat(np.arange(len(counts)), counts)[wins]
            chosen, first = np.unique(rows, return_index=True)  # rows ascend: the first winning option of each
            out[lo + chosen] = options[wins[first]]
        return out

    def misses(self, positions) -> np.ndarray:
        """True where the chooser has no move (``moves`` gives -1)."""
        return (self.moves(positions) < 0).any(axis=1)

    def move(self, position) -> tuple[int, ...]:
        """The chosen move from one position; ``ValueError`` when it has none there."""
        moved = self.moves(np.asarray(position, dtype=np.int64).reshape(1, -1))[0]
        if (moved < 0).any():
            raise ValueError(f"no option of {tuple(position)} is a P position by the rule")
        return tuple(int(x) for x in moved)

    def check(self, bound: int, most: int = 5000) -> np.ndarray:
        """The N positions (by the rule) of ``game.universe(bound)`` that have options but no chosen move, the
        first ``most`` of them, as an (n, dims) array: empty when the chooser holds on the whole bound.  From then
        on the options of positions within the bound are read from the game's graph there while one is kept
        (``solvers.graph_store``: ``find_rule`` keeps the verification's), with no call of ``moves()``."""
        universe = self.game.universe(bound)
        self._options = MovesOf(self.game, universe)  # the kept graph's options within the bound
        gaps = []
        for lo in range(0, universe.size, BLOCK):
            block = universe.positions(np.arange(lo, min(lo + BLOCK, universe.size)))
            block = block[~self.rule.predicate(block)]
            counts = self._options.option_rows(block)[0]
            gaps.append(block[(counts > 0) & self.misses(block)])
            if sum(map(len, gaps)) >= most:
                break
        return np.concatenate(gaps)[:most] if gaps else np.zeros((0, self.game.dims), np.int64)

    def text(self) -> str:
        """The chooser in words, saying that it is no formula."""
        return (f"move to the first option of {self.game.name}'s moves() that the rule calls P (a move chooser that "
                f"lists the options, not a formula)")

    def __str__(self) -> str:
        return self.text()

    def to_json(self) -> str:
        """A JSON record that ``MoveChooser.from_json`` reads back (with the game it names)."""
        return json.dumps({"kind": "move chooser", "rule": json.loads(self.rule.to_json()), "game": self.game.spec(),
                           "checked_bound": self.checked_bound, "text": self.text(), "provenance": self.provenance})

    @classmethod
    def from_json(cls, text, game: Game) -> MoveChooser:
        """Read a record written by ``to_json`` (a string, or a dict already parsed) for ``game``, the game it names
        (its ``moves()`` is code, which a record cannot hold)."""
        try:
            record = load_json(text, "the strategy record") if isinstance(text, (str, bytes)) else dict(text)
            if record.get("kind") != "move chooser":
                raise ValueError(f"not a move chooser record: kind {record.get('kind')!r}")
            if record["game"] != json.loads(json.dumps(game.spec())):
                raise ValueError(f"this move chooser is for the game {record['game']!r}, not {game!r}")
            bound = record.get("checked_bound")
            if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int) or bound < 0):
                raise ValueError(f"checked_bound must be a non-negative integer or null, got {bound!r}")
            return cls(Rule.from_json(json.dumps(record["rule"])), game, bound, dict(record.get("provenance", {})))
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"not a move chooser record: {err}") from None
