"""When no rule survives: one short paragraph (the best partial candidate, how it fared, what to try next).

The full record (every candidate, every check, the counterexamples) stays in ``discover GAME --json``; the
paragraph names the candidate with its long sets shortened (``{0, 3, 8, …, 314} (103 values)``).
"""

from __future__ import annotations

import re

from discover import defaults
from discover.engines import ENGINES

__all__ = ["no_rule_paragraph", "shorten_rule_text"]

SHOWN_MEMBERS = 4  # members of a long set shown before the ellipsis
TEXT_LIMIT = 100  # characters of a candidate's text in the paragraph


def shorten_rule_text(text: str, limit: int = TEXT_LIMIT) -> str:
    """A rule's text with every set of more than ``SHOWN_MEMBERS + 1`` members shortened, then cut at ``limit``.

    Examples
    --------
    >>> shorten_rule_text("a ≥ 316 or a ∈ {0, 3, 8, 11, 14, 18, 21}")
    'a ≥ 316 or a ∈ {0, 3, 8, 11, …, 21} (7 values)'
    >>> shorten_rule_text("a mod 3 = 0")
    'a mod 3 = 0'
    """
    def shorten(match) -> str:
        members = [m.strip() for m in match.group(1).split(",")]
        if len(members) <= SHOWN_MEMBERS + 1:
            return match.group(0)
        return "{" + ", ".join(members[:SHOWN_MEMBERS]) + f", …, {members[-1]}}} ({len(members):,} values)"

    short = re.sub(r"\{([^{}]*)\}", shorten, text)
    return short if len(short) <= limit else short[:limit - 1].rstrip() + "…"


def no_rule_paragraph(found, record: str = "--json") -> str:
    """One paragraph for a ``discover.discovery.Discovery`` with no verified rule: what came closest, what to try, and
    where the full ``record`` is (``--json`` on the command line, ``discovery.json`` beside a report).

    Examples
    --------
    >>> from discover.find import find_rule
    >>> from games import make_game
    >>> found = find_rule(make_game("grundy_game"), bound=30, engines=["decision_list"])
    >>> print(no_rule_paragraph(found))  # doctest: +ELLIPSIS
    No rule found. The best partial candidate, “...” (by decision_list, complexity ...), fits ...% of the training table. Try a larger --bound (now 30), other --engines (tried decision_list; there are also ...), or features that carry the rule (a Game subclass in a --game-file whose features() add a column). The full record: --json.
    """
    head = "No rule found." if found.out_of_time is None else f"None within {found.budget:g} s: {found.out_of_time}."
    sequence = found.sequence
    if sequence is not None and found.rule is None:
        statement = sequence.statement[:1].upper() + sequence.statement[1:]
        return (f"{head} {statement}. Try a larger --heaps or --seconds (now {sequence.heaps:,} heaps "
                f"in {sequence.seconds:.1f} s), or --bound N to train the engines on a table instead. "
                f"The full record: {record}.")
    parts = [head]
    if found.status == "refuted" and found.rule is not None:
        failed = next((c for c in found.checks if not c.passed), None)
        why = f"failed {failed.name}: {failed.detail}" if failed is not None else "failed its checks"
        where = _counterexample(failed)
        parts.append(f"The best candidate, {_named(found.rule)}, fits {found.rule.train_accuracy:.1%} of the "
                     f"training table but {why}{where}.")
    elif found.best_partial is not None:
        best = found.best_partial
        parts.append(f"The best partial candidate, {_named(best)}, fits {best.train_accuracy:.1%} of the training "
                     "table.")
    else:
        parts.append("No engine proposed a candidate.")
    if found.out_of_time is not None:
        parts.append("Try a larger --seconds.")
    if found.train_bound is not None:
        parts.append(f"Try a larger --bound (now {found.train_bound:,}), {_engines_hint(found)}, or features that "
                     "carry the rule (a Game subclass in a --game-file whose features() add a column).")
    parts.append(f"The full record: {record}.")
    return " ".join(parts)


def _named(rule) -> str:
    return f"“{shorten_rule_text(rule.text())}” (by {rule.provenance.get('engine')}, complexity {rule.complexity})"


def _counterexample(check) -> str:
    example = getattr(check, "counterexample", None)
    if not isinstance(example, dict) or "position" not in example:
        return ""
    position = example["position"]
    if isinstance(position, (list, tuple)) and len(position) != 1:
        return f", first at ({', '.join(str(x) for x in position)})"
    return f", first at {position[0] if isinstance(position, (list, tuple)) else position}"


def _engines_hint(found) -> str:
    tried = [key.removeprefix("engine ") for key in found.timings if key.startswith("engine ")]
    others = [name for name in (*defaults.ENGINES.engines, *ENGINES) if name not in tried]
    others = list(dict.fromkeys(others))
    if not tried:
        return "other --engines"
    also = f"; there are also {', '.join(others)}" if others else ""
    return f"other --engines (tried {', '.join(tried)}{also})"
