"""Edge cases of the exact solver: networkx in and out, starts, bad input, huge requests, files, fast paths."""

from __future__ import annotations

import json
import os
import tracemalloc
import zipfile

import networkx as nx
import numpy as np
import pytest

from games import custom_game, make_game
from solvers import Solution, build_graph, reachable_universe, solve, to_networkx


# -- custom games (module level, so they pickle) --------------------------------------------
def take_moves(p):
    """From (a, b): take 1..3 from a, or move one token from a to b while b < a."""
    a, b = p
    options = [(a - t, b) for t in (1, 2, 3) if t <= a]
    if b < a:
        options.append((a - 1, b + 1))
    return options


def grow_moves(p):
    """Grows without limit: every box is left by some move."""
    return [(p[0] + 1,)] if p[0] < 100 else []


def bad_arity_moves(p):
    return [(p[0], 0)] if p[0] else []


# -- networkx ------------------------------------------------------------------------------
def draw_graph() -> nx.DiGraph:
    """a <-> b (draws), c a sink (loss), d -> c (win), e -> a (draw: its only move draws),
    f -> a or c (win: it can reach the sink's loss), g -> d (loss)."""
    g = nx.DiGraph()
    g.add_edges_from([("a", "b"), ("b", "a"), ("d", "c"), ("e", "a"), ("f", "a"), ("f", "c"), ("g", "d")])
    return g


EXPECTED_DRAW_GRAPH = {"a": 0, "b": 0, "c": -1, "d": 1, "e": 0, "f": 1, "g": -1}


def test_networkx_in_with_draws():
    g = draw_graph()
    sol = solve(g, remoteness=True)
    nodes = list(g.nodes)
    got = {node: int(sol.outcome([[i]])[0]) for i, node in enumerate(nodes)}
    assert got == EXPECTED_DRAW_GRAPH
    rem = {node: int(sol.remoteness([[i]])[0]) for i, node in enumerate(nodes)}
    assert rem == {"a": -1, "b": -1, "c": 0, "d": 1, "e": -1, "f": 1, "g": 2}
    assert sol.summary()["draws"] == 3


def test_networkx_in_acyclic_grundy():
    chain = nx.DiGraph([(3, 2), (2, 1), (1, 0), (3, 1), (3, 0)])
    sol = solve(chain, grundy=True)
    nodes = list(chain.nodes)
    grundy = {node: int(sol.grundy([[i]])[0]) for i, node in enumerate(nodes)}
    assert grundy == {0: 0, 1: 1, 2: 0, 3: 2}


def test_networkx_grundy_on_cycle_refused():
    with pytest.raises(ValueError, match="cycle"):
        solve(draw_graph(), grundy=True)


def test_networkx_out_of_game():
    game = make_game("subtraction", subtract=(1, 2))
    g = to_networkx(game, bound=6)
    assert set(g.nodes) == {(n,) for n in range(7)}
    assert set(g.edges) == {((n,), o) for n in range(7) for o in game.moves((n,))}
    with pytest.raises(ValueError, match="bound"):
        to_networkx(game)


def test_networkx_out_of_solution_has_values():
    game = make_game("wythoff")
    sol = solve(game, bound=5, grundy=True, remoteness=True)
    g = to_networkx(sol)
    assert g.number_of_nodes() == 36
    for node, data in g.nodes(data=True):
        assert data["outcome"] == int(sol.outcome([node])[0])
        assert data["grundy"] == int(sol.grundy([node])[0])
        assert data["remoteness"] == int(sol.remoteness([node])[0])
        assert sorted(g.successors(node)) == sorted(game.moves(node))


def test_networkx_round_trip_keeps_outcomes():
    """Game -> DiGraph -> solve gives the same outcomes, node by node."""
    game = make_game("chomp", rows=3)
    sol = solve(game, bound=4)
    g = to_networkx(sol)
    back = solve(g)
    for i, node in enumerate(g.nodes):
        assert int(back.outcome([[i]])[0]) == g.nodes[node]["outcome"]


