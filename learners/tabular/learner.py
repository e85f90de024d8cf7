"""The contract every tabular learner follows, and the training loop they share.

In the manner of scikit-learn: the constructor only stores keyword parameters (with
``random_state``); ``fit(game, *, bound, episodes, opponent, start)`` plays ``episodes`` games
on ``game.universe(bound)`` and returns the learner; fitted results end in ``_``:
``value_table_`` (a ``ValueTable``), ``history_`` (learning-curve records),
``episodes_to_optimal_`` (the first recorded episode count with no optimality deviation).
Games run in compiled code (``learners.episodes``), a chunk of episodes per Python call;
between chunks the learner is scored against the solver, a progress bar advances and a
checkpoint may be written, from which a later ``fit`` resumes exactly.
"""

from __future__ import annotations

import time
from contextlib import nullcontext

import numpy as np

from cgbase.validation import positive_int
from learners.agents import Agent
from learners.arena import Arena
from learners.tabular.checkpoint import Checkpoint
from learners.episodes import FIXED, GREEDY, HYPER, REPLY, START_RANDOM, START_SWEEP, STATS, run_episodes
from learners.metrics import deviations, win_rate
from learners.play import MAX_PLIES
from learners.base import Learner
from cgbase.progress import progress_bar, status
from learners.rng import new_state
from learners.value_table import ValueTable

__all__ = ["TabularLearner", "OPPONENTS", "STARTS"]

#: opponents named by a string (an ``Agent`` or another learner may be passed too)
OPPONENTS = ("self", "random", "optimal", "greedy")
#: start schedules named by a string (a position tuple may be passed too)
STARTS = ("random", "sweep")


