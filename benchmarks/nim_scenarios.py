"""Seed 002's three scenarios on Nim with 3 heaps <= 7: episodes until no optimality deviation.

Q-learning (alpha 0.45, gamma 1, epsilon 0.1, random starts) against the optimal player,
against itself and against a random player, five seeds each, with the toolkit's negamax
backup (every move of the game is experience) and with the seeds' reply backup (the
learner's own moves, backed up from the position after the reply). The record interval is
100 games, so a count is exact to within 100. The seed's figures (the thesis, 343
positions, alpha 0.45 and 0.20) stand beside the medians.

    python benchmarks/nim_scenarios.py            # about a minute
    python benchmarks/nim_scenarios.py --quick    # smaller cap, seconds
"""

from __future__ import annotations

import argparse
import statistics
import time

from games import make_game
from learners import Arena, QLearner

SEED_FIGURES = {"optimal": "17,500", "self": "142,500", "copy": "142,500", "random": "600,000 (alpha 0.20)"}
SCENARIOS = (("optimal", "Q vs optimal"), ("self", "Q vs Q, one table (self-play)"),
             ("copy", "Q vs Q, two learners"), ("random", "Q vs random"))


def episodes_to_optimal(opponent: str, backup: str, seed: int, cap: int, arena) -> int | None:
    rival = QLearner(backup=backup, random_state=seed + 100) if opponent == "copy" else opponent
    learner = QLearner(backup=backup, random_state=seed)
    learner.fit(arena.game, bound=arena.bound, episodes=cap, opponent=rival, eval_every=100,
                stop_when_optimal=True, solution=arena.solution)
    return learner.episodes_to_optimal_


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="cap runs at 100,000 games")
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    cap = 100_000 if args.quick else 2_000_000
    arena = Arena(make_game("nim", heaps=3), bound=7)
    print(f"Nim, 3 heaps <= 7 ({arena.size} positions, {arena.edges} moves), cap {cap:,} games, "
          f"{args.seeds} seeds, records every 100 games\n")
    print("| scenario | backup | episodes to 0 deviations (median) | each seed | seed 002 | seconds |")
    print("|---|---|---|---|---|---|")
    for opponent, label in SCENARIOS:
        for backup in ("negamax", "reply"):
            if (opponent, backup) in (("self", "reply"), ("copy", "negamax")):
                # one shared table backs up both sides' moves anyway; two equal learners that both
                # back up every move of the same games keep equal tables, the self-play row again
                continue
            clock = time.perf_counter()
            runs = [episodes_to_optimal(opponent, backup, s, cap, arena) for s in range(args.seeds)]
            reached = [r for r in runs if r is not None]
            median = (f"{statistics.median(reached):,.0f}" if len(reached) == len(runs)
                      else f"{len(reached)} of {len(runs)} within {cap:,}")
            each = ", ".join("-" if r is None else f"{r:,}" for r in runs)
            print(f"| {label} | {backup} | {median} | {each} | {SEED_FIGURES[opponent]} | "
                  f"{time.perf_counter() - clock:.1f} |")


if __name__ == "__main__":
    main()
