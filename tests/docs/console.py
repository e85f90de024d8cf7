"""The README's console samples, run and compared with what the tool prints: a sample that drifts fails the suite.

Sybil (the root ``conftest.py``) collects ``README.md`` with ``ConsoleBlockParser``: every fenced block whose info string is
``console`` holds ``$ discover ...`` lines, each followed by its output as the command prints it (stdout, then
stderr). Each block runs in a fresh temporary folder holding the README's file blocks (a fenced block whose info
string names its file, as ```` ```python file=my_game.py ````), one ``python -m discover ...`` a line; only
``discover`` commands run. Before the comparison, timings (a number before `` s``) are blanked on both sides and
trailing spaces dropped; in the sample, a line ``...`` stands for any lines and ``...`` inside a line for any
text (a machine's memory, an excerpt). A sample too slow for the suite is skipped with its reason in the README,
by sybil's ``<!-- skip: next "reason" -->``.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from sybil.parsers.markdown import CodeBlockParser

__all__ = ["run_sample", "matches", "ConsoleBlockParser"]

FILE_BLOCK = re.compile(r"^```\w+ file=([\w.-]+)\n(.*?)^```", re.MULTILINE | re.DOTALL)
TIMING = re.compile(r"\d+(?:\.\d+)?(?= s\b)")
TIMEOUT = 600  # seconds a command may take before the sample fails


def _normal(text: str) -> list[str]:
    return [TIMING.sub("T", line).rstrip() for line in text.rstrip("\n").split("\n")]


def matches(expected: str, actual: str) -> bool:
    """Whether a command's output matches its sample: timings blanked, ``...`` lines and ``...`` in a line elided.

    Examples
    --------
    >>> matches("found in 0.40 s\\n...\\nmore than the ... allowed", "found in 3.1 s\\na\\nb\\nmore than the 2 GB allowed")
    True
    >>> matches("P iff a = b", "P iff a = b + 1")
    False
    """
    lines = []
    for line in _normal(expected):
        if line.strip() == "...":
            lines.append(r"(?:[^\n]*\n)*?")
        else:
            lines.append(".*?".join(re.escape(part) for part in line.split("...")) + r"\n")
    return re.fullmatch("".join(lines), "\n".join(_normal(actual)) + "\n") is not None


def run_sample(source: str, document_text: str) -> str | None:
    """Run the ``$ discover ...`` lines of a console block; None when every output matches, else the differences."""
    commands: list[tuple[str, list[str]]] = []
    for line in source.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
        else:
            return f"a console block starts with '$ COMMAND', got {line!r}"
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        for name, text in FILE_BLOCK.findall(document_text):
            Path(folder, name).write_text(text, encoding="utf-8")
        for command, expected in commands:
            words = shlex.split(command)
            if words[:1] != ["discover"]:
                return f"only discover commands run in a README sample, got {command!r}"
            env = {k: v for k, v in os.environ.items() if k != "DISCOVER_DEBUG"}
            done = subprocess.run([sys.executable, "-m", "discover", *words[1:]], cwd=folder, capture_output=True,
                                  text=True, timeout=TIMEOUT, env=env)
            actual = done.stdout + done.stderr
            if not matches("\n".join(expected), actual):
                diff = difflib.unified_diff(_normal("\n".join(expected)), _normal(actual), "README (timings T)",
                                            "printed (timings T)", lineterm="")
                failures.append(f"$ {command}\n" + "\n".join(diff))
    return "\n\n".join(failures) or None


class ConsoleBlockParser(CodeBlockParser):
    """Sybil's parser of fenced ``console`` blocks, each evaluated by ``run_sample``."""

    language = "console"

    def evaluate(self, example) -> str | None:
        return run_sample(example.parsed, example.document.text)
