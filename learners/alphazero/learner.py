"""AlphaZero (the Notakto paper; Silver et al. 2017): PUCT search guided by a policy-value network, learned in self-play.

Each iteration plays ``games_per_iteration`` self-play games side by side (``learners.alphazero.play``):
from every position a PUCT search of ``simulations`` simulations (``learners.alphazero.mcts``; Dirichlet
noise on the root's priors), a move drawn from the visit counts for the first
``temperature_moves`` plies and the most visited one afterwards.  Every position becomes a
sample ``(s, pi, z)``: the visit shares and the game's result for the player to move.  The
samples join a replay queue of the newest ``replay_size``; the network then takes
``epochs * new samples / batch_size`` Adam steps on random minibatches of the queue (each sample
under a random symmetry of the board, with ``augment``), minimising
``(z - v)^2 - pi . log p`` plus weight decay.

Action space: the policy scores afterstates (``learners.alphazero.network``): one network maps a
position to a value and a logit, and the prior of a move is the softmax, over the position's
options, of the logits of the positions they lead to.  No game needs an action numbering.

Scoring (every ``eval_every`` iterations and at the end): the search player (no noise, the most
visited move, ``eval_simulations`` simulations) plays ``eval_games`` games against a random
player as first and as second player (wins out of 100), against the solver's optimal player when
the game's universe is small enough to solve, and against the network of the previous scoring
(half the games each side, the first two moves drawn from the visits); the solver also gives the
share of N positions where the policy head's top move wins, the share of the search player's
moves from N positions that won, and the share of positions whose value head has the right sign.

Fitted: ``history_`` (one record per iteration), ``value_table_`` (when the universe has at most
``learners.alphazero.run.MAX_TABLE_POSITIONS`` positions: the value head at every position, ``q`` of a move the
network's value of the position it leads to from the mover's side, ``visits`` the self-play
moves along it), ``policy_value_`` (the network), ``episodes_`` (self-play games) and ``policy()``.
"""

from __future__ import annotations

from contextlib import nullcontext

import numpy as np

from cgbase.optional import torch_module
from cgbase.validation import nonnegative_int, number_in, positive_int, seed
from cgbase.progress import progress_bar, status
from learners.alphazero.agents import AlphaZeroAgent
from learners.alphazero.checkpoint import load_run
from learners.alphazero.run import Run, RunSettings
from learners.alphazero.network import NETWORKS
from learners.base import Learner
from learners.encoders import ENCODINGS

__all__ = ["AlphaZeroLearner"]


