"""The loop the exploration learners share: games side by side, moves chosen by the network, minibatch updates.

``games`` games are played at once from the empty board.  Each step encodes every live position once,
runs the network once on the block, and chooses each game's move: with probability ``epsilon`` a
uniformly random legal move, otherwise the best one by the learner's rule (the largest Q; the
exploration-greedy score for variance reduction; Q + Q_exp for pseudo-counts), inside the must-play
region when the learner uses it and the region leaves any move.  The moves go into the replay memory
(``learners.exploration.replay``) with the mask and outcome of the position reached, the solver's
value when it proves that position within its budget, and the pseudo-count bonus; then one minibatch
of ``batch_size`` stored moves takes one RMSprop step on the squared errors of Q (and Q_exp) against
their targets (``learners.exploration.backups``), computed with the current network.  A record of the
curves of the paper's figures closes every ``eval_every`` finished games: the mean update cost, the
mean win-probability variance ``Q (1 - Q)`` over the legal moves of the positions played, the mean
exploration score Q_exp over the same moves, the mean pseudo-count, the share of moves proved.
"""

from __future__ import annotations

import time
from contextlib import contextmanager

import numpy as np

from cgbase.optional import torch_module
from learners.exploration.backups import (exploration_greedy_scores, joint_target, minimax_target,
                                          pseudocount_targets, variance_target)
from learners.exploration.boards import BoardActions, segment_argmax
from learners.exploration.density import BoardDensity
from learners.exploration.guidance import MustPlay, ProvedTargets
from learners.exploration.network import build_q_network
from learners.exploration.replay import Replay
from learners.options import option_offsets

__all__ = ["Trainer"]

CHUNK = 65536  # positions per network call when scoring many


class _Clock:
    """Wall and CPU seconds since it was made, leaving out the time spent inside ``paused()``."""

    def __init__(self):
        self.start = np.array([time.perf_counter(), time.process_time()])

    def seconds(self) -> tuple[float, float]:
        wall, cpu = np.array([time.perf_counter(), time.process_time()]) - self.start
        return float(wall), float(cpu)

    @contextmanager
    def paused(self):
        before = np.array([time.perf_counter(), time.process_time()])
        try:
            yield
        finally:
            self.start += np.array([time.perf_counter(), time.process_time()]) - before


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


