"""One AlphaZero fit's state and its steps: self-play, training, scoring, value table, checkpoints.

``learners.alphazero.learner.AlphaZeroLearner.fit`` builds a ``Run`` (the game's arena when its universe
has at most ``MAX_TABLE_POSITIONS`` positions, the network, the Adam optimiser, the replay
queue, the generator) and calls ``step`` once per iteration; see that module for the algorithm.

With ``shards``, an iteration's self-play games are played in that many parts, each with its own
generator drawn from the run's and its own search forest (``self_play_shard``), as jobs of
``cgbase.parallel``: the numbers depend on the shards, never on where or on how many workers they ran.
"""

from __future__ import annotations

import math
import time

import numpy as np

from cgbase.memory import check_memory
from cgbase.optional import torch_module
from learners.arena import Arena
from learners.alphazero.checkpoint import save_run
from learners.alphazero.evaluation import edge_lookup, play_optimal_rate, policy_optimal_rate, reachable, score, value_accuracy
from learners.alphazero.play import OptimalMover, PolicyMover, RandomMover, Replay, SearchMover, self_play
from learners.alphazero.mcts import Forest
from learners.alphazero.network import PolicyValue, build_network
from learners.alphazero.settings import RunSettings
from learners.encoders import make_encoder
from learners.options import option_offsets, options_block
from learners.value_table import ValueTable

__all__ = ["Run", "RunSettings", "MAX_TABLE_POSITIONS", "PARALLEL", "self_play_shard"]

SELF_PLAY_PLIES = 10_000  # the longest self-play game kept (a shorter cap than play's MAX_PLIES: it sizes buffers)
MAX_TABLE_POSITIONS = 2_000_000  # largest universe solved, scored against and tabulated
PARALLEL = 128  # most games (roots) searched together


