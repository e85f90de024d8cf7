"""The Hex exploration paper's experiment: every learner variant with the same games and seeds, measured exactly.

``run`` fits each variant of ``learners.exploration.VARIANTS`` asked for, once per seed, every fit with
the same number of self-play games, and records the paper's curves (update cost, mean win-probability
variance ``Q (1 - Q)``, exploration score) and the exact measures of ``learners.exploration.accuracy``:

* boards the retrograde solves (Hex up to 4 x 4): the share of N positions where the greedy move wins,
  on a seeded sample of ``curve_sample`` N positions at every record and of ``final_sample`` at the end
  (``None``: every N position), and the openings one by one;
* Hex 5 x 5: the 25 openings and a seeded sample of ``final_sample`` positions (after 4 to 16 random
  stones; those with a winning move are kept), every move valued by the proof-number search, which
  also serves the curves;
* Hex 6 x 6 and 7 x 7: after every fit, ``final_sample`` positions met in the fitted learners' own play,
  stratified by move number, each (and each learner's greedy move there) valued by the solver with
  virtual connections within ``nodes`` evaluated positions, the unsettled counted
  (``discover.app.experiments.explore_solved``); no exact curves.

``exact`` picks the source by hand (the search's form on smaller boards, or none).

``write`` turns the record into a report folder: ``index.md`` and ``index.html`` (the table of means with 95% confidence
intervals over the seeds, each variant's paired difference from plain one-step Q), ``curves.png``, ``openings.png``
(the openings of the paper's figure 1, drawn as Hex boards) and ``explore.json``.  ``preset(game)`` gives the documented settings
per board size.

Examples
--------
>>> from games import make_game
>>> record = run(make_game("hex", n=2), ["minimax", "joint"], episodes=20, seeds=[0, 1],
...              learner={"layers": 2, "width": 4, "games": 4, "batch_size": 8})
>>> sorted(record["summary"]), len(record["runs"])
(['joint', 'minimax'], 4)
"""

from __future__ import annotations

import time

import numpy as np

from cgbase.machine import machine

__all__ = ["run", "write", "summary", "preset", "verdict", "rerun_command", "BASELINE", "MARKERS", "RANGES"]

BASELINE = "minimax"  # plain one-step Q-learning, the paper's baseline
MARKERS = ("index.md", "explore.json")  # an existing folder holding these is a report to replace
PAPER_VARIANTS = ("minimax", "joint", "variance", "pseudocount", "solver")
CURVES = (("update_cost", "update cost (squared error of Q)"), ("win_variance", "mean win-probability variance Q(1 - Q)"),
          ("exploration_score", "mean exploration score Q_exp"), ("accuracy", "greedy move wins (share of sampled N positions)"))
#: each curve's y-axis
CURVE_AXES = {"update_cost": "squared error", "win_variance": "Q(1 - Q)", "exploration_score": "Q_exp",
              "accuracy": "share of N positions"}
EXACT = ("auto", "retrograde", "search", "solver", "none")
SUMMARY = ("accuracy", "opening_wins", "opening_agreement", "opening_auc", "cpu_seconds")
#: the range each summary can take: its intervals are cut to it (a share's [0, 1])
RANGES = {"accuracy": (0.0, 1.0), "opening_wins": (0.0, 1.0), "opening_agreement": (0.0, 1.0),
          "opening_auc": (0.0, 1.0), "cpu_seconds": (0.0, float("inf")), "difference": (-1.0, 1.0)}


