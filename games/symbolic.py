"""Symbolic move relations: what a family's moves are, stated as data a prover can read.

A family's ``move_relation()`` returns one of these plain data classes (or ``None``: the game
keeps bounded verification only).  Each states its moves in words and as a vectorised
membership test ``allows(before, after)``; the tests check that test against the family's move
kernel on small boxes, and ``discover.proofs`` turns the same relation into formulas.

- ``Steps(vectors, amounts)``: move from p to p - t·v for a listed integer vector v and an
  amount t >= 1 (any amount, or one of ``amounts``), staying >= 0: Nim (unit vectors), Wythoff
  (and the diagonal), ``wythoff_nd`` (every non-empty set of heaps), subtraction games (one
  coordinate, a finite set of amounts), staircase Nim (e_i - e_(i-1): coins one stair down).
- ``ProgressionSteps(vectors, first, step)``, ``PowerSteps(vectors, base)``: as ``Steps``, the amounts an
  infinite set given by a rule (an arithmetic progression: odd numbers, multiples; the powers of a number).
- ``TakeFromSome(k)``: Moore's Nim_k, any positive amount from each of 1 to k heaps.
- ``ChompBite()``: Chomp on row lengths, rows from i up cut to a length j.
- ``EuclidMultiples()``: subtract a positive multiple of the smaller coordinate from the larger.
- ``TakeAndBreak(digits, rest, unequal)``: one heap, remove k tokens and leave nothing, one heap
  or two heaps as the octal digit of k allows (octal games, Lasker's Nim, Grundy's game).
- ``TakeUpTo(vectors, num, den)``: as ``Steps``, the amount at most num/den of the least heap the
  vector takes from ("take at most half of a heap"); a declared game's (``games.declared``).
- ``TakeBoth(a)``: two coordinates, take s >= 1 from one and t >= 1 from the other with |s - t| < a (Fraenkel's
  a-Wythoff games beside Nim's moves; a = 1 is Wythoff's diagonal).
- ``GrowingTake(ratio)``: a heap n and the most m its mover may take: take 1 <= t <= m, after which the next player
  may take up to ratio·t (capped at the heap left): Fibonacci Nim for ratio 2.
- ``PokerMoves(heaps)``: heaps and two banks (the mover's, the other's): take chips from a heap into the bank or put
  chips from the bank onto a heap, the banks then trading places (Poker Nim; loopy: no measure falls).
- ``CoinSlides()``: coins on distinct squares, listed in decreasing order: one coin to any empty square below it
  (Welter's game).
- ``CornerTurns()``: a coin (x, y) goes to the sum of the coins (x', y), (x, y'), (x', y') with x' < x, y' < y
  (Turning Corners: an option is three positions of two coordinates).
- ``AnyOf(members)``: the union of several relations, a move of any member (declared games with
  several move rules).

Examples
--------
>>> import numpy as np
>>> wythoff = Steps(((1, 0), (0, 1), (1, 1)))
>>> wythoff.allows(np.array([[3, 5], [3, 5]]), np.array([[1, 3], [2, 3]])).tolist()
[True, False]
>>> wythoff.words()
'subtract t·v (any t ≥ 1, every coordinate staying ≥ 0) for v in (1, 0), (0, 1), (1, 1)'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["MoveRelation", "Steps", "ProgressionSteps", "PowerSteps", "TakeFromSome", "ChompBite", "EuclidMultiples",
           "TakeAndBreak", "TakeUpTo", "TakeBoth", "GrowingTake", "PokerMoves", "CoinSlides", "CornerTurns", "AnyOf",
           "take_from_one", "relation_from_record"]


def _pair(before, after) -> tuple[np.ndarray, np.ndarray]:
    before = np.asarray(before, dtype=np.int64)
    after = np.asarray(after, dtype=np.int64)
    if before.ndim != 2 or after.ndim != 2 or len(before) != len(after):
        raise ValueError(f"before and after must be (n, dims) arrays of the same length, got {before.shape} "
                         f"and {after.shape}")
    return before, after


def _along(before, after, vectors):
    """For each vector v: the amounts t with after = before - t·v read off the first coordinate v moves, and where
    they are a whole t >= 1 with every coordinate moved by t·v (the amount rule left to the caller)."""
    taken = [before[:, i] - after[:, i] for i in range(before.shape[1])]  # by columns: no (n, dims) temporaries
    for v in vectors:
        lead = next(i for i, k in enumerate(v) if k)
        t = taken[lead] * v[lead] if abs(v[lead]) == 1 else taken[lead] // v[lead]
        hit = t >= 1
        if abs(v[lead]) != 1:
            hit &= t * v[lead] == taken[lead]
        for i, k in enumerate(v):
            if i != lead:
                hit &= taken[i] == t * k if k else taken[i] == 0
        yield t, hit


def _staying(ok, after):
    """``ok`` where every coordinate of ``after`` stays >= 0 (by columns: no (n, dims) temporaries)."""
    for column in after.T:
        ok &= column >= 0
    return ok


def _positive(value, name: str) -> None:
    """Refuse a field that is not a positive integer."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")