def test_networkx_out_of_a_draw_graph_solution():
    sol = solve(draw_graph())
    g = to_networkx(sol)
    assert {node: data["outcome"] for node, data in g.nodes(data=True)} == EXPECTED_DRAW_GRAPH
    assert set(g.edges) == set(draw_graph().edges)


def test_networkx_out_refuses_sums_of_heaps():
    with pytest.raises(ValueError, match="sum"):
        to_networkx(make_game("octal"), bound=5)


# -- starts ----------------------------------------------------------------------------------
def test_starts_equal_bound_on_reachable_part():
    game = custom_game("take", take_moves, dims=2)
    by_bound = solve(game, bound=9, remoteness=True)
    by_starts = solve(game, starts=[(9, 0), (5, 4)], remoteness=True)
    positions = by_starts.universe.positions()
    assert by_starts.universe.size < by_bound.universe.size
    np.testing.assert_array_equal(by_starts.outcome_table, by_bound.outcome(positions))
    np.testing.assert_array_equal(by_starts.remoteness_table, by_bound.remoteness(positions))
    # the reachable set is closed under moves and holds the starts
    reach = {tuple(p) for p in positions.tolist()}
    assert {(9, 0), (5, 4)} <= reach
    assert all(set(game.moves(p)) <= reach for p in reach)


def test_starts_for_builtin_games():
    game = make_game("nim", heaps=3)
    sol = solve(game, starts=[(3, 5, 6)])
    assert sol.universe.size == 4 * 6 * 7
    assert sol.outcome([[3, 5, 6]]).tolist() == [-1]
    heaps = solve(make_game("octal", code="0.77"), starts=[(12,)], grundy=True)
    np.testing.assert_array_equal(heaps.grundy_table, solve(make_game("octal"), bound=12, grundy=True).grundy_table)


@pytest.mark.parametrize("starts", [[], [(1,)], [(-1, 2)]])
def test_bad_starts(starts):
    with pytest.raises(ValueError):
        reachable_universe(make_game("wythoff"), starts)


@pytest.mark.parametrize("start", [(10**25, 1), (2**63, 0), (1.5, 2), (True, 2), ("3", 2)])
def test_starts_past_int64_or_not_integers_name_the_start(start):
    with pytest.raises(ValueError, match=r"start \(.*is not a position of nim.*2\*\*63 - 1"):  # was OverflowError
        solve(make_game("nim", heaps=2), starts=[start])


def test_starts_too_many_to_search_are_refused_before_any_search():
    with pytest.raises(ValueError, match="up to 125,075,015,001.*more than"):  # searched on to 1.25e11 positions
        solve(make_game("nim", heaps=3), starts=[(5000, 5000, 5000)])
    assert solve(make_game("nim", heaps=2), starts=np.array([[3, 2]])).universe.size == 12


def test_a_start_whose_moves_never_end_stops_at_the_limit(monkeypatch):
    game = custom_game("x", lambda p: [(p[0] + 1,)], dims=1)  # ran forever
    with pytest.raises(ValueError, match="more than 50 positions are reachable"):
        reachable_universe(game, [(0,)], max_positions=50)
    monkeypatch.setattr("cgbase.memory.memory_limit", lambda: 1000 * 256)
    with pytest.raises(ValueError, match="more than 1,000 positions.*may never end"):
        solve(game, starts=[(0,)])


# -- bad requests ------------------------------------------------------------------------------
def test_move_leaving_the_box_names_the_position():
    game = custom_game("grow", grow_moves, dims=1)
    with pytest.raises(ValueError, match=r"\(3,\).*\(4,\)"):
        solve(game, bound=3)
    # from a start, the reachable part is used instead
    assert solve(game, starts=[(98,)]).outcome([[98]]).tolist() == [-1]


def test_move_of_wrong_arity_is_refused():
    with pytest.raises(ValueError, match="coordinates"):
        solve(custom_game("bad", bad_arity_moves, dims=1), bound=3)


@pytest.mark.parametrize("game", [make_game("nim", heaps=2, misere=True), make_game("wythoff", misere=True),
                                  custom_game("take", take_moves, dims=2, misere=True)], ids=repr)
def test_grundy_on_misere_refused(game):
    with pytest.raises(ValueError, match="Grundy"):
        solve(game, bound=4, grundy=True)


