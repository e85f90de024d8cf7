"""The parity reports side by side: one table across heap counts, arms and seeds (``reports/nim-parity/``).

``collect(folder)`` reads every parity report (``parity.json`` of ``discover.app.experiments.parity_report``) in the
folders ``nim-heaps*-parity*`` of ``folder``; ``write(records, out)`` writes ``index.md`` and ``index.html`` with one
row per heap count, arm and seed: the budget, how the policy head was measured (exactly, or on a stratified sample
with its interval), its final optimal-move rate, the final score against the perfect player from the start in the
winning seat, the first iteration from which the search won every scoring game to the end, and the CPU seconds.
Nothing is trained or measured here: every number is read from the reports.
"""

from __future__ import annotations

import os
import re

from cgbase.reading import Field, check_record, read_json
from discover.app.experiments.parity_report import (first_expert, is_exact_record, rate_text, score_text, start_text,
                                                winning_seat)

__all__ = ["collect", "rows", "write", "MARKERS"]

MARKERS = ("index.md",)  # an existing folder holding these is a summary to replace
PATTERN = re.compile(r"nim-heaps(\d+)-parity.*")

_COUNT, _SECONDS, _TEXT = Field("int", low=0, high=2**63 - 1), Field("number", low=0), Field("str", plain=True)
_SCORE = Field("number", required=False, null=True, low=0, high=100)
_RATE = Field("number", required=False, null=True, low=0, high=1)
_HISTORY = Field("object", open=True, fields={
    "iteration": _COUNT, "optimal_move_rate": _RATE, "optimal_move_rate_low": _RATE, "optimal_move_rate_high": _RATE,
    "score_optimal_first": _SCORE, "score_optimal_second": _SCORE})
_RUN = Field("object", open=True, fields={
    "arm": _TEXT, "seed": _COUNT, "positions": _COUNT, "start_value": Field("int", low=-1, high=1),
    "train_cpu_seconds": _SECONDS, "exact": Field("bool", required=False), "history": Field("list", least=1,
                                                                                            items=_HISTORY),
    "sample_positions": Field("int", required=False, low=0), "sample_n_positions": Field("int", required=False, low=0)})
#: what the summary reads of a parity report (``parity_report`` writes more: other fields are let through)
SCHEMA = {
    "settings": Field("object", open=True, fields={
        "heaps": Field("int", low=1, high=10**6), "rule_heaps": Field("int", low=1, high=10**6),
        "eval_games": Field("int", low=1, high=2**63 - 1), "start": Field("list", least=1, items=_COUNT)}),
    "runs": Field("list", least=1, items=_RUN),
    "rules": Field("object"),
    "machine": _TEXT,
    "cpu_seconds": _SECONDS,
}
RULE_SCHEMA = {"rule": Field("str", null=True, plain=True), "game": _TEXT, "source": _TEXT, "why": _TEXT,
               "proof": Field("str", null=True, plain=True)}


def collect(folder) -> list[tuple[str, dict]]:
    """``(folder name, record)`` of each parity report in ``folder``, by heap count then name; a ValueError when
    there is none or one is unreadable.

    Examples
    --------
    >>> [name for name, _ in collect("reports")][:1]
    ['nim-heaps6-parity']
    """
    found = []
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    for name in names:
        match, path = PATTERN.fullmatch(name), os.path.join(folder, name, "parity.json")
        if match is None or not os.path.isfile(path):
            continue
        try:
            found.append((int(match.group(1)), name, _read(path)))
        except ValueError as err:
            raise ValueError(f"{' '.join(str(err).split())[:300]}: not a parity report; remove it or rerun its "
                             "command") from None
    if not found:
        raise ValueError(f"no parity report (nim-heapsN-parity*/parity.json) in {folder}: run "
                         "`discover alphazero nim heaps=7 --guided` first")
    return [(name, record) for _, name, record in sorted(found, key=lambda x: (x[0], x[1]))]


def _read(path: str) -> dict:
    """A parity report checked against ``SCHEMA`` (``cgbase.reading``), with its rules and its sample sizes."""
    record = check_record(read_json(path, "parity report"), SCHEMA, path, open=True)
    for seed, found in record["rules"].items():
        check_record(found, RULE_SCHEMA, path, f"rules.{seed}", open=True)
    missing = [key for key in ("sample_positions", "sample_n_positions") if key not in record["runs"][0]]
    if missing and not is_exact_record(record):
        raise ValueError(f"{path}: field runs[0].{missing[0]} is missing (its runs were measured on a sample)")
    return record


