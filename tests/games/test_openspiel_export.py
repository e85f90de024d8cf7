"""This toolkit's games exported to OpenSpiel (``games.openspiel_export``): played by OpenSpiel's algorithms, solved
by its value iteration and minimax in agreement with our solver, and its MCTS bot scored exactly
(``learners.optimality``)."""

from __future__ import annotations

import numpy as np
import pytest

from games import GAMES, custom_game, make_game
from games.openspiel_export import (action_option, as_openspiel, bot_policy, option_action, register_openspiel,
                                    register_openspiel_games, state_at)
from learners.agents import RandomAgent
from learners.optimality import counted_positions, expected_optimal_move_share, optimal_move_share, win_rates
from solvers import solve

pyspiel = pytest.importorskip("pyspiel")

SMALL = {"nim": {"heaps": 2}, "moore": {"heaps": 2}, "staircase": {"stairs": 2}, "wythoff_nd": {"heaps": 2},
         "hex": {"n": 2}}


@pytest.mark.parametrize("family", list(GAMES))
def test_every_family_plays_to_its_end_in_openspiel(family):
    game = make_game(family, **SMALL.get(family, {}))
    if game.parts > 1 and game.dims > 1:  # Turning Corners: a set of coins, not a sum of heaps
        with pytest.raises(ValueError, match="repeats cancel"):
            as_openspiel(game, 3)
        return
    exported = as_openspiel(game, None if game.universe_from_start else 3)
    rng = np.random.default_rng(0)
    for _ in range(5):
        state = exported.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            assert actions == sorted(actions) and 0 <= actions[0] and actions[-1] < exported.num_distinct_actions()
            assert len(state.observation_tensor(0)) == int(np.prod(exported.observation_tensor_shape()))
            state.apply_action(int(rng.choice(actions)))
        mover = int(str(state).split(":")[0])
        value = game.terminal_outcome() if game.parts > 1 else int(game.terminal_values([state.position])[0])
        assert state.returns()[mover] == value and sum(state.returns()) == 0  # for the mover, who has no move


def test_a_game_without_a_start_or_with_a_wrong_one_is_refused():
    with pytest.raises(ValueError, match="give bound"):
        as_openspiel(make_game("wythoff"))
    with pytest.raises(ValueError, match="empty board"):
        as_openspiel(make_game("tictactoe"), bound=3)
    with pytest.raises(ValueError, match="more than bound 5"):
        as_openspiel(make_game("octal", code="0.137"), bound=5, start=(4, 3))


@pytest.mark.parametrize("code, bound", [("0.137", 9), ("0.77", 8), ("4.07", 8)])
def test_openspiel_minimax_on_a_sum_of_heaps_agrees_with_sprague_grundy(code, bound):
    """Every sum of heaps OpenSpiel's MinimaxSolver reaches from one heap is won exactly when the xor of our
    solver's Grundy values of its heaps is not 0."""
    from open_spiel.python.algorithms.minimax_solver import MinimaxSolver

    values = MinimaxSolver(register_openspiel(make_game("octal", code=code), bound=bound)).solve()
    grundy = solve(make_game("octal", code=code), bound=bound, grundy=True).grundy_table
    assert len(values) > 10
    for key, entry in values.items():
        heaps = position_of(key)
        assert entry.value == (1 if np.bitwise_xor.reduce(grundy[list(heaps)], initial=0) else -1), key


def test_the_state_string_names_the_player_to_move():
    exported = as_openspiel(make_game("nim", heaps=2), bound=3)
    assert str(state_at(exported, (1, 1), 0)) != str(state_at(exported, (1, 1), 1))


def test_actions_and_options_convert_both_ways():
    for game, bound, position in ((make_game("tictactoe"), None, (0b1, 0b10)), (make_game("notakto", boards=2), None,
                                                                                (0b1, 0)),
                                  (make_game("subtraction", subtract=(1, 3)), 6, (5,))):
        exported = as_openspiel(game, bound)
        state = state_at(exported, position)
        for action in state.legal_actions():
            option = action_option(exported, position, action)
            assert option_action(exported, position, option) == action and option in game.moves(position)
    with pytest.raises(ValueError, match="not legal"):
        action_option(as_openspiel(make_game("tictactoe")), (0b1, 0), 0)


def test_a_custom_game_is_exported():
    game = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], dims=1)
    exported = as_openspiel(game, bound=6)
    assert exported.num_distinct_actions() == 2
    assert str(exported.new_initial_state()) == "0:(6,)"


def test_a_declared_game_is_exported_and_solved_by_openspiel_as_by_us():
    from open_spiel.python.algorithms.minimax_solver import MinimaxSolver

    from games import declared_game

    game = declared_game({"name": "take13-or-both", "heaps": 2,
                          "moves": [{"take": {"min": 1, "max": 3}}, {"take": 1, "from": "all"}]})
    values = MinimaxSolver(register_openspiel(game, bound=5)).solve()
    positions = np.array([position_of(key) for key in values], dtype=np.int64)
    assert len({key.split(":")[1] for key in values}) == 35  # the 6 x 6 box but (0, 0), reached from (5, 5)
    assert np.array_equal(solve(game, bound=5).outcome(positions), [round(e.value) for e in values.values()])


