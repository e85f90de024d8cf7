"""``RunSettings``: the settings of one AlphaZero fit, as one frozen record checked once, in the manner of
OpenSpiel's ``alpha_zero`` ``Config``; ``learners.alphazero.run.Run`` takes it instead of a long argument list.
"""

from __future__ import annotations

from dataclasses import dataclass

from cgbase.validation import at_most, nonnegative_int, positive_int

__all__ = ["RunSettings"]


@dataclass(frozen=True)
class RunSettings:
    """What one fit plays and scores (see ``AlphaZeroLearner.fit``); every field is checked when made.

    Parameters
    ----------
    games_per_iteration : int
        Self-play games per iteration.
    simulations : int
        Search simulations per move.
    bound : int, optional
        Integer games: every coordinate in [0, bound] (default: the start's largest coordinate).
    start : tuple, "start", "random" or None
        Where games start (None: the empty board of a board game, a random position of an integer game).
    eval_every : int
        Iterations between scorings.
    eval_games : int
        Games per scoring match.
    eval_simulations : int, optional
        Simulations of the scored player (default ``simulations``; 0 scores the policy head alone).
    random_openings : int
        Each self-play game first makes a uniform number in [0, random_openings] of random moves.
    shards : int, optional
        Self-play games of an iteration played in this many parts, each with its own generator.

    Examples
    --------
    >>> RunSettings(games_per_iteration=8, simulations=16).eval_simulations
    16
    >>> RunSettings(games_per_iteration=8, simulations=0)
    Traceback (most recent call last):
    ...
    ValueError: simulations must be a positive integer, got 0
    """

    games_per_iteration: int
    simulations: int
    bound: int | None = None
    start: object = None
    eval_every: int = 1
    eval_games: int = 100
    eval_simulations: int | None = None
    random_openings: int = 0
    shards: int | None = None

    def __post_init__(self):
        def put(name, check):
            object.__setattr__(self, name, check(getattr(self, name), name))

        for name in ("games_per_iteration", "simulations", "eval_every", "eval_games"):
            put(name, positive_int)
        put("random_openings", nonnegative_int)
        for name in ("bound", "shards"):
            if getattr(self, name) is not None:
                put(name, positive_int)
        if self.shards is not None:
            at_most(self.shards, "shards", self.games_per_iteration, "each shard plays at least one of an iteration's games")
        if self.eval_simulations is None:
            object.__setattr__(self, "eval_simulations", self.simulations)
        put("eval_simulations", nonnegative_int)
        if isinstance(self.start, str) and self.start not in ("start", "random"):
            raise ValueError(f"unknown start {self.start!r}: use 'random', a position tuple, or None")
