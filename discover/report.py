"""Reports: a found rule, its trial and its figures written into ``reports/<game>/``.

``write_report(discovery)`` writes ``index.md`` (LaTeX for the rule, rendered by Markdown
viewers with math), ``index.html`` (self-contained: no script, no network; the rule's LaTeX
source in a ``<code>`` block beside its plain-text form, the figures as the PNG files next to
it), the figures (``exact.png``, ``rule.png``, ``disagreement.png``, ``grundy.png``),
``rule.json`` (read back by ``Rule.from_json``) and ``discovery.json`` (``Discovery.to_record()``).
The folder is built under a temporary name beside the target and renamed into place at the
end, so a report is either complete or absent.

Folder names (``report_folder``): the family name, then each parameter as ``name`` + ``value``
joined by ``-``, in the family's parameter order. Value parameters are always written (so
``nim-heaps3`` says how many heaps even though 3 is the default); a flag appears as its bare
name only when it is on (``wythoff-misere``), a tuple's members are joined by ``_``
(``subtraction-subtract1_3_4``). Characters other than letters, digits, ``.``, ``_`` and ``-``
become ``_``.
"""

from __future__ import annotations

import html
import json
import math
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from discover.figures import FIGURE_BOUND, FigureFile, grundy_figure, partition_figures
from discover.find import Discovery
from discover.plots import _umask

__all__ = ["check_report_folder", "report_folder", "write_report"]

CANDIDATES_SHOWN = 10  # as many as Discovery.to_record() keeps
REPORT_MARKERS = ("index.md", "discovery.json")  # an existing folder holding these is a report to replace


# -- folder names ----------------------------------------------------------------------------
def _slug_value(value) -> str:
    if isinstance(value, (list, tuple)):
        return "_".join(_slug_value(v) for v in value)
    return str(value)


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
    spec = game.spec()
    parts = [spec["name"]]
    for key, value in spec["params"].items():
        if isinstance(value, bool):
            if value:
                parts.append(key)
        else:
            parts.append(f"{key}{_slug_value(value)}")
    name = re.sub(r"[^A-Za-z0-9._-]", "_", "-".join(parts)).lstrip(".") or "game"
    return Path(root) / name


# -- document blocks, rendered to Markdown and to HTML -----------------------------------------
@dataclass
class _Code:
    text: str


@dataclass
class _Strong:
    text: str


@dataclass
class _Link:
    text: str
    href: str


def _segments(value) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _md_inline(value, in_table: bool = False) -> str:
    out = []
    for seg in _segments(value):
        if isinstance(seg, _Code):
            fence = "``" if "`" in seg.text else "`"
            text = f"{fence}{seg.text}{fence}"
        elif isinstance(seg, _Strong):
            text = f"**{_md_escape(seg.text)}**"
        elif isinstance(seg, _Link):
            text = f"[{_md_escape(seg.text)}]({seg.href})"
        else:
            text = _md_escape(str(seg))
        out.append(text.replace("|", r"\|").replace("\n", " ") if in_table else text)
    return "".join(out)


