"""Documents as a list of blocks, rendered to Markdown and to self-contained HTML (no script, no network).

A block is a tuple: ``("h", level, text)``, ``("p", text)``, ``("list", [text, ...])``,
``("math", latex, plain_text[, mathml])`` (MathML typesets the formula in the HTML), ``("table", headers, rows)``, ``("figure", FigureFile)``,
``("pre", text)`` (preformatted) or ``("json", summary, text)`` (folded). Text is a string or a list
of strings and ``Code``, ``Strong`` and ``Link`` segments. Every report of the toolkit (rules,
experiments) is written this way: ``index.md`` and ``index.html`` from the same blocks.

Examples
--------
>>> print(render_markdown([("h", 1, "Nim"), ("p", ["P iff ", Code("a ^ b = 0")])]), end="")
# Nim
<BLANKLINE>
P iff `a ^ b = 0`
"""

from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass

__all__ = ["Code", "Strong", "Link", "FigureFile", "render_markdown", "render_html", "write_document"]


@dataclass
class FigureFile:
    """A figure of a document: its file name (next to ``index.md``), a title and a caption."""

    name: str
    title: str
    caption: str


@dataclass
class Code:
    text: str


@dataclass
class Strong:
    text: str


@dataclass
class Link:
    text: str
    href: str


def _segments(value) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _md_inline(value, in_table: bool = False) -> str:
    out = []
    for seg in _segments(value):
        if isinstance(seg, Code):
            fence = "``" if "`" in seg.text else "`"
            text = f"{fence}{seg.text}{fence}"
        elif isinstance(seg, Strong):
            text = f"**{_md_escape(seg.text)}**"
        elif isinstance(seg, Link):
            text = f"[{_md_escape(seg.text)}]({seg.href})"
        else:
            text = _md_escape(str(seg))
        out.append(text.replace("|", r"\|").replace("\n", " ") if in_table else text)
    return "".join(out)


def _md_escape(text: str) -> str:
    r"""Markdown's markup characters escaped where they would act: an underscore inside a word
    (``eval_games``) and brackets not followed by a link target stay as they are.

    >>> _md_escape("fit {'eval_games': 100}, CI [0.1, 0.2], *bold*, [x](y), _a_")
    "fit {'eval_games': 100}, CI [0.1, 0.2], \\*bold\\*, [x\\](y), \\_a\\_"
    """
    text = re.sub(r"([\\`*<>#])", r"\\\1", text)
    text = re.sub(r"(?<!\w)_|_(?!\w)", r"\\_", text)
    return re.sub(r"\](?=[(\[:])", r"\\]", text)


def _html_inline(value) -> str:
    out = []
    for seg in _segments(value):
        if isinstance(seg, Code):
            out.append(f"<code>{html.escape(seg.text)}</code>")
        elif isinstance(seg, Strong):
            out.append(f"<strong>{html.escape(seg.text)}</strong>")
        elif isinstance(seg, Link):
            out.append(f'<a href="{html.escape(seg.href)}">{html.escape(seg.text)}</a>')
        else:
            out.append(html.escape(str(seg)))
    return "".join(out)


def render_markdown(blocks) -> str:
    lines = []
    for kind, *args in blocks:
        if kind == "h":
            lines += ["#" * args[0] + " " + _md_inline(args[1]), ""]
        elif kind == "p":
            lines += [_md_inline(args[0]), ""]
        elif kind == "list":
            lines += [f"- {_md_inline(item)}" for item in args[0]] + [""]
        elif kind == "math":
            latex, text = args[:2]
            lines += ["$$", latex, "$$", "", "Plain text: " + _md_inline(Code(text)), ""]
        elif kind == "table":
            headers, rows = args
            lines.append("| " + " | ".join(_md_inline(h, True) for h in headers) + " |")
            lines.append("|" + "|".join("---" for _ in headers) + "|")
            lines += ["| " + " | ".join(_md_inline(c, True) for c in row) + " |" for row in rows]
            lines.append("")
        elif kind == "figure":
            figure = args[0]
            lines += [f"![{_md_escape(figure.title)}]({figure.name})", "", f"*{_md_escape(figure.caption)}*", ""]
        elif kind == "pre":
            lines += ["```", args[0], "```", ""]
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


def render_html(blocks, title: str) -> str:
    body = []
    for kind, *args in blocks:
        if kind == "h":
            body.append(f"<h{args[0]}>{_html_inline(args[1])}</h{args[0]}>")
        elif kind == "p":
            body.append(f"<p>{_html_inline(args[0])}</p>")
        elif kind == "list":
            body.append("<ul>" + "".join(f"<li>{_html_inline(item)}</li>" for item in args[0]) + "</ul>")
        elif kind == "math":
            latex, text, mathml = (*args, None)[:3]
            if mathml:
                body.append(f'<div class="rule"><math display="block">{mathml}</math></div>')
                body.append(f"<p>Plain text: <code>{html.escape(text)}</code></p>")
            else:
                body.append(f'<p class="rule">{html.escape(text)}</p>')
            body.append(f"<details><summary>LaTeX source</summary><pre><code>{html.escape(latex)}</code></pre></details>")
        elif kind == "table":
            headers, rows = args
            head = "".join(f"<th>{_html_inline(h)}</th>" for h in headers)
            thead = f"<thead><tr>{head}</tr></thead>" if any(headers) else ""  # a table of facts: no header row
            cells = "".join("<tr>" + "".join(f"<td>{_html_inline(c)}</td>" for c in row) + "</tr>" for row in rows)
            body.append(f"<table>{thead}<tbody>{cells}</tbody></table>")
        elif kind == "figure":
            figure = args[0]
            body.append(f'<figure><img src="{html.escape(figure.name)}" alt="{html.escape(figure.title)}">'
                        f"<figcaption>{html.escape(figure.caption)}</figcaption></figure>")
        elif kind == "pre":
            body.append(f"<pre><code>{html.escape(args[0])}</code></pre>")
        elif kind == "json":
            summary, text = args
            body.append(f"<details><summary>{html.escape(summary)}</summary><pre><code>{html.escape(text)}"
                        "</code></pre></details>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>\n{_STYLE}\n</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def write_document(folder, blocks, title: str) -> None:
    """Write ``index.md`` and ``index.html`` of ``blocks`` into ``folder``."""
    from cgbase.files import write_text

    write_text(os.path.join(folder, "index.md"), render_markdown(blocks))
    write_text(os.path.join(folder, "index.html"), render_html(blocks, title))
