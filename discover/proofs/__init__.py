"""Proofs that a rule holds for every position, not only on a checked bound.

``prove`` (``prove_rule`` -> ``Proof``: proved, disproved or unknown, never "proved" otherwise) tries the theorems
whose hypotheses are checked by code (``periodicity``: octal and subtraction games, Guy and Smith and a repeated
window of max(S) values; ``beatty``: complementary mex pairs; ``moore``: Moore's Nim_k; ``misere_nim``: Bouton's
misère Nim; ``euclid``: Cole and Davie's Euclid's game; decision lists read by ``decision_form``) and the closure
certificate in z3 (``certificate``, ``smt``, ``moves_smt``: unbounded integers, or bit-vectors of a stated width;
imported only when no theorem applies).
"""