def _listed_vectors(vectors) -> str:
    return ", ".join("(" + ", ".join(map(str, v)) + ")" if len(v) > 1 else str(v[0]) for v in vectors)


class MoveRelation:
    """Base class: a move relation over integer positions."""

    def measure(self, dims: int) -> tuple[int, ...]:
        """Weights of a linear measure, >= 0 on positions, that every move decreases (the total by default)."""
        return (1,) * dims

    def allows(self, before, after) -> np.ndarray:
        """True where ``after[r]`` is an option of ``before[r]`` (both (n, dims) int arrays)."""
        raise NotImplementedError

    def allows_column(self, before, j, values) -> np.ndarray:
        """``allows(before, after)`` for ``after`` = ``before`` with column ``j`` set to ``values``: moves of one
        coordinate (a strategy's per-heap moves); a relation that can tell them from its data answers without
        building ``after``.

        Examples
        --------
        >>> nim = Steps(((1, 0), (0, 1)))
        >>> nim.allows_column(np.array([[3, 5], [3, 5], [3, 5]]), 1, np.array([2, 6, -1])).tolist()
        [True, False, False]
        """
        before = np.asarray(before, dtype=np.int64)
        after = before.copy()
        after[:, j] = values
        return self.allows(before, after)

    def words(self) -> str:
        raise NotImplementedError

    def to_record(self) -> dict:
        """A JSON-ready record that ``relation_from_record`` reads back."""
        return {"kind": type(self).__name__, **{k: _listed(v) for k, v in self.__dict__.items()}}


def _listed(value):
    return [_listed(v) for v in value] if isinstance(value, tuple) else value


@dataclass(frozen=True)
class Steps(MoveRelation):
    """Moves p -> p - t·v, t >= 1, for listed integer vectors v; every coordinate stays >= 0.

    Parameters
    ----------
    vectors : tuple of tuple of int
        The step vectors (0/1 vectors for take-away games; -1 entries add to a coordinate).
    amounts : tuple of int, optional
        The allowed amounts t (a subtraction set); ``None`` allows every t >= 1.
    """

    vectors: tuple[tuple[int, ...], ...]
    amounts: tuple[int, ...] | None = None

    def __post_init__(self):
        vectors = tuple(tuple(int(x) for x in v) for v in self.vectors)
        if not vectors or len({len(v) for v in vectors}) != 1 or any(not any(v) for v in vectors):
            raise ValueError(f"vectors must be non-zero integer vectors of one length, got {self.vectors!r}")
        object.__setattr__(self, "vectors", vectors)
        if self.amounts is not None:
            amounts = tuple(sorted({int(t) for t in self.amounts}))
            if not amounts or amounts[0] < 1:
                raise ValueError(f"amounts must be positive integers, got {self.amounts!r}")
            object.__setattr__(self, "amounts", amounts)

    def measure(self, dims: int) -> tuple[int, ...]:
        """Weights w with w·v > 0 for every vector: stair i weighs i + 1 (coins only move down)."""
        return tuple(i + 1 for i in range(dims)) if any(min(v) < 0 for v in self.vectors) else (1,) * dims

    def allows(self, before, after):
        before, after = _pair(before, after)
        ok = np.zeros(len(before), dtype=bool)
        for t, hit in _along(before, after, self.vectors):
            ok |= hit & np.isin(t, self.amounts) if self.amounts is not None else hit
        return _staying(ok, after)

    def allows_column(self, before, j, values):
        before, _ = _pair(before, before)
        values = np.broadcast_to(np.asarray(values, dtype=np.int64), (len(before),))
        taken = before[:, j] - values
        ok = np.zeros(len(before), dtype=bool)
        for v in self.vectors:
            if not v[j] or any(k for i, k in enumerate(v) if i != j):
                continue  # with t >= 1 a move along v changes another coordinate, or leaves this one
            t = taken * v[j] if abs(v[j]) == 1 else taken // v[j]
            hit = t >= 1
            if abs(v[j]) != 1:
                hit &= t * v[j] == taken
            if self.amounts is not None:
                hit &= np.isin(t, self.amounts)
            ok |= hit
        ok &= values >= 0
        for i in range(before.shape[1]):
            if i != j:
                ok &= before[:, i] >= 0
        return ok

    def words(self) -> str:
        amount = "any t ≥ 1" if self.amounts is None else "t in {" + ", ".join(map(str, self.amounts)) + "}"
        return f"subtract t·v ({amount}, every coordinate staying ≥ 0) for v in {_listed_vectors(self.vectors)}"


