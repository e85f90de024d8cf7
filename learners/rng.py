"""A small random generator for compiled loops whose state is one saved integer.

Learners draw inside numba with splitmix64 (Steele, Lea and Flood, 2014), seeded from the
learner's ``random_state`` through ``numpy.random.Generator``: a checkpoint records the
one-word state, so a resumed run draws exactly what an uninterrupted run would.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from cgbase.validation import seed

__all__ = ["new_state", "next_u64", "uniform", "below", "normal", "gamma"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def new_state(random_state, stream: int = 0) -> np.ndarray:
    """A fresh generator state (a one-element uint64 array) from a seed and a stream number.

    Examples
    --------
    >>> new_state(0).dtype, bool(new_state(0) == new_state(0)), bool(new_state(0) == new_state(0, 1))
    (dtype('uint64'), True, False)
    """
    rng = np.random.default_rng([int(stream), *np.atleast_1d(seed(random_state))])
    return rng.integers(0, 2**63, size=1, dtype=np.int64).astype(np.uint64)



@nb.njit(cache=True, nogil=True)
def next_u64(state):
    """Advance the state; return 64 random bits."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True, nogil=True)
def uniform(state):
    """A float in [0, 1)."""
    return float(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@nb.njit(cache=True, nogil=True)
def below(state, n):
    """An integer in [0, n)."""
    return min(int(uniform(state) * n), n - 1)


@nb.njit(cache=True, nogil=True)
def normal(state):
    """A standard normal draw (Box-Muller)."""
    u = 1.0 - uniform(state)
    return math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * uniform(state))


@nb.njit(cache=True, nogil=True)
def gamma(state, shape, rate):
    """A Gamma(shape, rate) draw (Marsaglia-Tsang; shape < 1 boosted by U^(1/shape))."""
    boost = 1.0
    if shape < 1.0:
        boost = (1.0 - uniform(state)) ** (1.0 / shape)
        shape += 1.0
    d = shape - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = normal(state)
        v = (1.0 + c * x) ** 3
        if v <= 0.0:
            continue
        u = 1.0 - uniform(state)
        if math.log(u) < 0.5 * x * x + d - d * v + d * math.log(v):
            return boost * d * v / rate
