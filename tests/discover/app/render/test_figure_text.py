"""Every figure the toolkit writes, drawn from small made-up data, has no text over other text and none off the
canvas (``discover.app.render.figure_check``); the integer maps have discrete colour bars, every axis a label."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from matplotlib.figure import Figure

from discover.app.render.figure_check import text_problems

ROOT = Path(__file__).resolve().parents[4]


@pytest.fixture
def drawn(monkeypatch):
    """The figures saved while the test runs, each checked for text problems as it is saved."""
    figures = []
    save = Figure.savefig

    def checked(fig, *args, **kwargs):
        problems = text_problems(fig)
        assert not problems, "\n".join(problems)
        figures.append(fig)
        return save(fig, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", checked)
    return figures


def _history(n: int, keys: dict, x: str = "episode") -> list:
    rng = np.random.default_rng(len(keys))
    return [{x: i * 10, **{k: float(np.clip(v + 0.05 * rng.standard_normal(), 0, 1)) for k, v in keys.items()}}
            for i in range(n)]


# ---------------------------------------------------------------- report figures of a game and a rule

def test_text_problems_finds_overlap_and_overflow():
    from discover.app.render.figure import new_figure

    fig, (ax,) = new_figure(3, 2, layout=None)
    ax.text(0.5, 0.5, "one"), ax.text(0.5, 0.5, "two"), ax.text(5, 5, "far away")
    problems = text_problems(fig)
    assert "'one' overlaps 'two'" in problems and "'far away' leaves the canvas" in problems


@pytest.mark.parametrize("game_args", [("subtraction", {"subtract": (1, 3, 4)}), ("wythoff", {}),
                                       ("nim", {"heaps": 3})])
def test_partitions_and_grundy(tmp_path, drawn, game_args):
    from discover.app.render.partitions import grundy_figure, partition_figures
    from discover.rule import Rule
    from games import make_game

    name, params = game_args
    game = make_game(name, **params)
    symbols = sp.symbols(game.feature_names)
    wrong = Rule(sp.Eq(sp.Mod(symbols[0], 4), 0), tuple(game.feature_names))
    partition_figures(game, wrong, 12, tmp_path)
    grundy_figure(game, 12, tmp_path)
    assert len(drawn) >= 2
    for fig in drawn:
        _every_axis_labelled(fig)


def test_grundy_colour_bar_is_discrete_and_cell_numbers_one_size(tmp_path, drawn):
    from discover.app.render.partitions import grundy_figure
    from games import make_game

    grundy_figure(make_game("wythoff"), 31, tmp_path)  # the largest board whose cells are numbered: 32 a side
    (fig,) = drawn
    bar = [ax for ax in fig.axes if ax.get_ylabel() == "Grundy value"]
    assert bar, "a colour bar labelled 'Grundy value'"
    ticks = bar[0].get_yticks()
    assert np.array_equal(ticks, np.round(ticks)), ticks  # integers only, no 0.25 or 1.75
    sizes = {t.get_fontsize() for t in fig.axes[0].texts}
    assert len(fig.axes[0].texts) > 100 and len(sizes) == 1, sizes  # two digits print as large as one


def test_large_partition_is_aggregated_and_says_so(tmp_path, drawn):
    from discover.app.render.partitions import FIGURE_BOUND, PIXELS_PER_CELL, partition_figures
    from games import make_game

    (block,) = partition_figures(make_game("wythoff"), None, FIGURE_BOUND, tmp_path)
    (fig,) = drawn
    ax = fig.axes[0]
    inches = ax.get_window_extent().width / fig.dpi
    (image,) = ax.get_images()
    cells = image.get_array().shape[1]
    assert inches * 150 / cells >= PIXELS_PER_CELL  # every drawn cell at least this many pixels of the PNG
    assert "block" in block[1].caption


def test_solution_board_and_heap_values(tmp_path, drawn):
    from discover.app.render.heap_values import heap_values_figure
    from discover.app.render.solution import plot_p_positions
    from games import make_game
    from solvers import solve
    from solvers.take_and_break import grundy_sequence

    plot_p_positions(solve(make_game("wythoff"), bound=20), tmp_path / "w.png")
    plot_p_positions(solve(make_game("subtraction", subtract=(1, 3, 4)), bound=60), tmp_path / "s.png")
    heap_values_figure(grundy_sequence(make_game("octal", code="0.77")), tmp_path)
    assert len(drawn) == 3


def test_quotient_and_boards(tmp_path, drawn):
    from discover.quotients import BipartiteMonoid, QuotientRule
    from discover.app.render.boards import learned_openings_figure, plot_openings
    from discover.app.render.quotient import quotient_table_figure
    from games import make_game
    from solvers import solve
    from solvers.openings import openings

    t2 = QuotientRule(BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True])), {1: 1})
    quotient_table_figure(t2, tmp_path)
    hex3 = make_game("hex", n=3)
    plot_openings(openings(hex3, solve(hex3)), tmp_path / "hex.png")
    q = np.linspace(0.1, 0.9, 16).tolist()
    wins = [i % 5 == 0 for i in range(16)]
    variants = ("minimax", "joint", "variance", "pseudocount", "solver", "mustplay", "proofs")
    learned_openings_figure(dict.fromkeys(variants, q), wins, tmp_path / "o.png", "test")
    assert len(drawn) == 3


def test_learning_curves(tmp_path, drawn):
    from discover.app.render.curves import band_figure, curve_figure
    from learners.repeats import rank_settings

    keys = {"optimal_move_rate": 0.6, "deviations": 0.4, "win_rate_optimal": 0.3}
    curve_figure({"q": _history(8, keys), "bayes": _history(8, keys)}, tmp_path / "c.png", "Nim: learning curves")
    runs = [{"setting": s, "params": {"alpha": 0.1 * s}, "seed": k, "final": {"m": s + 0.1 * k},
             "curve": {"episode": [1, 2, 3], "m": [0.1 * k, 0.2 * s, 0.3]}} for s in range(3) for k in range(3)]
    ranked = rank_settings(runs, "m")
    band_figure([("first", "m", [(f"alpha {s['params']['alpha']:.1f}", s) for s in ranked[:2]], ranked[2:]),
                 ("second", "m", [("alpha", ranked[0])])], tmp_path / "b.png", "bands")
    for fig in drawn:
        _every_axis_labelled(fig)


# ---------------------------------------------------------------- experiments' figures, from made-up records

def _alphazero_run(game: str, seat: str) -> dict:
    keys = {"score_random_first": 60, "score_random_second": 40, "score_optimal_first": 30,
            "score_optimal_second": 10, "optimal_move_rate": 0.5, "optimal_move_rate_play": 0.6}
    history = [{"iteration": i, **{k: v + i for k, v in keys.items()}} for i in range(13)]
    return {"game": game, "seat": seat, "history": history, "fit": {"simulations": 100, "games_per_iteration": 64}}


def test_alphazero_scores(tmp_path, drawn):
    from discover.app.experiments import alphazero

    runs = [_alphazero_run("notakto(n=3, k=3, boards=1)", "first"),
            _alphazero_run("notakto(n=4, k=4, boards=1)", "second")]
    alphazero._figure(runs, tmp_path / "scores.png", "AlphaZero on Notakto: two boards")
    alphazero._figure(runs[:1], tmp_path / "one.png", "AlphaZero on Notakto")
    for fig in drawn:
        _every_axis_labelled(fig)


def test_explore_curves(tmp_path, drawn):
    from discover.app.experiments import explore

    keys = {key: 0.5 for key, _ in explore.CURVES}
    runs = [{"variant": v, "seed": s, "history": _history(6, keys)} for v in ("minimax", "joint") for s in (0, 1)]
    record = {"title": "Hex 4 x 4", "settings": {"variants": ["minimax", "joint"], "seeds": [0, 1]}, "runs": runs}
    explore._curves(record, tmp_path / "curves.png")
    record["settings"]["seeds"] = [0]
    record["runs"] = [r for r in runs if r["seed"] == 0]
    explore._curves(record, tmp_path / "one-seed.png")
    for fig in drawn:
        _every_axis_labelled(fig)
    assert "one seed" in drawn[1]._suptitle.get_text()


def test_parity_scores(tmp_path, drawn):
    from discover.app.experiments import parity_report

    def run(arm, seed):
        history = _history(6, {"optimal_move_rate": 0.5, "value_accuracy": 0.6, "score_optimal_first": 0.4,
                               "guided_score_optimal_first": 0.5, "guide_weight": 0.3}, x="iteration")
        return {"arm": arm, "seed": seed, "start_value": 1, "history": history}

    parity_report._figure({"title": "Nim, 6 heaps: guided and plain", "runs": [run("plain", 0), run("guided", 0)]},
                          tmp_path / "scores.png")
    _every_axis_labelled(drawn[0])


def test_hqn_figures(tmp_path, drawn):
    from discover.app.experiments.hqn import experiment

    curves = {name: [{"step": i, "accuracy": 0.1 * i} for i in range(8)] for name in ("symbolic HQN", "Q-network")}
    sizes = {"symbolic model": {"10": 1.0, "100": 1.0, "1000": 0.99}, "network": {"10": 0.9, "100": 0.5}}
    stints = [{"game": g, "periods": 6, "detected_at": 1 if k else None} for k, g in
              enumerate(["wythoff()", "nim(heaps=2)", "euclid()"] * 2)]
    history = [{"period": p, "best_performance": 0.5 + 0.05 * (p % 6), "model_accuracy": 0.4 + 0.1 * (p % 6)}
               for p in range(1, 37)]
    for path, draw in (("9.png", lambda ax: experiment._plot_time(ax, curves)),
                       ("10.png", lambda ax: experiment._plot_sizes(ax, sizes)),
                       ("11.png", lambda ax: experiment._plot_cycle(ax, {"history": history, "stints": stints}))):
        experiment._figure(tmp_path / path, "HQN on Wythoff", draw)
    for fig in drawn:
        _every_axis_labelled(fig)
    fig = drawn[2]
    ax = fig.axes[0]
    changes = [ax.transData.transform((line.get_xdata()[0], 0))[0] for line in ax.get_lines()
               if line.get_linestyle() == ":"]
    inside = ax.get_window_extent()
    texts = [t for t in fig.findobj(lambda a: hasattr(a, "get_text") and a.get_visible() and a.get_text())]
    named = [t.get_text() for t in texts]
    assert {"wythoff", "nim", "euclid"} <= set(named)
    for text in texts:  # no text inside the axes crosses a dotted change line
        box = text.get_window_extent()
        if inside.x0 <= box.x0 and box.x1 <= inside.x1 and inside.y0 <= box.y0 and box.y1 <= inside.y1:
            assert not any(box.x0 - 1 <= x <= box.x1 + 1 for x in changes), text.get_text()


def test_nim_study_figure_5(tmp_path, drawn):
    from discover.app.experiments import nim_study

    learners = ["q", "bayes"]
    first = {a: {b: 0.5 + 0.1 * i for i, b in enumerate(["random", "optimal"])} for a in learners}
    repeats = [{"first": first, "n_share": 0.8} for _ in range(3)]
    nim_study._figure_5({"tournament": {"repeats": repeats}, "params": {"q": {"alpha": 0.1}, "bayes": {}},
                         "settings": {"games": 10}}, tmp_path / "figure-5.png")
    _every_axis_labelled(drawn[0])


def _every_axis_labelled(fig) -> None:
    """Every axis that shows numbers names them (a board without ticks, or a panel sharing its neighbour's
    y-axis without tick labels, need not)."""
    for ax in fig.axes:
        for axis, label in ((ax.xaxis, ax.get_xlabel()), (ax.yaxis, ax.get_ylabel())):
            numbered = ax.axison and axis.get_visible() and any(
                t.get_visible() and t.get_text() for t in axis.get_ticklabels())
            assert label or not numbered, f"an axis without a label: {ax.get_title()!r} in {fig.get_suptitle()!r}"


def test_every_module_that_saves_a_figure_is_drawn_here():
    """A new figure writer must be added to this file: the modules that call save_figure are those drawn above."""
    saving = {str(p.relative_to(ROOT)) for folder in ("discover", "learners", "games", "solvers")
              for p in (ROOT / folder).rglob("*.py") if re.search(r"(?<!def )\bsave_figure\(fig", p.read_text())}
    covered = {"discover/app/render/partitions.py", "discover/app/render/solution.py", "discover/app/render/heap_values.py",
               "discover/app/render/quotient.py", "discover/app/render/boards.py", "discover/app/render/curves.py",
               "discover/app/experiments/alphazero.py", "discover/app/experiments/explore.py",
               "discover/app/experiments/parity_report.py", "discover/app/experiments/hqn/experiment.py",
               "discover/app/experiments/nim_study.py"}
    assert saving == covered


@pytest.mark.parametrize("game_args", [("wythoff", {}), ("subtraction", {"subtract": (1, 3, 4)})])
def test_learned_against_exact(tmp_path, drawn, game_args):
    from discover.app.render.partitions import compare_figure
    from games import make_game
    from learners import QLearner

    name, params = game_args
    table = QLearner(random_state=0).fit(make_game(name, **params), bound=6, episodes=300).value_table_
    compare_figure(table, tmp_path / "compare.png")
    _every_axis_labelled(drawn[0])
