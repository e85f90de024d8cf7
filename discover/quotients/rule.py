"""The rule of sums in misère play: P exactly when the product of the components' elements lies in the P-portion.

``QuotientRule`` is a rule kind of its own (not a formula over coordinates): it holds the quotient (a
``BipartiteMonoid``), the element of every component computed, and, for heaps, the period of the heap-to-element
map when one is proved, so that it decides a sum of any number of components; a heap beyond the heaps computed
is refused (``ValueError``) unless a period is *proved*.  ``quotient_rule(components)`` builds it by
``QuotientBuilder`` over every component, proved at each one.
"""

from __future__ import annotations

import json

import numpy as np

from cgbase.html import card, escape, short
from cgbase.reading import Field, check_record, load_json
from discover.quotients.construct import MAX_ORDER, QuotientBuilder
from discover.quotients.monoid import BipartiteMonoid
from discover.quotients.heap_period import HeapPeriod, heap_period
from discover.quotients.presentation import presentation

__all__ = ["QuotientRule", "quotient_rule", "discovery_repr", "discovery_html"]


_PERIOD = Field("object", null=True, fields={"preperiod": Field("int", low=0), "period": Field("int", low=1),
                                             "proved": Field("bool"), "checked_to": Field("int", low=0)})
_SCHEMA = {
    "kind": Field("str"),
    "order": Field("int", low=1, high=MAX_ORDER),
    "generators": Field("list", most=MAX_ORDER, items=Field("int", low=0)),
    "actions": Field("list", most=MAX_ORDER, items=Field("list", most=MAX_ORDER, items=Field("int", low=0))),
    "p_portion": Field("list", most=MAX_ORDER, items=Field("int", low=0)),
    "components": Field("list", items=Field("list", most=2, items=Field("any"))),
    "period": _PERIOD,
    "components_proved": Field("int", low=0),
    "game": Field("object", null=True, open=True),
}
# the record's earlier form (the whole table), still read: at most the 4,096 elements it then held
_TABLE_ORDER = 4096
_TABLE_SCHEMA = {**{k: v for k, v in _SCHEMA.items() if k not in ("order", "generators", "actions")},
                 "table": Field("list", most=_TABLE_ORDER, items=Field("list", most=_TABLE_ORDER,
                                                                       items=Field("int", low=0)))}