def rows(name: str, record: dict) -> list[list[str]]:
    """The summary's rows of one report: one per run (arm and seed), its network's final measures.

    Examples
    --------
    >>> name, record = collect("reports")[0]
    >>> rows(name, record)[0][:3]
    ['6', '46,080 (exact)', 'alone']
    """
    settings, seat = record["settings"], winning_seat(record)
    run0 = record["runs"][0]
    measured = ("exact" if is_exact_record(record) else
                f"sample of {run0['sample_positions']:,}, {run0['sample_n_positions']:,} N")
    out = []
    for run in record["runs"]:
        history, last = run["history"], run["history"][-1]
        expert = first_expert(history, seat, rate=None)
        out.append([str(settings["heaps"]), f"{run0['positions']:,} ({measured})", run["arm"], str(run["seed"]),
                    str(last["iteration"]), rate_text(last),
                    f"{seat}: " + score_text(last.get(f"score_optimal_{seat}"), settings["eval_games"]),
                    "-" if expert is None else str(expert), f"{run['train_cpu_seconds']:.0f}", name])
    return out


def _blocks(records: list[tuple[str, dict]]) -> list:
    from discover.app.render.document import Code, Link

    heaps = sorted({record["settings"]["heaps"] for _, record in records})
    table = [row for name, record in records for row in rows(name, record)]
    for row in table:
        row[-1] = Link(row[-1], f"../{row[-1]}/")
    total = sum(record["cpu_seconds"] for _, record in records)
    small = sorted({record["settings"]["rule_heaps"] for _, record in records})
    machines = sorted({record["machine"].split(", load average")[0] for _, record in records})
    others = [f"{record['settings']['heaps']} heaps: {start_text(record['settings'])}" for _, record in records
              if start_text(record["settings"]) != "the paper's start"]
    starts = f"; {'; '.join(others)}" if others else ""
    blocks = [
        ("h", 1, "AlphaZero on Nim, alone and guided by the rule it discovers: " + ", ".join(map(str, heaps))
         + " heaps"),
        ("p", "Zhou and Riis (\"Impartial games: a challenge for reinforcement learning\") report AlphaZero-style "
              "agents learning Nim with 5 heaps, slowing at 6 and playing at random level at 7. Each row below is one "
              "AlphaZero run of the parity reports (discover.app.experiments.parity), from the start 1, 3, 5, ... "
              f"(one heap of each odd size{starts}), alone or guided by the rule the discovery stage found in the "
              f"learner's own value table on {' or '.join(map(str, small))} heaps and proved for every number of heaps. Every "
              "number is read from the reports linked in the last column, which state their machine, load, budget, "
              f"rule and proof. Machine: {'; '.join(machines)}, on the CPU."),
        ("table", ["heaps", "positions (measured on)", "arm", "seed", "iterations",
                   "policy-head optimal-move rate (95% interval on a sample)", "vs perfect from the start, final",
                   "search won every scoring game from iteration", "train CPU s", "report"], table),
        ("p", "The policy head's rate is the share of N positions (all of them where measured exactly) whose top "
              "move wins; \"vs perfect\" is the network's search (no rule) against the perfect player from the start "
              "in the seat that wins there, with its 95% Wilson interval; the expert column gives the first scoring "
              "from which that search won every game to the last iteration. Budgets are reduced and stated in each "
              f"report (CPU only); {total:,.0f} CPU s in all over these reports, discovery included."),
        ("h", 2, "The rules the discovery stage found"),
    ]
    for name, record in records:
        for seed, found in record["rules"].items():
            blocks.append(("p", [f"{record['settings']['heaps']} heaps, seed {seed}: ", Code(found["rule"] or "none"),
                                 f" on {found['game']} from {found['source']}; {found['why']}; ",
                                 Code(found["proof"] or "no proof")]))
    return blocks


def write(records: list[tuple[str, dict]], out, command: str | None = None) -> None:
    """Write the summary of ``collect``'s ``records`` (``index.md``, ``index.html``) into the folder ``out``, and
    ``summary.json``: the ``command`` that made it and the reports it read (its record is theirs)."""
    from cgbase.files import atomic_folder, write_json
    from cgbase.version import __version__
    from discover.app.render.document import Code, write_document

    blocks = _blocks(records)
    if command:
        blocks.append(("p", ["Command: ", Code(command), "."]))
    with atomic_folder(out, MARKERS, "summary folder") as folder:
        write_json(folder / "summary.json", {"command": command, "reports": [name for name, _ in records],
                                             "version": __version__})
        write_document(folder, blocks, "AlphaZero on Nim: the parity reports side by side")
