"""Fuzzing every kind of file the toolkit reads back: truncated, bytes flipped, nested deeply, counts inflated.

A reader answers only with a ``ValueError`` naming the file (never another exception), and never accepts a changed
binary artifact or journal: what it accepts reads back exactly the original (a flip in a zip's timestamps changes no
array; a torn journal line is dropped, leaving a prefix of the records). ``sweep.json`` and rule or strategy JSON are
text records without a checksum: a change that still fits their schema is read as written.
"""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgbase.files import atomic_savez
from cgbase.journal import append_record, read_records, start_journal
from cgbase.reading import load_json, read_json
from discover.find import find_rule
from discover.rule import Rule
from games import make_game
from learners import QLearner, ValueTable, sweep
from solvers import Solution, solve

NIM2 = make_game("nim", heaps=2)
FUZZ = settings(derandomize=True, max_examples=40, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def _solution(path):
    solve(NIM2, bound=5, grundy=True).save(path)
    return lambda: Solution.load(path).grundy_table.tolist()


def _value_table(path):
    QLearner(random_state=0).fit(NIM2, bound=2, episodes=300).value_table_.save(path)
    return lambda: ValueTable.load(path).q.tolist()


def _checkpoint(path):
    QLearner(random_state=0).fit(NIM2, bound=2, episodes=300, eval_every=100, checkpoint=path)
    return lambda: QLearner(random_state=0).fit(NIM2, bound=2, episodes=300, eval_every=100,
                                                checkpoint=path).value_table_.q.tolist()


def _journal(path):
    start_journal(path, {"sweep": {"learner": "q"}})
    for run in range(3):
        append_record(path, {"run": run, "setting": 0, "repeat": run, "seed": run, "params": {"alpha": 0.5},
                             "final": {"deviations": run, "rate": float("nan")}, "curve": {"episode": [1, 2]}})
    run_schema, _ = sweep._schemas()
    return lambda: read_records(path, "sweep journal", None, run_schema)


BINARY = {"solution": _solution, "value table": _value_table, "checkpoint": _checkpoint}
KINDS = {**BINARY, "journal": _journal}


@pytest.fixture(params=list(KINDS))
def made(request, tmp_path):
    path = tmp_path / ("runs.jsonl" if request.param == "journal" else "file.npz")
    load = KINDS[request.param](path)
    return request.param, path, path.read_bytes(), load, load()


def _refused_or_same(kind, path, load, original):
    try:
        found = load()
    except ValueError as err:
        assert str(path) in str(err)
        return
    if kind == "journal":
        assert found == original[:len(found)]  # a torn tail is dropped, nothing else
    else:
        assert found == original


@FUZZ
@given(st.floats(0, 1, exclude_max=True))
def test_truncated(made, share):
    kind, path, data, load, original = made
    path.write_bytes(data[:int(share * len(data))])
    _refused_or_same(kind, path, load, original)


@FUZZ
@given(st.floats(0, 1, exclude_max=True), st.integers(1, 255))
def test_a_byte_flipped(made, share, mask):
    kind, path, data, load, original = made
    changed = bytearray(data)
    changed[int(share * len(data))] ^= mask
    path.write_bytes(bytes(changed))
    _refused_or_same(kind, path, load, original)


def _rewrite_npz(path, change):
    """Rewrite the archive's members with ``change(name, npy bytes) -> npy bytes`` (no checksum recomputed)."""
    with zipfile.ZipFile(path) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, change(name, data))
    path.write_bytes(buffer.getvalue())


def _npy(array) -> bytes:
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, np.asarray(array), allow_pickle=False)
    return buffer.getvalue()


@pytest.mark.parametrize("kind", list(BINARY))
def test_an_inflated_count_is_refused_from_the_header(tmp_path, kind):
    """An array declaring 6 GB (its data absent) is refused from its header, before anything is loaded."""
    path = tmp_path / "file.npz"
    load = BINARY[kind](path)
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (750_000_000,)})
    _rewrite_npz(path, lambda name, data: header.getvalue() if name == "meta.npy" else data)
    with pytest.raises(ValueError, match="declare|Python objects|readable") as err:
        load()
    assert str(path) in str(err.value)


