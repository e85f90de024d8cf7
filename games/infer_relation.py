"""A game's moves as a ``games.symbolic`` relation, inferred from its options on a box.

``infer_relation`` reads the options of every position of a box (a custom game's ``moves()``, as the rows
``Game.option_rows`` gives), writes each move as p -> p - t·v with v a primitive integer vector (its entries'
greatest common divisor 1) and t >= 1, and states the amounts seen along each v in the shortest form that
gives exactly them on the box: any amount, an arithmetic progression (odd numbers, multiples), the powers of a
number, or the finite list; amounts that fit none of these are also tried as at most a fraction of the heaps the
step takes from (``TakeUpTo``: half, a third, two thirds).  Vectors with the same amounts share one ``Steps`` (an
``AnyOf`` of several);
a game whose moves take from several heaps at once is also tried as Moore's ``TakeFromSome(k)``.  A candidate is
kept only when it gives exactly the options ``moves()`` gives at every position of the box
(``first_difference``: every option is a move of the relation, and the relation has no other move there,
counted by ``option_counts``); beyond the box nothing is claimed.

Examples
--------
>>> from games.custom import custom_game
>>> game = custom_game("odd", lambda p: [(p[0] - t,) for t in range(1, p[0] + 1, 2)], dims=1)
>>> relation, _ = infer_relation(np.arange(40).reshape(-1, 1), game.option_rows)
>>> relation.words()
'subtract t·v (t in {1, 3, 5, ...}, every coordinate staying ≥ 0) for v in 1'
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from games.declared import FRACTIONS
from games.symbolic import (AnyOf, CornerTurns, MoveRelation, PowerSteps, ProgressionSteps, Steps, TakeFromSome,
                             TakeUpTo)

__all__ = ["infer_relation", "differs_on", "first_difference", "option_counts"]

_STEPS = (Steps, ProgressionSteps, PowerSteps, TakeUpTo)  # relations of steps along vectors, counted
FRACTION_GROUPS = 3  # groups of listed amounts tried together as a fraction of the heaps, at most
BLOCK = 1 << 12  # positions whose options are read at a time (a few MB of options for most games)


def _blocks(positions, option_rows):
    """``(block, counts, options)`` for blocks of ``positions``, each option listed once per position."""
    for lo in range(0, len(positions), BLOCK):
        block = positions[lo:lo + BLOCK]
        counts, options = option_rows(block)
        rows = np.repeat(np.arange(len(block)), counts)
        pairs = _unique_rows(np.column_stack([rows, np.asarray(options, dtype=np.int64)]))
        yield block, np.bincount(pairs[:, 0], minlength=len(block)), pairs[:, 1:]


def _unique_rows(rows: np.ndarray) -> np.ndarray:
    """The distinct rows of a 2-D int array, sorted: as one int64 key a row when the columns' ranges allow (a sort
    of numbers: far faster than ``np.unique(axis=0)``), else by a lexsort."""
    if len(rows) < 2:
        return rows
    low, high = rows.min(axis=0), rows.max(axis=0)
    spans = [int(h) - int(lo) + 1 for lo, h in zip(low, high)]
    if math.prod(spans) < 2 ** 62:
        strides = [math.prod(spans[i + 1:]) for i in range(len(spans))]
        keys = rows[:, 0] - low[0]
        for i in range(1, rows.shape[1]):  # by columns: int64 products are no BLAS matmul
            keys = keys * spans[i] + (rows[:, i] - low[i])
        keys.sort()  # a sort: numpy's hashed np.unique is slower on millions of keys
        keys = keys[np.concatenate([[True], keys[1:] != keys[:-1]])]
        return np.stack([keys // st % sp + lo for st, sp, lo in zip(strides, spans, low)], axis=1)
    rows = rows[np.lexsort(rows.T[::-1])]
    keep = np.ones(len(rows), dtype=bool)
    keep[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    return rows[keep]


def _reach(positions, v) -> np.ndarray:
    """The largest t with p - t·v >= 0 at each position (v with a positive entry)."""
    return np.min([positions[:, i] // x for i, x in enumerate(v) if x > 0], axis=0)


def _count_along(member, positions, v) -> np.ndarray:
    """How many options ``member`` gives along v at each position: its amounts t with p - t·v >= 0."""
    reach = np.maximum(_reach(positions, v), 0)
    if isinstance(member, TakeUpTo):
        limit = np.min([member.num * positions[:, i] // member.den for i, x in enumerate(v) if x > 0], axis=0)
        return np.maximum(np.minimum(reach, limit), 0)
    if isinstance(member, Steps):
        return reach if member.amounts is None else np.searchsorted(np.array(member.amounts), reach, side="right")
    if isinstance(member, ProgressionSteps):
        return np.where(reach >= member.first, (reach - member.first) // member.step + 1, 0)
    powers = [member.base ** k for k in range(64) if member.base ** k <= max(int(reach.max(initial=0)), 1)]
    return np.searchsorted(np.array(powers), reach, side="right")


def _first_amounts(member, count: int) -> list[int]:
    """The ``count`` smallest amounts of ``member`` (those ``_count_along`` counts)."""
    if isinstance(member, Steps) and member.amounts is not None:
        return list(member.amounts[:count])
    if isinstance(member, ProgressionSteps):
        return [member.first + k * member.step for k in range(count)]
    if isinstance(member, PowerSteps):
        return [member.base ** k for k in range(count)]
    return list(range(1, count + 1))


def option_counts(relation: MoveRelation, positions) -> np.ndarray | None:
    """How many options ``relation`` gives each of an (n, dims) array of positions, or None where it cannot tell
    (a kind it does not count, vectors with no positive entry, or two members that may give the same option).

    Examples
    --------
    >>> option_counts(Steps(((1, 0), (0, 1), (1, 1)), (1, 2)), np.array([[2, 1], [0, 0]])).tolist()
    [4, 0]
    >>> option_counts(TakeFromSome(2), np.array([[1, 2, 3]])).tolist()
    [17]
    """
    positions = np.asarray(positions, dtype=np.int64)
    if isinstance(relation, CornerTurns):  # one option for each corner (x', y') below and left of the coin
        return positions[:, 0] * positions[:, 1]
    if isinstance(relation, TakeFromSome):
        total = np.zeros(len(positions), dtype=np.int64)
        for size in range(1, relation.k + 1):
            for heaps in itertools.combinations(range(positions.shape[1]), size):
                total += np.prod(positions[:, heaps], axis=1)
        return total
    members = relation.members if isinstance(relation, AnyOf) else (relation,)
    if not all(isinstance(m, _STEPS) for m in members):
        return None
    vectors = [(m, v) for m in members for v in m.vectors]
    primitive = {tuple(x // math.gcd(*v) for x in v) for _, v in vectors}
    if len(primitive) < len(vectors) or any(max(v) <= 0 for _, v in vectors):
        return None  # parallel vectors may give one option twice; a vector adding to every heap, endless options
    total = np.zeros(len(positions), dtype=np.int64)
    for member, v in vectors:
        total += _count_along(member, positions, v)
    return total


def first_difference(relation: MoveRelation, positions, counts, options) -> dict | None:
    """The first position whose options (``counts`` and ``options``, each listed once, as ``Game.option_rows``
    lays them out) differ from those ``relation`` gives, or None; raises ``ValueError`` when the relation's options
    cannot be counted (``option_counts``).

    Examples
    --------
    >>> positions = np.array([[0], [1], [2]])
    >>> first_difference(Steps(((1,),), (1,)), positions, np.array([0, 1, 1]), np.array([[0], [1]])) is None
    True
    >>> first_difference(Steps(((1,),), (1, 2)), positions, np.array([0, 1, 1]), np.array([[0], [1]]))["reason"]
    'the relation allows (2,) → (0,), which moves() does not give'
    """
    positions = np.asarray(positions, dtype=np.int64)
    stated = option_counts(relation, positions)
    if stated is None:
        raise ValueError(f"the options of the relation {relation.words()!r} cannot be counted")
    before = np.repeat(positions, counts, axis=0)
    allowed = relation.allows(before, options) if len(before) else np.zeros(0, dtype=bool)
    if not allowed.all():
        r = int(np.flatnonzero(~allowed)[0])
        p, q = tuple(map(int, before[r])), tuple(map(int, options[r]))
        return {"position": p, "move": q, "reason": f"moves() gives {p} → {q}, which the relation does not allow"}
    bad = np.flatnonzero(stated != counts)
    if not bad.size:
        return None
    p = tuple(map(int, positions[bad[0]]))
    ends = np.cumsum(counts)
    given = set(map(tuple, options[ends[bad[0]] - counts[bad[0]]:ends[bad[0]]].tolist()))
    extra = sorted(set(_stated_options(relation, p)) - given)
    if extra:
        return {"position": p, "move": extra[0],
                "reason": f"the relation allows {p} → {extra[0]}, which moves() does not give"}
    return {"position": p, "move": None,
            "reason": f"the relation gives {p} {int(stated[bad[0]])} options, moves() {int(counts[bad[0]])}"}


def _stated_options(relation: MoveRelation, p: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The options a relation of steps gives one position (none listed for other kinds)."""
    members = relation.members if isinstance(relation, AnyOf) else (relation,)
    out = []
    for member in members:
        for v in member.vectors if isinstance(member, _STEPS) else ():
            count = int(_count_along(member, np.array([p]), v)[0])
            out += [tuple(x - t * k for x, k in zip(p, v)) for t in _first_amounts(member, count)]
    return out


