"""AlphaZero: search, self-play, training, scoring, value tables, checkpoints and bad input (tiny budgets, CPU)."""

from __future__ import annotations

import numpy as np
import pytest

from games import make_game
from learners import Arena, ValueTable
from learners.agents import RandomAgent
from learners.alphazero.learner import AlphaZeroLearner
from learners.alphazero.agents import AlphaZeroAgent, RolloutAgent
from learners.alphazero.play import OptimalMover, RandomMover, Replay, play_games, self_play, SearchMover
from learners.alphazero.mcts import Forest, RolloutEvaluator, UniformEvaluator
from learners.options import options_block
from learners.metrics import policy_accuracy
from learners.play import duel

NOTAKTO3 = make_game("notakto", n=3)
TINY = dict(iterations=2, games_per_iteration=4, simulations=8, eval_games=6)


@pytest.fixture(scope="module")
def notakto3():
    """3 x 3 Notakto learned for a few seconds: enough for the first player's win."""
    learner = AlphaZeroLearner(random_state=0)
    return learner.fit(NOTAKTO3, iterations=14, games_per_iteration=32, simulations=30, eval_every=7,
                       eval_games=40)


# -- search ------------------------------------------------------------------------------------
def test_options_block_matches_moves():
    game = make_game("wythoff")
    positions = np.array([[3, 2], [0, 0], [1, 4]])
    counts, options = options_block(game, positions)
    assert counts.tolist() == [len(game.moves(tuple(p))) for p in positions]
    assert [tuple(o) for o in options] == [m for p in positions for m in game.moves(tuple(p))]


def test_rollout_search_finds_the_winning_moves_of_nim():
    game = make_game("nim", heaps=3)
    arena = Arena(game, bound=3)
    weights = RolloutAgent(simulations=300, seed=1).edge_weights(arena)
    assert policy_accuracy(arena, weights) > 0.9
    assert np.allclose(np.add.reduceat(weights, arena.indptr[:-1][np.diff(arena.indptr) > 0]), 1.0)


def test_search_visits_and_terminal_values():
    game = make_game("notakto", n=3)
    forest = Forest(game, trees=1, simulations=50, width=9)
    # two marks in the top row: the third one completes it and loses, so it is visited least
    result = forest.search(np.array([[0b011]]), UniformEvaluator(), 50, np.random.default_rng(0))
    visits = result.visits[0, : result.counts[0]]
    losing = [i for i, o in enumerate(result.options[0, : result.counts[0]]) if o[0] == 0b111]
    assert visits.sum() == 50 and visits[losing[0]] == visits.min()
    with pytest.raises(ValueError, match="without a move"):
        forest.search(np.array([[0b111]]), UniformEvaluator(), 5, np.random.default_rng(0))


def test_rollout_agent_beats_random():
    arena = Arena(NOTAKTO3, bound=3)
    start = [arena.index(NOTAKTO3.start)]
    result = duel(arena, RolloutAgent(simulations=200).edge_weights(arena), RandomAgent(), 200, starts=start)
    assert result["wins"] >= 170


def test_play_games_and_optimal_mover():
    game = make_game("nim", heaps=2)
    arena = Arena(game, bound=4)
    starts = arena.universe.positions(np.flatnonzero(arena.outcome == 1))
    log = play_games(game, OptimalMover(game, arena.solution), RandomMover(game), starts, np.random.default_rng(0), 20)
    assert log.wins(0) == len(starts)


def test_self_play_samples():
    game = make_game("nim", heaps=2)
    mover = SearchMover(Forest(game, 3, 10, 6), UniformEvaluator(), 10)
    out = self_play(game, np.array([[2, 3]] * 3), mover, np.random.default_rng(0), (0.5, 0.25), 1.0, 2, 50)
    assert len(out["z"]) == out["plies"].sum() and out["counts"].sum() == len(out["options"]) == len(out["pi"])
    assert np.allclose(np.add.reduceat(out["pi"], np.concatenate([[0], np.cumsum(out["counts"])[:-1]])), 1.0)
    first = out["positions"][:, 0] + out["positions"][:, 1] == 5  # the starts: z is the result for their mover
    winners = out["z"][first]
    assert set(np.abs(out["z"]).tolist()) == {1.0} and winners.size == 3