@pytest.mark.parametrize("kind", list(BINARY))
@pytest.mark.parametrize("meta", ["[" * 100_000 + "]" * 100_000, '{"format": NaN}', '{"x": ' + "9" * 5000 + "}"])
def test_a_hostile_meta_record_is_refused(tmp_path, kind, meta):
    path = tmp_path / "file.npz"
    load = BINARY[kind](path)
    _rewrite_npz(path, lambda name, data: _npy(meta) if name == "meta.npy" else data)
    with pytest.raises(ValueError) as err:
        load()
    assert str(path) in str(err.value)


@pytest.mark.parametrize("kind", list(BINARY))
def test_an_object_array_is_refused(tmp_path, kind):
    path = tmp_path / "file.npz"
    load = BINARY[kind](path)
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, np.array([object()]), allow_pickle=True)
    _rewrite_npz(path, lambda name, data: buffer.getvalue() if name == "checksum.npy" else data)
    with pytest.raises(ValueError, match="Python objects"):
        load()


def test_a_file_without_a_checksum_is_refused_with_a_line_to_re_create_it(tmp_path):
    path = tmp_path / "old.npz"
    _solution(path)
    with zipfile.ZipFile(path) as archive:
        arrays = {i.filename[:-4]: np.lib.format.read_array(io.BytesIO(archive.read(i))) for i in archive.infolist()}
    del arrays["checksum"]
    np.savez_compressed(path, **arrays)
    with pytest.raises(ValueError, match="no checksum .*re-create the solution"):
        Solution.load(path)


# -- JSON records --------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rule_text():
    return find_rule(NIM2, bound=6).rule.to_json()


@FUZZ
@given(st.floats(0, 1, exclude_max=True), st.integers(1, 255), st.booleans())
def test_rule_json_is_read_or_refused_never_a_traceback(rule_text, share, mask, truncate):
    try:
        Rule.from_json(_changed(rule_text, share, mask, truncate))
    except ValueError:
        pass


def _changed(text: str, share: float, mask: int, truncate: bool) -> bytes:
    """``text`` cut at ``share`` of its bytes, or with the byte there flipped by ``mask``."""
    data = bytearray(text.encode())
    at = int(share * len(data))
    return bytes(data[:at]) if truncate else bytes(data[:at]) + bytes([data[at] ^ mask]) + bytes(data[at + 1:])


@pytest.mark.parametrize("text", ["[" * 100_000, '{"expr": ' + "[" * 5000 + "]" * 5000 + "}", '{"x": Infinity}',
                                  '{"x": 1e999}', "9" * 100_000])
def test_hostile_json_text_is_refused_in_one_value_error(text):
    with pytest.raises(ValueError):
        load_json(text)
    with pytest.raises(ValueError, match="not a rule record"):
        Rule.from_json(text)


@pytest.mark.parametrize("change, field", [
    (lambda r: r["runs"][0].update(seed="0"), "runs[0].seed"),
    (lambda r: r["runs"][0].pop("final"), "runs[0].final"),
    (lambda r: r["runs"][0].update(run=10**30), "runs[0].run"),
    (lambda r: r.update(extra=1), "extra"),
])
def test_a_sweep_record_outside_its_schema_is_refused_naming_the_field(tmp_path, change, field):
    record = {"sweep": {"learner": "q"}, "runs": [{"run": 0, "setting": 0, "repeat": 0, "seed": 0, "params": {},
                                                  "final": {}, "curve": {}}]}
    change(record)
    path = tmp_path / "sweep.json"
    path.write_text(json.dumps(record))
    with pytest.raises(ValueError, match=f"{path}: .*field {field.replace('[', '.').replace(']', '.')}"):
        read_json(path, "sweep record", sweep._schemas()[1])


def test_the_toolkit_never_writes_nan(tmp_path):
    path = tmp_path / "t.npz"
    atomic_savez(path, {"meta": np.array(json.dumps({"format": "demo/1"})), "x": np.arange(2)})
    text = sweep.sweep_json({"sweep": {"learner": "q"}, "runs": [{"final": {"rate": float("nan")},
                                                                  "curve": {"x": [float("inf")]}}]})
    assert "NaN" not in text and "Infinity" not in text and json.loads(text)["runs"][0]["final"]["rate"] is None