def preset(game) -> dict:
    """The documented settings of ``run`` for a Hex board of side ``game.n`` (see the module).

    Measured on this machine (2 shared cores, one torch thread, CPU seconds of one fit's training):
    3 x 3, 3 to 5 s a fit of 1,000 games (seven variants and three seeds in 2.5 minutes); 4 x 4, 25 to
    40 s a fit of 5,000 games (seven variants and five seeds in 49 minutes, ``reports/hex-n4-explore``);
    5 x 5, 115 to 155 s a fit of 10,000 games with the paper's 5 x 5 network (6 layers of 32 filters,
    first filters of diameter 3), plus about a minute for the search to value the openings and 300
    positions (``reports/hex-n5-explore``).  7 x 7 is the paper's own size (9 layers of 128 filters,
    the top 3 apart per head, 100,000 games, on a GPU); here its three methods (plain one-step Q,
    pseudo-counts, the solver's must-play region and proved values, the last with 20 evaluated positions
    per move: the solver with virtual connections evaluates a position in about a millisecond) on a
    reduced CPU budget: 800 games, 3 layers of 32 filters, three seeds, 300 evaluated positions per
    solved position of the measure; about 0.02, 0.04 and 0.1 to 0.25 CPU seconds a game
    (``reports/hex-n7-explore``).  6 x 6 takes the same settings.  The paper's own budget,
    on a GPU: ``--episodes 100000 --learner layers=9,width=128,head_layers=3,device=cuda``.

    Examples
    --------
    >>> from games import make_game
    >>> preset(make_game("hex", n=4))["episodes"]
    5000
    """
    n = getattr(game, "n", 0)
    if n <= 3:
        return {"episodes": 1000, "seeds": [0, 1, 2], "eval_every": 100, "curve_sample": None, "final_sample": None,
                "learner": {"layers": 3, "width": 16, "games": 16, "batch_size": 64}}
    if n == 4:
        return {"episodes": 5000, "seeds": [0, 1, 2], "eval_every": 250, "curve_sample": 10_000,
                "final_sample": 200_000, "learner": {}}
    if n == 5:
        return {"episodes": 10_000, "seeds": [0, 1, 2], "eval_every": 500, "curve_sample": None, "final_sample": 300,
                "learner": {"layers": 6, "width": 32, "head_layers": 2, "first_diameter": 3}}
    return {"episodes": 800, "seeds": [0, 1, 2], "eval_every": 100, "curve_sample": None, "final_sample": 150,
            "nodes": 300, "variants": ["minimax", "pseudocount", "solver"],
            "per_variant": {"solver": {"solver_nodes": 20}},
            "learner": {"layers": 3, "width": 32, "games": 16, "batch_size": 64}}


def _measures(game, exact: str, curve_sample, final_sample, seed: int) -> tuple[list, list, dict]:
    """(measures at every record, measures at the end, a description)."""
    from learners.exploration import ExactMeasure, OpeningMeasure

    if exact not in EXACT:
        raise ValueError(f"unknown exact measure {exact!r}: use one of {', '.join(EXACT)}")
    if exact == "auto":
        hex_n = game.n if game.name == "hex" else 0
        exact = ("retrograde" if game.retrograde_fits() else "search" if 0 < hex_n <= 5 else
                 "solver" if 0 < hex_n <= 7 else "none")
    if exact == "solver":
        if game.name != "hex" or game.n > 7:
            raise ValueError(f"exact='solver' needs Hex up to 7 x 7, got {game.title()}: use 'none'")
        return [], [], {"source": "solver with virtual connections"}
    if exact == "retrograde":
        from solvers import solve

        solution = solve(game)
        openings = OpeningMeasure.from_solution(solution)
        curve = ExactMeasure.from_solution(solution, curve_sample, seed)
        final = ExactMeasure.from_solution(solution, final_sample, seed + 1)
        about = {"source": "retrograde solver", "n_positions": int((solution.outcome_table == 1).sum())}
    elif exact == "search":
        from learners.exploration.accuracy import random_positions
        from solvers.search import Prover

        prover = Prover(game)
        openings = OpeningMeasure.from_search(game, prover)
        positions = random_positions(game, final_sample or 300, (4, 16), seed)
        curve = final = ExactMeasure.from_search(game, positions, prover)
        about = {"source": "proof-number search", "sampled_positions": int(len(positions)), "stones": [4, 16]}
    else:
        return [], [], {"source": None}
    about.update(curve_positions=len(curve), final_positions=len(final), opening_wins=openings.wins.tolist())
    return [curve, openings], [final, openings], about


