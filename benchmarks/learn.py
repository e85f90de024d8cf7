"""Tabular Q-learning on Nim (3 heaps, start (7, 7, 7)): our ``QLearner`` beside OpenSpiel's.

Run by hand from the repository root (nothing is asserted on time; ratios are printed)::

    python benchmarks/learn.py                 # about 4-5 minutes on a busy 2-core machine
    python benchmarks/learn.py --quick         # small budgets: a smoke run of both parts
    python benchmarks/learn.py --eval-every 100

Both sides play normal-play Nim, every episode from (7, 7, 7), epsilon-greedy (0.1), step
size 0.45, discount 1.  Ours: one table in self-play, negamax backups, compiled episodes.
OpenSpiel: two ``tabular_qlearner.QLearner`` agents, one per player, in the ``rl_environment``
loop of its ``independent_tabular_qlearning.py`` example, on ``pyspiel.load_game("nim",
{"pile_sizes": "7;7;7", "is_misere": False})`` (its default is misere); its agents key their
tables by ``str`` of the observation tensor (player to move and each heap, one-hot).

1. Episodes per second, a fixed number of episodes from fresh tables on each side.
2. Episodes until no optimality deviation (the Nim thesis's rule: an N position deviates when a
   tied greedy move does not reach a P position) over the 512 positions <= (7, 7, 7).
   Ours: ``episodes_to_optimal_``, median of 5 seeds, a record every 10,000 episodes (it takes
   about 1.4e7 episodes; records every 100 would cost about 2 minutes a seed).  OpenSpiel:
   every 1,000 episodes the greedy moves of the table of the player to move, at each of the
   1,014 (position, player) pairs reachable from (7, 7, 7), are mapped onto our moves (unseen
   states hold all-zero Q: all moves tie) and counted by ``learners.metrics.deviations``; a
   position deviates when either player's table does.  Capped at 200,000 episodes; seeds run
   while a 150 s budget lasts.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

import numpy as np

from games import make_game
from learners import Arena, QLearner
from learners.metrics import deviations

START, BOUND, ALPHA, EPSILON, GAMMA = (7, 7, 7), 7, 0.45, 0.1, 1.0
FULL = {"ours_rate": 2_000_000, "os_rate": 20_000, "seeds": 5, "ours_cap": 60_000_000, "ours_every": 10_000,
        "os_cap": 200_000, "os_every": 1_000, "os_budget": 150.0}
QUICK = {"ours_rate": 200_000, "os_rate": 2_000, "seeds": 2, "ours_cap": 200_000, "ours_every": 10_000,
         "os_cap": 10_000, "os_every": 1_000, "os_budget": 10.0}


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


# -- ours ------------------------------------------------------------------------------------
def ours(seed: int) -> QLearner:
    return QLearner(alpha=ALPHA, gamma=GAMMA, backup="negamax", exploration="epsilon", epsilon=EPSILON, eta=0.0,
                    random_state=seed)


def ours_rate(game, solution, episodes: int) -> float:
    """Episodes per second of one whole ``fit`` (one record at the end), after a warm-up fit."""
    ours(0).fit(game, bound=BOUND, episodes=1_000, start=START, solution=solution)
    began = time.perf_counter()
    ours(0).fit(game, bound=BOUND, episodes=episodes, start=START, eval_every=episodes, solution=solution)
    return episodes / (time.perf_counter() - began)


# -- OpenSpiel ---------------------------------------------------------------------------------
class OpenSpiel:
    """OpenSpiel's two tabular Q-learners on its nim, and their greedy policies on our arena."""

    def __init__(self, arena: Arena):
        from open_spiel.python import rl_environment

        self.env = rl_environment.Environment("nim", pile_sizes=";".join(map(str, START)), is_misere=False)
        self.arena = arena
        state = self.env.game.new_initial_state()
        self.action_of = {}  # (pile index, amount taken) -> action, parsed from "pile:1, take:2;"
        for action in state.legal_actions():
            pile, take = (int(part.split(":")[1]) for part in state.action_to_string(action).rstrip(";").split(","))
            self.action_of[pile - 1, take] = action
        # (edge ids, actions, table key) per (player, position) reachable from START with that player to move
        self.pairs = {0: [], 1: []}
        positions = arena.universe.positions(np.arange(arena.size))
        for s, position in enumerate(positions):
            lo, hi = arena.indptr[s], arena.indptr[s + 1]
            if lo == hi:
                continue
            after = arena.universe.positions(arena.targets[lo:hi])
            pile = np.argmax(after != position, axis=1)  # the heap each move shrinks
            actions = [self.action_of[int(i), int(position[i] - t[i])] for i, t in zip(pile, after)]
            for player, path in self._paths(position).items():
                self.pairs[player].append((np.arange(lo, hi), actions, self._key(path, player, position)))
        for player, pairs in self.pairs.items():
            assert len({key for _, _, key in pairs}) == len(pairs), f"player {player}: two positions share a key"

    @staticmethod
    def _paths(position) -> dict:
        """Moves (pile, amount) from START to ``position``, for each player who can be to move there."""
        cuts = [(i, START[i] - int(x)) for i, x in enumerate(position) if START[i] > x]
        paths = {len(cuts) % 2: cuts}  # one move per heap that shrank
        split = next(((i, d) for i, d in cuts if d >= 2), None)
        if split:  # one move more: take 1 from that heap first
            longer = [(split[0], 1), (split[0], split[1] - 1)] + [c for c in cuts if c != split]
            paths.setdefault(len(longer) % 2, longer)
        return paths

    def _key(self, path, player, position) -> str:
        """The key OpenSpiel's agent of ``player`` gives the state after ``path``: str(observation tensor)."""
        step = self.env.reset()
        for move in path:
            step = self.env.step([self.action_of[move]])
        assert str(self.env.get_state) == f"({player}): " + " ".join(map(str, position)), (path, player)
        return str(step.observations["info_state"][player])

    def agents(self, seed: int):
        from open_spiel.python import rl_tools
        from open_spiel.python.algorithms import tabular_qlearner

        np.random.seed(seed)  # its agents draw moves with np.random.choice
        n = self.env.action_spec()["num_actions"]
        return [tabular_qlearner.QLearner(player, n, step_size=ALPHA, discount_factor=GAMMA,
                                          epsilon_schedule=rl_tools.ConstantSchedule(EPSILON)) for player in range(2)]

    def train(self, agents, episodes: int) -> None:
        """The standard loop of OpenSpiel's examples."""
        for _ in range(episodes):
            step = self.env.reset()
            while not step.last():
                step = self.env.step([agents[step.observations["current_player"]].step(step).action])
            for agent in agents:
                agent.step(step)

    def deviations(self, agents) -> tuple[int, int]:
        """(positions where either player's greedy table deviates, deviating (position, player) pairs)."""
        either, pairs = np.zeros(self.arena.edges), 0
        for player, agent in enumerate(agents):
            mine = np.zeros(self.arena.edges)
            for edges, actions, key in self.pairs[player]:
                q = np.array([agent._q_values.get(key, {}).get(a, 0.0) for a in actions])
                mine[edges] = q == q.max()
            pairs += deviations(self.arena, mine)
            either = np.maximum(either, mine)
        return deviations(self.arena, either), pairs

    def check_keys(self, agents) -> None:
        """Every state OpenSpiel's tables hold must be one of the mapped pairs."""
        for p, agent in enumerate(agents):
            unknown = set(agent._q_values) - {key for _, _, key in self.pairs[p]}
            assert not unknown, f"player {p}: {len(unknown)} OpenSpiel states not mapped, e.g. {next(iter(unknown))}"


