"""``find_strategy``: discover a winning-move function for a rule, then check it exactly on a bound.

First the moves the theorems' proofs construct (``discover.proofs.theorem_moves``: the nim-sum move, Bouton's
misère move, Wythoff's pairs, Moore's pair moves, Euclid's remainders), where a theorem fits the game: each
candidate is pruned on a small bound and checked exactly on every N position of the check bound, a block of
positions at a time (one numpy pass per candidate move and block, stopping at the first gap).

Only when no theorem's moves hold does the search run, over the game's own moves.  On a small training universe
every N position's winning moves (options the rule calls P) are listed and grouped by their shape: a change of one
heap (a heap move h_j -> V), a step along one of the relation's vectors (amount t; not fitted when every
vector is a unit vector: such a step is a heap move, already fitted), or a change of a set of coordinates
(one new value each).  The enumeration engine, with the rule grammar, fits V,
t or the new values as expressions of the position's features (plus h), within a work budget proportional to
the check bound's positions; for finite subtraction sets each amount is a candidate too.  Candidates are then
chosen greedily, each time the one that gives a winning move from the most positions still uncovered, until every
N position is covered; branches the others make redundant are dropped, and the strategy is checked on every N
position of a larger bound, positions it misses there going back into the search.
"""

from __future__ import annotations

import functools
import time

import numpy as np
import sympy as sp

from discover.box_positions import box_positions
from discover.engines.enumeration import EnumerationEngine
from discover.expr.features import derived_names, feature_columns
from discover.known_labels import KnownLabels
from discover.proofs.theorem_moves import theorem_strategies
from discover.strategy import HEAP, Branch, MovesOf, Strategy
from games import Game
from games.symbolic import AnyOf, PowerSteps, ProgressionSteps, Steps, TakeFromSome
from solvers.graph_store import known_options

__all__ = ["find_strategy", "check_strategy"]

TRAIN_POSITIONS = 4096
CHECK_POSITIONS = 2_000_000
CHECK_PYTHON_POSITIONS = 200_000  # without a symbolic relation every move is checked by calling moves()
CHECK_BLOCK = 1 << 16  # positions checked at a time (the candidates' arrays stay small; a gap ends the check early)
KNOWN_POSITIONS = 1 << 26  # the check keeps the rule's labels of a box up to this size (a byte each), read by id
OPTION_BLOCK = 512  # positions whose options are listed at a time
FIT_WORK = 3e8  # element operations per fit at most: a larger budget reaches larger partial fits first
FIT_WORK_PER_POSITION = 100  # a fit's budget per position of the check bound (the search costs about the check)
FIT_WORK_LEAST = 1e7  # the least budget of a fit (a one-heap game checks only a few hundred positions)
FIT_SIZE = 6  # nodes of a fitted value: the catalogue's strategies need at most 5 (⌊φ·a⌋ + 1), and 7 takes Wythoff twice as long


def _largest_bound(base: int, dims: int, limit: int, most: int) -> int:
    """The largest bound <= ``most`` whose universe has about ``limit`` positions at most (scaled from the size
    ``base`` of the universe at bound 4 as ((bound + 1) / 5) ** dims, exact for boxes)."""
    bound = most
    while bound > 1 and base * ((bound + 1) / 5) ** dims > limit:
        bound -= 1
    return bound


def _option_rows(game: Game, relation, block) -> tuple[np.ndarray, np.ndarray]:
    """``(counts, options)`` of a block of positions, as ``game.option_rows`` gives them: a custom game's read from
    its kept graph (``MovesOf``, or a graph kept while ``find_rule`` runs: no ``moves()`` call again)."""
    if isinstance(relation, MovesOf):
        return relation.option_rows(block)
    kept = known_options(game, block) if game.kernel is None else None
    if kept is not None:
        return kept
    counts, out = game.option_block(block)
    return counts, out[np.arange(out.shape[1])[None, :] < counts[:, None]]


