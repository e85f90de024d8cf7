"""Symbolic regression for numeric relations, with every constant snapped and re-checked exactly.

A regression backend fits a numeric target against one or two integer features: pyoperon
(in the default portfolio), gplearn (optional) or PySR (only when Julia is installed; imported only when
asked for).  What they return has float constants, and a float is never a rule: each constant
is snapped to a closed form (``sympy.nsimplify`` against φ, √2, √3, √5, and small rationals),
the expression is rebuilt exactly and checked exactly on the data.  Integer targets are read
as ``y = ⌊E⌋`` (or ``y = E`` when E has integer coefficients); the backend fits ``y + 1/2``,
the middle of the interval ``[y, y + 1)`` that ⌊E⌋ = y allows.

Least-squares constants on floor data are off by a few percent (Wythoff's ⌊kφ⌋ on k ≤ 11
gives a slope of 1.59), so for a model linear in one feature the engine also narrows the
coefficient to the exact interval the data allows (rational bounds) and snaps inside it.

As a P-rule engine (``target="P"``), it derives numeric relations from the P positions:

- functional relations: at P positions a feature u is a function of a feature v (Wythoff: for
  each spread k one min, ⌊kφ⌋); regress u on v, emit ``Eq(u, E(v))``;
- thresholds: for each value of v the P positions are an interval of u (Euclid: for each min
  value m > 0, max runs from m + 1 to ⌊mφ⌋); regress both ends on v, emit the band, and repair
  it with at most two simple guards (``min_all = 0``) when that makes it exact.

Every candidate's accuracy is computed exactly on the training table.
"""

from __future__ import annotations

import itertools
import shutil
import warnings

import numpy as np
import sympy as sp

from discover import defaults
from discover.engines.base import Candidate, Engine, WorkBudget
from discover.engines.constants import constant_cost, interval_constants, slope_interval, snap_model
from discover.expr.nodes import complexity
from discover.expr.numeric import evaluate

__all__ = ["RegressionEngine", "integer_relation", "symbolic_fit", "make_regressor", "fit_within", "model_text",
           "OPERATORS", "PYSR_NEEDS_JULIA"]

PYSR_NEEDS_JULIA = (
    "the PySR backend needs Julia, which is not installed; use --engines operon or gplearn (symbolic regression "
    "backends that need no Julia), or leave out --engines for the default portfolio"
)
BACKENDS = ("operon", "pysr", "gplearn")
# feature pairs (u, v) tried for P-position relations, plainest first
_FUNCTIONAL_PAIRS = [("min_all", "spread"), ("max_all", "spread"), ("sum_all", "spread"), ("max_all", "min_all"),
                     ("spread", "min_all"), ("min_all", "max_all"), ("b", "a")]
_PREFERENCE = {"min_all": 0, "max_all": 0, "spread": 1, "xor_all": 4, "sum_all": 5, "nonzero": 6, "big": 6}
_THRESHOLD_PAIRS = [("max_all", "min_all"), ("spread", "min_all"), ("b", "a"), ("min_all", "max_all")]


# -- backends ------------------------------------------------------------------------------
ARITHMETIC = ("add", "sub", "mul")  # the engine's operators: its relations are linear, snapped and floored after
OPERATORS = ("add", "sub", "mul", "div", "abs", "min", "max", "floor", "sin", "cos")  # what every backend can take
_OPERON = {"min": "fmin", "max": "fmax"}  # the operators' names in pyoperon, where they differ
_PYSR = {"add": "+", "sub": "-", "mul": "*", "div": "/"}


def _pysr_available() -> bool:
    return shutil.which("julia") is not None


