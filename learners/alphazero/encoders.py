"""Network inputs: a block of positions as float arrays, seen by the player to move.

AlphaZero's network reads positions, never moves (see ``learners.alphazero.learner``: the policy scores
afterstates), so an encoding is a function of an (m, dims) int64 array of positions:

* board games (``game.board``/bitboards): one plane per kind of stone, from the player to
  move's side.  Notakto: a plane per board of the marks (and, with several boards, a plane per
  board that is 1 when the board is dead); tic-tac-toe: the mover's marks, the opponent's marks
  and a plane of ones (which shows the edge of the board to a convolution); Hex: the same three
  planes, the board reflected in its long diagonal when the second player is to move, so the
  mover always joins top and bottom (the reflection keeps Hex's adjacency: see
  ``games.boards``).  Shape ``(planes, n, n)``; an MLP flattens it.
* integer games: ``"binary"`` writes the binary digits of each coordinate (the natural
  features of Nim: its rule is a bitwise xor), ``"scaled"`` each coordinate divided by the
  largest value, ``"thermometer"`` the indicators ``x >= t`` for t = 1..largest (good for
  Wythoff's comparisons), ``"binary+scaled"`` and ``"binary+thermometer"`` both; ``"auto"`` is
  binary+scaled for Nim and for bounds above 64, binary+thermometer otherwise (on Wythoff 12 x 12
  it gave a value table right on 99% of its confident positions where binary+scaled gave 96%).

Examples
--------
>>> from games import make_game
>>> encode = make_encoder(make_game("nim", heaps=2), limit=5)
>>> encode.shape, encode(np.array([[5, 2]])).astype(float).round(2).tolist()  # per heap: digits (low first), heap / 5
((8,), [[1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.4]])
"""

from __future__ import annotations

import numpy as np

from games.boards import has_line

__all__ = ["Encoder", "make_encoder", "ENCODINGS"]

ENCODINGS = ("auto", "planes", "binary", "scaled", "thermometer", "binary+scaled", "binary+thermometer")


class Encoder:
    """Turns an (m, dims) int64 array of positions into an (m, *shape) float32 array."""

    shape: tuple[int, ...] = ()
    name = "encoder"
    planes = False  # True when the shape is (planes, n, n): a convolution can read it

    def __call__(self, positions) -> np.ndarray:
        raise NotImplementedError

    def describe(self) -> str:
        return f"{self.name} {self.shape}"


def _bits(values: np.ndarray, cells: int) -> np.ndarray:
    return ((values[..., None] >> np.arange(cells, dtype=np.int64)) & 1).astype(np.float32)


class NotaktoPlanes(Encoder):
    """A plane of marks per board; with several boards also a plane per board marking it dead."""

    name = "notakto planes"
    planes = True

    def __init__(self, game):
        self.n, self.boards, self.lines = game.n, game.dims, game.lines
        self.shape = ((2 if self.boards > 1 else 1) * self.boards, self.n, self.n)

    def __call__(self, positions):
        P = np.asarray(positions, dtype=np.int64).reshape(-1, self.boards)
        marks = _bits(P, self.n * self.n).reshape(P.shape[0], self.boards, self.n, self.n)
        if self.boards == 1:
            return marks
        dead = np.array([[has_line(x, self.lines) for x in row] for row in P], dtype=np.float32)
        return np.concatenate([marks, np.broadcast_to(dead[:, :, None, None], marks.shape)], axis=1)


class MoverPlanes(Encoder):
    """Two-player boards (tic-tac-toe, Hex): the mover's stones, the opponent's, a plane of ones.

    With ``reflect`` (Hex) the board of the second player to move is reflected in its long
    diagonal, so the planes always show a player who joins top and bottom.
    """

    name = "mover planes"
    planes = True

    def __init__(self, game, reflect: bool):
        self.n, self.reflect = game.n, reflect
        self.shape = (3, self.n, self.n)

    def __call__(self, positions):
        P = np.asarray(positions, dtype=np.int64).reshape(-1, 2)
        m, n = P.shape[0], self.n
        second = np.bitwise_count(P[:, 0]) != np.bitwise_count(P[:, 1])
        mine = np.where(second, P[:, 1], P[:, 0])
        theirs = np.where(second, P[:, 0], P[:, 1])
        out = np.ones((m, 3, n, n), dtype=np.float32)
        out[:, 0] = _bits(mine, n * n).reshape(m, n, n)
        out[:, 1] = _bits(theirs, n * n).reshape(m, n, n)
        if self.reflect and second.any():
            out[second, :2] = out[second, :2].transpose(0, 1, 3, 2)
        return out


class IntegerFeatures(Encoder):
    """Integer coordinates as binary digits, scaled values and/or thermometer indicators."""

    def __init__(self, dims: int, limit: int, kind: str):
        self.dims, self.limit, self.kind = dims, max(1, int(limit)), kind
        self.digits = int(self.limit).bit_length()
        width = 0
        if "binary" in kind:
            width += self.digits
        if "scaled" in kind:
            width += 1
        if "thermometer" in kind:
            width += self.limit
        self.shape = (dims * width,)
        self.name = kind

    def __call__(self, positions):
        P = np.asarray(positions, dtype=np.int64).reshape(-1, self.dims)
        parts = []
        if "binary" in self.kind:
            parts.append(_bits(P, self.digits))
        if "scaled" in self.kind:
            parts.append((P.astype(np.float32) / self.limit)[..., None])
        if "thermometer" in self.kind:
            parts.append((P[..., None] >= np.arange(1, self.limit + 1)).astype(np.float32))
        return np.concatenate(parts, axis=-1).reshape(P.shape[0], -1)


def make_encoder(game, limit: int | None = None, encoding: str = "auto") -> Encoder:
    """The encoder of ``game``'s positions.

    Parameters
    ----------
    game : Game
    limit : int, optional
        Largest coordinate of an integer game (its bound); unused by board games.
    encoding : str
        One of ``ENCODINGS``; ``"auto"`` and ``"planes"`` give planes for board games,
        ``"auto"`` gives ``"binary+scaled"`` for Nim and large bounds, else ``"binary+thermometer"``.

    Examples
    --------
    >>> from games import make_game
    >>> make_encoder(make_game("hex", n=3)).shape
    (3, 3, 3)
    >>> make_encoder(make_game("wythoff"), limit=4, encoding="thermometer")(np.array([[2, 0]])).tolist()
    [[1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]
    """
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}: use one of {', '.join(ENCODINGS)}")
    if game.universe_from_start:
        if encoding not in ("auto", "planes"):
            raise ValueError(f"{game!r} is a board game: its encoding is 'planes' (or 'auto'), not {encoding!r}")
        if game.name == "notakto":
            return NotaktoPlanes(game)
        if game.dims == 2 and game.name in ("hex", "tictactoe"):
            return MoverPlanes(game, reflect=game.name == "hex")
        raise ValueError(f"no plane encoding for {game!r}")
    if encoding == "planes":
        raise ValueError(f"{game!r} has integer positions: use binary, scaled, thermometer or binary+scaled")
    if limit is None:
        raise ValueError(f"encoding {game!r} needs the largest coordinate (its bound)")
    if encoding == "auto":
        encoding = "binary+scaled" if game.name == "nim" or limit > 64 else "binary+thermometer"
    return IntegerFeatures(game.dims, limit, encoding)
