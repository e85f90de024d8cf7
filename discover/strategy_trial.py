"""A verified rule's winning-move strategy, found and put on its own trial, apart from the rule's.

``find_rule`` verifies a rule on its own checks (agreement with the solver, the closure certificate, self-play of
the agent that plays any move into a position the rule calls P).  A strategy (``discover.find_strategy``) is then
looked for and played in its own self-play check ("strategy self-play"): when it loses a game, the strategy is
reported as failing, the rule stays verified, and the proof does not use the strategy.  A custom game's rule for
which no formula strategy is found gets a move chooser instead (``discover.move_chooser``: the first option of
``moves()`` the rule calls P), checked on the verification bound and stated as no formula.
"""

from __future__ import annotations

import time

from cgbase.deadline import OutOfTime, current
from discover.move_chooser import MoveChooser
from discover.rule import Rule
from discover.run_budget import time_left
from discover.verify import self_play
from games import Game
from games.custom import CustomGame

__all__ = ["STRATEGY_SECONDS", "winning_moves", "strategy_on_trial"]

STRATEGY_SECONDS = 300.0  # the strategy search's safety cap (its budget is counted in work, not time)


def winning_moves(rule: Rule, game: Game, seed: int, timings: dict, notes: list, say, verify: int):
    """A winning-move strategy of a P rule, or None (with a note); a game with no symbolic move relation gets one
    checked on a bound over its own ``moves()`` (with a note: it cannot serve a proof). A one-heap strategy is
    checked on the whole verification bound (a long period's moves show only there), and so is a custom game's without
    a relation (its moves read from the graph ``find_rule`` keeps); ``timings["strategy"]`` counts
    the search's seconds.  A custom game's rule with no formula strategy gets a ``MoveChooser`` checked on the
    verification bound (with a note saying so).

    Examples
    --------
    >>> import sympy as sp
    >>> from games import make_game
    >>> rule = Rule(sp.Eq(sp.Mod(sp.Symbol("n"), 4), 0), ("n",))
    >>> winning_moves(rule, make_game("subtraction", subtract=(1, 2, 3)), 0, {}, [], print, 100).text()
    looking for a winning-move strategy for n mod 4 = 0
    'n → n - n mod 4'
    """
    if rule.target != "P" or game.parts > 1:
        return None
    if game.move_relation() is None:
        notes.append(f"{game!r} states no symbolic move relation (games.symbolic): a strategy is checked on a bound "
                     "over its moves(), and a proof can only come from a theorem")
    from discover.find_strategy import find_strategy

    say(f"looking for a winning-move strategy for {rule.text()}")
    clock = time.perf_counter()
    python = game.kernel is None and game.move_relation() is None  # checked on the verification's kept graph
    cap = time_left(STRATEGY_SECONDS)  # the run's deadline may come first
    try:
        strategy = find_strategy(rule, game, bound=verify if game.dims == 1 or python else None,
                                 verified_bound=verify, seed=seed, time_cap=cap)
    except OutOfTime:
        strategy = None
    seconds = time.perf_counter() - clock
    timings["strategy"] = timings.get("strategy", 0.0) + seconds
    if strategy is not None:
        return strategy
    stopped = ("the run's time budget" if current().passed() else
               f"its {STRATEGY_SECONDS:.0f} s safety cap" if seconds >= cap else "its budget")
    searched = f"within {stopped} (at most 12 candidate moves, each fitted by the enumeration engine)"
    if not isinstance(game, CustomGame):
        notes.append(f"no winning-move strategy was found {searched}: the hypothesis agent plays any move into P")
        return None
    clock = time.perf_counter()
    chooser = MoveChooser(rule, game, provenance={"formula_search": f"none found {searched}"})
    gaps = chooser.check(verify, most=1)
    timings["strategy"] += time.perf_counter() - clock
    if len(gaps):  # a verified rule has none: its closure certificate asks the same of every N position
        gap = tuple(map(int, gaps[0]))
        notes.append(f"no winning-move strategy was found {searched}, and the N position {gap} has no option the "
                     "rule calls P")
        return None
    chooser.checked_bound = verify
    notes.append(f"no formula strategy was found {searched}: the strategy is a move chooser (the first option of "
                 f"moves() that the rule calls P), checked on every N position up to bound {verify:,}; no proof "
                 "uses it")
    return chooser


def strategy_on_trial(rule: Rule, game: Game, solution, settings, timings: dict, notes: list, say, verify: int):
    """A verified rule's winning-move strategy and its own self-play check (None, None when none is looked for or
    found).  The strategy is judged apart from the rule: when it loses a game, the rule stays verified, the check
    says how the strategy failed (and a note says so), and the proof does not use it.

    Examples
    --------
    >>> import sympy as sp
    >>> from games import make_game
    >>> from solvers import solve
    >>> from discover.find_settings import FindSettings
    >>> game, rule = make_game("subtraction", subtract=(1, 2, 3)), Rule(sp.Eq(sp.Mod(sp.Symbol("n"), 4), 0), ("n",))
    >>> _, played = strategy_on_trial(rule, game, solve(game, bound=100), FindSettings(games=10), {}, [], str, 100)
    >>> played.name, played.passed
    ('strategy self-play', True)
    """
    strategy = winning_moves(rule, game, settings.seed, timings, notes, say, verify) if settings.strategy else None
    if strategy is None:
        return None, None
    clock = time.perf_counter()
    played = self_play(rule, game, solution, settings.games, settings.seed, strategy)
    timings["strategy self-play"] = time.perf_counter() - clock
    if not played.passed:
        notes.append(f"the winning-move strategy found for the rule failed its self-play ({played.detail}): the rule "
                     "is judged on its own checks, which passed; the proof does not use the strategy")
    return strategy, played