def make_regressor(backend="operon", random_state=0, generations=20, population_size=100, max_length=5,
                   operators=ARITHMETIC, seconds=None):
    """The backend's symbolic regressor (a scikit-learn estimator, not fitted), seeded, on one thread.

    Parameters
    ----------
    backend : "operon", "gplearn" or "pysr" (needs Julia; imported only here, a ``ValueError`` without it).
    random_state : seed of the backend's search.
    generations, population_size, max_length : the search's size.
    operators : names from ``OPERATORS`` (default ``ARITHMETIC``, the engine's).
    seconds : a wall-clock cap of the search (pyoperon's and PySR's own; gplearn's is ``fit_within``'s).

    Examples
    --------
    >>> type(make_regressor("gplearn", operators=("add", "floor"))).__name__
    'SymbolicRegressor'
    """
    unknown = sorted(set(operators) - set(OPERATORS))
    if unknown:
        raise ValueError(f"unknown operators {', '.join(unknown)}; choose from: {', '.join(OPERATORS)}")
    if backend == "operon":
        from pyoperon.sklearn import SymbolicRegressor

        symbols = ",".join(_OPERON.get(name, name) for name in operators)
        return SymbolicRegressor(
            allowed_symbols=f"{symbols},constant,variable", generations=generations,
            population_size=population_size, max_length=max_length, random_state=random_state, n_threads=1,
            max_time=None if seconds is None else max(1, int(seconds)))
    if backend == "gplearn":
        from gplearn.functions import make_function
        from gplearn.genetic import SymbolicRegressor

        functions = [make_function(function=np.floor, name="floor", arity=1) if name == "floor" else name
                     for name in operators]
        return SymbolicRegressor(
            population_size=population_size, generations=generations, function_set=functions,
            const_range=(-2.0, 2.0), parsimony_coefficient=0.01, random_state=random_state, n_jobs=1)
    if backend == "pysr":
        if not _pysr_available():
            raise ValueError(PYSR_NEEDS_JULIA)
        try:
            from pysr import PySRRegressor
        except Exception as error:  # pragma: no cover - needs Julia
            raise ValueError(f"{PYSR_NEEDS_JULIA} ({error})") from None
        binary = [_PYSR.get(name, name) for name in operators if name in ("add", "sub", "mul", "div", "min", "max")]
        unary = [name for name in operators if name not in ("add", "sub", "mul", "div", "min", "max")]
        return PySRRegressor(  # pragma: no cover - needs Julia
            niterations=generations, populations=4, population_size=population_size, binary_operators=binary,
            unary_operators=unary, maxsize=max_length + 2, random_state=random_state, deterministic=True,
            parallelism="serial", verbosity=0, progress=False, timeout_in_seconds=seconds)
    raise ValueError(f"unknown regression backend {backend!r}; choose from: {', '.join(BACKENDS)}")


def fit_within(model, X, target, names, deadline=None):
    """Fit ``model`` (from ``make_regressor``) on ``X`` and ``target``; gplearn's a generation at a time while
    ``deadline`` (a ``cgbase.deadline.Deadline``) allows (pyoperon and PySR keep their own ``seconds``)."""
    X = np.asarray(X, dtype=np.float64)
    target = np.asarray(target, dtype=np.float64)
    if type(model).__module__.startswith("gplearn") and deadline is not None:
        total = model.generations
        model.set_params(warm_start=True)
        for generation in range(1, total + 1):
            model.set_params(generations=generation)
            model.fit(X, target)
            if deadline.passed() or model.run_details_["best_fitness"][-1] <= model.stopping_criteria:
                break
        return model
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if type(model).__module__.startswith("pysr"):  # pragma: no cover - needs Julia
            model.fit(X, target, variable_names=list(names))
        else:
            model.fit(X, target)
    return model


def model_text(model, names) -> str:
    """A fitted regressor's model as text over ``names`` (its own notation, float constants)."""
    module = type(model).__module__
    if module.startswith("pyoperon"):
        return model.get_model_string(model.model_, 6, list(names))
    if module.startswith("gplearn"):
        text = str(model._program)
        for i in reversed(range(len(names))):  # X10 before X1
            text = text.replace(f"X{i}", names[i])
        return text
    return str(model.sympy())  # pragma: no cover - needs Julia


def symbolic_fit(X, target, names, backend="operon", random_state=0, generations=20, population_size=100,
                 max_length=5) -> sp.Expr:
    """Fit ``target`` against the columns of ``X`` with a symbolic-regression backend (``make_regressor``, the
    engine's arithmetic).

    Returns the model as a sympy expression over ``sp.Symbol(name)``, with float constants.
    The PySR backend is imported only here, and only when Julia is installed; otherwise a
    ``ValueError`` names the alternatives.
    """
    symbols = {n: sp.Symbol(n) for n in names}
    model = fit_within(make_regressor(backend, random_state, generations, population_size, max_length), X, target,
                       names)
    if backend == "operon":
        return sp.sympify(model.get_model_string(model.model_, 16, list(names)), locals=symbols)
    if backend == "gplearn":
        ops = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y}
        locals_ = {f"X{i}": symbols[n] for i, n in enumerate(names)} | ops
        return sp.sympify(str(model._program), locals=locals_)
    return sp.sympify(model.sympy(), locals=symbols)  # pragma: no cover - needs Julia


