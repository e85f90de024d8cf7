"""The theory benchmark: how much of the known theory of impartial games ``find_rule`` recovers, side by side with
general symbolic regression on the same tables.

Run ``python benchmarks/theory.py`` (``--cases a,b`` for some, ``--budget S`` seconds a case and a system,
``--systems find_rule,operon`` for some systems, ``--resume`` to keep the cases already in the report, ``--out
DIR``).  The cases are data (``theory_cases.toml``: one record a game, with its class, reference and published
rule).  Each case runs ``find_rule(game, seconds=S)`` in a child process, so that the answer within the budget
comes from the library ("none within S s" with its best partial); the child is killed only as a safety net,
``SAFETY`` seconds past the budget.  Its answer is judged against a truth computed here by a plain brute force: a
memoised recursion over ``game.moves()`` (the rules of play) on a small box, P/N for most games, Grundy values (mex,
sums xor-ed) for games whose options are sums (one-heap take-and-break games, Turning Corners), and for a misère
quotient the outcome of every sum of heaps holding at most ``box`` tokens in all; a loopy game (``loopy = true``:
moves that can be undone) by retrograde counting over every position its box reaches instead of the recursion;
nothing from ``solvers/`` or ``discover/``.  A case is

- **exact**: a verified rule that agrees with the brute force on every position of the box;
- **proved**: exact, and proved for every position (a bit-vector proof, of the positions below 2^64 only, leaves
  the case exact);
- **FALSE**: a verified or proved rule that disagrees with the brute force (a false claim);
- **none**: no verified rule (refuted, none within the budget, or an error).

A control (no short rule known) is honest unless it claims a proof or a rule the brute force refutes.  The
baselines (``theory_baselines``: pyoperon and gplearn, PySR where Julia is present) fit the same table with the
same features, each in its own child within the same budget, and are judged on the same box.  The report
(``theory_report``) is printed and written atomically to ``reports/theory/`` after every case (``cases.json``: the
command, the budget and every case, from which ``theory_report.page`` writes ``table.md`` again), so that
``--resume`` picks up an interrupted run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import shlex
import subprocess
import sys
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
CASES = HERE / "theory_cases.toml"
BUDGET = 120.0  # seconds a case and a system
REPORT = HERE.parent / "reports" / "theory"
SAFETY = 60.0  # seconds past the budget at which a child is killed (the library answers within the budget)
LATE = 0.05  # an answer more than this share past its budget counts as past it (a stage ends after its last check)
CUSTOM = {  # moves of the custom cases: one heap, the amounts an infinite subtraction set allows
    "odd": lambda p: [(p[0] - t,) for t in range(1, p[0] + 1, 2)],
    "powers_of_two": lambda p: [(p[0] - (1 << k),) for k in range(p[0].bit_length()) if 1 << k <= p[0]],
    "multiples_of_three": lambda p: [(p[0] - t,) for t in range(3, p[0] + 1, 3)],
    "one_mod_three": lambda p: [(p[0] - t,) for t in range(1, p[0] + 1, 3)],
    "two_mod_three": lambda p: [(p[0] - t,) for t in range(2, p[0] + 1, 3)],
    "primes": lambda p: [(p[0] - t,) for t in range(2, p[0] + 1) if all(t % d for d in range(2, math.isqrt(t) + 1))],
    "squares": lambda p: [(p[0] - t * t,) for t in range(1, math.isqrt(p[0]) + 1)],
    # coin-turning games (a case's parts > 1): heap n is one heads coin at n (coins numbered from 1), an option the
    # heads coins a move leaves; the rightmost coin turned is n's, from heads to tails
    "ruler": lambda p: [tuple(range(p[0] - k + 1, p[0])) for k in range(1, p[0] + 1)],  # any run ending at n
    "rulerette": lambda p: [tuple(range(p[0] - k + 1, p[0])) for k in range(2, p[0] + 1)],  # a run of two or more
    "mock_turtles": lambda p: [c for k in range(3) for c in itertools.combinations(range(1, p[0]), k)] if p[0] else [],
    "moebius": lambda p: [c for k in range(5) for c in itertools.combinations(range(1, p[0]), k)] if p[0] else [],
    # arithmetic rulesets: subtract a proper divisor (aliquot), or any divisor
    "aliquot": lambda p: [(p[0] - d,) for d in range(1, p[0]) if p[0] % d == 0],
    "divisor": lambda p: [(p[0] - d,) for d in range(1, p[0] + 1) if p[0] % d == 0],
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
    return custom_game(case["name"], CUSTOM[case["custom"]], 1, parts=case.get("parts", 1))


def retrograde_losses(game, starts) -> dict:
    """Whether each position reachable from ``starts`` (by ``game.moves``) is lost for the player to move, by
    retrograde counting: a position is won with a move to a lost one, lost when every move leads to a won one (or
    when it has none and the game's terminal rule says so); a position neither of these ever settles is a draw
    (not lost)."""
    import collections

    options: dict = {}
    stack = [tuple(int(x) for x in p) for p in starts]
    while stack:
        position = stack.pop()
        if position not in options:
            options[position] = [tuple(o) for o in game.moves(position)]
            stack.extend(o for o in options[position] if o not in options)
    parents = collections.defaultdict(list)
    for position, moves in options.items():
        for option in moves:
            parents[option].append(position)
    unsettled = {p: len(moves) for p, moves in options.items()}
    lost = {p: game.terminal_outcome() == -1 for p, moves in options.items() if not moves}
    queue = collections.deque(lost)
    while queue:
        position = queue.popleft()
        for parent in parents[position]:
            if parent in lost:
                continue
            if lost[position]:
                lost[parent] = False  # a move to a lost position wins
                queue.append(parent)
            else:
                unsettled[parent] -= 1
                if not unsettled[parent]:  # every move leads to a won position
                    lost[parent] = True
                    queue.append(parent)
    return {p: lost.get(p, False) for p in options}


def brute_force(game, box: int, loopy: bool = False):
    """Positions of the box [0, box]^dims and their truth: P (bool) or, for a one-heap game whose options are
    sums (heaps, or coins of Turning Corners), the Grundy value; a loopy game's P positions by
    ``retrograde_losses``."""
    import itertools

    import numpy as np

    sys.setrecursionlimit(100_000)
    sums = game.parts > 1
    memo: dict = {}

    def grundy(part: tuple) -> int:  # a game whose options are sums of parts: mex of the options' xor
        if part not in memo:
            seen = set()
            for option in game.moves(part):
                value = 0
                for piece in game.option_parts(option):
                    value ^= grundy(piece)
                seen.add(value)
            memo[part] = next(v for v in itertools.count() if v not in seen)
        return memo[part]

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
        return positions, np.array([grundy(tuple(int(x) for x in p)) for p in positions])
    keep = [game.universe(box).contains(positions[i:i + 1])[0] for i in range(len(positions))]
    positions = positions[np.array(keep, dtype=bool)]
    if loopy:
        lost = retrograde_losses(game, positions)
        return positions, np.array([lost[tuple(int(x) for x in p)] for p in positions])
    return positions, np.array([losing(tuple(int(x) for x in p)) for p in positions])


def misere_sums(game, tokens: int) -> tuple[list[tuple[int, ...]], list[bool]]:
    """Every sum of heaps (largest first) holding at most ``tokens`` tokens, and whether each is P in misère play:
    a memoised recursion over the sums, a move replacing one heap by the heaps ``game.moves((heap,))`` leaves."""
    sys.setrecursionlimit(100_000)
    memo: dict = {}

    def losing(heaps: tuple[int, ...]) -> bool:
        if heaps not in memo:
            options = [tuple(sorted(heaps[:i] + heaps[i + 1:] + tuple(x for x in option if x), reverse=True))
                       for i, heap in enumerate(heaps) if heap not in heaps[:i] for option in game.moves((heap,))]
            memo[heaps] = bool(options) and not any(losing(o) for o in options)  # no move: the mover wins
        return memo[heaps]

    def partitions(n: int, most: int):
        if n == 0:
            yield ()
        for k in range(min(n, most), 0, -1):
            yield from ((k,) + rest for rest in partitions(n - k, k))

    sums = [s for n in range(tokens + 1) for s in partitions(n, n)]
    return sums, [losing(s) for s in sums]


def run_case(case: dict, budget: float) -> dict:
    """``find_rule`` on the case's game within ``budget`` seconds (in this process); the record the parent judges."""
    from discover.find import find_rule

    game = make(case)
    clock = time.perf_counter()
    found = find_rule(game, seconds=budget)
    seconds = time.perf_counter() - clock
    return {"status": str(found.status), "seconds": seconds, "line": found.line(), "road": str(found.road),
            "out_of_time": found.out_of_time,
            "rule": None if found.rule is None else json.loads(found.rule.to_json()),
            "proof": None if found.proof is None else {"status": str(found.proof.status), "line": found.proof.line(),
                                                       "bits": found.proof.bits},
            "strategy": None if found.strategy is None else found.strategy.text(),
            "verified_bound": found.verified_bound}


def run_baseline(case: dict, system: str, budget: float) -> dict:
    """A baseline on the case's table, judged on its box (in this process)."""
    from theory_baselines import baseline

    game = make(case)
    if game.capabilities().misere_heaps:  # find_rule's quotient road: a rule over sums of any number of heaps
        return {"verdict": "n/a", "seconds": None, "why": "a misère quotient: a rule over sums of any number of "
                "heaps, which no table of fixed width holds (counted as none)"}
    positions, truth = brute_force(game, case["box"], loopy=bool(case.get("loopy")))
    return baseline(game, system, positions, truth, budget)


def judge(case: dict, answer: dict | None, budget: float) -> dict:
    """The case's verdict from ``find_rule``'s answer (None: killed past the budget) and the brute force."""
    from discover.quotients.rule import QuotientRule
    from discover.rule import Rule

    row = {"name": case["name"], "class": case["class"], "control": bool(case.get("control")),
           "reference": case["reference"], "known": case["known"]}
    if answer is None or answer.get("error"):
        why = f"killed {SAFETY:g} s past the {budget:g} s budget" if answer is None else answer["error"]
        return {**row, "verdict": "none", "seconds": None, "rule": None, "why": why, "late": answer is None}
    row.update(seconds=answer["seconds"], proof=answer["proof"], strategy=answer["strategy"], road=answer["road"],
               late=answer["seconds"] > budget * (1 + LATE), line=answer["line"])
    if answer["status"] != "verified" or answer["rule"] is None:
        return {**row, "verdict": "none", "rule": None, "why": answer["line"]}
    if answer["rule"].get("kind") == QuotientRule.kind:  # a rule of sums: judged on every sum of few tokens
        return {**row, **_judge_quotient(case, answer)}
    rule = Rule.from_json(answer["rule"])
    positions, truth = brute_force(make(case), case["box"], case.get("loopy", False))
    said = rule.evaluate(positions) if rule.target == "grundy" and truth.dtype != bool else rule.predicate(positions)
    wrong = [tuple(int(x) for x in p) for p in positions[said != truth][:3]]
    proved = _proved_everywhere(answer["proof"])
    verdict = "FALSE" if wrong else "proved" if proved else "exact"
    return {**row, "verdict": verdict, "rule": rule.text(), "wrong": wrong, "box": case["box"],
            "positions": int(len(positions))}


def _proved_everywhere(proof: dict | None) -> bool:
    """Whether an answer's proof is for every position: a bit-vector proof (``bits``: positions below 2^bits only)
    leaves the case exact, not proved."""
    return proof is not None and proof["status"] == "proved" and not proof.get("bits")


def _judge_quotient(case: dict, answer: dict) -> dict:
    """A misère quotient's verdict on every sum of heaps of at most ``box`` tokens."""
    from discover.quotients.rule import QuotientRule

    rule = QuotientRule.from_json(json.dumps(answer["rule"]))
    sums, truth = misere_sums(make(case), case["box"])
    wrong = [s for s, p in zip(sums, truth) if rule.is_p(s) != p][:3]
    proved = _proved_everywhere(answer["proof"])
    return {"verdict": "FALSE" if wrong else "proved" if proved else "exact", "rule": rule.text(), "wrong": wrong,
            "box": case["box"], "positions": len(sums)}


def _child(name: str, system: str, budget: float) -> None:
    case = next(c for c in load_cases() if c["name"] == name)
    try:
        answer = run_case(case, budget) if system == "find_rule" else run_baseline(case, system, budget)
    except (ValueError, TypeError) as err:  # a refusal is an answer: "none", with the reason
        answer = {"error": f"{type(err).__name__}: {err}", "seconds": None}
    print(json.dumps(answer, default=str))


def in_child(case: dict, system: str, budget: float) -> dict | None:
    """One system on one case in a child process: its answer, or None when the safety net killed it."""
    command = [sys.executable, __file__, "--child", case["name"], "--system", system, "--budget", str(budget)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=budget + SAFETY,
                              env={**os.environ, "PYTHONPATH": str(HERE.parent)})
    except subprocess.TimeoutExpired:
        return None
    lines = done.stdout.strip().splitlines()
    if done.returncode == 0 and lines:
        return json.loads(lines[-1])
    return {"error": (done.stderr.strip().splitlines() or ["no answer"])[-1], "seconds": None}


def run(cases: list[dict], budget: float, systems: tuple[str, ...], out: Path | None, meta: dict,
        done: dict) -> list[dict]:
    """Every case not in ``done`` (rows of an earlier run, kept as they are), each system in turn; the report
    (``done``'s rows and the new ones, in the case list's order) rewritten after each case."""
    from theory_report import case_line, write

    order = {c["name"]: i for i, c in enumerate(load_cases())}
    rows = dict(done)
    for case in (c for c in cases if c["name"] not in done):
        clock = time.perf_counter()
        row = judge(case, in_child(case, "find_rule", budget), budget) if "find_rule" in systems else {
            "name": case["name"], "class": case["class"], "control": bool(case.get("control")),
            "reference": case["reference"], "known": case["known"], "verdict": "not run"}
        row["baselines"] = {}
        for system in (s for s in systems if s != "find_rule"):
            row["baselines"][system] = in_child(case, system, budget) or {
                "error": f"killed {SAFETY:g} s past the budget"}
        row["wall"], row["load"] = time.perf_counter() - clock, os.getloadavg()[0]
        print(case_line(row), flush=True)
        rows[case["name"]] = row
        if out is not None:
            write(out, sorted(rows.values(), key=lambda r: order.get(r["name"], len(order))), meta)
    return sorted(rows.values(), key=lambda r: order.get(r["name"], len(order)))


def _previous(out: Path, budget: float, systems: tuple[str, ...]) -> tuple[dict, dict]:
    """The rows of an earlier run of the same budget and systems in ``out`` (``--resume``), by case name, and that
    run's record (its ``meta``)."""
    try:
        record = json.loads((out / "cases.json").read_text())
    except (OSError, ValueError):
        return {}, {}
    meta = record.get("meta", {}) if isinstance(record, dict) else {}
    if meta.get("budget") != budget or tuple(meta.get("systems", ())) != systems:
        return {}, {}
    return {row["name"]: row for row in record.get("rows", [])}, meta


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument("--budget", type=float, default=BUDGET, help="seconds a case and a system "
                        "(default %(default)s)")
    parser.add_argument("--systems", help="comma-separated: find_rule and the baselines operon, gplearn, pysr "
                        "(default: find_rule and every baseline this machine runs)")
    parser.add_argument("--resume", action="store_true", help="keep the cases already in the report's cases.json "
                        "(same budget and systems) and run the others (of --cases, or all)")
    parser.add_argument("--out", help="folder of the report (default reports/theory; a --cases run without "
                        "--resume writes only where --out says)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--system", default="find_rule", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.budget <= 0:
        print(f"--budget must be positive, got {args.budget}", file=sys.stderr)
        return 2
    if args.child:
        _child(args.child, args.system, args.budget)
        return 0
    from theory_baselines import NO_JULIA, SYSTEMS, systems_here
    from theory_report import summary, write

    cases = load_cases()
    if args.cases:
        names = args.cases.split(",")
        unknown = sorted(set(names) - {c["name"] for c in cases})
        if unknown:
            print(f"unknown cases: {', '.join(unknown)}", file=sys.stderr)
            return 2
        cases = [c for c in cases if c["name"] in names]
    here = ("find_rule", *systems_here())
    systems = here if args.systems is None else tuple(args.systems.split(","))
    unknown = sorted(set(systems) - {"find_rule", *SYSTEMS})
    if unknown:
        print(f"unknown systems: {', '.join(unknown)} (choose from find_rule, {', '.join(SYSTEMS)})", file=sys.stderr)
        return 2
    if "pysr" not in here:
        print(NO_JULIA)
        systems = tuple(s for s in systems if s != "pysr")
    # a subset alone is printed, and written only where --out says; --resume adds it to the report
    out = Path(args.out) if args.out is not None else None if args.cases and not args.resume else REPORT
    meta = {"budget": args.budget, "systems": list(systems), "command": shlex.join(["python", "benchmarks/theory.py",
            *(argv if argv is not None else sys.argv[1:])]), "cores": os.cpu_count(), "load_before": os.getloadavg(),
            "started": time.strftime("%Y-%m-%d %H:%M"), "pysr": "pysr" in here, "late": LATE}
    done, earlier = _previous(out, args.budget, systems) if args.resume and out is not None else ({}, {})
    meta["kept"] = sorted(done)
    meta["earlier"] = [*earlier.get("earlier", []), {k: earlier[k] for k in ("started", "load_before", "load_after")
                                                        if k in earlier}] if done else []
    rows = run(cases, args.budget, systems, out, meta, done)
    if all(c["name"] in done for c in cases):  # nothing ran: the report is written again as it was run
        meta = earlier
    else:
        meta["load_after"] = os.getloadavg()
    if out is not None:
        write(out, rows, meta)
    print(summary(rows, meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