def take_from_one(dims: int, amounts=None) -> Steps:
    """Take any amount (or one of ``amounts``) from one of ``dims`` heaps: Nim, subtraction games.

    Examples
    --------
    >>> take_from_one(2).vectors
    ((1, 0), (0, 1))
    """
    return Steps(tuple(tuple(int(i == j) for j in range(dims)) for i in range(dims)), amounts)


class _AmountSteps(MoveRelation):
    """Moves p -> p - t·v for listed integer vectors v and the amounts t ``holds`` accepts, every coordinate staying
    >= 0 (a subclass states ``vectors`` and ``holds``)."""

    def measure(self, dims: int) -> tuple[int, ...]:
        return Steps(self.vectors).measure(dims)

    def allows(self, before, after):
        before, after = _pair(before, after)
        ok = np.zeros(len(before), dtype=bool)
        for t, hit in _along(before, after, self.vectors):
            ok |= hit & self.holds(t)
        return _staying(ok, after)


@dataclass(frozen=True)
class ProgressionSteps(_AmountSteps):
    """Moves p -> p - t·v for listed integer vectors v and t in the arithmetic progression first, first + step, ...
    (the odd numbers: 1, 2; the multiples of m: m, m), every coordinate staying >= 0.

    Examples
    --------
    >>> odd = ProgressionSteps(((1,),), 1, 2)
    >>> odd.allows(np.array([[9], [9], [9]]), np.array([[4], [0], [8]])).tolist(), odd.words()
    ([True, True, True], 'subtract t·v (t in {1, 3, 5, ...}, every coordinate staying ≥ 0) for v in 1')
    """

    vectors: tuple[tuple[int, ...], ...]
    first: int
    step: int

    def __post_init__(self):
        object.__setattr__(self, "vectors", Steps(self.vectors).vectors)
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in (self.first, self.step)):
            raise ValueError(f"first and step must be positive integers, got {self.first!r} and {self.step!r}")

    def holds(self, t) -> np.ndarray:
        """Whether each amount ``t`` is in the progression."""
        t = np.asarray(t, dtype=np.int64)
        return (t >= self.first) & ((t - self.first) % self.step == 0)

    def words(self) -> str:
        listed = ", ".join(str(self.first + k * self.step) for k in range(3))
        return (f"subtract t·v (t in {{{listed}, ...}}, every coordinate staying ≥ 0) for v in "
                f"{_listed_vectors(self.vectors)}")


