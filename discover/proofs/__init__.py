"""Proofs that a rule holds for every position, not only on a checked bound.

``periodicity``: the periodicity theorems of octal and subtraction games (Guy and Smith; a repeated
window of max(S) values), each hypothesis checked on computed values.
"""