def _exact(expr, columns, y) -> bool:
    try:
        values = evaluate(expr, columns)
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        return False
    return bool(np.array_equal(values, y))


def _split_integer_part(expr):
    """expr = F + I where I collects the terms with integer coefficients (and integer constant)."""
    integer, fractional = sp.Integer(0), sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(expr)):
        coeff = term.as_independent(*term.free_symbols, as_Add=False)[0] if term.free_symbols else term
        if coeff.is_Integer:
            integer += term
        elif term.is_Rational:  # a rational constant: its integer part goes out of the floor
            integer += sp.floor(term)
            fractional += term - sp.floor(term)
        else:
            fractional += term
    return fractional, integer


def _floor_form(expr):
    """⌊expr⌋ written with the integer terms outside the floor (what ``evaluate`` reads exactly)."""
    fractional, integer = _split_integer_part(expr)
    if fractional == 0:
        return integer
    if fractional.is_Rational:
        return integer + sp.floor(fractional)
    return sp.floor(fractional) + integer


def integer_relation(columns: dict[str, np.ndarray], y, *, backend="operon", random_state=0, generations=20,
                     population_size=100, max_length=5, model=None) -> list[sp.Expr]:
    """Exact expressions E over the given columns with E == y on every row (plainest first).

    The backend fits ``y + 1/2`` (or ``model``, a float sympy expression, is used as given);
    each candidate is then snapped and re-checked exactly, both as ``E`` and as ``⌊E⌋``.
    For a model using one feature, the coefficient of that feature is also narrowed to the
    interval of slopes the data allows and snapped inside it.

    >>> k = np.arange(12)
    >>> integer_relation({"k": k}, (k * 1618034) // 1000000)
    [floor(GoldenRatio*k)]
    """
    y = np.asarray(y, dtype=np.int64)
    names = list(columns)
    columns = {n: np.asarray(v, dtype=np.int64) for n, v in columns.items()}
    X = np.column_stack([columns[n] for n in names]).astype(np.float64)
    if model is None:
        model = symbolic_fit(X, y + 0.5, names, backend, random_state, generations, population_size, max_length)
    model = sp.expand(model)
    found = []

    def consider(expr):
        for candidate in (_floor_form(expr), _floor_form(sp.expand(expr - sp.Rational(1, 2)))):
            candidate = sp.sympify(candidate)
            if candidate.atoms(sp.Float) or any(c.name not in columns for c in candidate.free_symbols):
                continue
            if not any(candidate == f for f in found) and _exact(candidate, columns, y):
                found.append(candidate)

    for expr in snap_model(model):
        consider(expr)

    used = sorted(s.name for s in model.free_symbols)
    if len(used) <= 1:
        # the one feature the model uses (or each, for a constant model): slope intervals
        for name in used or names:
            x = columns[name]
            poly = sp.Poly(model, sp.Symbol(name)) if used else None
            estimate = float(poly.coeff_monomial(sp.Symbol(name))) if poly is not None and poly.degree() >= 1 else 0.0
            intercept = float(poly.coeff_monomial(1)) if poly is not None else float(y.mean() + 0.5)
            for shift in dict.fromkeys([0, round(intercept - 0.5), round(intercept - 0.5) - 1, round(intercept - 0.5) + 1]):
                interval = slope_interval(x, y - shift)
                if interval is None:
                    continue
                for c in interval_constants(*interval, estimate)[:2]:
                    candidate = _floor_form(c * sp.Symbol(name)) + shift
                    if not any(candidate == f for f in found) and _exact(candidate, columns, y):
                        found.append(candidate)
                        break
    return sorted(found, key=lambda e: (complexity(e), _expr_constant_cost(e), str(e)))