def _amount_form(seen: tuple[int, ...], reach: int):
    """The shortest amount rule giving exactly ``seen`` among 1 .. ``reach``: ("any",), ("progression", first,
    step), ("powers", base) or ("list", amounts); a rule needs three amounts seen."""
    if seen == tuple(range(1, reach + 1)):
        return ("any",)
    if len(seen) >= 3:
        first, step = seen[0], seen[1] - seen[0]
        if seen == tuple(range(first, reach + 1, step)):
            return ("progression", first, step)
        base = seen[1]
        if seen[0] == 1 and seen == tuple(itertools.takewhile(lambda x: x <= reach, (base ** k for k in range(64)))):
            return ("powers", base)
    return ("list", seen)


def _member(vectors, form) -> MoveRelation:
    if form[0] == "any":
        return Steps(vectors)
    if form[0] == "progression":
        return ProgressionSteps(vectors, form[1], form[2])
    if form[0] == "powers":
        return PowerSteps(vectors, form[1])
    return Steps(vectors, form[1])


def _union(members: list) -> MoveRelation:
    return members[0] if len(members) == 1 else AnyOf(tuple(members))


def _candidates(positions, option_rows) -> list[MoveRelation]:
    """Relations that give every option seen on the box, shortest first."""
    seen: dict[tuple, set] = {}
    most, taking = 0, True
    for lo in range(0, len(positions), BLOCK):  # repeated options change no set of amounts: read as they come
        block = positions[lo:lo + BLOCK]
        counts, options = option_rows(block)
        moved = np.repeat(block, counts, axis=0) - options
        if not len(moved):
            continue
        size = np.abs(moved[:, 0])
        for column in moved.T[1:]:
            size = np.gcd(size, np.abs(column))
        if not size.all():
            continue  # an option equal to its position: no relation of the vocabulary states it
        direction = moved // size[:, None]
        taking &= bool((moved >= 0).all())
        most = max(most, int((moved != 0).sum(axis=1).max()))
        pairs = _unique_rows(np.column_stack([direction, size]))
        for row in pairs.tolist():
            seen.setdefault(tuple(row[:-1]), set()).add(row[-1])
    if not seen or any(max(v) <= 0 for v in seen):
        return []
    grouped: dict = {}
    for v in sorted(seen, key=lambda v: (sum(x != 0 for x in v), tuple(-x for x in v))):
        reach = int(_reach(positions, v).max())
        grouped.setdefault(_amount_form(tuple(sorted(seen[v])), reach), []).append(v)
    found = [_union([_member(tuple(vectors), form) for form, vectors in grouped.items()])]
    listed = [form for form, vectors in grouped.items() if form[0] == "list" and min(map(min, vectors)) >= 0]
    for size in range(1, min(len(listed), FRACTION_GROUPS) + 1):  # amounts up to a fraction of the heaps taken from
        for chosen in itertools.combinations(listed, size):
            kept = [_member(tuple(vectors), form) for form, vectors in grouped.items() if form not in chosen]
            vectors = tuple(v for form in chosen for v in grouped[form])
            found += [_union(kept + [TakeUpTo(vectors, num, den)]) for num, den in FRACTIONS.values()]
    if taking and most >= 2:
        found.insert(0, TakeFromSome(most))
    return found


