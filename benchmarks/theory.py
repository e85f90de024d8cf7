"""The theory benchmark: how much of the known theory of impartial games ``find_rule`` recovers.

Run ``python benchmarks/theory.py`` (``--cases a,b`` for some, ``--budget S`` seconds a case, ``--out DIR``).
The cases are data (``theory_cases.toml``: one record a game, with its class, reference and published rule).
Each case runs ``find_rule`` in a child process killed at its budget ("none within S s"), and its answer is
judged against a truth computed here by a plain brute force: a memoised recursion over ``game.moves()`` (the
rules of play) on a small box, P/N for most games, Grundy values (mex, sums xor-ed) for one-heap games whose
options are sums; nothing from ``solvers/`` or ``discover/``.  A case is

- **exact**: a verified rule that agrees with the brute force on every position of the box;
- **proved**: exact, and the proof says "proved";
- **FALSE**: a verified or proved rule that disagrees with the brute force (a false claim);
- **none**: no verified rule (refuted, none, or past the budget).

A control (no short rule known) is honest unless it claims a proof the brute force refutes.  The table is
printed and written, with each case's rule, to ``reports/theory/`` (``table.md``, and ``cases.json``: the command,
the budget and every case, from which ``page`` writes ``table.md`` again).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
CASES = HERE / "theory_cases.toml"
BUDGET = 120.0  # seconds a case
CUSTOM = {  # moves of the custom cases: one heap, the amounts an infinite subtraction set allows
    "odd": lambda p: [(p[0] - t,) for t in range(1, p[0] + 1, 2)],
    "powers_of_two": lambda p: [(p[0] - (1 << k),) for k in range(p[0].bit_length()) if 1 << k <= p[0]],
}


def load_cases(path=CASES) -> list[dict]:
    """The case records, each checked to name one way of making its game."""
    with open(path, "rb") as file:
        cases = tomllib.load(file)["case"]
    for case in cases:
        ways = [key for key in ("game", "declared", "custom") if key in case]
        if len(ways) != 1:
            raise ValueError(f"case {case.get('name')!r} must give one of game, declared, custom; got {ways}")
    return cases


def make(case: dict):
    """The case's game."""
    from games import custom_game, make_game
    from games.declared import declared_game

    if "game" in case:
        params = {k: tuple(v) if isinstance(v, list) else v for k, v in case.get("params", {}).items()}
        return make_game(case["game"], **params)
    if "declared" in case:
        return declared_game({"name": case["name"], **case["declared"]})
    return custom_game(case["name"], CUSTOM[case["custom"]], 1)


def brute_force(game, box: int):
    """Positions of the box [0, box]^dims and their truth: P (bool) or, for a one-heap game whose options are
    sums of heaps, the Grundy value."""
    import itertools

    import numpy as np

    sys.setrecursionlimit(100_000)
    sums = game.dims == 1 and game.parts > 1
    memo: dict = {}

    def grundy(heap: int) -> int:  # a one-heap game whose options are sums: mex of the options' xor
        if heap not in memo:
            seen = set()
            for option in game.moves((heap,)):
                value = 0
                for h in option:
                    value ^= grundy(h)
                seen.add(value)
            memo[heap] = next(v for v in itertools.count() if v not in seen)
        return memo[heap]

    def losing(position) -> bool:  # P for the player to move
        if position not in memo:
            options = game.moves(position)
            if not options:
                memo[position] = game.terminal_outcome() == -1
            else:
                memo[position] = not any(losing(tuple(o)) for o in options)
        return memo[position]

    positions = np.array(list(itertools.product(range(box + 1), repeat=game.dims)), dtype=np.int64)
    if sums:
        return positions, np.array([grundy(int(p[0])) for p in positions])
    keep = [game.universe(box).contains(positions[i:i + 1])[0] for i in range(len(positions))]
    positions = positions[np.array(keep, dtype=bool)]
    return positions, np.array([losing(tuple(int(x) for x in p)) for p in positions])


def run_case(case: dict) -> dict:
    """``find_rule`` on the case's game (in this process); the record the parent judges."""
    from discover.find import find_rule

    game = make(case)
    clock = time.perf_counter()
    found = find_rule(game)
    seconds = time.perf_counter() - clock
    return {"status": str(found.status), "seconds": seconds,
            "rule": None if found.rule is None else json.loads(found.rule.to_json()),
            "proof": None if found.proof is None else {"status": str(found.proof.status), "line": found.proof.line()},
            "strategy": None if found.strategy is None else found.strategy.text(),
            "verified_bound": found.verified_bound}


