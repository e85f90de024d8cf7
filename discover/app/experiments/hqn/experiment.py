"""The HQN paper's experiments: accuracy over time (figure 9), across board sizes (figure 10) and
through rule changes (figure 11), for the neural and the symbolic model.

``run(game, ...)`` returns the record of all three; ``write(record, folder)`` writes the figures, the
record (``hqn.json``) and the report (``index.md``, ``index.html``): ``discover hqn wythoff``.

Accuracy is the paper's measure: the share of N positions of an n x n board where the agent's
move is optimal (reaches a P position), scored against the solver.  For a symbolic model on
boards too large for a move graph, the rule's partition is compared with the solver's on every
position instead: where they agree everywhere the rule's agent, which moves into a position the
rule calls P whenever there is one, is optimal at every N position, so its accuracy is 1.
"""

from __future__ import annotations

import time

import numpy as np

from cgbase.machine import machine
from discover.app.experiments.hqn.symbolic_model import SymbolicModel, SymbolicModelBuilder
from discover.verify import rule_values
from learners import Arena, HypothesisAgent, QLearner
from learners.hqn.learner import HQN
from learners.metrics import policy_accuracy
from solvers import solve

__all__ = ["run", "write", "accuracy_over_time", "accuracy_by_size", "rule_change_cycle", "model_accuracy",
           "many_heap_games", "GRAPH_LIMIT", "MARKERS"]

GRAPH_LIMIT = 300  # largest board scored through its move graph
MARKERS = ("index.md", "hqn.json")  # an existing folder holding these is a report to replace


def model_accuracy(game, model, n: int) -> float:
    """the paper's accuracy of a model's agent on the n x n board (see the module docstring)."""
    if n <= GRAPH_LIMIT:
        arena = Arena(game, n)
        return policy_accuracy(arena, HypothesisAgent(model.cold).edge_weights(arena))
    if not isinstance(model, SymbolicModel):
        raise ValueError(f"boards over {GRAPH_LIMIT} are scored for symbolic models only")
    solution = solve(game, bound=n)
    agree = np.array_equal(rule_values(model.rule, solution.universe), solution.outcome_table == -1)
    return 1.0 if agree else float("nan")


