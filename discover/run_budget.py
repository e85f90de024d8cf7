"""``find_rule``'s time budget: one deadline for the whole run, on every road, and the answer when it runs out.

``seconds`` (``FindSettings.seconds``, ``--seconds``) budgets the whole run; left out, the road's default applies
(``discover.defaults.road_seconds``).  ``find_rule`` makes one ``cgbase.deadline.Deadline`` of it and runs the road
inside ``within(deadline)``: the graphs a solve builds and the engines' work budgets read it as they go, the stages
check it between steps, and the clocks of the strategy search and of z3 are cut to what is left (``time_left``).
When it runs out before a rule is verified, the answer is a ``Discovery`` with status none whose ``out_of_time``
says where (``Discovery.ran_out``), with the best partial so far (the best candidate; on the take-and-break road,
"no period up to n = N"): ``Discovery.line()`` reads "none within S s ...".  A rule verified in time stays
verified: a strategy or a proof that the budget cuts short is missing or "unknown", never "proved".

Examples
--------
>>> from games import make_game
>>> from discover.find import find_rule
>>> found = find_rule(make_game("grundy_game"), seconds=1.0)
>>> print(found.status, found.line())  # doctest: +ELLIPSIS
none none within 1 s: no period up to n = ...
"""

from __future__ import annotations

from cgbase.deadline import current
from discover import defaults

__all__ = ["run_seconds", "time_left"]


def run_seconds(settings, road) -> float:
    """The whole run's budget: ``settings.seconds`` (a ``FindSettings``), or the default of ``road`` (a
    ``discover.verdicts.Road``).

    Examples
    --------
    >>> from discover.find_settings import FindSettings
    >>> from discover.verdicts import Road
    >>> run_seconds(FindSettings(seconds=5), Road.ENGINES), run_seconds(FindSettings(), Road.ENGINES)
    (5, 600.0)
    """
    return settings.seconds if settings.seconds is not None else defaults.road_seconds(road)


def time_left(cap: float) -> float:
    """``cap`` seconds, or fewer when the run's deadline (``cgbase.deadline.current()``) comes first.

    Examples
    --------
    >>> time_left(30.0)
    30.0
    """
    return min(float(cap), current().left())
