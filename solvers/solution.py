"""A solved game: outcome (and on request Grundy values and remoteness) of every position of a universe."""

from __future__ import annotations

import json

import numpy as np

from cgbase.files import atomic_savez
from cgbase.reading import Field, read_npz
from cgbase.version import __version__
from games import Game, Universe, coordinate_names
from games.registry import game_from_spec

__all__ = ["Solution", "GAME", "UNIVERSE"]

FORMAT = "cgdiscover-solution/1"
#: a game's record (``Game.spec``) and a universe's (``Universe.describe``) in a file's meta record
#: (``game_from_spec`` checks the rest of a game record)
GAME = Field("object", open=True, fields={"name": Field("str"), "params": Field("object")})
UNIVERSE = Field("object", fields={"limits": Field("list", items=Field("int", low=0, high=2**62), most=64),
                                   "box": Field("bool"), "size": Field("int", low=1, high=2**62),
                                   "bound": Field("int", null=True, low=1, high=2**62)})
META = {"game": GAME, "universe": UNIVERSE}
ARRAYS = ("outcome", "keys", "grundy", "remoteness")
OUTCOME_CLASSES = np.array(["P", "D", "N"])  # the CSV's outcome_class of outcome -1, 0, +1
SAMPLE = 256  #: seeded positions of a loaded solution checked against their moves


