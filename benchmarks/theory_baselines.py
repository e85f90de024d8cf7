"""The theory benchmark's baselines: general symbolic regression on the table ``find_rule`` trains on.

Each baseline (pyoperon, gplearn; PySR where Julia is present) fits the case's target on the solver's table at the
training bound (``discover.bounds.default_bound``: the first table of the engines' road), with the same feature
columns (``discover.table``: the game's coordinates and the derived ones), seeded, within the case's budget, with
the operators ``discover.engines.regression.OPERATORS`` (arithmetic, division, abs, min, max, floor, sin, cos; the
backends are built by ``make_regressor``, the engine's own).  Its output, thresholded at 1/2 (P or N) or rounded
(a Grundy value), is judged on the whole box against the benchmark's brute force:

- **exact**: it agrees on every position of the box;
- **FALSE**: it agrees on every training position (a claim of exactness) but not on the whole box;
- **none**: it misses a training position (no claim).

A baseline never proves.
"""

from __future__ import annotations

import shutil
import time

import numpy as np

SYSTEMS = ("operon", "gplearn", "pysr")
SEARCH = {  # each backend's search, seeded; the case's budget caps it
    "operon": {"generations": 100, "population_size": 500, "max_length": 30},
    "gplearn": {"generations": 20, "population_size": 500, "max_length": 30},
    "pysr": {"generations": 40, "population_size": 50, "max_length": 30},
}
NO_JULIA = "PySR: Julia not found (the PySR baseline needs it), so no PySR column"


def systems_here() -> tuple[str, ...]:
    """The baselines this machine runs: PySR only where Julia is on the PATH."""
    return tuple(s for s in SYSTEMS if s != "pysr" or shutil.which("julia") is not None)


def baseline(game, system: str, positions: np.ndarray, truth: np.ndarray, budget: float, seed: int = 0) -> dict:
    """``system`` fitted on ``game``'s training table and judged on ``positions`` (the box) against ``truth`` (P as
    bool, or Grundy values): a record with the verdict, the seconds of the fit and the expression.

    Examples
    --------
    >>> from games import make_game
    >>> game = make_game("subtraction", subtract=(1, 2))
    >>> box = np.arange(61)[:, None]
    >>> record = baseline(game, "operon", box, box[:, 0] % 3 == 0, budget=30)
    >>> record["system"], record["verdict"] in ("exact", "FALSE", "none")
    ('operon', True)
    """
    from cgbase.deadline import Deadline
    from discover.bounds import default_bound
    from discover.engines.regression import OPERATORS, fit_within, make_regressor, model_text
    from discover.table import build_table, table_from_solution
    from solvers import solve

    grundy = truth.dtype != bool
    train = table_from_solution(solve(game, bound=default_bound(game), grundy=grundy))
    y = train.y("grundy" if grundy else "P").astype(np.float64)
    model = make_regressor(system, random_state=seed, operators=OPERATORS, seconds=budget, **SEARCH[system])
    clock = time.perf_counter()  # the fit's seconds: the backend imported, the table solved, before
    fit_within(model, train.X, y, train.feature_names, Deadline(budget))
    seconds = time.perf_counter() - clock
    box = build_table(game, positions, np.zeros(len(positions), dtype=bool))
    train_truth = y.astype(np.int64) if grundy else y > 0.5
    verdict, wrong = judged(model.predict(train.X.astype(np.float64)), train_truth,
                            model.predict(box.X.astype(np.float64)), truth)
    return {"system": system, "verdict": verdict, "seconds": seconds,
            "expression": model_text(model, train.feature_names), "train_bound": int(train.provenance["bound"]),
            "wrong": [tuple(int(x) for x in p) for p in positions[wrong][:3]]}


def judged(train_output, train_truth, box_output, box_truth) -> tuple[str, np.ndarray]:
    """A regressor's verdict from its raw outputs: thresholded at 1/2 where the truth is P (bool), rounded where it
    is a Grundy value (an output that is not a finite number is wrong), then exact (right on the whole box), FALSE
    (right on every training row, wrong on the box) or none; with the box's wrong rows.

    Examples
    --------
    >>> truth = np.array([True, False, False, True])
    >>> judged([0.9, 0.1], truth[:2], [0.9, 0.2, 0.4, 0.7], truth)[0]
    'exact'
    >>> judged([0.9, 0.1], truth[:2], [0.9, 0.2, 0.4, 0.2], truth)[0], judged([0.2, 0.1], truth[:2], [], truth[:0])[0]
    ('FALSE', 'none')
    >>> judged([0.6, 2.4], np.array([1, 2]), [np.nan, 2.6], np.array([1, 3]))[0]
    'FALSE'
    """
    def said(output, truth):
        with np.errstate(all="ignore"):
            values = np.asarray(output, dtype=np.float64)
        values = np.where(np.isfinite(values), values, -1.0)  # no number: wrong on every target
        return values > 0.5 if truth.dtype == bool else np.rint(values).astype(np.int64)

    train_truth, box_truth = np.asarray(train_truth), np.asarray(box_truth)
    wrong = said(box_output, box_truth) != box_truth
    if not np.array_equal(said(train_output, train_truth), train_truth):
        return "none", wrong
    return ("FALSE" if wrong.any() else "exact"), wrong
