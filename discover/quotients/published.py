"""The published misère quotient of 3 x 3 Notakto, and a quotient compared with it element by element.

Plambeck and Whitehead ("The secrets of Notakto: winning at X-only tic-tac-toe", 2013) found that sums of 3 x 3
boards have a misère quotient of 18 elements,

    Q = <a, b, c, d | a² = 1, b³ = b, b²c = c, c³ = ac², b²d = d, cd = ad, d² = c²>,  P = {a, b², bc, c²},

and listed the element of every live board up to symmetry (the boards not listed are the identity 1).
``PLAMBECK_WHITEHEAD`` holds that: the relations as rewriting rules on exponents of (a, b, c, d), the P-portion
and the boards of each element (rows top to bottom, ``x`` a mark).  ``compare_published(rule, boards)`` maps each
element of a computed quotient to the published element of the boards that have it and checks that the map is
well defined, multiplicative, one to one and onto, and carries P-portion onto P-portion.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

__all__ = ["PLAMBECK_WHITEHEAD", "published_monoid", "Comparison", "compare_published"]

# a rule (left exponents, right exponents) rewrites a word holding the left side: a^2 = 1, b^3 = b, b^2 c = c,
# c^3 = a c^2, b^2 d = d, c d = a d, d^2 = c^2
_RULES = (((2, 0, 0, 0), (0, 0, 0, 0)), ((0, 3, 0, 0), (0, 1, 0, 0)), ((0, 2, 1, 0), (0, 0, 1, 0)),
          ((0, 0, 3, 0), (1, 0, 2, 0)), ((0, 2, 0, 1), (0, 0, 0, 1)), ((0, 0, 1, 1), (1, 0, 0, 1)),
          ((0, 0, 0, 2), (0, 0, 2, 0)))

PLAMBECK_WHITEHEAD = {
    "generators": "abcd",
    "rules": _RULES,
    "order": 18,
    "p_portion": ("a", "b²", "bc", "c²"),
    "boards": {
        "a": ("x../.../..x", ".x./x../...", ".x./.../.x.", "xx./.../x..", "x.x/.x./...", "x.x/.../.x.", "x../.xx/...",
              "xx./xx./...", "xx./x.x/...", "xx./x../..x", "xx./.../.xx", "x.x/.../x.x", ".x./x.x/.x.", "xx./.xx/x..",
              "xx./..x/xx.", "xx./..x/x.x", "xx./x.x/.xx"),
        "ab": ("xx./.x./...", "x.x/.../x..", ".x./xx./...", "xx./..x/.x.", "xx./..x/..x"),
        "ad": ("xx./.../...",),
        "b": ("x.x/.../...", "x../.x./...", "x../..x/...", ".x./.x./...", "xx./x../...", ".x./x.x/...", "xx./.xx/...",
              "xx./.x./x..", "xx./..x/x..", "xx./.../xx.", "xx./.../x.x", "x.x/.x./.x.", "x../.xx/.x.", "xx./x.x/.x.",
              "xx./x.x/..x"),
        "c": (".../.../...",),
        "c²": (".../.x./...",),
        "d": ("xx./..x/...", "xx./.../.x.", "xx./.../..x"),
    },
}

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _normal(exponents) -> tuple:
    e = list(exponents)
    changed = True
    while changed:
        changed = False
        for left, right in _RULES:
            if all(x >= y for x, y in zip(e, left)):
                e = [x - y + z for x, y, z in zip(e, left, right)]
                changed = True
    return tuple(e)


def _name(exponents) -> str:
    word = "".join(g + ("" if k == 1 else str(k).translate(_SUPERSCRIPT)) for g, k in zip("abcd", exponents) if k)
    return word or "1"


def _parse(name: str) -> tuple:
    e = [0, 0, 0, 0]
    plain = name.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789"))
    for letter, power in _word_parts(plain):
        e["abcd".index(letter)] += power
    return _normal(e)


def _word_parts(word: str):
    i = 0
    while i < len(word):
        if word[i] == "1":
            i += 1
            continue
        j = i + 1
        while j < len(word) and word[j].isdigit():
            j += 1
        yield word[i], int(word[i + 1:j] or 1)
        i = j


def published_monoid() -> tuple[list, np.ndarray, np.ndarray]:
    """The published quotient: its elements (normal-form names), multiplication table and P-portion.

    Examples
    --------
    >>> names, table, p = published_monoid()
    >>> len(names), [names[x] for x in np.flatnonzero(p)], names[table[names.index("c"), names.index("d")]]
    (18, ['a', 'b²', 'bc', 'c²'], 'ad')
    """
    forms = {_normal(e) for e in itertools.product(range(3), range(4), range(4), range(3))}
    forms = sorted(forms, key=lambda e: (sum(e), e[::-1]))
    index = {e: i for i, e in enumerate(forms)}
    table = np.array([[index[_normal([x + y for x, y in zip(e, f)])] for f in forms] for e in forms], dtype=np.int64)
    p_portion = np.zeros(len(forms), dtype=bool)
    for name in PLAMBECK_WHITEHEAD["p_portion"]:
        p_portion[index[_parse(name)]] = True
    return [_name(e) for e in forms], table, p_portion


def _bits(rows: str) -> int:
    return sum(1 << i for i, ch in enumerate(rows.replace("/", "")) if ch == "x")


@dataclass
class Comparison:
    """A computed quotient against the published one: the element map and every disagreement."""

    order: int
    published_order: int
    p_size: int
    published_p_size: int
    mapping: dict = field(default_factory=dict)
    disagreements: list = field(default_factory=list)
    boards: int = 0

    @property
    def matches(self) -> bool:
        """True when the quotients are isomorphic by the boards' elements, P-portion onto P-portion."""
        return not self.disagreements

    def line(self) -> str:
        """One line in the project's wording."""
        if self.matches:
            return (f"matches Plambeck and Whitehead's quotient element by element: order {self.order}, P-portion of "
                    f"{self.p_size}, all {self.boards} live boards up to symmetry have the published element")
        return f"differs from Plambeck and Whitehead's quotient: {'; '.join(self.disagreements[:3])}"


