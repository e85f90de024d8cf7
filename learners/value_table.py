"""What a learner ends with: values over a game's universe, addressed like a ``Solution``.

``q[j]`` is the value of move ``j`` for the player who makes it, ``value[s]`` the value of
position ``s`` for the player to move (the best move's value, unless the learner gives its own
position values, as AlphaZero's value head does; the terminal outcome where there is no move),
both in [-1, 1]; ``visits`` count how often each move was learned from.
Thresholding ``value`` with a confidence gives the learned partition (the HQN paper's dataset):
P where ``value <= -confidence``, N where ``value >= confidence``, unsure in between.
"""

from __future__ import annotations

import json

import numpy as np

from cgbase.files import atomic_savez
from cgbase.reading import Field, read_npz
from cgbase.version import __version__
from games import Universe
from games.registry import game_from_spec

__all__ = ["ValueTable"]

FORMAT = "cgdiscover-value-table/1"
SAMPLE = 256  #: seeded positions of a loaded table whose moves are checked against the game's (all: verify=True)
MAX_EPISODES = 2**53  # games a saved table or checkpoint may claim (exact in a float)
#: who made a table: the learner's class, its parameters and the games it played (other keys are provenance)
LEARNER = Field("object", open=True, fields={
    "learner": Field("str", required=False), "params": Field("object", required=False, open=True),
    "episodes": Field("int", required=False, low=0, high=MAX_EPISODES)})


class ValueTable:
    """Learned move and position values over a universe.

    Attributes
    ----------
    game : Game
    universe : Universe
    indptr, targets : ndarray of int64
        The moves: ``targets[indptr[s]:indptr[s+1]]`` are the options of position ``s``.
    q, visits : ndarray of float64, one per move
    value, state_visits : ndarray, one per position
        ``value`` is the best move's ``q`` unless the constructor is given ``value`` (live positions
        take it; positions without a move keep their terminal outcome).
    meta : dict
        Learner, its parameters, seed, episodes, opponent, bound and toolkit version.
    """

    def __init__(self, game, universe: Universe, indptr, targets, q, visits, terminal, meta=None, value=None):
        self.game, self.universe = game, universe
        self.indptr = np.asarray(indptr, dtype=np.int64)
        self.targets = np.asarray(targets, dtype=np.int64)
        self.q = np.asarray(q, dtype=float)
        self.visits = np.asarray(visits, dtype=float)
        self.terminal = np.asarray(terminal, dtype=np.int8)
        self.meta = dict(meta or {})
        degree = np.diff(self.indptr)
        sources = np.repeat(np.arange(universe.size), degree)
        self.value = self.terminal.astype(float)
        live = degree > 0
        self.own_value = value is not None
        if self.own_value:
            value = np.asarray(value, dtype=float)
            if value.shape != (universe.size,):
                raise ValueError(f"value must hold one number per position ({universe.size}), got shape {value.shape}")
            self.value[live] = value[live]
        elif self.q.size:
            top = np.full(universe.size, -np.inf)
            np.maximum.at(top, sources, self.q)
            self.value[live] = top[live]
        self.value = np.clip(self.value, -1.0, 1.0)
        self.state_visits = np.bincount(sources, weights=self.visits, minlength=universe.size)

    @property
    def bound(self):
        return self.universe.bound

    def values(self, positions) -> np.ndarray:
        """Values for the player to move of an (n, dims) array of positions."""
        return self.value[self.universe.index(np.asarray(positions, dtype=np.int64).reshape(-1, self.universe.dims))]

    def partition(self, confidence: float = 0.3) -> np.ndarray:
        """Learned outcome per position: -1 (P), +1 (N) or 0 (unsure, |value| < confidence).

        Examples
        --------
        >>> from games import make_game
        >>> from learners import QLearner
        >>> table = QLearner(random_state=0).fit(make_game("nim", heaps=2), bound=3, episodes=3000).value_table_
        >>> table.partition(0.5).reshape(4, 4).diagonal().tolist()
        [-1, -1, -1, -1]
        """
        if not 0.0 <= confidence < 1.0:
            raise ValueError(f"confidence must be in [0, 1), got {confidence}")
        labels = np.zeros(self.universe.size, dtype=np.int8)
        labels[self.value >= confidence] = 1
        labels[self.value <= -confidence] = -1
        if confidence == 0.0:
            labels[self.value == 0.0] = 0
        return labels

    # -- files -----------------------------------------------------------------------
    def save(self, path) -> None:
        """Write one compressed file (atomically) recording game, bound, learner and version."""
        meta = {"format": FORMAT, "version": __version__, "game": self.game.spec(),
                "universe": self.universe.describe(), "learner": self.meta}
        arrays = {"meta": np.array(json.dumps(meta)), "indptr": self.indptr, "targets": self.targets,
                  "q": self.q, "visits": self.visits, "terminal": self.terminal}
        if self.universe.keys is not None:
            arrays["keys"] = self.universe.keys
        if self.own_value:
            arrays["value"] = self.value
        atomic_savez(path, arrays)

    @classmethod
    def load(cls, path, game=None, verify: bool = False) -> "ValueTable":
        """Read a file written by ``save`` (``game`` is needed for custom games); nothing in it is trusted
        (``cgbase.reading.read_npz``: sizes, schema, checksum), and its moves must be the game's own: those of
        ``SAMPLE`` seeded positions by default (and the terminal outcomes of every position without a move), in
        time proportional to the file; every position's with ``verify=True``, which builds the game's move
        graph."""
        from solvers.solution import GAME, UNIVERSE, universe_from_record

        arrays, meta = read_npz(path, FORMAT, "value table",
                                {"game": GAME, "universe": UNIVERSE, "learner": LEARNER},
                                ("indptr", "targets", "q", "visits", "terminal", "keys", "value"))
        try:
            spec = meta["game"]
            universe = universe_from_record(meta["universe"], arrays.get("keys"), path)
            parts = [arrays[k] for k in ("indptr", "targets", "q", "visits", "terminal")]
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"{path} is not a readable value table ({err})") from None
        indptr, targets, q, visits, terminal = parts
        if (indptr.shape != (universe.size + 1,) or q.shape != targets.shape or visits.shape != targets.shape
                or terminal.shape != (universe.size,) or indptr[-1] != targets.size):
            raise ValueError(f"{path} is corrupt: its arrays do not fit a universe of {universe.size} positions")
        value = arrays.get("value")
        if value is not None and value.shape != (universe.size,):
            raise ValueError(f"{path} is corrupt: its values do not fit a universe of {universe.size} positions")
        _check_arrays(path, universe.size, indptr, targets, q, visits, terminal, value)
        try:
            game = game_from_spec(spec, game, path)
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"{path} is not a readable value table ({err})") from None
        rebuild_universe = verify or not game.universe_from_start  # a board game's: only on request (rebuilding it)
        if universe.bound is not None and rebuild_universe and universe != game.universe(universe.bound):
            raise ValueError(f"{path} is corrupt: its universe is not the one {game!r} has at bound {universe.bound}")
        if verify or game.parts > 1:
            _check_every_move(path, game, universe, indptr, targets, terminal)
        else:
            _check_sampled_moves(path, game, universe, indptr, targets, terminal)
        return cls(game, universe, indptr, targets, q, visits, terminal, meta.get("learner"), value)

    def __repr__(self) -> str:
        return f"ValueTable({self.game!r}, {self.universe!r}, {self.q.size} moves)"

    def _repr_html_(self, confidence: float = 0.3) -> str:
        from cgbase.html import card, escape

        labels = self.partition(confidence)
        counts = (f"{int((labels == -1).sum()):,} P, {int((labels == 1).sum()):,} N, {int((labels == 0).sum()):,} "
                  f"unsure (|value| < {confidence})")
        learner, episodes = self.meta.get("learner"), self.meta.get("episodes")
        return card("Value table", [("game", escape(repr(self.game))),
                                    ("learner", None if learner is None else escape(str(learner))),
                                    ("positions", f"{self.universe.size:,}"), ("moves", f"{self.q.size:,}"),
                                    ("episodes", None if episodes is None else f"{episodes:,}"),
                                    ("learned outcomes", escape(counts))])


