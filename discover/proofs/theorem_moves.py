"""The winning moves the theorems' proofs construct, as strategy branches: candidates for ``find_strategy``.

Each proof of a classical P rule shows how to move from an N position into P; written as branches, that move
is a strategy found without a search.  ``theorem_strategies`` lists the ones whose theorem fits the game's moves
(and, for the nim-sum move, the rule's form); ``find_strategy`` checks each exactly on every N position of its
bound (a candidate is never trusted) and searches only when none holds.

- the nim-sum move (Bouton): for a rule "the xor of a set S of coordinates is 0", a coordinate i of S goes to the
  xor of the others, along a move vector that changes no other coordinate of S (Nim: a heap j goes to
  h_j ⊕ s; staircase Nim: an odd stair, directly or from the stair above);
- Bouton's misère Nim: the nim-sum move, or a heap goes to 0 or to 1 (an odd number of heaps of one is left);
- Wythoff's pairs: along the diagonal to the pair of the same difference, or one heap to the other's partner
  (⌊φ·a⌋ + 1 or ⌊a/φ⌋); in misère play also to the few positions whose outcome misère play changes;
- Fraenkel's a-Wythoff pairs (A_k, B_k) = (⌊kα⌋, ⌊kα⌋ + a·k): one heap to the other's partner, or both heaps to
  the pair k = ⌊|a - b|/a⌋ (the amounts taken then differ by less than a);
- Moore's Nim_2 on 3 or 4 heaps: two heaps go to the values that make every binary column sum divisible by 3;
- Euclid's game: the larger coordinate goes to r or r + the smaller, r the remainder of their division;
- Poker Nim: the nim-sum move on a heap, the chips taken going into the bank;
- Fibonacci Nim (Whinihan): take the least part z of the heap's Zeckendorf representation, leaving the next player
  at most 2z, below the least part of what is left.
"""

from __future__ import annotations

import itertools

import numpy as np
import sympy as sp

from discover.expr.features import expand_derived
from discover.expr.nodes import BitAnd, BitOr, BitXor
from discover.proofs.beatty import fraenkel_a
from discover.expr.zeckendorf import ZeckendorfLeast
from discover.rule import Rule
from discover.strategy import HEAP, Branch
from games.symbolic import EuclidMultiples, GrowingTake, MoveRelation, PokerMoves, Steps, TakeFromSome

__all__ = ["theorem_strategies", "xor_set"]

MISERE_EXTRAS = 8  # the most positions a misère strategy moves to by name (misère Wythoff: 3)
_WYTHOFF = {(1, 0), (0, 1), (1, 1)}


def theorem_strategies(rule: Rule, game, relation: MoveRelation, sample) -> list[tuple[str, list[Branch]]]:
    """Candidate strategies from the theorems that fit ``game``'s moves, each named by its theorem.

    Parameters
    ----------
    rule : Rule
        The P rule the strategy moves into.
    game : Game
        The game (its coordinates and its play: normal or misère).
    relation : games.symbolic relation
        The game's moves.
    sample : array of int, shape (n, dims)
        Positions of a small bound: in misère play, where the rule's P positions differ from the normal
        theorem's.

    Returns
    -------
    list of (str, list of Branch)
        The theorem's name and its branches, in the order to try; empty when no theorem fits.

    Examples
    --------
    >>> from games import make_game
    >>> game = make_game("nim", heaps=3)
    >>> rule = Rule(sp.Eq(sp.Symbol("xor_all"), 0), game.feature_names)
    >>> [(name, [b.values for b in branches]) for name, branches in
    ...  theorem_strategies(rule, game, game.move_relation(), game.universe(3).positions())]
    [("the nim-sum move (Bouton's theorem)", [(BitXor(h, xor_all),)])]
    """
    names = tuple(rule.feature_names)
    coords = [sp.Symbol(n) for n in names]
    out = []
    nim_sum = xor_set(rule, names)
    if nim_sum is not None and not game.misere:
        branches = _nim_sum_moves(nim_sum, coords, relation)
        if branches:
            out.append(("the nim-sum move (Bouton's theorem)", branches))
    if game.misere and _nim_moves(relation, len(names)):
        nim_sum = Branch((BitXor(HEAP, sp.Symbol("xor_all")),), per_heap=True)
        out.append(("Bouton's misère Nim move", [nim_sum, Branch((0,), per_heap=True), Branch((1,), per_heap=True)]))
    if isinstance(relation, Steps) and relation.amounts is None and set(relation.vectors) == _WYTHOFF:
        branches = _wythoff_moves(coords)
        if game.misere:
            normal = Rule(sp.Eq(sp.Symbol("min_all"), sp.floor(sp.GoldenRatio * sp.Symbol("spread"))), names)
            branches += _misere_only(rule, normal, sample)
        out.append(("Wythoff's pairs", branches))
    a = None if isinstance(relation, Steps) else fraenkel_a(relation)
    if a is not None and len(names) == 2 and not game.misere:
        out.append(("Fraenkel's a-Wythoff pairs", _a_wythoff_moves(coords, a)))
    if isinstance(relation, TakeFromSome) and relation.k == 2 and len(names) in (3, 4) and not game.misere:
        out.append(("Moore's pair moves for Nim_2", _moore_pairs(coords)))
    if isinstance(relation, EuclidMultiples):
        a, b = coords
        out.append(("Euclid's remainder moves", [Branch((sp.Mod(a, b), b)), Branch((sp.Mod(a, b) + b, b)),
                                                 Branch((a, sp.Mod(b, a))), Branch((a, sp.Mod(b, a) + a))]))
    if isinstance(relation, PokerMoves) and nim_sum is not None and not game.misere:
        out.append(("the nim-sum move of Poker Nim (Winning Ways)", _poker_moves(nim_sum, coords, relation.heaps)))
    if isinstance(relation, GrowingTake) and relation.ratio == 2 and not game.misere:
        heap = coords[0]
        left = heap - ZeckendorfLeast(heap)
        out.append(("Whinihan's Fibonacci Nim move", [Branch((left, sp.Min(2 * ZeckendorfLeast(heap), left)))]))
    return out


