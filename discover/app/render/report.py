"""Reports: a found rule, its trial and its figures written into ``reports/<game>/``.

``write_report(discovery)`` writes ``index.md`` (LaTeX for the rule, rendered by Markdown
viewers with math), ``index.html`` (self-contained: no script, no network; the rule's LaTeX
source in a ``<code>`` block beside its plain-text form, the figures as the PNG files next to
it), the figures (``exact.png``, ``rule.png``, ``disagreement.png``, ``grundy.png``; for a
take-and-break game computed by its engine, ``values.png`` with the rare heaps in place of
``grundy.png``), ``rule.json`` (read back by ``Rule.from_json``; a periodic rule's values and
exceptions are its fields ``values`` and ``exceptions`` or ``prefix``) and ``discovery.json``
(``Discovery.to_record()``).
The folder is built under a temporary name beside the target and renamed into place at the
end, so a report is either complete or absent.
The folder's name is the game's ``slug()`` (``nim-heaps3``, ``wythoff-misere``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from discover.expr.mathml import rule_mathml
from discover.discovery import CANDIDATES_KEPT, Discovery
from discover.verdicts import Road
from discover.learned import learned_table_text
from discover.app.render.document import Code, Link, Strong, write_document
from discover.app.render.heap_values import heap_values_figure, rare_class_text
from discover.no_rule import no_rule_paragraph
from discover.app.render.partitions import FIGURE_BOUND, grundy_figure, partition_figures
from discover.app.render.proof import strategy_and_proof_blocks
from discover.relation_inference import relation_line
from discover.timings import with_other

__all__ = ["check_report_folder", "report_folder", "write_report"]

CANDIDATES_SHOWN = CANDIDATES_KEPT  # as many as Discovery.to_record() keeps
EXCEPTIONS_SHOWN = 40  # exceptions of a periodic rule listed in the text (all are in rule.json)
PERIOD_SHOWN = 120  # values of a long period written out in the report (all are in rule.json)
PERIOD_ROW = 20  # values a line of the written-out period
LONG_LISTS = ("values", "exceptions", "prefix", "heaps")  # fields whose long lists the document names, not prints
REPORT_MARKERS = ("index.md", "discovery.json")  # an existing folder holding these is a report to replace


# -- folder names ----------------------------------------------------------------------------
def report_folder(game, root="reports") -> Path:
    """The folder a game's report goes to: ``root/<family>[-<param><value>...]``.

    Parameters
    ----------
    game : games.Game
    root : str or path-like
        Folder holding every report (default ``reports``, relative to the working directory).

    Examples
    --------
    >>> from games import make_game
    >>> report_folder(make_game("nim", heaps=3)).as_posix()
    'reports/nim-heaps3'
    >>> report_folder(make_game("wythoff", misere=True)).as_posix()
    'reports/wythoff-misere'
    >>> report_folder(make_game("subtraction", subtract=(1, 3, 4))).as_posix()
    'reports/subtraction-subtract1_3_4'
    """
    return Path(root) / game.slug()


# -- content -----------------------------------------------------------------------------------
def _shown_rule(discovery: Discovery):
    """The rule the report is about, and how captions name it."""
    if discovery.rule is not None:
        return discovery.rule, "the rule"
    return discovery.best_partial, "the best candidate"


def _proved(discovery: Discovery) -> bool:
    return discovery.proof is not None and discovery.proof.status == "proved"


def _status_sentence(discovery: Discovery) -> list:
    d = discovery
    trained = (f"read from the Grundy values of {d.sequence.heaps:,} heaps" if d.sequence is not None
               else f"trained on bound {d.train_bound}")
    if d.status == "verified":
        passed = ", ".join(c.name for c in d.checks)
        text = (f" up to bound {d.verified_bound} ({trained}): every check passed ({passed})"
                + (f"; proved {d.proof.statement} ({d.proof.method})." if _proved(d) else "."))
        return [Strong("Status: verified"), text]
    if d.sequence is not None and d.rule is None:
        return [Strong("Status: no rule"), f": the take-and-break engine found no period that the periodicity "
                                           f"theorem proves: {d.sequence.statement}."]
    if d.status == "refuted":
        failed = next((c for c in d.checks if not c.passed), None)
        what = f"failed the check '{failed.name}'" if failed else "failed its trial"
        return [Strong("Status: refuted"),
                f": the best candidate exact on the training table (bound {d.train_bound}) {what} "
                f"at bound {d.verify_bound}."]
    return [Strong("Status: no rule"),
            f": no engine proposed a rule exact on the training table (bound {d.train_bound}), "
            "so nothing was put on trial."]


def _words(rule, who: str) -> str:
    if rule.sequence is not None:
        sentence = (f"In words: {who} gives the Grundy value G(n) of every heap of n tokens: {rule.text()}; "
                    "a heap, or a sum of heaps, is a P position when the xor of the heaps' values is 0.")
    elif rule.target == "grundy":
        sentence = (f"In words: {who} gives every position's Grundy value as {rule.text()}; "
                    "the P positions are those with value 0.")
    else:
        sentence = f"In words: {who} says the player to move loses (a P position) exactly when: {rule.text()}."
    return sentence + (f" The engine explains: {rule.words.rstrip('.')}." if rule.words else "")


def _counterexample_position(discovery: Discovery) -> tuple | None:
    """The position a failed check names, which the figures must show (None when none does)."""
    for check in discovery.checks:
        position = (check.counterexample or {}).get("position")
        if not check.passed and position is not None and len(position) == discovery.game.dims:
            return tuple(int(x) for x in position)
    return None


def _game_words(game) -> str:
    """The game as its command line names it: ``octal code=0.77``, ``nim heaps=3 misere=true``.

    Examples
    --------
    >>> from games import make_game
    >>> _game_words(make_game("subtraction", subtract=(1, 3, 4)))
    'subtraction subtract=1,3,4'
    """
    spec = game.spec()

    def word(value) -> str:
        if isinstance(value, bool):
            return str(value).lower()
        return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)

    params = {k: v for k, v in spec.get("params", {}).items() if not (k == "misere" and v is False)}  # the default
    return " ".join([str(spec["name"]), *(f"{k}={word(v)}" for k, v in params.items())])


def _game_facts(game) -> list:
    """The report's rows naming the game: a family's command words; a custom or declared game's title, its moves
    (the relation in words, where it has one) and the file it was read from with the file's SHA-256.

    Examples
    --------
    >>> from games.custom import custom_game
    >>> from games.symbolic import take_from_one
    >>> g = custom_game("take12", lambda p: [], dims=1, relation=take_from_one(1, (1, 2)))
    >>> for part in _game_facts(g)[1][1].split(" for v in 1 "):
    ...     print(part)
    subtract t·v (t in {1, 2}, every coordinate staying ≥ 0)
    (given with moves(), checked against it by the proof)
    """
    if not game.spec().get("custom"):
        return [["game", [f"{game.title()}: ", Code(_game_words(game))]]]
    relation = game.move_relation()
    declared = "declared" in game.spec()
    moves = (relation_line(game) or relation.words() if relation is not None else
             "declared in the game's specification (its record in discovery.json)" if declared else
             "given by a Python function moves(), with no symbolic relation")
    rows = [["game", f"{game.title()} ({'a declared game' if declared else 'a custom game'}, "
                     f"{game.dims} coordinate{'s' if game.dims > 1 else ''})"], ["moves", moves]]
    if game.source_file is not None:
        rows.append(["game file", [Code(game.source_file["file"]), f", SHA-256 {game.source_file['sha256']}"]])
    return rows


def _percent(value) -> str:
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{100 * value:.2f}%"


def _counterexample(value) -> object:
    if not value:
        return ""
    return Code(", ".join(f"{k}={tuple(v) if isinstance(v, list) else v}" for k, v in value.items()))


def _blocks(discovery: Discovery, figures: list, rule_record: dict | None, record: dict) -> list:
    d = discovery
    game = d.game
    rule, who = _shown_rule(d)
    blocks = [("h", 1, f"Rule report: {game.title()}"), ("p", _status_sentence(d))]
    if d.status != "verified":
        blocks.append(("p", no_rule_paragraph(d, "discovery.json, at the end of this page")))
    trained = (["heaps computed by the take-and-break engine", f"{d.sequence.heaps:,}"] if d.sequence is not None
               else ["training bound", f"{d.train_bound:,}"])
    facts = [*_game_facts(game), trained,
        ["verification bound", f"{d.verify_bound:,}"],
        ["verified bound", f"{d.verified_bound:,}" if d.verified_bound is not None else "none"],
    ]
    if rule is not None:
        prov = rule.provenance
        facts += [["engine", str(prov.get("engine", "unknown"))], ["seed", str(prov.get("seed", "unknown"))],
                  ["target", "P positions" if rule.target == "P" else "Grundy values"],
                  ["toolkit version", str(prov.get("version", "unknown"))]]
    blocks.append(("table", ["", ""], facts))

    heading = {"the rule": "The rule" if d.status == "verified" else "The refuted rule",
               "the best candidate": "The best candidate (not exact on the training table)"}[who]
    if rule is None and d.sequence is not None:
        blocks += [("h", 2, "No rule"), ("p", "No period was proved within the take-and-break engine's budget.")]
    elif rule is None:
        blocks += [("h", 2, heading), ("p", "No engine proposed any candidate.")]
    else:
        blocks += [("h", 2, heading), ("math", rule.latex(), rule.text(), rule_mathml(rule)),
                   ("p", _words(rule, who)),
                   ("p", f"Complexity {rule.complexity}, training accuracy {_percent(rule.train_accuracy)}.")]
        if "learned" in rule.provenance:  # how good the labels it was fitted on are, against the solver
            blocks.append(("p", learned_table_text(rule.provenance["learned"]).capitalize() + "."))
        if d.general is not None:
            blocks.append(("p", d.general.line()[0].upper() + d.general.line()[1:] + "."))

    if d.sequence is not None:
        blocks += _sequence_blocks(d, rule)

    blocks.append(("h", 2, "Verification"))
    if d.checks:
        rows = [[c.name, "yes" if c.passed else "NO", c.detail, _counterexample(c.counterexample),
                 f"{c.seconds:.3f}"] for c in d.checks]
        blocks.append(("table", ["check", "passed", "detail", "counterexample", "seconds"], rows))
    else:
        blocks.append(("p", "No rule was put on trial."))
    blocks += strategy_and_proof_blocks(d)

    blocks.append(("h", 2, "Figures"))
    values = (f"every Grundy value the take-and-break engine computed ({d.sequence.heaps:,} heaps)"
              if d.sequence is not None else f"the Grundy values, where the game has them, at the training bound "
                                             f"{d.train_bound}")
    blocks.append(("p", f"The partitions are drawn up to the verification bound {d.verify_bound}, at most "
                        f"{FIGURE_BOUND + 1} cells a side (around the counterexample when a check names one); "
                        f"{values}."))
    blocks += figures

    blocks.append(("h", 2, "Candidates"))
    if d.candidates:
        shown, proposed = d.candidates[:CANDIDATES_SHOWN], record.get("candidates_proposed", len(d.candidates))
        count = f"{proposed} candidate" + ("s" if proposed > 1 else "")
        more = f"; the first {len(shown)}" if len(shown) < proposed else ""
        blocks.append(("p", f"The engines proposed {count}, ranked by training accuracy, then complexity{more}:"))
        rows = [[str(i), Code(r.text()), r.provenance.get("engine", ""), str(r.complexity), _percent(r.train_accuracy)]
                for i, r in enumerate(shown, 1)]
        blocks.append(("table", ["rank", "rule", "engine", "complexity", "training accuracy"], rows))
    elif d.sequence is not None:
        blocks.append(("p", "Take-and-break games are computed by the take-and-break engine, and a proved period "
                            "is the rule; no formula engine ranked candidates."))
    else:
        blocks.append(("p", "The engines proposed no candidate."))

    if d.timings:
        blocks += [("h", 2, "Timings"),
                   ("table", ["stage", "seconds"], [[k, f"{v:.3f}"] for k, v in with_other(d.timings).items()])]

    blocks.append(("h", 2, "Provenance"))
    if record.get("command"):
        blocks.append(("p", ["Command: ", Code(record["command"]), " (the record below reads back with ",
                             Code("Discovery.from_record"), ")."]))
    files = ([Link("rule.json", "rule.json"), " (Rule.to_json, read back by Rule.from_json) and "]
             if rule_record is not None else [])
    blocks.append(("p", ["Files: ", *files, Link("discovery.json", "discovery.json"), " (Discovery.to_record)."]))
    if rule_record is not None:
        blocks.append(("json", "rule.json", _json_text(_shortened(rule_record))))
    blocks.append(("json", "discovery.json", _json_text(_shortened(record))))
    return blocks


def _sequence_blocks(discovery: Discovery, rule) -> list:
    """The take-and-break engine's run: what it computed, its period, the rare heaps, where the values are."""
    sequence = discovery.sequence
    blocks = [("h", 2, "Grundy values (take-and-break engine)"),
              ("p", f"The engine computed G(n) for n < {sequence.heaps:,} in {sequence.seconds:.2f} s: "
                    f"{sequence.statement}."),
              ("p", rare_class_text(sequence))]
    periodic = rule.sequence if rule is not None else None
    if periodic is not None:
        listed = periodic.exceptions[:EXCEPTIONS_SHOWN].tolist()
        shown = ", ".join(f"G({n}) = {v}" for n, v in listed)
        more = f", ... ({len(periodic.exceptions):,} in all)" if len(periodic.exceptions) > len(listed) else ""
        blocks.append(("p", [f"The rule stores one period of {periodic.period:,} values (G(n) for n ≥ "
                             f"{periodic.preperiod:,} by n mod {periodic.period:,}) and the "
                             f"{len(periodic.exceptions):,} heaps below n = {periodic.preperiod:,} whose value "
                             f"differs from that pattern; both are in ", Link("rule.json", "rule.json"),
                             " (fields ", Code("values"), " and ", Code("exceptions"), ", or ", Code("prefix"),
                             ", every G(n) below the pre-period, when that is shorter)",
                             f". Values from 0 to {periodic.largest}."
                             + (f" Exceptions: {shown}{more}." if listed else " No exceptions.")]))
        blocks += _period_blocks(periodic)
    return blocks


