"""``cgbase.checks``: the runner names a failing check, the parametrizer names every case and refuses stale
known failures, ``shared`` computes once per object."""

from __future__ import annotations

from functools import partial

import pytest

from cgbase.checks import check_name, parametrize_with_checks, run_checks, shared


def check_even(n):
    """An example check."""
    assert n % 2 == 0, f"{n} is odd"


def _checks(n):
    yield partial(check_even, n)


def test_run_checks_names_the_failing_check():
    with pytest.raises(AssertionError, match="^even: 3 is odd"):
        run_checks([partial(check_even, 2), partial(check_even, 3)])


def test_parametrize_names_each_case_and_marks_known_failures():
    mark = parametrize_with_checks({"two": (2,), "three": (3,)}, _checks, known_failures={("three", "even"): "odd"})
    assert mark.args[0] == "check"
    params = mark.args[1]
    assert [p.id for p in params] == ["two-even", "three-even"]
    assert not params[0].marks and params[1].marks[0].kwargs == {"reason": "odd", "strict": True}
    assert check_name(params[0].values[0]) == "even"


def test_a_stale_known_failure_is_refused():
    with pytest.raises(ValueError, match=r"known failures name no case: \[\('four', 'even'\)\]"):
        parametrize_with_checks({"two": (2,)}, _checks, known_failures={("four", "even"): "gone"})


def test_shared_computes_once_per_object_not_per_equal_value():
    calls = []

    @shared(maxsize=2)
    def size(items):
        calls.append(1)
        return len(items)

    a, b = [1, 2], [1, 2]
    assert size(a) == size(a) == size(b) == 2
    assert len(calls) == 2  # a once, b (equal but another object) once
