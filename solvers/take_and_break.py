"""Grundy values of one-heap take-and-break games to tens of millions of heaps, periods proved.

``grundy_sequence(game)`` computes G(0), G(1), ... for an octal game (any number of digits), a
hexadecimal game or Grundy's game, and watches for an eventual period while it computes: it
stops as soon as the periodicity theorem proves one (``solvers.periods.sequences``), or when its
budget of heaps or seconds is spent ("no period up to n = N").

Engines (``solvers.sparse_space``): moves that leave at most two heaps use the rare/common value
split, O(R + c) work per heap for R rare heaps (tens to hundreds in the published games, fixed
once the last rare heap is passed) and a scan of c common x common splits (tens to thousands, not
growing with n in the published games), so the run is about linear in the heap count; three-heap
moves use option bitsets, O(n W) word operations per heap n for values below 64 W (quadratic
overall, cubic where the values grow with n, as in the arithmetic-periodic 0.7F: 20,000 heaps
take minutes).  Memory is linear in the heap count: 2 bytes a value (plus 8 bytes a heap
for three-heap moves), and 2 bytes a heap for the period search.  ``plain_grundy_values`` is the
definition (the mex over every option, O(n) per heap), the reference the engine is checked against.

Examples
--------
>>> from games import make_game
>>> kayles = grundy_sequence(make_game("octal", code="0.77"))
>>> kayles.preperiod, kayles.period, kayles.proved
(71, 12, True)
>>> kayles.value([3, 1000]).tolist()  # G(1000) from the proved period
[3, 1]
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from cgbase.memory import check_memory
from games import Game
from solvers.periods.sequences import PeriodWatch
from solvers.sparse_space import (
    MASK,
    POSBIT,
    POSITION,
    RARE_COUNT,
    VALUE_LIMIT,
    bitset_chunk,
    new_sparse_state,
    plain_chunk,
    sparse_chunk,
)

__all__ = ["GrundySequence", "RareHeaps", "grundy_sequence", "next_chunk", "sparse_grundy_values",
           "plain_grundy_values", "take_and_break_rules"]

Progress = Callable[[int, float, "tuple[int, int] | None"], None]


def take_and_break_rules(game: Game) -> tuple[np.ndarray, bool]:
    """The digits d[0..t] of a game's code (trailing zeros dropped) and whether splits must be unequal.

    Bit 1 of d[k]: removing k tokens may leave nothing; bit 2: one heap; bit 4: two heaps;
    bit 8: three (the code notation of Guy and Smith [1]_).  Grundy's game is d = [4] with unequal splits.

    Parameters
    ----------
    game : Game
        An octal or hexadecimal game, or Grundy's game.

    Returns
    -------
    (digits, unequal) : (numpy.ndarray, bool)

    Raises
    ------
    ValueError
        If ``game`` is not a take-and-break game with a finite code.

    References
    ----------
    .. [1] R. K. Guy and C. A. B. Smith, "The G-values of various games", Proceedings of the
       Cambridge Philosophical Society 52 (1956), 514-526 (octal games; the periodicity theorem).

    Examples
    --------
    >>> from games import make_game
    >>> take_and_break_rules(make_game("octal", code="0.1370"))
    (array([0, 1, 3, 7]), False)
    >>> take_and_break_rules(make_game("grundy_game"))
    (array([4]), True)
    """
    code = game.take_and_break_code() if isinstance(game, Game) else None
    if code is None:
        raise ValueError(f"{game!r} is not a take-and-break game with a finite code; use an octal or "
                         f"hexadecimal game, or grundy_game")
    return code


def _shape(digits: np.ndarray) -> tuple[int, int]:
    """(t, j): the most tokens a move removes and the most heaps it leaves (at least 1)."""
    used = np.flatnonzero(digits)
    t = int(used[-1]) if used.size else 0
    bits = int(np.bitwise_or.reduce(digits))
    return t, 3 if bits & 8 else 2 if bits & 4 else 1


@dataclass(frozen=True, eq=False)
class RareHeaps:
    """The rare class of the sparse engine where it stopped (``solvers.sparse_space``).

    Heap n is rare when popcount(G(n) & mask), plus n + offset if ``heap_parity``, is even;
    ``heaps`` are the rare heap sizes in ascending order.
    """

    mask: int
    heap_parity: bool
    offset: int
    heaps: np.ndarray


@dataclass(frozen=True, eq=False)
class GrundySequence:
    """The Grundy values of a game's heaps, with the eventual period when one was found.

    Attributes
    ----------
    game : Game
    values : numpy.ndarray
        G(0), ..., G(heaps - 1) (uint16).
    preperiod, period : int or None
        n0 and p of the period (proved, or the current candidate when ``proved`` is False).
    proved : bool
        True when the periodicity theorem's hypothesis was checked on the computed values: then
        G(n + p) = G(n) holds for every n >= n0.
    hypothesis : tuple of int or None
        (first, last): G(n + p) = G(n) was checked for first <= n <= last.
    heaps : int
        Heaps computed (sizes 0 to heaps - 1).
    seconds : float
        Wall time of the computation.
    statement : str
        The outcome in one sentence.
    rare : RareHeaps or None
        The rare heaps of the value split (None for games with three-heap moves).
    """

    game: Game
    values: np.ndarray
    preperiod: int | None
    period: int | None
    proved: bool
    hypothesis: tuple[int, int] | None
    heaps: int
    seconds: float
    statement: str
    rare: RareHeaps | None = None

    @property
    def period_values(self) -> np.ndarray | None:
        """G(n0), ..., G(n0 + p - 1): one period of values."""
        if self.period is None:
            return None
        return self.values[self.preperiod:self.preperiod + self.period].copy()

    @property
    def exceptions(self) -> np.ndarray | None:
        """The heaps n < n0 whose value differs from the period continued backwards."""
        if self.period is None:
            return None
        n = np.arange(self.preperiod)
        pattern = self.period_values[(n - self.preperiod) % self.period]
        return n[self.values[: self.preperiod] != pattern]

    def value(self, heaps) -> np.ndarray:
        """G(n) for heap sizes n: from the proved period beyond the computed heaps.

        Raises ``ValueError`` for a heap beyond those computed when no period is proved."""
        n = np.asarray(heaps, dtype=np.int64)
        if (n < 0).any():
            raise ValueError(f"heap sizes must be >= 0, got {n[n < 0][0]}")
        if n.size and n.max() >= self.heaps:
            if not self.proved:
                raise ValueError(f"G({int(n.max())}) is beyond the {self.heaps:,} heaps computed and no "
                                 f"period is proved; compute more heaps")
            n = np.where(n >= self.preperiod, self.preperiod + (n - self.preperiod) % self.period, n)
        return self.values[n].astype(np.int64)


class _Engine:
    """The values and the arrays a kernel keeps between chunks; ``run(start, stop)`` extends the values."""

    bytes_per_heap = 2

    def __init__(self, digits: np.ndarray, unequal: bool, capacity: int):
        self.digits, self.unequal = digits, unequal
        self.values = np.zeros(capacity, dtype=np.uint16)

    def run(self, start: int, stop: int) -> None:
        if stop > self.values.size:
            self._grow(max(stop, 2 * self.values.size))
        n = start
        while n < stop:
            n = self._extend(n, stop)
            if n < stop and not self._make_room():
                raise ValueError(f"G({n}) reaches {VALUE_LIMIT}, beyond the values this engine stores")

    def _grow(self, capacity: int) -> None:
        self.values = np.concatenate([self.values, np.zeros(capacity - self.values.size, dtype=np.uint16)])

    def _extend(self, start: int, stop: int) -> int:
        raise NotImplementedError

    def _make_room(self) -> bool:
        return False

    def rare_heaps(self) -> RareHeaps | None:
        return None


class _SparseEngine(_Engine):
    """Moves that leave at most two heaps: the rare/common split."""

    def __init__(self, digits: np.ndarray, unequal: bool, capacity: int):
        super().__init__(digits, unequal, capacity)
        self.rare = np.zeros(1024, dtype=np.int64)
        self.counts = np.zeros(2 * VALUE_LIMIT, dtype=np.int64)
        self.seen = np.full(2 * VALUE_LIMIT, -1, dtype=np.int64)
        self.missing_flags = np.zeros(2 * VALUE_LIMIT, dtype=np.uint8)
        self.state = new_sparse_state(digits, unequal)

    def _extend(self, start: int, stop: int) -> int:
        need = int(self.state[RARE_COUNT]) + stop - start
        if need > self.rare.size:
            self.rare = np.concatenate([self.rare, np.zeros(max(need, 2 * self.rare.size) - self.rare.size,
                                                            dtype=np.int64)])
        return sparse_chunk(self.values, start, stop, self.digits, self.unequal, self.rare, self.counts, self.seen,
                            self.missing_flags, self.state)

    def rare_heaps(self) -> RareHeaps:
        state = self.state
        return RareHeaps(int(state[MASK]), bool(state[POSITION]), int(state[POSBIT]),
                         self.rare[: state[RARE_COUNT]].copy())


class _BitsetEngine(_Engine):
    """Moves that may leave three heaps: bitsets of the option values of two- and three-heap splits."""

    bytes_per_heap = 10  # the value and a one-word bitset; each widening doubles the bitset

    def __init__(self, digits: np.ndarray, unequal: bool, capacity: int):
        super().__init__(digits, unequal, capacity)
        self.pairs = np.zeros((capacity, 1), dtype=np.uint64)
        self.triples = np.zeros((digits.size, 1), dtype=np.uint64)
        self._scratch()

    def _scratch(self) -> None:
        width = self.pairs.shape[1]
        self.by_value = np.zeros((64 * width, width), dtype=np.uint64)
        self.used = np.zeros(64 * width, dtype=np.bool_)

    def _grow(self, capacity: int) -> None:
        super()._grow(capacity)
        more = np.zeros((capacity - self.pairs.shape[0], self.pairs.shape[1]), dtype=np.uint64)
        self.pairs = np.concatenate([self.pairs, more])

    def _extend(self, start: int, stop: int) -> int:
        return bitset_chunk(self.values, start, stop, self.digits, self.pairs, self.triples, self.by_value,
                            self.used)

    def _make_room(self) -> bool:
        """Twice as many words a bitset (the values so far leave the new words 0)."""
        width = 2 * self.pairs.shape[1]
        if 64 * width > VALUE_LIMIT:
            return False
        check_memory(8.0 * width * self.pairs.shape[0], "the three-heap option bitsets")
        self.pairs = np.pad(self.pairs, ((0, 0), (0, width // 2)))
        self.triples = np.pad(self.triples, ((0, 0), (0, width // 2)))
        self._scratch()
        return True


def _engine(digits: np.ndarray, unequal: bool, capacity: int) -> _Engine:
    three = bool(np.bitwise_or.reduce(digits) & 8)
    return (_BitsetEngine if three else _SparseEngine)(digits, unequal, capacity)


def _refuse_too_large(game: Game, heaps: int, bytes_per_heap: float) -> None:
    check_memory(bytes_per_heap * heaps, f"the Grundy values of {heaps:,} heaps of {game!r}")


def grundy_sequence(game: Game, heaps: int = 1 << 25, seconds: float = 540.0,
                    progress: Progress | None = None) -> GrundySequence:
    """Grundy values of one heap of ``game`` until a period is proved or the budget is spent.

    Parameters
    ----------
    game : Game
        An octal or hexadecimal game, or Grundy's game.
    heaps : int
        Compute at most this many heaps (sizes 0 to heaps - 1).
    seconds : float
        Stop computing after about this many seconds (the default ends within ten minutes).
    progress : callable, optional
        Called after each chunk as ``progress(heaps_done, heaps_per_second, candidate)`` with
        the current candidate (n0, p) or None.

    Returns
    -------
    GrundySequence
        The values computed, the period (proved, or the current candidate) and the outcome in one sentence.

    Raises
    ------
    ValueError
        If ``game`` is not a take-and-break game in normal play, ``heaps`` is not a positive integer, ``seconds`` is not
        positive, the values would not fit in memory, or a value outgrows the engine's storage.

    Notes
    -----
    A period (n0, p) is proved by the periodicity theorem of Guy and Smith [1]_ [2]_: for moves that
    remove at most t tokens and leave at most j heaps, G(n + p) = G(n) for n0 <= n <= j (n0 + p) + t - 1 - p
    gives it for every n >= n0 (``solvers.periods.sequences``).  Two-heap moves are computed with the
    rare/common value split of Gangolli and Plambeck [3]_, the method of Flammenkamp's tables [4]_
    (``solvers.sparse_space``).  No theorem covers Grundy's game: its periods are never proved.

    References
    ----------
    .. [1] R. K. Guy and C. A. B. Smith, "The G-values of various games", Proceedings of the
       Cambridge Philosophical Society 52 (1956), 514-526 (octal games; the periodicity theorem).
    .. [2] E. R. Berlekamp, J. H. Conway and R. K. Guy, *Winning Ways for your Mathematical Plays*,
       2nd ed., A K Peters, 2001, chapter 4.
    .. [3] A. Gangolli and T. Plambeck, "A note on periodicity in some octal games", International
       Journal of Game Theory 18 (1989), 311-320 (the rare/common value split, "sparse space").
    .. [4] A. Flammenkamp, "Sprague-Grundy values of octal games" (tables computed with the sparse space
       method), https://wwwhomes.uni-bielefeld.de/achim/octal.html

    Examples
    --------
    >>> from games import make_game
    >>> grundy_sequence(make_game("octal", code="0.16"), heaps=1000).statement
    'no period up to n = 999'
    """
    digits, unequal = take_and_break_rules(game)
    if game.misere:
        raise ValueError(f"{game!r} is played misère: Grundy values do not decide its sums; its misère quotient "
                         "does (discover.quotients)")
    heaps = _check_heaps(heaps)
    if not seconds > 0:
        raise ValueError(f"seconds must be positive, got {seconds!r}")
    engine = _engine(digits, unequal, min(heaps, 1 << 16))
    _refuse_too_large(game, heaps, engine.bytes_per_heap + 2)  # the period search: 4 bytes over half the heaps
    t, parts = _shape(digits)
    watch = PeriodWatch(t, parts, theorem_applies=not unequal)
    began = time.perf_counter()
    n, rate = 0, 0.0
    while n < heaps and not watch.proved:
        chunk = next_chunk(n, rate, seconds - (time.perf_counter() - began))
        stop = min(n + chunk, heaps, watch.next_stop(n) or heaps)
        tick = time.perf_counter()
        engine.run(n, stop)
        rate = (stop - n) / max(time.perf_counter() - tick, 1e-9)
        n = stop
        watch.check(engine.values, n)
        if progress is not None:
            progress(n, n / max(time.perf_counter() - began, 1e-9), watch.candidate)
        if time.perf_counter() - began >= seconds:
            break
    elapsed = time.perf_counter() - began
    return GrundySequence(game, engine.values[:n].copy(), watch.preperiod, watch.period, watch.proved,
                          watch.hypothesis, n, elapsed, _statement(watch, n, unequal), engine.rare_heaps())


def next_chunk(n: int, rate: float, left: float) -> int:
    """Heaps to compute next after ``n``: a sixteenth of those done (1,024 at first), at most about a second's worth
    at the last chunk's ``rate`` (heaps a second), and no more than the ``left`` seconds allow, so that a slow game
    (three-heap moves cost O(n^2) a heap) ends within its budget.

    Examples
    --------
    >>> next_chunk(0, 0.0, 10.0), next_chunk(1 << 20, 1e9, 10.0), next_chunk(20_000, 90.0, 0.5)
    (1024, 65536, 45)
    """
    chunk = max(1024, n // 16)
    if rate:
        chunk = min(chunk, max(16, int(rate)), max(1, int(rate * left)))
    return chunk


def _check_heaps(heaps) -> int:
    if isinstance(heaps, bool) or not isinstance(heaps, (int, np.integer)) or heaps < 1:
        raise ValueError(f"heaps must be a positive integer, got {heaps!r}")
    return int(heaps)


def _statement(watch: PeriodWatch, n: int, unequal: bool) -> str:
    if watch.proved:
        first, last = watch.hypothesis
        theorem = "Guy and Smith" + ("; its three-heap form" if watch.parts == 3 else "")
        return (f"period {watch.period:,} from n = {watch.preperiod:,}, proved for every heap: G(n + "
                f"{watch.period:,}) = G(n) checked for {first:,} <= n <= {last:,}, and the periodicity theorem "
                f"({theorem}) extends it")
    text = f"no period up to n = {n - 1:,}"
    if watch.period is not None:
        needs = f"the theorem needs values up to n = {watch.end:,}" if not unequal else "no theorem applies"
        text += f" (candidate: period {watch.period:,} from n = {watch.preperiod:,}; {needs})"
    if unequal:
        text += "; no periodicity theorem covers Grundy's game (equal splits are forbidden)"
    return text


def sparse_grundy_values(game: Game, heaps: int) -> np.ndarray:
    """G(0), ..., G(heaps - 1) by the engine of ``grundy_sequence``, with no period search.

    Parameters
    ----------
    game : Game
        An octal or hexadecimal game, or Grundy's game.
    heaps : int
        How many heaps (sizes 0 to heaps - 1).

    Returns
    -------
    numpy.ndarray
        The values (uint16).

    Raises
    ------
    ValueError
        If ``game`` is not a take-and-break game, ``heaps`` is not a positive integer, the values would not
        fit in memory, or a value outgrows the engine's storage.

    References
    ----------
    .. [1] A. Gangolli and T. Plambeck, "A note on periodicity in some octal games", International
       Journal of Game Theory 18 (1989), 311-320 (the rare/common value split, "sparse space").
    .. [2] A. Flammenkamp, "Sprague-Grundy values of octal games" (tables computed with the sparse space
       method), https://wwwhomes.uni-bielefeld.de/achim/octal.html

    Examples
    --------
    >>> from games import make_game
    >>> sparse_grundy_values(make_game("octal", code="0.77"), 12).tolist()
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    """
    digits, unequal = take_and_break_rules(game)
    heaps = _check_heaps(heaps)
    engine = _engine(digits, unequal, min(heaps, 1 << 16))
    _refuse_too_large(game, heaps, engine.bytes_per_heap)
    engine.run(0, heaps)
    return engine.values[:heaps]


def plain_grundy_values(game: Game, heaps: int, known=None) -> np.ndarray:
    """G(0), ..., G(heaps - 1) by the definition: the mex over every option of every heap.

    O(n) work per heap for two-heap moves (O(n^2) for three-heap moves): the reference the
    sparse engine is checked and benchmarked against.  ``known`` (the values of the first
    heaps, computed before) makes it start after them.

    Parameters
    ----------
    game : Game
        An octal or hexadecimal game, or Grundy's game.
    heaps : int
        How many heaps (sizes 0 to heaps - 1).
    known : array of int, optional
        G(0), G(1), ... computed before.

    Returns
    -------
    numpy.ndarray
        The values (uint16).

    Raises
    ------
    ValueError
        If ``game`` is not a take-and-break game, ``heaps`` is not a positive integer, the values would not
        fit in memory, or a value reaches the engine's ``VALUE_LIMIT``.

    References
    ----------
    .. [1] R. P. Sprague, "Über mathematische Kampfspiele", Tôhoku Mathematical Journal 41 (1935),
       438-444.
    .. [2] P. M. Grundy, "Mathematics and games", Eureka 2 (1939), 6-8.
    .. [3] R. K. Guy and C. A. B. Smith, "The G-values of various games", Proceedings of the
       Cambridge Philosophical Society 52 (1956), 514-526 (octal games; the periodicity theorem).

    Examples
    --------
    >>> from games import make_game
    >>> plain_grundy_values(make_game("octal", code="0.07"), 12).tolist()
    [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3]
    """
    digits, unequal = take_and_break_rules(game)
    heaps = _check_heaps(heaps)
    _refuse_too_large(game, heaps, 2)
    values = np.zeros(heaps, dtype=np.uint16)
    start = 0
    if known is not None:
        start = min(len(known), heaps)
        values[:start] = np.asarray(known)[:start]
    stop = plain_chunk(values, start, heaps, digits, unequal)
    if stop < heaps:
        raise ValueError(f"G({stop}) reaches {VALUE_LIMIT}, beyond the values this engine stores")
    return values
