"""The Nim study's experiment at any scale: learning curves against copies, then a learners' tournament.

1. Curves: each learner plays an independent untrained copy of itself; its history records
   the optimal-move rate, deviations and win rates as it learns.
2. Tournament: each learner trains from scratch against each opponent (a fresh copy of every
   learner, and a random player) for the same number of games; the trained greedy policies
   then meet in a round robin, as first and as second player, from random starts.

``run(game, ...)`` returns the record; ``write(record, folder)`` writes ``learning-curves.png``,
``study.json`` and the report (``index.md``, ``index.html``): ``discover tournament nim heaps=3``.
"""

from __future__ import annotations

import time

from cgbase.machine import machine
from learners.agents import RandomAgent
from learners.arena import Arena
from learners.play import duel
from learners.registry import make_learner

__all__ = ["run", "write", "MARKERS"]

MARKERS = ("index.md", "study.json")  # an existing folder holding these is a report to replace


def run(game, bound: int, learners=("q", "qt", "bayes"), episodes: int = 20_000, games: int = 1000,
                   seed: int = 0, progress=None, params=None, curves: bool = True) -> dict:
    """The Nim study's curves and tournament for ``learners`` (names of ``learners.registry``).

    Returns ``{"curves": {name: history}, "first": {a: {b: rate}}, "second": {...},
    "n_share": share of starts a perfect first player wins, "settings": {...}}``; the
    opponents are the learners and ``"random"``. ``params`` (name -> parameters) overrides the
    learners' presets (the best settings of a sweep); ``curves=False`` plays the tournament alone.

    Examples
    --------
    >>> from games import make_game
    >>> study = run(make_game("nim", heaps=2), 3, ("q",), episodes=2000, games=200)
    >>> study["curves"]["q"][-1]["deviations"], study["first"]["q"]["random"] >= study["n_share"]
    (0, True)
    """
    say = progress or (lambda message: None)
    clock = time.perf_counter()
    arena = Arena(game, bound)
    every = max(1, episodes // 50)
    params = params or {}

    def make(name, random_state):
        return make_learner(name, random_state, **params.get(name, {}))

    histories = {}
    for i, name in enumerate(learners if curves else ()):
        say(f"learning curve of {name} against a copy of itself")
        learner = make(name, seed + i)
        copy = make(name, seed + 1000 + i)
        histories[name] = learner.fit(game, bound=bound, episodes=episodes, opponent=copy, eval_every=every,
                                      progress=progress is not None, solution=arena.solution).history_
    opponents = list(learners) + ["random"]
    first = {a: {} for a in learners}
    second = {a: {} for a in learners}
    for i, a in enumerate(learners):
        for j, b in enumerate(opponents):
            say(f"{a} against {'a copy of ' if b == a else ''}{b}")
            learner = make(a, seed + 100 * i + j)
            rival = RandomAgent() if b == "random" else make(b, seed + 100 * i + j + 5000)
            learner.fit(game, bound=bound, episodes=episodes, opponent=rival, eval_every=episodes,
                        progress=progress is not None,
                        solution=arena.solution)
            other = rival if b == "random" else rival.policy()
            as_first = duel(arena, learner.policy(), other, games, seed, stream=2 * (100 * i + j))
            as_second = duel(arena, other, learner.policy(), games, seed, stream=2 * (100 * i + j) + 1)
            first[a][b] = as_first["wins"] / games
            second[a][b] = as_second["losses"] / games
    n_share = float((arena.outcome[arena.live()] == 1).mean())
    settings = {"game": repr(game), "bound": bound, "episodes": episodes, "games": games, "seed": seed,
                "learners": {name: repr(make(name, seed)) for name in learners}}
    return {"game": repr(game), "title": game.title(), "spec": game.spec(), "curves": histories, "first": first,
            "second": second, "n_share": n_share, "settings": settings, "seconds": time.perf_counter() - clock,
            "machine": machine()}


def write(record: dict, folder) -> None:
    """Write ``learning-curves.png``, ``study.json`` and the report of a ``run`` record into ``folder``."""
    from discover.app.render.curves import curve_figure
    from discover.app.render.document import write_document
    from cgbase.files import atomic_folder, write_json

    s = record["settings"]
    with atomic_folder(folder, MARKERS, "report folder") as out:
        curve_figure(record["curves"], out / "learning-curves.png",
                     f"{record.get('title', record['game'])}, bound {s['bound']}: each learner against an untrained "
                     "copy of itself")
        write_json(out / "study.json", record)
        write_document(out, _blocks(record), f"Learners on {record['game']}")


def _blocks(record: dict) -> list:
    from discover.app.render.document import Code, FigureFile
    from learners.repeats import share_interval
    from learners.tournament import table_rows

    s = record["settings"]
    spec = record["spec"]
    words = " ".join(f"{k}={','.join(map(str, v)) if isinstance(v, list) else str(v).lower()}"
                     for k, v in spec["params"].items())
    command = record.get("command") or (f"discover tournament {spec['name']} {words} --bound {s['bound']} "
                                        f"--episodes {s['episodes']} --games {s['games']} --seed {s['seed']}")
    _, low, high = share_interval(s["games"] // 2, s["games"])  # the widest Wilson interval: at a rate of 1/2
    rows = []
    for name, history in record["curves"].items():
        first = next((r["episode"] for r in history if r["deviations"] == 0), None)
        last = history[-1]
        rows.append([name, f"{last['episode']:,}", str(last["deviations"]), f"{last['optimal_move_rate']:.3f}",
                     f"{first:,}" if first is not None else "not reached"])
    return [
        ("h", 1, f"Learners on {record.get('title', record['game'])}, bound {s['bound']} (the Nim study)"),
        ("p", f"Each learner played {s['episodes']:,} games against an untrained copy of itself (learning curves "
              f"below), then trained from scratch for {s['episodes']:,} games against each opponent; the trained "
              f"greedy policies then played {s['games']:,} games from random starts, as first and as second player. "
              f"A perfect first player wins {record['n_share']:.2f} of the starts. Each win rate is a share of "
              f"{s['games']:,} games: its 95% interval (Wilson's, inside [0, 1]) reaches at most "
              f"±{(high - low) / 2:.3f} around it (the widest, at a rate of 1/2)."),
        ("table", *table_rows(record)),
        ("figure", FigureFile("learning-curves.png", "learning curves",
                              "Optimal-move rate, optimality deviations and win rate against the optimal player.")),
        ("list", [[Code(name), ": ", Code(text)] for name, text in s["learners"].items()]),
        ("table", ["learner", "games", "deviations at the end", "optimal-move rate in play", "first 0 deviations"],
         rows),
        ("p", ["Command: ", Code(command),
               f" ({record['seconds']:.0f} s on {record.get('machine', 'an unrecorded machine')})."]),
    ]