class QuotientRule:
    """P iff the product of a sum's components' elements lies in the P-portion of the misère quotient.

    Parameters
    ----------
    monoid : BipartiteMonoid
        The quotient.
    element : dict
        The element of each component computed (heap sizes for heap games).
    period : HeapPeriod, optional
        For heaps: the period of the heap-to-element map (used beyond the heaps computed only when proved).
    game : dict, optional
        The game's spec (``Game.spec()``), recorded in the JSON.

    Examples
    --------
    >>> t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))
    >>> rule = QuotientRule(t2, {1: 1})
    >>> rule.is_p((1, 1, 1)), rule.is_p((1, 1)), rule.text()
    (True, False, 'P iff the product of the elements lies in {a}; quotient ⟨a | a² = 1⟩ of order 2')
    """

    kind = "misere_quotient"

    def __init__(self, monoid: BipartiteMonoid, element: dict, period: HeapPeriod | None = None,
                 game: dict | None = None):
        self.monoid = monoid
        self.element = dict(element)
        self.period = period
        self.game = game
        self.presentation = presentation(monoid, [element[c] for c in element])

    # -- deciding sums --------------------------------------------------------------------------------------
    def element_of(self, component) -> int:
        """The element of one component (heap 0: the identity; a heap beyond those computed: by the proved period).

        Raises
        ------
        ValueError
            If the component was not computed and no proved period reaches it.
        """
        if component in self.element:
            return self.element[component]
        if component == 0:
            return 0
        p = self.period
        if isinstance(component, (int, np.integer)) and component > 0 and p is not None and p.proved \
                and component >= p.preperiod:
            same = p.preperiod + (int(component) - p.preperiod) % p.period
            return self.element[same] if same else 0
        largest = max(self.element, default=0) if all(isinstance(c, int) for c in self.element) else None
        raise ValueError(f"component {component!r} is beyond the components computed"
                         + (f" (heaps up to {largest}) and no period of the heap-to-element map is proved: "
                            "compute more heaps" if largest is not None else ""))

    def product(self, sum_) -> int:
        """The element of a sum (a sequence of components)."""
        return self.monoid.product(self.element_of(c) for c in sum_)

    def is_p(self, sum_) -> bool:
        """True when the sum is a P-position (the player to move loses).

        Examples
        --------
        >>> t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))
        >>> QuotientRule(t2, {1: 1}).is_p(())   # no move: the player to move wins in misère play
        False
        """
        return bool(self.monoid.p_portion[self.product(sum_)])

    def outcome(self, sums) -> np.ndarray:
        """Outcome of each sum for the player to move: -1 loss (P), 1 win."""
        return np.array([-1 if self.is_p(s) else 1 for s in sums], dtype=np.int8)

    def winning_move(self, sum_, options):
        """A move from ``sum_`` to a P-position: ``(i, replacement)``, component ``i`` replaced by the sum
        ``replacement`` (one of ``options(sum_[i])``); None when ``sum_`` is a P-position or has no move.

        Examples
        --------
        >>> t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))
        >>> QuotientRule(t2, {1: 1}).winning_move((1, 1), lambda c: [()])
        (0, ())
        """
        sum_ = tuple(sum_)
        for i, c in enumerate(sum_):
            rest = self.product(sum_[:i] + sum_[i + 1:])
            for o in options(c):
                if self.monoid.p_portion[self.monoid.table[rest, self.product(o)]]:
                    return i, tuple(o)
        return None

    # -- words --------------------------------------------------------------------------------------------
    def p_names(self, style: str = "text") -> list:
        """The P-portion's elements as normal forms."""
        return [self.presentation.element_name(int(x), style) for x in np.flatnonzero(self.monoid.p_portion)]

    def text(self) -> str:
        """The rule in one line: P-portion and presentation."""
        return (f"P iff the product of the elements lies in {{{', '.join(self.p_names())}}}; quotient "
                f"{self.presentation.text()} of order {self.monoid.order}")

    def latex(self) -> str:
        r"""The rule in LaTeX: ``\prod_i \Phi(G_i) \in \{...\}, Q = \langle ... \rangle``."""
        return (r"\prod_i \Phi(G_i) \in \{" + ", ".join(self.p_names("latex")) + r"\},\quad \mathcal{Q} = "
                + self.presentation.text("latex"))

    def mathml(self) -> str:
        """The rule in MathML (one ``<math>`` element)."""
        p = "<mo>,</mo>".join(f"<mrow>{n}</mrow>" for n in self.p_names("mathml"))
        pres = self.presentation.text("mathml")[len("<math>"):-len("</math>")]
        return (f"<math><mrow><munder><mo>∏</mo><mi>i</mi></munder><mi>Φ</mi><mo>(</mo><msub><mi>G</mi><mi>i</mi>"
                f"</msub><mo>)</mo></mrow><mo>∈</mo><mo>{{</mo>{p}<mo>}}</mo><mo>;</mo><mi>𝒬</mi><mo>=</mo>{pres}</math>")

    # -- notebooks ----------------------------------------------------------------------------------------
    def __repr__(self) -> str:
        p = short(", ".join(self.p_names()), 120)
        return f"QuotientRule(order {self.monoid.order}, P-portion {{{p}}}, {len(self.element):,} components)"

    def html_rows(self) -> list:
        """The rows of the rule's notebook card (``_repr_html_``), for a discovery's card to include."""
        return [("rule", self.mathml().replace("<math>", '<math display="inline">', 1)),
                ("text", escape(self.text())), ("order", str(self.monoid.order)),
                ("components", f"{len(self.element):,}"),
                ("period", None if self.period is None else escape(self.period.line()))]

    def _repr_html_(self) -> str:
        return card("Misère quotient rule", self.html_rows())

    # -- JSON ---------------------------------------------------------------------------------------------
    def to_record(self) -> dict:
        """Plain data (what ``from_json`` reads): the monoid by its generators' actions
        (``BipartiteMonoid.to_record``, the presentation's generators), the components' elements and the period."""
        period = None if self.period is None else {"preperiod": self.period.preperiod, "period": self.period.period,
                                                   "proved": self.period.proved, "checked_to": self.period.checked_to}
        return {"kind": self.kind, **self.monoid.to_record(self.presentation.generators),
                "components": [[c, int(x)] for c, x in self.element.items()], "period": period,
                "components_proved": len(self.element), "game": self.game}

    def to_json(self) -> str:
        """The rule as one JSON text."""
        return json.dumps(self.to_record())

    @classmethod
    def from_json(cls, text, source: str = "the rule") -> "QuotientRule":
        """Read a rule written by ``to_json`` (or, in the earlier form, with the whole table), checked against its
        schema and the monoid's laws before its table is built (``BipartiteMonoid.from_record``); nothing in it is
        evaluated.

        Raises
        ------
        ValueError
            Naming the field, for anything outside the schema, actions that do not make a commutative monoid
            with identity 0 (or a table that is not one), an element out of range or a component id that is not
            an integer or a string.

        Examples
        --------
        >>> t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))
        >>> QuotientRule.from_json(QuotientRule(t2, {1: 1}).to_json()).is_p((1,))
        True
        >>> QuotientRule.from_json('{"kind": "misere_quotient", "order": "os.system"}')
        Traceback (most recent call last):
        ...
        ValueError: the rule: field order is a string, not an integer
        """
        record = load_json(text, source) if isinstance(text, (str, bytes)) else text
        record = check_record(record, _TABLE_SCHEMA if isinstance(record, dict) and "table" in record else _SCHEMA,
                              source)
        if record["kind"] != cls.kind:
            raise ValueError(f"{source}: kind is {record['kind']!r}, not {cls.kind!r}")
        if "table" in record:
            monoid = _from_table(record["table"], record["p_portion"], source)
        else:
            monoid = BipartiteMonoid.from_record(record["order"], record["generators"], record["actions"],
                                                 record["p_portion"], source)
        order = monoid.order
        element = {}
        for pair in record["components"]:
            if len(pair) != 2 or isinstance(pair[0], bool) or not isinstance(pair[0], (int, str)) \
                    or isinstance(pair[1], bool) or not isinstance(pair[1], int) or not 0 <= pair[1] < order:
                raise ValueError(f"{source}: a component is [id, element] with an integer or text id and an element "
                                 f"below {order}, got {pair!r}")
            element[pair[0]] = pair[1]
        p = record["period"]
        period = None if p is None else HeapPeriod(p["preperiod"], p["period"], p["proved"], p["checked_to"])
        return cls(monoid, element, period, record["game"])


