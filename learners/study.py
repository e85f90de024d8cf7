"""Seed 001's study at any scale: learning curves against copies, then a learners' tournament.

1. Curves: each learner plays an independent untrained copy of itself; its history records
   the optimal-move rate, deviations and win rates as it learns.
2. Tournament: each learner trains from scratch against each opponent (a fresh copy of every
   learner, and a random player) for the same number of games; the trained greedy policies
   then meet in a round robin, as first and as second player, from random starts.
"""

from __future__ import annotations

from learners.agents import RandomAgent
from learners.arena import Arena
from learners.play import duel
from learners.registry import make_learner

__all__ = ["learning_study"]


def learning_study(game, bound: int, learners=("q", "qt", "bayes"), episodes: int = 20_000, games: int = 1000,
                   seed: int = 0, progress=None) -> dict:
    """Curves and tournament of seed 001 for ``learners`` (names of ``learners.registry``).

    Returns ``{"curves": {name: history}, "first": {a: {b: rate}}, "second": {...},
    "n_share": share of starts a perfect first player wins, "settings": {...}}``; the
    opponents are the learners and ``"random"``.

    Examples
    --------
    >>> from games import make_game
    >>> study = learning_study(make_game("nim", heaps=2), 3, ("q",), episodes=2000, games=200)
    >>> study["curves"]["q"][-1]["deviations"], study["first"]["q"]["random"] >= study["n_share"]
    (0, True)
    """
    say = progress or (lambda message: None)
    arena = Arena(game, bound)
    every = max(1, episodes // 50)
    curves = {}
    for i, name in enumerate(learners):
        say(f"learning curve of {name} against a copy of itself")
        learner = make_learner(name, seed + i)
        copy = make_learner(name, seed + 1000 + i)
        curves[name] = learner.fit(game, bound=bound, episodes=episodes, opponent=copy, eval_every=every,
                                   solution=arena.solution).history_
    opponents = list(learners) + ["random"]
    first = {a: {} for a in learners}
    second = {a: {} for a in learners}
    for i, a in enumerate(learners):
        for j, b in enumerate(opponents):
            say(f"{a} against {'a copy of ' if b == a else ''}{b}")
            learner = make_learner(a, seed + 100 * i + j)
            rival = RandomAgent() if b == "random" else make_learner(b, seed + 100 * i + j + 5000)
            learner.fit(game, bound=bound, episodes=episodes, opponent=rival, eval_every=episodes,
                        solution=arena.solution)
            other = rival if b == "random" else rival.policy()
            as_first = duel(arena, learner.policy(), other, games, seed, stream=2 * (100 * i + j))
            as_second = duel(arena, other, learner.policy(), games, seed, stream=2 * (100 * i + j) + 1)
            first[a][b] = as_first["wins"] / games
            second[a][b] = as_second["losses"] / games
    n_share = float((arena.outcome[arena.live()] == 1).mean())
    settings = {"game": repr(game), "bound": bound, "episodes": episodes, "games": games, "seed": seed,
                "learners": {name: repr(make_learner(name, seed)) for name in learners}}
    return {"curves": curves, "first": first, "second": second, "n_share": n_share, "settings": settings}
