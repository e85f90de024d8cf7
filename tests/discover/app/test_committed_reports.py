"""Every committed report (``reports/*/``) says the command that made it, in its page and in its record, and its
pages are exactly what its saved record gives again (``discover.app.experiments.rerender``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from discover.app.experiments.rerender import KINDS, read_record, render_again, report_kind

ROOT = Path(__file__).resolve().parents[3]
REPORTS = sorted(p for p in (ROOT / "reports").iterdir() if p.is_dir() and p.name != "theory")
TEXT = (".md", ".html", ".json")


def _commands(folder: Path) -> list[str]:
    record = read_record(folder)
    if report_kind(folder) == "openings":
        return [board["command"] for board in record["boards"].values()]
    return [record.get("command")]


@pytest.mark.parametrize("folder", REPORTS, ids=lambda p: p.name)
def test_a_committed_report_names_its_command(folder):
    page = (folder / KINDS[report_kind(folder)][1]).read_text(encoding="utf-8")
    for command in _commands(folder):
        assert command and command.split()[0] in ("discover", "nice"), f"{folder.name}: no command in its record"
        assert command in page, f"{folder.name}: its page does not state {command!r}"


def test_the_theory_table_is_its_record_again():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import theory_report
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    record = json.loads((ROOT / "reports" / "theory" / "cases.json").read_text(encoding="utf-8"))
    assert record["meta"]["command"].startswith("python benchmarks/theory.py")
    assert theory_report.page(record) == (ROOT / "reports" / "theory" / "table.md").read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("folder", REPORTS, ids=lambda p: p.name)
def test_a_committed_report_is_what_its_record_gives_again(folder, tmp_path):
    out = render_again(folder, tmp_path / folder.name)
    committed = sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file())
    assert sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file()) == committed
    for name in committed:
        if name.suffix in TEXT:
            assert (out / name).read_text(encoding="utf-8") == (folder / name).read_text(encoding="utf-8"), \
                f"{folder.name}/{name} differs from what its record gives: render it again (render_again)"


def test_no_committed_page_shows_an_interval_of_zero_width():
    """A mean with no spread says why ("all equal", "n = 1"): ``1.000 [1.000, 1.000]`` would present as certain
    what a few seeds or games measured."""
    import re

    zero = re.compile(r"\d \\?\[(-?\d+\.\d+), \1\\?\]")  # a value, then its interval (not a list such as [64, 64])
    for page in sorted((ROOT / "reports").rglob("*.md")):
        found = zero.search(page.read_text(encoding="utf-8"))
        assert found is None, f"{page.relative_to(ROOT)}: {found.group(0)}"
