"""The expression language of rules: node types, one dispatching walker, and its backends.

A rule is a sympy expression (``discover.rule.Rule.expr``, the one source of truth); everything else is
derived from it by a backend, one method per node type of the table ``nodes.NODES``:

- numpy: ``numeric.NumpyCompiler``, exact vectorised evaluation (``evaluate``, ``compile_expr``);
- z3: ``smt.SmtTranslator``, terms over integers or bit-vectors for the proofs;
- intervals: ``intervals.IntervalAnalysis``, bounds of every subterm (``value_range``: bit-vector widths);
- text: ``text.TextPrinter``, a ⊕ b ⊕ c = 0 (``rule_text``);
- LaTeX: ``latex.LatexRulePrinter``, a \\oplus b \\oplus c = 0 (``rule_latex``);
- MathML: ``mathml.MathMLRulePrinter``, presentation markup for HTML reports (``rule_mathml``);
- JSON: ``tree.TreeWriter`` and ``tree.TreeReader``, ``["Equality", ...]`` trees and back.

Beside them: ``exact`` (floor(c·x) in integers, ``split_scale``), ``features`` (the derived
features and their expansion), ``parse`` (rule text read against the table's names) and
``periodic`` (text and LaTeX of a periodic table of values).

To add a node type: its sympy class (defined in ``nodes.py`` if sympy lacks it) in ``nodes.NODES``,
then one method per backend, ``_walk_<Node>`` in ``numeric.py``, ``smt.py``, ``intervals.py`` and
``tree.py`` (``TreeWriter``), ``_read_<Node>`` in ``tree.py`` (``TreeReader``), and ``_print_<Node>``
in ``text.py``, ``latex.py`` and ``mathml.py`` where sympy's own printer does not already write it.
``tests/discover/expr/test_coverage.py`` fails until every backend has it (``walker.missing``).
"""

__all__: list[str] = []