def _period_blocks(periodic) -> list:
    """One period's values: how many heaps of the period take each value, and the values themselves (the first
    ``PERIOD_SHOWN`` when the period is longer).

    Examples
    --------
    >>> from discover.periodic_values import PeriodicValues
    >>> blocks = _period_blocks(PeriodicValues(0, 4, [0, 1, 1, 2], []))
    >>> blocks[1][2], blocks[2][1]
    ([['0', '1', '25.00%'], ['1', '2', '50.00%'], ['2', '1', '25.00%']], 'r = 0: 0 1 1 2')
    """
    import numpy as np

    values, counts = np.unique(periodic.values, return_counts=True)
    rows = [[str(v), f"{c:,}", f"{c / periodic.period:.2%}"] for v, c in zip(values.tolist(), counts.tolist())]
    shown = periodic.values[:PERIOD_SHOWN].tolist()
    more = periodic.period - len(shown)
    first = f"the first {len(shown)} of the {periodic.period:,}" if more else f"all {periodic.period:,}"
    digits, label = len(str(max(shown))), len(f"{len(shown) - 1:,}")
    lines = [f"r = {r:>{label},}: " + " ".join(f"{v:>{digits}}" for v in shown[r:r + PERIOD_ROW])
             for r in range(0, len(shown), PERIOD_ROW)]
    lines += [f"… {more:,} more (rule.json)"] if more else []
    return [("p", f"One period, G(n) for n ≥ {periodic.preperiod:,} by r = n mod {periodic.period:,}: how many "
                  f"r take each value, then {first} values v[r], {PERIOD_ROW} a line from the r on its left:"),
            ("table", ["value", "heaps of one period", "share"], rows),
            ("pre", "\n".join(lines))]