def _expr_constant_cost(expr):
    costs = [constant_cost(c) for c in expr.atoms(sp.Number, sp.NumberSymbol) if not c.is_Integer]
    return max(costs) if costs else (0,)


# -- the engine ----------------------------------------------------------------------------
class RegressionEngine(Engine):
    """Numeric relations by symbolic regression, snapped to closed forms and checked exactly.

    Parameters
    ----------
    backend : "operon" (default), "gplearn", or "pysr" (needs Julia).
    random_state : seed passed to the backend.
    generations, population_size, max_length : the backend's search budget (small: the
        relations are short and the engine must answer in about a second).
    work_budget : relations the backend may fit (a count: the same seed and table give the same candidates on any
        machine).
    time_cap : seconds after which no further relation is fitted anyway (a safety net; ``notes_`` says so).
    max_candidates : how many candidates to keep.
    """

    name = "regression"

    def __init__(self, backend="operon", random_state=0, generations=20, population_size=100, max_length=5,
                 work_budget=64, time_cap=defaults.ENGINE_SECONDS, max_candidates=10):
        if backend not in BACKENDS:
            raise ValueError(f"unknown regression backend {backend!r}; choose from: {', '.join(BACKENDS)}")
        if backend == "pysr" and not _pysr_available():
            raise ValueError(PYSR_NEEDS_JULIA)
        self.backend = backend
        self.random_state = random_state
        self.generations = generations
        self.population_size = population_size
        self.max_length = max_length
        self.work_budget = work_budget
        self.time_cap = time_cap
        self.max_candidates = max_candidates
        self.name = backend

    def _relation(self, columns, y):
        return integer_relation(columns, y, backend=self.backend, random_state=self.random_state,
                                generations=self.generations, population_size=self.population_size,
                                max_length=self.max_length)

    def fit(self, X, y, *, feature_names, sample_weight=None, target="P"):
        X = np.asarray(X, dtype=np.int64)
        y = np.asarray(y)
        feature_names = list(feature_names)
        self._budget = WorkBudget(self.work_budget, self.time_cap)
        cols = {n: X[:, i] for i, n in enumerate(feature_names)}
        w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        keep = w > 0
        self.notes_ = []
        if target == "P" and len(cols) < 2:
            self.notes_ = [f"{self.name} fits a relation between two features, and this table has one "
                           "coordinate: it proposed nothing (the sequence engine handles one-heap games)"]
        exprs = self._grundy(cols, y, keep) if target == "grundy" else self._p_rules(cols, y.astype(bool), keep)
        candidates = []
        for expr in exprs:
            accuracy = self.score(expr, X, y, feature_names, sample_weight, target)
            candidates.append(Candidate(expr, target, accuracy, self.name))
        self.candidates_ = self._ranked(candidates)[: self.max_candidates]
        self.notes_ += self._budget.note(self.name)
        return self

    def _time_left(self) -> bool:
        """Whether one more relation may be fitted (counting it)."""
        return self._budget.spend(1)

    # numeric targets: the value as an expression of one feature
    def _grundy(self, cols, y, keep):
        y = np.asarray(y, dtype=np.int64)[keep]
        out = []
        varying = [n for n, v in cols.items() if v[keep].min() != v[keep].max()]
        ranked = sorted(varying, key=lambda n: -abs(np.corrcoef(cols[n][keep], y)[0, 1]) if y.std() else 0)
        for name in ranked[:3]:
            if not self._time_left():
                break
            out += self._relation({name: cols[name][keep]}, y)
            if out:
                break
        return out

    # P rules: relations among the features of P positions
    def _p_rules(self, cols, is_p, keep):
        out = []
        p_rows = keep & is_p
        if p_rows.sum() < 4 or len(cols) < 2:
            return out
        for u, v in _FUNCTIONAL_PAIRS:
            if not self._time_left():
                break
            if u not in cols or v not in cols:
                continue
            data = self._functional(cols[u][p_rows], cols[v][p_rows])
            if data is None:
                continue
            for expr in self._relation({v: data[0]}, data[1])[:1]:
                out.append(sp.Eq(sp.Symbol(u), expr))
            if out:
                return out  # the plainest functional relation found is the rule
        for u, v in _THRESHOLD_PAIRS:
            if not self._time_left():
                break
            if u not in cols or v not in cols:
                continue
            out += self._threshold(cols, u, v, is_p, keep)
            if any(self._exact_on(e, cols, is_p, keep) for e in out):
                break
        return out

    @staticmethod
    def _functional(u, v):
        """(v values, u values) when u is a function of v on these rows with >= 4 points, else None."""
        pairs = np.unique(np.column_stack([v, u]), axis=0)
        if len(pairs) < 4 or len(np.unique(pairs[:, 0])) != len(pairs) or len(np.unique(pairs[:, 1])) < 3:
            return None
        return pairs[:, 0], pairs[:, 1]

    @staticmethod
    def _exact_on(expr, cols, is_p, keep) -> bool:
        try:
            return bool(np.array_equal(evaluate(expr, cols)[keep].astype(bool), is_p[keep]))
        except ValueError:
            return False

    def _threshold(self, cols, u, v, is_p, keep):
        """Bands lo(v) <= u <= hi(v) holding the P positions of each v, repaired by simple guards."""
        uu, vv, pp = cols[u][keep], cols[v][keep], is_p[keep]
        lows, highs = [], []
        for value in np.unique(vv):
            rows = vv == value
            us, inverse = np.unique(uu[rows], return_inverse=True)
            inverse = inverse.reshape(-1)
            p_all = np.ones(len(us), bool)
            p_any = np.zeros(len(us), bool)
            np.logical_and.at(p_all, inverse, pp[rows])
            np.logical_or.at(p_any, inverse, pp[rows])
            if (p_all != p_any).any():
                return []  # (u, v) does not decide the label
            ps = p_all
            if not ps.any() or ps.all():
                continue
            first, last = np.flatnonzero(ps)[[0, -1]]
            if not ps[first:last + 1].all() or not np.array_equal(np.diff(us[first:last + 1]), np.ones(last - first, np.int64)):
                return []  # not an interval of u
            if first > 0:
                lows.append((value, us[first]))
            if last < len(ps) - 1:
                highs.append((value, us[last]))
        if len(highs) < 4:
            return []
        U, V = sp.Symbol(u), sp.Symbol(v)
        hv, hu = np.array(highs).T
        upper = self._relation({v: hv}, hu)[:1]
        if not upper:
            return []
        bands = [sp.Le(U, upper[0])]
        if len(lows) >= 4 and self._time_left():
            lv, lu = np.array(lows).T
            lower = self._relation({v: lv}, lu)[:1]
            if lower:
                low = lower[0]
                bound = sp.Gt(U, low - 1) if (low - V).is_Integer and low - V == 1 else sp.Ge(U, low)
                bands.append(sp.And(bound, bands[0]))
        return self._repaired(bands, cols, is_p, keep)

    def _repaired(self, bands, cols, is_p, keep):
        """Each band, and the band with one or two guards (f == 0, f == g) that make it exact."""
        names = sorted((n for n, c in cols.items() if c[keep].min() != c[keep].max()),
                       key=lambda n: _PREFERENCE.get(n, 3))  # "spread = 0" before "xor_all = 0"
        guards = [sp.Eq(sp.Symbol(n), 0) for n in names if cols[n][keep].min() == 0]
        guards += [sp.Eq(sp.Symbol(a), sp.Symbol(b)) for a, b in itertools.combinations(names, 2)]
        values = {}
        for g in guards:
            val = evaluate(g, cols)[keep].astype(bool)
            key = val.tobytes()
            if key not in values and 0 < val.sum() < len(val):
                values[key] = (g, val)
        guards = list(values.values())
        target = is_p[keep]
        out = []
        for band in bands:
            b = evaluate(band, cols)[keep].astype(bool)
            out.append(band)
            best = None
            for g, gv in guards:  # P iff g or band;  P iff band and not g
                for expr, val in ((sp.Or(g, band), gv | b), (sp.And(sp.Not(g), band), ~gv & b)):
                    if np.array_equal(val, target):
                        best = best or expr
            if best is None:
                for (g1, v1), (g2, v2) in itertools.permutations(guards, 2):
                    if np.array_equal(v1 | (~v2 & b), target):
                        best = sp.Or(g1, sp.And(sp.Not(g2), band))
                        break
            if best is not None:
                out.append(best)
        return out