@dataclass(frozen=True)
class PowerSteps(_AmountSteps):
    """Moves p -> p - t·v for listed integer vectors v and t a power of ``base`` (1, base, base², ...), every
    coordinate staying >= 0.

    Examples
    --------
    >>> twos = PowerSteps(((1,),), 2)
    >>> twos.allows(np.array([[9], [9], [9]]), np.array([[1], [3], [8]])).tolist()
    [True, False, True]
    """

    vectors: tuple[tuple[int, ...], ...]
    base: int

    def __post_init__(self):
        object.__setattr__(self, "vectors", Steps(self.vectors).vectors)
        if isinstance(self.base, bool) or not isinstance(self.base, int) or self.base < 2:
            raise ValueError(f"base must be an integer of at least 2, got {self.base!r}")

    def holds(self, t) -> np.ndarray:
        """Whether each amount ``t`` is a power of the base."""
        t = np.asarray(t, dtype=np.int64)
        ok = np.zeros(t.shape, dtype=bool)
        power = 1
        while power <= max(int(t.max(initial=0)), 1):
            ok |= t == power
            power *= self.base
        return ok

    def words(self) -> str:
        return (f"subtract t·v (t a power of {self.base}: 1, {self.base}, {self.base ** 2}, ..., every coordinate "
                f"staying ≥ 0) for v in {_listed_vectors(self.vectors)}")


@dataclass(frozen=True)
class TakeFromSome(MoveRelation):
    """Moore's Nim_k: remove a positive amount from each of 1 to k heaps."""

    k: int

    def allows(self, before, after):
        before, after = _pair(before, after)
        changed = (after < before).sum(axis=1)
        return (after <= before).all(axis=1) & (after >= 0).all(axis=1) & (changed >= 1) & (changed <= self.k)

    def words(self) -> str:
        return f"remove a positive amount from each of 1 to {self.k} heaps"


@dataclass(frozen=True)
class ChompBite(MoveRelation):
    """Chomp on row lengths r_0 >= r_1 >= ...: pick row i and a length 0 <= j < r_i, (i, j) != (0, 0);
    every row m >= i becomes min(r_m, j)."""

    def allows(self, before, after):
        before, after = _pair(before, after)
        n, dims = before.shape
        ok = np.zeros(n, dtype=bool)
        for i in range(dims):
            j = after[:, i]
            hit = (j < before[:, i]) & ~((i == 0) & (j == 0))
            hit &= (after[:, :i] == before[:, :i]).all(axis=1)
            hit &= (after[:, i:] == np.minimum(before[:, i:], j[:, None])).all(axis=1)
            ok |= hit
        return ok & (after >= 0).all(axis=1)  # a row is cut to a length j >= 0, never below

    def words(self) -> str:
        return "pick row i and a length j below its length ((0, 0) excepted): rows i and above are cut to j"


@dataclass(frozen=True)
class EuclidMultiples(MoveRelation):
    """Subtract a positive multiple of the smaller coordinate from the larger (either when equal),
    staying >= 0; a position with a zero coordinate has no move."""

    def allows(self, before, after):
        before, after = _pair(before, after)
        a, b = before[:, 0], before[:, 1]
        ok = np.zeros(len(before), dtype=bool)
        for mover, other, side in ((a, b, 0), (b, a, 1)):
            kept = after[:, 1 - side] == other
            taken = mover - after[:, side]
            safe = np.where(other > 0, other, 1)
            ok |= (other > 0) & (mover >= other) & kept & (taken > 0) & (taken % safe == 0) & (after[:, side] >= 0)
        return ok

    def words(self) -> str:
        return "subtract a positive multiple of the smaller coordinate from the larger"


