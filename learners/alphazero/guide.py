"""A rule guiding AlphaZero's search: the HQN paper's model biasing the agent's moves, with a formula as the model.

A *rule* is a predicate over positions, true where it calls a position P (lost for the player to move).
``RuleGuide`` mixes the rule's winning moves (the options it calls P) into the prior of every position the search
expands::

    P'(s, a) = (1 - w) P(s, a) + w [option a is P] / (number of options the rule calls P)

(unchanged where the rule calls no option P). The weight ``w`` is the HQN paper's confidence in its model, a
logistic in the model's score, ``w = limit / (1 + exp(-steepness (score - threshold)))``. The score is measured on
the learner's own experience, never by a solver: after each iteration's self-play the rule's agent (a move into a
position the rule calls P where there is one, else a random move) plays ``games`` games against the learner's
policy head from that iteration's starts, half in each seat; every game the rule says its agent wins (first from
a position it calls N, second from one it calls P) counts, and the score is the lower end of the 95% Wilson
interval of the share of those it won, over all iterations so far. So a rule gains weight only as its agent backs
it by winning, and a rule that loses where it claims a win loses it.

``GuidedEvaluator`` is the network with the rule's prior, as a search's evaluator (``learners.alphazero.mcts``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from cgbase.validation import positive_int
from learners.alphazero.play import PolicyMover, play_games, segment_pick
from learners.options import option_offsets, options_block

__all__ = ["GuideSettings", "RuleGuide", "RuleMover", "GuidedEvaluator"]

FLOOR = 1e-12  # smallest prior kept before the logarithm (a prior of 0 would be a logit of -inf)


@dataclass(frozen=True)
class GuideSettings:
    """How much a rule may steer the search, and how its score is measured (see the module docstring).

    Parameters
    ----------
    limit : float
        Most weight of the rule in the prior, in (0, 1] (the HQN paper's limit on its model's confidence, which
        keeps the agent learning on its own).
    steepness : float
        How fast the weight rises with the score (positive).
    threshold : float
        The score, in [0, 1], at which the weight is half the limit.
    games : int
        Games an iteration between the rule's agent and the learner's policy head.

    Examples
    --------
    >>> GuideSettings().limit
    0.8
    >>> GuideSettings(limit=1.5)
    Traceback (most recent call last):
    ...
    ValueError: limit must lie in (0, 1], got 1.5: it is the largest share of the prior the rule may take
    """

    limit: float = 0.8
    steepness: float = 20.0
    threshold: float = 0.9
    games: int = 64

    def __post_init__(self):
        if not 0 < float(self.limit) <= 1:
            raise ValueError(f"limit must lie in (0, 1], got {self.limit}: it is the largest share of the prior the "
                             "rule may take")
        if not float(self.steepness) > 0 or not math.isfinite(float(self.steepness)):
            raise ValueError(f"steepness must be a positive number, got {self.steepness}")
        if not 0 <= float(self.threshold) <= 1:
            raise ValueError(f"threshold must lie in [0, 1], got {self.threshold}: it is a score")
        object.__setattr__(self, "games", positive_int(self.games, "games"))


class RuleMover:
    """A move into a position the rule calls P where there is one, else a random move (ties at random)."""

    name = "rule"

    def __init__(self, game, cold):
        self.game, self.cold = game, cold

    def choose(self, positions, ply, rng):
        counts, options = options_block(self.game, positions)
        pick = segment_pick(counts, np.asarray(self.cold(options), dtype=float), rng)
        return options[option_offsets(counts) + pick]


class GuidedEvaluator:
    """A search's evaluator (``evaluate(leaves, options)``): ``evaluator``'s values, its priors mixed with the rule's
    winning moves at weight ``weight``."""

    def __init__(self, evaluator, guide: "RuleGuide", game, weight: float):
        self.evaluator, self.guide, self.game, self.weight = evaluator, guide, game, float(weight)

    def evaluate(self, leaves, options):
        v, logits, q0 = self.evaluator.evaluate(leaves, options)
        counts = options_block(self.game, leaves)[0]
        return v, self.guide.prior(counts, options, logits, self.weight), q0


class RuleGuide:
    """A rule as a guide of the search, with its running score (see the module docstring).

    Parameters
    ----------
    cold : callable
        Maps an (n, dims) array of positions to n booleans, true where the rule calls the position P.
    settings : GuideSettings, optional
    name : str
        The rule's text (recorded with a run).

    Examples
    --------
    >>> guide = RuleGuide(lambda p: np.bitwise_xor.reduce(p, axis=1) == 0, name="xor = 0")
    >>> guide.weight < 1e-6  # no games yet: no confidence
    True
    >>> options = np.array([[0, 1], [1, 0], [1, 1]])  # the three options of (1, 2) in 2-heap Nim
    >>> prior = np.exp(guide.prior(np.array([3]), options, np.zeros(3), weight=0.6))
    >>> prior.round(3).tolist()  # (1, 1) is P: 0.4 / 3 + 0.6
    [0.133, 0.133, 0.733]
    """

    def __init__(self, cold, settings: GuideSettings | None = None, name: str = "rule"):
        if not callable(cold):
            raise TypeError(f"cold must be a function of positions, got {type(cold).__name__}")
        self.settings = GuideSettings() if settings is None else settings
        if not isinstance(self.settings, GuideSettings):
            raise TypeError(f"settings must be a GuideSettings, got {type(self.settings).__name__}")
        self.cold, self.name = cold, str(name)
        self.wins = self.games = 0

    @property
    def score(self) -> float:
        """Lower end of the 95% Wilson interval of the share of claimed wins the rule's agent won (0 before any)."""
        if self.games == 0:
            return 0.0
        from learners.repeats import share_interval

        return share_interval(self.wins, self.games)[1]

    @property
    def weight(self) -> float:
        """The rule's share of the prior now: ``limit / (1 + exp(-steepness (score - threshold)))``."""
        s = self.settings
        return s.limit / (1.0 + math.exp(-s.steepness * (self.score - s.threshold)))

    def prior(self, counts, options, logits, weight: float) -> np.ndarray:
        """Log-priors of ``options`` (``counts[i]`` of position i, one after another) from ``logits``, mixed with the
        rule's winning moves at ``weight`` (a position whose options the rule calls all N keeps its prior)."""
        counts = np.asarray(counts, dtype=np.int64)
        logits = np.asarray(logits, dtype=float)
        if logits.size == 0:
            return logits
        segment = np.repeat(np.arange(counts.size), counts)
        top = np.full(counts.size, -np.inf)
        np.maximum.at(top, segment, logits)
        p = np.exp(logits - top[segment])
        p /= np.bincount(segment, weights=p, minlength=counts.size)[segment]
        win = np.asarray(self.cold(options), dtype=bool)
        wins = np.bincount(segment, weights=win, minlength=counts.size)[segment]
        mixed = np.where(wins > 0, (1.0 - weight) * p + weight * win / np.maximum(wins, 1), p)
        return np.log(np.maximum(mixed, FLOOR))

    def evaluator(self, evaluator, game) -> GuidedEvaluator:
        """``evaluator`` (the network) with this rule's prior at the present weight."""
        return GuidedEvaluator(evaluator, self, game, self.weight)

    def play(self, game, starts, policy_value, rng: np.random.Generator, max_plies: int) -> dict:
        """Score the rule against the learner's policy head from ``starts`` (``settings.games`` of them, cycled),
        half with the rule's agent first; add the games it claimed to the running score; the record's entries."""
        weight = self.weight
        starts = np.asarray(starts, dtype=np.int64)
        starts = starts[np.arange(self.settings.games) % len(starts)]
        rule, learner = RuleMover(game, self.cold), PolicyMover(game, policy_value)
        half = (len(starts) + 1) // 2
        claimed = won = 0
        for seat, part in ((0, starts[:half]), (1, starts[half:])):
            if not len(part):
                continue
            log = play_games(game, *((rule, learner) if seat == 0 else (learner, rule)), part, rng, max_plies)
            claims = np.asarray(self.cold(part), dtype=bool) == bool(seat)  # first from N, second from P
            claimed += int(claims.sum())
            won += int((log.winners[claims] == seat).sum())
        self.wins += won
        self.games += claimed
        return {"guide_weight": weight, "guide_claimed": claimed, "guide_won": won, "guide_score": self.score}

    def state(self) -> dict:
        """The running score, for checkpoints."""
        return {"wins": int(self.wins), "games": int(self.games)}

    def load(self, state: dict) -> None:
        self.wins, self.games = int(state["wins"]), int(state["games"])

    def identity(self) -> dict:
        """What a checkpoint of a guided run must match."""
        s = self.settings
        return {"rule": self.name, "limit": s.limit, "steepness": s.steepness, "threshold": s.threshold,
                "games": s.games}
