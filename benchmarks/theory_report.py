"""The theory benchmark's report: the aims of the benchmark, counts by class and by system, the cases it misses
and why, and every case's row; written atomically to ``table.md`` and ``cases.json``.

A row is ``theory.judge``'s (``verdict`` exact / proved / FALSE / none, ``seconds``, ``rule`` or ``why``) with the
baselines' records under ``baselines`` (``theory_baselines.baseline``: exact / FALSE / none; n/a, counted as none,
where no table of fixed width holds the rule: a misère quotient).
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

AIMS = {"exact": 0.90, "proved": 0.75, "median": 10.0, "ratio": 5.0}  # the aims
FOUND = ("exact", "proved")


def _must(rows):
    return [r for r in rows if not r["control"] and r["verdict"] != "not run"]


def _systems(rows) -> list[str]:
    return list(dict.fromkeys(s for r in rows for s in r.get("baselines", {})))


def _baseline(row, system) -> dict:
    record = row.get("baselines", {}).get(system) or {}
    return record if "verdict" in record else {"verdict": "error", "seconds": None, "why": record.get("error", "")}


def _seconds(value) -> str:
    return "–" if value is None else f"{value:.1f}"


def _cell(text: str, width: int = 110) -> str:
    text = " ".join(str(text).split())
    return (text if len(text) <= width else text[:width - 1] + "…").replace("|", "\\|")


def _honest(row) -> bool:
    return row["verdict"] not in ("FALSE", "proved")


def case_line(row: dict) -> str:
    """One printed line of a case as it finishes."""
    said = " ".join(f"{s} {_baseline(row, s)['verdict']}" for s in row.get("baselines", {}))
    return (f"{row['name']:<26} {row['verdict']:<7} {_seconds(row.get('seconds')):>6} s  {said:<28} "
            f"{row.get('rule') or row.get('why', '')}")[:200]


def counts(rows) -> dict:
    """The headline numbers: found exactly, proved, false claims, controls honest, median seconds to a verified
    rule, cases past the budget, and each baseline's exact recoveries and false claims."""
    must = _must(rows)
    found = [r for r in must if r["verdict"] in FOUND]
    times = [r["seconds"] for r in found if r.get("seconds") is not None]
    controls = [r for r in rows if r["control"] and r["verdict"] != "not run"]
    answered = [r["seconds"] for r in rows if r.get("seconds") is not None]
    out = {"must": len(must), "exact": len(found), "proved": sum(r["verdict"] == "proved" for r in must),
           "false": sum(r["verdict"] == "FALSE" for r in rows), "controls": len(controls),
           "honest": sum(_honest(r) for r in controls), "median": statistics.median(times) if times else None,
           "late": sum(bool(r.get("late")) for r in rows), "slowest": max(answered, default=None), "baselines": {}}
    for system in _systems(rows):
        said = [_baseline(r, system) for r in must]
        everywhere = [_baseline(r, system) for r in rows]
        seconds = [b["seconds"] for b in everywhere if b.get("seconds") is not None]
        out["baselines"][system] = {
            "exact": sum(b["verdict"] == "exact" for b in said),
            "false": sum(b["verdict"] == "FALSE" for b in everywhere),
            "none": sum(b["verdict"] in ("none", "error", "n/a") for b in said),
            "median": statistics.median(seconds) if seconds else None, "total": sum(seconds)}
    return out


def _aims(c: dict, meta: dict) -> list[str]:
    budget = meta.get("budget", 0)
    must = max(c["must"], 1)
    best = max(c["baselines"].items(), key=lambda kv: kv[1]["exact"], default=None)
    lines = ["| aim | target | result | met |", "|---|---|---|:-:|"]

    def aim(name, target, result, met):
        lines.append(f"| {name} | {target} | {result} | {'yes' if met else '**no**'} |")

    aim("must-find cases found exactly", f"≥ {AIMS['exact']:.0%}",
        f"{c['exact']}/{c['must']} ({c['exact'] / must:.0%})", c["exact"] >= AIMS["exact"] * c["must"])
    aim("must-find cases proved", f"≥ {AIMS['proved']:.0%}", f"{c['proved']}/{c['must']} ({c['proved'] / must:.0%})",
        c["proved"] >= AIMS["proved"] * c["must"])
    aim("false claims by find_rule", "0", str(c["false"]), c["false"] == 0)
    aim("controls honest (none, or a claim bounded to the box)", "all", f"{c['honest']}/{c['controls']}",
        c["honest"] == c["controls"])
    median = "n/a" if c["median"] is None else f"{c['median']:.1f} s"
    aim("median time to a verified rule", f"< {AIMS['median']:g} s", median,
        c["median"] is not None and c["median"] < AIMS["median"])
    aim(f"cases answered more than {meta.get('late', 0):.0%} past their budget", "0",
        f"{c['late']} (slowest answer {_seconds(c['slowest'])} s of {budget:g})", c["late"] == 0)
    if best is not None:
        name, b = best
        ratio = "∞" if b["exact"] == 0 else f"{c['exact'] / b['exact']:.1f}×"
        aim("exact recoveries against the best baseline", f"≥ {AIMS['ratio']:g}×",
            f"{c['exact']} against {name}'s {b['exact']}: {ratio}", c["exact"] >= AIMS["ratio"] * b["exact"])
    return lines


