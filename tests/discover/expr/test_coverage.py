"""Every backend of the expression language has a method for every node type of the table."""

from __future__ import annotations

import pytest
import sympy as sp

from discover.expr.nodes import NODES
from discover.expr.numeric import NumpyCompiler
from discover.expr.walker import BACKENDS, Walker, backend_classes, missing


@pytest.mark.parametrize("name", list(BACKENDS))
def test_backend_covers_every_node(name):
    assert missing(backend_classes()[name]) == []


def _without(backend: type, method: str) -> type:
    """A copy of a backend class with one method left out (bases: the backend's own bases)."""
    namespace = {k: v for k, v in vars(backend).items() if k != method}
    return type(f"{backend.__name__}Lacking", backend.__bases__, namespace)


@pytest.mark.parametrize("name", list(BACKENDS))
def test_coverage_check_reports_a_missing_method(name):
    backend = backend_classes()[name]
    prefix = getattr(backend, "method_prefix", "_print_")
    method = prefix + "DigitSum"
    assert method in vars(backend), f"{name} defines {method} itself"
    assert missing(_without(backend, method)) == ["DigitSum"]


def test_a_new_node_type_fails_until_each_backend_has_it(monkeypatch):
    class Tetration(sp.Function):
        """A node type no backend knows yet."""

    monkeypatch.setattr("discover.expr.walker.NODES", NODES + (Tetration,))
    monkeypatch.setattr("discover.expr.walker._NODE_SET", frozenset(NODES + (Tetration,)))
    for backend in backend_classes().values():
        assert missing(backend) == ["Tetration"], backend


def test_a_printer_catch_all_does_not_count():
    from sympy.printing.str import StrPrinter

    assert {"BitXor", "DigitSum", "floor"} <= set(missing(StrPrinter))  # sympy would print BitXor(a, b)


def test_walker_refuses_a_node_outside_the_table():
    with pytest.raises(ValueError, match="cannot evaluate 0.5"):
        NumpyCompiler().walk(sp.Float(0.5))
    with pytest.raises(ValueError, match="not a node type"):
        Walker().walk(sp.Symbol("a"))