def accuracy_over_time(game, periods: int = 15, episodes: int = 2000, bound: int = 12, eval_bound: int = 50,
                       seed: int = 0, progress=None) -> dict:
    """Figure 9: per time step, the accuracy on the evaluation board of the Q-agent alone
    (trained on that board, 5 x ``episodes`` games a step, as the paper's naive Q), of the neural
    HQN's best model and of the symbolic HQN's best model; and the wall time. The Q-network
    (line games only) trains on the training board against the optimal player, ``episodes / 2``
    games a step as in the paper, and is scored there: its action set is sized by that board."""
    say = progress or (lambda message: None)
    curves = {}
    arena = Arena(game, eval_bound)
    q = QLearner(backup="reply", exploration="boltzmann", random_state=seed)
    say("Q-agent")
    q.fit(game, bound=eval_bound, episodes=5 * episodes * periods, opponent="greedy", eval_every=5 * episodes,
          solution=arena.solution, progress=progress is not None)
    n_positions = int(((arena.outcome == 1) & (np.diff(arena.indptr) > 0)).sum())
    points = [{"step": k + 1, "accuracy": 1 - r["deviations"] / n_positions, "seconds": r["seconds"]}
              for k, r in enumerate(q.history_)]
    curves["Q-agent"] = points
    if getattr(game, "line_directions", None):
        say("Q-network")
        from learners.hqn.qnetwork import QNetworkLearner

        qn = QNetworkLearner(random_state=seed).fit(game, bound=bound, episodes=episodes // 2 * periods,
                                                    progress=progress is not None,
                                                    opponent="optimal", eval_every=episodes // 2)
        curves[f"Q-network ({bound} x {bound} board)"] = [
            {"step": k + 1, "accuracy": r["accuracy"], "seconds": r["seconds"]} for k, r in enumerate(qn.history_)]
    for name, builder in (("HQN (neural model)", "neural"), ("symbolic HQN", SymbolicModelBuilder())):
        say(name)
        clock = time.perf_counter()
        hqn = HQN(model=builder, random_state=seed).fit(game, bound=bound, eval_bound=eval_bound, periods=periods,
                                                        episodes=episodes, progress=progress is not None)
        seconds = (time.perf_counter() - clock) / periods
        curves[name] = [{"step": r["period"], "accuracy": r["model_accuracy"], "seconds": seconds * r["period"],
                         "performance": r["best_performance"], "model": r["model"]} for r in hqn.history_]
    return {"curves": curves, "settings": {"game": repr(game), "periods": periods, "episodes": episodes,
                                           "bound": bound, "eval_bound": eval_bound, "seed": seed}}


def accuracy_by_size(game, models: dict, sizes=(10, 20, 50, 100, 200, 300), symbolic_sizes=(1000, 10000)) -> dict:
    """Figure 10: accuracy of converged models (name -> model) across board sizes."""
    table = {}
    for name, model in models.items():
        extra = symbolic_sizes if isinstance(model, SymbolicModel) else ()
        table[name] = {n: model_accuracy(game, model, n) for n in (*sizes, *extra)}
    return table


def rule_change_cycle(games, cycles: int = 2, threshold: float = 0.95, patience: int = 2, max_periods: int = 12,
                      episodes: int = 2000, bound: int = 12, eval_bound: int = 30, seed: int = 0, progress=None) -> dict:
    """Figure 11: the symbolic HQN meets ``games`` in turn, ``cycles`` times, without being told;
    a game lasts until the agent has noticed the change and its best model scores ``threshold``
    against greedy Q or has stayed the same for ``patience`` periods (or ``max_periods`` pass).
    ``recovery`` counts the periods from the detection to the first period of the final model."""
    say = progress or (lambda message: None)
    hqn = HQN(model=SymbolicModelBuilder(), random_state=seed)
    stints = []
    for cycle in range(cycles):
        for game in games:
            first = len(getattr(hqn, "history_", []))
            detected_at = 0 if first == 0 else None  # the first game needs no detection
            for period in range(max_periods):
                hqn.fit(game, bound=bound, eval_bound=eval_bound, periods=1, episodes=episodes, warm_start=first > 0 or period > 0)
                records = hqn.history_[first:]
                if detected_at is None and records[-1]["change_detected"]:
                    detected_at = period + 1
                settled = len(records) - detected_at >= patience and len({r["model"] for r in records[-patience:]}) == 1 \
                    if detected_at is not None else False
                if detected_at is not None and (records[-1]["best_performance"] >= threshold or settled):
                    break
            records = hqn.history_[first:]
            final = records[-1]["model"]
            since = next(i for i in range(len(records), 0, -1) if i == 1 or records[i - 2]["model"] != final)
            stints.append({"cycle": cycle + 1, "game": repr(game), "periods": len(records), "detected_at": detected_at,
                           "recovery": None if detected_at is None else max(0, since - detected_at),
                           "recalled": any(r["recalled"] for r in records), "model": final,
                           "model_accuracy": records[-1]["model_accuracy"], "performance": records[-1]["best_performance"]})
            say(f"cycle {cycle + 1}, {game!r}: change detected at period {detected_at}, {len(records)} periods, "
                f"model {final}")
    return {"stints": stints, "history": hqn.history_, "memory": [m.describe() for m in hqn.memory_],
            "settings": {"threshold": threshold, "patience": patience, "episodes": episodes, "bound": bound, "eval_bound": eval_bound,
                         "seed": seed, "max_periods": max_periods}}


def run(game, periods: int = 15, episodes: int = 2000, bound: int = 12, eval_bound: int = 50, seed: int = 0,
        progress=None) -> dict:
    """The three experiments on ``game`` (a game of two coordinates): a JSON-ready record.

    The rule changes cycle through Wythoff, two-heap Nim and Euclid whatever ``game`` is, as in the paper.
    """
    from games import make_game

    if game.dims != 2:
        raise ValueError(f"the HQN experiments are on boards (games of two coordinates); {game!r} has {game.dims}")
    HQN(random_state=seed).check_boards(game, bound, eval_bound)  # before the Q-agent's hours of play
    say = progress or (lambda message: None)
    clock = time.perf_counter()
    over_time = accuracy_over_time(game, periods, episodes, bound, eval_bound, seed, progress=say)
    models = {}
    for name, builder in (("neural model", "neural"), ("symbolic model", SymbolicModelBuilder())):
        say(f"HQN with the {name}, to convergence")
        hqn = HQN(model=builder, random_state=seed).fit(game, bound=bound, eval_bound=eval_bound, periods=periods,
                                                        episodes=episodes, progress=progress is not None)
        models[name] = hqn.best_model_
    say("accuracy across board sizes")
    sizes = accuracy_by_size(game, models)
    say("rule changes: wythoff -> nim -> euclid, twice")
    cycle = rule_change_cycle([make_game("wythoff"), make_game("nim", heaps=2), make_game("euclid")],
                              episodes=episodes, bound=bound, seed=seed, progress=say)
    return {"game": repr(game), "title": game.title(), "machine": machine(), "spec": game.spec(), "over_time": over_time,
            "sizes": {name: {str(n): v for n, v in row.items()} for name, row in sizes.items()},
            "models": {k: m.describe() for k, m in models.items()}, "cycle": cycle,
            "settings": {"periods": periods, "episodes": episodes, "bound": bound, "eval_bound": eval_bound,
                         "seed": seed},
            "seconds": time.perf_counter() - clock}


def write(record: dict, folder) -> None:
    """Write figures 9, 10 and 11, ``hqn.json`` and the report of a ``run`` record into ``folder``."""
    from discover.app.render.document import write_document
    from cgbase.files import atomic_folder, write_json

    s = record["settings"]
    with atomic_folder(folder, MARKERS, "report folder") as out:
        _figure(out / "figure9-accuracy-over-time.png",
                f"{record['game']}: accuracy on the {s['eval_bound']} x {s['eval_bound']} board",
                lambda ax: _plot_time(ax, record["over_time"]["curves"]))
        _figure(out / "figure10-accuracy-by-size.png",
                f"{record['game']}: converged models, trained on {s['bound']} x {s['bound']}",
                lambda ax: _plot_sizes(ax, record["sizes"]))
        _figure(out / "figure11-rule-changes.png", "symbolic HQN through rule changes",
                lambda ax: _plot_cycle(ax, record["cycle"]))
        write_json(out / "hqn.json", record)
        write_document(out, _blocks(record), f"HQN experiments on {record['game']}")


def _figure(path, title: str, draw) -> None:
    from discover.app.render.figure import legend_below, new_figure, save_figure

    fig, (ax,) = new_figure(7.5, 4.5)
    draw(ax)
    ax.grid(alpha=0.3)
    legend_below(ax)
    ax.set_title(title, fontsize=10)
    save_figure(fig, path)


def _plot_time(ax, curves) -> None:
    for name, points in curves.items():
        ax.plot([p["step"] for p in points], [p["accuracy"] for p in points], marker="o", markersize=3, label=name)
    ax.set_xlabel("time step (period of games)")
    ax.set_ylabel("accuracy: share of N positions with an optimal move")
    ax.set_ylim(-0.02, 1.02)


def _plot_sizes(ax, sizes) -> None:
    for name, row in sizes.items():
        ns = sorted(int(n) for n in row)
        ax.plot(ns, [row[str(n)] for n in ns], marker="o", label=name)
    ax.set_xscale("log")
    ax.set_xlabel("board size n (n x n)")
    ax.set_ylabel("accuracy")
    ax.set_ylim(-0.02, 1.02)


def _plot_cycle(ax, cycle) -> None:
    """The best model's score and accuracy through the stints, each stint shaded and named above the axes (off
    the dotted lines where a change was detected)."""
    history = cycle["history"]
    ax.plot([r["period"] for r in history], [r["best_performance"] for r in history], label="best model's score")
    ax.plot([r["period"] for r in history], [r["model_accuracy"] for r in history], label="its accuracy (solver)")
    start, centres, names = 0, [], []
    for stint in cycle["stints"]:
        family = stint["game"].split("(")[0]
        ax.axvspan(start + 0.5, start + stint["periods"] + 0.5, alpha=0.08,
                   color={"wythoff": "red", "nim": "blue", "euclid": "green"}.get(family, "grey"))
        if stint["detected_at"]:
            ax.axvline(start + stint["detected_at"], color="black", linestyle=":", linewidth=1)
        centres.append(start + (stint["periods"] + 1) / 2)
        names.append(family)
        start += stint["periods"]
    top = ax.secondary_xaxis("top")
    top.set_xticks(centres, names, fontsize=8)
    top.tick_params(length=0)
    ax.set_xlabel("period (dotted: change detected)")
    ax.set_ylabel("share (score, accuracy)")
    ax.set_ylim(-0.02, 1.02)


def _blocks(record: dict) -> list:
    from discover.app.render.document import Code, FigureFile

    s = record["settings"]
    sizes = record["sizes"]
    columns = list(sizes["symbolic model"])
    blocks = [
        ("h", 1, f"HQN experiments on {record.get('title', record['game'])} (the HQN paper)"),
        ("p", f"Training board {s['bound']} x {s['bound']}, models scored by play on {s['eval_bound']} x "
              f"{s['eval_bound']}, {s['periods']} periods of {s['episodes']:,} games, seed {s['seed']}. Accuracy: the "
              "share of N positions where the agent's move is optimal, against the solver."),
        ("h", 2, "Figure 9: accuracy over time"),
        ("figure", FigureFile("figure9-accuracy-over-time.png", "figure 9", "Accuracy on the evaluation board, per period.")),
        ("table", ["agent", "final accuracy", "seconds"],
         [[name, f"{points[-1]['accuracy']:.3f}", f"{points[-1]['seconds']:.1f}"]
          for name, points in record["over_time"]["curves"].items()]),
        ("h", 2, "Figure 10: converged models across board sizes"),
        ("figure", FigureFile("figure10-accuracy-by-size.png", "figure 10", "Accuracy of the converged models by board size.")),
        ("table", ["model", *columns],
         [[f"{name}: {record['models'][name]}", *(f"{row[n]:.3f}" if n in row else "-" for n in columns)]
          for name, row in sizes.items()]),
        ("h", 2, "Figure 11: rule changes (Wythoff -> Nim -> Euclid, twice, unannounced)"),
        ("figure", FigureFile("figure11-rule-changes.png", "figure 11", "The symbolic HQN's best model through the changes.")),
        ("table", ["cycle", "game", "periods", "change detected at", "recovery (periods)", "recalled", "model", "accuracy"],
         [[str(t["cycle"]), t["game"], str(t["periods"]), str(t["detected_at"]), str(t["recovery"]), str(t["recalled"]),
           t["model"], f"{t['model_accuracy']:.3f}"] for t in record["cycle"]["stints"]]),
        ("p", [*(["Command: ", Code(record["command"]), "; "] if record.get("command") else []),
               f"total time {record['seconds']:.0f} s on {record['machine']}."]),
    ]
    return blocks


def many_heap_games(rule, heaps: int, max_heap: int = 31, games: int = 1000, seed: int = 0) -> dict:
    """The rule's agent plays Nim with ``heaps`` heaps of at most ``max_heap``, first, from random N
    positions, against a reference that plays the nim-sum strategy (the theorem: the reference may
    know it, the rule's agent does not). All games advance together; options come from the game's
    own move kernel and the agent moves into the first option its rule calls P (else the first)."""
    from games import make_game

    game = make_game("nim", heaps=heaps)
    rng = np.random.default_rng(seed)
    starts = rng.integers(0, max_heap + 1, size=(4 * games, heaps))
    starts = starts[np.bitwise_xor.reduce(starts, axis=1) != 0][:games]
    positions, alive = starts.copy(), np.ones(len(starts), dtype=bool)
    winner = np.full(len(starts), -1)
    params = game.kernel_params()
    for ply in range(heaps * max_heap + 1):
        live = np.flatnonzero(alive)
        if live.size == 0:
            break
        empty = positions[live].sum(axis=1) == 0
        winner[live[empty]] = 1 - ply % 2  # the player to move has no move and loses
        alive[live[empty]] = False
        live = live[~empty]
        if live.size == 0:
            break
        if ply % 2 == 0:
            positions[live] = _rule_moves(game, rule, positions[live], params)
        else:
            positions[live] = _nim_sum_moves(positions[live], rng)
    return {"heaps": heaps, "max_heap": max_heap, "games": int(len(starts)), "wins": int((winner == 0).sum()),
            "losses": int((winner == 1).sum())}


def _rule_moves(game, rule, positions, params):
    cap = game.max_moves(np.full(game.dims, positions.max()))
    out = np.empty((len(positions), cap, game.dims), dtype=np.int64)
    counts = np.zeros(len(positions), dtype=np.int64)
    game.kernel(positions, params, counts, out)
    valid = np.arange(cap)[None, :] < counts[:, None]
    is_p = np.zeros((len(positions), cap), dtype=bool)
    is_p[valid] = rule.predicate(out[valid])
    pick = np.where(is_p.any(axis=1), is_p.argmax(axis=1), 0)
    return out[np.arange(len(positions)), pick]


def _nim_sum_moves(positions, rng):
    """The theorem's move: to nim-sum 0 when possible, else one token from a random non-empty heap."""
    x = np.bitwise_xor.reduce(positions, axis=1)
    reduced = positions ^ x[:, None]
    can = (reduced < positions) & (x[:, None] != 0)
    moved = positions.copy()
    rows = np.flatnonzero(can.any(axis=1))
    moved[rows, can[rows].argmax(axis=1)] = reduced[rows, can[rows].argmax(axis=1)]
    stuck = np.flatnonzero(~can.any(axis=1))
    heap = np.argmax((moved[stuck] > 0) * rng.random(moved[stuck].shape), axis=1)
    moved[stuck, heap] -= 1
    return moved
