"""The Nim thesis's three scenarios on Nim with 3 heaps <= 7: games until no optimality deviation.

Q-learning (alpha 0.45, gamma 1, epsilon 0.1, random starts) against the optimal player, against
itself and against a random player, several seeds each, with the toolkit's negamax backup (every
move of the game is experience) and with the thesis's reply backup (the learner's own moves, backed
up from the position after the reply). The record interval is 100 games, so a count is exact to
within 100. The thesis's figures (343 positions, alpha 0.45, and 0.20 against random) stand beside
the medians.

``run(...)`` returns the record; ``write(record, folder)`` writes ``scenarios.json`` and the report:
``discover scenarios`` (about a minute; ``--cap 100000`` for seconds).
"""

from __future__ import annotations

import statistics
import time

__all__ = ["run", "write", "SCENARIOS", "MARKERS"]

MARKERS = ("index.md", "scenarios.json")  # an existing folder holding these is a report to replace
THESIS = {"optimal": "17,500", "self": "142,500", "copy": "142,500", "random": "600,000 (alpha 0.20)"}
#: (opponent, label, backup): one shared table backs up both sides' moves anyway, so self-play runs with the
#: negamax backup only; two equal learners that both back up every move of the same games keep equal tables
#: (the self-play row again), so two learners run with the reply backup only
SCENARIOS = (("optimal", "Q vs optimal", "negamax"), ("optimal", "Q vs optimal", "reply"),
             ("self", "Q vs Q, one table (self-play)", "negamax"), ("copy", "Q vs Q, two learners", "reply"),
             ("random", "Q vs random", "negamax"), ("random", "Q vs random", "reply"))


def _episodes_to_optimal(opponent: str, backup: str, seed: int, cap: int, arena) -> int | None:
    from learners import QLearner

    rival = QLearner(backup=backup, random_state=seed + 100) if opponent == "copy" else opponent
    learner = QLearner(backup=backup, random_state=seed)
    learner.fit(arena.game, bound=arena.bound, episodes=cap, opponent=rival, eval_every=100,
                stop_when_optimal=True, solution=arena.solution)
    return learner.episodes_to_optimal_


def run(seeds: int = 5, cap: int = 2_000_000, progress=None) -> dict:
    """Every scenario with ``seeds`` seeds, each run capped at ``cap`` games; a JSON-ready record.

    Examples
    --------
    >>> record = run(seeds=1, cap=3000)
    >>> [row["label"] for row in record["rows"]][:2]
    ['Q vs optimal', 'Q vs optimal']
    """
    from games import make_game
    from cgbase.validation import positive_int
    from learners import Arena

    seeds, cap = positive_int(seeds, "seeds"), positive_int(cap, "cap")
    say = progress or (lambda message: None)
    clock = time.perf_counter()
    arena = Arena(make_game("nim", heaps=3), bound=7)
    rows = []
    for opponent, label, backup in SCENARIOS:
        say(f"{label}, {backup} backup")
        start = time.perf_counter()
        runs = [_episodes_to_optimal(opponent, backup, s, cap, arena) for s in range(seeds)]
        reached = [r for r in runs if r is not None]
        rows.append({"opponent": opponent, "label": label, "backup": backup, "episodes": runs,
                     "median": statistics.median(reached) if len(reached) == len(runs) else None,
                     "thesis": THESIS[opponent], "seconds": time.perf_counter() - start})
    return {"game": repr(arena.game), "positions": arena.size, "moves": arena.edges, "seeds": seeds, "cap": cap,
            "rows": rows, "seconds": time.perf_counter() - clock}


def write(record: dict, folder) -> None:
    """Write ``scenarios.json`` and the report of a ``run`` record into ``folder``."""
    from discover.app.render.document import write_document
    from cgbase.files import atomic_folder, write_json

    with atomic_folder(folder, MARKERS, "report folder") as out:
        write_json(out / "scenarios.json", record)
        write_document(out, _blocks(record), "The Nim thesis's scenarios")


def _blocks(record: dict) -> list:
    """The report: one row per scenario and backup."""
    from discover.app.render.document import Code

    rows = []
    for row in record["rows"]:
        reached = [r for r in row["episodes"] if r is not None]
        median = (f"{row['median']:,.0f}" if row["median"] is not None
                  else f"{len(reached)} of {len(row['episodes'])} within {record['cap']:,}")
        each = ", ".join("-" if r is None else f"{r:,}" for r in row["episodes"])
        rows.append([row["label"], row["backup"], median, each, row["thesis"], f"{row['seconds']:.1f}"])
    return [
        ("h", 1, "Q-learning on Nim: the Nim thesis's scenarios"),
        ("p", f"{record['game']}, heaps <= 7 ({record['positions']} positions, {record['moves']} moves); alpha 0.45, "
              f"gamma 1, epsilon 0.1, random starts; {record['seeds']} seeds, at most {record['cap']:,} games each, "
              f"a record every 100 games; {record['seconds']:.0f} s in all."),
        ("table", ["scenario", "backup", "games to 0 deviations (median)", "each seed", "the thesis", "seconds"],
         rows),
        *([("p", ["Command: ", Code(record["command"]), "."])] if record.get("command") else []),
    ]
