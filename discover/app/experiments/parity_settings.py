"""``ParitySettings``: the budget of the parity experiment (``discover.app.experiments.parity``), checked once when made."""

from __future__ import annotations

from dataclasses import dataclass, field

from cgbase.validation import nonnegative_int, positive_int
from discover import defaults
from learners.alphazero.guide import GuideSettings

__all__ = ["ParitySettings"]

ARMS = ("alone", "guided")


@dataclass(frozen=True)
class ParitySettings:
    """What the parity experiment trains, discovers and scores.

    Parameters
    ----------
    heaps : int
        Heaps of the Nim game AlphaZero learns (the Zhou-Riis setting: 5 learnt, 6 slow, 7 at random level).
    start : tuple of int, optional
        The start (default 1, 3, 5, ..., 2 heaps - 1, the paper's); the solver scores every position reachable
        from it.
    iterations, games_per_iteration, simulations : int
        AlphaZero's rounds, self-play games a round and search simulations a move, on ``heaps`` heaps.
    eval_every, eval_games : int
        Rounds between scorings; games a scoring match.
    random_openings : int
        Self-play games begin with up to this many random moves (as ``reports/nim-heaps5-alphazero/``).
    hidden : tuple of int
        Hidden layer widths of the policy-value network.
    seeds : tuple of int
        One run of each arm per seed.
    arms : tuple of str
        "alone" (AlphaZero unguided) and "guided" (with the rule discovered on ``rule_heaps`` heaps).
    rule_heaps, rule_bound, rule_games : int
        The discovery stage's board: AlphaZero (same hyperparameters) learns Nim with ``rule_heaps`` heaps of at
        most ``rule_bound`` from random positions for ``rule_games`` self-play games, and its value table is
        thresholded at ``confidence``.
    confidence : float
        The value a position's learned value must reach (in absolute value) to be labelled, in (0, 1).
    guide : GuideSettings
        The rule's limit, steepness, threshold and scoring games (``learners.alphazero.guide``).
    opening_positions : int
        Positions reached by random openings from the start, each played against the perfect player in both seats
        at the end.
    sample_positions : int
        Where the box below the start is too large to solve (``discover.app.experiments.parity.is_exact``): the
        positions of the seeded sample, stratified by total, the measures are estimated on.

    Examples
    --------
    >>> ParitySettings(heaps=5).start
    (1, 3, 5, 7, 9)
    >>> ParitySettings(arms=("alone", "guided", "other"))
    Traceback (most recent call last):
    ...
    ValueError: unknown arm 'other': use alone, guided
    """

    heaps: int = 7
    start: tuple | None = None
    iterations: int = 150
    games_per_iteration: int = 64
    simulations: int = 30
    eval_every: int = 10
    eval_games: int = 100
    random_openings: int = 6
    hidden: tuple = (64, 64)
    seeds: tuple = (0,)
    arms: tuple = ARMS
    rule_heaps: int = 3
    rule_bound: int = 7
    rule_games: int = 3840
    confidence: float = field(default_factory=lambda: defaults.ENGINES.confidence)
    guide: GuideSettings = field(default_factory=GuideSettings)
    opening_positions: int = 100
    sample_positions: int = 20_000

    def __post_init__(self):
        def put(name, value):
            object.__setattr__(self, name, value)

        for name in ("heaps", "iterations", "games_per_iteration", "simulations", "eval_every", "eval_games",
                     "rule_heaps", "rule_bound", "rule_games", "opening_positions", "sample_positions"):
            put(name, positive_int(getattr(self, name), name))
        put("random_openings", nonnegative_int(self.random_openings, "random_openings"))
        if self.heaps < 2 or self.rule_heaps < 2:
            raise ValueError(f"heaps and rule_heaps must be at least 2, got {self.heaps} and {self.rule_heaps}")
        start = tuple(range(1, 2 * self.heaps, 2)) if self.start is None else tuple(self.start)
        if len(start) != self.heaps:
            raise ValueError(f"start {start} must give {self.heaps} heap sizes, one a heap")
        put("start", tuple(positive_int(x, "a start heap") for x in start))
        put("hidden", tuple(positive_int(h, "a hidden width") for h in self.hidden))
        put("seeds", tuple(nonnegative_int(s, "a seed") for s in self.seeds))
        if not self.seeds:
            raise ValueError("seeds must name at least one seed, such as (0,)")
        for arm in self.arms:
            if arm not in ARMS:
                raise ValueError(f"unknown arm {arm!r}: use {', '.join(ARMS)}")
        if not self.arms or len(set(self.arms)) != len(self.arms):
            raise ValueError(f"arms must name each of {', '.join(ARMS)} at most once, got {self.arms}")
        if not 0 < float(self.confidence) < 1:
            raise ValueError(f"confidence must lie in (0, 1), got {self.confidence}")
        if not isinstance(self.guide, GuideSettings):
            raise TypeError(f"guide must be a GuideSettings, got {type(self.guide).__name__}")

    def fit(self) -> dict:
        """The keywords of ``AlphaZeroLearner.fit`` on ``heaps`` heaps."""
        return {"start": self.start, "bound": max(self.start), "iterations": self.iterations,
                "games_per_iteration": self.games_per_iteration, "simulations": self.simulations,
                "eval_every": self.eval_every, "eval_games": self.eval_games, "random_openings": self.random_openings}

    def to_record(self) -> dict:
        """The settings as JSON-ready values."""
        record = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "guide"}
        record = {k: list(v) if isinstance(v, tuple) else v for k, v in record.items()}
        return {**record, "guide": {k: getattr(self.guide, k) for k in self.guide.__dataclass_fields__}}
