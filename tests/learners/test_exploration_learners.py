"""The Hex exploration learners: every variant on tiny boards and budgets (the learner contract), the move
outputs, the hexagonal filters and bad input."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from cgbase.optional import torch_module
from games import make_game
from learners import Arena, GreedyAgent
from learners.exploration import VARIANTS, BoardQLearner, make_variant
from learners.exploration.boards import BoardActions
from learners.exploration.network import build_q_network

TINY = dict(layers=2, width=8, games=8, batch_size=16, replay_size=200)


@functools.lru_cache(maxsize=None)
def _fitted(variant: str, n: int, seed: int = 0):
    return make_variant(variant, seed, **TINY).fit(make_game("hex", n=n), episodes=60, eval_every=20)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("n", [2, 3])
def test_every_variant_follows_the_learner_contract(variant, n):
    learner = _fitted(variant, n)
    assert [r["episode"] for r in learner.history_] == [20, 40, 60]
    for record in learner.history_:
        assert {"episode", "seconds", "update_cost", "win_variance", "optimal_move_rate"} <= set(record)
        assert 0.0 <= record["optimal_move_rate"] <= 1.0 and 0.0 <= record["win_variance"] <= 0.25
    if VARIANTS[variant].get("exploration"):
        assert "exploration_score" in learner.history_[-1]
    table = learner.value_table_
    arena = Arena(table.game, table.bound)
    assert table.universe == arena.universe and table.q.shape == arena.targets.shape
    assert np.isfinite(table.value).all() and (np.abs(table.value) <= 1).all()
    ends = np.diff(table.indptr) == 0
    assert (table.value[ends] == table.game.terminal_values(table.universe.positions(np.flatnonzero(ends)))).all()


def test_fit_returns_the_learner_and_keeps_its_parameters():
    learner = make_variant("variance", 3, **TINY)
    before = learner.get_params()
    assert learner.fit(make_game("hex", n=2), episodes=4, eval_every=2) is learner
    assert learner.get_params() == before and before["random_state"] == 3 and learner.episodes_ == 4


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_same_seed_gives_the_same_network(variant):
    again = make_variant(variant, 0, **TINY).fit(make_game("hex", n=3), episodes=60, eval_every=20)
    assert np.array_equal(again.value_table_.q, _fitted(variant, 3).value_table_.q)
    assert [r["update_cost"] for r in again.history_] == [r["update_cost"] for r in _fitted(variant, 3).history_]
    assert not np.array_equal(_fitted(variant, 3, seed=1).value_table_.q, again.value_table_.q)


@pytest.mark.parametrize("variant", ["minimax", "variance"])
def test_policy_plays_legal_moves_and_matches_the_table(variant):
    learner = _fitted(variant, 3)
    table, agent, rng = learner.value_table_, learner.policy(), np.random.default_rng(0)
    live = np.flatnonzero(np.diff(table.indptr) > 0)
    for s in live[:: max(1, live.size // 20)]:
        position = tuple(int(x) for x in table.universe.positions([s])[0])
        move = agent.move(table.game, position, rng)
        assert move in table.game.moves(position)
        assert GreedyAgent(table).move(table.game, position, rng) == move
    arena = Arena(table.game, table.bound)
    assert np.array_equal(agent.edge_weights(arena), arena.best_edges(table.q))


def test_learning_helps_on_hex_3():
    game = make_game("hex", n=3)
    learner = BoardQLearner(layers=3, width=16, random_state=0).fit(game, episodes=400, eval_every=200)
    untrained = BoardQLearner(layers=3, width=16, random_state=0).fit(game, episodes=1, eval_every=1)
    assert learner.history_[-1]["optimal_move_rate"] > untrained.history_[-1]["optimal_move_rate"] + 0.1


def test_solver_variant_records_its_guidance():
    record = _fitted("solver", 3).history_[-1]
    assert 0 < record["proved"] <= 1 and 0 <= record["must_play"] <= 1
    assert _fitted("pseudocount", 3).history_[-1]["pseudo_count"] > 0


@pytest.mark.parametrize("name, params", [("tictactoe", {}), ("notakto", {"n": 3, "boards": 2})])
def test_other_board_games(name, params):
    game = make_game(name, **params)
    learner = make_variant("pseudocount", 0, **TINY).fit(game, episodes=20, eval_every=10, measures=[])
    assert [r["episode"] for r in learner.history_] == [10, 20]
    position = game.start
    assert learner.policy().move(game, position, np.random.default_rng(0)) in game.moves(position)


def test_moves_map_to_the_empty_cells_the_network_sees():
    for game in (make_game("hex", n=4), make_game("tictactoe"), make_game("notakto", n=3, boards=2)):
        board = BoardActions(game)
        rng = np.random.default_rng(0)
        for _ in range(20):
            p = np.asarray(game.start, dtype=np.int64)
            for _ in range(rng.integers(0, 4)):
                counts, options, _ = board.expand(p[None, :])
                p = options[rng.integers(counts[0])]
            counts, options, actions = board.expand(p[None, :])
            planes = board.encoder(p[None, :])[0]
            free = (planes[:2].sum(axis=0) == 0).ravel() if not game.impartial else (planes[:game.dims] == 0).ravel()
            assert sorted(actions.tolist()) == np.flatnonzero(free).tolist()


def test_hexagonal_filters_see_only_hex_neighbours():
    torch = torch_module("the exploration learner")
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        net = build_q_network((1, 5, 5), 1, layers=1, width=4, head_layers=0, first_diameter=3)
    base = torch.zeros(1, 1, 5, 5)
    poked = base.clone()
    poked[0, 0, 2, 2] = 1.0
    with torch.no_grad():
        changed = (net(poked) - net(base)).abs().reshape(5, 5) > 0
    assert sorted(zip(*np.nonzero(changed.numpy()))) == [(1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2)]


@pytest.mark.parametrize("params, message", [
    ({"backup": "maximin"}, "unknown backup"),
    ({"exploration": "variance"}, "joint backup"),
    ({"exploration": "pseudocount", "backup": "joint"}, "minimax form"),
    ({"epsilon": 1.5}, "epsilon"),
    ({"head_layers": 4, "layers": 4}, "head_layers"),
    ({"replay_size": 10, "batch_size": 20}, "replay_size"),
    ({"first_diameter": 4}, "first_diameter"),
    ({"device": "tpu"}, "device"),
    ({"random_state": -1}, "random_state"),
    ({"must_play": 1}, "must_play"),
])
def test_bad_parameters_are_refused(params, message):
    with pytest.raises(ValueError, match=message):
        BoardQLearner(**params).fit(make_game("hex", n=2), episodes=1)


def test_bad_games_and_budgets_are_refused():
    with pytest.raises(ValueError, match="board games"):
        BoardQLearner().fit(make_game("nim"), episodes=1)
    with pytest.raises(ValueError, match="episodes"):
        BoardQLearner().fit(make_game("hex", n=2), episodes=0)
    with pytest.raises(ValueError, match="must-play"):
        BoardQLearner(must_play=True).fit(make_game("tictactoe"), episodes=1, measures=[])
    with pytest.raises(ValueError, match="not tictactoe"):  # Hex up to 7 x 7 and Notakto have a solver
        BoardQLearner(solver_nodes=10).fit(make_game("tictactoe"), episodes=1)
    with pytest.raises(ValueError, match="unknown variant"):
        make_variant("greedy")
    with pytest.raises(ValueError, match="fit the BoardQLearner first"):
        BoardQLearner().policy()


def test_a_given_solution_serves_the_measure_and_the_table():
    from solvers import solve

    game = make_game("hex", n=3)
    given = make_variant("minimax", 0, **TINY).fit(game, episodes=60, eval_every=20, solution=solve(game))
    assert np.array_equal(given.value_table_.q, _fitted("minimax", 3).value_table_.q)
    assert given.history_[-1]["optimal_move_rate"] == _fitted("minimax", 3).history_[-1]["optimal_move_rate"]
    with pytest.raises(ValueError, match="solution is of"):
        BoardQLearner().fit(game, episodes=1, solution=solve(make_game("hex", n=2)))


def test_check_game_and_budget():
    BoardQLearner(must_play=True, solver_nodes=10).check_game(make_game("hex", n=5))
    with pytest.raises(ValueError, match="board games"):
        BoardQLearner().check_game(make_game("wythoff"))
    with pytest.raises(ValueError, match="search"):
        BoardQLearner(solver_nodes=10).check_game(make_game("tictactoe"))
    assert BoardQLearner().budget(None) == {"episodes": 1000, "eval_every": 200}