def judge(case: dict, answer: dict | None) -> dict:
    """The case's verdict from its answer (None: past the budget) and the brute force."""
    from discover.rule import Rule

    row = {"name": case["name"], "class": case["class"], "control": bool(case.get("control")),
           "reference": case["reference"], "known": case["known"]}
    if answer is None or answer.get("error"):
        return {**row, "verdict": "none", "seconds": None if answer is None else answer.get("seconds"),
                "rule": None, "why": "past the budget" if answer is None else answer["error"]}
    row.update(seconds=answer["seconds"], proof=answer["proof"], strategy=answer["strategy"])
    if answer["status"] != "verified" or answer["rule"] is None:
        return {**row, "verdict": "none", "rule": None, "why": f"status {answer['status']}"}
    rule = Rule.from_json(answer["rule"])
    positions, truth = brute_force(make(case), case["box"])
    said = rule.evaluate(positions) if rule.target == "grundy" and truth.dtype != bool else rule.predicate(positions)
    wrong = [tuple(int(x) for x in p) for p in positions[said != truth][:3]]
    proved = answer["proof"] is not None and answer["proof"]["status"] == "proved"
    verdict = "FALSE" if wrong else "proved" if proved else "exact"
    return {**row, "verdict": verdict, "rule": rule.text(), "wrong": wrong, "box": case["box"],
            "positions": int(len(positions))}


def _child(name: str) -> None:
    case = next(c for c in load_cases() if c["name"] == name)
    try:
        answer = run_case(case)
    except (ValueError, TypeError) as err:  # a refusal is an answer: "none", with the reason
        answer = {"error": f"{type(err).__name__}: {err}", "seconds": None}
    print(json.dumps(answer))


def run(cases: list[dict], budget: float) -> list[dict]:
    rows = []
    for case in cases:
        clock = time.perf_counter()
        try:
            done = subprocess.run([sys.executable, __file__, "--child", case["name"]], capture_output=True, text=True,
                                  timeout=budget, env={**os.environ, "PYTHONPATH": str(HERE.parent)})
            lines = done.stdout.strip().splitlines()
            answer = json.loads(lines[-1]) if done.returncode == 0 and lines else {
                "error": (done.stderr.strip().splitlines() or ["no answer"])[-1], "seconds": None}
        except subprocess.TimeoutExpired:
            answer = None
        row = judge(case, answer)
        row["wall"] = time.perf_counter() - clock
        rows.append(row)
        print(f"{row['name']:<24} {row['verdict']:<7} {row['wall']:7.1f} s  {row.get('rule') or row.get('why', '')}"[:160],
              flush=True)
    return rows


def table(rows: list[dict], budget: float) -> str:
    """The Markdown table and its summary."""
    lines = ["| case | class | verdict | seconds | rule |", "|---|---|---|---:|---|"]
    for r in rows:
        shown = (r.get("rule") or r.get("why", ""))[:90].replace("|", "\\|")
        verdict = f"{r['verdict']} (control)" if r["control"] else r["verdict"]
        seconds = f"{r['seconds']:.1f}" if r.get("seconds") is not None else f">{budget:.0f}"
        lines.append(f"| {r['name']} | {r['class']} | {verdict} | {seconds} | {shown} |")
    must = [r for r in rows if not r["control"]]
    exact = [r for r in must if r["verdict"] in ("exact", "proved")]
    proved = [r for r in must if r["verdict"] == "proved"]
    false = [r for r in rows if r["verdict"] == "FALSE"]
    honest = [r for r in rows if r["control"] and r["verdict"] != "FALSE" and not
              (r["verdict"] == "proved")]
    times = [r["seconds"] for r in exact if r.get("seconds") is not None]
    median = f"{statistics.median(times):.1f} s" if times else "n/a"
    lines += ["", f"must-find: {len(exact)}/{len(must)} found exactly, {len(proved)}/{len(must)} proved; "
                  f"false claims: {len(false)}; controls honest: {len(honest)}/{len(rows) - len(must)}; "
                  f"median time to a verified rule: {median}; budget {budget:.0f} s a case"]
    return "\n".join(lines)


def page(record: dict) -> str:
    """``table.md`` from the record ``cases.json`` holds: the table, its summary and the command that made it."""
    return (f"# What find_rule recovers\n\n{table(record['cases'], record['budget'])}\n\n"
            f"Command: `{record['command']}`; every case's answer, rule and judgement: `cases.json`.\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument("--budget", type=float, default=BUDGET, help="seconds a case (default %(default)s)")
    parser.add_argument("--out", default=str(HERE.parent / "reports" / "theory"), help="folder of the report")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child)
        return 0
    cases = load_cases()
    if args.cases:
        names = args.cases.split(",")
        unknown = sorted(set(names) - {c["name"] for c in cases})
        if unknown:
            print(f"unknown cases: {', '.join(unknown)}", file=sys.stderr)
            return 2
        cases = [c for c in cases if c["name"] in names]
    if args.budget <= 0:
        print(f"--budget must be positive, got {args.budget}", file=sys.stderr)
        return 2
    command = shlex.join(["python", "benchmarks/theory.py", *(sys.argv[1:] if argv is None else argv)])
    record = {"command": command, "budget": args.budget, "cases": run(cases, args.budget)}
    print(table(record["cases"], args.budget))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, body in (("table.md", page(record)), ("cases.json", json.dumps(record, indent=1, default=str))):
        temporary = out / f".{name}.tmp"
        temporary.write_text(body)
        temporary.replace(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
