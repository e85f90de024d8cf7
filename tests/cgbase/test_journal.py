"""cgbase.journal: a journal never loses a finished record, and a sweep killed at any byte of its journal resumes to
the same ``sweep.json`` bytes as an uninterrupted one."""

from __future__ import annotations

import functools

import pytest

from cgbase.journal import TORN, append_record, read_records, start_journal
from cgbase.reading import Field
from games import make_game
from learners import sweep

NIM2 = make_game("nim", heaps=2)


def test_a_torn_line_is_kept_aside_and_the_next_record_starts_a_fresh_line(tmp_path):
    journal = tmp_path / "runs.jsonl"
    start_journal(journal, {"sweep": 0})
    append_record(journal, {"run": 0})
    with open(journal, "ab") as handle:
        handle.write(b'{"run": 1, "fin')  # killed while writing
    assert read_records(journal) == [{"sweep": 0}, {"run": 0}]  # the torn tail is not a record ...
    append_record(journal, {"run": 1})
    assert read_records(journal) == [{"sweep": 0}, {"run": 0}, {"run": 1}]  # ... nor glued to the next one
    assert (tmp_path / f"runs.jsonl{TORN}").read_bytes() == b'{"run": 1, "fin\n'
    with open(journal, "ab") as handle:  # a second interruption loses nothing either
        handle.write(b'{"ru')
    append_record(journal, {"run": 2})
    assert [r.get("run") for r in read_records(journal)] == [None, 0, 1, 2]
    assert (tmp_path / f"runs.jsonl{TORN}").read_bytes() == b'{"run": 1, "fin\n{"ru\n'


def test_a_whole_last_record_without_its_newline_is_kept(tmp_path):
    journal = tmp_path / "runs.jsonl"
    start_journal(journal, {"sweep": 0})
    append_record(journal, {"run": 0})
    journal.write_bytes(journal.read_bytes()[:-1])  # killed just before the newline
    assert read_records(journal) == [{"sweep": 0}, {"run": 0}]
    append_record(journal, {"run": 1})
    assert read_records(journal) == [{"sweep": 0}, {"run": 0}, {"run": 1}]
    assert not (tmp_path / f"runs.jsonl{TORN}").exists()


def test_an_empty_journal_gets_its_settings_line(tmp_path):
    journal = tmp_path / "runs.jsonl"
    journal.write_bytes(b"")
    start_journal(journal, {"sweep": 1})
    start_journal(journal, {"sweep": 2})  # a journal with its settings keeps them
    assert read_records(journal) == [{"sweep": 1}]


@pytest.mark.parametrize("text, message", [
    (b'{"sweep":0}\n', "field sha256 is missing"),
    (b'not json\n', "line 1"),
    (b'[1, 2]\n', "not a record"),
    (b'{"sweep":0,"sha256":"0000000000000000"}\n', "does not match"),
    (b'[' * 100_000 + b'\n', "nested deeper"),
])
def test_a_line_that_is_not_a_journal_record_is_refused_with_the_file_and_line(tmp_path, text, message):
    journal = tmp_path / "runs.jsonl"
    journal.write_bytes(text)
    with pytest.raises(ValueError, match=message) as err:
        read_records(journal)
    assert str(journal) in str(err.value)


def test_a_changed_record_is_refused(tmp_path):
    journal = tmp_path / "runs.jsonl"
    start_journal(journal, {"sweep": 0})
    append_record(journal, {"run": 0, "final": {"deviations": 5}})
    journal.write_bytes(journal.read_bytes().replace(b'"deviations":5', b'"deviations":0'))
    with pytest.raises(ValueError, match="line 2: field sha256 does not match"):
        read_records(journal, "sweep journal", {"sweep": Field("int")})


def test_nan_is_written_as_null(tmp_path):
    journal = tmp_path / "runs.jsonl"
    append_record(journal, {"rate": float("nan"), "best": float("inf")})
    assert b"NaN" not in journal.read_bytes() and b"Infinity" not in journal.read_bytes()
    assert read_records(journal) == [{"rate": None, "best": None}]


