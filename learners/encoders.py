"""Network inputs: a block of positions as float arrays, seen by the player to move.

AlphaZero's network reads positions, never moves (see ``learners.alphazero.learner``: the policy scores
afterstates), so an encoding is a function of an (m, dims) int64 array of positions:

* board games: the game's own planes (``BoardGame.planes``), seen by the player to move: for
  Notakto a plane of marks per board (and a plane per board marking it dead); for tic-tac-toe and
  Hex the mover's stones, the opponent's and a plane of ones, Hex reflected so the mover always
  joins top and bottom.  Shape ``(planes, n, n)``; an MLP flattens it.
* integer games: ``"binary"`` writes the binary digits of each coordinate (the natural
  features of Nim: its rule is a bitwise xor), ``"scaled"`` each coordinate divided by the
  largest value, ``"thermometer"`` the indicators ``x >= t`` for t = 1..largest (good for
  Wythoff's comparisons), ``"binary+scaled"`` and ``"binary+thermometer"`` both; ``"auto"`` is
  binary+scaled for games whose binary digits are natural features (``game.binary_features``:
  Nim) and for bounds above 64, binary+thermometer otherwise (on Wythoff 12 x 12
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

from games.boards import bit_planes

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


class BoardPlanes(Encoder):
    """A board game's own input planes (``BoardGame.planes``), seen by the player to move."""

    name = "board planes"
    planes = True

    def __init__(self, game):
        self.game = game
        self.shape = tuple(game.planes(np.array([game.start], dtype=np.int64)).shape[1:])

    def __call__(self, positions):
        return self.game.planes(positions)


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
            parts.append(bit_planes(P, self.digits))
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
        return BoardPlanes(game)
    if encoding == "planes":
        raise ValueError(f"{game!r} has integer positions: use binary, scaled, thermometer or binary+scaled")
    if limit is None:
        raise ValueError(f"encoding {game!r} needs the largest coordinate (its bound)")
    if encoding == "auto":
        encoding = "binary+scaled" if game.binary_features or limit > 64 else "binary+thermometer"
    return IntegerFeatures(game.dims, limit, encoding)