def run(game, variants=PAPER_VARIANTS, episodes: int = 5000, seeds=(0, 1, 2), *, learner: dict | None = None,
        eval_every: int | None = None, exact: str = "auto", curve_sample: int | None = 10_000,
        final_sample: int | None = 200_000, nodes: int = 2000, per_variant: dict | None = None,
        progress=None) -> dict:
    """Fit every variant once per seed with ``episodes`` self-play games; the record of curves and exact measures.

    Parameters
    ----------
    game : BoardGame
    variants : sequence of str
        Names in ``learners.exploration.VARIANTS`` (``BASELINE`` is the reference of the comparison).
    episodes : int
        Self-play games per fit, the same for every variant.
    seeds : sequence of int
        One fit per seed and variant (the same seeds for every variant: differences are paired).
    learner : dict, optional
        ``BoardQLearner`` parameters for every variant (network size, batch, device ...).
    eval_every : int, optional
        Games between records (default ``episodes // 20``).
    exact : {"auto", "retrograde", "search", "solver", "none"}
        Where the exact values come from (see the module); "auto": the retrograde where it fits, else the
        search on Hex up to 5 x 5, else the solver with virtual connections up to 7 x 7, else none.
    curve_sample, final_sample : int or None
        N positions sampled for the records and for the final measure (see the module; with the solver, the
        positions met in play sampled, about the same number at every move number).
    nodes : int
        The solver's budget of evaluated positions per position and per greedy move (``exact="solver"``).
    per_variant : dict, optional
        Parameters for one variant only, over ``learner`` (``{"solver": {"solver_nodes": 20}}``).
    progress : callable, optional
        Called as ``progress(done, total, label)`` before each fit, which then shows its progress bar.

    Returns
    -------
    dict
        ``game``, ``settings``, ``measure``, ``runs`` (variant, seed, history, final) and ``summary``
        (per variant: ``interval`` of each final measure, and the paired difference from the baseline).
    """
    from cgbase.version import __version__
    from learners.exploration import VARIANTS, make_variant

    unknown = [v for v in variants if v not in VARIANTS]
    if unknown or not variants:
        raise ValueError(f"unknown variants {unknown or variants!r}: use names from {', '.join(VARIANTS)}")
    seeds = [int(s) for s in seeds]
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct integers, at least one, got {seeds!r}")
    per_variant = per_variant or {}
    params = {variant: {**(learner or {}), **per_variant.get(variant, {})} for variant in variants}
    for variant in variants:  # every variant's parameters, before the first fit
        make_variant(variant, seeds[0], **params[variant]).check_params()
    clock, cpu = time.perf_counter(), time.process_time()
    during, final, about = _measures(game, exact, curve_sample, final_sample, seeds[0])
    runs, scorers, total = [], [], len(variants) * len(seeds)
    for variant in variants:
        for seed in seeds:
            if progress is not None:
                progress(len(runs), total, f"{variant} seed {seed}")
            fitted = make_variant(variant, seed, **params[variant]).fit(game, episodes=episodes, eval_every=eval_every,
                                                                       measures=during, progress=progress is not None)
            scorers.append(fitted.action_scores)
            result = {"variant": variant, "seed": seed, "params": fitted.json_params(),
                      "history": fitted.history_, "final": {}}
            for measure in final:
                result["final"].update(measure(fitted.action_scores))
            result["final"]["cpu_seconds"] = fitted.history_[-1]["cpu_seconds"]
            runs.append(result)
    if about["source"] == "solver with virtual connections":
        from discover.app.experiments import explore_solved

        finals, about = explore_solved.measure(game, scorers, final_sample or 240, nodes, seeds[0])
        for result, measured in zip(runs, finals):
            result["final"].update(measured)
    return {"game": game.spec(), "title": game.title(), "version": __version__, "machine": machine(),
            "settings": {"variants": list(variants), "episodes": int(episodes), "seeds": seeds, "learner": learner or {},
                         "eval_every": eval_every, "exact": exact, "curve_sample": curve_sample,
                         "final_sample": final_sample, "nodes": int(nodes), "per_variant": per_variant},
            "measure": about, "runs": runs, "summary": summary(runs, variants, about),
            "seconds": time.perf_counter() - clock,
            "cpu_seconds": time.process_time() - cpu}


