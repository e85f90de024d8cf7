"""Checkpoints of a learner's run: tables, generator state, history and games played.

A checkpoint names the learner (class and parameters), the game, the bound, the opponent,
the start schedule and the record interval; a run resumes from it only when all of these
match, so a resumed fit ends with exactly the tables an uninterrupted fit would.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np

from cgbase.files import atomic_savez, json_text
from cgbase.reading import Field, read_npz
from cgbase.version import __version__
from learners.value_table import MAX_EPISODES

__all__ = ["Checkpoint", "META", "MAX_EPISODES"]

FORMAT = "cgdiscover-checkpoint/1"
#: the meta record: the run's identity, its learning curve (numbers, null where a rate had no games) and episodes
META = {"identity": Field("object"),
        "history": Field("list", items=Field("object", open=True, fields={
            "episode": Field("int", low=1, high=MAX_EPISODES), "deviations": Field("int", low=0),
            "seconds": Field("number", low=0)})),
        "episodes": Field("int", low=0, high=MAX_EPISODES)}


class Checkpoint:
    """A run's checkpoint file (``path`` None: a run that keeps none)."""

    def __init__(self, path, identity: dict):
        self.path, self.identity = path, identity
        self.found = False

    @classmethod
    def open(cls, path, learner, arena, opponent: str, start: str, two_tables: bool = False) -> "Checkpoint":
        """Read ``path`` when it exists and belongs to this run (the same learner, game, bound, opponent and starts:
        a finished run may go on for more episodes, with any record interval); refuse one of another run, or one
        whose tables (two when the opponent is a learner too: ``two_tables``) do not fit the run."""
        identity = {"learner": repr(learner), "game": arena.game.spec(), "bound": arena.bound,
                    "opponent": opponent, "start": start}
        run = cls(None if path is None else os.fspath(path), identity)
        if run.path is None or not os.path.exists(run.path):
            return run
        arrays, meta = read_npz(run.path, FORMAT, "checkpoint", META, ("table", "state", "opponent_table"))
        if meta["identity"] != json.loads(json.dumps(identity)):
            raise ValueError(f"{run.path} is the checkpoint of another run ({meta.get('identity')}); "
                             f"remove it or pass another path")
        history = [{k: math.nan if v is None else v for k, v in record.items()} for record in meta["history"]]
        run.history, run.episodes = history, meta["episodes"]
        if any(a["episode"] >= b["episode"] for a, b in zip(history, history[1:])):
            raise ValueError(f"{run.path} is corrupt: field history's episodes do not increase")
        if run.episodes != (history[-1]["episode"] if history else 0):
            raise ValueError(f"{run.path} is corrupt: field episodes is {run.episodes}, but its history ends at "
                             f"{history[-1]['episode'] if history else 0}")
        shape = learner._prior(arena.edges).shape
        run.table, run.opponent_table = arrays.get("table"), arrays.get("opponent_table")
        run.state = arrays.get("state")
        for name, array, want in (("table", run.table, shape), ("state", run.state, (1,)),
                                  ("opponent_table", run.opponent_table, shape if two_tables else None)):
            if want is not None and (array is None or array.shape != want or array.dtype.kind not in "iuf"):
                raise ValueError(f"{run.path} is corrupt: array {name} is not {want} numbers: it does not fit this run")
        if run.state.dtype.kind != "u":
            raise ValueError(f"{run.path} is corrupt: array state holds {run.state.dtype}, not unsigned integers")
        for row, (low, high) in zip(run.table, learner._limits()):  # the learner's own table (not an opponent's)
            if not ((row >= low - 1e-9) & (row <= high + 1e-9)).all():
                raise ValueError(f"{run.path} is corrupt: array table holds values outside [{low}, {high}], where "
                                 f"{type(learner).__name__} never goes")
        run.found = True
        return run

    def write(self, table, opponent_table, history, episodes: int, state) -> None:
        """Save the run so far (atomically); nothing when the run keeps no checkpoint."""
        if self.path is None:
            return
        meta = {"format": FORMAT, "version": __version__, "identity": self.identity,
                "history": history, "episodes": int(episodes)}
        arrays = {"meta": np.array(json_text(meta)), "table": table, "state": state}
        if opponent_table is not None:
            arrays["opponent_table"] = opponent_table
        atomic_savez(self.path, arrays)
