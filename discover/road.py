"""Which road ``find_rule`` takes for a game: chosen once, here, from what the game declares.

``Game.capabilities()`` (read nowhere else for this choice) and whether a training table is asked for (a
``table``, a ``bound`` or ``engines``) decide:

- sums of boards in misère play (Notakto): the misère quotient over boards (``Road.BOARD_QUOTIENT``);
- a one-heap game in misère play: its misère quotient, heap by heap (``Road.QUOTIENT``);
- a one-heap take-and-break game with a finite code in normal play: Guy and Smith's road, Grundy values until the
  periodicity theorem proves a period (``Road.TAKE_AND_BREAK``);
- a sum of components in normal play (``discover.composition.components``: moves along one coordinate at a time,
  or a one-heap game whose options are sums of heaps), with no table, bound or engines asked for: each component's
  Grundy formula composed by the Sprague-Grundy theorem (``Road.COMPOSITION``; the engines when it gives no
  verified rule);
- everything else with integer positions: a table, the engine portfolio and the trial (``Road.ENGINES``).

The run's time budget (``seconds``) holds on every road.  The settings that only a rule fitted to a table reads
(a verification bound, the strategy and the proof and their budget, a training accuracy) are refused on the
quotient roads, before any work; the seed and the self-play games are read by the roads that play or sample, and
left unused by the others.
"""

from __future__ import annotations

from discover import defaults
from discover.bounds import check_rule_game
from discover.find_settings import FindSettings
from discover.verdicts import Road
from games import Game

__all__ = ["choose_road"]


def choose_road(game: Game, settings: FindSettings, table=None) -> Road:
    """The road of ``find_rule(game, settings=settings, table=table)``; a ``ValueError`` for a game no road takes
    or a setting the road makes meaningless.

    Examples
    --------
    >>> from games import make_game
    >>> choose_road(make_game("octal", code="0.77", misere=True), FindSettings())
    'misère quotient'
    >>> choose_road(make_game("octal", code="0.77"), FindSettings()), choose_road(make_game("wythoff"), FindSettings())
    ('take-and-break', 'engines')
    >>> choose_road(make_game("octal", code="0.77"), FindSettings(bound=40))
    'engines'
    """
    can = game.capabilities()
    on_table = table is not None or settings.bound is not None or settings.engines is not None
    if can.board_sums and not on_table:
        if settings.heaps is not None:
            raise ValueError("heaps (--heaps) is for heap games; Notakto's quotient takes every live board (budget it "
                             "with seconds, --seconds)")
        return _quotient(game, settings, Road.BOARD_QUOTIENT)
    check_rule_game(game)
    if can.misere_heaps and not on_table:
        return _quotient(game, settings, Road.QUOTIENT)
    if can.take_and_break and not game.misere and not on_table:
        return Road.TAKE_AND_BREAK
    if not on_table and settings.heaps is None:
        from discover.composition import components

        if components(game) is not None:
            return Road.COMPOSITION
    if game.misere and game.parts > 1:
        raise ValueError(f"{game!r} is played misère and its options are sums of heaps: a formula over one heap does "
                         "not decide sums; its rule is its misère quotient (find_rule without a bound, engines or "
                         "table, or `discover GAME misere=true`)")
    if settings.heaps is not None:
        raise ValueError(f"heaps budgets the take-and-break engine and the misère quotients, which run when no "
                         f"bound, engines or table is given; {game!r} with these settings trains on a table instead: "
                         f"leave out heaps (seconds budgets every road)")
    return Road.ENGINES


def _quotient(game: Game, settings: FindSettings, road: Road) -> Road:
    """A quotient road, once the settings it makes meaningless are refused (they are for rules fitted to a table)."""
    given = [name for name, asked in (
        ("verify_bound (--verify-bound)", settings.verify_bound is not None),
        ("prove=False (--no-proof)", not settings.prove),
        ("strategy=False (--no-strategy)", not settings.strategy),
        ("proof_seconds (--proof-seconds)", settings.proof_seconds != defaults.ENGINES.proof_seconds),
        ("min_accuracy", settings.min_accuracy != defaults.ENGINES.min_accuracy)) if asked]
    if given:
        raise ValueError(f"{given[0]} is for rules fitted to a table, and the rule of {game!r} is its misère quotient "
                         f"(proved by Plambeck and Siegel's construction, checked on sums): leave out {given[0]}")
    return road