def _shortened(node):
    """A record as the document shows it: a periodic rule's long value lists named, not printed (the files
    hold them)."""
    if isinstance(node, dict):
        return {k: (f"[{len(v):,} items: see the file]" if k in LONG_LISTS and isinstance(v, list)
                    and len(v) > EXCEPTIONS_SHOWN else _shortened(v)) for k, v in node.items()}
    return [_shortened(v) for v in node] if isinstance(node, list) else node


def _json_text(node, depth: int = 0) -> str:
    """JSON indented by objects, each list that holds no object on one line (a period of values is one
    line, not one line a value).

    Examples
    --------
    >>> print(_json_text({"period": 3, "values": [0, 1, 2], "checks": [{"passed": True}]}))
    {
      "period": 3,
      "values": [0, 1, 2],
      "checks": [
        {
          "passed": true
        }
      ]
    }
    """
    inner = "  " * (depth + 1)
    if isinstance(node, dict) and node:
        body = ",\n".join(f"{inner}{json.dumps(k, ensure_ascii=False)}: {_json_text(v, depth + 1)}"
                          for k, v in node.items())
        return "{\n" + body + "\n" + "  " * depth + "}"
    if isinstance(node, list) and any(isinstance(v, dict) for v in node):
        return "[\n" + ",\n".join(inner + _json_text(v, depth + 1) for v in node) + "\n" + "  " * depth + "]"
    return json.dumps(node, ensure_ascii=False, separators=(", ", ": "))