def xor_set(rule: Rule, names) -> list | None:
    """The coordinates S of a rule "the xor of S is 0" (x = y counts: x ⊕ y = 0), or None.

    Examples
    --------
    >>> a, b, c = sp.symbols("a b c")
    >>> xor_set(Rule(sp.Eq(a, BitXor(b, c)), ("a", "b", "c")), ("a", "b", "c")), xor_set(Rule(sp.Eq(a, 0), ("a",)), "a")
    ([a, b, c], None)
    """
    expr = expand_derived(rule.expr, names) if rule.target == "P" and rule.sequence is None else None
    if not isinstance(expr, sp.Eq):
        return None
    sides = []
    for side in (expr.lhs, expr.rhs):
        if side == 0:
            sides.append([])
        elif isinstance(side, sp.Symbol):
            sides.append([side])
        elif isinstance(side, BitXor) and all(isinstance(x, sp.Symbol) for x in side.args):
            sides.append(list(side.args))
        else:
            return None
    found = sides[0] + sides[1]
    coordinates = {sp.Symbol(n) for n in names}
    return found if len(found) >= 2 and len(set(found)) == len(found) and set(found) <= coordinates else None


def _one_heap_moves(relation, dims: int) -> bool:
    """Any positive amount may leave any one heap (Nim's moves, possibly among others)."""
    if isinstance(relation, TakeFromSome):
        return relation.k >= 1
    units = {tuple(int(i == j) for j in range(dims)) for i in range(dims)}
    return isinstance(relation, Steps) and relation.amounts is None and units <= set(relation.vectors)


def _nim_moves(relation, dims: int) -> bool:
    """Exactly Nim's moves: any positive amount from one heap."""
    if isinstance(relation, TakeFromSome):
        return relation.k == 1
    units = {tuple(int(i == j) for j in range(dims)) for i in range(dims)}
    return isinstance(relation, Steps) and relation.amounts is None and set(relation.vectors) == units


def _nim_sum_moves(xor_set, coords, relation) -> list[Branch]:
    """Moves that make the xor of ``xor_set`` zero by changing one of its coordinates."""
    if _one_heap_moves(relation, len(coords)) and len(xor_set) == len(coords):
        value = sp.Symbol("min_all") if len(coords) == 2 else BitXor(HEAP, sp.Symbol("xor_all"))
        return [Branch((value,), per_heap=True)]
    if not (isinstance(relation, Steps) and relation.amounts is None):
        return []
    out = []
    for v in relation.vectors:
        moved = [i for i, x in enumerate(coords) if v[i] and x in xor_set]
        if len(moved) != 1 or abs(v[moved[0]]) != 1:
            continue
        i = moved[0]
        others = [x for x in xor_set if x != coords[i]]
        target = others[0] if len(others) == 1 else BitXor(*others)
        t = v[i] * (coords[i] - target)  # the amount: p - t·v puts coordinate i at the target
        out.append(Branch(tuple(x - t * k for x, k in zip(coords, v))))
    return out


