"""Sets of rows packed in bits: every pairwise intersection counted as numpy counts it, on any number of rows."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from discover.engines.row_bits import intersections, pack_rows


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 4), st.integers(0, 4), st.integers(0, 200), st.integers(0, 2**32 - 1))
def test_intersections_count_the_rows_in_both_sets(k, m, n, seed):
    rng = np.random.default_rng(seed)
    first, second = rng.random((k, n)) < 0.5, rng.random((m, n)) < 0.7
    expected = (first[:, None, :] & second[None, :, :]).sum(axis=2)
    assert intersections(pack_rows(first), pack_rows(second)).tolist() == expected.tolist()


def test_the_last_row_of_a_word_and_the_padding():
    sets = np.zeros((1, 130), dtype=bool)
    sets[0, [0, 63, 64, 127, 129]] = True
    packed = pack_rows(sets)
    assert packed.shape == (1, 3) and packed[0, 0] == (1 | 1 << 63) and packed[0, 2] == 2
    assert intersections(packed, packed).tolist() == [[5]]


def test_families_over_different_rows_are_refused():
    with pytest.raises(ValueError, match="same rows"):
        intersections(pack_rows(np.ones((1, 64), bool)), pack_rows(np.ones((1, 65), bool)))