def openspiel_to_optimal(spiel: OpenSpiel, seed: int, cap: int, every: int) -> dict:
    """Train fresh agents ``every`` episodes at a time until no position deviates or ``cap``."""
    agents, done, train_s, curve, began = spiel.agents(seed), 0, 0.0, {}, time.perf_counter()
    while done < cap:
        tick = time.perf_counter()
        spiel.train(agents, every)
        train_s += time.perf_counter() - tick
        done += every
        curve[done] = spiel.deviations(agents)
        if curve[done][0] == 0:
            break
    spiel.check_keys(agents)  # the mapping covers every state the agents met
    hit = next((e for e, (d, _) in curve.items() if d == 0), None)
    return {"episodes": done, "hit": hit, "seconds": train_s, "curve": curve, "wall": time.perf_counter() - began}


# -- the run ------------------------------------------------------------------------------------
def _median(values, cap: int) -> tuple[float, str]:
    """Median over seeds, a seed that never reached 0 counting as infinite."""
    m = statistics.median([np.inf if v is None else v for v in values])
    return m, (f"{m:,.0f}" if np.isfinite(m) else f"not within {cap:,}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small budgets: a smoke run of both parts")
    parser.add_argument("--eval-every", type=int, default=None,
                        help="episodes between our learner's records (default 10,000; 100 costs ~2 min a seed)")
    args = parser.parse_args(argv)
    size = dict(QUICK if args.quick else FULL, **({"ours_every": args.eval_every} if args.eval_every else {}))
    import pyspiel

    print(f"python {platform.python_version()}, numpy {np.__version__}, OpenSpiel {pyspiel.__version__}, "
          f"{os.cpu_count()} CPUs; budgets: {'quick' if args.quick else 'full'}; load average {_load()}")
    print(f"settings: Nim, 3 heaps <= {BOUND}, normal play, every episode from {START}; epsilon-greedy {EPSILON}, "
          f"step size {ALPHA}, discount {GAMMA}; ours: one table, self-play, negamax backups; OpenSpiel: two "
          f"tabular_qlearner.QLearner agents (one per player), rl_environment loop")
    game = make_game("nim", heaps=3)
    arena = Arena(game, BOUND)
    spiel = OpenSpiel(arena)
    print(f"universe: {arena.size} positions ({int((arena.outcome == 1).sum())} N positions can deviate); "
          f"(position, player) pairs reachable from {START}: {len(spiel.pairs[0])} + {len(spiel.pairs[1])}")

    print("\n== 1. Episodes per second (fresh tables)")
    rate_ours = ours_rate(game, arena.solution, size["ours_rate"])
    print(f"   ours      : {size['ours_rate']:,} episodes, {rate_ours:,.0f} episodes/s (whole fit call)")
    agents, began = spiel.agents(0), time.perf_counter()
    spiel.train(agents, size["os_rate"])
    rate_os = size["os_rate"] / (time.perf_counter() - began)
    print(f"   OpenSpiel : {size['os_rate']:,} episodes, {rate_os:,.0f} episodes/s")
    print(f"   ratio     : {rate_ours / rate_os:,.0f}x (aim >= 100x)")

    print(f"\n== 2. Episodes until 0 optimality deviations over the {arena.size} positions")
    fits = []
    for seed in range(size["seeds"]):
        q = ours(seed).fit(game, bound=BOUND, episodes=size["ours_cap"], start=START, eval_every=size["ours_every"],
                           stop_when_optimal=True, solution=arena.solution)
        curve = {r["episode"]: r["deviations"] for r in q.history_}
        fits.append((q.episodes_to_optimal_, q.history_[-1]["seconds"], curve))
        print(f"   ours, seed {seed}      : {_median([fits[-1][0]], size['ours_cap'])[1]} episodes, "
              f"{fits[-1][1]:.1f} s (fit, records every {size['ours_every']:,} episodes included)", flush=True)
    deadline, runs = time.perf_counter() + size["os_budget"], []
    while len(runs) < size["seeds"] and (not runs or deadline - time.perf_counter() > runs[-1]["wall"]):
        runs.append(openspiel_to_optimal(spiel, len(runs), size["os_cap"], size["os_every"]))
        end = runs[-1]["curve"][runs[-1]["episodes"]]
        print(f"   OpenSpiel, seed {len(runs) - 1} : {_median([runs[-1]['hit']], size['os_cap'])[1]} episodes, "
              f"{runs[-1]['seconds']:.1f} s training; {end[0]} positions deviate at the end "
              f"({end[1]} (position, player) pairs)", flush=True)
    print(f"   (OpenSpiel: {len(runs)} seed(s) fit the {size['os_budget']:.0f} s budget)")
    common = [e for e in (10_000, 20_000, 50_000, 100_000, 200_000)
              if e <= size["os_cap"] and e % size["ours_every"] == 0 and e % size["os_every"] == 0]
    at = {e: (statistics.median([c.get(e, 0) for _, _, c in fits]),
              statistics.median([r["curve"].get(e, (0, 0))[0] for r in runs])) for e in common}
    for e, (mine, theirs) in at.items():
        print(f"   positions deviating after {e:>7,} episodes: ours {mine:.0f}, OpenSpiel {theirs:.0f} (medians)")

    print(f"\n== Summary (load average now {_load()})")
    ep_ours, ep_ours_text = _median([f[0] for f in fits], size["ours_cap"])
    ep_os, ep_os_text = _median([r["hit"] for r in runs], size["os_cap"])
    s_ours = statistics.median([f[1] if f[0] else np.inf for f in fits])
    s_os = statistics.median([r["seconds"] if r["hit"] else np.inf for r in runs])
    s_os_low = statistics.median([r["seconds"] for r in runs])  # a lower bound when OpenSpiel never got there
    s_ratio = s_os / s_ours if np.isfinite(s_os) else s_os_low / s_ours
    rows = [("figure", "ours", "OpenSpiel", "ratio"),
            ("episodes per second", f"{rate_ours:,.0f}", f"{rate_os:,.0f}", f"{rate_ours / rate_os:,.0f}x"),
            (f"episodes to 0 deviations (median of {len(fits)} / {len(runs)} seeds)", ep_ours_text, ep_os_text,
             f"{ep_os / ep_ours:.2f} OpenSpiel/ours" if np.isfinite(ep_os) and np.isfinite(ep_ours) else "-"),
            ("seconds to 0 deviations (median)", f"{s_ours:.1f} s" if np.isfinite(s_ours) else "-",
             f"{s_os:.1f} s" if np.isfinite(s_os) else f"> {s_os_low:.0f} s (stopped)",
             "-" if not np.isfinite(s_ours) else f"{'' if np.isfinite(s_os) else '> '}{s_ratio:.1f}x")]
    if at:
        e = common[-1]
        rows.append((f"positions deviating after {e:,} episodes", *(f"{v:.0f}" for v in at[e]), "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for i, row in enumerate(rows):
        print("| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths)) + " |")
        if i == 0:
            print("| " + " | ".join("-" * w for w in widths) + " |")
    print(f"ours: records every {size['ours_every']:,} episodes, cap {size['ours_cap']:,}; OpenSpiel: deviations "
          f"counted every {size['os_every']:,} episodes, cap {size['os_cap']:,}, training time only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