def test_replay_keeps_the_newest():
    game = make_game("nim", heaps=2)
    queue = Replay(game, capacity=4, width=4)
    for k in range(1, 4):
        queue.add({"positions": np.array([[k, 0], [0, 1]]), "counts": np.array([k, 1]),
                   "pi": np.concatenate([np.full(k, 1.0 / k), [1.0]]), "z": np.array([1.0, -1.0])})
    assert len(queue) == 4 and sorted(queue.positions[:, 0].tolist()) == [0, 0, 2, 3]
    positions, options, counts, pi, z = queue.batch(8, np.random.default_rng(0))
    assert len(options) == counts.sum() and np.allclose(pi.sum(axis=1), 1.0)
    assert [tuple(o) for o in options[: counts[0]]] == game.moves(tuple(positions[0]))


# -- learning ----------------------------------------------------------------------------------
def test_notakto3_first_player_wins(notakto3):
    last = notakto3.history_[-1]
    assert last["score_random_first"] == 100.0
    assert last["score_optimal_first"] == 100.0  # a winning strategy from the empty board
    assert last["optimal_move_rate"] > 0.9 and last["value_accuracy"] > 0.8
    agent = notakto3.policy()
    assert agent.move(NOTAKTO3, NOTAKTO3.start, np.random.default_rng(0)) == (0b000010000,)  # the centre


def test_history_records(notakto3):
    records = notakto3.history_
    assert [r["iteration"] for r in records] == list(range(1, 15))
    assert all({"loss", "value_loss", "policy_loss", "seconds", "cpu_seconds", "episode"} <= set(r) for r in records)
    scored = [r for r in records if "score_random_first" in r]
    assert [r["iteration"] for r in scored] == [7, 14] and "score_previous" in scored[1]
    assert records[-1]["episode"] == notakto3.episodes_ == 14 * 32


def test_value_table(notakto3, tmp_path):
    table = notakto3.value_table_
    arena = Arena(NOTAKTO3, bound=3)
    assert table.universe == arena.universe and table.q.shape == (arena.edges,)
    assert (np.abs(table.value) <= 1).all() and table.visits.sum() > 0
    ends = np.diff(table.indptr) == 0
    assert (table.value[ends] == 1).all()  # misere: the player to move at a dead board wins
    assert np.allclose(table.q, -table.value[table.targets], atol=1e-6)
    assert np.mean(np.sign(table.value) == arena.outcome) > 0.8
    table.save(tmp_path / "t.npz")
    again = ValueTable.load(tmp_path / "t.npz")
    assert np.array_equal(again.value, table.value)


def test_agent_edge_weights(notakto3):
    arena = Arena(NOTAKTO3, bound=3)
    head = notakto3.policy(simulations=0).edge_weights(arena)
    searched = notakto3.policy(simulations=20).edge_weights(arena)
    for weights in (head, searched):
        assert weights.shape == (arena.edges,) and policy_accuracy(arena, weights) > 0.85
    assert np.add.reduceat(searched, arena.indptr[:-1][np.diff(arena.indptr) > 0]).max() == 1.0


def test_same_seed_same_network():
    game = make_game("nim", heaps=2)
    a = AlphaZeroLearner(hidden=(8,), random_state=3).fit(game, bound=3, **TINY)
    b = AlphaZeroLearner(hidden=(8,), random_state=3).fit(game, bound=3, **TINY)
    c = AlphaZeroLearner(hidden=(8,), random_state=4).fit(game, bound=3, **TINY)
    assert np.array_equal(a.value_table_.q, b.value_table_.q)
    assert not np.array_equal(a.value_table_.q, c.value_table_.q)


def test_checkpoint_resume_is_exact(tmp_path):
    game = make_game("notakto", n=3)
    path = tmp_path / "run.npz"
    whole = AlphaZeroLearner(hidden=(16,), random_state=1).fit(game, **{**TINY, "iterations": 3})
    AlphaZeroLearner(hidden=(16,), random_state=1).fit(game, **{**TINY, "iterations": 2}, checkpoint=path)
    resumed = AlphaZeroLearner(hidden=(16,), random_state=1).fit(game, **{**TINY, "iterations": 3}, checkpoint=path)
    assert np.array_equal(resumed.value_table_.q, whole.value_table_.q)
    assert np.array_equal(resumed.value_table_.visits, whole.value_table_.visits)
    strip = [{k: v for k, v in r.items() if k not in ("seconds", "cpu_seconds")} for r in whole.history_]
    assert [{k: v for k, v in r.items() if k not in ("seconds", "cpu_seconds")} for r in resumed.history_] == strip
    with pytest.raises(ValueError, match="another run"):
        AlphaZeroLearner(hidden=(32,), random_state=1).fit(game, **TINY, checkpoint=path)