class Run:
    """One fit's state: game, arena, network, optimiser, replay queue, generator, history; what it plays and
    scores is ``settings`` (a ``RunSettings``), ``solution`` the game solved for the scores (optional), ``guide`` a
    ``learners.alphazero.guide.RuleGuide`` whose rule steers the self-play search (optional)."""

    def __init__(self, learner, game, settings: RunSettings, solution=None, guide=None, scoring=None):
        from games import Game

        if not isinstance(game, Game):
            raise TypeError(f"AlphaZero learns a Game, got {type(game).__name__}")
        if not isinstance(settings, RunSettings):
            raise TypeError(f"settings must be a RunSettings, got {type(settings).__name__}")
        learner.check_game(game)
        self.learner, self.game, self.settings, self.guide = learner, game, settings, guide
        if scoring is not None and solution is not None:
            raise ValueError("give the solution (exact scores) or a sampled scoring, not both")
        self.scoring = scoring
        games, simulations = settings.games_per_iteration, settings.simulations
        self.games_per_iteration, self.simulations = games, simulations
        # each iteration's games hold a start and at least one sample (a position and its count) each, at once
        check_memory(games * 16.0 * (game.dims + 1), f"the self-play of {games:,} games an iteration",
                     "use fewer games per iteration")
        self.eval_every, self.eval_games = settings.eval_every, settings.eval_games
        self.eval_simulations = settings.eval_simulations
        self.random_openings, self.shards = settings.random_openings, settings.shards
        self._setup_positions(settings.bound, settings.start, solution)
        torch = torch_module("AlphaZero")
        self.rng = np.random.default_rng(learner.random_state)
        hidden = hidden_layers(learner)
        self.encoder = make_encoder(game, self.limit, learner.encoding)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(int(self.rng.integers(2**31)))
            net = build_network(learner.network, self.encoder.shape, hidden, learner.channels, learner.layers)
        self.pv = PolicyValue(net, self.encoder, learner.device)
        self.optimizer = torch.optim.Adam(net.parameters(), lr=learner.learning_rate,
                                          weight_decay=learner.weight_decay)
        self.replay = Replay(game, learner.replay_size, self.width)
        trees = min(PARALLEL, games)
        self.forest = Forest(game, trees, simulations, self.width, "puct", learner.c_puct)
        self.temperature_moves = (learner.temperature_moves if learner.temperature_moves is not None
                                  else (max(2, game.cells // 3) if game.universe_from_start else 4))
        self.iteration, self.games, self.history, self.previous = 0, 0, [], None
        self.visits = np.zeros(self.arena.edges) if self.arena is not None else None
        self.elapsed = self.cpu = 0.0

    def _setup_positions(self, bound, start, solution) -> None:
        game = self.game
        board = game.universe_from_start
        if start is None:
            start = "start" if board else "random"
        fixed = None
        if not isinstance(start, str):
            fixed = np.asarray(tuple(start), dtype=np.int64).reshape(1, -1)
        elif start == "start":
            fixed = np.asarray(game.start, dtype=np.int64).reshape(1, -1)
        if fixed is not None and fixed.shape[1] != game.dims:
            raise ValueError(f"the start {tuple(int(x) for x in fixed[0])} is not a position of {game!r} "
                             f"({game.dims} coordinates)")
        if board:
            self.bound, self.limit = game.n, None
        else:
            if bound is None and fixed is None:
                raise ValueError(f"{game!r}: give bound=N (every coordinate in [0, N]) or a start position")
            self.bound = bound if bound is not None else max(1, int(fixed.max()))
            self.limit = self.bound
            if fixed is not None and fixed.max() > self.bound:
                raise ValueError(f"the start {tuple(int(x) for x in fixed[0])} lies outside bound {self.bound}")
        self.arena = self._arena(solution)
        if self.arena is None and fixed is None:
            raise ValueError(f"random starts need {game!r}'s universe, which is too large here: give a start")
        if fixed is not None:
            if len(game.moves(tuple(int(x) for x in fixed[0]))) == 0:
                raise ValueError(f"the start {tuple(int(x) for x in fixed[0])} has no move: pick one with a move")
            self.pool, self.start_ids = fixed, None
            self.among = reachable(self.arena, self.arena.universe.index(fixed)) if self.arena is not None else None
        else:
            live = self.arena.live()
            if live.size == 0:
                raise self.arena.nothing_to_learn()
            self.pool, self.start_ids, self.among = self.arena.universe.positions(live), live, None
        self.start = "random" if fixed is None else tuple(int(x) for x in fixed[0])
        if board:
            self.width, self.max_plies = game.max_moves(None), game.cells * game.dims + 1
        elif self.arena is not None:  # a custom game states no max_moves: its most options on the arena
            self.width = game.max_moves(self.arena.universe.limits) if game.kernel is not None else \
                max(1, int(np.diff(self.arena.indptr).max()))
            self.max_plies = int(min(self.arena.size + 1, SELF_PLAY_PLIES))
        elif game.kernel is None:
            raise ValueError(f"{game!r} has Python moves and no table of its positions (its universe is too large): "
                             f"AlphaZero needs the most options of any position: give a smaller bound")
        else:
            self.width, self.max_plies = game.max_moves(fixed[0]), SELF_PLAY_PLIES

    def _arena(self, solution):
        game = self.game
        if game.parts > 1:
            raise ValueError(f"{game!r} is a sum of heaps (a move splits a heap): AlphaZero needs games whose "
                             f"moves lead to single positions")
        if solution is None:
            size = game.position_count_bound() if game.universe_from_start else (self.bound + 1.0) ** game.dims
            if size > MAX_TABLE_POSITIONS:
                return None
        return Arena(game, self.bound, solution)

    def identity(self) -> dict:
        return {"learner": repr(self.learner), "game": self.game.spec(), "bound": self.bound, "start": list(
            self.start) if isinstance(self.start, tuple) else self.start, "games_per_iteration":
                self.games_per_iteration, "simulations": self.simulations, "eval_every": self.eval_every,
                "eval_games": self.eval_games, "eval_simulations": self.eval_simulations,
                "random_openings": self.random_openings, **({"shards": self.shards} if self.shards else {}),
                **({"guide": self.guide.identity()} if self.guide is not None else {})}

    # -- one iteration ---------------------------------------------------------------------
    def step(self, evaluate: bool, workers=None) -> None:
        """One iteration: self-play (its shards on ``workers``, a ``cgbase.parallel.Workers``), training, scores."""
        clock, cpu = time.perf_counter(), time.process_time()
        learner, rng = self.learner, self.rng
        starts = self.pool[rng.integers(len(self.pool), size=self.games_per_iteration)]
        if self.random_openings:
            starts = self._open(starts, rng)
        if self.shards is None:
            evaluator = self.pv if self.guide is None else self.guide.evaluator(self.pv, self.game)
            mover = SearchMover(self.forest, evaluator, self.simulations)
            samples = self_play(self.game, starts, mover, rng, (learner.dirichlet_alpha, learner.noise_fraction),
                                learner.temperature, self.temperature_moves, self.max_plies)
        else:
            samples = self._self_play_shards(starts, rng, workers)
        self.replay.add(samples)
        if self.visits is not None:
            self._count_visits(samples["positions"], samples["chosen"])
        steps = max(1, math.ceil(learner.epochs * len(samples["z"]) / learner.batch_size))
        losses = self._train(steps)
        self.iteration += 1
        self.games += self.games_per_iteration
        record = {"iteration": self.iteration, "episode": self.games, "samples": int(len(samples["z"])),
                  "mean_plies": float(samples["plies"].mean()), "train_steps": steps, **losses}
        if self.guide is not None:  # the rule against the network it guided, before the network learns from it
            record.update(self.guide.play(self.game, starts, self.pv, rng, self.max_plies))
        if evaluate:
            record.update(self._evaluate())
        self.elapsed += time.perf_counter() - clock
        self.cpu += time.process_time() - cpu
        record.update(seconds=self.elapsed, cpu_seconds=self.cpu)
        self.history.append(record)

    def _self_play_shards(self, starts, rng, workers) -> dict:
        from sklearn.base import clone

        seeds = rng.integers(2**63 - 1, size=self.shards)
        state, learner = self.pv.state(), clone(self.learner)
        jobs = [(learner, self.game, self.limit, self.width, self.max_plies, self.temperature_moves, self.simulations,
                 state, part, int(seed)) for part, seed in zip(np.array_split(starts, self.shards), seeds) if len(part)]
        parts = workers.map(self_play_shard, jobs)
        return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}

    def _open(self, starts, rng):
        """Each start after a uniform number in [0, random_openings] of random moves (stopping before the end)."""
        plies = rng.integers(self.random_openings + 1, size=len(starts))
        positions = starts.copy()
        for ply in range(self.random_openings):
            counts, options = options_block(self.game, positions)
            offsets = option_offsets(counts)
            pick = offsets + (rng.random(len(counts)) * counts).astype(np.int64)
            moved = options[np.minimum(pick, len(options) - 1)] if len(options) else positions
            after, _ = options_block(self.game, moved)
            go = (plies > ply) & (counts > 0) & (after > 0)
            positions[go] = moved[go]
        return positions

    def score_untrained(self) -> None:
        clock, cpu = time.perf_counter(), time.process_time()
        record = {"iteration": 0, "episode": 0, **self._evaluate()}
        self.elapsed += time.perf_counter() - clock
        self.cpu += time.process_time() - cpu
        self.history.append({**record, "seconds": self.elapsed, "cpu_seconds": self.cpu})

    def _count_visits(self, positions, chosen) -> None:
        universe = self.arena.universe
        s, t = universe.index(positions, strict=False), universe.index(chosen, strict=False)
        inside = (s >= 0) & (t >= 0)
        if not hasattr(self, "_edges"):
            self._edges = edge_lookup(self.arena)
        np.add.at(self.visits, self._edges(s[inside], t[inside]), 1.0)

    def _train(self, steps: int) -> dict:
        learner, game, rng = self.learner, self.game, self.rng
        self.pv.net.train()
        totals = np.zeros(2)
        for _ in range(steps):
            positions, options, counts, pi, z = self.replay.batch(learner.batch_size, rng)
            if learner.augment and game.universe_from_start:
                rows = np.concatenate([positions, options])
                images = game.symmetric_positions(rows)
                pick = rng.integers(images.shape[0], size=len(positions))
                which = np.concatenate([pick, np.repeat(pick, counts)])
                rows = images[which, np.arange(len(rows))]
                positions, options = rows[:len(positions)], rows[len(positions):]
            value_loss, policy_loss = self.pv.loss(positions, options, counts, pi, z)
            self.optimizer.zero_grad()
            (value_loss + policy_loss).backward()
            self.optimizer.step()
            totals += (value_loss.item(), policy_loss.item())
        self.pv.net.eval()
        value_loss, policy_loss = totals / steps
        return {"loss": value_loss + policy_loss, "value_loss": value_loss, "policy_loss": policy_loss}

    # -- scoring ---------------------------------------------------------------------------
    def _agent(self, pv, sample_plies: int = 0):
        if self.eval_simulations == 0:
            return PolicyMover(self.game, pv)
        if not hasattr(self, "_eval_forest"):
            self._eval_forest = Forest(self.game, min(PARALLEL, self.eval_games), self.eval_simulations,
                                       self.width, "puct", self.learner.c_puct)
        return SearchMover(self._eval_forest, pv, self.eval_simulations, sample_plies)

    def _evaluate(self) -> dict:
        game, n = self.game, self.eval_games
        rng = np.random.default_rng([self.learner.random_state, self.iteration, 7])
        starts = self.pool[rng.integers(len(self.pool), size=n)]
        agent = self._agent(self.pv)
        record, logs = {}, []
        opponents = [("random", RandomMover(game))]
        referee = self._referee()
        if referee is not None:
            opponents.append(("optimal", OptimalMover(game, referee)))
        for name, opponent in opponents:
            for seat, label in ((0, "first"), (1, "second")):
                record[f"score_{name}_{label}"], log = score(game, agent, opponent, starts, seat, rng, self.max_plies)
                logs.append((log, seat))
        if self.previous is not None:
            earlier = PolicyValue(build_network(self.learner.network, self.encoder.shape, hidden_layers(self.learner),
                                                self.learner.channels, self.learner.layers), self.encoder,
                                  self.learner.device)
            earlier.load_state(self.previous)
            mine = self._agent(self.pv, sample_plies=2)
            theirs = SearchMover(Forest(game, min(PARALLEL, n), max(1, self.eval_simulations), self.width, "puct",
                                        self.learner.c_puct), earlier, max(1, self.eval_simulations), 2)
            half = starts[: max(1, n // 2)]
            wins = sum(score(game, mine, theirs, half, seat, rng, self.max_plies)[0] for seat in (0, 1))
            record["score_previous"] = wins / 2
        self.previous = self.pv.state()
        if self.arena is not None:
            v, logit = self.pv.outputs_chunked(self.arena.universe.positions())
            good, total = play_optimal_rate(self.arena.solution, logs)
            record.update(optimal_move_rate=policy_optimal_rate(self.arena, logit, self.among),
                          optimal_move_rate_play=good / total if total else float("nan"),
                          value_accuracy=value_accuracy(self.arena, v, self.among))
        elif self.scoring is not None:
            record.update(self.scoring.measure(self.pv))
        if referee is not None and self.guide is not None and self.eval_simulations:
            record.update(self._evaluate_guided(starts, rng, referee))
        return record

    def _referee(self):
        """What the perfect player plays by: the arena's solution, the sampled scoring's referee, or None."""
        if self.arena is not None:
            return self.arena.solution
        return self.scoring.referee if self.scoring is not None else None

    def _evaluate_guided(self, starts, rng, referee) -> dict:
        """The guided player (the search with the rule's prior at its present weight) against the optimal player."""
        agent = SearchMover(self._eval_forest, self.guide.evaluator(self.pv, self.game), self.eval_simulations)
        optimal, record = OptimalMover(self.game, referee), {}
        for seat, label in ((0, "first"), (1, "second")):
            record[f"guided_score_optimal_{label}"] = score(self.game, agent, optimal, starts, seat, rng,
                                                            self.max_plies)[0]
        return record

    # -- results and checkpoints -----------------------------------------------------------
    def value_table(self) -> ValueTable:
        arena = self.arena
        v = self.pv.outputs_chunked(arena.universe.positions())[0].astype(float)
        ends = np.diff(arena.indptr) == 0
        v[ends] = arena.terminal[ends]
        meta = {"learner": "AlphaZeroLearner", "params": self.learner.json_params(),
                "episodes": int(self.games), "iterations": int(self.iteration), "opponent": "self",
                "start": str(self.start), "bound": arena.bound, "simulations": self.simulations}
        return ValueTable(self.game, arena.universe, arena.indptr, arena.targets, -v[arena.targets], self.visits,
                          arena.terminal, meta, value=v)

    def save(self, path) -> None:
        progress = {"iteration": self.iteration, "games": self.games, "history": self.history,
                    "rng": self.rng.bit_generator.state, "elapsed": self.elapsed, "cpu": self.cpu}
        if self.guide is not None:
            progress["guide"] = self.guide.state()
        extra = {} if self.visits is None else {"visits": self.visits}
        save_run(path, self.identity(), progress, self.pv.state(), self.optimizer.state_dict(),
                 self.replay.state(), [] if self.previous is None else [self.previous], extra)

    def restore(self, saved: dict) -> None:
        progress = saved["progress"]
        self.iteration, self.games = int(progress["iteration"]), int(progress["games"])
        self.history = list(progress["history"])
        self.rng.bit_generator.state = progress["rng"]
        self.elapsed, self.cpu = float(progress["elapsed"]), float(progress["cpu"])
        if self.guide is not None:
            self.guide.load(progress["guide"])
        self.pv.load_state(saved["network"])
        self.optimizer.load_state_dict(saved["optimizer"])
        self.replay.load(saved["replay"])
        self.previous = saved["snapshots"][0] if saved["snapshots"] else None
        if self.visits is not None and "visits" in saved["extra"]:
            self.visits[:] = saved["extra"]["visits"]


def self_play_shard(learner, game, limit, width: int, max_plies: int, temperature_moves: int, simulations: int,
                    state: dict, starts, seed: int) -> dict:
    """One part of an iteration's self-play, a job for ``cgbase.parallel``: the network rebuilt from ``state``
    (weights as numpy arrays), a search forest over the part's games, a generator from ``seed``, one torch thread;
    the samples of ``learners.alphazero.play.self_play``."""
    torch = torch_module("AlphaZero")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        encoder = make_encoder(game, limit, learner.encoding)
        with torch.random.fork_rng(devices=[]):  # the initial weights, replaced at once, leave torch's generator be
            net = build_network(learner.network, encoder.shape, hidden_layers(learner), learner.channels, learner.layers)
        pv = PolicyValue(net, encoder, learner.device)
        pv.load_state(state)
        pv.net.eval()
        forest = Forest(game, min(PARALLEL, len(starts)), simulations, width, "puct", learner.c_puct)
        return self_play(game, starts, SearchMover(forest, pv, simulations), np.random.default_rng(seed),
                         (learner.dirichlet_alpha, learner.noise_fraction), learner.temperature, temperature_moves,
                         max_plies)
    finally:
        torch.set_num_threads(threads)


def hidden_layers(learner) -> tuple:
    return (learner.hidden,) if isinstance(learner.hidden, (int, np.integer)) else tuple(learner.hidden)