class Trainer:
    """One fit of a ``BoardQLearner`` on a game: the network, its optimiser, the replay memory and the games.

    Parameters
    ----------
    learner : BoardQLearner
        Its parameters (already checked) say what to build.
    game : BoardGame
    """

    def __init__(self, learner, game):
        torch = self.torch = torch_module("the exploration learner")
        self.learner, self.game = learner, game
        self.board = BoardActions(game)
        self.heads = 1 if learner.exploration == "epsilon" else 2
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(learner.random_state)
            net = build_q_network(self.board.encoder.shape, self.board.channels, heads=self.heads,
                                  layers=learner.layers, width=learner.width, head_layers=learner.head_layers,
                                  first_diameter=learner.first_diameter, hexagonal=self.board.hexagonal)
        self.device = learner.device
        self.net = net.to(self.device)
        self.optimizer = torch.optim.RMSprop(self.net.parameters(), lr=learner.learning_rate)
        self.rng = np.random.default_rng([learner.random_state, 15])
        self.replay = Replay(learner.replay_size, game.dims, self.board.size)
        self.density = BoardDensity(game, self.board.hexagonal) if learner.exploration == "pseudocount" else None
        self.must = MustPlay(game) if learner.must_play else None
        self.proved = ProvedTargets(game, learner.solver_nodes) if learner.solver_nodes else None
        self.active = np.zeros((0, game.dims), dtype=np.int64)
        self.finished = 0
        self.clock = _Clock()
        self._reset_sums()

    # -- the network --------------------------------------------------------------------------
    def outputs(self, positions, grad: bool = False):
        """Logits ``(m, heads, size)`` of an (m, dims) array: a tensor with ``grad``, else a float64 array."""
        torch = self.torch
        x = torch.from_numpy(self.board.encoder(positions)).to(self.device)
        if grad:
            return self.net(x)
        with torch.inference_mode():
            return self.net(x).double().cpu().numpy()

    def scores(self, positions) -> np.ndarray:
        """Q logits ``(m, size)`` of many positions, a chunk at a time (the greedy move has the largest)."""
        positions = np.asarray(positions, dtype=np.int64).reshape(-1, self.game.dims)
        parts = [self.outputs(positions[i:i + CHUNK])[:, 0] for i in range(0, len(positions), CHUNK)]
        return np.concatenate(parts) if parts else np.zeros((0, self.board.size))

    def _exploration(self, logits):
        return np.tanh(logits) if self.learner.exploration == "variance" else _sigmoid(logits)

    # -- playing --------------------------------------------------------------------------------
    def play_until(self, finished: int) -> None:
        """Play (and learn) until ``finished`` games in all have ended, starting no game beyond that."""
        while self.finished < finished:
            room = min(self.learner.games - len(self.active), finished - self.finished - len(self.active))
            if room > 0:
                start = np.asarray(self.game.start, dtype=np.int64)[None, :]
                self.active = np.concatenate([self.active, np.repeat(start, room, axis=0)])
            self._step()

    def _step(self) -> None:
        learner, board, P = self.learner, self.board, self.active
        counts, options, actions = board.expand(P)
        sources = np.repeat(np.arange(len(P)), counts)
        logits = self.outputs(P)
        q = _sigmoid(logits[:, 0])
        mask = board.masks(counts, actions)
        if learner.exploration == "epsilon":
            score = logits[:, 0]
        else:
            explore = self._exploration(logits[:, 1])
            self.sums["exploration_score"] += float(explore[mask].sum())
            score = (exploration_greedy_scores(q, explore, mask) if learner.exploration == "variance"
                     else q + explore)
        self.sums["win_variance"] += float((q * (1.0 - q))[mask].sum())
        self.sums["legal"] += int(mask.sum())
        option_score = score[sources, actions]
        if self.must is not None:
            allowed = self.must.allowed(P[sources], options)
            inside = np.bincount(sources, weights=allowed, minlength=len(P))
            option_score = np.where(allowed | (inside == 0)[sources], option_score, -np.inf)
            self.sums["must_play"] += int(((inside > 0) & (inside < counts)).sum())
        greedy = segment_argmax(option_score, counts)
        random = option_offsets(counts) + (self.rng.random(len(P)) * counts).astype(np.int64)
        chosen = np.where(self.rng.random(len(P)) < learner.epsilon, random, greedy)
        after = options[chosen]
        self._remember(P, actions[chosen], after)
        self._learn()

    def _remember(self, P, actions, after) -> None:
        counts, _, next_actions = self.board.expand(after)
        ended = counts == 0
        terminal = np.full(len(after), np.nan)
        if ended.any():
            terminal[ended] = self.game.terminal_values(after[ended])
        proved = np.full(len(after), np.nan)
        if self.proved is not None and (~ended).any():
            proved[~ended] = self.proved.targets(after[~ended])
            self.sums["proved"] += int(np.isfinite(proved[~ended]).sum())
        bonus = np.zeros(len(after))
        if self.density is not None:
            pseudo = self.density.observe(after)
            bonus = self.learner.beta / np.sqrt(pseudo)
            self.sums["pseudo_count"] += float(pseudo[np.isfinite(pseudo)].sum())
            self.sums["pseudo_counted"] += int(np.isfinite(pseudo).sum())
        self.replay.add(P, actions, after, self.board.masks(counts, next_actions), terminal, proved, bonus)
        self.sums["moves"] += len(after)
        self.active = after[~ended]
        self.finished += int(ended.sum())

    # -- learning -------------------------------------------------------------------------------
    def _learn(self) -> None:
        learner, torch = self.learner, self.torch
        if len(self.replay) < learner.batch_size:
            return
        batch = self.replay.sample(self.rng.integers(len(self.replay), size=learner.batch_size))
        rows = torch.arange(learner.batch_size, device=self.device)
        following = self.outputs(batch["after"])
        q_next, mask, terminal = _sigmoid(following[:, 0]), batch["mask"], batch["terminal"]
        taken = self.outputs(batch["position"], grad=True)[rows, :, torch.from_numpy(batch["action"]).to(self.device)]
        q_taken = torch.sigmoid(taken[:, 0].double())
        explore_target = None
        if learner.exploration == "pseudocount":
            target, explore_target = pseudocount_targets(q_next, self._exploration(following[:, 1]), mask, terminal,
                                                         batch["bonus"], learner.exploration_discount)
        else:
            target = (joint_target if learner.backup == "joint" else minimax_target)(q_next, mask, terminal)
            if learner.exploration == "variance":
                explore_target = variance_target(q_taken.detach().cpu().numpy(), q_next,
                                                 self._exploration(following[:, 1]), mask, terminal,
                                                 -1 if learner.printed_sign else 1)
        target = np.where(np.isnan(batch["proved"]), target, batch["proved"])
        loss = ((q_taken - torch.from_numpy(target).to(self.device)) ** 2).mean()
        self.sums["update_cost"] += float(loss.detach())
        if explore_target is not None:
            explore = taken[:, 1].double()
            explore = torch.tanh(explore) if learner.exploration == "variance" else torch.sigmoid(explore)
            explore_loss = ((explore - torch.from_numpy(explore_target).to(self.device)) ** 2).mean()
            self.sums["exploration_cost"] += float(explore_loss.detach())
            loss = loss + explore_loss
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.sums["updates"] += 1

    # -- records --------------------------------------------------------------------------------
    def _reset_sums(self) -> None:
        self.sums = dict.fromkeys(("update_cost", "exploration_cost", "updates", "win_variance", "exploration_score",
                                   "legal", "moves", "proved", "must_play", "pseudo_count", "pseudo_counted"), 0)

    def record(self, measures) -> dict:
        """The curves since the last record (then reset), the training's wall and CPU seconds so far, and what each of ``measures``
        (a callable of the network's Q logits over positions, returning a dict) says of the network now."""
        s = self.sums
        mean = lambda total, count: float(total / count) if count else float("nan")  # noqa: E731
        record = {"episode": int(self.finished), "moves": int(s["moves"]), "updates": int(s["updates"]),
                  "update_cost": mean(s["update_cost"], s["updates"]), "win_variance": mean(s["win_variance"], s["legal"])}
        if self.heads == 2:
            record.update(exploration_score=mean(s["exploration_score"], s["legal"]),
                          exploration_cost=mean(s["exploration_cost"], s["updates"]))
        if self.density is not None:
            record["pseudo_count"] = mean(s["pseudo_count"], s["pseudo_counted"])
        if self.proved is not None:
            record["proved"] = mean(s["proved"], s["moves"])
        if self.must is not None:
            record["must_play"] = mean(s["must_play"], s["moves"])
        record["seconds"], record["cpu_seconds"] = self.clock.seconds()
        with self.clock.paused():
            for measure in measures:
                record.update(measure(self.scores))
        self._reset_sums()
        return record