def infer_relation(positions, option_rows) -> tuple[MoveRelation | None, str]:
    """The shortest relation that gives exactly the options ``option_rows`` gives at every position of
    ``positions``, and a sentence: how it was found, or why none fits.

    Parameters
    ----------
    positions : (n, dims) array of int
        Every position of a box (a position's options must lie among the box's positions' kind: integer tuples).
    option_rows : callable
        ``option_rows(block) -> (counts, options)``, as ``Game.option_rows`` (a kept graph's rows, or ``moves()``);
        called once per block of positions, then once per block for each candidate relation checked (a few).

    Returns
    -------
    (MoveRelation or None, str)

    Examples
    --------
    >>> from games.custom import custom_game
    >>> both = custom_game("both", lambda p: [(p[0] - 1, p[1] - 1)] if min(p) else [], dims=2)
    >>> box = np.array([(a, b) for a in range(6) for b in range(6)])
    >>> infer_relation(box, both.option_rows)[0]
    Steps(vectors=((1, 1),), amounts=(1,))
    >>> halve = custom_game("halve", lambda p: [(p[0] // 2,)] if p[0] else [], dims=1)
    >>> infer_relation(np.arange(20).reshape(-1, 1), halve.option_rows)
    (None, 'the relation allows (2,) → (0,), which moves() does not give')
    """
    positions = np.asarray(positions, dtype=np.int64)
    candidates = _candidates(positions, option_rows)
    if not candidates:
        return None, ("no position of the box has a move of the vocabulary (p → p - t·v, taking from some "
                      "coordinate)")
    differences = []
    for relation in candidates:
        differences.append(differs_on(relation, positions, option_rows))
        if differences[-1] is None:
            return relation, "gives exactly the options of moves() at every position of the box"
    return None, differences[0]["reason"]  # the plainest candidate's


def differs_on(relation: MoveRelation, positions, option_rows) -> dict | None:
    """``first_difference`` over every position of ``positions``, their options read a block at a time from
    ``option_rows(block) -> (counts, options)``: the first position where they differ, or None.

    Examples
    --------
    >>> from games.custom import custom_game
    >>> take = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0] < 50], dims=1)
    >>> differs_on(Steps(((1,),), (1, 2)), np.arange(60).reshape(-1, 1), take.option_rows)["reason"]
    'the relation allows (50,) → (48,), which moves() does not give'
    """
    positions = np.asarray(positions, dtype=np.int64)
    return next((d for block, counts, options in _blocks(positions, option_rows)
                 if (d := first_difference(relation, block, counts, options)) is not None), None)
