"""A report written again from the record it saved: text and figures from today's renderers, nothing recomputed.

Every report the toolkit writes keeps its record beside its pages (``discovery.json``, ``explore.json``,
``alphazero.json``, ``parity.json``, ``hqn.json``, ``study.json``, the parity summary's ``summary.json``, a board's
first moves in ``<board>.json``), and that record names the command that made it (``"command"``).
``render_again(folder, out)`` reads the record and writes the report into ``out`` with the same code that wrote
it, so a renderer that changed is applied to a committed report without running its experiment again (hours of
training for some), and a test can hold that the committed pages are exactly what their records give
(``tests/discover/app/test_committed_reports.py``). ``report_kind(folder)`` names what a folder holds.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

__all__ = ["KINDS", "report_kind", "read_record", "render_again"]

#: each kind of report: the record file that identifies it, and the page that states its command
KINDS = {
    "rule": ("discovery.json", "index.md"),
    "explore": ("explore.json", "index.md"),
    "alphazero": ("alphazero.json", "index.md"),
    "parity": ("parity.json", "index.md"),
    "parity summary": ("summary.json", "index.md"),
    "hqn": ("hqn.json", "index.md"),
    "study": ("study.json", "index.md"),
    "openings": (None, "README.md"),
}


def report_kind(folder) -> str:
    """The kind of report in ``folder`` (a key of ``KINDS``); a ValueError when it holds none.

    Examples
    --------
    >>> report_kind("reports/wythoff"), report_kind("reports/hex-openings")
    ('rule', 'openings')
    """
    folder = Path(folder)
    for kind, (record, _) in KINDS.items():
        if record is not None and (folder / record).is_file():
            return kind
    if _board_records(folder):
        return "openings"
    raise ValueError(f"{folder} holds no report record ({', '.join(r for r, _ in KINDS.values() if r)} or a "
                     "board's <board>.json): not a report of this toolkit")


def read_record(folder) -> dict:
    """The record a report in ``folder`` was written from (a board study's: ``{"boards": {name: record}}``; a
    Nim study's with its sweeps read from ``q/``, ``qt/`` and ``bayes/``)."""
    from cgbase.reading import read_json

    folder = Path(folder)
    kind = report_kind(folder)
    if kind == "openings":
        return {"boards": {path.stem: read_json(path, "first-moves record") for path in _board_records(folder)}}
    record = read_json(folder / KINDS[kind][0], f"{kind} record")
    if kind == "study" and "sweeps" not in record and "curves" not in record:  # the swept study keeps them apart
        record["sweeps"] = {family: read_json(folder / family / "sweep.json", "sweep record")
                            for family in record["best"]}
    return record


def render_again(folder, out) -> Path:
    """Write the report of ``folder`` again into ``out`` from its saved record; return ``out``.

    Examples
    --------
    >>> import tempfile, os
    >>> out = render_again("reports/nim-heaps6-parity", os.path.join(tempfile.mkdtemp(), "again"))
    >>> sorted(os.listdir(out))
    ['index.html', 'index.md', 'parity.json', 'scores.png']
    """
    from discover.app.experiments import alphazero, explore, learner_study, nim_study, parity_report, parity_summary
    from discover.app.experiments.hqn import experiment as hqn

    folder, out = Path(folder), Path(out)
    kind, record = report_kind(folder), read_record(folder)
    if kind == "rule":
        from discover.discovery import Discovery
        from discover.app.render.report import write_report

        write_report(Discovery.from_record(record), out, record.get("command"))
    elif kind == "parity summary":
        records = parity_summary.collect(folder.parent)
        if [name for name, _ in records] != record["reports"]:
            raise ValueError(f"{folder} summarises {record['reports']}, and {folder.parent} now holds "
                             f"{[name for name, _ in records]}: run its command again")
        parity_summary.write(records, out, record["command"])
    elif kind == "openings":
        _boards_again(folder, record["boards"], out)
    elif kind == "study":
        (learner_study if "curves" in record else nim_study).write(record, out)
    else:
        {"explore": explore, "alphazero": alphazero, "parity": parity_report, "hqn": hqn}[kind].write(record, out)
    return out


def _board_records(folder: Path) -> list[Path]:
    """The first-moves records of a board study (``discover solve BOARD --json``, with its command)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.json") if _is_board_record(p))


def _is_board_record(path: Path) -> bool:
    try:
        with open(path, encoding="utf-8") as file:
            head = json.loads(file.read(1 << 24))
    except (OSError, ValueError):
        return False
    return isinstance(head, dict) and isinstance(head.get("openings"), dict) and "game" in head


def _boards_again(folder: Path, boards: dict, out: Path) -> None:
    """A board study's figures drawn again from its records; its page (hand-written, not generated) copied."""
    from cgbase.files import atomic_folder, write_json, write_text
    from discover.app.render.boards import plot_openings
    from games.registry import game_from_spec
    from solvers.openings import Openings

    with atomic_folder(out, ("README.md",), "report folder") as built:
        for name, record in boards.items():
            openings = Openings.from_record(game_from_spec(record["game"], path=f"{name}.json"), record["openings"])
            plot_openings(openings, built / f"{name}.png")
            write_json(built / f"{name}.json", record)
        write_text(built / "README.md", (folder / "README.md").read_text(encoding="utf-8"))
    os.utime(out)
