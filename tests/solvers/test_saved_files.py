"""Defect class: saved solutions and value tables are not trusted.

A file whose header names another game, whose game parameters are of the wrong kind (``"misere":
"__import__('os')"``), whose tables hold values out of range, floats, the wrong shape, outcomes that contradict
the game's moves, or Python objects, is refused with one ``ValueError`` (never a suggestion to allow pickles); the
command says so in one line with status 2.
"""

from __future__ import annotations

import importlib
import json
import re

import numpy as np
import pytest

from cgbase.reading import checksum
from games import make_game
from learners import QLearner, ValueTable
from solvers import Solution, solve


def _rewrite(path, change, reseal: bool = False) -> None:
    """Change a saved file; ``reseal``: recompute its checksum too (a deliberate tamperer), leaving the
    re-derivation from the game's moves to catch the change."""
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    change(arrays, meta)
    arrays["meta"] = np.array(json.dumps(meta))
    if reseal:
        arrays["checksum"] = np.array(checksum(arrays))
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


@pytest.mark.parametrize("reseal", [False, True])
@pytest.mark.parametrize("tampering", ["flipped outcomes", "grundy out of step", "another bound"])
def test_a_tampered_and_resealed_solution_is_refused(saved, tampering, reseal):
    _rewrite(saved, TAMPERINGS[tampering], reseal)
    with pytest.raises(ValueError, match=str(saved)):
        Solution.load(saved)


def no_graph(monkeypatch):
    """Building a move graph, or a board game's reachable positions, fails: what a loader's default checks must
    never need."""
    def refuse(*args, **kwargs):
        raise AssertionError("a move graph was built")

    for name in ("solvers.graph", "solvers.exact", "solvers.certificate"):
        monkeypatch.setattr(importlib.import_module(name), "build_graph", refuse)
    monkeypatch.setattr(importlib.import_module("games.boardgame").BoardGame, "reachable", refuse)


@pytest.mark.parametrize("game, bound, flags", [
    (make_game("wythoff"), 60, {"remoteness": True}),
    (make_game("nim", heaps=3), 7, {"grundy": True}),
    (make_game("tictactoe"), None, {}),
], ids=["wythoff", "nim", "tictactoe"])
def test_issue_39_loading_a_solution_builds_no_graph_and_still_refuses_a_changed_byte(tmp_path, game, bound, flags):
    path = tmp_path / "s.npz"
    solution = solve(game, bound=bound, **flags)
    solution.save(path)
    with pytest.MonkeyPatch.context() as patch:
        no_graph(patch)
        loaded = Solution.load(path)
        assert np.array_equal(loaded.outcome_table, solution.outcome_table)
        assert loaded.checked.startswith("checksum and tables")
        _rewrite(path, lambda a, m: a["outcome"].__setitem__(3, 1 if a["outcome"][3] < 1 else -1))  # not re-signed
        with pytest.raises(ValueError, match="checksum"):
            Solution.load(path)
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0xFF  # one byte of the archive itself
        path.write_bytes(bytes(data))
        with pytest.raises(ValueError, match=str(path)):
            Solution.load(path)


def test_issue_39_only_verify_solves_again_and_it_finds_a_resealed_flip(tmp_path):
    """A forgery that recomputes the checksum and turns the last P position into a win is found by
    ``verify=True``, which solves the game again and names the position."""
    path = tmp_path / "w.npz"
    solve(make_game("wythoff"), bound=200).save(path)
    last = []

    def flip(a, m):
        last.append(int(np.flatnonzero(a["outcome"] == -1)[-1]))
        a["outcome"][last[0]] = 1

    _rewrite(path, flip, reseal=True)
    position = f"({last[0] % 201}, {last[0] // 201})"  # ids run through the first coordinate fastest
    with pytest.raises(ValueError, match=re.escape(f"{position} is recorded with outcome 1, but its moves give -1")):
        Solution.load(path, verify=True)


def _one_flip_outside_the_sample(a, m):
    sample = set(np.random.default_rng(0).choice(a["outcome"].size, size=min(256, a["outcome"].size), replace=False))
    i = next(i for i in range(a["outcome"].size) if i not in sample)
    a["outcome"][i] = -a["outcome"][i]


@pytest.mark.parametrize("reseal", [False, True])
@pytest.mark.parametrize("change, grundy, message", [
    (_one_flip_outside_the_sample, False, "checksum|recorded"),
    (lambda a, m: _set(a, "grundy", a["grundy"] * 1000), True, "checksum|Grundy value 1000"),
])
def test_probe_a_change_the_seeded_sample_cannot_see_is_refused(tmp_path, change, grundy, message, reseal):
    """Probes of issue 20: one outcome flipped outside the seeded sample, Grundy values x1000."""
    path = tmp_path / "nim.npz"
    solve(make_game("nim", heaps=2), bound=30, grundy=grundy).save(path)  # 961 positions: more than the sample
    _rewrite(path, change, reseal)
    with pytest.raises(ValueError, match=message):
        Solution.load(path, verify=True)