def _poker_moves(nim_sum, coords, heaps: int) -> list[Branch]:
    """Poker Nim: heap j goes to the xor of the other heaps of the rule, the chips taken into the bank, the banks
    trading places."""
    bank, other = coords[heaps], coords[heaps + 1]
    out = []
    for j, x in enumerate(coords[:heaps]):
        if x not in nim_sum:
            continue
        rest = [y for y in nim_sum if y != x]
        target = rest[0] if len(rest) == 1 else BitXor(*rest)
        out.append(Branch(tuple(coords[:j]) + (target,) + tuple(coords[j + 1:heaps]) + (other, bank + x - target)))
    return out


def _wythoff_moves(coords) -> list[Branch]:
    """Along the diagonal to the pair {⌊kφ⌋, ⌊kφ⌋ + k} with k = |a - b|, or one heap to the other's partner:
    ⌊φ·x⌋ + 1 when x = ⌊kφ⌋, ⌊x/φ⌋ when x = ⌊kφ⌋ + k."""
    a, b = coords
    phi = sp.GoldenRatio
    down = sp.Symbol("min_all") - sp.floor(phi * sp.Symbol("spread"))
    return [Branch((a - down, b - down)), Branch((a, sp.floor(phi * a) + 1)), Branch((sp.floor(phi * b) + 1, b)),
            Branch((a, sp.floor(a / phi))), Branch((sp.floor(b / phi), b))]


def _a_wythoff_moves(coords, c: int) -> list[Branch]:
    """Into Fraenkel's pairs (⌊kα⌋, ⌊kα⌋ + c·k), α = (2 - c + √(c² + 4))/2, β = α + c: a heap x = ⌊kα⌋ takes the other
    to x + c·(⌊x/α⌋ + 1), a heap x = ⌊kβ⌋ takes it to x - c·(⌊x/β⌋ + 1) (k >= 1), an empty heap takes the other to
    0, or both heaps go to the pair k = ⌊|a - b|/c⌋."""
    a, b = coords
    alpha = (2 - c + sp.sqrt(c * c + 4)) / 2
    over_alpha, over_beta = sp.radsimp(1 / alpha), sp.radsimp(1 / (alpha + c))
    k = sp.floor(sp.Symbol("spread") / c)
    low = sp.floor(alpha * k)
    out = [Branch((low, low + c * k)), Branch((low + c * k, low))]
    for x, other in ((a, 0), (b, 1)):
        for partner in (x + c * (sp.floor(over_alpha * x) + 1), x - c * (sp.floor(over_beta * x) + 1)):
            out.append(Branch((x, partner) if other == 0 else (partner, x)))
    return out + [Branch((0, 0))]


def _misere_only(rule: Rule, normal: Rule, sample) -> list[Branch]:
    """Moves to the positions of ``sample`` that ``rule`` calls P and the normal theorem does not (at most
    ``MISERE_EXTRAS``; none when there are more: the difference is then no short list)."""
    sample = np.asarray(sample, dtype=np.int64)
    extra = sample[rule.predicate(sample) & ~normal.predicate(sample)]
    if len(extra) > MISERE_EXTRAS:
        return []
    return [Branch(tuple(int(x) for x in p)) for p in sorted(map(tuple, extra.tolist()))]


def _moore_pairs(coords) -> list[Branch]:
    """Moore's pair moves for Nim_2: heaps i, j go to the values that make every binary column sum
    divisible by 3 given the other heaps; on 4 heaps, with u, w the others, (u ⊕ w) ⊕ S and
    (u | w) ⊕ S where S = u & w & h_i (the split of the columns where u and w both have a 1)."""
    out = []
    for i, j in itertools.permutations(range(len(coords)), 2):
        others = [x for k, x in enumerate(coords) if k not in (i, j)]
        values = list(coords)
        if len(others) == 1:
            values[i] = values[j] = others[0]
        else:
            u, w = others
            split = BitAnd(u, w, coords[i])
            values[i], values[j] = BitXor(u, w, split), BitXor(BitOr(u, w), split)
        out.append(Branch(tuple(values)))
    return out
