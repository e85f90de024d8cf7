"""A heap game's quotient checked by brute force on every sum of heaps up to a number of tokens.

Independent of how the quotient was found (and of ``check_sums``'s few large heaps), two checks read only the
exact outcomes of the sum solver (``solvers.heap_sums``):

- ``check_token_sums(rule, solver, tokens)``: the rule's prediction on *every* sum of heaps holding at most
  ``tokens`` tokens in all (every partition of every n <= tokens), against the solver;
- ``outcome_classes(rule, solver, a, b)``: the sums of at most ``a`` tokens classed by their outcomes beside every
  sum of at most ``b`` tokens.  A class count is a lower bound on the order of the quotient found from the
  solver alone; and no element of the quotient may have its sums in two classes (the quotient would then merge
  two distinguishable sums: it would be false).  A class holding two elements only says that the tests were too
  small to tell them apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from discover.quotients.check import Verdict

__all__ = ["token_sums", "TokenCheck", "check_token_sums", "OutcomeClasses", "outcome_classes"]


def token_sums(tokens: int, largest: int | None = None) -> list[tuple[int, ...]]:
    """Every sum of heaps (largest first) holding at most ``tokens`` tokens, the empty sum first; with ``largest``,
    only those whose heaps hold at most ``largest`` each.

    Examples
    --------
    >>> token_sums(3)
    [(), (1,), (2,), (1, 1), (3,), (2, 1), (1, 1, 1)]
    >>> token_sums(3, largest=1)
    [(), (1,), (1, 1), (1, 1, 1)]
    """
    for name, value in (("tokens", tokens), ("largest", 0 if largest is None else largest)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{name} must be an integer >= 0, got {value!r}")
    cap = tokens if largest is None else largest

    def parts(n: int, most: int):
        if n == 0:
            yield ()
            return
        for k in range(min(n, most), 0, -1):
            for rest in parts(n - k, k):
                yield (k,) + rest

    return [p for n in range(tokens + 1) for p in parts(n, min(n, cap))]


def _outcomes(solver, sums) -> dict:
    found = {(): 1}  # no move: the player to move wins in misère play
    rest = [s for s in sums if s]
    if rest:
        found.update(zip(rest, solver.outcome(rest).tolist()))
    return found


@dataclass
class TokenCheck(Verdict):
    """The result of ``check_token_sums``: sums compared and the first disagreement (None if none)."""

    sums: int
    tokens: int
    disagreement: tuple | None
    largest: int | None = None
    against = " with the solver"

    def where(self) -> str:
        """Where it checked."""
        each = "" if self.largest is None else f", each heap at most {self.largest}"
        return f"every sum of heaps of at most {self.tokens} tokens in all{each} ({self.sums:,} sums)"


def check_token_sums(rule, solver, tokens: int, largest: int | None = None) -> TokenCheck:
    """Compare ``rule.is_p`` with ``solver`` (a ``HeapSums``) on every sum of at most ``tokens`` tokens (of heaps
    of at most ``largest`` each, when given: the heaps a quotient without a proved period decides).

    Examples
    --------
    >>> from games import make_game
    >>> from solvers.heap_sums import HeapSums
    >>> from discover.quotients import HeapComponents, quotient_rule
    >>> game = make_game("octal", code="0.77", misere=True)
    >>> rule = quotient_rule(HeapComponents(game, heaps=8))
    >>> check_token_sums(rule, HeapSums(game), 8).line()
    'verified on every sum of heaps of at most 8 tokens in all (67 sums)'
    >>> check_token_sums(rule, HeapSums(game), 12, largest=8).line()
    'verified on every sum of heaps of at most 12 tokens in all, each heap at most 8 (258 sums)'
    """
    sums = token_sums(tokens, largest)
    truth = _outcomes(solver, sums)
    bad = next((s for s in sums if rule.is_p(s) != (truth[s] == -1)), None)
    return TokenCheck(len(sums), tokens, bad, largest)


@dataclass
class OutcomeClasses:
    """Sums of at most ``a`` tokens classed by their outcomes beside every sum of at most ``b`` tokens."""

    a: int
    b: int
    sums: int
    classes: int
    elements: int
    split: list

    @property
    def passed(self) -> bool:
        """True when no element of the quotient has its sums in two classes."""
        return not self.split

    def line(self) -> str:
        """One line: the class count beside the elements those sums have."""
        head = (f"sums of at most {self.a} tokens fall in {self.classes} classes by their outcomes beside every sum "
                f"of at most {self.b} tokens; the quotient gives them {self.elements} elements")
        if self.split:
            return head + f"; elements split by the solver (the quotient is false): {self.split}"
        return head + "; no element split"


def outcome_classes(rule, solver, a: int, b: int) -> OutcomeClasses:
    """Class the sums of at most ``a`` tokens by their outcomes beside every sum of at most ``b`` tokens.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers.heap_sums import HeapSums
    >>> from discover.quotients import HeapComponents, quotient_rule
    >>> game = make_game("octal", code="0.77", misere=True)
    >>> rule = quotient_rule(HeapComponents(game, heaps=8))
    >>> found = outcome_classes(rule, HeapSums(game), 4, 4)
    >>> found.classes, found.elements, found.passed
    (5, 5, True)
    """
    left, tests = token_sums(a), token_sums(b)
    truth = _outcomes(solver, token_sums(a + b))
    signature: dict = {}
    for s in left:
        key = bytes(truth[tuple(sorted(s + x, reverse=True))] == -1 for x in tests)
        signature.setdefault(key, set()).add(rule.product(s))
    seen: dict = {}
    for elements in signature.values():
        for e in elements:
            seen[e] = seen.get(e, 0) + 1
    split = sorted(e for e, count in seen.items() if count > 1)
    return OutcomeClasses(a, b, len(left), len(signature), len(seen), split)