def test_values_not_computed_are_refused():
    sol = solve(make_game("nim", heaps=2), bound=3)
    with pytest.raises(ValueError, match="grundy=True"):
        sol.grundy([[1, 2]])
    with pytest.raises(ValueError, match="remoteness=True"):
        sol.remoteness([[1, 2]])
    assert sol.outcome([[1, 2]]).tolist() == [1]


def test_position_outside_the_universe_is_refused():
    sol = solve(make_game("nim", heaps=2), bound=3)
    with pytest.raises(ValueError, match=r"\(4, 0\)"):
        sol.outcome([[4, 0]])


def test_remoteness_of_sums_of_heaps_refused():
    with pytest.raises(ValueError, match="remoteness"):
        solve(make_game("lasker"), bound=5, remoteness=True)


@pytest.mark.parametrize("bound", [0, -1, 2.5, True, "3", None, np.float64(3.0)], ids=repr)
def test_bad_bounds(bound):
    with pytest.raises(ValueError, match="bound"):
        solve(make_game("nim", heaps=2), bound=bound)


def test_numpy_integer_bound_accepted():
    assert solve(make_game("nim", heaps=2), bound=np.int64(3)).universe.size == 16


def test_bound_and_starts_together_refused():
    with pytest.raises(ValueError, match="exactly one"):
        solve(make_game("nim", heaps=2), bound=3, starts=[(1, 1)])


def test_not_a_game_refused():
    with pytest.raises(TypeError):
        solve("nim", bound=3)


HUGE = [
    ("nim", {"heaps": 12}, 1000),
    ("nim", {"heaps": 6}, 1000),
    ("wythoff_nd", {"heaps": 6}, 1000),
    ("moore", {"heaps": 6, "k": 2}, 1000),
    ("moore", {"heaps": 4, "k": 4}, 1000),
    ("euclid", {}, 10**9),
    ("octal", {"code": "0.77"}, 10**7),
    ("chomp", {"rows": 8}, 1000),
    ("staircase", {"stairs": 6}, 1000),
]


FLAGS = {"outcome": {}, "remoteness": {"remoteness": True}, "grundy": {"grundy": True}}


@pytest.mark.parametrize(
    "name, params, bound, flags",
    [
        pytest.param(name, params, bound, flags, id=f"{name}-{bound}-{'-'.join(map(str, params.values()))}-{what}")
        for name, params, bound in HUGE
        for what, flags in FLAGS.items()
        if not (what == "remoteness" and name == "octal")  # refused for another reason (a sum of heaps)
    ],
)
def test_huge_request_refused_quickly_with_its_size(name, params, bound, flags):
    game = make_game(name, **params)
    solve(game, bound=2, **flags)  # compile outside the measured part
    tracemalloc.start()  # numpy reports its buffers to tracemalloc
    try:
        with pytest.raises(ValueError, match=r"about [0-9.e+]+ ?(B|KB|MB|GB|TB|PB|positions)"):
            solve(game, bound=bound, **flags)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20, f"refusing the request allocated {peak / 2**20:.0f} MB first"


# -- files -------------------------------------------------------------------------------------
def assert_same(a: Solution, b: Solution):
    assert a.game == b.game and a.universe == b.universe and a.bound == b.bound
    for name in ("outcome_table", "grundy_table", "remoteness_table"):
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None), name
        if x is not None:
            np.testing.assert_array_equal(x, y)
            assert x.dtype == y.dtype


@pytest.mark.parametrize(
    "game, bound, flags",
    [
        (make_game("nim", heaps=3), 5, {"grundy": True, "remoteness": True}),
        (make_game("chomp", rows=3), 5, {"grundy": True, "remoteness": True}),
        (make_game("staircase", stairs=2), 4, {"remoteness": True}),
        (make_game("subtraction", subtract=(1, 3, 4)), 50, {}),
        (make_game("octal", code="0.137"), 40, {"grundy": True}),
        (make_game("wythoff", misere=True), 9, {"remoteness": True}),
    ],
    ids=repr,
)
def test_save_load_round_trip(tmp_path, game, bound, flags):
    sol = solve(game, bound=bound, **flags)
    path = tmp_path / "solution.npz"
    sol.save(path)
    assert_same(Solution.load(path), sol)
    assert_same(Solution.load(str(path), game=game), sol)
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
    assert meta["universe"]["bound"] == bound and "version" in meta
    assert meta["game"] == game.spec()
    assert [p.name for p in tmp_path.iterdir()] == ["solution.npz"]  # no temporary file left


