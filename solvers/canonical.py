"""Outcomes of a board game over its positions up to symmetry: the canonical universe solved by retrograde.

``solve`` builds every reachable position; a game of several boards (Notakto with three 3 x 3 boards: about
10^8 bitboard triples) does not fit.  Up to the game's symmetries (``game.canonical``: each board's least image,
boards sorted) far fewer remain: ``CanonicalSolution`` takes the positions reachable from the start, each
replaced by its canonical form, and solves them in one retrograde pass.  Every move of a board game adds a
stone, so an option has more stones than its position: ordered by stones, most first, every move goes to an
earlier position.
"""

from __future__ import annotations

import numpy as np

from games import Game
from cgbase.deadline import Deadline
from cgbase.memory import check_memory
from solvers.retrograde import outcome_descending

__all__ = ["CanonicalSolution", "MAX_POSITIONS"]

MAX_POSITIONS = 20_000_000  # canonical positions at most (about 1 GB of options while they are built)


def _stones(P: np.ndarray) -> np.ndarray:
    bits = P.astype(np.uint64)
    total = np.zeros(len(P), dtype=np.int64)
    for q in range(P.shape[1]):
        total += np.bitwise_count(bits[:, q]).astype(np.int64)
    return total


class CanonicalSolution:
    """The outcome (1 win, -1 loss for the player to move) of every position up to symmetry reachable from the
    start of a board game whose moves add one stone (Notakto, Hex, tic-tac-toe positions without draws);
    ``deadline`` (a ``cgbase.deadline.Deadline``) is checked at each layer of stones.

    Examples
    --------
    >>> from games import make_game
    >>> truth = CanonicalSolution(make_game("notakto", n=3, boards=2))
    >>> len(truth), truth.outcome([(0, 0), (16, 16), (0, 0b100000000)]).tolist()
    (3828, [-1, -1, 1])
    """

    def __init__(self, game: Game, limit: int = MAX_POSITIONS, deadline: Deadline | None = None):
        if not isinstance(game, Game) or not game.universe_from_start:
            raise ValueError(f"CanonicalSolution takes a board game (one with a start), got {game!r}")
        self.game = game
        found = [game.canonical(np.asarray(game.start, dtype=np.int64)[None, :])]
        layer, total = found[0], 1
        deadline = Deadline.of(deadline)
        while len(layer):
            deadline.check(f"the positions of {game!r} up to symmetry ({total:,} so far)")
            counts, out = game.option_block(layer)
            rows = out[np.arange(out.shape[1])[None, :] < counts[:, None]].reshape(-1, game.dims)
            layer = np.unique(game.canonical(rows), axis=0) if len(rows) else rows
            total += len(layer)
            if total > limit:
                raise ValueError(f"{game!r} has more than {limit:,} positions up to symmetry: use fewer or smaller "
                                 "boards")
            found.append(layer)
        P = np.concatenate(found)
        P = P[np.lexsort((*P.T[::-1], -_stones(P)))]  # stones most first: every move goes to an earlier row
        self.positions = P
        check_memory(P.nbytes * 4, "the options of the canonical universe")
        counts, out = game.option_block(P)
        rows = out[np.arange(out.shape[1])[None, :] < counts[:, None]].reshape(-1, game.dims)
        targets = self._index(game.canonical(rows))
        indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        terminal = game.terminal_values(P[counts == 0][:1]) if (counts == 0).any() else np.array([1])
        self.outcome_table = outcome_descending(indptr, targets, int(terminal[0])).astype(np.int8)

    def __len__(self) -> int:
        return len(self.positions)

    def _index(self, canonical_rows: np.ndarray) -> np.ndarray:
        keys = self._keys(self.positions)
        order = np.argsort(keys, kind="stable")
        want = self._keys(canonical_rows)
        at = np.searchsorted(keys[order], want)
        at = np.minimum(at, len(keys) - 1)
        found = keys[order][at] == want
        if not found.all():
            bad = tuple(np.asarray(canonical_rows)[np.flatnonzero(~found)[0]].tolist())
            raise ValueError(f"{bad} is not reachable from the start of {self.game!r}")
        return order[at].astype(np.int64)

    @staticmethod
    def _keys(P: np.ndarray) -> np.ndarray:
        P = np.ascontiguousarray(np.asarray(P, dtype=np.int64).reshape(len(P), -1))
        return P.view(np.dtype((np.void, P.dtype.itemsize * P.shape[1]))).ravel()

    def outcome(self, positions) -> np.ndarray:
        """The outcome of each position (any symmetric image of a reachable one)."""
        P = np.asarray(positions, dtype=np.int64).reshape(-1, self.game.dims)
        return self.outcome_table[self._index(self.game.canonical(P))]