def summary(runs: list, variants, measure: dict) -> dict:
    """Per variant: the interval of each final measure over the seeds, and the paired difference of accuracy from
    the baseline with its t-test p-value, raw and Holm-adjusted over the variants compared (statsmodels).

    A seed's accuracy is exact over every N position, or over one fixed sample: what varies is the seed, so its
    mean gets Student's t over the seeds ("all equal" where they agree); the share of openings on the right side
    of 1/2 counts openings, so it gets Wilson's interval of the openings of every seed, widened to the t interval
    (``learners.repeats``). ``write`` computes it again from the runs, so a report shows today's intervals.
    """
    from scipy import stats

    from learners.repeats import interval

    finals = {v: {r["seed"]: r["final"] for r in runs if r["variant"] == v} for v in variants}
    openings = len(measure["opening_wins"]) if measure.get("opening_wins") else None
    trials = {"opening_agreement": openings}
    out = {}
    for variant, by_seed in finals.items():
        entry = {key: interval([f.get(key) for f in by_seed.values()], RANGES[key], trials=trials.get(key))
                 for key in SUMMARY}
        base = finals.get(BASELINE)
        if base is not None and variant != BASELINE:
            seeds = [s for s in by_seed if s in base and "accuracy" in by_seed[s] and "accuracy" in base[s]]
            diff = [by_seed[s]["accuracy"] - base[s]["accuracy"] for s in seeds]
            entry["difference"] = interval(diff, RANGES["difference"])
            entry["difference"]["p_value"] = (float(stats.ttest_1samp(diff, 0.0).pvalue)
                                              if len(diff) > 1 and np.std(diff) > 0 else float("nan"))
        out[variant] = entry
    compared = [v for v, e in out.items() if "difference" in e and np.isfinite(e["difference"]["p_value"])]
    if compared:
        from statsmodels.stats.multitest import multipletests

        adjusted = multipletests([out[v]["difference"]["p_value"] for v in compared], method="holm")[1]
        for variant, p_holm in zip(compared, adjusted):
            out[variant]["difference"]["p_holm"] = float(p_holm)
    return out


def verdict(record: dict) -> list[str]:
    """One sentence per variant: does it beat plain one-step Q (Holm-adjusted p < 0.05 on the paired differences)?

    Examples
    --------
    >>> record = {"settings": {"variants": ["minimax", "proofs"], "seeds": [0, 1, 2]}, "summary": {"proofs": {
    ...     "difference": {"mean": 0.03, "low": 0.01, "high": 0.05, "n": 3, "p_value": 0.01, "p_holm": 0.01}}}}
    >>> verdict(record)
    ['`proofs` beats `minimax`: +0.030 of positions won by the greedy move (95% CI [0.010, 0.050]; p = 0.010, Holm 0.010).']
    """
    lines = []
    for variant in record["settings"]["variants"]:
        diff = record["summary"].get(variant, {}).get("difference")
        if not diff or diff["n"] < 2:
            continue
        p_holm = diff.get("p_holm", float("nan"))
        numbers = (f"{diff['mean']:+.3f} of positions won by the greedy move (95% CI [{diff['low']:.3f}, "
                   f"{diff['high']:.3f}]; p = {diff['p_value']:.3f}, Holm {p_holm:.3f})")
        if p_holm < 0.05:
            lines.append(f"`{variant}` {'beats' if diff['mean'] > 0 else 'does worse than'} `{BASELINE}`: {numbers}.")
        else:
            lines.append(f"`{variant}`: not shown to differ from `{BASELINE}` ({diff['n']} seeds, Holm): {numbers}.")
    return lines


# -- the report ------------------------------------------------------------------------------------
def write(record: dict, folder) -> None:
    """Write ``curves.png``, ``explore.json`` and the report (``index.md``, ``index.html``) of a ``run`` record into
    ``folder``, whole or not at all (an earlier report there is replaced)."""
    from discover.app.render.document import write_document
    from cgbase.files import atomic_folder, write_json

    record = {**record, "summary": summary(record["runs"], record["settings"]["variants"], record["measure"])}
    with atomic_folder(folder, MARKERS, "report folder") as out:
        _curves(record, out / "curves.png")
        if record["measure"].get("opening_wins"):
            from discover.app.render.boards import learned_openings_figure

            learned_openings_figure(_opening_values(record), record["measure"]["opening_wins"], out / "openings.png",
                                    f"{record['title']}: learned value of every opening")
        write_json(out / "explore.json", record)
        write_document(out, _blocks(record), f"Guided exploration on {record['title']}")