class Solution:
    """Exact values over a universe, addressed by position.

    Attributes
    ----------
    game : Game
    universe : Universe
    outcome_table : ndarray of int8
        +1 win, -1 loss, 0 draw for the player to move, in universe id order.
    grundy_table, remoteness_table : ndarray of int64 or None
        Present when computed.
    graph : solvers.Graph or None
        The game graph when the solve built one (kept in memory, never saved).
    checked : str or None
        For a solution read by ``load``, what was checked.
    """

    def __init__(self, game: Game, universe: Universe, outcome, grundy=None, remoteness=None):
        self.game = game
        self.universe = universe
        self.outcome_table = np.asarray(outcome, dtype=np.int8)
        self.grundy_table = None if grundy is None else np.asarray(grundy, dtype=np.int64)
        self.remoteness_table = None if remoteness is None else np.asarray(remoteness, dtype=np.int64)
        self.graph = None
        self.checked = None  # how ``load`` checked a solution read from a file

    @property
    def bound(self):
        return self.universe.bound

    # -- lookups ---------------------------------------------------------------------
    def _lookup(self, table, what: str, positions) -> np.ndarray:
        if table is None:
            raise ValueError(f"this solution has no {what}: solve again with {what}=True")
        positions = np.asarray(positions, dtype=np.int64)
        if positions.ndim == 1:
            positions = positions.reshape(1, -1)
        return table[self.universe.index(positions)]

    def outcome(self, positions) -> np.ndarray:
        """Outcome for the player to move (+1 win, -1 loss, 0 draw) of an (n, dims) array.

        Examples
        --------
        >>> from games import make_game
        >>> from solvers import solve
        >>> solve(make_game("nim", heaps=2), bound=3).outcome([[1, 1], [1, 2]]).tolist()
        [-1, 1]
        """
        return self._lookup(self.outcome_table, "outcome", positions).astype(np.int64)

    def grundy(self, positions) -> np.ndarray:
        """Grundy values of an (n, dims) array of positions (computed with ``grundy=True``)."""
        return self._lookup(self.grundy_table, "grundy", positions)

    def remoteness(self, positions) -> np.ndarray:
        """Moves to the end under optimal play (computed with ``remoteness=True``); -1 for draws."""
        return self._lookup(self.remoteness_table, "remoteness", positions)

    def p_positions(self) -> np.ndarray:
        """The positions lost for the player to move (P positions), in id order."""
        return self.universe.positions(np.flatnonzero(self.outcome_table == -1))

    def optimal_moves(self, position) -> list[tuple[int, ...]]:
        """Best moves from a position: into P positions when winning (fastest first when
        remoteness is known), towards draws when drawn, every move (slowest first) when lost."""
        if self.game.parts > 1:
            raise ValueError("optimal moves of a sum of heaps: play the Grundy values of each part")
        options = self.game.moves(position)
        if not options:
            return []
        values = self.outcome(np.array(options))
        mine = int(self.outcome(np.array([position]))[0])
        want = {1: -1, 0: 0, -1: 1}[mine]
        best = [o for o, v in zip(options, values) if v == want]
        if self.remoteness_table is not None:
            rem = self.remoteness(np.array(best))
            target = rem.min() if mine == 1 else rem.max()
            best = [o for o, r in zip(best, rem) if r == target]
        return best

    def summary(self) -> dict:
        """Counts of wins, losses and draws, and the first P positions."""
        table = self.outcome_table
        first = self.universe.positions(np.flatnonzero(table == -1)[:12])
        return {
            "game": repr(self.game),
            "bound": self.bound,
            "positions": int(table.size),
            "wins (N)": int((table == 1).sum()),
            "losses (P)": int((table == -1).sum()),
            "draws": int((table == 0).sum()),
            "first P positions": [tuple(int(x) for x in p) for p in first],
        }

    # -- files -----------------------------------------------------------------------
    def write_csv(self, path, chunk: int = 1 << 16) -> None:
        """Write one row per position as CSV, atomically (``discover solve --csv``).

        The columns: the position's coordinates (named by the game's ``feature_names``), ``outcome`` for the
        player to move as a number (+1 win, -1 loss, 0 draw, as ``outcome_table``), ``outcome_class`` as a
        letter (``P``: the previous player wins, a loss for the player to move; ``N``: the next player wins;
        ``D``: a draw), then ``grundy`` and ``remoteness`` when the solve computed them. Rows follow the
        universe's id order; the header is the first line.

        Parameters
        ----------
        path : str or path-like
            The file to write (a regular file in a writable folder; written whole or not at all).
        chunk : int
            Positions formatted at a time (memory only; the file is the same).

        Examples
        --------
        >>> import os, tempfile
        >>> from games import make_game
        >>> from solvers import solve
        >>> out = os.path.join(tempfile.mkdtemp(), "nim.csv")
        >>> solve(make_game("nim", heaps=2), bound=1, grundy=True).write_csv(out)
        >>> print(open(out).read(), end="")
        a,b,outcome,outcome_class,grundy
        0,0,-1,P,0
        1,0,1,N,1
        0,1,1,N,1
        1,1,-1,P,0
        """
        from cgbase.files import atomic_write

        tables = [("grundy", self.grundy_table), ("remoteness", self.remoteness_table)]
        tables = [(name, table) for name, table in tables if table is not None]
        names = self.game.feature_names
        if len(names) != self.universe.dims:
            names = coordinate_names(self.universe.dims)
        header = ",".join([*names, "outcome", "outcome_class", *(name for name, _ in tables)])
        row = ",".join(["%d"] * (self.universe.dims + 1) + ["%s"] + ["%d"] * len(tables))
        with atomic_write(path, "--csv", binary=False) as handle:
            handle.write(header + "\n")
            for lo in range(0, self.universe.size, chunk):
                ids = np.arange(lo, min(lo + chunk, self.universe.size))
                outcome = self.outcome_table[ids]
                block = np.empty((ids.size, self.universe.dims + 2 + len(tables)), dtype=object)
                block[:, :self.universe.dims] = self.universe.positions(ids)
                block[:, self.universe.dims] = outcome
                block[:, self.universe.dims + 1] = OUTCOME_CLASSES[outcome + 1]
                for column, (_, table) in enumerate(tables, self.universe.dims + 2):
                    block[:, column] = table[ids]
                np.savetxt(handle, block, fmt=row)

    def save(self, path) -> None:
        """Write one compressed file recording game, parameters, bound and version (atomically)."""
        meta = {
            "format": FORMAT,
            "version": __version__,
            "game": self.game.spec(),
            "universe": self.universe.describe(),
        }
        arrays = {"meta": np.array(json.dumps(meta)), "outcome": self.outcome_table}
        if self.universe.keys is not None:
            arrays["keys"] = self.universe.keys
        for name in ("grundy", "remoteness"):
            table = getattr(self, f"{name}_table")
            if table is not None:
                arrays[name] = table
        atomic_savez(path, arrays)

    @classmethod
    def load(cls, path, game: Game | None = None, verify: bool = False) -> "Solution":
        """Read a file written by ``save``; ``game`` is needed for custom games and is checked.

        Nothing in the file is trusted, and by default it is checked in time proportional to the file, never by
        rebuilding the game: its sizes, schema and checksum (``cgbase.reading.read_npz``); the game rebuilt from
        its recorded name and parameters (checked like any other); the universe that game's own at the recorded
        bound; every table integers of the right shape and range; Grundy values and remoteness in agreement with
        the outcomes; and ``SAMPLE`` seeded positions holding the outcome their moves give them. The checksum
        catches a damaged or edited file, but it is no signature: a forgery that recomputes it can pass these
        checks. ``verify=True`` (``discover show --check``) also solves the game again over the file's universe
        and compares every value, in the time and memory of that solve. ``checked`` says which was done.

        Examples
        --------
        >>> import os, tempfile
        >>> from games import make_game
        >>> from solvers import solve
        >>> path = os.path.join(tempfile.mkdtemp(), "w.npz")
        >>> solve(make_game("wythoff"), bound=20).save(path)
        >>> Solution.load(path, verify=True).checked
        'every value compared with a fresh solve'
        """
        arrays, meta = read_npz(path, FORMAT, "solution", META, ARRAYS)
        try:
            universe = universe_from_record(meta["universe"], arrays.get("keys"), path)
            if "outcome" not in arrays:
                raise KeyError("outcome")
            game = game_from_spec(meta["game"], game, path)
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"{path} is not a readable solution file ({err})") from None
        tables = {name: arrays.get(name) for name in ("outcome", "grundy", "remoteness")}
        _check_tables(game, universe, tables, path)
        solution = cls(game, universe, tables["outcome"], tables["grundy"], tables["remoteness"])
        sampled = _check_sample(solution, path)
        solution.checked = "checksum and tables" + (f", {sampled:,} sampled positions against their moves" if sampled
                                                    else "")
        if verify:
            _compare_with_solve(solution, path)
            solution.checked = "every value compared with a fresh solve"
        return solution

    def __repr__(self) -> str:
        computed = ["outcome"] + [n for n in ("grundy", "remoteness") if getattr(self, f"{n}_table") is not None]
        return f"Solution({self.game!r}, {self.universe!r}, {'+'.join(computed)})"

    def _repr_html_(self) -> str:
        from cgbase.html import card, escape

        facts = self.summary()
        computed = ["outcome"] + [n for n in ("grundy", "remoteness") if getattr(self, f"{n}_table") is not None]
        first = ", ".join(map(str, facts.pop("first P positions")))
        return card("Solution", [(name, escape(f"{value:,}" if isinstance(value, int) else str(value)))
                                 for name, value in facts.items() if value is not None]
                    + [("tables", escape(", ".join(computed))), ("first P positions", escape(first) or None)])


