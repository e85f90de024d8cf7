"""Agents over an arena, compiled duels and round-robin tournaments."""

from __future__ import annotations

import numpy as np

from games import make_game
from learners import Arena, GreedyAgent, HypothesisAgent, OptimalAgent, QLearner, RandomAgent, duel, play
from learners.tournament import format_table, round_robin

ARENA = Arena(make_game("nim", heaps=3), bound=5)
N_STARTS = np.flatnonzero(ARENA.outcome == 1)
P_STARTS = np.flatnonzero((ARENA.outcome == -1) & (np.diff(ARENA.indptr) > 0))


def xor_zero(positions):
    return np.bitwise_xor.reduce(positions, axis=1) == 0


def test_optimal_and_rule_agents_never_lose_from_n_positions():
    for agent in (OptimalAgent(ARENA.solution), HypothesisAgent(xor_zero)):
        for opponent in (RandomAgent(), OptimalAgent(ARENA.solution)):
            result = duel(ARENA, agent, opponent, 400, starts=N_STARTS)
            assert result["wins"] == 400


def test_optimal_player_wins_every_p_start_as_second_player():
    result = duel(ARENA, RandomAgent(), OptimalAgent(ARENA.solution), 400, starts=P_STARTS)
    assert result["losses"] == 400


def test_duel_agrees_with_the_python_play_loop():
    rng = np.random.default_rng(0)
    game, optimal = ARENA.game, OptimalAgent(ARENA.solution)
    for s in N_STARTS[:20]:
        assert play(game, optimal, RandomAgent(), tuple(ARENA.universe.positions([s])[0]), rng) == 0


def test_greedy_agent_weights_follow_the_table():
    table = QLearner(random_state=0).fit(ARENA.game, bound=5, episodes=30_000).value_table_
    weights = GreedyAgent(table).edge_weights(ARENA)
    assert duel(ARENA, weights, RandomAgent(), 300, starts=N_STARTS)["wins"] == 300


def test_round_robin_table():
    agents = {"optimal": OptimalAgent(ARENA.solution), "random": RandomAgent()}
    table = round_robin(ARENA, agents, games=300, seed=1)
    assert table["first"]["optimal"]["random"] >= table["n_share"]
    assert table["second"]["optimal"]["random"] > table["second"]["random"]["optimal"]
    assert table["first"]["optimal"]["optimal"] == table["n_share"]
    assert format_table(table).count("\n") == 3


def test_play_ends_a_drawn_board_as_a_draw():
    game = make_game("tictactoe")
    results = {play(game, RandomAgent(), RandomAgent(), game.start, np.random.default_rng(s)) for s in range(40)}
    assert results == {None, 0, 1}