class AlphaZeroLearner(Learner):
    """AlphaZero: self-play with PUCT search and a torch policy-value network (see the module docstring).

    Parameters
    ----------
    network : {"mlp", "conv"}
        A multilayer perceptron, or (board games) convolutions over the board's planes.
    hidden : tuple of int
        Units of the MLP's hidden layers (the conv net's one dense layer: ``hidden[0]``).
    channels, layers : int
        Filters and 3 x 3 convolution layers of the conv net.
    encoding : str
        Input encoding (``learners.encoders``): "auto", "planes", "binary", "scaled", "thermometer",
        "binary+scaled", "binary+thermometer".
    c_puct : float
        Exploration constant of PUCT.
    dirichlet_alpha, noise_fraction : float
        Root noise in self-play: priors ``(1 - fraction) p + fraction Dir(alpha)``.
    temperature : float
        Temperature of the visit counts the early self-play moves are drawn from.
    temperature_moves : int, optional
        Plies drawn at ``temperature`` (default: a third of the cells for board games, else 4).
    learning_rate, weight_decay : float
        Adam's step size and L2 weight decay.
    batch_size, replay_size : int
        Samples per minibatch; samples the replay queue keeps.
    epochs : float
        Training samples drawn per new sample (steps per iteration: ``epochs * new / batch_size``).
    augment : bool
        Train on a random symmetry of each sample (board games).
    device : str
        "cpu" (default) or "cuda" when available.
    random_state : int

    Examples
    --------
    >>> from games import make_game
    >>> learner = AlphaZeroLearner(hidden=(16,), random_state=0)
    >>> learner = learner.fit(make_game("notakto", n=2, k=2), iterations=2, games_per_iteration=4, simulations=8,
    ...                       eval_games=10)
    >>> [r["iteration"] for r in learner.history_], learner.value_table_.q.shape
    ([1, 2], (16,))
    """

    name = "alphazero"

    def __init__(self, *, network: str = "mlp", hidden=(64, 64), channels: int = 32, layers: int = 3,
                 encoding: str = "auto", c_puct: float = 1.5, dirichlet_alpha: float = 0.5,
                 noise_fraction: float = 0.25, temperature: float = 1.0, temperature_moves: int | None = None,
                 learning_rate: float = 3e-3, weight_decay: float = 1e-4, batch_size: int = 64,
                 replay_size: int = 20_000, epochs: float = 10.0, augment: bool = True, device: str = "cpu",
                 random_state: int = 0):
        self.network = network
        self.hidden = hidden
        self.channels = channels
        self.layers = layers
        self.encoding = encoding
        self.c_puct = c_puct
        self.dirichlet_alpha = dirichlet_alpha
        self.noise_fraction = noise_fraction
        self.temperature = temperature
        self.temperature_moves = temperature_moves
        self.learning_rate = learning_rate
        self.weight_decay = weight_decay
        self.batch_size = batch_size
        self.replay_size = replay_size
        self.epochs = epochs
        self.augment = augment
        self.device = device
        self.random_state = random_state

    def budget(self, games: int | None, arena) -> dict:
        """Rounds of up to 64 self-play games (``games`` in all, by default 60 rounds of 64) of 30 simulations,
        from uniformly random positions of integer games (the empty board of board games), scored every 10."""
        per = 64 if games is None else min(64, int(games))
        fit = {"iterations": 60 if games is None else max(1, -(-int(games) // per)), "games_per_iteration": per,
               "simulations": 30, "eval_every": 10, "eval_games": 50}
        if not arena.game.universe_from_start:
            fit["start"] = "random"
        return fit

    # -- fitting ---------------------------------------------------------------------
    def fit(self, game, *, bound=None, iterations: int = 10, games_per_iteration: int = 32, simulations: int = 50,
            start=None, random_openings: int = 0, eval_every: int = 1, eval_games: int = 100,
            eval_simulations: int | None = None, score_untrained: bool = False, checkpoint=None,
            progress: bool = False, solution=None, shards: int | None = None, workers=None,
            guide=None, scoring=None) -> "AlphaZeroLearner":
        """Learn in ``iterations`` rounds of self-play and training.

        Parameters
        ----------
        game : Game
        bound : int, optional
            Integer games: every coordinate in [0, bound] (default: the start's largest coordinate);
            board games need none.
        iterations, games_per_iteration, simulations : int
            Rounds; self-play games per round; search simulations per move.
        start : tuple, "random" or None
            Where games start: the empty board of a board game (default), one position, or a
            uniformly random position with a move (the default for integer games).
        random_openings : int
            Each self-play game first makes a uniform number in [0, random_openings] of uniformly random
            moves (not learned from): wider coverage when every game starts from one position.
        eval_every, eval_games, eval_simulations : int
            Iterations between scorings; games per match; simulations of the scored player
            (default ``simulations``; 0 scores the policy head alone).
        score_untrained : bool
            Also score the untrained network, as a first record of iteration 0 (what search alone does).
        checkpoint : path, optional
            Resume from this file when it exists (the same run), and write it after every iteration.
        progress : bool
            Show a progress bar.
        solution : Solution, optional
            The game solved over its universe (solved here when small enough), or over the positions reachable
            from ``start`` (``solvers.solve(game, starts=[start])``, when the box is too large), used only for
            scoring.
        shards : int, optional
            Play each iteration's self-play games in this many parts, each with its own generator drawn from
            the fit's and its own search (default: one search over all the games, as without parallel workers).
        workers : int or cgbase.parallel.Workers, optional
            Where the shards run: local worker processes, or Ray (default: this process). The numbers depend on
            ``shards``, never on ``workers``.
        guide : learners.alphazero.guide.RuleGuide, optional
            A rule mixed into the self-play search's priors with a weight that grows with its score against this
            learner (``learners.alphazero.guide``); each iteration's record then has ``guide_weight`` and
            ``guide_score``, and each scoring ``guided_score_optimal_first`` / ``_second`` (the guided search).
            Not with ``shards``.
        scoring : learners.alphazero.sampled.SampledScoring, optional
            Where the game is too large to solve (no arena): each scoring estimates the policy head's optimal-move
            rate (with its interval) and the value head's sign on its sample, and plays its referee as the perfect
            player. Not with ``solution``.

        Returns
        -------
        self
        """
        from cgbase.parallel import as_workers

        self._check()
        torch = torch_module("AlphaZero")
        iterations = positive_int(iterations, "iterations")
        settings = RunSettings(games_per_iteration=games_per_iteration, simulations=simulations, bound=bound,
                               start=start, eval_every=eval_every, eval_games=eval_games,
                               eval_simulations=eval_simulations, random_openings=random_openings, shards=shards)
        if workers is not None and settings.shards is None:
            raise ValueError(f"workers={workers!r} needs shards: self-play in parallel plays each iteration's games in "
                             "shards=S parts (e.g. 4); the numbers depend on S, never on the workers")
        if guide is not None and settings.shards is not None:
            raise ValueError("a guide steers this process's search: leave out shards (or the guide)")
        with status(f"{self.progress_label(game)}: building the network, solving the game for the scores") if progress \
                else nullcontext():
            run = Run(self, game, settings, solution, guide, scoring)
        saved = load_run(checkpoint, run.identity(), torch)
        threads = torch.get_num_threads()
        torch.set_num_threads(1)  # small batches: one thread is fastest, and idle threads would spin
        pool = as_workers(workers)
        try:
            if saved is not None:
                try:
                    run.restore(saved)
                except (RuntimeError, KeyError, TypeError, ValueError, IndexError) as err:
                    raise ValueError(f"{checkpoint} does not fit this run ({str(err).splitlines()[0][:200]}): "
                                     f"remove it or pass another path") from None
            elif score_untrained:
                run.score_untrained()
            with progress_bar(progress, iterations, run.iteration, self.progress_label(game), unit="iterations") as advance:
                while run.iteration < iterations:
                    run.step((run.iteration + 1) % run.eval_every == 0 or run.iteration + 1 == iterations, pool)
                    if checkpoint is not None:
                        run.save(checkpoint)
                    advance(1, _score(run.history[-1]))
        finally:
            torch.set_num_threads(threads)
            if pool is not workers:
                pool.close()
        self.history_ = run.history
        self.iterations_ = run.iteration
        self.episodes_ = run.games
        self.policy_value_ = run.pv
        self.game_, self.width_, self.eval_simulations_ = game, run.width, run.eval_simulations
        self.arena_, self.starts_, self.max_plies_ = run.arena, run.pool, run.max_plies
        self.value_table_ = run.value_table() if run.arena is not None else None
        return self

    def policy(self, simulations: int | None = None, name: str | None = None) -> AlphaZeroAgent:
        """The fitted player as an agent: the most visited move of a search (``simulations=0``: the policy head's
        top move); ``simulations`` defaults to the fit's scoring simulations."""
        self.check_fitted("policy_value_")
        sims = self.eval_simulations_ if simulations is None else nonnegative_int(simulations, "simulations")
        return AlphaZeroAgent(self.policy_value_, sims, self.c_puct, self.width_, name or self.name)

    def match(self, opponent: str = "random", seat: int = 0, games: int = 100, simulations: int | None = None,
              seed: int = 0) -> dict:
        """The fitted player (a search of ``simulations``, default the fit's scoring simulations) against
        ``"random"``, ``"optimal"`` (the solver; small games) or ``"rollout"`` (MCTS with random rollouts at
        the same number of simulations), in seat ``seat`` (0 first, 1 second), from the fit's starts.

        Returns ``{"score": wins out of 100, "wins", "games", "optimal_move_rate_play"}`` (the last where
        the game was solved: the share of the player's moves from N positions that won).
        """
        from learners.alphazero.evaluation import play_optimal_rate, score
        from learners.alphazero.play import OptimalMover, RandomMover, SearchMover
        from learners.alphazero.mcts import Forest, RolloutEvaluator

        self.check_fitted("policy_value_")
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 (first player) or 1 (second), got {seat!r}")
        games = positive_int(games, "games")
        sims = self.eval_simulations_ if simulations is None else nonnegative_int(simulations, "simulations")
        game, rng = self.game_, np.random.default_rng([seed, 11])
        trees = min(games, 128)
        if sims:
            forest = Forest(game, trees, sims, self.width_, "puct", self.c_puct)
            agent = SearchMover(forest, self.policy_value_, sims)
        else:
            agent = self.policy(0)._mover(game, trees, self.width_)
        if opponent == "random":
            other = RandomMover(game)
        elif opponent == "optimal":
            if self.arena_ is None:
                raise ValueError(f"{game!r} was not solved (its universe is too large): no optimal player")
            other = OptimalMover(game, self.arena_.solution)
        elif opponent == "rollout":
            rollout_sims = max(1, sims)
            other = SearchMover(Forest(game, trees, rollout_sims, self.width_, "uct", 1.0),
                                RolloutEvaluator(game, np.random.default_rng([seed, 12])), rollout_sims)
        else:
            raise ValueError(f"unknown opponent {opponent!r}: use random, optimal or rollout")
        starts = self.starts_[rng.integers(len(self.starts_), size=games)]
        points, log = score(game, agent, other, starts, seat, rng, self.max_plies_)
        result = {"opponent": opponent, "seat": seat, "simulations": sims, "games": games, "wins": log.wins(seat),
                  "draws": int((log.winners < 0).sum()), "score": points}
        if self.arena_ is not None:
            good, total = play_optimal_rate(self.arena_.solution, [(log, seat)])
            result["optimal_move_rate_play"] = good / total if total else float("nan")
        return result

    def check_game(self, game) -> None:
        """Besides the learners' common needs: integer games, or the boards the encoders know (hex, tictactoe,
        notakto); an imported OpenSpiel game has neither coordinates nor a board to encode."""
        super().check_game(game)
        if game.universe_from_start and not hasattr(game, "n"):
            raise ValueError(f"AlphaZero plays integer games and the hex, tictactoe and notakto boards, not {game!r} "
                             "(its positions are state ids, with no board to encode): use --learner q")

    def check_params(self) -> None:
        """Raise a ``ValueError`` naming a parameter the learner cannot use."""
        self._check()

    def _check(self) -> None:
        if self.network not in NETWORKS:
            raise ValueError(f"unknown network {self.network!r}: use one of {', '.join(NETWORKS)}")
        if self.encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {self.encoding!r}: use one of {', '.join(ENCODINGS)}")
        hidden = (self.hidden,) if isinstance(self.hidden, (int, np.integer)) else tuple(self.hidden)
        for h in hidden:
            positive_int(h, "each hidden layer's width")
        for name in ("channels", "layers", "batch_size", "replay_size"):
            positive_int(getattr(self, name), name)
        if self.temperature_moves is not None:
            nonnegative_int(self.temperature_moves, "temperature_moves")
        for name in ("c_puct", "dirichlet_alpha", "temperature", "learning_rate", "epochs"):
            number_in(getattr(self, name), name, 0, np.inf, low_open=True, high_open=True)
        for name in ("noise_fraction", "weight_decay"):
            number_in(getattr(self, name), name, 0, 1)
        if self.device not in ("cpu", "cuda") and not str(self.device).startswith("cuda:"):
            raise ValueError(f"device must be 'cpu' or 'cuda', got {self.device!r}")
        if str(self.device).startswith("cuda") and not torch_module("AlphaZero").cuda.is_available():
            raise ValueError(f"device {self.device!r} asked for, but torch sees no GPU here: use device='cpu'")
        seed(self.random_state)


def _score(record: dict) -> str:
    """The latest scores against random (as first / second player) for the progress bar, when scored."""
    if "score_random_first" not in record:
        return ""
    return f"vs random {record['score_random_first']:.0f}/{record['score_random_second']:.0f}"
