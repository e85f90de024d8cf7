"""Every command of ``discover`` through ``discover.app.cli.checks``: hostile values of every parameter, by its declared
type, are refused in one line with status 2, before any work, with nothing written.

One pytest case per command (``test_hostile_input[solve]``), found by walking the click group: a new command
or option is checked with no new test code. The property-based sweep draws further out-of-range integers and
numbers and non-numeric text for every ``Integer`` and ``Number`` parameter (hypothesis, derandomized).
"""

from __future__ import annotations

import re

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from discover.app.cli import common
from discover.app.cli.checks import (Case, check_case, check_command, command_paths, find_command, hostile_cases,
                                 valid_argv)

KNOWN_FAILURES: dict[str, str] = {}  # command -> reason; keep it empty

PATHS = command_paths()


@pytest.mark.parametrize("path", [pytest.param(p, marks=[pytest.mark.xfail(reason=KNOWN_FAILURES[p], strict=True)]
                                               if p in KNOWN_FAILURES else []) for p in PATHS])
def test_hostile_input(path):
    check_command(path)


def test_every_command_has_cases():
    assert {"solve", "sweep", "study", "report", "alphazero", "explore", "hqn", "learn"} <= set(PATHS)
    for path in PATHS:
        assert len(hostile_cases(path)) >= 2, path


def test_an_undeclared_option_type_fails_the_check():
    from discover.app.cli.checks import hostile_values

    with pytest.raises(AssertionError, match="undeclared type"):
        hostile_values(click.Option(["--plain"]))


def test_the_check_finds_an_accepted_value(monkeypatch):
    """The check can fail: a command that accepts its hostile value is reported."""
    monkeypatch.setattr(common.Integer, "convert", lambda self, value, param, ctx: 1)
    with pytest.raises(AssertionError, match="status 0"):
        check_case(Case("accepted", (*valid_argv("games"), "--json")))  # a valid line runs and exits 0
    with pytest.raises(AssertionError, match="status"):
        check_case(Case("zero-bound", ("solve", "nim", "heaps=2", "--bound=0")))


_VALID_INTEGER = re.compile(r"\s*[+-]?[0-9]+\s*")
_VALID_NUMBER = re.compile(r"\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*")


def _numeric_options():
    for path in PATHS:
        for param in find_command(path).params:
            if isinstance(param.type, (common.Integer, common.Number)):
                yield pytest.param(path, param.opts[0], id=f"{path}{param.opts[0]}")


def _outside(kind) -> st.SearchStrategy:
    """Text no parameter of this type may accept: numbers outside its range, or not a number in digits."""
    valid = _VALID_INTEGER if isinstance(kind, common.Integer) else _VALID_NUMBER
    garbage = st.text(max_size=12).filter(lambda t: not valid.fullmatch(t) and "\x00" not in t)
    if isinstance(kind, common.Integer):
        low = st.integers(max_value=kind.low - 1) if kind.low is not None else st.nothing()
        return garbage | low.map(str) | st.integers(min_value=kind.high + 1).map(str)
    finite = st.floats(allow_nan=False, allow_infinity=False)
    low = finite.filter(lambda x: x < kind.low or (kind.low_open and x == kind.low))
    high = finite.filter(lambda x: x > kind.high or (kind.high_open and x == kind.high))
    return garbage | low.map(repr) | high.map(repr)


@pytest.mark.slow
@pytest.mark.parametrize("path, option", list(_numeric_options()))
def test_numeric_options_refuse_anything_outside_their_range(path, option):
    kind = next(p.type for p in find_command(path).params if option in getattr(p, "opts", ()))

    @settings(max_examples=15, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_outside(kind))
    def refused(value):
        check_case(Case("drawn", (*valid_argv(path), f"{option}={value}")))

    refused()


def test_the_check_finds_one_file_given_to_two_options(monkeypatch):
    """Without the refusal, `show s.npz --csv s.npz` overwrote the solution it read: the check reports it."""
    monkeypatch.setattr(common, "_claim", lambda *args, **kwargs: None)
    case = next(c for c in hostile_cases("show") if c.name == "same-file-csv-input")
    with pytest.raises(AssertionError, match="status 0|changed"):
        check_case(case)