def test_one_game_is_registered_under_its_name_once():
    game = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], dims=1)
    name = register_openspiel(game, bound=5)
    assert name == "toolkit_take12_dims1_bound5" and register_openspiel(game, bound=5) == name
    assert str(pyspiel.load_game(name).new_initial_state()) == "0:(5,)"
    assert register_openspiel(game, bound=6, start=(4,)) == "toolkit_take12_dims1_bound6_start4"
    with pytest.raises(ValueError, match="already has a game named"):
        register_openspiel(game, bound=6, name=name)
    with pytest.raises(ValueError, match="already has a game named"):
        register_openspiel(make_game("nim"), bound=2, name="toolkit_nim")  # the family's own registration


def test_the_families_are_registered_with_their_parameters():
    names = register_openspiel_games()
    assert len(names) == len(GAMES) and register_openspiel_games() == names  # a second call registers nothing
    game = pyspiel.load_game("toolkit_subtraction(subtract=1;3;4,misere=True,bound=9)")
    assert game.layout.game == make_game("subtraction", subtract=(1, 3, 4), misere=True)
    assert str(game.new_initial_state()) == "0:(9,)"
    assert pyspiel.load_game("toolkit_tictactoe").new_initial_state().legal_actions() == list(range(9))


CHECKED = [pytest.param("toolkit_wythoff(bound=4)", id="wythoff-4"),
           pytest.param("toolkit_nim(heaps=2,misere=True,bound=3)", id="misere-nim-2-heaps-3"),
           pytest.param("toolkit_notakto", id="notakto-3x3"),
           pytest.param("toolkit_subtraction(subtract=1;3;4,bound=12)", id="subtraction-134"),
           pytest.param("toolkit_tictactoe", id="tictactoe")]


@pytest.mark.parametrize("name", CHECKED)
def test_openspiel_minimax_agrees_with_our_solver_on_every_state(name):
    """OpenSpiel's MinimaxSolver (loaded by name: the registration) values every state it reaches from the start,
    for the player to move; each is our solver's outcome of the same position."""
    from open_spiel.python.algorithms.minimax_solver import MinimaxSolver

    register_openspiel_games()
    layout = pyspiel.load_game(name).layout
    table = MinimaxSolver(name).solve()
    solution = solve(layout.game, bound=layout.bound)
    positions = np.array([position_of(key) for key in table], dtype=np.int64)
    values = np.array([entry.value for entry in table.values()])
    assert len(table) > 10
    assert np.array_equal(solution.outcome(positions), np.rint(values).astype(np.int64))


def position_of(key: str) -> tuple[int, ...]:
    """The position of a state string ``"player:(a, b)"``."""
    return tuple(int(x) for x in key.split(":")[1].strip("()").split(",") if x.strip())


def test_openspiel_alpha_beta_agrees_on_tictactoe():
    from open_spiel.python.algorithms import minimax

    exported = as_openspiel(make_game("tictactoe"))
    solution = solve(make_game("tictactoe"))
    for position in ((0, 0), (0b000010000, 0b000000001), (0b000000011, 0b000011000)):
        state = state_at(exported, position, player=0)
        value, _ = minimax.alpha_beta_search(exported, state=state, maximizing_player_id=0)
        assert value == int(solution.outcome([position])[0])


def _mcts(exported, simulations, seed):
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return mcts.MCTSBot(exported, 2, simulations, evaluator, random_state=np.random.RandomState(seed))


@pytest.mark.parametrize("game, bound", [pytest.param(make_game("wythoff"), 5, id="wythoff-5"),
                                         pytest.param(make_game("notakto"), None, id="notakto-3x3",
                                                      marks=pytest.mark.slow)])
def test_openspiel_mcts_is_scored_exactly(game, bound):
    exported = as_openspiel(game, bound)
    solution = solve(game, bound=bound)
    scores = [optimal_move_share(solution, bot_policy(exported, _mcts(exported, 200, 0)), sample=None)
              for _ in range(2)]
    assert scores[0] == scores[1]  # seeded: the same moves again
    assert scores[0]["asked"] == counted_positions(solution).size
    assert scores[0]["share"] > expected_optimal_move_share(solution, RandomAgent())  # search beats random moves
    rates = win_rates(solution, bot_policy(exported, _mcts(exported, 200, 0)), sample=None)
    assert rates["first"]["games"] == rates["second"]["games"] == rates["starts"] >= 1
    assert rates["in_play"][1] > 0


def test_openspiel_random_bot_through_the_export_matches_its_expected_share():
    """OpenSpiel's uniform random bot, scored over every position of Wythoff, lands near the exact expectation."""
    game = make_game("wythoff")
    exported = as_openspiel(game, 8)
    solution = solve(game, bound=8)
    share = optimal_move_share(solution, bot_policy(exported, pyspiel.make_uniform_random_bot(0, 1)), sample=None)
    assert share["low"] <= expected_optimal_move_share(solution, RandomAgent()) <= share["high"]
