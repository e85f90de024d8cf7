"""``games.infer_relation``: the shortest relation giving exactly a game's options on a box, the counts of a
relation's options against brute force, and moves that fit no relation."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from games import custom_game
from games.infer_relation import differs_on, infer_relation, option_counts
from games.symbolic import (AnyOf, EuclidMultiples, PowerSteps, ProgressionSteps, Steps, TakeFromSome, TakeUpTo, relation_from_record,
                            take_from_one)


def box(dims: int, bound: int) -> np.ndarray:
    return np.array(list(itertools.product(range(bound + 1), repeat=dims)), dtype=np.int64).reshape(-1, dims)


def one_heap(amounts):
    return lambda p: [(p[0] - t,) for t in amounts(p[0]) if t <= p[0]]


CASES = [  # (name, moves, dims, bound, the relation expected)
    ("take134", one_heap(lambda n: (1, 3, 4)), 1, 60, take_from_one(1, (1, 3, 4))),
    ("odd", one_heap(lambda n: range(1, n + 1, 2)), 1, 60, ProgressionSteps(((1,),), 1, 2)),
    ("multiples", one_heap(lambda n: range(3, n + 1, 3)), 1, 60, ProgressionSteps(((1,),), 3, 3)),
    ("progression", one_heap(lambda n: range(2, n + 1, 5)), 1, 60, ProgressionSteps(((1,),), 2, 5)),
    ("powers", one_heap(lambda n: [3 ** k for k in range(8)]), 1, 100, PowerSteps(((1,),), 3)),
    ("nim2", lambda p: [(a, p[1]) for a in range(p[0])] + [(p[0], b) for b in range(p[1])], 2, 8, take_from_one(2)),
    ("take13-or-both", lambda p: [(p[0] - t, p[1]) for t in (1, 2, 3) if t <= p[0]]
     + [(p[0], p[1] - t) for t in (1, 2, 3) if t <= p[1]] + [(p[0] - 1, p[1] - 1)] * (min(p) > 0), 2, 12,
     AnyOf((take_from_one(2, (1, 2, 3)), Steps(((1, 1),), (1,))))),
    ("half-or-both", lambda p: [(p[0] - t, p[1]) for t in range(1, p[0] // 2 + 1)]
     + [(p[0], p[1] - t) for t in range(1, p[1] // 2 + 1)] + [(p[0] - 1, p[1] - 1)] * (min(p) > 0), 2, 12,
     AnyOf((Steps(((1, 1),), (1,)), TakeUpTo(((1, 0), (0, 1)), 1, 2)))),
    ("moore", lambda p: [q for q in itertools.product(*(range(x + 1) for x in p))
                         if q != p and sum(a != b for a, b in zip(q, p)) <= 2], 3, 4, TakeFromSome(2)),
]


@pytest.mark.parametrize("name, moves, dims, bound, expected", CASES, ids=[c[0] for c in CASES])
def test_the_shortest_relation_giving_exactly_the_moves_is_found(name, moves, dims, bound, expected):
    game = custom_game(name, moves, dims)
    relation, why = infer_relation(box(dims, bound), game.option_rows)
    assert relation == expected, why
    assert relation_from_record(relation.to_record()) == relation
    # on a box three times larger the relation still gives exactly the options of moves()
    assert differs_on(relation, box(dims, 3 * bound if dims == 1 else bound + 4), game.option_rows) is None


def test_moves_that_depend_on_more_than_the_amount_fit_no_relation():
    halve = custom_game("halve", lambda p: [(p[0] // 2,)] if p[0] else [], 1)
    assert infer_relation(box(1, 40), halve.option_rows) == (
        None, "the relation allows (2,) → (0,), which moves() does not give")
    still = custom_game("still", lambda p: [p] if p[0] else [], 1)  # a move to itself: no step states it
    relation, why = infer_relation(box(1, 10), still.option_rows)
    assert relation is None and why.startswith("no position of the box has a move of the vocabulary")


def test_moves_changing_beyond_the_box_are_inferred_for_the_box_only():
    game = custom_game("take12-then-3", one_heap(lambda n: (1, 2, 3) if n >= 50 else (1, 2)), 1)
    relation, _ = infer_relation(box(1, 40), game.option_rows)
    assert relation == take_from_one(1, (1, 2))
    assert differs_on(relation, box(1, 60), game.option_rows) == {
        "position": (50,), "move": (47,), "reason": "moves() gives (50,) → (47,), which the relation does not allow"}


RELATIONS = [take_from_one(2, (1, 4)), Steps(((1, 0), (0, 1), (1, 1))), Steps(((2, 1), (1, 2)), (1, 2)),
             ProgressionSteps(((1, 0), (1, 1)), 2, 3), PowerSteps(((0, 1), (1, 2)), 2), TakeFromSome(2),
             AnyOf((take_from_one(2, (1, 2)), ProgressionSteps(((1, 1),), 1, 2))), Steps(((1, -1), (0, 1)), (1,)),
             AnyOf((TakeUpTo(((1, 0), (1, 1)), 2, 3), Steps(((0, 1),), (2,))))]


@pytest.mark.parametrize("relation", RELATIONS, ids=lambda r: type(r).__name__)
def test_option_counts_match_brute_force(relation):
    positions = box(2, 9)
    wide = box(2, 12)  # steps with a negative entry reach beyond the box
    for p in positions:
        allowed = relation.allows(np.repeat(p[None], len(wide), axis=0), wide)
        assert option_counts(relation, p[None])[0] == allowed.sum(), p


def test_options_that_may_repeat_or_never_end_are_not_counted():
    assert option_counts(Steps(((1, 1), (2, 2)), (1,)), box(2, 2)) is None  # (2, 2) - 2·(1, 1) twice
    assert option_counts(Steps(((-1,),)), box(1, 2)) is None
    assert option_counts(EuclidMultiples(), box(2, 2)) is None
    assert option_counts(AnyOf((take_from_one(2), TakeFromSome(1))), box(2, 2)) is None
    with pytest.raises(ValueError, match="cannot be counted"):
        differs_on(EuclidMultiples(), box(2, 2), custom_game("x", lambda p: [], 2).option_rows)
