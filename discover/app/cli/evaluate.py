"""The ``evaluate`` command: how close an agent plays to perfect, measured exactly against the solver.

    discover evaluate wythoff --bound 6                      # OpenSpiel's MCTS bot on Wythoff exported to OpenSpiel
    discover evaluate tictactoe --bot random --json
    discover evaluate nim heaps=2 --bound 4 --learner q      # this toolkit's Q-learner, its greedy policy

It prints the share of positions where the agent picks an optimal move (a winning move where one exists, a
drawing move where the best is a draw) and its games against the solver's perfect player from every start, in
both seats, each with a 95% Wilson interval (``learners.optimality``). OpenSpiel's bots play the game exported with
``games.openspiel_export``.
"""

from __future__ import annotations

import json

import click

from discover.app.cli.common import (BOUND, SEED, TEXT, Integer, LearnerChoice, game_arguments, game_from_words, given,
                                 say)

__all__ = ["evaluate_command", "openspiel_game", "BOTS"]

BOTS = ("mcts", "random", "alpha_zero")
MCTS_UCT_C = 2.0  # OpenSpiel's examples' exploration constant
BOARD_GAMES = 20  # games per seat from a board game's one start, by default


@click.command("evaluate")
@game_arguments
@click.option("--bot", type=click.Choice(BOTS), default=None,
              help="An OpenSpiel bot on the game exported to OpenSpiel (default: mcts): mcts (MCTSBot with random "
                   "rollouts), random (uniform), alpha_zero (an OpenSpiel AlphaZero checkpoint).")
@click.option("--checkpoint", type=TEXT, metavar="PATH", default=None,
              help="The AlphaZero checkpoint of --bot alpha_zero.")
@click.option("--learner", type=LearnerChoice(value_table=True), default=None,
              help="This toolkit's learner instead of a bot, fitted here; its greedy policy is scored.")
@click.option("--episodes", type=BOUND, default=None, help="--learner: games to learn from (default: its own).")
@click.option("--bound", type=BOUND, default=None,
              help="Universe scored over (integer games; default: 30 for one heap, 12 x 12, three heaps of 7).")
@click.option("--simulations", type=Integer(1, 1_000_000), default=100, show_default=True,
              help="--bot mcts: simulations per move.")
@click.option("--rollouts", type=Integer(1, 10_000), default=1, show_default=True,
              help="--bot mcts: random rollouts per leaf.")
@click.option("--positions", type=Integer(1, 10**8), default=200, show_default=True,
              help="Positions asked: all where the move matters when there are at most this many, else a sample "
                   "stratified by move number.")
@click.option("--starts", type=Integer(1, 10**8), default=20, show_default=True,
              help="Starts of the games against the perfect player (integer games; board games start empty).")
@click.option("--games", type=Integer(1, 10_000), default=None,
              help="Games per start and seat (default: 1; 20 from a board game's one start).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the bot, the samples and the games.")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as one JSON record.")
def evaluate_command(game, params, bot, checkpoint, learner, episodes, bound, simulations, rollouts, positions, starts,
                     games, seed, as_json):
    """Score an agent on GAME exactly: its share of optimal moves and its games against the perfect player."""
    _check_options(bot, checkpoint, learner)
    game_obj = game_from_words(game, params)
    if game_obj.parts > 1:
        raise ValueError(f"{game_obj!r} is a sum of heaps (a move splits a heap), scored against a solution of single "
                         f"positions only: evaluate nim, wythoff, subtraction, notakto or tictactoe (OpenSpiel plays "
                         f"the sums through games.openspiel_export)")
    if game_obj.universe_from_start and given("bound", "starts"):
        raise ValueError(f"{game_obj!r} starts from its empty board: leave out {', '.join(given('bound', 'starts'))}")
    if learner is None:
        from games.openspiel_export import require_openspiel

        require_openspiel()
    from learners.optimality import optimal_move_share, win_rates
    from learners.registry import default_bound
    from solvers import solve

    bound = None if game_obj.universe_from_start else default_bound(game_obj) if bound is None else bound
    solution = solve(game_obj, bound=bound)
    policy, agent = _policy(game_obj, bound, solution, bot or "mcts", learner, episodes, simulations, rollouts, seed)
    share = optimal_move_share(solution, policy, sample=positions, random_state=seed)
    games = games or (BOARD_GAMES if game_obj.start is not None else 1)
    rates = win_rates(solution, policy, games=games, sample=starts, random_state=seed)
    record = {"game": game_obj.spec(), "bound": solution.bound, "agent": agent, "seed": seed,
              "universe": solution.universe.size, "games": games, "optimal_moves": share, "against_perfect": rates}
    if as_json:
        click.echo(json.dumps(record))
        return
    _print(game_obj, solution, record)


def _check_options(bot, checkpoint, learner) -> None:
    """Options that contradict each other are refused before any work."""
    if learner is not None:
        meaningless = given("bot", "checkpoint", "simulations", "rollouts")
        if meaningless:
            raise ValueError(f"{', '.join(meaningless)} set an OpenSpiel bot, and --learner scores this toolkit's "
                             f"learner: leave out {', '.join(meaningless)}, or --learner")
        return
    if given("episodes"):
        raise ValueError("--episodes is the budget of --learner: leave it out, or name a learner")
    if (bot or "mcts") != "mcts" and given("simulations", "rollouts"):
        raise ValueError(f"{', '.join(given('simulations', 'rollouts'))} set --bot mcts, not --bot {bot}")
    if checkpoint is not None and bot != "alpha_zero":
        raise ValueError("--checkpoint is the AlphaZero checkpoint of --bot alpha_zero: leave it out, or add "
                         "--bot alpha_zero")
    if bot == "alpha_zero":
        raise ValueError(
            "--bot alpha_zero: OpenSpiel 2's AlphaZero saves JAX (flax/orbax) checkpoints, which load only with jax, "
            "flax, optax, chex and orbax-checkpoint and the run's model settings, none of them part of this toolkit; "
            "score its games with --bot mcts, or this toolkit's AlphaZero with --learner alphazero")


