"""A presentation of a finite commutative monoid by generators and relations, and names for its elements.

Generators are taken in the order the components come (a component's element is a new generator when the
earlier generators do not reach it); every element gets its *normal form*, the least word of generators
reaching it (fewest letters, then the earliest generators most), found breadth first.  Normal forms are closed
under taking sub-words, so the words that are not normal are those containing a *minimal* non-normal word,
which is a normal form times one generator: the relations "minimal non-normal word = its normal form's word"
present the monoid, and rewrite any word to its normal form.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

import numpy as np

from discover.quotients.monoid import BipartiteMonoid

__all__ = ["Presentation", "presentation"]

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


@dataclass
class Presentation:
    """Generators (their elements), each element's normal form (exponents) and the relations (lhs, rhs)."""

    names: list
    generators: list
    normal: list
    relations: list

    def word(self, exponents, style: str = "text") -> str:
        """A word in generator letters: ``"ab²"`` (text), ``"a b^{2}"`` (LaTeX), ``"1"`` for none.

        Examples
        --------
        >>> t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))
        >>> presentation(t2, [1]).word((2,))
        'a²'
        """
        parts = []
        for name, k in zip(self.names, exponents):
            if k == 0:
                continue
            if style == "latex":
                parts.append(name if k == 1 else f"{name}^{{{k}}}")
            elif style == "mathml":
                parts.append(f"<mi>{name}</mi>" if k == 1 else f"<msup><mi>{name}</mi><mn>{k}</mn></msup>")
            else:
                parts.append(name + ("" if k == 1 else str(k).translate(_SUPERSCRIPT)))
        if not parts:
            return "<mn>1</mn>" if style == "mathml" else "1"
        return (" " if style == "latex" else "").join(parts)

    def element_name(self, x: int, style: str = "text") -> str:
        """The normal form of element ``x``."""
        return self.word(self.normal[x], style)

    def text(self, style: str = "text") -> str:
        """``⟨a, b | a² = 1, b³ = b⟩`` (or its LaTeX / MathML).

        Examples
        --------
        >>> t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))
        >>> presentation(t2, [1]).text(), presentation(t2, [1]).text("latex")
        ('⟨a | a² = 1⟩', '\\\\langle a \\\\mid a^{2} = 1 \\\\rangle')
        """
        rels = [f"{self.word(l, style)} = {self.word(r, style)}" for l, r in self.relations]
        if style == "latex":
            return rf"\langle {', '.join(self.names)} \mid {', '.join(rels)} \rangle"
        if style == "mathml":
            gens = "<mo>,</mo>".join(f"<mi>{n}</mi>" for n in self.names)
            body = "<mo>,</mo>".join(f"<mrow>{self.word(l, style)}<mo>=</mo>{self.word(r, style)}</mrow>"
                                     for l, r in self.relations)
            return f"<math><mo>⟨</mo>{gens}<mo>|</mo>{body}<mo>⟩</mo></math>"
        return f"⟨{', '.join(self.names)} | {', '.join(rels)}⟩" if rels else f"⟨{', '.join(self.names)}⟩"


def _letters(k: int) -> list:
    return list(string.ascii_lowercase[:k]) if k <= 26 else [f"g{i + 1}" for i in range(k)]


def _less(w: tuple, j: int) -> tuple:
    return w[:j] + (w[j] - 1,) + w[j + 1:]


def presentation(monoid: BipartiteMonoid, component_elements) -> Presentation:
    """Generators from ``component_elements`` (in order), normal forms and relations of ``monoid``.

    Raises
    ------
    ValueError
        If the components' elements do not generate the monoid.

    Examples
    --------
    >>> t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))
    >>> p = presentation(t2, [1, 0, 1])
    >>> p.generators, p.normal, p.relations
    ([1], [(0,), (1,)], [((2,), (0,))])
    """
    table = monoid.table
    gens: list = []
    reached = {0}
    for x in component_elements:
        x = int(x)
        if x in reached:
            continue
        gens.append(x)
        frontier = list(reached)
        while frontier:
            nxt = {int(table[y, g]) for y in frontier for g in gens} - reached
            reached |= nxt
            frontier = list(nxt)
    if len(reached) != monoid.order:
        raise ValueError(f"the components' elements reach {len(reached)} of the monoid's {monoid.order} elements")
    k = len(gens)
    normal: list = [None] * monoid.order
    normal[0] = (0,) * k
    layer = [0]
    while layer:  # breadth first: fewest letters; among those, the word with the earliest generators most
        best: dict = {}
        for y in layer:
            for j, g in enumerate(gens):
                z = int(table[y, g])
                if normal[z] is None:
                    w = tuple(e + (i == j) for i, e in enumerate(normal[y]))
                    best[z] = max(best.get(z, w), w)
        for z, w in best.items():
            normal[z] = w
        layer = list(best)
    normal_set = set(normal)
    candidates = []
    for y in range(monoid.order):
        for j, g in enumerate(gens):
            w = tuple(e + (i == j) for i, e in enumerate(normal[y]))
            if w not in normal_set:
                candidates.append((w, normal[int(table[y, g])]))
    lhs = {w for w, _ in candidates}
    above: dict = {}  # word -> whether some left side divides it

    def divided(w) -> bool:
        """w is a left side, or w less one letter is divided (the first such, in letter order): depth first with a
        stack of its own, for words of thousands of letters."""
        stack = [w]
        while stack:
            v = stack[-1]
            if v not in above:
                found, waiting = v in lhs, None
                for j in range(k if not found else 0):
                    if v[j]:
                        known = above.get(_less(v, j))
                        if known is None:
                            waiting = _less(v, j)
                            break
                        if known:
                            found = True
                            break
                if waiting is not None:
                    stack.append(waiting)
                    continue
                above[v] = found
            stack.pop()
        return above[w]

    # w is minimal when no other left side divides it: none divides any w less one letter
    minimal = [(w, r) for w, r in dict(candidates).items() if not any(divided(_less(w, j)) for j in range(k) if w[j])]
    minimal.sort(key=lambda wr: (sum(wr[0]), tuple(-e for e in wr[0])))
    return Presentation(_letters(k), gens, normal, minimal)