@dataclass(frozen=True)
class TakeAndBreak(MoveRelation):
    """One heap n: remove k >= 0 tokens as octal digit d_k allows (bit 1: leave nothing, bit 2: one
    heap, bit 4: two non-empty heaps, of different sizes when ``unequal``); k beyond the listed
    digits uses ``rest``.  An option is the pair of heaps left, (x, y), 0 for no heap."""

    digits: tuple[int, ...]
    rest: int = 0
    unequal: bool = False

    def __post_init__(self):
        object.__setattr__(self, "digits", tuple(int(d) for d in self.digits))

    def _digit(self, k: np.ndarray) -> np.ndarray:
        table = np.array(self.digits, dtype=np.int64)
        return np.where(k < table.size, table[np.minimum(k, table.size - 1)], self.rest)

    def allows(self, before, after):
        before, after = _pair(before, after)
        n, x, y = before[:, 0], after[:, 0], after[:, 1]
        k = n - x - y
        digit = self._digit(np.maximum(k, 0))
        heaps = (x > 0).astype(np.int64) + (y > 0)
        nothing = (heaps == 0) & (k > 0) & (digit & 1 > 0)
        one = (heaps == 1) & (k > 0) & (digit & 2 > 0)
        two = (heaps == 2) & (digit & 4 > 0) & ((x != y) | (not self.unequal))
        return (k >= 0) & (x >= 0) & (y >= 0) & (nothing | one | two)

    def words(self) -> str:
        return "remove tokens from a heap and leave nothing, one heap or two heaps, as the octal code allows"


@dataclass(frozen=True)
class TakeUpTo(MoveRelation):
    """Moves p -> p - t·v for listed non-negative vectors v and 1 <= t <= floor(num·p_i / den) for every i
    with v_i > 0 (``num=1, den=2``: at most half of the heap); every coordinate stays >= 0.

    Examples
    --------
    >>> half = TakeUpTo(((1,),), 1, 2)
    >>> half.allows(np.array([[6], [6]]), np.array([[3], [2]])).tolist()
    [True, False]
    """

    vectors: tuple[tuple[int, ...], ...]
    num: int
    den: int

    def __post_init__(self):
        vectors = tuple(tuple(int(x) for x in v) for v in self.vectors)
        if not vectors or len({len(v) for v in vectors}) != 1 or any(not any(v) or min(v) < 0 for v in vectors):
            raise ValueError(f"vectors must be non-zero, non-negative integer vectors of one length, "
                             f"got {self.vectors!r}")
        if not (isinstance(self.num, int) and isinstance(self.den, int) and self.num >= 1 and self.den >= 1):
            raise ValueError(f"num and den must be positive integers, got {self.num!r} and {self.den!r}")
        object.__setattr__(self, "vectors", vectors)

    def allows(self, before, after):
        before, after = _pair(before, after)
        ok = Steps(self.vectors).allows(before, after)
        taken = before - after
        fits = np.zeros(len(before), dtype=bool)
        for v in self.vectors:
            v = np.array(v, dtype=np.int64)
            lead = int(np.flatnonzero(v)[0])
            t = taken[:, lead] // v[lead]
            along = (taken == t[:, None] * v).all(axis=1)
            fits |= along & (self.den * t[:, None] <= self.num * before)[:, v > 0].all(axis=1)
        return ok & fits

    def words(self) -> str:
        return (f"subtract t·v (1 ≤ t ≤ {self.num}/{self.den} of each heap v takes from) for v in "
                f"{_listed_vectors(self.vectors)}")


@dataclass(frozen=True)
class TakeBoth(MoveRelation):
    """Two coordinates: take s >= 1 from the first and t >= 1 from the second with |s - t| < a, both staying >= 0
    (Fraenkel's a-Wythoff moves on both heaps; a = 1 is Wythoff's diagonal, s = t).

    Examples
    --------
    >>> both = TakeBoth(2)
    >>> both.allows(np.array([[5, 5], [5, 5], [5, 5]]), np.array([[3, 4], [2, 4], [5, 4]])).tolist()
    [True, False, False]
    """

    a: int

    def __post_init__(self):
        _positive(self.a, "a")

    def allows(self, before, after):
        before, after = _pair(before, after)
        if before.shape[1] != 2:
            raise ValueError(f"TakeBoth moves two coordinates, got {before.shape[1]}")
        s, t = before[:, 0] - after[:, 0], before[:, 1] - after[:, 1]
        return _staying((s >= 1) & (t >= 1) & (np.abs(s - t) < self.a), after)

    def words(self) -> str:
        return f"take s ≥ 1 from one heap and t ≥ 1 from the other with |s - t| < {self.a}"


