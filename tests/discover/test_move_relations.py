"""Symbolic move relations against the move kernels, and their z3 formulas against both.

Every family's ``move_relation().allows`` must accept exactly the kernel's options on a small
universe; ``MovesSmt``'s ``is_move``, ``terminal`` and ``domain``, evaluated on concrete
positions, must say the same as the kernel (brute force over every pair of a small box).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
import sympy as sp
import z3

from discover.expr.smt import Arithmetic
from discover.proofs.moves_smt import MovesSmt
from discover.proofs.agreement import _largest_bound, relation_agreement
from discover.proofs.prove import prove_rule, relation_agrees
from discover.rule import Rule
from games import custom_game, make_game
from games.symbolic import (AnyOf, PowerSteps, ProgressionSteps, Steps, TakeAndBreak, TakeFromSome,
                             relation_from_record, take_from_one)

FAMILIES = [
    ("nim", {"heaps": 3}), ("nim", {"heaps": 2, "misere": True}), ("wythoff", {}), ("wythoff_nd", {"heaps": 3}),
    ("subtraction", {"subtract": (2, 3, 7)}), ("staircase", {"stairs": 3}), ("moore", {"heaps": 4, "k": 2}),
    ("chomp", {"rows": 3}), ("euclid", {}), ("octal", {"code": "0.137"}), ("octal", {"code": "4.07"}),
    ("lasker", {}), ("grundy_game", {}), ("a_wythoff", {"a": 3}), ("fibonacci_nim", {"ratio": 2}),
    ("welter", {"coins": 3}),
]


@pytest.mark.parametrize("name, params", FAMILIES, ids=[f"{n}-{p}" for n, p in FAMILIES])
def test_relation_accepts_exactly_the_kernels_options(name, params):
    game = make_game(name, **params)
    relation = game.move_relation()
    assert relation is not None and relation.words()
    bound = {1: 12, 2: 5, 3: 4}.get(game.dims, 3)
    for p in game.universe(bound).positions():
        options = {tuple(sorted(o)) if game.parts > 1 else tuple(o) for o in game.options(p).tolist()}
        top = (p.sum() if name == "staircase" else p.max()) + 1  # staircase moves add to the stair below
        pool = np.array(list(itertools.product(range(top), repeat=game.parts * game.dims)))
        allowed = relation.allows(np.repeat(p[None, :], len(pool), axis=0), pool)
        got = {tuple(sorted(q)) if game.parts > 1 else tuple(q) for q in pool[allowed].tolist()}
        assert got == options, (tuple(p), sorted(got ^ options)[:5])


@pytest.mark.parametrize("relation", [
    Steps(((1, 0, 0), (0, 1, 0), (0, 0, 1))), Steps(((1, 0), (0, 1), (1, 1))), Steps(((2, 0), (0, -3))),
    Steps(((1, 0), (-1, 1))), Steps(((1,),), amounts=(2, 3, 7)), make_game("moore", heaps=3, k=2).move_relation(),
], ids=["nim", "wythoff", "scaled", "staircase", "subtraction", "moore"])
def test_a_move_of_one_column_is_judged_as_the_whole_move(relation):
    """``allows_column`` (a strategy's per-heap moves) says what ``allows`` says of the positions it stands for,
    negative coordinates and values included."""
    rng = np.random.default_rng(3)
    dims = len(relation.vectors[0]) if isinstance(relation, Steps) else 3
    before = rng.integers(-2, 9, size=(4000, dims))
    for j in range(dims):
        values = rng.integers(-3, 10, size=len(before))
        after = before.copy()
        after[:, j] = values
        assert (relation.allows_column(before, j, values) == relation.allows(before, after)).all()


def test_relation_records_round_trip_and_bad_records_are_refused():
    for name, params in FAMILIES:
        relation = make_game(name, **params).move_relation()
        assert relation_from_record(relation.to_record()) == relation
    with pytest.raises(ValueError, match="kinds"):
        relation_from_record({"kind": "os.system", "vectors": [[1]]})
    with pytest.raises(ValueError, match="unknown fields"):
        relation_from_record({"kind": "Steps", "vectors": [[1]], "evil": 1})


def test_bad_relations_are_refused():
    with pytest.raises(ValueError, match="non-zero"):
        Steps(((0, 0),))
    with pytest.raises(ValueError, match="positive"):
        take_from_one(1, (0, 2))
    with pytest.raises(TypeError, match="games.symbolic"):
        custom_game("g", lambda p: [], 1, relation="take one")


def test_relation_agrees_finds_a_wrong_custom_relation():
    moves = lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]]  # noqa: E731
    assert relation_agrees(custom_game("take12", moves, 1, relation=take_from_one(1, (1, 2)))) is None
    wrong = relation_agrees(custom_game("take12", moves, 1, relation=take_from_one(1, (1, 3))))
    assert wrong is not None and wrong["position"] == (2,)


def test_relation_agrees_on_a_heap_whose_options_are_two_heaps():
    """Take-and-break options are multisets of two heaps, which no pair of positions states (an IndexError once, in
    every P rule's proof that reached the check)."""
    assert relation_agrees(make_game("octal", code="0.137")) is None
    n = sp.Symbol("n")
    proof = prove_rule(Rule(sp.Eq(sp.Mod(n, 3), 0), ("n",)), make_game("grundy_game"), time_budget=5)
    assert proof.status == "unknown" and "no z3 form" in proof.reason


def test_relation_agrees_on_many_heaps_takes_the_box_it_can_afford():
    # bound 1's box of 20 heaps holds 2^20 positions (2^40 pairs): the check takes bound 0's instead of hanging
    nim = make_game("nim", heaps=20)
    assert _largest_bound(nim, 300) == 0 and relation_agrees(nim) is None
    assert _largest_bound(make_game("nim", heaps=9), 300) == 1  # 2^9 positions: bound 1's pairs still fit


def test_relation_agreement_on_many_heaps_names_the_bound_its_pairs_covered():
    # moves() never takes from the last heap; the relation says it may: only a pair on that heap shows it
    def moves(p):
        return [p[:i] + (p[i] - t,) + p[i + 1:] for i in range(len(p) - 1) for t in range(1, p[i] + 1)]

    # a union with Moore's moves: its options are not counted (games.infer_relation.option_counts), so pairs decide
    uncounted = AnyOf((take_from_one(13), TakeFromSome(1)))
    wrong = custom_game("nim13", moves, 13, relation=uncounted)
    assert relation_agreement(wrong, 1) == (None, 0)  # 2^13 positions at bound 1: pairs on bound 0's box only
    assert relation_agreement(custom_game("nim2", moves, 2, relation=take_from_one(2)), 1)[0]["move"] == (0, 0)
    rule = Rule(sp.Eq(sp.Symbol("xor_all"), 0), wrong.feature_names)
    assert prove_rule(rule, wrong, methods=("theorem",), relation_bound=1).statement.endswith("up to 0")


def test_relation_agreement_counts_the_options_of_steps_at_every_position_of_the_bound():
    def moves(p):  # Nim on 13 heaps, never taking from the last
        return [p[:i] + (p[i] - t,) + p[i + 1:] for i in range(len(p) - 1) for t in range(1, p[i] + 1)]

    differs, bound = relation_agreement(custom_game("nim13", moves, 13, relation=take_from_one(13)), 1)
    assert bound == 1 and differs["move"] == (0,) * 13 and differs["position"] == (0,) * 12 + (1,)


def _concrete(formula) -> bool:
    return z3.is_true(z3.simplify(formula))


@pytest.mark.parametrize("name, params, bound", [
    ("nim", {"heaps": 2}, 4), ("wythoff", {}, 4), ("subtraction", {"subtract": (1, 3, 4)}, 9),
    ("staircase", {"stairs": 3}, 2), ("moore", {"heaps": 3, "k": 2}, 2), ("chomp", {"rows": 3}, 2), ("euclid", {}, 4),
    ("a_wythoff", {"a": 2}, 4), ("fibonacci_nim", {"ratio": 3}, 5), ("welter", {"coins": 3}, 4),
])
@pytest.mark.parametrize("bits", [None, 4])
def test_z3_formulas_match_the_kernel(name, params, bound, bits):
    game = make_game(name, **params)
    arithmetic = Arithmetic() if bits is None else Arithmetic(bits=bits, width=bits + 6)
    moves = MovesSmt(game.move_relation(), game.dims, arithmetic)
    const = arithmetic.const
    box = list(itertools.product(range(bound + 1), repeat=game.dims))
    universe = {tuple(p) for p in game.universe(bound).positions().tolist()}
    for p in box:
        zp = [const(x) for x in p]
        ordered = name in ("chomp", "welter")  # positions of a shape, not the whole box
        assert _concrete(moves.domain(zp)) == (p in universe or (not ordered and sum(p) < 2 ** (bits or 99)))
        if p not in universe:
            continue
        options = set(game.moves(p))
        assert _concrete(moves.terminal(zp)) == (not options), p
        for q in box:
            assert _concrete(moves.is_move(zp, [const(x) for x in q])) == (q in options), (p, q)
            if q in options:
                assert _concrete(moves.measure([const(x) for x in q]) < moves.measure(zp))


@pytest.mark.parametrize("relation, bound", [(ProgressionSteps(((1,),), 2, 3), 12),
                                             (ProgressionSteps(((1, 0), (0, 1), (1, 1)), 1, 2), 5),
                                             (PowerSteps(((1,),), 2), 20), (PowerSteps(((1, 0), (1, 1)), 3), 9)])
@pytest.mark.parametrize("bits", [None, 5])
def test_z3_formulas_of_a_progression_match_its_relation(relation, bound, bits):
    arithmetic = Arithmetic() if bits is None else Arithmetic(bits=bits, width=bits + 6)
    dims = len(relation.vectors[0])
    moves = MovesSmt(relation, dims, arithmetic)
    const = arithmetic.const
    box = list(itertools.product(range(bound + 1), repeat=dims))
    for p in box:
        allowed = relation.allows(np.array([p] * len(box)), np.array(box))
        assert _concrete(moves.terminal([const(x) for x in p])) == (not allowed.any()), p
        for q, ok in zip(box, allowed):
            assert _concrete(moves.is_move([const(x) for x in p], [const(x) for x in q])) == ok, (p, q)


def test_powers_beyond_the_listed_ones_are_bracketed_by_their_residues():
    """Powers of 2 in unbounded integers: above 2^62 ``is_move`` (every move) admits the amounts whose residue
    modulo 3 a power has, ``sure_move`` (only moves) none; both are exact below, and a bounded set is exact."""
    from discover.proofs.moves_smt import LISTED_POWERS

    moves = MovesSmt(PowerSteps(((1,),), 2), 1, Arithmetic(), modulus=3)
    assert not moves.exact and "modulo 3" in moves.approximation()
    p = [z3.IntVal(1 << 70)]
    for t, power in [(1 << 63, True), ((1 << 63) + 3, False), (3 << 62, False), (1 << 62, True), (6, False)]:
        q = [z3.IntVal((1 << 70) - t)]
        assert _concrete(moves.is_move(p, q)) == (power or (t > LISTED_POWERS and t % 3 != 0)), t
        assert _concrete(moves.sure_move(p, q)) == (power and t <= LISTED_POWERS), t
    assert MovesSmt(PowerSteps(((1,),), 2), 1, Arithmetic(bits=64, width=70)).exact


def test_take_and_break_has_no_z3_form():
    from discover.expr.walker import Unsupported

    with pytest.raises(Unsupported):
        MovesSmt(TakeAndBreak((4,), rest=3), 1, Arithmetic())


@pytest.mark.parametrize("name, params", FAMILIES, ids=[f"{n}-{p}" for n, p in FAMILIES])
def test_no_relation_allows_a_move_to_a_negative_coordinate(name, params):
    """A coordinate is a heap or a row length: a move never leaves one below 0 (Chomp's relation once allowed a
    row cut to -1, which a strategy's check then took for a legal move)."""
    game = make_game(name, **params)
    relation = game.move_relation()
    width = game.parts * game.dims
    before = np.array(list(itertools.product(range(4), repeat=game.dims)))
    for column in range(width):
        for value in (-1, -2, -5):
            for rest in itertools.product(range(4), repeat=width - 1):
                after = np.array([*rest[:column], value, *rest[column:]])
                allowed = relation.allows(before, np.repeat(after[None, :], len(before), axis=0))
                assert not allowed.any(), (before[allowed][:3].tolist(), after.tolist())


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(1, 3).flatmap(lambda d: st.tuples(
    st.lists(st.lists(st.integers(-3, 3), min_size=d, max_size=d).filter(any).map(tuple), min_size=1, max_size=4),
    st.one_of(st.none(), st.lists(st.integers(1, 9), min_size=1, max_size=4)), st.integers(0, d - 1),
    st.integers(0, 2**32))))
def test_steps_judge_a_column_as_the_whole_move_for_any_vectors(case):
    """``Steps.allows_column`` against ``allows`` for random vectors (entries -3 to 3: scaled, negative, several
    coordinates at once) and amounts, on positions and values of both signs; a scalar value too."""
    vectors, amounts, j, seed = case
    relation = Steps(tuple(vectors), None if amounts is None else tuple(amounts))
    rng = np.random.default_rng(seed)
    before = rng.integers(-4, 20, size=(300, len(vectors[0])))
    values = rng.integers(-6, 24, size=len(before))
    after = before.copy()
    after[:, j] = values
    assert (relation.allows_column(before, j, values) == relation.allows(before, after)).all()
    after[:, j] = values[0]
    assert (relation.allows_column(before, j, values[0]) == relation.allows(before, after)).all()
