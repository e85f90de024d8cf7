"""The parity experiment's report: ``scores.png``, ``parity.json``, ``index.md`` and ``index.html``.

``write(record, folder)`` takes the record of ``discover.app.experiments.parity.run``. Expert play is stated by one
test, the same for every arm: the player wins every scoring game against the perfect player from the start in the
winning seat, and the policy head's top move wins in every N position reachable from the start (rate 1.000), or in
every sampled one where the board is too large to enumerate (``exact`` false in the runs: the rate is then an
estimate with its Wilson interval); ``verdict`` words the comparison from the measured iterations only.
"""

from __future__ import annotations

import numpy as np

__all__ = ["write", "verdict", "first_expert", "rate_text", "score_text", "winning_seat", "is_exact_record",
           "start_text", "MARKERS"]

MARKERS = ("index.md", "parity.json")  # an existing folder holding these is a report to replace
RATE_EXPERT = 1.0  # the policy head's optimal-move rate of expert play (every N position)


def is_exact_record(record: dict) -> bool:
    """Whether the runs were scored over every position (a record without the key predates sampling: exact).

    Examples
    --------
    >>> is_exact_record({"runs": [{}]}), is_exact_record({"runs": [{"exact": False}]})
    (True, False)
    """
    return record["runs"][0].get("exact", True)


def _where(record: dict) -> str:
    """Where the policy head's rate is measured, in words."""
    return "N position reachable from the start" if is_exact_record(record) else "sampled N position"


def start_text(settings: dict) -> str:
    """The start in words: "the paper's start" (1, 3, 5, ...: one heap of each odd size), else its heaps and nim-sum.

    Examples
    --------
    >>> start_text({"start": [1, 3, 5]}), start_text({"start": [2, 3, 5]})
    ("the paper's start", 'the start 2, 3, 5 (nim-sum 4)')
    """
    start = [int(x) for x in settings["start"]]
    if start == list(range(1, 2 * len(start), 2)):
        return "the paper's start"
    return f"the start {', '.join(map(str, start))} (nim-sum {int(np.bitwise_xor.reduce(start))})"


def rate_text(r: dict) -> str:
    """The optimal-move rate of a history record, with its interval where it was estimated on a sample.

    Examples
    --------
    >>> rate_text({"optimal_move_rate": 0.5}), rate_text({"optimal_move_rate": 0.5, "optimal_move_rate_low": 0.4,
    ...                                                   "optimal_move_rate_high": 0.6})
    ('0.500', '0.500 [0.400, 0.600]')
    """
    if any(r.get(key) is None for key in ("optimal_move_rate", "optimal_move_rate_low", "optimal_move_rate_high")):
        return _fmt(r.get("optimal_move_rate"))
    return f"{r['optimal_move_rate']:.3f} [{r['optimal_move_rate_low']:.3f}, {r['optimal_move_rate_high']:.3f}]"


def winning_seat(record: dict) -> str:
    """The winning seat from the start, as the solver says (``start_value`` of the runs: 1 the first player wins).

    Examples
    --------
    >>> winning_seat({"runs": [{"start_value": -1}]})
    'second'
    """
    return "first" if record["runs"][0]["start_value"] == 1 else "second"


def first_expert(history: list, seat: str, key: str = "score_optimal", rate: float | None = RATE_EXPERT) -> int | None:
    """The first scored iteration from which the player stays expert to the end (``key`` of the seat 100 and, unless
    ``rate`` is None, the policy head's optimal-move rate at least ``rate``); None when it never does.

    Examples
    --------
    >>> h = [{"iteration": 0, "score_optimal_first": 0.0, "optimal_move_rate": 0.2},
    ...      {"iteration": 10, "score_optimal_first": 100.0, "optimal_move_rate": 0.99}]
    >>> first_expert(h, "first"), first_expert(h, "first", rate=None)
    (None, 10)
    """
    found = None
    for r in (r for r in history if f"{key}_{seat}" in r):
        expert = r[f"{key}_{seat}"] >= 100 and (rate is None or r["optimal_move_rate"] >= rate)
        found = (found if found is not None else r["iteration"]) if expert else None
    return found