def _by_class(rows) -> list[str]:
    systems = _systems(rows)
    lines = ["| class | cases | find_rule exact | proved | none | FALSE | " + " | ".join(f"{s} exact" for s in systems)
             + " |", "|---|---:|---:|---:|---:|---:|" + "---:|" * len(systems)]
    for name in dict.fromkeys(r["class"] for r in rows):
        group = [r for r in rows if r["class"] == name]
        found = sum(r["verdict"] in FOUND for r in group)
        cells = [str(len(group)), str(found), str(sum(r["verdict"] == "proved" for r in group)),
                 str(sum(r["verdict"] == "none" for r in group)), str(sum(r["verdict"] == "FALSE" for r in group))]
        cells += [str(sum(_baseline(r, s)["verdict"] == "exact" for r in group)) for s in systems]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def _by_system(rows, c: dict) -> list[str]:
    lines = ["| system | found exactly | proved | false | none | median s | total s |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    must = _must(rows)
    seconds = [r["seconds"] for r in rows if r.get("seconds") is not None]
    lines.append(f"| find_rule | {c['exact']}/{c['must']} | {c['proved']} | {c['false']} | "
                 f"{sum(r['verdict'] == 'none' for r in must)} | "
                 f"{_seconds(statistics.median(seconds) if seconds else None)} | {sum(seconds):.0f} |")
    for system, b in c["baselines"].items():
        lines.append(f"| {system} | {b['exact']}/{c['must']} | – (never proves) | {b['false']} | {b['none']} | "
                     f"{_seconds(b['median'])} | {b['total']:.0f} |")
    return lines


def _missing(rows) -> list[str]:
    lines = []
    for r in rows:
        if r["verdict"] in FOUND or r["verdict"] == "not run" or (r["control"] and _honest(r)):
            continue
        why = (f"disagrees with the brute force at {r['wrong']}" if r["verdict"] == "FALSE" else r.get("why", ""))
        lines.append(f"- **{r['name']}** ({r['class']}; known: {r['known']}): {r['verdict']}: {_cell(why, 300)}")
    for r in rows:
        if r["verdict"] == "exact" and not r["control"]:
            proof = (r.get("proof") or {}).get("line") or "no proof attempted"
            lines.append(f"- **{r['name']}** ({r['class']}): found exactly, not proved for every position: "
                         f"{_cell(proof, 300)}")
    for r in rows:
        if r["control"] and r["verdict"] != "not run":
            said = r.get("rule") or r.get("why", "")
            lines.append(f"- control **{r['name']}** ({'honest' if _honest(r) else '**not honest**'}): "
                         f"{r['verdict']}: {_cell(said, 300)}")
    return lines


def _every_case(rows) -> list[str]:
    systems = _systems(rows)
    lines = ["| case | class | find_rule | s | " + " | ".join(f"{s} | s" for s in systems) + " | rule, or why not |",
             "|---|---|---|---:|" + "---|---:|" * len(systems) + "---|"]
    for r in rows:
        verdict = f"{r['verdict']} (control)" if r["control"] else r["verdict"]
        cells = [r["name"], r["class"], verdict, _seconds(r.get("seconds"))]
        for s in systems:
            b = _baseline(r, s)
            cells += [b["verdict"], _seconds(b.get("seconds"))]
        cells.append(_cell(r.get("rule") or r.get("why", "")))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def summary(rows, meta: dict) -> str:
    """The aims, the counts by system and by class, and the cases missed (Markdown)."""
    c = counts(rows)
    load = " / ".join(f"{x:.1f}" for x in meta.get("load_before", ())[:3])
    after = " / ".join(f"{x:.1f}" for x in meta.get("load_after", ())[:3])
    head = [f"`{meta.get('command', 'python benchmarks/theory.py')}`, started {meta.get('started', '?')}: "
            f"{len(rows)} cases, {meta.get('budget', 0):g} s a case and a system, on {meta.get('cores', '?')} cores, "
            f"load average {load or '?'} (1 / 5 / 15 min) at the start" + (f", {after} at the end" if after else "")
            + "." + ("" if meta.get("pysr") else " PySR: Julia not found, so no PySR column.")]
    if meta.get("kept"):
        runs = "; ".join(f"started {e.get('started', '?')}, load {e.get('load_before', ['?'])[0]:.1f} at its start"
                         for e in meta.get("earlier", []) if e)
        head.append(f"{len(meta['kept'])} cases kept from an earlier run of the same budget (`--resume`; {runs}).")
    loads = sorted(r["load"] for r in rows if r.get("load") is not None)
    if loads:
        head.append(f"Load average (1 min) as each case ended: {loads[0]:.1f} to {loads[-1]:.1f}, median "
                    f"{statistics.median(loads):.1f} ({len(loads)} cases).")
    return "\n".join(head + ["", "### Aims", "", *_aims(c, meta), "", "### Systems side by side",
                             "", *_by_system(rows, c), "", "### By class", "", *_by_class(rows), "",
                             "### Missed, found but not proved, and the controls", "", *(_missing(rows) or ["(none)"])])


def page(record: dict) -> str:
    """``table.md`` from the record ``cases.json`` holds (``meta``, with the command that made it, and the rows):
    the summary and every case."""
    return (f"# What find_rule recovers: the theory benchmark\n\n{summary(record['rows'], record['meta'])}\n\n"
            "### Every case\n\n" + "\n".join(_every_case(record["rows"])) + "\n")


def write(out: Path, rows, meta: dict) -> None:
    """``table.md`` (``page``) and ``cases.json`` (``meta`` and the rows), each written to a temporary file and
    renamed over the old one."""
    out.mkdir(parents=True, exist_ok=True)
    record = {"meta": meta, "rows": rows}
    for name, body in (("table.md", page(record)), ("cases.json", json.dumps(record, indent=1, default=str))):
        temporary = out / f".{name}.tmp"
        temporary.write_text(body)
        temporary.replace(out / name)