@dataclass(frozen=True)
class GrowingTake(MoveRelation):
    """Positions (n, m): a heap n whose mover may take 1 <= t <= m; the option is (n - t, min(ratio·t, n - t)), the
    next player allowed up to ratio·t (never more than the heap).  Fibonacci Nim is ratio 2; the measure is n.

    Examples
    --------
    >>> fib = GrowingTake(2)
    >>> fib.allows(np.array([[10, 3], [10, 3], [10, 3]]), np.array([[8, 4], [7, 6], [6, 6]])).tolist()
    [True, True, False]
    """

    ratio: int

    def __post_init__(self):
        _positive(self.ratio, "ratio")

    def measure(self, dims: int) -> tuple[int, ...]:
        """The heap: the amount allowed may grow."""
        return (1, 0)

    def allows(self, before, after):
        before, after = _pair(before, after)
        if before.shape[1] != 2:
            raise ValueError(f"GrowingTake moves positions (heap, amount allowed), got {before.shape[1]} coordinates")
        t = before[:, 0] - after[:, 0]
        return (t >= 1) & (t <= before[:, 1]) & (after[:, 0] >= 0) & \
            (after[:, 1] == np.minimum(self.ratio * t, after[:, 0]))

    def words(self) -> str:
        return (f"take 1 ≤ t ≤ m from the heap n; the next player may take up to {self.ratio}·t (at most the heap "
                f"left)")


@dataclass(frozen=True)
class PokerMoves(MoveRelation):
    """Positions (h_1, ..., h_k, bank, other): one heap changes by a non-zero amount, taken into the mover's bank or
    paid from it (at most the bank), and the banks trade places: after = (h', other, bank - (h'_i - h_i)).

    Examples
    --------
    >>> poker = PokerMoves(1)
    >>> poker.allows(np.array([[3, 2, 0], [3, 2, 0], [3, 2, 0]]), np.array([[1, 0, 4], [5, 0, 0], [6, 0, 0]])).tolist()
    [True, True, False]
    """

    heaps: int

    def __post_init__(self):
        _positive(self.heaps, "heaps")

    def measure(self, dims: int) -> tuple[int, ...]:
        raise ValueError("Poker Nim's moves can be undone: no measure falls with every move")

    def allows(self, before, after):
        before, after = _pair(before, after)
        k = self.heaps
        if before.shape[1] != k + 2:
            raise ValueError(f"PokerMoves over {k} heaps needs {k + 2} coordinates, got {before.shape[1]}")
        change = after[:, :k] - before[:, :k]
        moved = (change != 0).sum(axis=1) == 1
        paid = change.sum(axis=1)  # > 0: chips from the bank onto the heap
        return moved & (after[:, :k] >= 0).all(axis=1) & (paid <= before[:, k]) & \
            (after[:, k] == before[:, k + 1]) & (after[:, k + 1] == before[:, k] - paid)

    def words(self) -> str:
        return ("take chips from one heap into your bank, or put chips from your bank onto one heap; the banks then "
                "trade places")


@dataclass(frozen=True)
class CoinSlides(MoveRelation):
    """Positions c_1 > c_2 > ... >= 0, coins on distinct squares: one coin moves to an empty square below it and the
    squares are listed in decreasing order again (every other coin stays), as in Welter's game.

    Examples
    --------
    >>> CoinSlides().allows(np.array([[5, 2], [5, 2], [5, 2]]), np.array([[2, 0], [2, 1], [4, 3]])).tolist()
    [True, True, False]
    """

    def allows(self, before, after):
        before, after = _pair(before, after)
        ordered = (np.diff(after, axis=1) < 0).all(axis=1) & (after >= 0).all(axis=1)
        smaller = after.sum(axis=1) < before.sum(axis=1)
        kept = (after[:, :, None] == before[:, None, :]).any(axis=2).sum(axis=1) == before.shape[1] - 1
        return ordered & smaller & kept  # the one new square is below the coin that left (the others stay)

    def words(self) -> str:
        return "one coin moves to an empty square below it (coins on distinct squares, listed in decreasing order)"


