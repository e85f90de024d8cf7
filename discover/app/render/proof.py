"""The report's "Strategy and proof" section: the winning-move strategy and the proof attempt of a rule.

"Verified on bound B" (the Verification section) and "proved for every position" (here) are kept apart: a
proof names its method and statement; "unknown" says why; "disproved" gives the counterexample.
"""

from __future__ import annotations

from discover.app.render.document import Code
from discover.move_chooser import MoveChooser

__all__ = ["strategy_and_proof_blocks"]


def strategy_and_proof_blocks(discovery) -> list:
    """Report blocks (heading, paragraphs, a table of the certificate's parts) for a discovery's strategy and proof.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> strategy_and_proof_blocks(SimpleNamespace(status="none", strategy=None, proof=None))
    []
    """
    strategy, proof = discovery.strategy, discovery.proof
    if discovery.status != "verified" or (strategy is None and proof is None):
        return []
    blocks = [("h", 2, "Strategy and proof")]
    played = getattr(discovery, "strategy_check", None)
    if strategy is not None and played is not None and not played.passed:
        blocks += [("p", ["Strategy found for the rule: ", Code(strategy.text())]),
                   ("p", f"It failed its own self-play ({played.detail}): the strategy is wrong or weak, not the "
                         "rule, which passed its checks; the proof below does not use it.")]
    elif isinstance(strategy, MoveChooser):
        blocks += [("p", ["No winning-move formula was found within the search's budget. Strategy, a move chooser "
                          "(no formula): ", Code(strategy.text()), "."]),
                   ("p", f"Checked on every N position up to bound {strategy.checked_bound:,} (each has an option "
                         f"the rule calls P); the hypothesis agent plays it in the strategy self-play check, and no "
                         f"proof uses it.")]
    elif strategy is not None:
        blocks += [("p", "Strategy, a move into a P position from every N position:"),
                   ("math", strategy.latex(), strategy.text()),
                   ("p", f"Checked on every N position up to bound {strategy.checked_bound:,}; the hypothesis agent "
                         f"plays it in the strategy self-play check.")]
    elif discovery.rule is not None and discovery.rule.target == "P":
        blocks.append(("p", "No winning-move strategy was found within the search's budget; the hypothesis agent "
                            "plays any move into a position the rule calls P."))
    if proof is None:
        return blocks
    if proof.status == "proved":
        blocks.append(("p", [f"Proved {proof.statement}, by {proof.method}, in {proof.seconds:.2f} s."
                             + (f" Why: {proof.reason}." if proof.reason else "")]))
    elif proof.status == "disproved":
        blocks.append(("p", [f"Disproved by {proof.method}: counterexample ", Code(str(proof.counterexample)),
                             " (the rule holds on the verified bound only)."]))
    else:
        blocks.append(("p", f"No proof: {proof.reason}. The rule stays verified on bound {discovery.verified_bound:,} "
                            "only (\"unknown\" is never a proof, nor a disproof)."))
    if proof.parts:
        rows = [[p.name, p.result, f"{p.seconds:.3f}"] for p in proof.parts]
        blocks.append(("table", ["part of the certificate", "result", "seconds"], rows))
    return blocks
