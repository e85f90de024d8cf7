"""Grundy formulas of one-heap games proved for every heap by induction, the inductive step decided by automata.

For a one-heap game in normal play whose options of heap n are sums of smaller heaps (a subtraction set, finite
or not: any amount, an arithmetic progression, the powers of 2; at most a fraction of the heap; take-and-break
moves that leave nothing, one, two or three heaps after removing k tokens, k in a finite set or every k from some
point on, as octal and hexadecimal codes and Lasker's Nim state them), a formula F is its Grundy function iff

    for every n: F(n) = mex { F(h_1) ⊕ ... ⊕ F(h_j) : (h_1, ..., h_j) an option of n }     (*)

Indeed, if (*) holds, G(n) = F(n) by induction on n: each h_i < n, so G(h_i) = F(h_i), and the value of a sum
of heaps is the xor of theirs (Sprague and Grundy), so G(n), the mex of the options' values, is F(n).  (*) is a
first-order statement about n with +, comparisons and xor once F is written in linear arithmetic, residues,
floors, cases and bitwise operators (``discover.proofs.automata_rules``): Büchi arithmetic, decided exactly by
finite automata (``discover.proofs.automata``) for every n, with no bound.  F must also give one natural number at
every n, which the automata check too.  This proves arithmetic-periodic formulas (Lasker's Nim:
G(4k + 3) = 4k + 4, G(4k + 4) = 4k + 3, else G(n) = n), where no periodicity theorem applies, as well as periodic
ones and formulas of neither kind (at most half: G(2n) = n, G(2n + 1) = G(n) is not linear, but
n & (n + 1) = 0 for its P positions is); the statement decided is named in the proof.

Examples
--------
>>> import sympy as sp
>>> from games import make_game
>>> n = sp.Symbol("n")
>>> lasker = sp.Piecewise((0, sp.Eq(n, 0)), (n - 1, sp.Eq(sp.Mod(n, 4), 0)), (n + 1, sp.Eq(sp.Mod(n, 4), 3)), (n, True))
>>> mex_induction(lasker, "n", make_game("lasker"))[0]
True
>>> mex_induction(n, "n", make_game("lasker"))[:2]  # G(n) = n is not Lasker's Nim's: heap 3 has value 4
(False, "at some heap n, F(n) is not the mex of its options' values: the rule is not the game's")
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from cgbase.deadline import Deadline, OutOfTime, within
from discover.expr.walker import Unsupported
from discover.proofs.automata import (TooLarge, bitwise, conj, constant, disj, exists, is_empty, least, linear,
                                      neg, rename)
from discover.proofs.automata_rules import condition_automaton, rule_graph
from games import Game
from games.symbolic import AnyOf, PowerSteps, ProgressionSteps, Steps, TakeAndBreak, TakeUpTo

__all__ = ["MEX_METHOD", "HeapMove", "heap_moves", "mex_induction", "heap_rule_proof"]

MEX_METHOD = ("mex induction: the rule at heap n from its options' values, decided for every n by automata "
              "(Büchi arithmetic)")
SECONDS = 20.0  # the automata's budget: a statement past it is left undecided


@dataclass(frozen=True)
class HeapMove:
    """A kind of move of heap n: remove k tokens (``removal``: an automaton over the track "k", which may also read
    "n") and leave ``heaps`` heaps (0 to 3; each at least ``least`` tokens; of different sizes when ``unequal``)."""

    heaps: int
    removal: object
    least: int = 1
    unequal: bool = False


def _one_of(amounts, scale: int):
    """k = scale · t for t in a finite tuple, every t >= 1 (None), a progression or the powers of 2."""
    if isinstance(amounts, tuple):
        return disj(constant(False), *[linear({"k": 1}, scale * t, equal=True) for t in amounts])
    t = {"k": 1, "t": -scale}
    if amounts is None:
        return exists(conj(linear(t, 0, True), linear({"t": -1}, -1, False)), "t")
    if isinstance(amounts, ProgressionSteps):  # t = first + step · j
        return exists(conj(linear(t, 0, True), linear({"t": 1, "j": -amounts.step}, amounts.first, True)), "t", "j")
    if amounts.base != 2:
        raise Unsupported(f"amounts that are powers of {amounts.base} (only the powers of 2 are binary)")
    power = conj(linear({"u": 1, "t": -1}, -1, True), bitwise("and", "t", "u", "w"), linear({"w": 1}, 0, True))
    return exists(conj(linear(t, 0, True), power), "t", "u", "w")  # t & (t - 1) = 0 with t >= 1


def _digit_moves(digits, rest: int, unequal: bool) -> list[HeapMove]:
    """The moves of an octal or hexadecimal code d_0 d_1 ... (``rest``: the digit of every larger k)."""
    moves = []
    for heaps, bit in ((0, 1), (1, 2), (2, 4), (3, 8)):
        listed = tuple(k for k, d in enumerate(digits) if d & bit and (k or heaps >= 2))
        tail = [linear({"k": -1}, -len(digits), False)] if rest & bit else []
        if listed or tail:
            moves.append(HeapMove(heaps, disj(constant(False), *[linear({"k": 1}, k, True) for k in listed], *tail),
                                  unequal=unequal and heaps == 2))
    return moves


def heap_moves(game: Game) -> list[HeapMove]:
    """The moves of a one-heap game as ``HeapMove`` kinds: from its symbolic relation, or its take-and-break code.

    Raises ``Unsupported`` for a game or relation outside this vocabulary.

    Examples
    --------
    >>> from games import make_game
    >>> [(m.heaps, m.least) for m in heap_moves(make_game("lasker"))]
    [(0, 1), (1, 1), (2, 1)]
    """
    if game.dims != 1 or game.misere:
        raise Unsupported(f"{game!r} is not a one-heap game in normal play")
    relation = game.move_relation()
    if relation is None:
        code = game.take_and_break_code()
        if code is None:
            raise Unsupported(f"{game!r} states no symbolic move relation and no take-and-break code")
        return _digit_moves(code[0].tolist(), 0, bool(code[1]))
    moves = []
    for member in relation.members if isinstance(relation, AnyOf) else (relation,):
        if isinstance(member, TakeAndBreak):
            moves += _digit_moves(member.digits, member.rest, member.unequal)
        elif isinstance(member, TakeUpTo) and member.vectors == ((1,),):  # 1 <= k <= floor(num n / den)
            removal = conj(linear({"k": -1}, -1, False), linear({"k": member.den, "n": -member.num}, 0, False))
            moves.append(HeapMove(1, removal, least=0))
        elif isinstance(member, (Steps, ProgressionSteps, PowerSteps)) and all(len(v) == 1 and v[0] > 0
                                                                               for v in member.vectors):
            amounts = member.amounts if isinstance(member, Steps) else member
            removal = disj(*[_one_of(amounts, v[0]) for v in member.vectors])
            moves.append(HeapMove(1, removal, least=0))
        else:
            raise Unsupported(f"the moves {member.words()!r} are not one-heap moves the automata state")
    return moves


def _option_values(graph, move: HeapMove):
    """The automaton over (n, v) of "heap n has an option of this kind whose value is v"."""
    if move.heaps == 0:
        return conj(rename(move.removal, {"k": "n"}), linear({"v": 1}, 0, True), linear({"n": -1}, -1, False))
    if move.unequal:  # two heaps of different sizes a < b: read together
        pair = conj(rename(graph, {"x": "a", "y": "ya"}), rename(graph, {"x": "b", "y": "yb"}),
                    bitwise("xor", "ya", "yb", "s"), linear({"a": 1, "b": -1}, -1, False),
                    linear({"a": -1}, -move.least, False), linear({"a": 1, "b": 1, "t": -1}, 0, True))
        acc = exists(pair, "a", "b", "ya", "yb")
    else:  # (t, s): some heaps, each at least ``least``, of total t and values of xor s, one more heap at a time
        acc = conj(rename(graph, {"x": "t", "y": "s"}), linear({"t": -1}, -move.least, False))
        for _ in range(move.heaps - 1):
            more = conj(acc, rename(graph, {"x": "h", "y": "w"}), linear({"h": -1}, -move.least, False),
                        linear({"t": 1, "h": 1, "u": -1}, 0, True), bitwise("xor", "s", "w", "r"))
            acc = rename(exists(more, "t", "s", "h", "w"), {"u": "t", "r": "s"})
    total = linear({"t": 1, "k": 1, "n": -1}, 0, True)
    return rename(exists(conj(acc, total, move.removal), "t", "k"), {"s": "v"})


def mex_induction(expr, feature: str, game: Game, seconds: float = SECONDS,
                  target: str = "grundy") -> tuple[bool, str, int | None]:
    """Whether (*) of the module docstring holds for every heap n, with F = ``expr`` over ``feature``; with
    ``target="P"``, whether heap n satisfies the condition ``expr`` iff none of its options does (for moves that
    leave one heap: then the condition is the P positions, by the same induction).

    Returns (proved, what was decided or why not, and when the statement fails the least heap where it does: the
    least n where the rule and the game differ, since below it they agree by the induction).
    ``Unsupported`` is raised for a formula or game outside the automata's vocabulary, and the answer is False
    with the reason for a statement past ``seconds`` or too large.

    Examples
    --------
    >>> import sympy as sp
    >>> from games import make_game
    >>> n = sp.Symbol("n")
    >>> mex_induction(sp.Mod(n, 4), "n", make_game("subtraction", subtract=(1, 2, 3)))[0]
    True
    >>> mex_induction(sp.Eq(sp.Mod(n, 4), 0), "n", make_game("subtraction", subtract=(1, 2, 3)), target="P")[0]
    True
    """
    moves = heap_moves(game)
    if target == "P" and game.parts > 1:
        raise Unsupported(f"a P rule of {game!r}, whose options are sums of heaps (their Grundy values decide)")
    expr = sp.sympify(expr).subs(sp.Symbol(feature), sp.Symbol("x"))
    try:
        with within(Deadline(seconds)):
            if target == "P":  # y = 0 on the condition (P), 1 off it: an option is P iff its value is 0
                inside = condition_automaton(expr)
                graph = disj(conj(inside, linear({"y": 1}, 0, True)), conj(neg(inside), linear({"y": 1}, 1, True)))
            else:
                graph = rule_graph(expr, "x", "y")
            sizes = [graph.size]
            somewhere = exists(graph, "y")  # F(x) is defined
            twice = conj(graph, rename(graph, {"y": "z"}), neg(linear({"y": 1, "z": -1}, 0, True)))
            if not is_empty(neg(somewhere)) or not is_empty(exists(twice, "x", "y", "z")):
                return False, "F is not one natural number at every heap", None
            options = disj(constant(False), *[_option_values(graph, m) for m in moves])  # over (n, v)
            sizes.append(options.size)
            here = rename(graph, {"x": "n"})  # y = F(n)
            if target == "P":  # P by the rule (y = 0) iff no option is P (value 0)
                to_p = exists(conj(options, linear({"v": 1}, 0, True)), "v")
                bad = exists(disj(conj(here, linear({"y": 1}, 0, True), to_p),
                                  conj(here, linear({"y": 1}, 1, True), neg(to_p))), "y")
            else:
                hit = conj(here, rename(options, {"v": "y"}))  # an option with the value F(n)
                gap = conj(here, linear({"v": 1, "y": -1}, -1, False), neg(options))  # a value v < F(n) none has
                bad = exists(disj(hit, gap), "y", "v")
            sizes.append(bad.size)
    except (OutOfTime, TooLarge) as err:
        return False, f"the automata did not decide the statement ({err})", None
    if not is_empty(bad):
        what = ("some heap n is P by the rule with a P option, or N with none" if target == "P" else
                "at some heap n, F(n) is not the mex of its options' values")
        return False, f"{what}: the rule is not the game's", least(bad)
    statement = "n is P by the rule iff none of its options is" if target == "P" else "(*)"
    return True, (f"{statement} for every heap n, decided by automata ({max(sizes):,} states at most), so the rule "
                  f"holds at every heap by induction on n"), None


def heap_rule_proof(rule, game: Game, relation_bound: int | None = None,
                    seconds: float = SECONDS) -> tuple[str | None, list[str], dict | None, dict]:
    """A one-heap rule (Grundy values, or P positions of moves that leave one heap) proved for every heap by mex
    induction, disproved, or neither.

    Returns (status "proved", "disproved" or None, what was said, the counterexample of a disproof, what the proof
    rests on: for a custom game, the relation and the box on which it agrees with ``moves()``,
    ``discover.proofs.agreement.relation_basis``).

    Examples
    --------
    >>> import sympy as sp
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> n = sp.Symbol("n")
    >>> heap_rule_proof(Rule(sp.Mod(n, 3), ("n",), target="grundy"), make_game("subtraction"))[:1]
    ('disproved',)
    """
    from discover.proofs.agreement import SUMS_HEAPS, heap_sums_differ, relation_basis

    try:
        heap_moves(game)
    except Unsupported as err:
        return None, [f"mex induction does not apply: {err}"], None, {}
    rests_on, relation, differs = {}, game.move_relation(), None
    if relation is not None and game.parts == 1:
        differs, rests_on = relation_basis(game, relation_bound)
        differs = None if differs is None else differs["reason"]
    elif relation is not None:  # options are sums of heaps: compared with moves() heap by heap
        differs = heap_sums_differ(game)
        differs = None if differs is None else differs["reason"]
        if game.spec().get("custom") and "declared" not in game.spec():
            rests_on = {"relation": relation.words(), "agrees_with_moves_up_to": SUMS_HEAPS}
    if differs is not None:
        return None, [f"the game's move relation disagrees with its moves(): {differs}"], None, {}
    try:
        proved, said, at = mex_induction(rule.expr, rule.feature_names[0], game, seconds, rule.target)
    except Unsupported as err:
        return None, [f"mex induction does not apply: {err}"], None, {}
    if proved:
        return "proved", [said], None, rests_on
    if at is None:
        return None, [said], None, {}
    if rests_on and at > rests_on["agrees_with_moves_up_to"]:  # a relation checked on a box disproves nothing past it
        return None, [f"{said} at n = {at:,}, beyond the box where the relation agrees with moves()"], None, {}
    value = int(rule.evaluate([[at]])[0]) if rule.target == "grundy" else "P" if rule.predicate([[at]])[0] else "N"
    return "disproved", [f"{said}: the least such heap is n = {at:,}, where the rule says {value}"], \
        {"position": (at,), "rule": value}, rests_on
