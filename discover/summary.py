"""A discovery in words: the lines ``discover GAME`` prints (``summary_lines``, each with its terminal style),
and the same text for a Python user (``summary_text``, which ``Discovery.summary()`` returns).

A verified rule comes with its strategy, proof and checks; otherwise one paragraph says what came closest and
what to try (``discover.no_rule``).
"""

from __future__ import annotations

from discover.learned import learned_table_text
from discover.no_rule import no_rule_paragraph
from discover.relation_inference import relation_line
from discover.timings import with_other
from discover.verdicts import ProofStatus, Road, Status

__all__ = ["summary_lines", "summary_text", "rule_line"]


def rule_line(rule) -> str:
    """A rule as a statement: "P iff ...", "P positions: if ..." or "Grundy values: ..." (a misère quotient: the
    product of the components' elements in its P-portion).

    Examples
    --------
    >>> import sympy as sp
    >>> from discover.rule import Rule
    >>> rule_line(Rule(sp.Eq(sp.Mod(sp.Symbol("n"), 3), 0), ("n",)))
    'P iff n mod 3 = 0'
    """
    if not hasattr(rule, "expr"):  # a QuotientRule
        return f"P iff the product of the components' elements lies in the P-portion (order {rule.monoid.order})"
    text = rule.text()
    label = "Grundy values:" if rule.target == "grundy" else ("P positions:" if text.startswith("if ") else "P iff")
    return f"{label} {text}"


def summary_lines(found) -> list[tuple[str, str | None]]:
    """The summary of a ``discover.discovery.Discovery`` as ``(text, style)`` pairs: one piece of output each (a text may
    hold line breaks), ``style`` a rich style ("bold", "dim", ...) for a terminal, or None.

    Examples
    --------
    >>> from discover.find import find_rule
    >>> from games import make_game
    >>> lines = summary_lines(find_rule(make_game("subtraction", subtract=(1, 2))))
    >>> lines[2]
    ('\\nRule (verified on bound 300; proved for every position):', 'bold green')
    """
    if found.road == Road.QUOTIENT:
        from discover.quotients.summary import quotient_lines

        return quotient_lines(found.quotient)
    if found.road == Road.BOARD_QUOTIENT:
        from discover.quotients.summary import board_quotient_lines

        return board_quotient_lines(found.quotient)
    out = []

    def line(text: str, style: str | None = None) -> None:
        out.append((text, style))

    line(f"{found.game!r}", "bold")
    sequence = found.sequence
    if sequence is not None:
        verified = f"; verification bound {found.verify_bound:,}" if found.checks else ""
        line(f"Grundy values of {sequence.heaps:,} heaps computed by the take-and-break engine in "
             f"{sequence.seconds:.2f} s{verified}")
    elif found.train_bound is not None:
        where = "the solver's table" if found.source == "solver" else f"a learned table ({found.source})"
        line(f"trained on {where} at bound {found.train_bound:,}; verification bound {found.verify_bound:,}")
    moves = relation_line(found.game)
    if moves is not None:
        line(f"moves: {moves}")
    rule, proof = found.rule, found.proof
    if found.status != Status.VERIFIED:
        line("")
        line(no_rule_paragraph(found), "yellow")
        _notes(found, line)
        return out
    proved = f"; proved {proof.statement}" if proof is not None and proof.status == ProofStatus.PROVED else ""
    line(f"\nRule (verified on bound {found.verified_bound:,}{proved}):", "bold green")
    if rule.words:
        line(f"  {rule.words}")
    line(f"  {rule_line(rule)}")
    if found.general is not None:
        line(f"  {found.general.line()}")
    if rule.target == "grundy" and len(rule.feature_names) == 1:
        line("  sums of heaps: P iff G(n₁) ⊕ G(n₂) ⊕ ... = 0")
    if "GoldenRatio" in str(rule.expr):
        line("  where φ = (1 + √5)/2, the golden ratio")
    line(f"  LaTeX: {rule.latex()}")
    line(f"  found by {rule.provenance.get('engine')}, complexity {rule.complexity}, "
         f"training accuracy {rule.train_accuracy:.1%}")
    if "learned" in rule.provenance:
        line(f"  {learned_table_text(rule.provenance['learned'])}")
    if found.strategy is not None:
        line(f"\nStrategy: {found.strategy.text()}", "bold")
        line(f"  a winning move from every N position up to bound {found.strategy.checked_bound:,} (checked)")
        played = found.strategy_check
        if played is not None and not played.passed:
            line(f"  {played.line()}: the strategy fails (the rule is judged apart; the proof does not use it)",
                 "bold red")
    if proof is not None:
        style = {"proved": "bold green", "disproved": "bold red"}.get(proof.status, "bold yellow")
        line(f"\n{proof.line()}", style)
        if proof.status == ProofStatus.PROVED and proof.reason:
            line(f"  because: {proof.reason}")
    _notes(found, line)
    line("\nVerification", "bold")
    for check in found.checks:
        line(f"  {check.line()}  ({check.seconds:.2f} s)")
    others = [r for r in found.candidates if str(r.expr) != str(rule.expr)][:4]
    if others:
        line("\nOther candidates", "bold")
        for r in others:
            line(f"  {r.train_accuracy:6.1%}  c={r.complexity:<3} {r.text()}  [{r.provenance.get('engine')}]")
    line("\nTimings: " + ", ".join(f"{k} {v:.2f} s" for k, v in with_other(found.timings).items()), "dim")
    return out


def summary_text(found) -> str:
    """The summary of a discovery as plain text: what ``discover GAME`` prints in a pipe.

    Examples
    --------
    >>> from discover.find import find_rule
    >>> from games import make_game
    >>> "  P iff n mod 3 = 0" in summary_text(find_rule(make_game("subtraction", subtract=(1, 2)))).splitlines()
    True
    """
    return "\n".join(text for text, _ in summary_lines(found))


def _notes(found, line) -> None:
    if found.notes:
        line("\nNotes", "bold")
        for note in found.notes:
            line(f"  {note}")