def _playable(game: Game, relation, positions, most: int | None = None) -> np.ndarray:
    """The positions that have at least one option (a terminal N position, in misère play, needs no move): the
    first ``most`` of them (all by default); a custom game's options from ``MovesOf`` (its kept graph)."""
    kept, count = [positions[:0]], 0
    for lo in range(0, len(positions), OPTION_BLOCK):
        if most is not None and count >= most:
            break
        block = positions[lo:lo + OPTION_BLOCK]
        counts = _option_rows(game, relation, block)[0]
        kept.append(block[counts > 0])
        count += len(kept[-1])
    return np.concatenate(kept)[:most]


def check_strategy(strategy: Strategy, game: Game, bound: int, most: int = 5000) -> np.ndarray:
    """The N positions (by the rule) of ``game.universe(bound)`` where the strategy has no winning
    move (the first ``most`` of them), as an (n, dims) array: empty when the strategy holds on the
    whole bound.  The universe is checked a block of positions at a time, and the check stops once ``most``
    gaps are found.  A box's blocks are built by ``box_positions`` and their rule labels kept
    (``KnownLabels``, up to ``KNOWN_POSITIONS`` positions): a candidate move into a block already labelled (every
    move of Nim, Wythoff, a subtraction game) is judged by its new position's id, with the rule's own verdicts.

    Examples
    --------
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> game = make_game("subtraction", subtract=(1, 2, 3))
    >>> rule = Rule(sp.Eq(sp.Mod(sp.Symbol("n"), 4), 0), ("n",))
    >>> strategy = Strategy(rule, game.move_relation(), [Branch((sp.Symbol("n") - sp.Mod(sp.Symbol("n"), 4),))])
    >>> len(check_strategy(strategy, game, 100))
    0
    """
    return _check(strategy, game, game.universe(bound), most)


def _check(strategy: Strategy, game: Game, universe, most: int) -> np.ndarray:
    """``check_strategy`` over ``universe`` (built by the caller)."""
    known = KnownLabels(strategy.rule, universe) if universe.is_box and universe.size <= KNOWN_POSITIONS else None
    missed, count = [], 0
    for lo in range(0, universe.size, CHECK_BLOCK):
        hi = min(lo + CHECK_BLOCK, universe.size)
        positions = box_positions(universe, lo, hi) if universe.is_box else universe.positions(np.arange(lo, hi))
        labels = strategy.rule.predicate(positions)
        if known is not None:
            known.fill(lo, labels)
        rows = np.flatnonzero(~labels)
        todo = positions.take(rows, axis=0)  # take: 3x faster than a boolean mask over rows
        gaps = _playable(game, strategy.relation, todo[strategy.misses(todo, known, rows + lo)], most - count)
        missed.append(gaps)
        count += len(gaps)
        if count >= most:
            break
    return np.concatenate(missed) if missed else np.zeros((0, game.dims), np.int64)


def _prune(rule, relation, branches, positions) -> list:
    """Drop branches the others make redundant on every one of ``positions`` (greedy picks can be)."""
    kept = list(branches)
    for branch in list(kept):
        rest = [b for b in kept if b is not branch]
        if rest and not Strategy(rule, relation, rest).misses(positions).any():
            kept = rest
    return kept


def _from_theorems(rule, game, relation, sample, check):
    """The first theorem's strategy that holds on every N position of the universe ``check`` (pruned on ``sample``'s
    N positions when the pruned one holds too), as (its theorem's name, its branches); None when none holds."""
    candidates = theorem_strategies(rule, game, relation, sample)
    playable = _playable(game, relation, sample[~rule.predicate(sample)]) if candidates else sample[:0]
    for name, branches in candidates:
        if Strategy(rule, relation, branches).misses(playable).any():
            continue  # a gap already on the small bound
        pruned = _prune(rule, relation, branches, playable)
        for tried in [pruned] + ([branches] if len(pruned) < len(branches) else []):
            if not len(_check(Strategy(rule, relation, tried), game, check, most=1)):
                return name, tried
    return None