@dataclass(frozen=True)
class CornerTurns(MoveRelation):
    """A coin (x, y) to the sum of the three other corners of a rectangle below and left of it: an option is a row
    of three positions (x', y), (x, y'), (x', y') (in any order) with x' < x and y' < y.

    Examples
    --------
    >>> CornerTurns().allows(np.array([[2, 2], [2, 2]]), np.array([[1, 2, 2, 0, 1, 0], [1, 2, 2, 1, 1, 0]])).tolist()
    [True, False]
    """

    def allows(self, before, after):
        before, after = _pair(before, after)
        if before.shape[1] != 2 or after.shape[1] != 6:
            raise ValueError(f"CornerTurns moves a coin (x, y) to three coins, got shapes {before.shape} and "
                             f"{after.shape}")
        parts = after.reshape(-1, 3, 2)
        order = np.lexsort((parts[:, :, 1], parts[:, :, 0]), axis=-1)  # (x', y'), (x', y), (x, y')
        low, column, row = (np.take_along_axis(parts, order[:, k, None, None], axis=1)[:, 0] for k in range(3))
        x, y = before[:, 0], before[:, 1]
        return (low[:, 0] >= 0) & (low[:, 1] >= 0) & (low[:, 0] < x) & (low[:, 1] < y) & \
            (column[:, 0] == low[:, 0]) & (column[:, 1] == y) & (row[:, 0] == x) & (row[:, 1] == low[:, 1])

    def words(self) -> str:
        return "a coin (x, y) goes to the coins (x', y), (x, y') and (x', y') for some x' < x and y' < y"


@dataclass(frozen=True)
class AnyOf(MoveRelation):
    """The union of several relations: a move of any member is a move.

    Examples
    --------
    >>> both = AnyOf((take_from_one(2, (1, 2, 3)), Steps(((1, 1),), (1,))))
    >>> both.allows(np.array([[3, 3], [3, 3]]), np.array([[2, 2], [1, 1]])).tolist()
    [True, False]
    """

    members: tuple[MoveRelation, ...]

    def __post_init__(self):
        members = tuple(self.members)
        if len(members) < 2 or not all(isinstance(m, MoveRelation) and not isinstance(m, AnyOf) for m in members):
            raise ValueError(f"members must be two or more relations, none of them an AnyOf, got {self.members!r}")
        object.__setattr__(self, "members", members)

    def measure(self, dims: int) -> tuple[int, ...]:
        """The first member's measure that is not the plain total, else the total."""
        return next((w for w in (m.measure(dims) for m in self.members) if len(set(w)) > 1), (1,) * dims)

    def allows(self, before, after):
        before, after = _pair(before, after)
        ok = np.zeros(len(before), dtype=bool)
        for member in self.members:
            ok |= member.allows(before, after)
        return ok

    def words(self) -> str:
        return "; or ".join(m.words() for m in self.members)

    def to_record(self) -> dict:
        return {"kind": "AnyOf", "members": [m.to_record() for m in self.members]}


_KINDS = {cls.__name__: cls for cls in (Steps, ProgressionSteps, PowerSteps, TakeFromSome, ChompBite, EuclidMultiples,
                                        TakeAndBreak, TakeUpTo, TakeBoth, GrowingTake, PokerMoves, CoinSlides,
                                        CornerTurns, AnyOf)}


def relation_from_record(record: dict) -> MoveRelation:
    """The relation a ``to_record()`` dict describes (kinds and fields checked against a whitelist).

    Examples
    --------
    >>> relation_from_record(take_from_one(2).to_record()) == take_from_one(2)
    True
    """
    try:
        cls = _KINDS[record["kind"]]
        if cls is AnyOf:
            return AnyOf(tuple(relation_from_record(m) for m in record["members"]))
        fields = {k: v for k, v in record.items() if k != "kind"}
        known = set(cls.__dataclass_fields__)
        if not set(fields) <= known:
            raise ValueError(f"unknown fields {sorted(set(fields) - known)} for {cls.__name__}")
        return cls(**{k: tuple(map(tuple, v)) if k == "vectors" else tuple(v) if isinstance(v, list) else v
                      for k, v in fields.items()})
    except (KeyError, TypeError) as err:
        raise ValueError(f"not a move relation record: {record!r} ({err}); kinds: {', '.join(_KINDS)}") from None
