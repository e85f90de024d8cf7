"""Putting a rule on trial, independently of how it was found.

Three checks over a bound far beyond the training data: (i) agreement with the solver on every
position of the universe, (ii) a closure certificate computed from the rule alone (terminal
positions labelled by the terminal rule, no move from P to P, a move into P from every N
position; for Grundy rules, the mex rule), (iii) self-play: the hypothesis agent, started from
N positions, never loses against random, optimal and itself.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from discover.box_positions import box_positions
from discover.self_play import (hypothesis_player, optimal_player, play_batched, random_player, strategy_player,
                                 tabled)
from solvers import closure_counterexample, mex_counterexample, solve
from solvers.graph_store import graph_options

__all__ = ["Check", "verify_rule", "rule_values", "self_play"]

CHUNK = 1 << 16  # positions labelled at a time: blocks this small stay in the cache (5x faster than 2^20)


@dataclass
class Check:
    """The outcome of one verification check."""

    name: str
    passed: bool
    detail: str
    counterexample: dict | None = None
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)

    def line(self) -> str:
        mark = "✓" if self.passed else "✗"
        text = f"{mark} {self.name}: {self.detail}"
        if self.counterexample:
            text += f" — counterexample {self.counterexample}"
        return text


def rule_values(rule, universe) -> np.ndarray:
    """The rule's P labels (or Grundy values) on every position of a universe, in id order."""
    pieces = []
    for lo in range(0, universe.size, CHUNK):
        hi = min(lo + CHUNK, universe.size)
        positions = box_positions(universe, lo, hi) if universe.is_box else universe.positions(np.arange(lo, hi))
        pieces.append(rule.evaluate(positions) if rule.target == "grundy" else rule.predicate(positions))
    return np.concatenate(pieces)


def _describe(universe) -> str:
    if universe.is_box:
        return f"all {universe.size:,} positions with coordinates ≤ {universe.bound}"
    return f"all {universe.size:,} positions of the universe at bound {universe.bound}"


def _agreement(rule, solution, values) -> Check:
    truth = solution.grundy_table if rule.target == "grundy" else solution.outcome_table == -1
    wrong = np.flatnonzero(values != truth)
    universe = solution.universe
    if wrong.size == 0:
        return Check("agreement with the solver", True, f"{_describe(universe)} agree")
    i = int(wrong[0])
    position = tuple(int(x) for x in universe.positions([i])[0])
    said = int(values[i]) if rule.target == "grundy" else ("P" if values[i] else "N")
    true = int(truth[i]) if rule.target == "grundy" else ("P" if truth[i] else "N")
    return Check(
        "agreement with the solver", False,
        f"{wrong.size:,} of {universe.size:,} positions disagree",
        {"position": position, "rule": said, "solver": true},
    )


def _closure(rule, game, solution, values) -> Check:
    universe = solution.universe
    if rule.target == "grundy":
        found = mex_counterexample(game, universe, values, solution.graph)
        what = "every value is the mex of its options' values (parts xor-ed)"
    else:
        found = closure_counterexample(game, universe, values, solution.graph)
        what = "terminal positions follow the terminal rule, no move P→P, every N has a move into P"
    if found is None:
        return Check("closure certificate", True, f"{what}, over {universe.size:,} positions")
    return Check("closure certificate", False, "the rule's labelling is not closed under the moves", found)


def self_play(rule, game, solution, games: int = 100, seed: int = 0, strategy=None) -> Check:
    """The hypothesis agent (the strategy's moves when a strategy is given, else any move into a P position by the
    rule) moves first from random N positions against random, optimal and itself; it must win every game.

    Without a strategy the check ("self-play") judges the rule; with one ("strategy self-play") it judges the
    strategy only: a true rule whose strategy loses stays true (``find_rule`` keeps the two apart).

    Examples
    --------
    >>> import sympy as sp
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> game = make_game("subtraction")
    >>> self_play(Rule(sp.Eq(sp.Mod(sp.Symbol("n"), 4), 0), ("n",)), game, solve(game, bound=40), 10).passed
    True
    """
    title = "self-play" if strategy is None else "strategy self-play"
    if game.parts > 1:
        return Check(title, True, "not played: sums of heaps are covered by the mex certificate")
    rng = np.random.default_rng(seed)
    n_ids = np.flatnonzero(solution.outcome_table == 1)
    if n_ids.size == 0:
        return Check(title, True, "no N position to start from")
    picked = rng.choice(n_ids, size=min(games, n_ids.size), replace=False)
    universe = solution.universe  # a small one's labels and moves are computed once, read at every ply
    if strategy is None:
        me = hypothesis_player(tabled(rule.predicate, universe))
    else:  # a game without a kernel: its moves() would be asked for every position, not only those played
        me = strategy_player(strategy, universe if game.kernel is not None else None)
    opponents = (("random", random_player), ("optimal", optimal_player(solution)), ("itself", me))
    starts = universe.positions(np.sort(picked))  # every game side by side (game.option_block)
    results = {}
    block = None  # a custom game's options are read from the solver's graph: no moves() call again
    if game.kernel is None and getattr(solution, "graph", None) is not None:
        block = partial(graph_options, solution.graph, solution.universe, padded=True)
    for name, opponent in opponents:
        results[name] = play_batched(game, me, opponent, starts, seed, block)
        if results[name]["losses"] or results[name]["draws"]:
            lost = results[name]
            return Check(
                title, False,
                f"lost {lost['losses']} and drew {lost['draws']} of {lost['games']} games against {name}",
                {"start": lost["first_loss"], "opponent": name}, extra=results,
            )
    return Check(
        title, True,
        f"won all {len(starts)} games from N positions against random, optimal and itself", extra=results,
    )


def verify_rule(rule, game, bound: int, games: int = 100, seed: int = 0, solution=None,
                play: bool = True) -> list[Check]:
    """Run the three checks of the rule on ``game.universe(bound)``, stopping at the first failure (``play=False``:
    the first two).  A strategy is judged apart (``self_play(..., strategy=...)``).

    A proof for every position (the periodicity theorems among others) is ``discover.proofs.prove``'s.

    Examples
    --------
    >>> import sympy as sp
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> rule = Rule(sp.Eq(sp.Mod(sp.Symbol("n"), 4), 0), ("n",))
    >>> [c.name for c in verify_rule(rule, make_game("subtraction", subtract=(1, 2, 3)), 300) if c.passed]
    ['agreement with the solver', 'closure certificate', 'self-play']
    """
    checks = []
    start = time.perf_counter()
    if solution is None or solution.bound != bound or (rule.target == "grundy" and solution.grundy_table is None):
        solution = solve(game, bound=bound, grundy=rule.target == "grundy")
    values = rule_values(rule, solution.universe)
    for step in (
        lambda: _agreement(rule, solution, values),
        lambda: _closure(rule, game, solution, values),
        lambda: self_play(rule, game, solution, games, seed),
    )[: 3 if play else 2]:
        check = step()
        check.seconds = time.perf_counter() - start
        start = time.perf_counter()
        checks.append(check)
        if not check.passed:
            return checks
    return checks
