"""``Rule``: a symbolic winning rule, with its sympy expression as the single source of truth.

Text, LaTeX and the vectorised evaluator are all derived from ``expr``.  A rule has a target:
``"P"`` (the expression is a condition, true exactly on the positions the player to move
loses) or ``"grundy"`` (the expression is the Grundy value).  A Grundy rule of one heap also
gives the value of a sum of heaps (positions with one column per heap): the xor of the heaps'
values (Sprague-Grundy), so its predicate is the P rule of every sum.

**Periodic rules.**  A take-and-break game's Grundy sequence may have a period of 149,459 values
from n = 105,351 (octal game 0.16), which no short formula states; written as a sympy Piecewise
it would take one branch per value and per exception.  Such a rule is held as data instead: its
``sequence`` (``discover.periodic_values.PeriodicValues``: one period of values by n mod p and
the exceptions below the pre-period, integer arrays) is then the single source of truth, and
``expr`` is only the name of the tabulated function, ``G(n)``.  This keeps evaluation exact and
vectorised (one array lookup, for any heap size), the JSON record plain integer lists read back
against a whitelist (fields ``period``, ``preperiod``, ``values``, and ``exceptions`` or ``prefix``;
``expr`` is null), and the text short: "period 149,459 from n = 105,351 (values in the report)", with short
sequences such as Kayles' written out.  Every rule has ``period`` and ``preperiod`` (None
unless periodic).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from cgbase.html import card, escape, short
from cgbase.reading import load_json
from discover.expr.features import DERIVED, feature_columns
from discover.expr.latex import rule_latex
from discover.expr.nodes import complexity
from discover.expr.numeric import compile_expr
from discover.expr.parse import as_expression
from discover.expr.text import rule_text
from discover.periodic_values import PeriodicValues, periodic_latex, periodic_text
from games import coordinate_names

__all__ = ["Rule", "MAX_FEATURES"]

MAX_FEATURES = 4096  # feature names a rule record may list (a board of 64 x 64 cells)


@dataclass
class Rule:
    """A symbolic rule over a game's features.

    Parameters
    ----------
    expr : sympy expression over feature symbols (coordinates such as ``a, b`` or ``n``, and
        derived features such as ``xor_all``, see ``discover.expr.features``).
    feature_names : the game's coordinate names, in column order of the positions.
    target : ``"P"`` or ``"grundy"``.
    train_accuracy : share of the training table the rule labels correctly.
    provenance : engine, game and parameters, bound, data source, seed, version.
    words : an optional sentence from the engine that explains the rule (e.g. the pairs form).
    sequence : PeriodicValues, optional
        The Grundy values of a one-heap game as a periodic table (see the module docstring); then
        ``expr`` is ignored and set to ``G(n)``, and ``target`` must be ``"grundy"``.

    Examples
    --------
    >>> a, b, c = sp.symbols("a b c")
    >>> from discover.expr.nodes import BitXor
    >>> rule = Rule(sp.Eq(BitXor(a, b, c), 0), ("a", "b", "c"))
    >>> rule.predicate(np.array([[1, 2, 3], [1, 2, 4]])).tolist()
    [True, False]
    >>> rule.text()
    'a ⊕ b ⊕ c = 0'
    >>> periodic = Rule.from_periodic(PeriodicValues(0, 2, [0, 1], []))
    >>> periodic.period, periodic.evaluate([[5], [10**15]]).tolist(), periodic.predicate([[1, 3], [1, 2]]).tolist()
    (2, [1, 0], [True, False])
    """

    expr: sp.Basic
    feature_names: tuple[str, ...]
    target: str = "P"
    train_accuracy: float = math.nan
    provenance: dict = field(default_factory=dict)
    words: str = ""
    sequence: PeriodicValues | None = None

    def __post_init__(self):
        if self.target not in ("P", "grundy"):
            raise ValueError(f"target must be 'P' or 'grundy', got {self.target!r}")
        self.feature_names = tuple(self.feature_names)
        if self.sequence is not None:
            if not isinstance(self.sequence, PeriodicValues):
                raise TypeError(f"sequence must be a PeriodicValues, got {type(self.sequence).__name__}")
            if self.target != "grundy" or len(self.feature_names) != 1:
                raise ValueError(f"a periodic rule gives the Grundy values of one heap: target 'grundy' and one "
                                 f"feature name, got {self.target!r} and {self.feature_names}")
            self.expr = sp.Function("G")(sp.Symbol(self.feature_names[0]))
        self.expr = as_expression(self.expr)
        undefined = [str(node) for node in self.expr.atoms(sp.Mod) if node.args[1].is_zero]
        undefined += [str(node) for node in self.expr.atoms(sp.core.numbers.ComplexInfinity, sp.nan)]
        if undefined:
            raise ValueError(f"the rule divides by zero ({', '.join(sorted(undefined))}): a modulus or divisor must "
                             "not be 0")
        for test in self.expr.atoms(sp.Contains):  # every backend reads a membership's set as listed integers
            members = test.args[1]
            if not isinstance(members, sp.FiniteSet) or not all(v.is_Integer for v in members):
                raise ValueError(f"the set of {test} must be a finite set of integers, such as {{0, 2}}")

    @classmethod
    def from_periodic(cls, sequence: PeriodicValues, feature_names=("n",), train_accuracy: float = math.nan,
                      provenance: dict | None = None, words: str = "") -> "Rule":
        """The Grundy rule of a periodic table (see the module docstring).

        Examples
        --------
        >>> Rule.from_periodic(PeriodicValues(71, 12, [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7], [])).text()
        'G(n) = v[n mod 12], v = (4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7), period 12 from n = 71'
        """
        return cls(None, feature_names, "grundy", train_accuracy, dict(provenance or {}), words, sequence)

    @property
    def period(self) -> int | None:
        """p of a periodic rule (None for other rules)."""
        return None if self.sequence is None else self.sequence.period

    @property
    def preperiod(self) -> int | None:
        """n0 of a periodic rule (None for other rules)."""
        return None if self.sequence is None else self.sequence.preperiod

    @property
    def complexity(self) -> int:
        """Nodes of the expression; for a periodic rule, the integers it stores."""
        if self.sequence is not None:
            return 2 + self.sequence.period + self.sequence.exceptions.size
        return complexity(self.expr)

    @property
    def symbols(self) -> list[str]:
        return sorted(s.name for s in self.expr.free_symbols)

    # -- evaluation ------------------------------------------------------------------
    def _columns(self, positions) -> dict[str, np.ndarray]:
        positions = np.asarray(positions, dtype=np.int64)
        if positions.ndim != 2:
            raise ValueError(f"positions must be an (n, dims) array, got shape {positions.shape}")
        names = self.feature_names if positions.shape[1] == len(self.feature_names) else coordinate_names(positions.shape[1])
        return feature_columns(self.symbols, names, positions)

    def values(self, positions) -> np.ndarray:
        """The expression's value on each position (bool for P rules, int for Grundy rules; a Grundy
        rule of one heap on several columns: the xor of the heaps' values)."""
        positions = np.asarray(positions, dtype=np.int64)
        if not len(positions):
            return np.zeros(0, np.int64)
        if self.target == "grundy" and len(self.feature_names) == 1 and positions.ndim == 2 and positions.shape[1] > 1:
            return np.bitwise_xor.reduce(np.stack([self.values(column[:, None]) for column in positions.T]), axis=0)
        if self.sequence is not None:
            if positions.ndim != 2:
                raise ValueError(f"positions must be an (n, 1) array of heap sizes, got shape {positions.shape}")
            return self.sequence(positions[:, 0])
        if getattr(self, "_compiled", None) is None:
            self._compiled = compile_expr(self.expr)
        return self._compiled(self._columns(positions))

    def predicate(self, positions) -> np.ndarray:
        """True where the rule says the position is P (for a Grundy rule: value 0)."""
        values = self.values(positions)
        return values == 0 if self.target == "grundy" else values.astype(bool)

    def evaluate(self, positions) -> np.ndarray:
        """Grundy values the rule gives (Grundy rules only)."""
        if self.target != "grundy":
            raise ValueError("evaluate() is for Grundy rules; use predicate() for a P rule")
        return self.values(positions).astype(np.int64)

    # -- presentation ----------------------------------------------------------------
    def text(self) -> str:
        """The rule in plain text, with derived features written out over the coordinates."""
        if self.sequence is not None:
            return periodic_text(self.sequence)
        return rule_text(self.expr, self.feature_names, self.target)

    def latex(self) -> str:
        if self.sequence is not None:
            return periodic_latex(self.sequence)
        return rule_latex(self.expr, self.feature_names, self.target)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        engine = self.provenance.get("engine")
        return f"Rule({short(self.text(), 150)!r}, target={self.target!r}" + (f", by {engine})" if engine else ")")

    def formula_html(self) -> str:
        """The rule as an HTML ``<math>`` element (its text, escaped, for a periodic table of values)."""
        from discover.expr.mathml import rule_mathml

        mathml = rule_mathml(self)
        return escape(self.text()) if mathml is None else f'<math display="inline">{mathml}</math>'

    def html_rows(self) -> list:
        """The rows of the rule's notebook card (``_repr_html_``), for other cards to include."""
        accuracy = None if math.isnan(self.train_accuracy) else f"{self.train_accuracy:.1%}"
        return [("rule", self.formula_html()), ("in words", escape(self.words) if self.words else None),
                ("text", escape(self.text())),
                ("target", "P positions" if self.target == "P" else "Grundy values"),
                ("found by", escape(str(self.provenance["engine"])) if "engine" in self.provenance else None),
                ("complexity", str(self.complexity)), ("training accuracy", accuracy)]

    def _repr_html_(self) -> str:
        return card("Rule", self.html_rows())

    # -- files -----------------------------------------------------------------------
    def to_json(self) -> str:
        """A JSON record that ``Rule.from_json`` reads back exactly (a periodic rule: its table, expr null)."""
        periodic = {"period": None, "preperiod": None} if self.sequence is None else self.sequence.to_record()
        return json.dumps(
            {
                "expr": None if self.sequence is not None else sp.srepr(self.expr),
                "text": self.text(),
                "latex": self.latex(),
                "feature_names": list(self.feature_names),
                "target": self.target,
                "complexity": self.complexity,
                "train_accuracy": None if math.isnan(self.train_accuracy) else self.train_accuracy,
                "provenance": self.provenance,
                "words": self.words,
                **periodic,
            }
        )

    @classmethod
    def from_json(cls, text) -> "Rule":
        """Read a rule written by ``to_json`` (a string, or a dict already parsed)."""
        try:
            record = load_json(text, "the rule record") if isinstance(text, (str, bytes)) else dict(text)
            if not isinstance(record, dict):
                raise ValueError(f"a rule record is a JSON object, got {type(record).__name__}")
            sequence = None
            if record.get("period") is not None:
                if record.get("expr") is not None:
                    raise ValueError("a periodic rule's expr must be null (its values are the rule)")
                sequence = PeriodicValues.from_record(record)
            names = record["feature_names"]
            if not isinstance(names, list) or not 0 < len(names) <= MAX_FEATURES or not all(
                    isinstance(n, str) and n.isidentifier() for n in names):
                raise ValueError(f"feature_names must be a list of 1 to {MAX_FEATURES} names, got "
                                 f"{str(names)[:80]}")
            expr = as_expression(record["expr"]) if sequence is None else None
            unknown = sorted(str(s) for s in getattr(expr, "free_symbols", ()) if str(s) not in names
                             and str(s) not in DERIVED)
            if unknown:
                raise ValueError(f"expr uses {', '.join(unknown)}, neither a feature name nor a derived feature")
            accuracy = record.get("train_accuracy")
            if accuracy is not None and (isinstance(accuracy, bool) or not isinstance(accuracy, (int, float))
                                         or not 0 <= accuracy <= 1):
                raise ValueError(f"train_accuracy must be a number in [0, 1] or null, got {accuracy!r}")
            provenance, words = record.get("provenance", {}), record.get("words", "")
            if not isinstance(provenance, dict) or not isinstance(words, str):
                raise ValueError("provenance must be an object and words a string")
            return cls(expr, tuple(names), record.get("target", "grundy" if sequence else "P"),
                       math.nan if accuracy is None else float(accuracy), provenance, words, sequence)
        except (ValueError, KeyError, TypeError, ZeroDivisionError) as err:
            raise ValueError(f"not a rule record: {err}") from None