def verdict(record: dict) -> str:
    """One sentence: whether and when each arm reached expert play, from the measured iterations only."""
    seat = winning_seat(record)
    parts = []
    for run in record["runs"]:
        history, last = run["history"], run["history"][-1]
        name = f"{run['arm']} (seed {run['seed']})"
        net, search = first_expert(history, seat), first_expert(history, seat, rate=None)
        rate = last.get("optimal_move_rate", float("nan"))
        text = (f"{name}: its network reached expert play at iteration {net} and kept it to iteration "
                f"{last['iteration']}" if net is not None else
                f"{name}: its network's search " + (f"won every scoring game from iteration {search} to "
                                                     f"{last['iteration']}" if search is not None else
                                                     f"did not win every scoring game in {last['iteration']} "
                                                     "iterations") +
                f", its policy head's optimal-move rate ended at {rate:.3f}, short of 1.000")
        if run["arm"] == "guided":
            guided = first_expert(history, seat, "guided_score_optimal", rate=None)
            text += ("; its guided search won every scoring game from iteration "
                     f"{guided} on" if guided is not None else "; its guided search did not win every scoring game")
        parts.append(text)
    return ("Expert play here means winning all scoring games against the perfect player from the start in the "
            f"winning seat ({seat}) with a policy head whose top move wins in every {_where(record)}. "
            + "; ".join(parts) + ". Within this budget only; a longer run may change either arm.")