def _policy(game, bound, solution, bot, learner, episodes, simulations, rollouts, seed):
    """The policy scored (position -> option, or an Agent) and its description."""
    if learner is not None:
        from learners.agents import GreedyAgent
        from learners.registry import fit_learner

        fitted = fit_learner(learner, game, bound=bound, games=episodes, seed=seed)
        return GreedyAgent(fitted.value_table_), {"learner": learner, "params": fitted.get_params(),
                                                  "episodes": getattr(fitted, "episodes_", None)}
    import numpy as np
    import pyspiel

    from games.openspiel_export import bot_policy

    played, to_state, to_option = openspiel_game(game, bound)
    if bot == "random":
        searcher, agent = _SeatBots([pyspiel.make_uniform_random_bot(p, seed) for p in (0, 1)]), {"bot": "random"}
    else:
        from open_spiel.python.algorithms import mcts

        evaluator = mcts.RandomRolloutEvaluator(rollouts, np.random.RandomState(seed))
        searcher = mcts.MCTSBot(played, MCTS_UCT_C, simulations, evaluator, random_state=np.random.RandomState(seed))
        agent = {"bot": "mcts", "simulations": simulations, "rollouts": rollouts, "uct_c": MCTS_UCT_C}
    return bot_policy(played, searcher, to_state, to_option), agent


class _SeatBots:
    """One OpenSpiel bot per player, each asked at its own seat (a uniform random bot crashes OpenSpiel when
    stepped at the other player's state, as an imported game's positions with player 1 to move would do)."""

    def __init__(self, bots):
        self.bots = bots

    def step(self, state):
        return self.bots[state.current_player()].step(state)


def openspiel_game(game, bound):
    """The OpenSpiel game a bot plays for ``game``, and its converters (``bot_policy``'s ``to_state`` and
    ``to_option``): an imported ``openspiel:`` game plays in its own OpenSpiel game; this toolkit's games are
    exported with ``games.openspiel_export``.

    Examples
    --------
    >>> from games import make_game
    >>> played, to_state, to_option = openspiel_game(make_game("nim", heaps=2), 3)
    >>> str(to_state(played, (1, 2))), to_option(played, (1, 2), 0)
    ('0:(1, 2)', (0, 2))
    """
    from games.openspiel import OpenSpielGame

    if isinstance(game, OpenSpielGame):
        return game.spiel, lambda played, position: game.state(position), \
            lambda played, position, action: game.option_of(position, action)
    from games.openspiel_export import action_option, as_openspiel, state_at

    return as_openspiel(game, bound), state_at, action_option


def _print(game, solution, record) -> None:
    from learners.repeats import interval_text

    agent = record["agent"]
    if "learner" in agent:
        name = f"learner {agent['learner']} ({agent['episodes']} games), its greedy policy"
    elif agent["bot"] == "mcts":
        name = (f"OpenSpiel's MCTS bot ({agent['simulations']} simulations, {agent['rollouts']} random "
                f"rollout{'s' if agent['rollouts'] > 1 else ''} per leaf)")
    else:
        name = "OpenSpiel's uniform random bot"
    where = "" if game.universe_from_start else f", bound {solution.bound}"
    say(f"{game.title()}{where} ({solution.universe.size:,} positions): {name}, seed {record['seed']}")
    share = record["optimal_moves"]
    asked = (f"a stratified sample of {share['asked']:,} of the {share['counted']:,}" if share["sampled"]
             else f"all {share['asked']:,}")
    wins, draws = share["by_value"]["win"], share["by_value"]["draw"]
    found = f"winning move found {wins[0]}/{wins[1]}" + (f", drawing move {draws[0]}/{draws[1]}" if draws[1] else "")
    say(f"  optimal moves    {interval_text(share['share'], share['low'], share['high'])} at {asked} positions "
        f"where the move matters ({found})")
    rates = record["against_perfect"]
    say(f"  against the perfect player, {rates['starts']:,} start{'s' if rates['starts'] > 1 else ''} x 2 seats x "
        f"{record['games']} game{'s' if record['games'] > 1 else ''}:")
    for seat, label in (("first", "moving first"), ("second", "moving second"), ("overall", "overall")):
        r = rates[seat]
        kept = (f"; kept its seat's win or draw {r['kept'][0]}/{r['kept'][1]} "
                f"{interval_text(r['kept_share'], r['kept_low'], r['kept_high'])}" if r["kept"][1] else "")
        say(f"    {label:<14} won {r['wins']}, drew {r['draws']}, lost {r['losses']} of {r['games']}: win rate "
            f"{interval_text(r['win_rate'], r['low'], r['high'])}{kept}")
    k, n = rates["in_play"]
    say(f"  optimal moves in play {k}/{n}" + (f" = {k / n:.3f}" if n else ""))
