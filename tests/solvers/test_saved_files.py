"""Defect class: saved solutions and value tables are not trusted.

A file whose header names another game, whose game parameters are of the wrong kind (``"misere":
"__import__('os')"``), whose tables hold values out of range, floats, the wrong shape, outcomes that contradict
the game's moves, or Python objects, is refused with one ``ValueError`` (never a suggestion to allow pickles); the
command says so in one line with status 2.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from games import make_game
from learners import QLearner, ValueTable
from solvers import Solution, solve


def _rewrite(path, change) -> None:
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    change(arrays, meta)
    arrays["meta"] = np.array(json.dumps(meta))
    with open(path, "wb") as handle:
        np.savez_compressed(handle, **arrays)


def _set(arrays, key, value):
    arrays[key] = value


TAMPERINGS = {
    "another game": lambda a, m: m["game"].update(name="wythoff", params={"misere": False}),
    "another bound": lambda a, m: m["universe"].update(bound=9),
    "a parameter that is code": lambda a, m: m["game"]["params"].update(misere="__import__('os')"),
    "an unknown parameter": lambda a, m: m["game"]["params"].update(evil=1),
    "no game record": lambda a, m: m.pop("game"),
    "outcome 7": lambda a, m: _set(a, "outcome", np.where(a["outcome"] == 1, 7, a["outcome"]).astype(np.int8)),
    "float outcomes": lambda a, m: _set(a, "outcome", a["outcome"].astype(float)),
    "a short table": lambda a, m: _set(a, "outcome", a["outcome"][:-1]),
    "flipped outcomes": lambda a, m: _set(a, "outcome", (-a["outcome"]).astype(np.int8)),
    "grundy out of step": lambda a, m: _set(a, "grundy", a["grundy"] + 1),
    "an object array": lambda a, m: _set(a, "outcome", np.array([object()] * len(a["outcome"]), dtype=object)),
}


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "nim.npz"
    solve(make_game("nim", heaps=2), bound=6, grundy=True).save(path)
    return path


@pytest.mark.parametrize("tampering", TAMPERINGS)
def test_a_tampered_solution_is_refused(saved, tampering):
    _rewrite(saved, TAMPERINGS[tampering])
    with pytest.raises(ValueError) as err:
        Solution.load(saved)
    assert "allow_pickle" not in str(err.value)


def test_the_untampered_file_loads(saved):
    assert Solution.load(saved).outcome([[3, 3]]).tolist() == [-1]


def test_show_refuses_a_tampered_file_in_one_line(saved, cli, one_error_line):
    _rewrite(saved, TAMPERINGS["flipped outcomes"])
    one_error_line(*cli("show", str(saved)))


@pytest.mark.parametrize("tampering", ["another game", "a parameter that is code", "q beyond 1", "targets out of range",
                                       "string visits"])
def test_a_tampered_value_table_is_refused(tmp_path, tampering):
    path = tmp_path / "q.npz"
    QLearner(random_state=0).fit(make_game("nim", heaps=2), bound=3, episodes=200).value_table_.save(path)
    changes = {**TAMPERINGS, "q beyond 1": lambda a, m: _set(a, "q", a["q"] * 0 + 5.0),
               "targets out of range": lambda a, m: _set(a, "targets", a["targets"] + 1000),
               "string visits": lambda a, m: _set(a, "visits", a["visits"].astype(str))}
    _rewrite(path, changes[tampering])
    with pytest.raises(ValueError):
        ValueTable.load(path)
