"""The engine contract: an estimator with ``fit(X, y)`` and a ranked list of candidate rules."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import sympy as sp
from cgbase.deadline import current
from cgbase.estimator import Estimator
from discover import defaults
from discover.expr.nodes import complexity
from discover.expr.numeric import evaluate

__all__ = ["Candidate", "Engine", "WorkBudget", "weighted_accuracy"]


@dataclass
class Candidate:
    """A proposed rule: an expression over feature symbols, scored on the training table."""

    expr: sp.Basic
    target: str  # "P" (a condition, true on P positions) or "grundy" (an integer value)
    accuracy: float  # weighted share of training rows the expression labels correctly
    engine: str
    words: str = ""  # an optional sentence explaining the rule (e.g. its pairs form)

    @property
    def complexity(self) -> int:
        return complexity(self.expr)

    @property
    def exact(self) -> bool:
        return self.accuracy >= 1.0

    def sort_key(self):
        return (-self.accuracy, self.complexity, str(self.expr))


class WorkBudget:
    """How much an engine may search, counted in units of work (element operations, fits, expansions), so that
    the same seed and table give the same candidates on any machine, at any load; and a wall-clock cap far
    above the usual run, as a safety net only (a search it stops says so: ``stopped_by_clock``).  The deadline of
    the run around it (``cgbase.deadline.current()``: ``find_rule``'s budget) ends it too (``stopped_by_deadline``).

    Examples
    --------
    >>> budget = WorkBudget(10, seconds=60)
    >>> [budget.spend(4) for _ in range(3)]
    [True, True, False]
    """

    def __init__(self, units: float, seconds: float = defaults.ENGINE_SECONDS):
        self.units, self.seconds = float(units), float(seconds)
        self.spent = 0.0
        self.stopped_by_clock = self.stopped_by_deadline = False
        self._start = time.perf_counter()
        self._run = current()

    def spend(self, units: float = 1.0) -> bool:
        """Count ``units`` of work; True while the budget (and the clock cap, and the run's deadline) allow going
        on."""
        self.spent += units
        if self.spent > self.units:
            return False
        if time.perf_counter() - self._start > self.seconds:
            self.stopped_by_clock = True
            return False
        if self._run.passed():
            self.stopped_by_deadline = True
            return False
        return True

    def note(self, engine: str) -> list[str]:
        """What to tell the user when the clock, not the work budget, ended the search."""
        if self.stopped_by_deadline:
            return [f"{engine} stopped at the run's {self._run.seconds:g}-second budget before its work budget"]
        if not self.stopped_by_clock:
            return []
        return [f"{engine} stopped at its {self.seconds:.0f} s safety cap before its work budget: on another "
                "machine it may find other candidates"]


def weighted_accuracy(predicted, y, sample_weight=None) -> float:
    """Share of (weighted) rows where ``predicted == y``."""
    predicted, y = np.asarray(predicted), np.asarray(y)
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    return float(np.sum(w * (predicted == y)) / np.sum(w)) if len(y) else 0.0


class Engine(Estimator):
    """Base class of discovery engines: an estimator in scikit-learn's manner (``cgbase.estimator.Estimator``).

    The constructor's signature names the parameters, and the constructor stores each unchanged
    under its name (so ``get_params``, ``set_params`` and ``sklearn.base.clone`` work).
    ``fit(X, y, feature_names=..., sample_weight=None, target="P")`` returns self and sets
    ``candidates_``: a list of ``Candidate`` ranked by accuracy, then description length, and
    ``notes_``: sentences saying what the engine left out of this table and why (empty when it
    tried everything it knows). Before ``fit``, reading either raises ``NotFittedError``.

    Examples
    --------
    >>> from sklearn.base import clone
    >>> from discover.engines.periods1d import PeriodicEngine
    >>> engine = PeriodicEngine(margin=4)
    >>> clone(engine).set_params(limit=2).get_params()
    {'limit': 2, 'margin': 4, 'max_period': None, 'random_state': None}
    >>> engine.notes_
    Traceback (most recent call last):
    cgbase.fitted.NotFittedError: this PeriodicEngine is not fitted yet: call fit(...) before reading notes_
    """

    name = "engine"

    def fit(self, X, y, *, feature_names, sample_weight=None, target="P"):
        raise NotImplementedError

    def score(self, expr, X, y, feature_names, sample_weight=None, target="P") -> float:
        """Weighted training accuracy of an expression (exact evaluation)."""
        columns = {name: np.asarray(X)[:, i] for i, name in enumerate(feature_names)}
        values = evaluate(expr, columns)
        return weighted_accuracy(values.astype(bool) if target == "P" else values, y, sample_weight)

    def _ranked(self, candidates) -> list[Candidate]:
        unique = {}
        for c in candidates:
            key = sp.srepr(c.expr)
            if key not in unique or c.sort_key() < unique[key].sort_key():
                unique[key] = c
        return sorted(unique.values(), key=Candidate.sort_key)