def test_custom_game_file_needs_the_game(tmp_path):
    game = custom_game("take", take_moves, dims=2)
    sol = solve(game, starts=[(6, 1)], remoteness=True)
    path = tmp_path / "custom.npz"
    sol.save(path)
    with pytest.raises(ValueError, match="game="):
        Solution.load(path)
    assert_same(Solution.load(path, game=game), sol)
    with pytest.raises(ValueError):
        Solution.load(path, game=custom_game("other", take_moves, dims=2))


def test_mismatched_game_refused(tmp_path):
    path = tmp_path / "nim.npz"
    solve(make_game("nim", heaps=2), bound=3).save(path)
    for other in (make_game("nim", heaps=3), make_game("nim", heaps=2, misere=True), make_game("wythoff")):
        with pytest.raises(ValueError, match="not"):
            Solution.load(path, game=other)


def test_corrupt_files_refused(tmp_path):
    good = tmp_path / "good.npz"
    solve(make_game("wythoff"), bound=20, grundy=True).save(good)
    data = good.read_bytes()
    rng = np.random.default_rng(0)
    cases = {
        "random.npz": rng.integers(0, 256, 4096, dtype=np.uint8).tobytes(),
        "truncated.npz": data[: len(data) // 2],
        "empty.npz": b"",
        "text.npz": b"not a solution\n",
    }
    np.save(tmp_path / "array.npy", np.arange(5))
    cases["array.npz"] = (tmp_path / "array.npy").read_bytes()  # a plain .npy, not an archive
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(ValueError, match="solution file"):
            Solution.load(tmp_path / name)
    with pytest.raises(ValueError, match="no solution file"):
        Solution.load(tmp_path / "missing.npz")


def _rewrite(src, dst, **changes):
    with np.load(src) as data:
        arrays = {k: data[k] for k in data.files}
    arrays.update(changes)
    arrays = {k: v for k, v in arrays.items() if v is not None}
    with open(dst, "wb") as handle:
        np.savez_compressed(handle, **arrays)


def test_inconsistent_files_refused(tmp_path):
    good = tmp_path / "good.npz"
    solve(make_game("nim", heaps=2), bound=4, grundy=True).save(good)
    with np.load(good) as data:
        meta = json.loads(str(data["meta"]))
    bad = tmp_path / "bad.npz"
    _rewrite(good, bad, grundy=np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="corrupt"):
        Solution.load(bad)
    _rewrite(good, bad, meta=np.array(json.dumps({**meta, "format": "something-else/9"})))
    with pytest.raises(ValueError, match="solution file"):
        Solution.load(bad)
    _rewrite(good, bad, meta=np.array(json.dumps([1, 2])))
    with pytest.raises(ValueError, match="solution file"):
        Solution.load(bad)
    _rewrite(good, bad, meta=np.array("{not json"))
    with pytest.raises(ValueError, match="solution file"):
        Solution.load(bad)
    _rewrite(good, bad, meta=None)
    with pytest.raises(ValueError, match="solution file"):
        Solution.load(bad)
    _rewrite(good, bad, outcome=None)
    with pytest.raises(ValueError, match="solution file"):
        Solution.load(bad)
    with zipfile.ZipFile(good) as z:
        assert "meta.npy" in z.namelist()


def test_save_does_not_clobber_on_failure(tmp_path, monkeypatch):
    path = tmp_path / "sol.npz"
    sol = solve(make_game("nim", heaps=2), bound=3)
    sol.save(path)
    before = path.read_bytes()

    def disk_full(handle, **arrays):
        handle.write(b"half a file")
        raise OSError("disk full")

    monkeypatch.setattr(np, "savez_compressed", disk_full)
    with pytest.raises(OSError, match="disk full"):
        sol.save(path)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["sol.npz"]


# -- fast paths against the generic graph path ---------------------------------------------------
LINE_GAMES = [
    (make_game("nim", heaps=3), 9),
    (make_game("nim", heaps=2), 30),
    (make_game("nim", heaps=3, misere=True), 9),
    (make_game("wythoff"), 40),
    (make_game("wythoff", misere=True), 40),
    (make_game("wythoff_nd", heaps=3), 8),
    (make_game("wythoff_nd", heaps=2), 30),
]


@pytest.mark.parametrize("game, bound", LINE_GAMES, ids=repr)
def test_line_fast_path_agrees_with_graph_path(game, bound):
    graph_path = solve(game, bound=bound, remoteness=True, grundy=not game.misere)  # remoteness forces the graph
    fast = solve(game, bound=bound)
    np.testing.assert_array_equal(fast.outcome_table, graph_path.outcome_table)
    if not game.misere:
        fast_grundy = solve(game, bound=bound, grundy=True)
        np.testing.assert_array_equal(fast_grundy.grundy_table, graph_path.grundy_table)
        np.testing.assert_array_equal(fast_grundy.outcome_table, graph_path.outcome_table)


def test_line_fast_path_on_unequal_box():
    """A box with different limits per coordinate (the line keys depend on every radix)."""
    from games import Universe
    from solvers.lines import line_grundy, line_outcome
    from solvers.retrograde import retrograde
    from solvers.grundy import grundy_values

    for game in (make_game("wythoff_nd", heaps=3), make_game("nim", heaps=3), make_game("wythoff")):
        limits = [7, 3, 5][: game.dims]
        universe = Universe(limits)
        graph = build_graph(game, universe)
        outcome, _ = retrograde(graph, game.terminal_outcome())
        np.testing.assert_array_equal(line_outcome(game, universe), outcome)
        np.testing.assert_array_equal(line_grundy(game, universe), grundy_values(graph))


# -- optimal moves ------------------------------------------------------------------------------
def test_optimal_moves():
    game = make_game("nim", heaps=3)
    sol = solve(game, bound=7, remoteness=True)
    for p in [(1, 2, 4), (7, 0, 1), (5, 5, 1)]:  # N: into P positions, fastest first
        best = sol.optimal_moves(p)
        assert best and all(int(sol.outcome([o])[0]) == -1 for o in best)
        fastest = min(int(sol.remoteness([o])[0]) for o in game.moves(p) if int(sol.outcome([o])[0]) == -1)
        assert all(int(sol.remoteness([o])[0]) == fastest for o in best)
    lost = (1, 2, 3)  # P: every move loses; the slowest ones are kept
    best = sol.optimal_moves(lost)
    slowest = max(int(sol.remoteness([o])[0]) for o in game.moves(lost))
    assert best and all(int(sol.remoteness([o])[0]) == slowest for o in best)
    assert sol.optimal_moves((0, 0, 0)) == []


def test_optimal_moves_without_remoteness():
    game = make_game("subtraction", subtract=(1, 2))
    sol = solve(game, bound=9)
    assert sol.optimal_moves((8,)) == [(6,)]
    assert sol.optimal_moves((9,)) == [(8,), (7,)]  # lost: every move


def test_optimal_moves_of_sums_of_heaps_refused():
    with pytest.raises(ValueError, match="Grundy"):
        solve(make_game("octal"), bound=5).optimal_moves((5,))


def test_optimal_moves_in_a_draw_stay_in_the_draw():
    sol = solve(draw_graph())
    nodes = list(draw_graph().nodes)
    assert sol.optimal_moves((nodes.index("e"),)) == [(nodes.index("a"),)]


def test_p_positions_and_summary():
    sol = solve(make_game("wythoff"), bound=10)
    assert sol.p_positions()[:3].tolist() == [[0, 0], [2, 1], [1, 2]]
    s = sol.summary()
    assert s["positions"] == 121 and s["losses (P)"] == len(sol.p_positions()) and s["draws"] == 0
    assert s["wins (N)"] + s["losses (P)"] == 121
