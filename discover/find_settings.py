"""``FindSettings``: every setting of one ``find_rule`` run, checked once, in the manner of OpenSpiel's
AlphaZero ``Config`` (one frozen record passed down instead of a long argument list).

A setting left out takes its road's default from ``discover.defaults`` when the settings are made (``games``,
``min_accuracy``, ``proof_seconds``) or when the road runs (``engines``, ``heaps``, ``seconds``): defaults are
named there only.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, fields

from cgbase.validation import nonnegative_int, positive_int
from discover import defaults

__all__ = ["FindSettings"]


@dataclass(frozen=True)
class FindSettings:
    """What ``find_rule`` does, apart from the game, a given table and the progress callback.

    Every field is checked when the settings are made (a ``ValueError`` naming the field and what it takes).

    Parameters
    ----------
    bound : int, optional
        Training bound (default: ``discover.bounds.default_bound(game)``, at most 30 per coordinate).
    verify_bound : int, optional
        Bound of the verification (default: ten times the training bound, within budget).
    engines : tuple of str, optional
        Engine names in the order to try (default: ``discover.defaults.ENGINES.engines``); unknown names and engines
        whose backend is missing are refused here.
    seed : int
        Seed of every random choice.
    games : int, optional
        Self-play games per opponent (default ``defaults.ENGINES.games``).
    min_accuracy : float, optional
        Verify candidates at least this accurate on the (weighted) training table, in (0.5, 1] (default
        ``defaults.ENGINES.min_accuracy``).
    heaps : int, optional
        Budget of the take-and-break engine and of the misère quotients: at most this many heaps (default: the
        road's, ``defaults.TAKE_AND_BREAK``, ``defaults.QUOTIENT``).
    seconds : float, optional
        The whole run's time budget, on every road (default: the road's, ``defaults.road_seconds``).
    strategy : bool
        Look for a winning-move strategy of a verified P rule.
    prove : bool
        Try to prove a verified rule for every position.
    proof_seconds : float, optional
        z3's time budget for the proof (positive; default ``defaults.ENGINES.proof_seconds``).
    infer_relation : bool
        A custom game stating no move relation gets one inferred from its ``moves()`` on the verification box
        (``discover.relation_inference``), for the strategy and the proof.

    Examples
    --------
    >>> FindSettings(bound=20, engines=["sequence"]).engines
    ('sequence',)
    >>> FindSettings(min_accuracy=0.4)
    Traceback (most recent call last):
    ...
    ValueError: min_accuracy must be in (0.5, 1], got 0.4
    """

    bound: int | None = None
    verify_bound: int | None = None
    engines: tuple[str, ...] | None = None
    seed: int = 0
    games: int | None = None
    min_accuracy: float | None = None
    heaps: int | None = None
    seconds: float | None = None
    strategy: bool = True
    prove: bool = True
    proof_seconds: float | None = None
    infer_relation: bool = True

    def __post_init__(self):
        def put(name, value):
            object.__setattr__(self, name, value)

        for name in ("games", "min_accuracy", "proof_seconds"):  # read when made: a changed default is seen here
            if getattr(self, name) is None:
                put(name, getattr(defaults.ENGINES, name))

        if self.bound is not None:
            put("bound", positive_int(self.bound, "bound"))
        if self.verify_bound is not None:
            put("verify_bound", positive_int(self.verify_bound, "verify_bound"))
        put("seed", nonnegative_int(self.seed, "seed"))
        put("games", nonnegative_int(self.games, "games"))
        if self.heaps is not None:
            put("heaps", positive_int(self.heaps, "heaps"))
        if self.seconds is not None and not _positive_number(self.seconds):
            raise ValueError(f"seconds must be a positive number, got {self.seconds!r}")
        if not (isinstance(self.min_accuracy, numbers.Real) and 0.5 < self.min_accuracy <= 1.0):
            raise ValueError(f"min_accuracy must be in (0.5, 1], got {self.min_accuracy}")
        if not _positive_number(self.proof_seconds):
            raise ValueError(f"proof_seconds must be positive, got {self.proof_seconds}")
        for name in ("strategy", "prove", "infer_relation"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.engines is not None:
            from discover.engines import make_engine

            if isinstance(self.engines, str):
                raise ValueError(f"engines must be a list of engine names, got the text {self.engines!r}: "
                                 f"write [{self.engines!r}]")
            put("engines", tuple(self.engines) or None)
            for name in self.engines or ():
                make_engine(name, self.seed)  # unknown names and missing backends fail here, before any work

    @classmethod
    def resolve(cls, settings: FindSettings | None, **keywords) -> FindSettings:
        """``settings`` when given (every keyword then keeps its default), else the settings the keywords make.

        Examples
        --------
        >>> FindSettings.resolve(None, bound=12).bound
        12
        >>> FindSettings.resolve(FindSettings(bound=12), bound=20)
        Traceback (most recent call last):
        ...
        ValueError: give either settings= or the keywords bound, not both
        """
        if settings is None:
            return cls(**keywords)
        if not isinstance(settings, cls):
            raise TypeError(f"settings must be a {cls.__name__}, got {type(settings).__name__}")
        unset = {f.name: f.default for f in fields(cls)}
        changed = [name for name, value in keywords.items() if not _same(value, unset[name])]
        if changed:
            raise ValueError(f"give either settings= or the keywords {', '.join(changed)}, not both")
        return settings


def _same(value, default) -> bool:
    return value is default or (type(value) is type(default) and value == default)


def _positive_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value) and value > 0