def compare_published(rule, boards) -> Comparison:
    """Compare the quotient ``rule`` of 3 x 3 Notakto boards (``NotaktoBoards(3)``) with the published one.

    Each board's computed element is sent to its published element; the comparison fails where two boards with
    one computed element have different published ones, where the map does not respect products or P-portions,
    or where it is not one to one and onto.

    Examples
    --------
    >>> from discover.quotients.boards import NotaktoBoards
    >>> from discover.quotients.rule import quotient_rule
    >>> boards = NotaktoBoards(3)
    >>> print(compare_published(quotient_rule(boards), boards).line())  # doctest: +NORMALIZE_WHITESPACE
    matches Plambeck and Whitehead's quotient element by element: order 18, P-portion of 4, all 46 live boards
    up to symmetry have the published element
    """
    names, table, p_portion = published_monoid()
    listed = {boards.sum_of((_bits(rows),))[0]: name for name, group in PLAMBECK_WHITEHEAD["boards"].items()
              for rows in group}
    monoid = rule.monoid
    out = Comparison(monoid.order, len(names), int(monoid.p_portion.sum()), int(p_portion.sum()))
    out.boards = len(boards.ids())
    phi = {0: names.index("1")}
    for c in boards.ids():
        x, want = rule.element_of(c), names.index(listed.get(c, "1"))
        if phi.setdefault(x, want) != want:
            out.disagreements.append(f"{boards.label(c)} is {names[want]} but shares its element with a board "
                                     f"that is {names[phi[x]]}")
    changed = True
    while changed:  # extend the map to products of mapped elements
        changed = False
        for x, y in itertools.product(list(phi), repeat=2):
            z, want = int(monoid.table[x, y]), int(table[phi[x], phi[y]])
            if z not in phi:
                phi[z], changed = want, True
            elif phi[z] != want:
                out.disagreements.append(f"the map does not respect the product of elements {x} and {y}")
                changed = False
                break
    if sorted(phi.values()) != list(range(len(names))) or len(phi) != monoid.order:
        out.disagreements.append(f"the boards' elements do not map one to one onto the {len(names)} published elements")
    bad_p = [x for x, y in phi.items() if bool(monoid.p_portion[x]) != bool(p_portion[y])]
    if bad_p:
        out.disagreements.append(f"element {names[phi[bad_p[0]]]} is on the wrong side of the P-portion")
    out.mapping = {x: names[y] for x, y in sorted(phi.items())}
    return out
