"""The game interface shared by every stage.

A game has a name and parameters, ``dims`` integer coordinates per position, a move
generator, a terminal rule, ``feature_names`` with a vectorised ``features``, and a
bounded ``universe(bound)``.  Built-in families generate moves with a numba kernel
``kernel(p, params, out) -> count`` that writes one option per row of ``out``; the
Python ``moves`` and the solver's graph builder both call it, so moves are defined once.
The kernel works on a block of positions, ``kernel(P, params, counts, out)``: row r of ``P``
gets ``counts[r]`` options in ``out[r]`` (so the graph builder, which takes no function
argument, stays in numba's on-disk cache).

A game whose ``parts`` is greater than one is a *sum of heaps*: every option is
``parts`` single-heap positions played side by side (a zero heap is an empty part),
so its Grundy value is the xor of the parts' values (Sprague-Grundy).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

import numpy as np

from cgbase.memory import check_memory
from games.universe import Universe

__all__ = ["Game", "Capabilities", "coordinate_names"]


@dataclass(frozen=True)
class Capabilities:
    """What a game declares about itself, read in one place (``discover.road``), as scikit-learn reads its tags.

    Attributes
    ----------
    integer_positions : bool
        Positions are tuples of integers in boxes (False: bitboards reachable from a start).
    misere_heaps : bool
        An impartial one-heap game played misère, with a move kernel: the rule of its sums is its misère quotient.
    board_sums : bool
        A position is the misère sum of its boards (Notakto): the rule is the quotient over boards.
    take_and_break : bool
        A one-heap game with a finite take-and-break code (``Game.take_and_break_code``): its Grundy values are
        computed until the periodicity theorem proves a period.
    symbolic_moves : bool
        ``move_relation()`` states the moves for a prover.
    """

    integer_positions: bool
    misere_heaps: bool
    board_sums: bool
    take_and_break: bool
    symbolic_moves: bool


def coordinate_names(dims: int) -> tuple[str, ...]:
    """Names of coordinates: ``a, b, c, ...`` up to 26, else ``x1, x2, ...``."""
    if dims <= 26:
        return tuple(string.ascii_lowercase[:dims])
    return tuple(f"x{i + 1}" for i in range(dims))


class Game:
    """Base class of every game.

    Subclasses set ``name``, ``params``, ``dims`` and either a numba ``kernel`` (a
    ``staticmethod``, with ``kernel_params`` and ``max_moves``) or override ``moves``.

    Attributes
    ----------
    name : str
        Family name in the registry.
    params : dict
        The parameters the family was made with (what ``make_game`` takes).
    dims : int
        Coordinates per position.
    impartial : bool
        Both players have the same moves, so Grundy values exist.
    misere : bool
        The player with no move wins (normal play: loses).
    parts : int
        Single-heap parts per option (1 for ordinary games).
    line_directions : tuple of tuple of int or None
        Set when the moves are exactly "subtract t * v, t >= 1, staying >= 0" for these
        0/1 vectors v: the solver then decides P/N in O(1) per position.
    universe_from_start : bool
        True for board games: the universe is every position reachable from ``start`` and
        ``universe(bound)`` ignores the bound (``solve(game)`` needs none).
    start : tuple of int or None
        The position a play begins from, where the game has one (board games).
    binary_features : bool
        The binary digits of the coordinates are the game's natural features (Nim: its rule is
        a bitwise xor); a network's input encoding may use them.
    board_sums : bool
        A position is the misère sum of its boards (Notakto).
    period_theorem : str or None
        One-heap games whose values are proved eventually periodic by a theorem
        (``discover.proofs.periodicity``): "octal" (Guy and Smith) or "subtraction"; such a
        game also has ``removal_limit``, the most tokens a move removes.
    source_file : dict or None
        For a game read from a file (``discover --game-file`` or ``--game-spec``): the file's name and the
        SHA-256 of its bytes (``{"file", "sha256"}``), which reports record.
    """

    name: str = "game"
    dims: int = 1
    impartial: bool = True
    misere: bool = False
    parts: int = 1
    line_directions: tuple[tuple[int, ...], ...] | None = None
    universe_from_start: bool = False
    start: tuple[int, ...] | None = None
    period_theorem: str | None = None
    binary_features: bool = False
    board_sums: bool = False
    source_file: dict | None = None
    kernel = None

    def __init__(self, **params):
        self.params = params

    # -- moves ---------------------------------------------------------------------
    def kernel_params(self) -> np.ndarray:
        """The int64 parameter array handed to ``kernel``."""
        return np.zeros(0, dtype=np.int64)

    def max_moves(self, limits) -> int:
        """An upper bound on the options of any position within ``limits``."""
        raise NotImplementedError

    def move_relation(self):
        """The moves as a ``games.symbolic`` relation a prover can read, or None (bounded checks only)."""
        return None

    def take_and_break_code(self) -> tuple[np.ndarray, bool] | None:
        """(digits d_0 ... d_t, unequal splits) of a one-heap take-and-break game with a finite code (Guy and Smith's
        notation, ``solvers.take_and_break``), else None."""
        return None

    def capabilities(self) -> Capabilities:
        """What this game declares (``Capabilities``), from its attributes and hooks.

        Examples
        --------
        >>> from games import make_game
        >>> make_game("octal", code="0.77", misere=True).capabilities().misere_heaps
        True
        >>> make_game("notakto", n=3, boards=2).capabilities().board_sums, make_game("nim").capabilities().board_sums
        (True, False)
        """
        one_heap = self.dims == 1 and not self.universe_from_start and self.kernel is not None
        return Capabilities(integer_positions=not self.universe_from_start,
                            misere_heaps=self.misere and self.impartial and one_heap,
                            board_sums=self.board_sums,
                            take_and_break=not self.universe_from_start and self.take_and_break_code() is not None,
                            symbolic_moves=self.move_relation() is not None)

    def check_position(self, p: np.ndarray) -> None:
        """Raise ``ValueError`` if ``p`` (an int64 vector) is not a position of this game."""
        if p.size != self.dims or (p < 0).any():
            raise ValueError(f"{self!r}: {tuple(p.tolist())} is not a position of {self.dims} coordinates >= 0")

    def options(self, position) -> np.ndarray:
        """Options of one position as rows of ``parts * dims`` integers."""
        p = np.asarray(position, dtype=np.int64).reshape(-1)
        self.check_position(p)
        counts, out = self.option_block(p[None, :])
        return out[0, : counts[0]]

    def option_block(self, positions) -> tuple[np.ndarray, np.ndarray]:
        """Options of each of an (n, dims) array of positions, in one call: ``(counts, out)``, row r's
        ``counts[r]`` options in ``out[r, :counts[r]]`` (rows of ``parts * dims`` integers; the block the
        move kernel writes, padded to the most options of any position).

        Examples
        --------
        >>> from games import make_game
        >>> counts, out = make_game("subtraction", subtract=(1, 2)).option_block([[2], [0]])
        >>> counts.tolist(), out[0, :2].ravel().tolist()
        ([2, 0], [1, 0])
        """
        if self.kernel is None:
            raise NotImplementedError(f"{self.name} defines no move kernel")
        P = np.ascontiguousarray(np.asarray(positions, dtype=np.int64).reshape(-1, self.dims))
        width = max(int(self.max_moves(P.max(axis=0))) if len(P) else 1, 1)
        check_memory(8.0 * len(P) * width * self.parts * self.dims, f"the options of {len(P):,} positions of "
                     f"{self!r} ({width:,} each at most)", "ask for fewer positions at once")
        out = np.empty((len(P), width, self.parts * self.dims), dtype=np.int64)
        counts = np.zeros(len(P), dtype=np.int64)
        if len(P):
            self.kernel(P, self.kernel_params(), counts, out)
        return counts, out

    def moves(self, position) -> list[tuple[int, ...]]:
        """The positions reachable in one move, in a fixed order.

        Examples
        --------
        >>> from games import make_game
        >>> make_game("subtraction", subtract=(1, 3)).moves((3,))
        [(2,), (0,)]
        """
        return list(map(tuple, self.options(position).tolist()))

    def option_parts(self, option) -> list[tuple[int, ...]]:
        """The positions an option of ``moves`` is the sum of: itself, or its ``parts`` runs of ``dims`` coordinates.

        Examples
        --------
        >>> from games import make_game
        >>> make_game("octal", code="0.77").option_parts((3, 1))
        [(3,), (1,)]
        >>> make_game("turning_corners").option_parts((0, 1, 1, 0, 0, 0))
        [(0, 1), (1, 0), (0, 0)]
        """
        option = tuple(option)
        if self.parts == 1:
            return [option]
        return [option[i:i + self.dims] for i in range(0, len(option), self.dims)]

    def option_rows(self, positions) -> tuple[np.ndarray, np.ndarray]:
        """The options of an (n, dims) array of positions under ``moves``: ``(counts, options)``, the options of
        every position one after another as an (m, parts·dims) int64 array (how a game without a kernel is built).

        Examples
        --------
        >>> from games import make_game
        >>> counts, options = make_game("subtraction", subtract=(1, 2)).option_rows(np.array([[0], [2]]))
        >>> counts.tolist(), options.ravel().tolist()
        ([0, 2], [1, 0])
        """
        results = [self.moves(p) for p in np.asarray(positions, dtype=np.int64).reshape(-1, self.dims)]
        counts = np.fromiter(map(len, results), dtype=np.int64, count=len(results))
        return counts, np.array([o for r in results for o in r], dtype=np.int64).reshape(-1, self.parts * self.dims)

    def terminal_outcome(self) -> int:
        """Outcome for the player to move at a position with no move: -1 loss, +1 win."""
        return 1 if self.misere else -1

    def terminal_values(self, positions) -> np.ndarray:
        """Outcome for the player to move at each of an (n, dims) array of positions with no move.

        Every built-in impartial family has one terminal rule (``terminal_outcome``); a game
        whose end is decided by its own rule (a drawn board, say) overrides this.

        Examples
        --------
        >>> from games import make_game
        >>> make_game("nim", heaps=2).terminal_values([[0, 0]]).tolist()
        [-1]
        """
        positions = np.asarray(positions, dtype=np.int64).reshape(-1, self.dims)
        return np.full(positions.shape[0], self.terminal_outcome(), dtype=np.int8)

    # -- universe and features -----------------------------------------------------
    def universe(self, bound: int) -> Universe:
        """The positions with every coordinate in ``[0, bound]``, closed under moves."""
        return Universe.box(self.dims, bound)

    @property
    def feature_names(self) -> tuple[str, ...]:
        return coordinate_names(self.dims)

    def features(self, positions) -> np.ndarray:
        """Features of an (n, dims) array of positions: (n, len(feature_names)) int64."""
        positions = np.asarray(positions, dtype=np.int64)
        if positions.ndim != 2 or positions.shape[1] != self.dims:
            raise ValueError(f"{self!r}: positions must have shape (n, {self.dims}), got {positions.shape}")
        return positions

    # -- identity ------------------------------------------------------------------
    def spec(self) -> dict:
        """Name and parameters, enough for ``make_game`` to rebuild the game."""
        return {"name": self.name, "params": _jsonable(self.params)}

    def title(self) -> str:
        """The game in words ("misère Nim with 3 heaps"); see ``games.titles``."""
        from games.titles import title

        return title(self)

    def slug(self) -> str:
        """A file name for the game: the family, then each parameter as name and value, joined by ``-``.

        Value parameters are always written (``nim-heaps3`` says how many heaps though 3 is the
        default); a flag appears as its bare name only when on (``wythoff-misere``); a tuple's members
        are joined by ``_``; characters other than letters, digits, ``.``, ``_`` and ``-`` become ``_``.

        Examples
        --------
        >>> from games import make_game
        >>> make_game("subtraction", subtract=(1, 3, 4)).slug(), make_game("wythoff", misere=True).slug()
        ('subtraction-subtract1_3_4', 'wythoff-misere')
        """
        parts = [self.name]
        for key, value in self.spec()["params"].items():
            if isinstance(value, bool):
                parts.append(key if value else "")
            else:
                text = "_".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)
                parts.append(f"{key}{text}")
        return re.sub(r"[^A-Za-z0-9._-]", "_", "-".join(p for p in parts if p)).lstrip(".") or "game"

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.name}({args})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Game) and type(self) is type(other) and self.spec() == other.spec()

    def __hash__(self) -> int:
        return hash(repr(self))


def _jsonable(params: dict) -> dict:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}
