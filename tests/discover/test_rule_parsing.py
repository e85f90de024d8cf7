"""Defect class: rule text and rule files are parsed against the printer's grammar, never evaluated.

Hostile rule records try to run code (imports, attributes, lambdas, comprehensions, conditionals, calls of
builtins), to exhaust the machine (huge literals and powers, deep nesting, many nodes) or to smuggle in
values of the wrong kind; each is a ``ValueError`` and runs nothing. Random text never raises anything else.
"""

from __future__ import annotations

import json

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from discover.expr.parse import parse_text
from discover.expr.tree import from_tree
from discover.rule import Rule

RECORD = {"feature_names": ["n"], "target": "P"}

HOSTILE = [
    "__import__('os').system('touch {marker}')",
    "Eq(n, 0) if __import__('os').system('touch {marker}') else Eq(n, 1)",
    "(lambda: __import__('os').system('touch {marker}'))()",
    "[__import__('os').system('touch {marker}') for _ in (1,)][0] or Eq(n, 0)",
    "exec(\"open('{marker}', 'w')\")",
    "eval(\"__import__('os').system('touch {marker}')\")",
    "open('{marker}', 'w')",
    "getattr(__builtins__, 'open')('{marker}', 'w')",
    "Symbol('n').__class__.__init__.__globals__",
    "Eq(Symbol('n'), Integer(0)).func.__module__",
    "Eq(n, 0); __import__('os')",
    "Eq(n, 0)[0]",
    "Symbol('n', integer=True)",
    "Integer('7')",
    "f'{{n}}'",
    "Eq(n, 'zero')",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_runs_nothing_and_is_refused(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    marker = tmp_path / "pwned"
    source = text.format(marker=marker)
    with pytest.raises(ValueError, match="not a rule"):
        Rule.from_json(json.dumps({**RECORD, "expr": source}))
    with pytest.raises(ValueError, match="not a rule"):
        Rule(source, ("n",))
    assert not marker.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("text, why", [
    ("10**10**7", "too large"),
    ("(9**64)**64", "too many digits"),
    ("1" + "0" * 200, "digits"),
    ("Rational(1, 0)", "integers"),
    ("(" * 5000 + "n" + ")" * 5000, "not a rule expression"),
    ("Add(" + ", ".join(["n"] * 30_000) + ")", "nodes"),
])
def test_huge_or_deep_text_is_refused_before_it_is_built(text, why):
    with pytest.raises(ValueError, match=why):
        parse_text(text)


@pytest.mark.parametrize("tree", [
    ["Import", "os"],
    ["Symbol", "__import__('os')"],
    ["Integer", "7"],
    ["Integer", 10**500],
    ["Pow", ["Integer", 10], ["Integer", 10**7]],
    ["Add"],
    "Eq",
    [],
    [["Symbol", "n"]],
])
def test_hostile_trees_are_refused(tree):
    with pytest.raises(ValueError):
        from_tree(tree)


@pytest.mark.parametrize("record", [
    {"expr": "Eq(n, 0)", "feature_names": "n"},
    {"expr": "Eq(n, 0)", "feature_names": ["n"], "target": "both"},
    {"expr": "Eq(n, 0)", "feature_names": ["n"], "train_accuracy": 7},
    {"expr": "Eq(n, 0)", "feature_names": ["n"], "provenance": "__import__('os')"},
    {"expr": 3.5, "feature_names": ["n"]},
    {"feature_names": ["n"]},
])
def test_records_with_fields_of_the_wrong_kind_are_refused(record):
    with pytest.raises(ValueError, match="not a rule record"):
        Rule.from_json(json.dumps(record))


def test_every_printed_form_reads_back():
    n, a, b = sp.symbols("n a b")
    expr = sp.Or(sp.Contains(sp.Mod(n, 7), sp.FiniteSet(0, 2)), sp.Eq(sp.floor(sp.GoldenRatio * a), b))
    for text in (str(expr), sp.srepr(expr)):
        assert parse_text(text) == expr


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(alphabet="abn0123456789+-*/%()=<>!&|^~ ,.'\"_[]{}:;EqModfloorSymbolIntegerimport", max_size=60))
def test_random_text_is_read_or_refused_with_a_value_error(text):
    try:
        result = parse_text(text)
    except ValueError:
        return
    assert isinstance(result, sp.Basic)
