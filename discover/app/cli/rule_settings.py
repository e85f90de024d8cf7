"""``RuleSettings``: the options of the ``rule`` and ``report`` commands as one frozen record, checked once.

In the manner of OpenSpiel's AlphaZero ``Config``: the commands build it from their options and hand it on
(``discover.app.cli.rule``), and it makes the ``discover.find.FindSettings`` of the run.
"""

from __future__ import annotations

from dataclasses import dataclass

from discover import defaults

__all__ = ["RuleSettings"]


@dataclass(frozen=True)
class RuleSettings:
    """What ``discover rule`` and ``discover report`` were asked (see their ``--help``).

    Parameters
    ----------
    game : str, optional
        A registered game's name (None with ``--game-file`` or ``--game-spec``, which ``game_arguments`` takes).
    params : tuple of str
        ``NAME=VALUE`` words of the game's parameters.
    bound, verify_bound : int, optional
        Training and verification bounds.
    engines : str, optional
        Comma-separated engine names; checked (unknown names, missing backends) when the settings are made.
    seed : int
        Seed of every random choice.
    source : str
        ``"solver"``, a registered learner that leaves a value table, or the path of a value table saved by
        ``discover learn`` (``--from``).
    episodes : int, optional
        With a learner: games to learn from.
    confidence : float, optional
        With a learner or a value table: the least |value| of a position kept (default
        ``discover.defaults.ENGINES.confidence``; refused with the solver).
    heaps : int, optional
        The take-and-break engine's and the misère quotients' budget of heaps.
    seconds : float, optional
        The whole run's time budget (default ``discover.defaults.road_seconds``).
    no_strategy : bool
        No winning-move strategy search (a proof, when attempted, goes without a strategy).
    no_proof : bool
        Stop at the verified rule (no strategy search, no proof attempt).
    proof_seconds : float, optional
        z3's time budget for the proof (default ``discover.defaults.ENGINES.proof_seconds``; refused with
        ``no_proof``).
    no_infer_relation : bool
        A custom game stating no move relation gets none inferred from its ``moves()``.

    Examples
    --------
    >>> settings = RuleSettings(game="nim", params=("heaps=2",), engines="sequence, enumeration")
    >>> settings.engine_names
    ('sequence', 'enumeration')
    >>> settings.find_settings(learned=False).engines
    ('sequence', 'enumeration')
    >>> RuleSettings(game="nim", episodes=100)
    Traceback (most recent call last):
    ...
    ValueError: --episodes sets how long a learner plays, and --from solver trains none: leave out --episodes, or give --from a learner
    >>> RuleSettings(game="nim", no_strategy=True).find_settings(learned=False).strategy
    False
    >>> RuleSettings(game="nim", source="oracle")
    Traceback (most recent call last):
    ...
    ValueError: --from takes solver, a learner (q, qt, bayes, qnetwork, hqn, alphazero, board_q) or a value table saved by 'discover learn'; got 'oracle', neither a learner nor a file
    """

    game: str | None = None
    params: tuple[str, ...] = ()
    bound: int | None = None
    verify_bound: int | None = None
    engines: str | None = None
    seed: int = 0
    source: str = "solver"
    episodes: int | None = None
    confidence: float | None = None
    heaps: int | None = None
    seconds: float | None = None
    no_strategy: bool = False
    no_proof: bool = False
    proof_seconds: float | None = None
    no_infer_relation: bool = False

    def __post_init__(self):
        object.__setattr__(self, "params", tuple(self.params))
        learner = self._from_learner
        if self.source != "solver" and not learner and self.table_file is None:
            from learners.registry import learner_names

            raise ValueError(f"--from takes solver, a learner ({', '.join(learner_names(value_table=True))}) or a "
                             f"value table saved by 'discover learn'; got {self.source!r}, neither a learner nor a file")
        # an option that the other options make meaningless is refused, not silently ignored
        if self.episodes is not None and not learner:
            raise ValueError(f"--episodes sets how long a learner plays, and --from {self.source} trains none: leave "
                             "out --episodes, or give --from a learner")
        if self.confidence is not None and self.source == "solver":
            raise ValueError("--confidence thresholds a learned value table, and --from solver gives exact values: "
                             "leave out --confidence, or give --from a learner or a value table")
        if self.proof_seconds is not None and self.no_proof:
            raise ValueError("--proof-seconds budgets the proof, and --no-proof skips it: give one of them")
        object.__setattr__(self, "confidence", defaults.ENGINES.confidence if self.confidence is None
                           else self.confidence)
        self.find_settings(learned=self.source != "solver")  # every setting find_rule takes is checked here

    @property
    def table_file(self) -> str | None:
        """The value table file ``--from`` names (a regular file that is not a learner's name), or None."""
        import os

        if self.source == "solver" or self._from_learner:
            return None
        return self.source if os.path.isfile(self.source) else None

    @property
    def _from_learner(self) -> bool:
        """``--from`` names a registered learner that leaves a value table (the learners are imported only when
        ``--from`` is not the solver)."""
        if self.source == "solver":
            return False
        from learners.registry import learner_names

        return self.source in learner_names(value_table=True)

    @property
    def engine_names(self) -> tuple[str, ...] | None:
        """The engines asked for, in order (None: the default portfolio)."""
        from discover.app.cli.common import name_list

        return None if self.engines is None else tuple(name_list(self.engines, "--engines"))

    def find_settings(self, learned: bool):
        """The ``FindSettings`` of the run: on a learned table (``learned``) the bound was the learner's, and a
        candidate needs ``defaults.ENGINES.learned_min_accuracy`` instead of the solver's 100%."""
        from discover.find_settings import FindSettings

        return FindSettings(bound=None if learned else self.bound, verify_bound=self.verify_bound,
                            engines=self.engine_names, seed=self.seed,
                            min_accuracy=defaults.ENGINES.learned_min_accuracy if learned else None,
                            heaps=self.heaps, seconds=self.seconds, strategy=not (self.no_proof or self.no_strategy),
                            prove=not self.no_proof, proof_seconds=self.proof_seconds,
                            infer_relation=not self.no_infer_relation)