def universe_from_record(shape: dict, keys, path) -> Universe:
    """The universe a file's ``universe`` record describes; its recorded size and kind must be the universe's own."""
    universe = Universe(shape["limits"], keys=keys, bound=shape["bound"])
    if shape["size"] != universe.size or shape["box"] != universe.is_box:
        raise ValueError(f"{path} is corrupt: its universe record says {shape['size']} positions "
                         f"({'a box' if shape['box'] else 'a subset'}), its arrays {universe.size} "
                         f"({'a box' if universe.is_box else 'a subset'})")
    return universe


def _check_tables(game: Game, universe: Universe, tables: dict, path) -> None:
    """The universe is the game's own; each table holds integers of the right shape, range and agreement."""
    # a board game's universe is every position reachable from its start: enumerating it is rebuilding the game,
    # left to verify=True (the sample below checks that the positions are closed under the moves)
    if universe.bound is not None and not game.universe_from_start and universe != game.universe(universe.bound):
        raise ValueError(f"{path} is corrupt: its universe is not the one {game!r} has at bound {universe.bound}")
    if game.universe_from_start and game.start is not None and not universe.contains(np.array([game.start]))[0]:
        raise ValueError(f"{path} is corrupt: its positions leave out the start of {game!r}")
    n = universe.size
    ranges = {"outcome": (-1, 1), "grundy": (0, None), "remoteness": (-1, None)}
    for name, table in tables.items():
        if table is None:
            continue
        low, high = ranges[name]
        if table.shape != (n,) or not np.issubdtype(table.dtype, np.integer):
            raise ValueError(f"{path} is corrupt: {name} holds {table.dtype} of shape {table.shape}, not {n} integers")
        if table.size and (table.min() < low or (high is not None and table.max() > high)):
            raise ValueError(f"{path} is corrupt: {name} has values outside [{low}, {high if high is not None else 'inf'}]")
    outcome, grundy, remoteness = tables["outcome"], tables["grundy"], tables["remoteness"]
    if grundy is not None and (not game.impartial or game.misere or not np.array_equal(grundy == 0, outcome == -1)):
        raise ValueError(f"{path} is corrupt: its Grundy values do not fit the game or its outcomes")
    if remoteness is not None and not np.array_equal(remoteness == -1, outcome == 0):
        raise ValueError(f"{path} is corrupt: its remoteness does not fit its outcomes")


