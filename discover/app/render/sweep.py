"""The report of a parameter sweep (``learners.sweep``): ``sweep.json``, the curves of the best settings and the
settings ranked with 95% intervals.

``write(record, folder)`` writes ``sweep.json`` (``learners.sweep.sweep_json``: the same bytes whatever ran the
sweep), ``curves.png`` (the best settings' mean curves with bands) and ``index.md`` / ``index.html``: the settings
ranked by a metric, means and 95% intervals over the seeds.  ``discover sweep`` and the Nim study call it.
"""

from __future__ import annotations

__all__ = ["write", "settings_table", "TABLE_METRICS", "METRIC_LABELS"]


def write(record: dict, folder, rank: str | None = None, top: int = 5) -> None:
    """Write ``sweep.json``, ``curves.png`` (the ``top`` settings' curves with bands) and the report (``index.md``,
    ``index.html``) of a ``run`` record into ``folder``, settings ranked by ``rank`` (``default_rank``).

    Examples
    --------
    >>> import os, tempfile
    >>> from games import make_game
    >>> from learners import sweep
    >>> record = sweep.run("q", make_game("nim", heaps=2), "alpha=0.2,0.9", bound=3, repeats=2, episodes=400)
    >>> folder = os.path.join(tempfile.mkdtemp(), "sweep")
    >>> write(record, folder)
    >>> sorted(os.listdir(folder))
    ['curves.png', 'index.html', 'index.md', 'sweep.json']
    """
    from cgbase.files import atomic_folder, write_text
    from discover.app.render.curves import PANELS, band_figure
    from discover.app.render.document import write_document
    from learners.repeats import rank_settings
    from learners.sweep import default_rank, folder_markers, sweep_json

    rank = rank or default_rank(record["runs"])
    ranked = rank_settings(record["runs"], rank)
    s = record["sweep"]
    lines = [(_label(setting["params"]) or s["learner"], setting) for setting in ranked[:top]]
    panels = [(title, metric, lines) for metric, title in PANELS
              if all(metric in run["curve"] for run in record["runs"])]
    with atomic_folder(folder, folder_markers(folder), "sweep folder") as out:
        write_text(out / "sweep.json", sweep_json(record))
        if panels:
            band_figure(panels, out / "curves.png", f"{s['learner']} on {_game_words(s['game'])}: the best "
                                                    f"{len(lines)} settings, mean of {s['repeats']} seeds, 95% band")
        write_document(out, _blocks(record, rank, ranked, bool(panels)), f"Sweep of {s['learner']}")


TABLE_METRICS = ("deviations", "optimal_move_rate", "win_rate_random", "win_rate_optimal")
METRIC_LABELS = {"optimal_move_rate_mean": "optimal-move rate, mean over the curve",
                 "optimal_move_rate": "optimal-move rate at the end", "deviations": "deviations at the end",
                 "win_rate_random": "win rate against random", "win_rate_optimal": "win rate against optimal"}


def _label(params: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


def _game_words(spec: dict) -> str:
    """The game a record names, in words (``Nim with 3 heaps``); its family and parameters when it cannot be made
    again (a custom game)."""
    from games.registry import game_from_spec

    try:
        return game_from_spec(spec).title()
    except (ValueError, TypeError, KeyError):
        return f"{spec['name']} ({', '.join(f'{k} {v}' for k, v in spec.get('params', {}).items())})"


def settings_table(ranked: list, rank: str, names: list) -> tuple[list, list]:
    """Headers and rows of ranked settings: parameters, then ``rank`` and the usual metrics as mean [95%
    interval] over the seeds, then the seeds whose greedy policy reached 0 deviations.

    Examples
    --------
    >>> from learners.repeats import rank_settings
    >>> runs = [{"setting": 0, "params": {"alpha": 0.5}, "seed": k, "final": {"deviations": k}, "curve": {}}
    ...         for k in range(2)]
    >>> settings_table(rank_settings(runs, "deviations"), "deviations", ["alpha"])
    (['rank', 'alpha', 'deviations at the end', '0 deviations reached'], [['1', '0.5', '0.5 [0, 6.9]', '-']])
    """
    from learners.repeats import format_metric, share_trials

    metrics = list(dict.fromkeys([rank, *(m for m in TABLE_METRICS if any(m in g["values"] for g in ranked))]))
    headers = ["rank", *names, *(METRIC_LABELS.get(m, m.replace("_", " ")) for m in metrics), "0 deviations reached"]
    rows = []
    for place, setting in enumerate(ranked, 1):
        reached = [run["final"].get("episodes_to_optimal") for run in setting["runs"]]
        rows.append([str(place), *(str(setting["params"].get(n, "")) for n in names),
                     *(format_metric(setting["values"][m], m, trials=share_trials(setting["runs"], m))
                       if m in setting["values"] else "-" for m in metrics),
                     f"{sum(x is not None for x in reached)} of {len(reached)}"
                     if "episodes_to_optimal" in setting["runs"][0]["final"] else "-"])
    return headers, rows


def _blocks(record: dict, rank: str, ranked: list, figure: bool) -> list:
    from discover.app.render.document import Code, FigureFile

    s = record["sweep"]
    seeds = f"seeds {s['seed']} to {s['seed'] + s['repeats'] - 1}" if s["repeats"] > 1 else f"seed {s['seed']}"
    against = {"self": "itself (one table)", "copy": "an untrained copy with the same parameters",
               "random": "a random player", "optimal": "the optimal player",
               "greedy": "a greedy reply from its own table"}[s["opponent"]]
    games = f"{s['episodes']:,} games" if s["episodes"] else "its default budget of games"
    blocks = [
        ("h", 1, f"Sweep of {s['learner']} on {_game_words(s['game'])}, bound {s['bound']}"),
        ("p", [f"{len(ranked)} settings x {s['repeats']} seeds ({seeds}), {games} each against {against}. "
               f"Preset: ", Code(s["preset"]), ". Means over the seeds with 95% intervals: for a win rate, Wilson's "
               "interval of the games won over every seed; for counts the exact Poisson interval; either widened to "
               "Student's t interval over the seeds where they differ more; for other rates Student's t, cut to the "
               "metric's range, none where the seeds agree or there is one (learners.repeats, statsmodels); best "
               f"first by {METRIC_LABELS.get(rank, rank.replace('_', ' '))}."]),
        *([("figure", FigureFile("curves.png", "learning curves",
                                 "The best settings: mean over the seeds, 95% band."))] if figure else []),
        ("table", *settings_table(ranked, rank, list(s["grid"]))),
        ("p", ["The runs, one record each (parameters, seed, final metrics, learning curve): ", Code("sweep.json"),
               "."]),
    ]
    if record.get("command"):  # a sweep read back from sweep.json has no timings (the same bytes on any machine)
        timed = (f" ({record['seconds']:.0f} s on {record['workers']}, {record.get('machine', '')}"
                 + (f"; {record['resumed']} runs resumed" if record["resumed"] else "") + ")") \
            if "seconds" in record else ""
        blocks.append(("p", ["Command: ", Code(record["command"]), timed + "."]))
    return blocks