def _md_escape(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>#])", r"\\\1", text)


def _html_inline(value) -> str:
    out = []
    for seg in _segments(value):
        if isinstance(seg, _Code):
            out.append(f"<code>{html.escape(seg.text)}</code>")
        elif isinstance(seg, _Strong):
            out.append(f"<strong>{html.escape(seg.text)}</strong>")
        elif isinstance(seg, _Link):
            out.append(f'<a href="{html.escape(seg.href)}">{html.escape(seg.text)}</a>')
        else:
            out.append(html.escape(str(seg)))
    return "".join(out)


def _render_md(blocks) -> str:
    lines = []
    for kind, *args in blocks:
        if kind == "h":
            lines += ["#" * args[0] + " " + _md_inline(args[1]), ""]
        elif kind == "p":
            lines += [_md_inline(args[0]), ""]
        elif kind == "list":
            lines += [f"- {_md_inline(item)}" for item in args[0]] + [""]
        elif kind == "math":
            latex, text = args
            lines += ["$$", latex, "$$", "", "Plain text: " + _md_inline(_Code(text)), ""]
        elif kind == "table":
            headers, rows = args
            lines.append("| " + " | ".join(_md_inline(h, True) for h in headers) + " |")
            lines.append("|" + "|".join("---" for _ in headers) + "|")
            lines += ["| " + " | ".join(_md_inline(c, True) for c in row) + " |" for row in rows]
            lines.append("")
        elif kind == "figure":
            figure = args[0]
            lines += [f"![{_md_escape(figure.title)}]({figure.name})", "", f"*{_md_escape(figure.caption)}*", ""]
        elif kind == "json":
            summary, text = args
            lines += ["<details>", f"<summary>{html.escape(summary)}</summary>", "", "```json", text, "```", "",
                      "</details>", ""]
    return "\n".join(lines).rstrip() + "\n"


_STYLE = """body { font-family: system-ui, sans-serif; max-width: 72em; margin: 2em auto; padding: 0 1em;
  line-height: 1.45; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
code, pre { font-family: ui-monospace, monospace; background: #f6f6f6; }
pre { padding: 0.6em; overflow-x: auto; }
.rule { font-size: 1.3em; margin: 0.4em 0; }
figure { margin: 1em 0 2em; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-style: italic; color: #444; }"""


def _render_html(blocks, title: str) -> str:
    body = []
    for kind, *args in blocks:
        if kind == "h":
            body.append(f"<h{args[0]}>{_html_inline(args[1])}</h{args[0]}>")
        elif kind == "p":
            body.append(f"<p>{_html_inline(args[0])}</p>")
        elif kind == "list":
            body.append("<ul>" + "".join(f"<li>{_html_inline(item)}</li>" for item in args[0]) + "</ul>")
        elif kind == "math":
            latex, text = args
            body.append(f'<p class="rule">{html.escape(text)}</p>')
            body.append(f"<p>LaTeX source:</p><pre><code>{html.escape(latex)}</code></pre>")
        elif kind == "table":
            headers, rows = args
            head = "".join(f"<th>{_html_inline(h)}</th>" for h in headers)
            cells = "".join("<tr>" + "".join(f"<td>{_html_inline(c)}</td>" for c in row) + "</tr>" for row in rows)
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{cells}</tbody></table>")
        elif kind == "figure":
            figure = args[0]
            body.append(f'<figure><img src="{html.escape(figure.name)}" alt="{html.escape(figure.title)}">'
                        f"<figcaption>{html.escape(figure.caption)}</figcaption></figure>")
        elif kind == "json":
            summary, text = args
            body.append(f"<details><summary>{html.escape(summary)}</summary><pre><code>{html.escape(text)}"
                        "</code></pre></details>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>\n{_STYLE}\n</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


# -- content -----------------------------------------------------------------------------------
def _shown_rule(discovery: Discovery):
    """The rule the report is about, and how captions name it."""
    if discovery.rule is not None:
        return discovery.rule, "the rule"
    return discovery.best_partial, "the best candidate"


def _status_sentence(discovery: Discovery) -> list:
    d = discovery
    if d.status == "verified":
        passed = ", ".join(c.name for c in d.checks)
        text = (f" up to bound {d.verified_bound} (trained on bound {d.train_bound}): every check passed "
                f"({passed}).")
        return [_Strong("Status: verified"), text]
    if d.status == "refuted":
        failed = next((c for c in d.checks if not c.passed), None)
        what = f"failed the check '{failed.name}'" if failed else "failed its trial"
        return [_Strong("Status: refuted"),
                f": the best candidate exact on the training table (bound {d.train_bound}) {what} "
                f"at bound {d.verify_bound}."]
    return [_Strong("Status: no rule"),
            f": no engine proposed a rule exact on the training table (bound {d.train_bound}), "
            "so nothing was put on trial."]


def _words(rule, who: str) -> str:
    if rule.target == "grundy":
        sentence = (f"In words: {who} gives every position's Grundy value as {rule.text()}; "
                    "the P positions are those with value 0.")
    else:
        sentence = f"In words: {who} says the player to move loses (a P position) exactly when: {rule.text()}."
    return sentence + (f" The engine explains: {rule.words.rstrip('.')}." if rule.words else "")


def _percent(value) -> str:
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{100 * value:.2f}%"


def _counterexample(value) -> object:
    if not value:
        return ""
    return _Code(", ".join(f"{k}={tuple(v) if isinstance(v, list) else v}" for k, v in value.items()))


def _blocks(discovery: Discovery, figures: list[FigureFile], rule_json: str | None, record: str) -> list:
    d = discovery
    game = d.game
    rule, who = _shown_rule(d)
    blocks = [("h", 1, f"Rule report: {game!r}"), ("p", _status_sentence(d))]
    facts = [
        ["game: ", _Code(json.dumps(game.spec(), ensure_ascii=False))],
        f"training bound: {d.train_bound}",
        f"verification bound: {d.verify_bound}",
        f"verified bound: {d.verified_bound if d.verified_bound is not None else 'none'}",
    ]
    if rule is not None:
        prov = rule.provenance
        facts += [f"engine: {prov.get('engine', 'unknown')}", f"seed: {prov.get('seed', 'unknown')}",
                  f"target: {'P positions' if rule.target == 'P' else 'Grundy values'}",
                  f"toolkit version: {prov.get('version', 'unknown')}"]
    blocks.append(("list", facts))

    heading = {"the rule": "The rule" if d.status == "verified" else "The refuted rule",
               "the best candidate": "The best candidate (not exact on the training table)"}[who]
    blocks.append(("h", 2, heading))
    if rule is None:
        blocks.append(("p", "No engine proposed any candidate."))
    else:
        blocks += [("math", rule.latex(), rule.text()), ("p", _words(rule, who)),
                   ("p", f"Complexity {rule.complexity}, training accuracy {_percent(rule.train_accuracy)}.")]

    blocks.append(("h", 2, "Verification"))
    if d.checks:
        rows = [[c.name, "yes" if c.passed else "NO", c.detail, _counterexample(c.counterexample),
                 f"{c.seconds:.3f}"] for c in d.checks]
        blocks.append(("table", ["check", "passed", "detail", "counterexample", "seconds"], rows))
    else:
        blocks.append(("p", "No rule was put on trial."))

    blocks.append(("h", 2, "Figures"))
    drawn = min(d.verify_bound, FIGURE_BOUND)
    blocks.append(("p", f"The partitions are drawn at bound {drawn} (the verification bound, at most {FIGURE_BOUND}); "
                        f"the Grundy values, where the game has them, at the training bound {d.train_bound}."))
    blocks += [("figure", f) for f in figures]

    blocks.append(("h", 2, "Candidates"))
    if d.candidates:
        shown = d.candidates[:CANDIDATES_SHOWN]
        count = f"{len(d.candidates)} candidate" + ("s" if len(d.candidates) > 1 else "")
        more = f"; the first {len(shown)}" if len(shown) < len(d.candidates) else ""
        blocks.append(("p", f"The engines proposed {count}, ranked by training accuracy, then complexity{more}:"))
        rows = [[str(i), _Code(r.text()), r.provenance.get("engine", ""), str(r.complexity), _percent(r.train_accuracy)]
                for i, r in enumerate(shown, 1)]
        blocks.append(("table", ["rank", "rule", "engine", "complexity", "training accuracy"], rows))
    else:
        blocks.append(("p", "The engines proposed no candidate."))

    if d.timings:
        blocks += [("h", 2, "Timings"),
                   ("table", ["stage", "seconds"], [[k, f"{v:.3f}"] for k, v in d.timings.items()])]

    blocks.append(("h", 2, "Provenance"))
    files = ([_Link("rule.json", "rule.json"), " (Rule.to_json, read back by Rule.from_json) and "]
             if rule_json is not None else [])
    blocks.append(("p", ["Files: ", *files, _Link("discovery.json", "discovery.json"), " (Discovery.to_record)."]))
    if rule_json is not None:
        blocks.append(("json", "rule.json", rule_json))
    blocks.append(("json", "discovery.json", record))
    return blocks


# -- writing -----------------------------------------------------------------------------------
def check_report_folder(folder) -> Path:
    """Refuse, before any work, a folder a report cannot be written to; return it as a Path.

    An existing report there may be replaced; an existing folder holding anything else, a file,
    or a parent that is a file or not writable is a ``ValueError`` that says what to change.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     check_report_folder(os.path.join(tmp, "reports", "wythoff")).name
    'wythoff'
    """
    target = Path(folder)
    if target.exists():
        if not target.is_dir():
            raise ValueError(f"cannot write a report into {target}: it is a file; give a folder")
        entries = os.listdir(target)
        if entries and not all((target / m).is_file() for m in REPORT_MARKERS):
            raise ValueError(f"{target} exists and is not a report (no index.md and discovery.json): "
                             "give another folder or remove it")
    ancestor = target.absolute().parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise ValueError(f"cannot write a report under {ancestor}: it is a file")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise ValueError(f"cannot write a report under {ancestor}: the folder is not writable")
    return target


def _build(discovery: Discovery, folder: Path) -> None:
    """Write every file of the report into ``folder`` (an empty temporary folder)."""
    d = discovery
    rule, who = _shown_rule(d)
    figures = partition_figures(d.game, rule, d.verify_bound, folder, who=who)
    grundy = grundy_figure(d.game, d.train_bound, folder)
    figures += [grundy] if grundy is not None else []
    rule_json = None
    if d.rule is not None:
        rule_json = json.dumps(json.loads(d.rule.to_json()), indent=2, ensure_ascii=False)
        (folder / "rule.json").write_text(rule_json + "\n", encoding="utf-8")
    record = json.dumps(d.to_record(), indent=2, ensure_ascii=False)
    (folder / "discovery.json").write_text(record + "\n", encoding="utf-8")
    blocks = _blocks(d, figures, rule_json, record)
    (folder / "index.md").write_text(_render_md(blocks), encoding="utf-8")
    (folder / "index.html").write_text(_render_html(blocks, f"Rule report: {d.game!r}"), encoding="utf-8")


def _swap_in(built: Path, target: Path) -> None:
    """Rename the finished folder onto ``target``, replacing an old report only once the new one is whole."""
    if not target.exists():
        os.rename(built, target)
        return
    old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.old-"))
    os.rename(target, old / "report")
    try:
        os.rename(built, target)
    except BaseException:
        os.rename(old / "report", target)
        raise
    finally:
        shutil.rmtree(old, ignore_errors=True)


def write_report(discovery: Discovery, folder=None) -> Path:
    """Write the report of a discovery: Markdown, HTML, PNG figures and JSON provenance.

    Parameters
    ----------
    discovery : Discovery
        What ``find_rule`` returned (a verified, refuted or empty discovery).
    folder : str or path-like, optional
        Target folder (default ``report_folder(discovery.game)``). An existing report there is
        replaced; an existing folder that is not a report is refused.

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
    ['disagreement.png', 'discovery.json', 'exact.png', 'grundy.png', 'index.html', 'index.md',
     'rule.json', 'rule.png']
    """
    if not isinstance(discovery, Discovery):
        raise TypeError(f"write_report() takes the Discovery that find_rule returns, got {type(discovery).__name__}")
    target = check_report_folder(folder if folder is not None else report_folder(discovery.game))
    target.parent.mkdir(parents=True, exist_ok=True)
    built = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.partial-"))
    try:
        _build(discovery, built)
        os.chmod(built, 0o777 & ~_umask())
        _swap_in(built, target)
    except BaseException:
        shutil.rmtree(built, ignore_errors=True)
        raise
    return target