# -- killing a sweep at every byte of its journal -----------------------------------------------------------
GRID = "alpha=0.2,0.9"


def _tiny(folder=None):
    return sweep.run("q", NIM2, GRID, bound=2, repeats=2, episodes=200, opponent="copy", points=2, folder=folder)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("whole") / "sweep"
    record = _tiny(folder)
    return sweep.sweep_json(record), (folder / sweep.JOURNAL).read_bytes()


def test_a_sweep_killed_at_any_byte_of_its_journal_resumes_to_the_same_bytes(tmp_path, uninterrupted, monkeypatch):
    """Each prefix of the uninterrupted sweep's journal is what a kill at that byte leaves: resuming from it (runs
    fitted again are taken from a cache of the real fits, so every offset is tried) writes the same sweep.json, and
    a torn tail is kept aside, never lost; a second kill in the resumed run's journal loses nothing either."""
    text, journal = uninterrupted
    fit, cache = sweep.fit_run, {}

    def cached_fit(learner, params, game, *rest):
        key = (learner, tuple(sorted(params.items())), repr(game), rest)
        if key not in cache:
            cache[key] = fit(learner, params, game, *rest)
        return cache[key]

    monkeypatch.setattr(sweep, "fit_run", cached_fit)
    assert journal.count(b"\n") == 5  # the settings and four runs
    for cut in range(len(journal) + 1):
        folder = tmp_path / f"k{cut}"
        folder.mkdir()
        (folder / sweep.JOURNAL).write_bytes(journal[:cut])
        resumed = _tiny(folder)
        assert sweep.sweep_json(resumed) == text, cut
        torn = journal[journal.rfind(b"\n", 0, cut) + 1:cut]
        whole_tail = bool(torn) and journal[cut:cut + 1] == b"\n"  # killed just before a newline
        assert resumed["resumed"] == max(0, journal[:cut].count(b"\n") + whole_tail - 1), cut
        side = folder / f"{sweep.JOURNAL}{TORN}"
        assert (side.read_bytes() if side.exists() else b"") == (torn + b"\n" if torn and not whole_tail else b""), cut
        if cut % 97 == 0:  # a second kill, in the middle of the journal the resumed run wrote
            again = (folder / sweep.JOURNAL).read_bytes()
            (folder / sweep.JOURNAL).write_bytes(again[:len(again) - 40])
            assert sweep.sweep_json(_tiny(folder)) == text, cut


def _resumed_with(folder, journal: bytes, change):
    """The journal with its last run replaced by ``change(run)``, written with a recomputed check."""
    import json

    lines = journal.split(b"\n")[:-1]
    settings, runs = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    for record in (settings, *runs):
        record.pop("sha256")
    folder.mkdir()
    start_journal(folder / sweep.JOURNAL, settings)
    for run in runs[:-1] + [change(runs[-1])]:
        append_record(folder / sweep.JOURNAL, run)


@pytest.mark.parametrize("change", [
    lambda r: {**r, "final": {**r["final"], "deviations": "many"}},
    lambda r: {**r, "final": {**r["final"], "deviations": 1e300}},
    lambda r: {**r, "final": {}},
    lambda r: {**r, "curve": {"episode": [1]}},
    lambda r: {**r, "curve": {k: ["x"] * len(v) for k, v in r["curve"].items()}},
    lambda r: {**r, "final": {**r["final"], "optimal_move_rate_mean": 1.0}},
], ids=["a metric a string", "a metric 1e300", "no metrics", "a curve cut short", "a curve of strings",
        "a mean that is not the curve's"])
def test_a_run_changed_with_its_check_recomputed_is_refused_from_its_curve(tmp_path, uninterrupted, change):
    """The line check guards against a torn or edited line; a run rewritten whole with a fresh check is caught by
    re-deriving its final metrics from its curve (cheap), so no made-up metric reaches sweep.json."""
    _resumed_with(tmp_path / "s", uninterrupted[1], change)
    with pytest.raises(ValueError, match=f"{tmp_path / 's' / sweep.JOURNAL}: field (final|curve)"):
        _tiny(tmp_path / "s")