def find_strategy(rule, game: Game, bound: int | None = None, *, train_bound: int | None = None,
                  verified_bound: int | None = None, time_cap: float = 300.0, max_branches: int = 12,
                  seed: int = 0) -> Strategy | None:
    """A strategy for ``rule`` found over ``game``'s moves and checked on every N position up to
    ``bound``, or None when none is found within the budget.

    Parameters
    ----------
    rule : Rule
        A P rule (target "P"), verified or proved.
    game : Game
        A game whose options are single positions.  Candidate moves are legal by its ``move_relation()``, or,
        for a custom game that states none, by its own ``moves()`` (``MovesOf``: the strategy is then checked on a
        bound of at most ``CHECK_PYTHON_POSITIONS`` positions unless ``bound`` is given, and nothing is proved
        from it; where the graph over the check bound is kept, ``solvers.graph_store``, as ``find_rule`` keeps
        the verification's, moves are read from it and ``moves()`` is not called again).
    bound : int, optional
        The check bound (default: the largest up to ten times the training bound, and up to
        ``verified_bound``, whose universe has at most two million positions, or ``CHECK_PYTHON_POSITIONS`` for a
        custom game without a relation).
    train_bound : int, optional
        The bound of the search (default: the largest with at most 4096 positions, up to 30).
    verified_bound : int, optional
        The bound the rule was verified on: the default check bound is at most this (a strategy is not
        checked where its rule was not).
    time_cap : float
        Seconds after which the search gives up anyway: a safety net far above the usual search, which is
        bounded by counts (``max_branches``, the engines' own work budgets), so that the same rule and game
        give the same strategy on any machine.
    max_branches : int
        The most candidate moves a strategy may list.
    seed : int
        Seeds the engines that fit the moves' values.

    Returns
    -------
    Strategy or None
        Ordered branches (a guard, the coordinate it moves and the value it leaves) that take every N
        position up to ``bound`` into a P position of the rule; None when the search finds none.

    Raises
    ------
    ValueError
        If ``rule`` is not a P rule, or the game is a sum of heaps.

    Notes
    -----
    The moves the classical theorems' proofs construct are tried first (``discover.proofs.theorem_moves``):
    Nim's move to a zero nim-sum (take h_j - (h_j xor s) from a heap with h_j xor s < h_j) [1]_ and its misère
    variant, Wythoff's moves into the pairs (floor(k phi), floor(k phi^2)) [2]_, the pair moves of Moore's
    Nim_2 [3]_ and Euclid's remainders; each is checked exactly like a searched strategy, the search runs only
    when none holds, and ``provenance["theorem"]`` names the theorem whose moves held.  ``prove_rule`` then
    proves the rule with the strategy.

    References
    ----------
    .. [1] C. L. Bouton, "Nim, a game with a complete mathematical theory", Annals of Mathematics 3
       (1901), 35-39.
    .. [2] W. A. Wythoff, "A modification of the game of Nim", Nieuw Archief voor Wiskunde 7 (1907),
       199-202.
    .. [3] E. H. Moore, "A generalization of the game called Nim", Annals of Mathematics 11 (1910), 93-94.

    Examples
    --------
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> game = make_game("nim", heaps=3)
    >>> strategy = find_strategy(Rule(sp.Eq(sp.Symbol("xor_all"), 0), game.feature_names), game)
    >>> strategy.text()
    'take h_j - (h_j ⊕ s) from a heap j where h_j ⊕ s < h_j, s = a ⊕ b ⊕ c'
    """
    if rule.target != "P" or game.parts > 1:
        raise ValueError("find_strategy needs a P rule on a game whose options are single positions")
    relation = game.move_relation()
    stated = relation is not None
    start = time.perf_counter()
    universe = functools.cache(game.universe)  # each bound's universe built once (Chomp's from its positions)
    base = universe(4).size
    train = train_bound or _largest_bound(base, game.dims, TRAIN_POSITIONS, 30)
    check = bound or _largest_bound(base, game.dims, CHECK_POSITIONS if stated else CHECK_PYTHON_POSITIONS,
                                    min(10 * train, verified_bound or 10 * train))
    relation = relation if stated else MovesOf(game, universe(check))
    sample = universe(train).positions()
    found = _from_theorems(rule, game, relation, sample, universe(check))
    if found is not None:
        return Strategy(rule, relation, found[1], checked_bound=check,
                        provenance={"theorem": found[0], "seconds": time.perf_counter() - start})
    work = min(FIT_WORK, max(FIT_WORK_LEAST, FIT_WORK_PER_POSITION * universe(check).size))
    search = _Search(rule, game, relation, seed, start + time_cap, work)
    search.add_positions(sample)
    branches: list[Branch] = []
    while time.perf_counter() < search.deadline:
        if not search.uncovered():
            if not branches:
                return None
            branches = _prune(rule, relation, branches, search.positions)
            missed = _check(Strategy(rule, relation, branches), game, universe(check), 5000)
            if not len(missed):
                return Strategy(rule, relation, branches, checked_bound=check,
                                provenance={"train_bound": train, "seed": seed, "seconds": time.perf_counter() - start})
            search.add_positions(missed[:2000])
            continue
        if len(branches) >= max_branches:
            return None
        best = search.best_branch(branches)
        if best is None:
            return None
        branches.append(best)
        search.cover(Strategy(rule, relation, branches))
    return None


