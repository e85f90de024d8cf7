"""Labelled tables: positions, their features and labels, blind to where the labels came from.

A table from a ``Solution`` carries exact P/N labels (and Grundy values when solved with
them); the learners build the same type from learned value tables, with weights saying how
confident each label is.  Engines see only ``X``, ``y`` and ``feature_names``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from discover.expr.features import derived_names, feature_columns

__all__ = ["Table", "build_table", "table_from_solution"]


@dataclass
class Table:
    """Positions with features and labels.

    Attributes
    ----------
    positions : (n, dims) int64 array
    X : (n, f) int64 array of features named by ``feature_names``
    is_p : (n,) bool array, True where the player to move loses
    grundy : (n,) int64 array or None
    weights : (n,) float array, the confidence of each label (1 for exact tables)
    coordinate_names : names of the game's own features (columns of ``game.features``)
    provenance : dict (game, bound, data source, ...)
    """

    positions: np.ndarray
    X: np.ndarray
    feature_names: list[str]
    is_p: np.ndarray
    grundy: np.ndarray | None
    weights: np.ndarray
    coordinate_names: list[str]
    provenance: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.is_p)

    def y(self, target: str) -> np.ndarray:
        """Labels for a target: ``"P"`` (bool) or ``"grundy"`` (int)."""
        if target == "P":
            return self.is_p
        if target == "grundy":
            if self.grundy is None:
                raise ValueError("this table has no Grundy values")
            return self.grundy
        raise ValueError(f"target must be 'P' or 'grundy', got {target!r}")

    def column(self, name: str) -> np.ndarray:
        return self.X[:, self.feature_names.index(name)]


def build_table(game, positions, is_p, grundy=None, weights=None, provenance=None) -> Table:
    """A table over ``positions`` with the game's features and the derived ones."""
    positions = np.asarray(positions, dtype=np.int64)
    base = np.asarray(game.features(positions), dtype=np.int64)
    coords = list(game.feature_names)
    names = coords + derived_names(len(coords))
    columns = feature_columns(names, coords, base)
    X = np.column_stack([columns[n] for n in names]) if names else np.zeros((len(positions), 0), np.int64)
    weights = np.ones(len(positions)) if weights is None else np.asarray(weights, dtype=float)
    return Table(positions, X, names, np.asarray(is_p, dtype=bool), grundy, weights, coords, provenance or {})


def table_from_solution(solution) -> Table:
    """The exact table of a solved game over its whole universe.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> t = table_from_solution(solve(make_game("nim", heaps=2), bound=3))
    >>> t.feature_names[:4], int(t.is_p.sum())
    (['a', 'b', 'xor_all', 'sum_all'], 4)
    """
    positions = solution.universe.positions()
    provenance = {"game": solution.game.spec(), "bound": solution.bound, "source": "solver"}
    return build_table(
        solution.game, positions, solution.outcome_table == -1, solution.grundy_table, None, provenance
    )