def _curves(record: dict, path) -> str:
    from discover.app.render.figure import new_figure, save_figure, shared_legend, wrapped

    variants = record["settings"]["variants"]
    drawn = [(key, label) for key, label in CURVES if any(key in h for r in record["runs"] for h in r["history"])]
    fig, axes = new_figure(5 * len(drawn), 4.2, cols=len(drawn))
    for ax, (key, label) in zip(axes, drawn):
        for colour, variant in enumerate(variants):
            histories = [r["history"] for r in record["runs"] if r["variant"] == variant]
            x = np.array([h["episode"] for h in histories[0]])
            y = np.array([[h.get(key, np.nan) for h in history] for history in histories], dtype=float)
            seen = ~np.isnan(y).all(axis=0)
            if not seen.any():
                continue
            x, y = x[seen], y[:, seen]
            ax.plot(x, np.nanmean(y, axis=0), label=variant, linewidth=1.4, color=f"C{colour}")
            ax.fill_between(x, np.nanmin(y, axis=0), np.nanmax(y, axis=0), color=f"C{colour}", alpha=0.15)
        ax.set_xlabel("self-play games")
        ax.set_ylabel(CURVE_AXES[key])
        ax.set_title(wrapped(label, fig.get_figwidth() / min(len(drawn), 2), 10), fontsize=10)
        ax.grid(alpha=0.3)
    shared_legend(fig, axes[0])
    seeds = record["settings"]["seeds"]
    spread = (f"mean over seeds {', '.join(map(str, seeds))} (band: lowest to highest seed)" if len(seeds) > 1
              else f"one seed ({seeds[0]}): no band")
    fig.suptitle(wrapped(f"{record['title']}: {spread}", fig.get_figwidth(), 11), fontsize=11)
    return save_figure(fig, path)


def _ci(entry: dict, digits: int = 3) -> str:
    from learners.repeats import interval_text

    return interval_text(entry["mean"], entry["low"], entry["high"], digits, entry.get("note")) \
        if entry and entry["n"] else "-"


