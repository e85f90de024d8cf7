"""Whether a game's symbolic move relation states the same moves as its ``moves()``.

A proof of the closure certificate (``discover.proofs.prove``) is a proof about the moves the relation
states.  For the toolkit's own families the relation is tested against the move kernels; a custom game's
relation is the user's word (``games.custom.custom_game(..., relation=...)``), so a proof of a custom game
rests on the agreement checked here, and says up to which bound it was checked.

Two directions: every move ``moves()`` gives is one the relation allows (checked on every position of the
bound: read from the graph ``find_rule`` keeps, else one call of ``moves()`` per position), and every move
the relation allows between positions of the box is one ``moves()`` gives (every pair of positions: on the
largest box within the bound whose pairs fit ``PAIRS``).  A relation whose options ``games.infer_relation`` counts
(steps along distinct directions, Moore's moves: every relation it infers) is checked exactly at every position of
the bound instead: each option of ``moves()`` is a move of the relation, and the relation gives as many.
"""

from __future__ import annotations

import numpy as np

from games import Game
from games.infer_relation import differs_on, option_counts
from solvers.graph_store import kept_options

__all__ = ["relation_agrees", "relation_agreement", "relation_basis", "resting_on", "heap_sums_differ", "PAIRS",
           "SUMS_HEAPS"]

PAIRS = 2 * 10**7  # pairs of positions the relation is tested on, at most
SUMS_HEAPS = 40  # heaps on which a one-heap relation whose options are sums (take-and-break) is compared with moves()
CHUNK = 1 << 20  # pairs per vectorised call


def _largest_bound(game: Game, positions: int, top: int | None = None) -> int:
    """The largest bound (at most ``top``) whose universe holds at most ``positions`` positions.

    At least 1 while the pairs of bound 1's box fit ``PAIRS``; beyond (2^heaps positions for many heaps: 2^40 pairs
    for 20) the box of bound 0, so that a check takes a box it can afford and names it.
    """
    bound = 1 if game.universe(1).size ** 2 <= PAIRS else 0
    if top is not None:
        bound = min(bound, top)
    while (top is None or bound < top) and game.universe(bound + 1).size <= positions:
        bound += 1
    return bound


def _option_rows(game: Game, universe, block) -> tuple[np.ndarray, np.ndarray]:
    """``game.option_rows(block)``, read from the graph over ``universe`` when one is kept (``solvers.graph_store``:
    ``find_rule`` keeps a custom game's, so its ``moves()`` is not called a second time)."""
    kept = kept_options(game, universe, block)
    return kept if kept is not None else game.option_rows(block)