def _check_every_move(path, game, universe, indptr, targets, terminal) -> None:
    """Every position's moves and terminal outcome are the game's own (its move graph built)."""
    from solvers import build_graph

    graph = build_graph(game, universe)
    if not (np.array_equal(graph.indptr, indptr) and np.array_equal(graph.targets[:, 0], targets)):
        raise ValueError(f"{path} is corrupt: its moves are not the moves of {game!r}")
    _check_terminals(path, game, universe, indptr, terminal)


def _check_terminals(path, game, universe, indptr, terminal) -> None:
    """The positions without a move in the file have the game's terminal outcomes, the others 0."""
    ends = np.flatnonzero(np.diff(indptr) == 0)
    expected = np.zeros(universe.size, dtype=np.int8)
    expected[ends] = game.terminal_values(universe.positions(ends))
    if not np.array_equal(terminal, expected):
        raise ValueError(f"{path} is corrupt: its terminal outcomes are not those of {game!r}")


def _check_sampled_moves(path, game, universe, indptr, targets, terminal) -> None:
    """The terminal outcomes (``_check_terminals``), and ``SAMPLE`` seeded positions have the game's own moves, in
    its order."""
    _check_terminals(path, game, universe, indptr, terminal)
    ids = np.random.default_rng(0).choice(universe.size, size=min(SAMPLE, universe.size), replace=False)
    for i in ids:
        position = universe.positions([i])[0]
        options = np.asarray(game.options(position), dtype=np.int64).reshape(-1, universe.dims)
        inside = universe.contains(options) if len(options) else np.zeros(0, dtype=bool)
        if not inside.all() or not np.array_equal(universe.index(options) if len(options) else options[:, 0],
                                                  targets[indptr[i]:indptr[i + 1]]):
            raise ValueError(f"{path} is corrupt: the moves of {tuple(int(x) for x in position)} are not the "
                             f"moves of {game!r}")


def _check_arrays(path, n: int, indptr, targets, q, visits, terminal, value) -> None:
    """Numbers of the right kind and range: a move graph over n positions, values in [-1, 1]."""
    for name, array in (("indptr", indptr), ("targets", targets), ("terminal", terminal)):
        if not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"{path} is corrupt: {name} holds {array.dtype}, not integers")
    for name, array in (("q", q), ("visits", visits), ("value", value)):
        if array is not None and (array.dtype.kind != "f" or not np.isfinite(array).all()):
            raise ValueError(f"{path} is corrupt: {name} must hold finite floats, not {array.dtype}")
    if indptr[0] != 0 or (np.diff(indptr) < 0).any() or (targets.size and (targets.min() < 0 or targets.max() >= n)):
        raise ValueError(f"{path} is corrupt: its move graph does not fit {n} positions")
    if (np.abs(q) > 1 + 1e-9).any() or (value is not None and (np.abs(value) > 1 + 1e-9).any()) \
            or (visits < 0).any() or (visits > MAX_EPISODES).any() or not np.isin(terminal, (-1, 0, 1)).all():
        raise ValueError(f"{path} is corrupt: values must lie in [-1, 1], visits in [0, 2**53], terminals -1, 0 or 1")