"""Issue 39, point 9: the command line says the same things the same way (help, defaults, descriptions, timings)."""

from __future__ import annotations

import json
import re

import pytest

from discover.app.cli import cli as group


def test_the_top_help_names_game_files_and_specs(cli):
    code, out, err = cli("--help")
    assert code == 0 and "--game-file" in out and "--game-spec" in out


@pytest.mark.parametrize("command", sorted(group.commands))
def test_no_default_prints_in_parentheses(cli, command):
    code, out, err = cli(command, "--help")
    assert code == 0 and "[default: (" not in " ".join(out.split())


def test_no_family_description_doubles_a_word(cli):
    code, out, err = cli("games", "--json")
    descriptions = {f["name"]: f["description"] for f in json.loads(out)["games"]}
    doubled = {name: m.group(0) for name, text in descriptions.items()
               if (m := re.search(r"\b(\w+) \1\b", text))}
    assert doubled == {}
    assert descriptions["staircase"].startswith("Staircase Nim: move") and "rows rows" not in descriptions["chomp"]


def test_the_stage_timings_add_up_to_the_total(cli):
    code, out, err = cli("subtraction", "subtract=1,2", "--bound", "12", "--verify-bound", "40", "--no-proof")
    assert code == 0, err
    line = next(line for line in out.splitlines() if line.startswith("Timings: "))
    parts = {name: float(seconds) for name, seconds in (part.rsplit(" ", 2)[:2] for part in line[9:].split(", "))}
    total = parts.pop("total")
    assert "other" in parts
    assert sum(parts.values()) == pytest.approx(total, abs=0.005 * (len(parts) + 1))
