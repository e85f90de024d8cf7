"""Every default of ``find_rule``'s roads, named once: one frozen record a road.

``discover.find_settings.FindSettings`` (the library), ``discover.app.cli.rule_settings.RuleSettings`` and the click
options of ``discover rule`` / ``report`` (the command line), ``discover_quotient`` and ``discover_board_quotient``
read these records when they run, attribute by attribute (``defaults.QUOTIENT.heaps``), so a default changed here is
changed everywhere; a test holds the command line's help to them.  The module imports nothing heavy: ``--help``
reads it.

``seconds`` is the budget of a whole ``find_rule`` run, on every road (``FindSettings.seconds``, ``--seconds``): the
answer comes within it, "none within S s" with the best partial when it runs out (``discover.run_budget``).  Left out,
the road's own default below applies (``road_seconds``).

Examples
--------
>>> ENGINES.proof_seconds, QUOTIENT.seconds, TAKE_AND_BREAK.heaps
(30.0, 120.0, 33554432)
>>> road_seconds(Road.ENGINES), road_seconds(Road.TAKE_AND_BREAK)
(600.0, 540.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from discover.verdicts import Road

__all__ = ["EngineDefaults", "Budget", "ENGINES", "TAKE_AND_BREAK", "QUOTIENT", "BOARD_QUOTIENT", "ENGINE_SECONDS",
           "road_seconds"]


@dataclass(frozen=True)
class EngineDefaults:
    """The engines' road: a table, the engine portfolio, the trial, the strategy and the proof.

    Attributes
    ----------
    engines : tuple of str
        The portfolio, in the order tried.
    games : int
        Self-play games per opponent.
    min_accuracy, learned_min_accuracy : float
        The least training accuracy of a candidate put on trial, on the solver's table and on a learned one.
    confidence : float
        On a learned value table: the least |value| of a position kept.
    proof_seconds : float
        z3's time budget for a proof (the one clock that can change a proof's result).
    seconds : float
        The budget of a whole run on this road and on the Grundy composition's (solve, engines, trial, strategy,
        proof).
    """

    engines: tuple[str, ...] = ("sequence", "binary", "decision_list", "residues", "periods2d", "enumeration",
                                 "operon")
    games: int = 100
    min_accuracy: float = 1.0
    learned_min_accuracy: float = 0.95
    confidence: float = 0.3
    proof_seconds: float = 30.0
    seconds: float = 600.0


@dataclass(frozen=True)
class Budget:
    """A road that grows its answer heap by heap (or board by board): at most ``heaps`` heaps (None: every
    component), the whole run within about ``seconds`` seconds."""

    heaps: int | None
    seconds: float


ENGINES = EngineDefaults()
ENGINE_SECONDS = 120.0  # the clock cap of one engine's fit (its work budget ends it first on the usual tables)
TAKE_AND_BREAK = Budget(heaps=2**25, seconds=540.0)  # Guy and Smith's road: ends within about ten minutes
QUOTIENT = Budget(heaps=400, seconds=120.0)  # a misère heap game's quotient (misère Kayles: proved at heap 168)
BOARD_QUOTIENT = Budget(heaps=None, seconds=120.0)  # Notakto's quotient over boards: every live board


def road_seconds(road: Road) -> float:
    """The budget of a whole ``find_rule`` run on ``road`` when ``seconds`` is not given."""
    return {Road.TAKE_AND_BREAK: TAKE_AND_BREAK.seconds, Road.QUOTIENT: QUOTIENT.seconds,
            Road.BOARD_QUOTIENT: BOARD_QUOTIENT.seconds}.get(Road(road), ENGINES.seconds)