def _compare_with_solve(solution: Solution, path) -> None:
    """Solve the game again over the file's universe (``solvers.exact``) and compare every table."""
    from solvers.exact import exact_tables

    game, universe = solution.game, solution.universe
    if game.universe_from_start and universe != game.universe():
        raise ValueError(f"{path} is corrupt: its positions are not those reachable in {game!r}")
    try:
        fresh = exact_tables(game, universe, grundy=solution.grundy_table is not None,
                             remoteness=solution.remoteness_table is not None)
    except ValueError as err:
        raise ValueError(f"{path}: solving {game!r} again over the file's positions fails: {err}") from None
    for name in ("outcome", "grundy", "remoteness"):
        saved, truth = getattr(solution, f"{name}_table"), getattr(fresh, name)
        if saved is None:
            continue
        wrong = np.flatnonzero(saved != truth)
        if wrong.size:
            i = int(wrong[0])
            position = tuple(int(x) for x in universe.positions([i])[0])
            what = "Grundy value" if name == "grundy" else name
            raise ValueError(f"{path} is corrupt: {position} is recorded with {what} {int(saved[i])}, but its moves "
                             f"give {int(truth[i])}")


def _check_sample(solution: Solution, path, sample: int = SAMPLE) -> int:
    """A seeded sample of positions must have the outcome their options give them; the number checked."""
    game, universe, outcome = solution.game, solution.universe, solution.outcome_table
    ids = np.random.default_rng(0).choice(universe.size, size=min(sample, universe.size), replace=False)
    checked = 0
    for i in ids:
        position = tuple(int(x) for x in universe.positions([i])[0])
        if game.parts > 1:
            break
        options = np.asarray(game.options(position), dtype=np.int64).reshape(-1, universe.dims)
        if len(options) and not universe.contains(options).all():  # a solved universe is closed under moves
            raise ValueError(f"{path} is corrupt: a move from {position} leaves its positions")
        checked += 1
        values = outcome[universe.index(options)] if len(options) else np.zeros(0, dtype=np.int8)
        expected = (int(game.terminal_values([position])[0]) if not len(options) else
                    1 if (values == -1).any() else -1 if (values == 1).all() else 0)
        if outcome[i] != expected:
            raise ValueError(f"{path} is corrupt: {position} is recorded as {int(outcome[i]):+d}, but its moves "
                             f"give {expected:+d}")
    return checked