def _fmt(value, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def score_text(points, games: int) -> str:
    """A match's score (points out of 100 over ``games`` games) as a share with its 95% Wilson interval.

    Examples
    --------
    >>> score_text(100.0, 100), score_text(None, 100)
    ('1.00 [0.96, 1.00]', '-')
    """
    from learners.repeats import interval_text, share_interval

    if points is None:
        return "-"
    k = int(round(points * games / 100))
    return interval_text(*share_interval(k, games), digits=2)


def _figure(record: dict, path) -> str:
    from discover.app.render.figure import legend_below, new_figure, save_figure

    seat = winning_seat(record)
    fig, axes = new_figure(13, 5.6, cols=2)
    for i, run in enumerate(record["runs"]):
        color = f"C{i}"
        scored = [r for r in run["history"] if "optimal_move_rate" in r]
        x = [r["iteration"] for r in scored]
        label = f"{run['arm']}, seed {run['seed']}"
        axes[0].plot(x, [r["optimal_move_rate"] for r in scored], "-o", color=color, markersize=3,
                     label=f"{label}: policy head's optimal-move rate")
        if scored and scored[0].get("optimal_move_rate_low") is not None:
            axes[0].fill_between(x, [r["optimal_move_rate_low"] for r in scored],
                                 [r["optimal_move_rate_high"] for r in scored], color=color, alpha=0.2, linewidth=0)
        axes[0].plot(x, [r["value_accuracy"] for r in scored], ":", color=color, label=f"{label}: value sign right")
        axes[1].plot(x, [r[f"score_optimal_{seat}"] for r in scored], "-s", color=color, markersize=3,
                     label=f"{label}: network's search")
        if run["arm"] == "guided":
            axes[1].plot(x, [r.get(f"guided_score_optimal_{seat}", np.nan) for r in scored], "--^", color=color,
                         markersize=3, label=f"{label}: guided search")
            axes[1].plot([r["iteration"] for r in run["history"] if "guide_weight" in r],
                         [100 * r["guide_weight"] for r in run["history"] if "guide_weight" in r], "-", color="0.5",
                         linewidth=0.8, label=f"{label}: rule's weight x 100")
    axes[0].set_ylabel("share of N positions (" + ("exact" if is_exact_record(record) else "sample") + ")")
    axes[1].set_ylabel(f"% won vs perfect, {seat}")
    for ax in axes:
        ax.set_xlabel("iteration (0: untrained network)")
        ax.grid(alpha=0.3)
        legend_below(ax, columns=1)
    axes[0].set_ylim(-0.03, 1.03)
    axes[1].set_ylim(-3, 103)
    fig.suptitle(record["title"], fontsize=11)
    return save_figure(fig, path)


def _rule_blocks(record: dict) -> list:
    from discover.app.render.document import Code

    blocks = [("h", 2, "The rule, from the learner's own table")]
    for seed, found in record["rules"].items():
        blocks.append(("p", [f"Seed {seed}: AlphaZero learned {found['game']} ({found['source']}); "
                             f"{found['learned']}. Discovery ({found['engine']}) found ", Code(found["rule"] or "none"),
                             f" ({found['status']}), usable as a guide: {'yes' if found['usable'] else 'no'} "
                             f"({found['why']})."]))
        if found["general_claim"]:
            blocks.append(("p", ["Stated for any number of heaps: ", Code(found["general_claim"])]))
        if found["proof"]:
            blocks.append(("p", ["Proof: ", Code(found["proof"])]))
    blocks.append(("p", "Lifting: the discovery stage writes the rule with a derived feature, the xor of all "
                        "coordinates (discover.expr.features), so the rule found on the small board is a statement "
                        "about any number of heaps; its proof for every number of heaps is Bouton's theorem (Moore's "
                        "theorem for Nim_1), whose hypotheses the prover checks on the game's moves. On "
                        f"{record['settings']['heaps']} heaps the guide evaluates that same statement: the xor of all "
                        f"{record['settings']['heaps']} heaps. A rule stated over the small board's named coordinates "
                        "would be refused."))
    return blocks


def _blocks(record: dict) -> list:
    from discover.app.render.document import Code, FigureFile, Strong

    settings, seat = record["settings"], winning_seat(record)
    games = settings["eval_games"]
    blocks = [
        ("h", 1, record["title"]),
        ("p", "Zhou and Riis (\"Impartial games: a challenge for reinforcement learning\") report AlphaZero-style "
              "agents learning Nim with 5 heaps, slowing at 6 and playing at random level at 7. Here AlphaZero "
              f"(learners.alphazero) learns Nim from {start_text(settings)} with random openings, alone and guided by "
              "the rule the discovery stage finds in its own value table on a small board, used as the HQN paper "
              "uses its model: mixed into the search's priors with a confidence that grows with the rule's record "
              "against the learner (learners.alphazero.guide). " + _truth_text(record)),
        ("p", f"Machine: {record['machine']}. Budget: {settings['iterations']} iterations of "
              f"{settings['games_per_iteration']} self-play games, {settings['simulations']} simulations a move, "
              f"network hidden {settings['hidden']}, seed(s) {settings['seeds']}, on the CPU (no GPU this "
              f"session); CPU seconds are process time ({record['cpu_seconds']:.0f} CPU s in all, "
              f"{record['seconds']:.0f} s wall). The guide: weight limit {settings['guide']['limit']}, steepness "
              f"{settings['guide']['steepness']}, threshold {settings['guide']['threshold']}, "
              f"{settings['guide']['games']} games an iteration between the rule's agent and the policy head; "
              f"the scored players search with {settings['simulations']} simulations (no noise, the most visited "
              "move), the guided search with the rule's prior at its weight of the moment."),
        ("p", [Strong(verdict(record))]),
        ("figure", FigureFile("scores.png", "scores", f"Left: the policy head's optimal-move rate over every "
                                                      f"{_where(record)}, and the value head's sign. "
                                                      "Right: games won against the perfect player from the start "
                                                      "in the winning seat, and the rule's weight.")),
    ]
    blocks += _rule_blocks(record)
    blocks.append(("h", 2, "Final measures"))
    rows = []
    for run in record["runs"]:
        last = run["history"][-1]
        for name, result in run["openings"].items():
            cells = []
            for label in ("first", "second"):
                o = result[label]
                cells.append("-" if o["share"] is None else
                             f"{o['won']}/{o['winnable']} " + _interval(o["share"]))
            rows.append([f"{run['arm']} ({name})", str(run["seed"]), str(last["iteration"]),
                         rate_text(last),
                         score_text(last.get(f"{'guided_' if name == 'guided' else ''}score_optimal_first"), games),
                         score_text(last.get(f"{'guided_' if name == 'guided' else ''}score_optimal_second"), games),
                         *cells, f"{run['train_cpu_seconds']:.0f}"])
    blocks.append(("table", ["player", "seed", "iterations", "policy-head optimal-move rate "
                             + ("(exact)" if is_exact_record(record) else "(sample, 95% interval)"),
                             "vs perfect from start, first", "vs perfect from start, second",
                             "vs perfect from random openings, first (won/winnable)", "... second",
                             "train CPU s"], rows))
    blocks.append(("p", f"From the start the {seat} player wins under perfect play, so the other seat's score "
                        "against the perfect player is 0 by force. Random openings: "
                        f"{settings['opening_positions']} positions after 1 to {settings['random_openings']} random "
                        "moves from the start, each played once in each seat; only the games the seat can win count. "
                        "Intervals are 95% Wilson intervals."))
    blocks.append(("h", 2, "Over iterations"))
    for run in record["runs"]:
        blocks += [("h", 3, f"{run['arm']}, seed {run['seed']}"), ("p", [Code(run["learner"])])]
        guided = run["arm"] == "guided"
        head = ["iteration", "games", "loss", "optimal-move rate", "value sign", f"vs perfect ({seat})",
                "vs random first", "vs random second"] + (["guided vs perfect", "rule weight", "rule score"]
                                                          if guided else []) + ["CPU s"]
        table = []
        weights = {r["iteration"]: r for r in run["history"] if "guide_weight" in r}
        for r in run["history"]:
            if "optimal_move_rate" not in r:
                continue
            row = [str(r["iteration"]), f"{r['episode']:,}", _fmt(r.get("loss")), rate_text(r),
                   _fmt(r["value_accuracy"]), score_text(r[f"score_optimal_{seat}"], games),
                   _fmt(r["score_random_first"], 0), _fmt(r["score_random_second"], 0)]
            if guided:
                w = weights.get(r["iteration"], {})
                row += [score_text(r.get(f"guided_score_optimal_{seat}"), games), _fmt(w.get("guide_weight")),
                        _fmt(w.get("guide_score"))]
            table.append(row + [f"{r['cpu_seconds']:.0f}"])
        blocks.append(("table", head, table))
    if record["command"]:
        blocks.append(("p", ["Command: ", Code(record["command"]), f" ({record['seconds']:.0f} s wall)."]))
    return blocks


def _truth_text(record: dict) -> str:
    """How the scores were judged: the solver over every position, or a referee on a stratified sample."""
    run = record["runs"][0]
    if is_exact_record(record):
        return ("Every number is exact: the solver solved every position reachable from the start "
                f"({run['positions']:,} positions).")
    return (f"The start reaches {run['positions']:,} positions, more than the solver enumerates here: the policy "
            "head's optimal-move rate and the value head's sign are estimated on a seeded sample of "
            f"{run['sample_positions']:,} of them ({run['sample_n_positions']:,} N positions, the same sample at "
            "every scoring), stratified by total (each total's share of the sample proportional to its share of the "
            "positions, uniform within it: learners.alphazero.sampled), with 95% Wilson intervals. Each sampled "
            f"position's value, and the perfect player's moves, come from {run['referee']}, proved for this game by "
            f"the prover before any scoring: {run['referee_proof']}; never from the learner's rule.")


def _interval(share) -> str:
    from learners.repeats import interval_text

    return interval_text(*share, digits=2)


def write(record: dict, folder) -> None:
    """Write ``scores.png``, ``parity.json`` and the report (``index.md``, ``index.html``) of a ``run`` record."""
    from cgbase.files import atomic_folder, write_json
    from discover.app.render.document import write_document

    with atomic_folder(folder, MARKERS, "report folder") as out:
        _figure(record, out / "scores.png")
        write_json(out / "parity.json", record)
        write_document(out, _blocks(record), record["title"])
