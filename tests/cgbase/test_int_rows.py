"""cgbase.int_rows: exactly the integers of the options, or None."""

import enum

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgbase.int_rows import int_rows


def random_lists(rng, width, rows=60):
    """Lists of options (tuples or lists) of ints of every digit count up to 64 bits, both signs."""
    magnitudes = np.array([0, 1, 255, 2**30 - 1, 2**30, 2**31, 2**59, 2**60 - 1, 2**60, 2**62, 2**63 - 1])
    lists = []
    for _ in range(rows):
        row = []
        for _ in range(int(rng.integers(0, 5))):
            coords = [int(rng.choice(magnitudes)) - int(rng.integers(0, 2)) for _ in range(width)]
            coords = [-x if rng.integers(0, 2) else x for x in coords]
            row.append(tuple(coords) if rng.integers(0, 3) else coords)
        lists.append(row)
    return lists


@pytest.mark.parametrize("width", [1, 3])
def test_every_int_is_read_as_it_is(width):
    rng = np.random.default_rng(7)
    for _ in range(20):
        lists = random_lists(rng, width)
        expected = [list(option) for row in lists for option in row]
        got = int_rows(lists, width)
        assert got.dtype == np.int64 and got.shape == (len(expected), width)
        assert got.tolist() == expected


class Heap(enum.IntEnum):
    ONE = 1


@pytest.mark.parametrize("bad", [True, False, 2.0, np.int64(2), np.uint8(2), Heap.ONE, 2**63, -2**63 - 1, 2**64,
                                 "2", None])
def test_an_option_not_of_plain_ints_within_64_bits_gives_none(bad):
    good = [(4, 5)] * 10
    assert int_rows([good, good[:3] + [(1, bad)] + good], 2) is None
    assert int_rows([[(bad, 1)]], 2) is None


@pytest.mark.parametrize("option", [(1,), (1, 2, 3), "ab", {1: 0, 2: 0}, 12, b"ab", range(2), frozenset((1, 2))])
def test_an_option_of_another_shape_gives_none(option):
    assert int_rows([[(0, 0), option]], 2) is None


def test_no_options():
    assert int_rows([], 2).shape == (0, 2)
    assert int_rows([[], []], 3).shape == (0, 3)


def test_only_a_list_of_lists_is_read():
    with pytest.raises(TypeError, match="list of lists"):
        int_rows([((1, 2),)], 2)
    with pytest.raises(TypeError, match="list of lists"):
        int_rows(([(1, 2)],), 2)


@pytest.mark.parametrize("width", [0, -1])
def test_a_width_below_one_is_refused(width):
    with pytest.raises(ValueError, match="width"):
        int_rows([[()]], width)


class Row(tuple):
    pass


class Coordinate(int):
    pass


INTS = st.one_of(st.integers(-2**64, 2**64), st.sampled_from(
    [0, -1, 1, 2**30 - 1, 2**30, -2**30, 2**60 - 1, 2**60, -2**60, 2**63 - 1, -2**63, 2**63, -2**63 - 1]))
ODD = st.sampled_from([True, False, 2.0, -0.0, np.int64(2), Heap.ONE, Coordinate(5), None, "1"])
SHAPES = (tuple, list, Row, range)


def _option(width):
    """An option: mostly tuples or lists of ``width`` ints; else of another length, another type or with a
    coordinate that is no plain int (a bool, a float, an int subclass ...)."""
    coords = st.lists(st.one_of(INTS, INTS, INTS, ODD), min_size=0, max_size=width + 1)
    return st.one_of(st.lists(INTS, min_size=width, max_size=width).map(tuple),
                     st.lists(INTS, min_size=width, max_size=width),
                     st.tuples(st.sampled_from(SHAPES), coords).map(lambda p: p[0](p[1]) if p[0] is not range
                                                                     else p[1][0] if p[1] else 7))


def _as_python_reads(lists, width):
    """The options as rows of ints, or None: the definition ``int_rows`` follows, one option at a time."""
    rows = []
    for option in (o for row in lists for o in row):
        if type(option) not in (tuple, list) or len(option) != width or \
                any(type(x) is not int or not -2**63 <= x < 2**63 for x in option):
            return None
        rows.append(list(option))
    return rows


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 4).flatmap(lambda w: st.tuples(st.just(w), st.lists(st.lists(_option(w), max_size=5),
                                                                              max_size=5))))
def test_int_rows_reads_what_python_reads(case):
    """Random options of every kind (ints of 0 to 3 digits, both signs, both ends of 64 bits; bools, floats, int
    and tuple subclasses, wrong lengths): the same answer as reading each option in Python."""
    width, lists = case
    expected = _as_python_reads(lists, width)
    got = int_rows(lists, width)
    if expected is None:
        assert got is None
    else:
        assert got.dtype == np.int64 and got.shape == (len(expected), width) and got.tolist() == expected
