"""The Nim study as the paper ran it: three parameter sweeps, the best settings, and their tournament, repeated.

1. Sweeps (its figure 6): 75 Q settings (epsilon x alpha x gamma), 36 Q_t settings (epsilon x alpha x
   gamma x eta) and 4 Bayes discounts, each run ``repeats`` times for ``episodes`` games against an
   independent untrained copy of itself, from random starts (``learners.sweep``).
2. The best three settings of each family, ranked by the mean optimal-move rate in play over the
   learning curve (how soon and how well a learner plays: the paper's "rate at which different
   agents learn optimal play").
3. Tournament (its figure 5): the best Q, Q_t and Bayes learners each trained from scratch against
   each of the three and a random player, then their greedy policies' win rates as first player
   (``discover.app.experiments.learner_study``), ``repeats`` times with other seeds; means and 95%
   intervals over the repeats, and whether the Bayes agent beats the Q agents, as the paper says.

``run(game, ...)`` returns the record; ``write(record, folder)`` writes the three sweeps' folders,
``figure-6.png``, ``figure-5.png``, ``study.json`` and the report. Given a folder, ``run`` resumes: the
sweeps and the tournament's repeats are journaled there as they end. ``discover study nim``.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

__all__ = ["run", "write", "check_folder", "FAMILIES", "NAMES", "VERBS", "MARKERS"]

#: the Nim study's grids (its section "Learning Performance")
FAMILIES = {
    "q": {"epsilon": [0.1, 0.3, 0.5], "alpha": [0.1, 0.3, 0.5, 0.7, 0.9], "gamma": [0.1, 0.3, 0.5, 0.7, 0.9]},
    "qt": {"epsilon": [0.1, 0.5, 0.9], "alpha": [0.1, 0.3], "gamma": [0.5, 0.9], "eta": [1e-3, 1e-4, 1e-5]},
    "bayes": {"discount": [0.1, 0.5, 0.9, 0.99]},
}
NAMES = {"q": "Q", "qt": "Q_t", "bayes": "Bayes"}
VERBS = {"beats": "beats", "loses to": "loses to", "no clear difference": "shows no clear difference from"}  # verdicts
MARKERS = ("study.json", "index.md")  # a finished study
JOURNAL = "tournament.jsonl"
RANK = "optimal_move_rate_mean"
REPEAT_SEED = 10_000  # the tournament's repeat r plays with seeds from seed + r * this


def run(game, *, bound: int = 9, episodes: int = 75_000, repeats: int = 10, games: int = 1000, seed: int = 0,
        backup: str = "reply", points: int = 25, families: dict = FAMILIES, workers=None, folder=None,
        progress: bool = False) -> dict:
    """The Nim study's sweeps, best settings and tournament (see the module docstring); the record.

    ``backup`` is the Q learners' (``"reply"``: the paper's formulation, from its own moves; ``"negamax"``:
    every move of the game); ``games`` the tournament's games per pairing; ``families`` the grids of
    ``q``, ``qt`` and ``bayes`` (the paper's unless told); ``workers`` where the runs go
    (``cgbase.parallel.as_workers``; the numbers never depend on it).

    Examples
    --------
    >>> from games import make_game
    >>> small = {"q": {"alpha": [0.5]}, "qt": {"eta": [1e-3]}, "bayes": {"discount": [0.5, 0.9]}}
    >>> record = run(make_game("nim", heaps=2), bound=3, episodes=500, repeats=2, games=50, families=small)
    >>> [len(record["best"][f]) for f in small], len(record["tournament"]["repeats"])
    ([1, 1, 2], 2)
    """
    from cgbase.parallel import as_workers
    from learners import sweep
    from learners.repeats import rank_settings

    if isinstance(repeats, int) and repeats < 2:
        raise ValueError(f"repeats must be at least 2 for the study's 95% intervals and verdict, got {repeats}")
    clock, load = time.perf_counter(), _load()
    folder = Path(folder) if folder is not None else None
    pool = as_workers(workers)
    try:
        sweeps = {}
        if sorted(families) != sorted(FAMILIES):
            raise ValueError(f"the study's families are {', '.join(FAMILIES)}, got {', '.join(families)}")
        for family, grid in families.items():
            grid = {**grid, "backup": [backup]} if family != "bayes" else grid
            sweeps[family] = sweep.run(family, game, grid, bound=bound, repeats=repeats, episodes=episodes,
                                       seed=seed, opponent="copy", points=points, workers=pool,
                                       folder=folder / family if folder is not None else None, progress=progress)
        best = {family: rank_settings(record["runs"], RANK)[:3] for family, record in sweeps.items()}
        params = {family: settings[0]["params"] for family, settings in best.items()}
        tournament = _tournament(game, bound, params, episodes, repeats, games, seed, pool, folder)
    finally:
        if pool is not workers:
            pool.close()
    settings = {"game": repr(game), "title": game.title(), "spec": game.spec(), "bound": bound, "episodes": episodes, "repeats": repeats,
                "games": games, "seed": seed, "backup": backup, "points": points, "rank": RANK}
    return {"settings": settings, "sweeps": sweeps, "best": _best_summary(best), "params": params,
            "tournament": tournament, "verdict": verdict(tournament["repeats"]),
            "seconds": time.perf_counter() - clock, "workers": repr(pool), "load": [load, _load()]}


def _load() -> list:
    return [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else []


def _best_summary(best: dict) -> dict:
    return {family: [{"setting": s["setting"], "params": s["params"], "values": s["values"]} for s in settings]
            for family, settings in best.items()}


def tournament_repeat(game, bound: int, params: dict, episodes: int, games: int, seed: int) -> dict:
    """One repeat of the tournament: ``discover.app.experiments.learner_study`` without its curves; win rates and
    the share of starts a perfect first player wins."""
    from discover.app.experiments import learner_study

    out = learner_study.run(game, bound, tuple(params), episodes, games, seed, params=params, curves=False)
    return {"seed": seed, "first": out["first"], "second": out["second"], "n_share": out["n_share"]}


def _tournament(game, bound, params, episodes, repeats, games, seed, pool, folder) -> dict:
    from cgbase.journal import append_record, read_records, start_journal
    from cgbase.reading import Field

    rates = Field("object")  # learner -> opponent -> win rate
    repeat = {"seed": Field("int", low=0, high=2**64), "first": rates, "second": rates,
              "n_share": Field("number", null=True, low=0, high=1)}
    identity = {"tournament": {"game": game.spec(), "bound": bound, "params": params, "episodes": episodes,
                               "games": games}}
    seeds = [seed + r * REPEAT_SEED for r in range(repeats)]
    found = {}
    journal = folder / JOURNAL if folder is not None else None
    if journal is not None:
        records = read_records(journal, "tournament journal", {"tournament": Field("object")}, repeat)
        if records and records[0] != identity:
            records = []  # other best settings (the sweeps changed): the repeats start again
            journal.unlink()
        found = {r["seed"]: r for r in records[1:]}
    todo = [s for s in seeds if s not in found]
    started = []

    def done(i, result):
        found[result["seed"]] = result
        if journal is not None:
            if not started:  # the journal is started by the first finished repeat: a refusal leaves no folder
                journal.parent.mkdir(parents=True, exist_ok=True)
                start_journal(journal, identity, "tournament journal")
                started.append(True)
            append_record(journal, result, "tournament journal")

    pool.map(tournament_repeat, [(game, bound, params, episodes, games, s) for s in todo], done)
    return {**identity["tournament"], "repeats": [found[s] for s in seeds]}


def average_first(repeat: dict) -> dict:
    """Each learner's win rate as first player averaged over its opponents (the paper's figure 5).

    Examples
    --------
    >>> average_first({"first": {"q": {"q": 0.5, "random": 0.9}}})
    {'q': 0.7}
    """
    return {a: sum(row.values()) / len(row) for a, row in repeat["first"].items()}


def verdict(repeats: list) -> dict:
    """Whether the Bayes agent beats each Q agent: the difference of their averages as first player
    (``average_first``), paired by repeat, with its 95% interval; ``"beats"`` when the interval lies above
    0, ``"loses to"`` below, ``"no clear difference"`` when it holds 0.

    Examples
    --------
    >>> reps = [{"first": {"q": {"q": 0.5}, "qt": {"q": 0.5}, "bayes": {"q": 0.8 + k / 100}}} for k in range(3)]
    >>> verdict(reps)["q"]["outcome"]
    'beats'
    """
    from learners.repeats import mean_interval

    averages = [average_first(r) for r in repeats]
    out = {}
    for rival in ("q", "qt"):
        mean, low, high = mean_interval([a["bayes"] - a[rival] for a in averages], within=(-1.0, 1.0))
        outcome = "beats" if low > 0 else "loses to" if high < 0 else "no clear difference"
        out[rival] = {"difference": mean, "low": low, "high": high, "outcome": outcome}
    out["paper_claim_holds"] = all(out[r]["outcome"] == "beats" for r in ("q", "qt"))
    return out


def check_folder(folder) -> Path:
    """Refuse, before any work, a folder that is neither new, empty, a finished study nor a study under way."""
    from cgbase.files import check_output_folder

    under_way = (Path(folder) / "q" / "runs.jsonl").is_file()
    return check_output_folder(folder, ("q/runs.jsonl",) if under_way else MARKERS, "study folder")


# -- writing -----------------------------------------------------------------------------------------------
def write(record: dict, folder) -> None:
    """Write the sweeps' folders (``q/``, ``qt/``, ``bayes/``), ``figure-6.png``, ``figure-5.png``, ``study.json``
    and the report (``index.md``, ``index.html``) of a ``run`` record into ``folder``."""
    from cgbase.files import atomic_folder, write_json
    from discover.app.render import sweep
    from discover.app.render.curves import band_figure
    from discover.app.render.document import write_document
    from learners.repeats import rank_settings

    under_way = (Path(folder) / "q" / "runs.jsonl").is_file()
    with atomic_folder(folder, ("q/runs.jsonl",) if under_way else MARKERS, "study folder") as out:
        panels = []
        for family, result in record["sweeps"].items():
            # its record as sweep.json keeps it (no timings: those are the study's), so it reads back the same
            sweep.write({"sweep": result["sweep"], "runs": result["runs"], "command": record.get("command")},
                        out / family, RANK)
            ranked = rank_settings(result["runs"], RANK)
            lines = [(_short(s["params"]) or NAMES[family], s) for s in ranked[:3]]
            panels.append((f"{NAMES[family]}: {len(ranked)} settings", "optimal_move_rate", lines, ranked[3:]))
        band_figure(panels, out / "figure-6.png", f"Figure 6: optimal-move rate in play, each setting's mean over "
                                                  f"{record['settings']['repeats']} seeds (the best three with 95% bands)")
        _figure_5(record, out / "figure-5.png")
        write_json(out / "study.json", {k: v for k, v in record.items() if k != "sweeps"})
        write_document(out, _blocks(record), "The Nim study, swept")


def _figure_5(record: dict, path) -> str:
    import numpy as np

    from learners.repeats import SHARE, mean_interval
    from discover.app.render.figure import legend_below, new_figure, save_figure

    repeats = record["tournament"]["repeats"]
    learners = list(repeats[0]["first"])
    opponents = list(repeats[0]["first"][learners[0]])
    columns = [*opponents, "average"]
    fig, (ax,) = new_figure(9, 4.2)
    width = 0.8 / len(learners)
    for i, a in enumerate(learners):
        values = [[r["first"][a][b] for r in repeats] for b in opponents]
        values.append([average_first(r)[a] for r in repeats])
        games = record["settings"]["games"]  # each win rate is a share of these games; the average of every pairing's
        stats = [mean_interval(v, SHARE, trials=games * (len(opponents) if k == len(opponents) else 1))
                 for k, v in enumerate(values)]
        means = [m for m, _, _ in stats]
        errors = np.nan_to_num([[m - lo for m, lo, _ in stats], [hi - m for m, _, hi in stats]])
        ax.bar([k + (i - (len(learners) - 1) / 2) * width for k in range(len(columns))], means, width,
               yerr=errors, capsize=3, label=f"{NAMES.get(a, a)} ({_short(record['params'][a])})")
    ax.axhline(repeats[0]["n_share"], color="0.3", linestyle="--", linewidth=1, label="a perfect first player")
    ax.set_xticks(range(len(columns)), [f"against {NAMES.get(c, c)}" if c != "average" else c for c in columns])
    ax.set_xlabel("opponent")
    ax.set_ylabel("win rate as first player")
    ax.set_ylim(0, 1.05)
    legend_below(ax, columns=2)
    ax.set_title(f"Figure 5: win rate as first player, mean of {len(repeats)} repeats and 95% interval", fontsize=10)
    return save_figure(fig, path)


def _finite(x) -> bool:
    return x is not None and math.isfinite(x)


def _short(params: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in params.items() if k != "backup")


def _blocks(record: dict) -> list:
    from discover.app.render.sweep import settings_table
    from learners.repeats import SHARE, format_interval
    from discover.app.render.document import Code, FigureFile, Link

    s, t, v = record["settings"], record["tournament"], record["verdict"]
    repeats = t["repeats"]
    words = []
    for rival in ("q", "qt"):
        d = v[rival]
        words.append(f"the Bayes agent {VERBS[d['outcome']]} the {NAMES[rival]} agent (difference of the averages as "
                     f"first player {d['difference']:+.3f}, " + (
                         f"95% interval [{d['low']:+.3f}, {d['high']:+.3f}])" if _finite(d['low']) else
                         "the same in every repeat: no interval)"))
    claim = ("The paper's claim holds here" if v["paper_claim_holds"] else
             "The paper's claim (the Bayes agent clearly outperforms the Q agents) does not hold here")
    learners = list(repeats[0]["first"])
    opponents = list(repeats[0]["first"][learners[0]])
    every = s["games"] * len(opponents)  # the games of a learner's average as first player, each repeat
    rows = [[f"{NAMES[a]} ({_short(record['params'][a])})",
             format_interval([average_first(r)[a] for r in repeats], within=SHARE, trials=every),
             *(format_interval([r["first"][a][b] for r in repeats], within=SHARE, trials=s["games"])
               for b in opponents)]
            for a in learners]
    best_rows, headers = [], None
    for family, settings in record["best"].items():
        ranked = [{**b, "runs": _runs_of(record, family, b["setting"])} for b in settings]
        headers, table = settings_table(ranked, RANK, ["params"])
        best_rows += [[NAMES[family], row[0], _short(b["params"]), *row[2:]] for row, b in zip(table, settings)]
    sweeps = [[Link(f"{NAMES[f]}", f"{f}/index.md"), f": {len(r['runs']) // s['repeats']} settings x {s['repeats']} "
               f"seeds"] for f, r in record["sweeps"].items()]
    games = sum(len(r["runs"]) for r in record["sweeps"].values()) * s["episodes"]
    load = record["load"]
    return [
        ("h", 1, f"The Nim study on {s.get('title', s['game'])}, bound {s['bound']}: sweeps, the best settings, the "
                 "tournament"),
        ("p", f"As in the paper: every Q setting (epsilon, alpha, gamma), Q_t setting (epsilon, alpha, gamma, eta) "
              f"and Bayes discount played {s['episodes']:,} games against an independent untrained copy of "
              f"itself, from random starts (heaps of at most {s['bound']}, not all empty), {s['repeats']} times "
              f"with seeds {s['seed']} to {s['seed'] + s['repeats'] - 1}: {games:,} games in all. The Q learners back "
              f"up {'from their own moves (the paper' + chr(39) + 's formulation)' if s['backup'] == 'reply' else 'every move of the game (negamax)'}. "
              f"Settings are ranked by the optimal-move rate in play averaged over the learning curve."),
        ("h", 2, "Does the Bayes agent beat the Q agents?"),
        ("p", f"{claim}: " + "; ".join(words) + f". Each learner's win rate as first player is averaged over its "
              f"four opponents, as in the paper's figure 5, in each of {len(repeats)} repeats of the tournament "
              f"(every learner trained from scratch for {s['episodes']:,} games against each opponent, then "
              f"{s['games']:,} games per pairing from random starts; a perfect first player wins "
              f"{repeats[0]['n_share']:.2f} of them). A win rate's interval is Wilson's over the games of every "
              f"repeat ({s['games']:,} a pairing and repeat; the average: its {len(opponents)} pairings'), widened "
              "to Student's t over the repeats where they differ more; the differences, paired by repeat, get "
              "Student's t (learners.repeats, statsmodels)."),
        ("figure", FigureFile("figure-5.png", "Figure 5", "Win rate as first player against each opponent and on "
                              "average: mean of the repeats, 95% interval.")),
        ("table", ["learner (the best of its family)", "average as first player",
                   *(f"against {NAMES.get(b, b)}" for b in opponents)], rows),
        ("h", 2, "Learning progress of every setting (figure 6) and the best three of each family"),
        ("figure", FigureFile("figure-6.png", "Figure 6", "Optimal-move rate in play against games: every setting's "
                              "mean over its seeds in grey, the best three of each family with 95% bands.")),
        ("table", ["family", "rank", "parameters", *headers[2:]], best_rows),
        ("list", sweeps),
        ("p", ["Command: ", Code(record.get("command") or "discover study"),
               f" ({record['seconds']:.0f} s on {record['workers']}; load average over 1, 5 and 15 minutes "
               f"{', '.join(map(str, load[0]))} at the start and {', '.join(map(str, load[1]))} at the end). "
               f"Every run: ", Code("q/sweep.json"), ", ", Code("qt/sweep.json"), ", ", Code("bayes/sweep.json"),
               "; the tournament's repeats and the verdict: ", Code("study.json"), "."]),
    ]


def _runs_of(record: dict, family: str, setting: int) -> list:
    return [r for r in record["sweeps"][family]["runs"] if r["setting"] == setting]