class _Search:
    """Winning moves of the positions in play, and candidate branches fitted to them."""

    def __init__(self, rule, game, relation, seed, deadline, work):
        self.rule, self.game, self.relation, self.seed = rule, game, relation, seed
        self.deadline, self.work = deadline, work
        self.names = list(game.feature_names)
        self.dims = game.dims
        self.features = self.names + derived_names(self.dims)
        self.positions = np.zeros((0, self.dims), np.int64)
        self.wins: list[np.ndarray] = []  # winning options of each position in play
        self.open = np.zeros(0, dtype=bool)

    def add_positions(self, positions):
        positions = np.asarray(positions, dtype=np.int64)
        positions = positions[~self.rule.predicate(positions)] if len(positions) else positions
        kept = [self.positions]
        for lo in range(0, len(positions), 512):  # the options of a block at a time (a custom game: its moves())
            block = positions[lo:lo + 512]
            counts, options = _option_rows(self.game, self.relation, block)
            wins = self.rule.predicate(options) if len(options) else np.zeros(0, dtype=bool)
            ends = np.cumsum(counts)
            for r in np.flatnonzero(counts):
                self.wins.append(options[ends[r] - counts[r]:ends[r]][wins[ends[r] - counts[r]:ends[r]]])
            kept.append(block[counts > 0])
        self.positions = np.concatenate(kept)
        self.open = np.concatenate([self.open, np.ones(len(self.positions) - len(self.open), dtype=bool)])


    def uncovered(self) -> int:
        return int(self.open.sum())

    def cover(self, strategy: Strategy):
        self.open &= strategy.misses(self.positions)

    # -- candidates --------------------------------------------------------------------
    def best_branch(self, chosen) -> Branch | None:
        rows = np.flatnonzero(self.open)
        best, best_key, seen = None, None, set(chosen)
        union = np.zeros(len(rows), dtype=bool)
        for group in self._candidates(rows):  # groups of candidates, cheapest first
            for branch in group:
                if branch in seen:
                    continue
                seen.add(branch)
                hits = ~Strategy(self.rule, self.relation, [branch]).misses(self.positions[rows])
                union |= hits
                key = (-int(hits.sum()), sum(sp.count_ops(v) for v in branch.values))
                if not hits.any() or (best_key is not None and key > best_key):
                    continue
                if best_key is None or key < best_key or str(branch.values) < str(best.values):  # text breaks ties only
                    best, best_key = branch, key
            if union.all():
                break  # the candidates so far can cover every open position: fit no more
        return best

    def _candidates(self, rows):
        """Groups of candidate branches (each group fitted only when the earlier ones left rows open): new positions
        first for a union of relations, heap moves where some member takes from one heap, steps along each other
        member's vectors, and new positions last for a single relation without steps."""
        several = isinstance(self.relation, AnyOf)
        members = self.relation.members if several else (self.relation,)
        if several:  # several kinds of move: the new positions first, any kind of move may be the winning one
            yield self._fit_new_positions(rows)
        if self.dims >= 2 and any(isinstance(m, TakeFromSome) or (isinstance(m, Steps) and _unit_vectors(m))
                                  for m in members):
            yield [Branch((v,), per_heap=True) for v in self._fit_heap_values(rows)]
        stepped = [m for m in members if isinstance(m, (Steps, ProgressionSteps, PowerSteps))
                   and not (self.dims >= 2 and _unit_vectors(m))]
        coords = [sp.Symbol(n) for n in self.names]
        for member in stepped:
            for v in member.vectors:
                lead = next(i for i, k in enumerate(v) if k)
                amounts, values = self._fit_steps(rows, np.array(v))
                amounts += [v[lead] * (coords[lead] - value) for value in values]  # the lead's new value
                amounts = list(getattr(member, "amounts", None) or []) + amounts
                yield [Branch(tuple(x - t * k for x, k in zip(coords, v))) for t in map(sp.sympify, amounts)]
        if not stepped and not several:
            yield self._fit_new_positions(rows)

    def _fit(self, positions, extra, y) -> list:
        """Integer expressions of the features (and ``extra`` columns) fitted to y: exact ones, then the best partial."""
        if len(y) == 0 or time.perf_counter() > self.deadline:
            return []
        columns = feature_columns(self.features, self.names, positions)
        columns.update(extra)
        names = list(columns)
        X = np.stack([columns[n] for n in names], axis=1)
        engine = EnumerationEngine(max_size=FIT_SIZE, work_budget=self.work, n_partial=3, random_state=self.seed)
        engine.fit(X, y, feature_names=names, target="grundy")
        return [c.expr for c in engine.candidates_[:4]]

    def _fit_heap_values(self, rows) -> list:
        """V(h, features) for heap moves: per (position, heap) with a winning one-heap move, its largest value."""
        ps, hs, ys = [], [], []
        for r in rows:
            p, wins = self.positions[r], self.wins[r]
            changed = wins != p
            for j in range(self.dims):
                one = wins[changed[:, j] & (changed.sum(axis=1) == 1), j]
                if len(one):
                    ps.append(p)
                    hs.append(p[j])
                    ys.append(one.max())
        if not ys:
            return []
        exprs = self._fit(np.array(ps), {"h": np.array(hs)}, np.array(ys))
        return [e.xreplace({sp.Symbol("h"): HEAP}) for e in exprs]

    def _fit_steps(self, rows, v) -> tuple[list, list]:
        """For steps along v: t(features) fitted to the smallest winning amount of each position that
        has one, and the new value of the step's first coordinate fitted the same way."""
        ps, ts = [], []
        lead = int(np.flatnonzero(v)[0])
        for r in rows:
            p, wins = self.positions[r], self.wins[r]
            t = (p[lead] - wins[:, lead]) // v[lead]
            along = (t >= 1) & ((p[None, :] - t[:, None] * v[None, :]) == wins).all(axis=1)
            if along.any():
                ps.append(p)
                ts.append(t[along].min())
        if not ts:
            return [], []
        ps, ts = np.array(ps), np.array(ts)
        return self._fit(ps, {}, ts), self._fit(ps, {}, ps[:, lead] - ts * v[lead])

    def _fit_new_positions(self, rows) -> list[Branch]:
        """For each set of changed coordinates, the new value of each, fitted (the largest winning option)."""
        groups: dict = {}
        for r in rows:
            p, wins = self.positions[r], self.wins[r]
            for w in wins:
                key = tuple(np.flatnonzero(w != p))
                best = groups.setdefault(key, {}).get(r)
                if best is None or tuple(w) > tuple(best):
                    groups[key][r] = w
        out = []
        coords = [sp.Symbol(n) for n in self.names]
        for key, chosen in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:6]:
            ids = np.array(sorted(chosen))
            targets = np.array([chosen[r] for r in ids])
            fits = [self._fit(self.positions[ids], {}, targets[:, i]) for i in key]
            if all(fits):
                values = list(coords)
                for i, exprs in zip(key, fits):
                    values[i] = exprs[0]
                out.append(Branch(tuple(values)))
        return out


def _unit_vectors(relation) -> bool:
    return all(sum(v) == 1 and min(v) == 0 for v in relation.vectors)
