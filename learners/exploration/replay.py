"""The replay memory of the exploration learners: the newest moves, sampled in minibatches.

Each move is stored with what its targets need: the position and the move's output index, the
position reached with the mask of its legal moves and its outcome when the game is over there
(NaN while it goes on), the solver's value of the move when it was proved (NaN otherwise) and its
exploration bonus.  Targets are computed when a move is sampled, with the network of that moment.

Examples
--------
>>> replay = Replay(capacity=2, dims=2, size=4)
>>> for k in range(3):
...     replay.add(np.array([[k, 0]]), np.array([k]), np.array([[k, 1]]), np.ones((1, 4), dtype=bool),
...                np.array([np.nan]), np.array([np.nan]), np.array([0.0]))
>>> len(replay), sorted(replay.sample(np.array([0, 1]))["action"].tolist())  # the oldest was replaced
(2, [1, 2])
"""

from __future__ import annotations

import numpy as np

__all__ = ["Replay"]

FIELDS = ("position", "action", "after", "mask", "terminal", "proved", "bonus")


class Replay:
    """A ring buffer of the newest ``capacity`` moves (see the module)."""

    def __init__(self, capacity: int, dims: int, size: int):
        self.capacity, self.size, self.next = int(capacity), 0, 0
        self.arrays = {"position": np.zeros((capacity, dims), dtype=np.int64),
                       "action": np.zeros(capacity, dtype=np.int64),
                       "after": np.zeros((capacity, dims), dtype=np.int64),
                       "mask": np.zeros((capacity, size), dtype=bool),
                       "terminal": np.zeros(capacity), "proved": np.zeros(capacity), "bonus": np.zeros(capacity)}

    def __len__(self) -> int:
        return self.size

    def add(self, *columns) -> None:
        """Store a block of moves, one array per field of ``FIELDS`` (in that order)."""
        count = len(columns[0])
        slots = (self.next + np.arange(count)) % self.capacity
        for name, column in zip(FIELDS, columns):
            self.arrays[name][slots] = column
        self.next = int((self.next + count) % self.capacity)
        self.size = min(self.capacity, self.size + count)

    def sample(self, rows) -> dict:
        """The stored moves at ``rows`` (indices below ``len(self)``), one array per field."""
        return {name: array[rows] for name, array in self.arrays.items()}