# -- changed with the checksum recomputed: what is cheap to re-derive or bound is checked, not trusted ---------
def _resave(path, change):
    """Rewrite the archive after ``change(arrays, meta)``, with a fresh checksum (a tamper that knows the format)."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files if name != "checksum"}
    meta = json.loads(str(arrays.pop("meta")))
    change(arrays, meta)
    atomic_savez(path, {**arrays, "meta": np.array(json.dumps(meta))})


def _set(name, value):
    return lambda arrays, meta: arrays.update({name: value(arrays[name])})


RESAVED = [
    ("value table", lambda arrays, meta: meta["game"]["params"].update(misere=True), "terminal outcomes"),
    ("value table", _set("q", lambda q: q.astype(complex)), "finite floats"),
    ("value table", _set("q", lambda q: q.astype(np.int64)), "finite floats"),
    ("value table", _set("visits", lambda v: v + 1e300), "visits"),
    ("checkpoint", _set("table", lambda t: t * 1000), "outside"),
    ("checkpoint", _set("table", lambda t: t * 0 + 1e300), "outside"),
    ("checkpoint", _set("state", lambda s: np.array([-1])), "unsigned"),
    ("checkpoint", lambda arrays, meta: meta["history"][0].update(episode=meta["history"][-1]["episode"]),
     "do not increase"),
]


@pytest.mark.parametrize("kind, change, message", RESAVED)
def test_a_file_changed_with_its_checksum_recomputed_is_refused(tmp_path, kind, change, message):
    path = tmp_path / "file.npz"
    load = BINARY[kind](path)
    _resave(path, change)
    with pytest.raises(ValueError, match=message) as err:
        load()
    assert str(path) in str(err.value)


@pytest.mark.parametrize("suffix, text", [(".json", "[" * 10_000 + "]" * 10_000),
                                          (".toml", "x = " + "[" * 10_000 + "]" * 10_000 + "\n"),
                                          (".toml", "x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n"),
                                          (".json", '{"name": "x", "heaps": NaN}')])
def test_a_deeply_nested_game_spec_is_refused_in_one_value_error(tmp_path, suffix, text):
    from games.declared import read_game_spec

    path = tmp_path / f"spec{suffix}"
    path.write_text(text)
    with pytest.raises(ValueError) as err:
        read_game_spec(path)
    assert str(path) in str(err.value)


@pytest.mark.parametrize("change, message", [
    ({"expr": "Eq(Symbol('zz'), Integer(0))"}, "zz, neither a feature name"),
    ({"feature_names": [f"x{i}" for i in range(100_000)]}, "1 to 4096 names"),
])
def test_a_rule_record_naming_what_it_cannot_evaluate_is_refused(rule_text, change, message):
    with pytest.raises(ValueError, match=message):
        Rule.from_json(json.dumps({**json.loads(rule_text), **change}))


def test_a_strategy_record_with_a_negative_checked_bound_is_refused():
    from discover.strategy import Strategy

    text = find_rule(NIM2, bound=6, verify_bound=12, games=5, prove=False).strategy.to_json()
    with pytest.raises(ValueError, match="checked_bound"):
        Strategy.from_json(json.dumps({**json.loads(text), "checked_bound": -5}), NIM2)


@pytest.fixture(scope="module")
def chooser_text():
    from discover.move_chooser import MoveChooser

    return MoveChooser(Rule.from_json(find_rule(NIM2, bound=6).rule.to_json()), NIM2, 12).to_json()


@FUZZ
@given(st.floats(0, 1, exclude_max=True), st.integers(1, 255), st.booleans())
def test_a_move_chooser_record_is_read_or_refused_never_a_traceback(chooser_text, share, mask, truncate):
    from discover.move_chooser import MoveChooser

    try:
        MoveChooser.from_json(_changed(chooser_text, share, mask, truncate), NIM2)
    except ValueError:
        pass


@pytest.mark.parametrize("text", ["[" * 100_000, "[]", '{"kind": "move chooser"}', '{"x": Infinity}', "9" * 100_000])
def test_hostile_move_chooser_text_is_refused_in_one_value_error(text):
    from discover.move_chooser import MoveChooser

    with pytest.raises(ValueError):
        MoveChooser.from_json(text, NIM2)