def _from_table(table: list, p_portion: list, source: str) -> BipartiteMonoid:
    """The monoid of a record in the earlier form: its whole table, square, with the P-portion's elements in it."""
    order = len(table)
    if any(len(row) != order for row in table) or any(x >= order for x in p_portion):
        raise ValueError(f"{source}: the table must be square and the P-portion's elements below {order}")
    marked = np.zeros(order, dtype=bool)
    marked[p_portion] = True
    return BipartiteMonoid(np.array(table, dtype=np.int64).reshape(order, order), marked)


def quotient_rule(components, removal_limit: int | None = None, game: dict | None = None,
                  builder: QuotientBuilder | None = None) -> QuotientRule:
    """Build (or finish) the quotient of ``components`` heap by heap and return its rule.

    Parameters
    ----------
    components : see ``discover.quotients.components``
    removal_limit : int, optional
        t of an octal or subtraction game: lets the periodicity theorem prove the heap-to-element period.
    game : dict, optional
        The game's spec, recorded.
    builder : QuotientBuilder, optional
        One that already holds a prefix of the components (only the rest are added).

    Examples
    --------
    >>> from games import make_game
    >>> from discover.quotients.components import HeapComponents
    >>> nim = HeapComponents(make_game("subtraction", subtract=(1,), misere=True), heaps=6)
    >>> rule = quotient_rule(nim, removal_limit=1)
    >>> rule.monoid.order, rule.period.line()
    (2, 'period 2 from heap 0, proved by the periodicity theorem for misère quotients of octal games (Plambeck and Siegel)')
    """
    builder = builder if builder is not None else QuotientBuilder(components.options)
    for c in components.ids():
        if c not in builder.element:
            builder.add(c)
    period = None
    ids = components.ids()
    if ids and all(isinstance(c, int) for c in ids) and ids == list(range(1, len(ids) + 1)):
        last = builder.growth[-1][0] if builder.growth else 0
        period = heap_period([0] + [builder.element[c] for c in ids], last, removal_limit)
    return QuotientRule(builder.monoid, {c: builder.element[c] for c in ids}, period, game)


def discovery_repr(found) -> str:
    """The one-line repr of a quotient's discovery (``QuotientDiscovery``, ``BoardQuotientDiscovery``)."""
    return (f"{type(found).__name__}({short(found.game.title(), 100)}: {found.status}; quotient of order "
            f"{found.rule.monoid.order})")


def discovery_html(found) -> str:
    """The notebook card of a quotient's discovery: the rule in MathML, status, proof statement, checks."""
    rows = [("game", escape(f"{found.game.title()} ({found.game!r})")), ("status", escape(str(found.status))),
            ("proof", escape(found.statement())), *found.rule.html_rows(), ("seconds", f"{found.seconds:.2f}")]
    checks = "".join(f"<li>{escape(c.line())}</li>" for c in found.checks)
    return card("Misère quotient discovery", rows, [("checks", f"<ul>{checks}</ul>")] if checks else [])