# -- writing -----------------------------------------------------------------------------------
def check_report_folder(folder, force: bool = True) -> Path:
    """Refuse, before any work, a folder a report cannot be written to; return it as a Path.

    An existing report there is replaced only with ``force`` (``discover report --force``, as ``learn``); an
    existing folder holding anything else, a file, or a parent that is a file or not writable is a ``ValueError``
    that says what to change.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     check_report_folder(os.path.join(tmp, "reports", "wythoff")).name
    'wythoff'
    """
    from cgbase.files import check_output_folder

    target = check_output_folder(folder, REPORT_MARKERS, "report folder")
    if not force and target.is_dir() and all((target / m).is_file() for m in REPORT_MARKERS):
        raise ValueError(f"{folder} holds an earlier report: give --force to replace it, or another --out")
    return target


def _reads_back(discovery: Discovery) -> bool:
    """Whether ``Discovery.from_record`` reads this discovery's record back (the engines' and the composition's)."""
    return discovery.road in (Road.ENGINES, Road.COMPOSITION) and discovery.sequence is None


def _build(discovery: Discovery, folder: Path, command: str | None) -> None:
    """Write every file of the report into ``folder`` (an empty temporary folder)."""
    from cgbase.files import write_text

    record = discovery.to_record()
    if discovery.game.source_file is not None:
        record["game_file"] = discovery.game.source_file
    if command is not None:
        record["command"] = command
    # drawn from its record where that reads back, so that the report is what its discovery.json gives again
    d = Discovery.from_record(record, discovery.game) if _reads_back(discovery) else discovery
    rule, who = _shown_rule(d)
    figures = partition_figures(d.game, rule, d.verify_bound, folder, who=who, through=_counterexample_position(d))
    grundy = (heap_values_figure(d.sequence, folder) if d.sequence is not None
              else grundy_figure(d.game, d.train_bound, folder))
    figures += [("figure", grundy)] if grundy is not None else []
    rule_record = None
    if d.rule is not None:
        rule_record = json.loads(d.rule.to_json())
        write_text(folder / "rule.json", _json_text(rule_record) + "\n")
    write_text(folder / "discovery.json", _json_text(record) + "\n")
    write_document(folder, _blocks(d, figures, rule_record, record), f"Rule report: {d.game.title()}")