class TabularLearner(Learner):
    """Base class: subclasses set ``kind``, ``rows``, ``_prior`` and ``_hyper``."""

    kind: int
    rows: int
    name = "tabular"
    opponents = True

    def _hyper(self) -> np.ndarray:
        """The seat's row of ``HYPER`` values."""
        raise NotImplementedError

    def _prior(self, edges: int) -> np.ndarray:
        """A fresh ``(rows, edges)`` table."""
        raise NotImplementedError

    def _limits(self) -> list:
        """Each row's ``(low, high)``: where a table this learner fits stays (a checkpoint outside is refused)."""
        raise NotImplementedError

    def check_params(self) -> None:
        """Raise a ``ValueError`` naming a parameter the learner cannot use."""
        self._hyper()
        _ = self.backup_code

    # -- fitting ---------------------------------------------------------------------
    def fit(self, game, *, bound: int, episodes: int, opponent="self", start="random", eval_every=None,
            eval_games: int = 200, stop_when_optimal: bool = False, checkpoint=None, progress: bool = False,
            solution=None) -> "TabularLearner":
        """Learn by playing ``episodes`` games on ``game.universe(bound)``.

        Parameters
        ----------
        game : Game
        bound : int
            The universe learned over (every coordinate in [0, bound] for integer games).
        episodes : int
            Games to play in all (a resumed run counts the games already played).
        opponent : {"self", "random", "optimal", "greedy"}, Agent or TabularLearner
            ``"self"``: both sides play from this learner's one table; ``"greedy"``: the reply is
            greedy on this learner's table (the HQN paper's simulated opponent); an ``Agent`` plays its
            policy; another learner starts untrained and learns alongside (its ``value_table_``
            is set when the fit ends).
        start : {"random", "sweep"} or position
            Start positions: uniform over positions with a move, every such position in turn
            (the Nim thesis's schedule), or one fixed position.
        eval_every : int, optional
            Episodes between learning-curve records (default: ``episodes // 50``, at least 1).
        eval_games : int
            Games per sampled win rate (the greedy policy first, from N positions).
        stop_when_optimal : bool
            Stop at the first record with no optimality deviation.
        checkpoint : path, optional
            Resume from this file when it exists (same learner, game, bound and opponent),
            and write it after every record.
        progress : bool
            Show a progress bar.
        solution : Solution, optional
            The game solved on ``bound`` (solved here otherwise), used only for scoring.

        Returns
        -------
        self
        """
        episodes = positive_int(episodes, "episodes")
        with status(f"{self.progress_label(game)}: solving bound {bound} for the scores") if progress and solution is None \
                else nullcontext():
            arena = Arena(game, positive_int(bound, "bound"), solution)
        every = positive_int(eval_every, "eval_every") if eval_every is not None else max(1, episodes // 50)
        eval_games = positive_int(eval_games, "eval_games")
        seats = self._seats(arena, opponent)
        pool, mode = _start_pool(arena, start)
        run = Checkpoint.open(checkpoint, self, arena, _describe(opponent), _describe(start),
                              seats["learner"] is not None)
        if run.found:
            seats["table0"][:], history, done, state = run.table, run.history, run.episodes, run.state
            if seats["learner"] is not None:
                seats["table1"][:] = run.opponent_table
        else:
            history, done, state = [], 0, new_state(self.random_state)
        clock = time.perf_counter() - (history[-1]["seconds"] if history else 0.0)
        with progress_bar(progress, episodes, done, self.progress_label(game)) as advance:
            while done < episodes and not (stop_when_optimal and history and history[-1]["deviations"] == 0):
                n = min(every, episodes - done)
                stats = np.zeros(len(STATS), dtype=np.int64)
                run_episodes(arena.indptr, arena.targets, arena.terminal, arena.outcome, pool, mode, done, n,
                             seats["kinds"], seats["learns"], seats["backups"], seats["table0"], seats["table1"],
                             seats["weights0"], seats["weights1"], seats["hyper"], seats["shared"],
                             _max_plies(arena), state, stats)
                done += n
                history.append(self._record(arena, seats["table0"], done, stats, eval_games, time.perf_counter() - clock))
                run.write(seats["table0"], seats["table1"] if seats["learner"] is not None else None,
                          history, done, state)
                advance(n, f"deviations {history[-1]['deviations']}")
        self.history_ = history
        self.episodes_ = done
        self.episodes_to_optimal_ = next((r["episode"] for r in history if r["deviations"] == 0), None)
        self.value_table_ = self._table(arena, seats["table0"], done, opponent, start)
        if seats["learner"] is not None:
            seats["learner"].value_table_ = seats["learner"]._table(arena, seats["table1"], done, self, start)
        return self

    def budget(self, games: int | None, arena) -> dict:
        """``episodes``: ``games``, by default 50 per move of the universe and at least 20,000."""
        return {"episodes": int(games) if games is not None else int(max(20_000, 50 * arena.edges))}

    # -- pieces of fit ---------------------------------------------------------------
    def _seats(self, arena: Arena, opponent) -> dict:
        table = self._prior(arena.edges)
        hyper = np.zeros((2, len(HYPER)))
        hyper[0] = self._hyper()
        seats = {"kinds": np.array([self.kind, FIXED]), "learns": np.array([True, False]),
                 "backups": np.array([self.backup_code, REPLY]), "table0": table, "table1": table,
                 "weights0": np.zeros(0), "weights1": np.zeros(0), "hyper": hyper, "shared": False, "learner": None}
        if isinstance(opponent, TabularLearner):
            if opponent is self:
                raise ValueError("to play a learner against itself use opponent='self'")
            seats.update(table1=opponent._prior(arena.edges), learner=opponent)
            seats["kinds"][1], seats["learns"][1], hyper[1] = opponent.kind, True, opponent._hyper()
            seats["backups"][1] = opponent.backup_code
        elif isinstance(opponent, Agent):
            seats["weights1"] = np.asarray(opponent.edge_weights(arena), dtype=float)
        elif opponent == "self":
            seats["kinds"][1], seats["learns"][1], hyper[1] = self.kind, True, hyper[0]
            seats["backups"][1], seats["shared"] = self.backup_code, True
        elif opponent == "random":
            seats["weights1"] = np.ones(arena.edges)
        elif opponent == "optimal":
            seats["weights1"] = arena.optimal_weights
        elif opponent == "greedy":
            seats["kinds"][1] = GREEDY
        else:
            raise ValueError(f"unknown opponent {opponent!r}: use one of {', '.join(OPPONENTS)}, an Agent or a learner")
        return seats

    backup_code = REPLY

    def _record(self, arena, table, done, stats, eval_games, seconds) -> dict:
        greedy = arena.best_edges(table[0])
        seed = (self.random_state, done)
        record = {
            "episode": int(done),
            "deviations": int(deviations(arena, greedy)),
            "optimal_move_rate": float(stats[1] / stats[0]) if stats[0] else float("nan"),
            "win_rate_random": win_rate(arena, greedy, np.ones(arena.edges), eval_games, seed),
            "win_rate_optimal": win_rate(arena, greedy, arena.optimal_weights, eval_games, seed),
            "eval_games": int(eval_games),  # the games behind each win rate (their intervals count on them)
            "seconds": float(seconds),
        }
        record.update(self._extra_record(done))
        return record

    def _extra_record(self, done) -> dict:
        return {}

    def _table(self, arena, table, done, opponent, start) -> ValueTable:
        meta = {"learner": type(self).__name__, "params": self.json_params(), "episodes": int(done),
                "opponent": _describe(opponent), "start": _describe(start), "bound": arena.bound}
        return ValueTable(arena.game, arena.universe, arena.indptr, arena.targets, table[0], table[1],
                          arena.terminal, meta)


def _start_pool(arena: Arena, start):
    live = arena.live()
    if live.size == 0:
        raise arena.nothing_to_learn()
    if isinstance(start, str):
        if start not in STARTS:
            raise ValueError(f"unknown start {start!r}: use one of {', '.join(STARTS)} or a position tuple")
        return live, START_SWEEP if start == "sweep" else START_RANDOM
    s = arena.index(start)
    if arena.indptr[s] == arena.indptr[s + 1]:
        raise ValueError(f"the start {tuple(start)} has no move: pick a position with a move")
    return np.array([s], dtype=np.int64), START_RANDOM


def _max_plies(arena: Arena) -> int:
    return int(min(arena.size + 1, MAX_PLIES))


def _describe(thing) -> str:
    if isinstance(thing, str):
        return thing
    if isinstance(thing, (TabularLearner, Agent)):
        return repr(thing)
    return str(tuple(int(x) for x in thing))