@pytest.mark.parametrize("change, message", [
    (lambda a, m: _set(a, "table", a["table"] * np.nan), "checksum|NaN"),
    (lambda a, m: m.update(episodes=10**30), "checksum|episodes"),
])
@pytest.mark.parametrize("reseal", [False, True])
def test_probe_a_learn_checkpoint_all_nan_or_claiming_1e30_episodes_is_refused(tmp_path, change, message, reseal):
    path = tmp_path / "q.npz"
    game = make_game("nim", heaps=2)
    QLearner(random_state=0).fit(game, bound=2, episodes=200, checkpoint=path)
    _rewrite(path, change, reseal)
    with pytest.raises(ValueError, match=message):
        QLearner(random_state=0).fit(game, bound=2, episodes=400, checkpoint=path)


@pytest.mark.parametrize("change", [
    lambda a, m: _set(a, "remoteness", np.full_like(a["remoteness"], 99)),
    lambda a, m: _set(a, "remoteness", a["remoteness"] + 2 * (a["remoteness"] > 0)),
])
def test_probe_a_resealed_remoteness_that_its_moves_do_not_give_is_refused(tmp_path, change):
    """A fresh battery's probe: remoteness 99 from the terminal (0, 0), checksum recomputed, was shown as fact."""
    path = tmp_path / "nim.npz"
    solve(make_game("nim", heaps=2), bound=5, remoteness=True).save(path)
    Solution.load(path, verify=True)  # the honest file loads
    _rewrite(path, change, reseal=True)
    with pytest.raises(ValueError, match="remoteness"):
        Solution.load(path, verify=True)


@pytest.mark.parametrize("episodes", [10**30, -5, "many"])
def test_probe_a_resealed_value_table_claiming_impossible_episodes_is_refused(tmp_path, episodes):
    """A fresh battery's probe: a value table claiming 10^30 episodes was printed as its provenance."""
    path = tmp_path / "v.npz"
    QLearner(random_state=0).fit(make_game("nim", heaps=2), bound=2, episodes=200).value_table_.save(path)
    ValueTable.load(path)
    _rewrite(path, lambda a, m: m["learner"].update(episodes=episodes), reseal=True)
    with pytest.raises(ValueError, match="episodes"):
        ValueTable.load(path)


def test_probe_a_universe_record_whose_size_is_not_its_arrays_is_refused(saved):
    """A fresh battery's probe: meta.universe.size 35 against 36 positions was accepted."""
    _rewrite(saved, lambda a, m: m["universe"].update(size=m["universe"]["size"] - 1), reseal=True)
    with pytest.raises(ValueError, match="universe record"):
        Solution.load(saved)


def test_issue_39_show_says_what_it_checked_and_check_finds_a_resealed_forgery(saved, cli, one_error_line):
    code, out, err = cli("show", str(saved))
    assert code == 0 and "checksum and tables, 49 sampled positions against their moves" in out
    code, out, err = cli("show", str(saved), "--check", "--json")
    assert code == 0 and json.loads(out)["checked"] == "every value compared with a fresh solve"
    _rewrite(saved, lambda a, m: _set(a, "grundy", a["grundy"] * 1000), reseal=True)  # zeros kept: fits the outcomes
    code, out, err = cli("show", str(saved), "--check")
    one_error_line(code, out, err)
    assert "(1, 0) is recorded with Grundy value 1000, but its moves give 1" in err


def test_issue_39_a_value_table_loads_without_its_graph_and_verify_checks_every_move(tmp_path):
    path = tmp_path / "v.npz"
    QLearner(random_state=0).fit(make_game("nim", heaps=2), bound=20, episodes=200).value_table_.save(path)
    with pytest.MonkeyPatch.context() as patch:
        no_graph(patch)
        assert ValueTable.load(path).universe.size == 441
    ValueTable.load(path, verify=True)

    def rewire(a, m):  # the last position's first move sent to (0, 0): in range, but not a move of Nim
        last = int(np.flatnonzero(np.diff(a["indptr"]))[-1])
        a["targets"][a["indptr"][last]] = 0

    _rewrite(path, rewire, reseal=True)
    with pytest.raises(ValueError, match="moves are not the moves of nim"):
        ValueTable.load(path, verify=True)