def _pairs_differ(game: Game, bound: int) -> dict | None:
    """The first position of ``game.universe(bound)`` whose options within the box differ from the relation's."""
    relation = game.move_relation()
    universe = game.universe(bound)
    points = universe.positions()
    n = len(points)
    inside = {tuple(int(x) for x in q) for q in points}
    rows = max(1, CHUNK // max(n, 1))
    for lo in range(0, n, rows):
        block = points[lo:lo + rows]
        claimed = relation.allows(np.repeat(block, n, axis=0), np.tile(points, (len(block), 1))).reshape(len(block), n)
        counts, options = _option_rows(game, universe, block)
        ends = np.cumsum(counts)
        for p, allowed, end, count in zip(block, claimed, ends, counts):
            given = set(map(tuple, options[end - count:end].tolist())) & inside  # one out of the box: the other check
            stated = {tuple(int(x) for x in q) for q in points[allowed]}
            if given != stated:
                return _difference(p, given, stated)
    return None


def _difference(p, given: set, stated: set) -> dict:
    position = tuple(int(x) for x in p)
    extra = sorted(stated - given)
    if extra:
        return {"position": position, "move": extra[0],
                "reason": f"the relation allows {position} → {extra[0]}, which moves() does not give"}
    missing = sorted(given - stated)[0]
    return {"position": position, "move": missing,
            "reason": f"moves() gives {position} → {missing}, which the relation does not allow"}


def relation_agrees(game: Game, positions: int = 300) -> dict | None:
    """Check the game's symbolic relation against its own moves on a small universe.

    The universe's bound is the largest with at most ``positions`` positions (bound 1 while its pairs fit
    ``PAIRS``, bound 0 beyond: many heaps); every pair of its positions is tested (for a game whose options are
    sums of positions, every option of every position and their number, or for one heap every multiset of two
    heaps, up to heap ``SUMS_HEAPS``: ``heap_sums_differ``).  Returns None when
    relation and moves agree, else the first position where they differ (``position``, ``move`` and
    ``reason``, one line naming both).

    Examples
    --------
    >>> from games import make_game
    >>> relation_agrees(make_game("staircase", stairs=3)) is None
    True
    """
    if game.parts > 1 and game.dims == 1:
        return heap_sums_differ(game)
    bound = _largest_bound(game, positions)
    return _sums_differ(game, bound) if game.parts > 1 else _pairs_differ(game, bound)


def heap_sums_differ(game: Game, heaps: int = SUMS_HEAPS) -> dict | None:
    """Where a one-heap relation whose options are two heaps (take-and-break) and ``moves()`` give different options
    (as multisets of heaps, 0 no heap), up to heap ``heaps``; None when they agree there.

    Examples
    --------
    >>> from games import make_game
    >>> heap_sums_differ(make_game("octal", code="0.137")) is None
    True
    """
    relation = game.move_relation()
    for n in range(heaps + 1):
        given = {tuple(sorted(h for h in option if h)) for option in game.moves((n,))}
        pairs = np.array([(x, y) for x in range(n + 1) for y in range(x + 1)], dtype=np.int64)
        allowed = relation.allows(np.full((len(pairs), 1), n), pairs)
        stated = {tuple(sorted(int(h) for h in pair if h)) for pair in pairs[allowed]}
        if given != stated:
            extra = sorted(given ^ stated)[0]
            return {"position": (n,), "move": extra, "reason": f"heap {n}: {extra} is an option of "
                    f"{'moves()' if extra in given else 'the relation'} only"}
    return None


def _sums_differ(game: Game, bound: int) -> dict | None:
    """For a game of several coordinates whose options are sums of ``parts`` positions (Turning Corners), which no
    pair of positions states: the first position of ``game.universe(bound)`` where an option of ``moves()`` is not
    one the relation allows, or the relation gives another number of options (an option's parts in either order)."""
    relation = game.move_relation()
    universe = game.universe(bound)
    if option_counts(relation, universe.positions()[:1]) is None:
        return {"position": None, "move": None, "reason": f"the options of the relation {relation.words()!r}, sums "
                f"of {game.parts} positions, cannot be counted"}

    def sorted_parts(block):
        counts, options = _option_rows(game, universe, block)
        parts = options.reshape(len(options), game.parts, game.dims)
        order = np.lexsort(parts.transpose(2, 0, 1)[::-1], axis=-1)
        return counts, np.take_along_axis(parts, order[:, :, None], axis=1).reshape(len(options), -1)
    return differs_on(relation, universe.positions(), sorted_parts)


def relation_agreement(game: Game, bound: int | None = None) -> tuple[dict | None, int]:
    """The first disagreement between relation and ``moves()`` up to ``bound``, and the bound both directions cover.

    ``bound`` defaults to the largest box of at most 300 positions (``relation_agrees``'s).
    Every move ``moves()`` gives from a position of ``game.universe(bound)`` is tested against the relation;
    every pair of positions is tested on the largest box within ``bound`` whose pairs fit ``PAIRS`` (the second
    value returned: ``bound`` itself when the box is small enough, 0 when not even bound 1's pairs fit), or, for a
    relation whose options can be counted, the number of options of every position of the bound (the second value
    is then ``bound``).

    Examples
    --------
    >>> from games.custom import custom_game
    >>> from games.symbolic import take_from_one
    >>> moves = lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0] and (t == 1 or p[0] < 500)]
    >>> relation_agreement(custom_game("take12", moves, 1, relation=take_from_one(1, (1, 2))), 1000)[0]["reason"]
    'the relation allows (500,) → (498,), which moves() does not give'
    """
    relation = game.move_relation()
    bound = _largest_bound(game, 300) if bound is None else bound
    if option_counts(relation, np.zeros((1, game.dims), dtype=np.int64)) is not None:  # exact at every position
        universe = game.universe(bound)
        return differs_on(relation, universe.positions(), lambda block: _option_rows(game, universe, block)), bound
    pairs_bound = _largest_bound(game, int(PAIRS ** 0.5), bound)
    differs = _pairs_differ(game, pairs_bound)
    if differs is not None or pairs_bound == bound:
        return differs, pairs_bound
    universe = game.universe(bound)
    points = universe.positions()
    for lo in range(0, len(points), CHUNK // 16):
        block = points[lo:lo + CHUNK // 16]
        counts, after = _option_rows(game, universe, block)  # a block's options at once, no tuple per option kept
        if not counts.sum():
            continue
        before = np.repeat(block, counts, axis=0)
        bad = np.flatnonzero(~relation.allows(before, after))
        if bad.size:
            p, q = tuple(int(x) for x in before[bad[0]]), tuple(int(x) for x in after[bad[0]])
            return {"position": p, "move": q,
                    "reason": f"moves() gives {p} → {q}, which the relation does not allow"}, pairs_bound
    return None, pairs_bound


def relation_basis(game: Game, bound: int | None = None) -> tuple[dict | None, dict]:
    """The first disagreement between a game's relation and its ``moves()`` (None when none), and what a proof for
    its moves then rests on: nothing for a built-in or declared game (its relation and kernel come from one
    declaration: ``relation_agrees`` checks them on a small box), the relation and the bound on which it agrees
    with ``moves()`` for a relation given beside a Python ``moves()`` or inferred from it (``relation_agreement``
    up to ``bound``).

    Examples
    --------
    >>> from games.custom import custom_game
    >>> from games.symbolic import take_from_one
    >>> moves = lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]]
    >>> game = custom_game("take12", moves, 1, relation=take_from_one(1, (1, 2)))
    >>> relation_basis(game, 50)[1]["agrees_with_moves_up_to"]
    50
    """
    if not game.spec().get("custom") or "declared" in game.spec():
        return relation_agrees(game), {}
    differs, agreed = relation_agreement(game, bound)
    return differs, ({} if differs is not None else
                     {"relation": game.move_relation().words(), "agrees_with_moves_up_to": agreed})


def resting_on(statement: str, rests_on: dict) -> str:
    """A proof's statement with what it rests on (``relation_basis``) said: the relation and its box.

    Examples
    --------
    >>> resting_on("for every position", {"relation": "take 1 or 2", "agrees_with_moves_up_to": 300})[18:]
    ', for the moves of the relation "take 1 or 2", which agrees with moves() on every position up to 300'
    """
    if not rests_on:
        return statement
    return (f"{statement}, for the moves of the relation \"{rests_on['relation']}\", which agrees with moves() on "
            f"every position up to {rests_on['agrees_with_moves_up_to']:,}")