def write_report(discovery: Discovery, folder=None, command: str | None = None) -> Path:
    """Write the report of a discovery: Markdown, HTML, PNG figures and JSON provenance.

    Parameters
    ----------
    discovery : Discovery
        What ``find_rule`` returned (a verified, refuted or empty discovery).
    folder : str or path-like, optional
        Target folder (default ``report_folder(discovery.game)``). An existing report there is
        replaced; an existing folder that is not a report is refused.
    command : str, optional
        The command line that made the report (``discover report ...``): stated in it and in ``discovery.json``.

    Returns
    -------
    pathlib.Path
        The folder written.

    Examples
    --------
    >>> import tempfile, os
    >>> from games import make_game
    >>> from discover.find import find_rule
    >>> found = find_rule(make_game("subtraction", subtract=(1, 3, 4)), games=10)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     sorted(os.listdir(write_report(found, os.path.join(tmp, "sub"))))  # doctest: +NORMALIZE_WHITESPACE
    ['discovery.json', 'exact.png', 'grundy.png', 'index.html', 'index.md', 'rule.json']
    """
    if not isinstance(discovery, Discovery):
        raise TypeError(f"write_report() takes the Discovery that find_rule returns, got {type(discovery).__name__}")
    from cgbase.files import atomic_folder

    target = folder if folder is not None else report_folder(discovery.game)
    with atomic_folder(target, REPORT_MARKERS, "report folder") as built:
        _build(discovery, built, command)
    return Path(target)