def _blocks(record: dict) -> list:
    from discover.app.render.document import Code, FigureFile

    settings, about, summary = record["settings"], record["measure"], record["summary"]
    seeds = settings["seeds"]
    blocks = [("h", 1, f"Guided exploration on {record['title']} (the Hex exploration paper)"),
              ("p", f"Every variant played {settings['episodes']:,} self-play games from the empty board, once per "
                    f"seed ({', '.join(map(str, seeds))}); learner settings "
                    f"{', '.join(f'{k} {v}' for k, v in settings['learner'].items()) or 'the defaults'}. "
                    "Means over the seeds with 95% confidence intervals (Student's t over the seeds, cut to [0, 1] "
                    "for shares, which cannot leave it; none where the seeds agree: \"all equal\"; the openings "
                    "right: Wilson's interval over the openings of every seed, widened to the t interval; "
                    "statsmodels); the difference is paired by "
                    f"seed against {BASELINE} (plain one-step Q-learning), with the p-value of a one-sample t-test on "
                    f"it. CPU seconds are the training loop's process time on "
                    f"{record.get('machine', 'an unrecorded machine')}.")]
    if about.get("source") and "node_budget" not in about:
        where = (f" (of {about['n_positions']:,} N positions)" if "n_positions" in about else
                 f" ({about['sampled_positions']} positions after {about['stones'][0]} to {about['stones'][1]} "
                 "random stones, those with a winning move)")
        blocks.append(("p", f"Exact measure ({about['source']}): the share of positions with a winning move where the "
                            f"greedy move (largest learned Q) wins, on {about['final_positions']:,} positions at the "
                            f"end{where} and {about['curve_positions']:,} along the curves; the openings one by one "
                            "(greedy opening wins; share of openings whose Q is on the right side of 1/2; AUC: share "
                            "of winning-losing pairs ordered right)."))
    rows = []
    for variant in settings["variants"]:
        entry = summary[variant]
        diff, wins = entry.get("difference"), entry["opening_wins"]
        p_value = f"{diff['p_value']:.3f}" if diff and np.isfinite(diff["p_value"]) else "-"
        opening = f"{int(round(sum(wins['values'])))}/{wins['n']}" if wins["n"] else "-"
        rows.append([variant, _ci(entry["accuracy"]), _ci(diff), p_value, opening,
                     _ci(entry["opening_agreement"], 2), _ci(entry["opening_auc"], 2), _ci(entry["cpu_seconds"], 0)])
    blocks += [("table", ["variant", "greedy move wins", f"difference from {BASELINE}", "p", "greedy opening wins",
                          "openings right", "opening AUC", "CPU s"], rows),
               ("p", "Verdict, by the paired differences (a variant beats plain one-step Q when the Holm-adjusted "
                     "p-value over the variants compared is below 0.05):"),
               ("list", [line.replace("`", "") for line in verdict(record)]),
               ("figure", FigureFile("curves.png", "curves", "The paper's curves and the exact measure: mean over "
                                                             "the seeds, band from the lowest to the highest seed."))]
    if about.get("opening_wins"):
        blocks += _openings(record)
    if "node_budget" in about:
        from discover.app.experiments import explore_solved

        blocks += explore_solved.blocks(record)
    call = (f"run(make_game({record['game']['name']!r}, **{record['game']['params']!r}), {settings['variants']!r}, "
            f"{settings['episodes']}, {seeds!r}, learner={settings['learner']!r}, eval_every={settings['eval_every']!r}, "
            f"exact={settings.get('exact', 'auto')!r}, curve_sample={settings['curve_sample']!r}, "
            f"final_sample={settings['final_sample']!r}, nodes={settings.get('nodes', 2000)!r}, "
            f"per_variant={settings.get('per_variant', {})!r})")
    blocks += [("p", f"To reproduce (toolkit version {record['version']}):"),
               ("pre", "\n".join(["from games import make_game", "from discover.app.experiments.explore import run, write",
                                  f"write({call}, 'FOLDER')"])),
               ("p", ["Command: ", Code(record["command"])] if record.get("command") else
                     ["Made in Python; the same on the command line: ", Code(rerun_command(record))])]
    return blocks


def rerun_command(record: dict) -> str:
    """The ``discover explore`` command line that reruns the record's settings."""
    settings, game = record["settings"], record["game"]
    words = ["discover explore", game["name"], *(f"{k}={v}" for k, v in game["params"].items()),
             "--variants", ",".join(settings["variants"]), "--episodes", str(settings["episodes"]),
             "--seeds", ",".join(map(str, settings["seeds"])), "--exact", settings.get("exact", "auto")]
    if settings["learner"]:
        words += ["--learner", ",".join(f"{k}={v}" for k, v in settings["learner"].items())]
    for option in ("curve_sample", "final_sample"):
        if settings[option] is not None:
            words += ["--" + option.replace("_", "-"), str(settings[option])]
    if record["measure"].get("node_budget"):
        words += ["--node-budget", str(settings["nodes"])]
    return " ".join(words)


def _opening_values(record: dict) -> dict:
    """Each variant's learned win probability of every first move, the mean over its seeds."""
    return {variant: np.mean([r["history"][-1]["opening_q"] for r in record["runs"] if r["variant"] == variant],
                             axis=0).tolist() for variant in record["settings"]["variants"]}


def _openings(record: dict) -> list:
    """The paper's figure 1: each opening's learned win probability (mean over seeds) on the board, one board per
    variant, the winning openings ringed (``openings.png``)."""
    from discover.app.render.document import FigureFile

    wins = np.asarray(record["measure"]["opening_wins"], dtype=bool)
    return [("h", 2, "Openings (the paper's figure 1)"),
            ("figure", FigureFile("openings.png", "openings",
                                  f"Learned win probability of each first move (mean over the seeds), one board per "
                                  f"variant; the {int(wins.sum())} openings that win are ringed."))]
