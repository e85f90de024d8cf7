"""Periodicity of one-heap games: the theorems that prove an eventual period for every heap size.

Two theorems turn a period checked on finitely many values (found by
``discover.engines.periodic.find_periods``) into a statement about every heap size, each with its
hypothesis checked by code on the computed values:

- the periodicity theorem of Guy and Smith for octal games (``octal_periodicity_proof``);
- for subtraction games, a repeated window of max(S) values (``subtraction_periodicity_proof``).

A game says which applies through its ``period_theorem`` and ``removal_limit`` (``periodicity_proof``).

Verification (``discover.verify``) and ``prove_rule`` use them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.eventual_period import hypothesis_end

__all__ = ["PeriodicityProof", "periodicity_proof", "octal_periodicity_proof", "subtraction_periodicity_proof"]


# -- finding periods ---------------------------------------------------------------------


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


def octal_periodicity_proof(t: int, n0: int, p: int, values) -> PeriodicityProof:
    """The periodicity theorem (Guy and Smith, 1956) applied to checked Grundy values.

    For an octal game 0.d1...dt (at most t tokens removed per move): if G(n + p) = G(n) for
    all n with n0 <= n < 2 n0 + p + t, then G(n + p) = G(n) for every n >= n0.  ``values`` are
    G(0), G(1), ...; the theorem needs them up to n = 2 n0 + 2p + t - 1.

    Examples
    --------
    >>> kayles_like = [0] * 200
    >>> octal_periodicity_proof(2, 0, 1, kayles_like).proven
    True
    >>> octal_periodicity_proof(2, 71, 12, kayles_like[:100]).proven
    False

    Source: Berlekamp, Conway and Guy, *Winning Ways*, chapter 4 (the periodicity theorem).
    """
    t, n0, p = int(t), int(n0), int(p)
    if t < 1 or n0 < 0 or p < 1:
        raise ValueError(f"need t >= 1, n0 >= 0, p >= 1; got t={t}, n0={n0}, p={p}")
    needed = hypothesis_end(n0, p, t, parts=2) + 1  # n0 = 0 counts as 1 (0.04: G = 0 up to 3, G(4) = 1)
    stop = needed - p
    checked = len(values)
    if checked < needed:
        return PeriodicityProof(
            False, needed, checked,
            f"the theorem needs G(n) up to n = {needed - 1}; only {checked} values were checked",
        )
    first = _repeats(values, n0, p, stop)
    if first is not None:
        return PeriodicityProof(
            False, needed, checked, f"G({first + p}) != G({first}): the period {p} from n = {n0} does not hold"
        )
    return PeriodicityProof(
        True, needed, checked,
        f"G(n + {p}) = G(n) checked for {n0} <= n < {stop} = 2·{max(n0, 1)} + {p} + {t}, so by the periodicity "
        f"theorem (Guy and Smith) it holds for every n >= {n0}",
    )


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
    theorem = {"octal": octal_periodicity_proof, "subtraction": subtraction_periodicity_proof}.get(game.period_theorem)
    if theorem is None or (game.period_theorem == "octal" and not grundy):
        return None
    return theorem(game.removal_limit, start, period, values)