def test_integer_game_from_a_start_and_conv_on_hex():
    nim = make_game("nim", heaps=3)
    fitted = AlphaZeroLearner(hidden=(8,)).fit(nim, start=(1, 2, 3), **TINY)
    assert fitted.value_table_.bound == 3 and "optimal_move_rate" in fitted.history_[-1]
    opened = AlphaZeroLearner(hidden=(8,)).fit(nim, start=(1, 2, 3), random_openings=3, **TINY)
    assert opened.history_[0]["samples"] < fitted.history_[0]["samples"]  # games start after random moves
    hex3 = make_game("hex", n=3)
    conv = AlphaZeroLearner(network="conv", hidden=(16,), channels=4, layers=1).fit(hex3, score_untrained=True,
                                                                                     **TINY)
    assert [r["iteration"] for r in conv.history_] == [0, 1, 2]
    move = conv.policy().move(hex3, hex3.start, np.random.default_rng(0))
    assert move in hex3.moves(hex3.start)


def test_agent_interface_for_large_games():
    hex5 = make_game("hex", n=5)  # no universe: nothing tabulated, the agent still plays
    fitted = AlphaZeroLearner(hidden=(8,)).fit(hex5, iterations=1, games_per_iteration=2, simulations=4,
                                               eval_games=2)
    assert fitted.value_table_ is None and "optimal_move_rate" not in fitted.history_[-1]
    assert isinstance(fitted.policy(), AlphaZeroAgent)


@pytest.mark.parametrize("params, fit, message", [
    ({"network": "resnet"}, {}, "unknown network"),
    ({"encoding": "binary"}, {}, "board game"),
    ({"c_puct": 0}, {}, "c_puct"),
    ({"device": "tpu"}, {}, "device"),
    ({}, {"iterations": 0}, "iterations"),
    ({}, {"start": (0b111,)}, "no move"),
])
def test_bad_input(params, fit, message):
    with pytest.raises(ValueError, match=message):
        AlphaZeroLearner(**params).fit(NOTAKTO3, **{**TINY, **fit})


def test_bad_games():
    with pytest.raises(ValueError, match="bound"):
        AlphaZeroLearner().fit(make_game("nim", heaps=2), **TINY)
    with pytest.raises(ValueError, match="sum of heaps"):
        AlphaZeroLearner().fit(make_game("lasker"), bound=5, **TINY)


def test_cuda_refused_without_a_gpu():
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    with pytest.raises(ValueError, match="no GPU"):
        AlphaZeroLearner(device="cuda").fit(NOTAKTO3, **TINY)


def test_rollout_evaluator_values():
    game = make_game("nim", heaps=1)
    values = RolloutEvaluator(game, np.random.default_rng(0)).playout(np.array([[0], [1]]))
    assert values.tolist() == [-1.0, 1.0]  # no move: lost; one token: the playout takes it and wins


def _registered():
    from games import GAMES

    for name in GAMES:
        game = make_game(name)
        if game.parts == 1:
            yield pytest.param(game, id=name)


@pytest.mark.parametrize("game", list(_registered()))
def test_every_registered_game(game):
    from learners.checks import small_bound

    bound = None if game.universe_from_start else small_bound(game)
    fitted = AlphaZeroLearner(hidden=(8,)).fit(game, bound=bound, iterations=1, games_per_iteration=3,
                                               simulations=4, eval_games=4)
    table = fitted.value_table_
    assert table.universe == Arena(game, table.bound).universe and np.isfinite(table.q).all()
    ends = np.diff(table.indptr) == 0
    assert (table.value[ends] == game.terminal_values(table.universe.positions(np.flatnonzero(ends)))).all()
    live = np.flatnonzero(~ends)
    agent, rng = fitted.policy(), np.random.default_rng(0)
    for s in live[:: max(1, live.size // 5)]:
        position = tuple(int(x) for x in table.universe.positions([s])[0])
        assert agent.move(game, position, rng) in game.moves(position)
