"""Checkpoints of a learner's run: tables, generator state, history and games played.

A checkpoint names the learner (class and parameters), the game, the bound, the opponent,
the start schedule and the record interval; a run resumes from it only when all of these
match, so a resumed fit ends with exactly the tables an uninterrupted fit would.
"""

from __future__ import annotations

import json
import os

import numpy as np

from cgbase.version import __version__
from cgbase.files import atomic_savez, read_npz

__all__ = ["Checkpoint"]

FORMAT = "cgdiscover-checkpoint/1"


class Checkpoint:
    """A run's checkpoint file (``path`` None: a run that keeps none)."""

    def __init__(self, path, identity: dict):
        self.path, self.identity = path, identity
        self.found = False

    @classmethod
    def open(cls, path, learner, arena, opponent: str, start: str) -> "Checkpoint":
        """Read ``path`` when it exists and belongs to this run (the same learner, game, bound, opponent and starts:
        a finished run may go on for more episodes, with any record interval); refuse one of another run."""
        identity = {"learner": repr(learner), "game": arena.game.spec(), "bound": arena.bound,
                    "opponent": opponent, "start": start}
        run = cls(None if path is None else os.fspath(path), identity)
        if run.path is None or not os.path.exists(run.path):
            return run
        arrays, meta = read_npz(run.path, FORMAT, "checkpoint")
        if meta.get("identity") != json.loads(json.dumps(identity)):
            raise ValueError(f"{run.path} is the checkpoint of another run ({meta.get('identity')}); "
                             f"remove it or pass another path")
        try:
            run.table, run.state = arrays["table"], arrays["state"].astype(np.uint64)
            run.opponent_table = arrays.get("opponent_table")
            run.history, run.episodes = list(meta["history"]), int(meta["episodes"])
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"{run.path} is not a readable checkpoint ({err})") from None
        if run.table.shape != (run.table.shape[0], arena.edges):
            raise ValueError(f"{run.path} is corrupt: its table does not fit {arena.edges} moves")
        run.found = True
        return run

    def write(self, table, opponent_table, history, episodes: int, state) -> None:
        """Save the run so far (atomically); nothing when the run keeps no checkpoint."""
        if self.path is None:
            return
        meta = {"format": FORMAT, "version": __version__, "identity": self.identity,
                "history": history, "episodes": int(episodes)}
        arrays = {"meta": np.array(json.dumps(meta)), "table": table, "state": state}
        if opponent_table is not None:
            arrays["opponent_table"] = opponent_table
        atomic_savez(self.path, arrays)
