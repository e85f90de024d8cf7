"""Periodicity of one-heap games: the theorems that prove an eventual period for every heap size.

Two theorems turn a period checked on finitely many values (found by
``discover.engines.periodic.find_periods``) into a statement about every heap size, each with its
hypothesis checked by code on the computed values:

- the periodicity theorem of Guy and Smith for octal games, and its form for moves that leave up
  to three heaps (hexadecimal games): ``octal_periodicity_proof``, and ``take_and_break_proof``,
  which reads t and j from the game's code;
- for subtraction games, a repeated window of max(S) values (``subtraction_periodicity_proof``).

A game says which applies through its ``period_theorem`` and ``removal_limit`` (``periodicity_proof``).

Verification (``discover.verify``) and ``prove_rule`` use them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.eventual_period import hypothesis_end
from solvers.take_and_break import take_and_break_rules

__all__ = ["PeriodicityProof", "periodicity_proof", "octal_periodicity_proof", "take_and_break_proof",
           "subtraction_periodicity_proof"]


@dataclass(frozen=True)
class PeriodicityProof:
    """Whether a checked period is proved for every heap size, and why."""

    proven: bool
    needed: int  # values y[0..needed-1] the theorem needs checked
    checked: int  # values available
    reason: str

    def __bool__(self) -> bool:
        return self.proven


def _repeats(values, start: int, period: int, stop: int, saltus: int = 0) -> int | None:
    """First n in [start, stop) with values[n + period] != values[n] + saltus, else None."""
    y = np.asarray(values).astype(np.int64)
    d = y[start + period : stop + period] - y[start:stop]
    bad = np.flatnonzero(d != saltus)
    return int(start + bad[0]) if bad.size else None


def octal_periodicity_proof(t: int, n0: int, p: int, values, parts: int = 2) -> PeriodicityProof:
    """The periodicity theorem (Guy and Smith, 1956) applied to checked Grundy values.

    For an octal game 0.d1...dt (at most t tokens removed per move): if G(n + p) = G(n) for
    all n with n0 <= n < 2 n0 + p + t, then G(n + p) = G(n) for every n >= n0.  ``values`` are
    G(0), G(1), ...; the theorem needs them up to n = 2 n0 + 2p + t - 1 (n0 = 0 counts as 1).
    Moves that leave at most ``parts`` = j heaps need them up to j (n0 + p) + t - 1 (j = 3:
    hexadecimal games; j = 1: no move splits a heap).

    Examples
    --------
    >>> kayles_like = [0] * 200
    >>> octal_periodicity_proof(2, 0, 1, kayles_like).proven
    True
    >>> octal_periodicity_proof(2, 71, 12, kayles_like[:100]).proven
    False

    Source: Berlekamp, Conway and Guy, *Winning Ways*, chapter 4 (the periodicity theorem).
    """
    t, n0, p, parts = int(t), int(n0), int(p), int(parts)
    if t < 0 or n0 < 0 or p < 1 or parts not in (1, 2, 3):
        raise ValueError(f"need t >= 0, n0 >= 0, p >= 1 and parts in 1, 2, 3; got t={t}, n0={n0}, p={p}, "
                         f"parts={parts}")
    needed = hypothesis_end(n0, p, t, parts) + 1  # n0 = 0 counts as 1 (0.04: G = 0 up to 3, G(4) = 1)
    stop = needed - p
    checked = len(values)
    if checked < needed:
        return PeriodicityProof(
            False, needed, checked,
            f"the theorem needs G(n) up to n = {needed - 1:,}; only {checked:,} values were checked",
        )
    first = _repeats(values, n0, p, stop)
    if first is not None:
        return PeriodicityProof(
            False, needed, checked, f"G({first + p}) != G({first}): the period {p} from n = {n0} does not hold"
        )
    bound = f"2·{max(n0, 1):,} + {p:,} + {t}" if parts == 2 else f"{parts}·({max(n0, 1):,} + {p:,}) + {t} - {p:,}"
    form = "" if parts == 2 else f", for moves leaving at most {parts} heap{'s' if parts > 1 else ''}"
    return PeriodicityProof(
        True, needed, checked,
        f"G(n + {p:,}) = G(n) checked for {n0:,} <= n < {stop:,} = {bound}, so by the periodicity "
        f"theorem (Guy and Smith{form}) it holds for every n >= {n0:,}",
    )


def take_and_break_proof(game, n0: int, p: int, values) -> PeriodicityProof | None:
    """The periodicity theorem for an octal or hexadecimal game, with t and j read from its code.

    t is the most tokens a move removes and j the most heaps a move leaves (the fewer, the fewer
    values the theorem needs; ``solvers.take_and_break`` stops at the same heap).  None for
    Grundy's game, which no periodicity theorem covers (equal splits are forbidden).

    Examples
    --------
    >>> from games import make_game
    >>> from solvers.take_and_break import plain_grundy_values
    >>> kayles = make_game("octal", code="0.77")
    >>> take_and_break_proof(kayles, 71, 12, plain_grundy_values(kayles, 168)).proven
    True
    >>> take_and_break_proof(make_game("grundy_game"), 0, 1, [0] * 10) is None
    True
    """
    digits, unequal = take_and_break_rules(game)
    if unequal:
        return None
    bits = int(np.bitwise_or.reduce(digits))
    parts = 3 if bits & 8 else 2 if bits & 4 else 1
    return octal_periodicity_proof(digits.size - 1, n0, p, values, parts)


def subtraction_periodicity_proof(s_max: int, n0: int, p: int, values) -> PeriodicityProof:
    """Periodicity of a subtraction game's values (Grundy values or P/N outcomes).

    The value at n depends only on the s_max values before it, so if
    y(n + p) = y(n) for s_max consecutive n >= n0, it holds for every n >= n0.

    >>> subtraction_periodicity_proof(3, 0, 4, [1, 0, 0, 0] * 3).proven
    True
    """
    s_max, n0, p = int(s_max), int(n0), int(p)
    if s_max < 1 or n0 < 0 or p < 1:
        raise ValueError(f"need s_max >= 1, n0 >= 0, p >= 1; got s_max={s_max}, n0={n0}, p={p}")
    stop = n0 + s_max
    needed = stop + p
    checked = len(values)
    if checked < needed:
        return PeriodicityProof(
            False, needed, checked, f"the proof needs values up to n = {needed - 1}; only {checked} were checked"
        )
    first = _repeats(values, n0, p, stop)
    if first is not None:
        return PeriodicityProof(False, needed, checked, f"y({first + p}) != y({first})")
    return PeriodicityProof(
        True, needed, checked,
        f"y(n + {p}) = y(n) for the {s_max} consecutive n from {n0}, and each value depends only on the "
        f"{s_max} before it, so the period holds for every n >= {n0}",
    )


def periodicity_proof(game, start: int, period: int, values, grundy: bool = True) -> PeriodicityProof | None:
    """The theorem the game declares (``game.period_theorem``) applied to its values (Grundy values, or
    with ``grundy=False`` P/N outcomes); None when no theorem applies.

    The octal theorem speaks of Grundy values only; a subtraction game's P/N outcomes, like its Grundy
    values, depend only on the max(S) values before them.

    Examples
    --------
    >>> from games import make_game
    >>> periodicity_proof(make_game("subtraction", subtract=(1, 2, 3)), 0, 4, [0, 1, 2, 3] * 4).proven
    True
    >>> periodicity_proof(make_game("nim", heaps=1), 0, 1, [0] * 9) is None
    True
    """
    if game.period_theorem == "octal":
        return take_and_break_proof(game, start, period, values) if grundy else None
    if game.period_theorem == "subtraction":
        return subtraction_periodicity_proof(game.removal_limit, start, period, values)
    return None
