"""``Strategy``: a winning-move function for a rule, as sympy expressions.

A strategy is a short ordered list of candidate moves (branches).  From a position the rule calls
N, it plays the first candidate that is a legal move (by the game's ``games.symbolic`` relation)
and leads to a position the rule calls P.  A branch is either

- a heap move: heap j goes to a value V, an expression in ``h`` (standing for h_j) and the
  position's features; it is tried on the heaps in order (Nim: V = h ⊕ s, s = the xor of all heaps);
- a position move: the new value of every coordinate, an expression in the features
  (Wythoff's diagonal: (a - t, b - t) with t = min(a, b) - ⌊φ·|a - b|⌋).

Everything is derived from the expressions: ``move``/``moves`` evaluate them exactly with numpy,
``text``/``latex`` print them, ``discover.proofs`` states them in z3, ``to_json`` writes them as
trees read back against a whitelist.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from cgbase.reading import load_json
from discover.expr.features import DERIVED, feature_columns
from discover.expr.latex import rule_latex
from discover.expr.nodes import BitAnd, BitOr, BitXor
from discover.expr.numeric import compile_expr
from discover.expr.parse import as_expression
from discover.expr.text import rule_text
from discover.expr.tree import from_tree, to_tree
from discover.rule import Rule
from games.symbolic import MoveRelation, Steps, TakeFromSome, relation_from_record
from solvers.graph_store import has_edges, kept_graph, kept_options

__all__ = ["Branch", "Strategy", "HEAP", "MovesOf"]

#: the symbol standing for the value of the heap a heap move changes
HEAP = sp.Symbol("h")


@dataclass(frozen=True)
class Branch:
    """One candidate move: ``values`` is (V,) for a heap move (``per_heap``), else one expression
    per coordinate (the new position)."""

    values: tuple
    per_heap: bool = False

    def __post_init__(self):
        object.__setattr__(self, "values", tuple(as_expression(v) for v in self.values))

    def instances(self, coordinates) -> list[tuple]:
        """The concrete new positions this branch proposes, as tuples of expressions over features."""
        coords = [sp.Symbol(n) for n in coordinates]
        if not self.per_heap:
            return [self.values]
        return [tuple(self.values[0].xreplace({HEAP: x}) if i == j else x for i, x in enumerate(coords))
                for j in range(len(coords))]


class MovesOf(MoveRelation):
    """The moves of a game's own ``moves()``, as a relation: membership only, with no formula, so a strategy of a
    custom game stated without a symbolic relation can be played and checked on a bound, but nothing is proved
    from it (``discover.proofs`` never receives one).

    Positions of ``universe`` are looked up in the game's graph over it while one is kept
    (``solvers.graph_store``: inside ``find_rule``, the verification's), with no call of ``moves()``; the
    options of other positions come from ``moves()``, up to ``CACHE`` options kept, so the strategy
    search asks ``moves()`` once per position.

    Examples
    --------
    >>> from games import custom_game
    >>> take12 = MovesOf(custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1))
    >>> take12.allows(np.array([[3], [3]]), np.array([[1], [0]])).tolist()
    [True, False]
    """

    CACHE = 1 << 22  # options kept in all (as int64 rows: 32 MB a coordinate)
    BLOCK_OPTIONS = 1 << 18  # options read from moves() at once

    def __init__(self, game, universe=None):
        self.game = game
        self.universe = universe
        self._known: dict[bytes, np.ndarray] = {}
        self._held = 0

    def _graph(self):
        return None if self.universe is None else kept_graph(self.game, self.universe)

    def option_rows(self, positions) -> tuple[np.ndarray, np.ndarray]:
        """``(counts, options)`` of an (n, dims) array of positions, as ``game.option_rows`` gives them (read from
        the kept graph when every position is in ``universe``).

        Examples
        --------
        >>> from games import custom_game
        >>> take12 = MovesOf(custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1))
        >>> take12.option_rows(np.array([[2]]))[1].ravel().tolist()
        [1, 0]
        """
        positions = np.asarray(positions, dtype=np.int64).reshape(-1, self.game.dims)
        if self._graph() is not None and self.universe.contains(positions).all():
            return kept_options(self.game, self.universe, positions)
        return self.game.option_rows(positions)

    def allows(self, before, after) -> np.ndarray:
        before = np.ascontiguousarray(before, dtype=np.int64)
        after = np.ascontiguousarray(after, dtype=np.int64)
        if before.ndim != 2 or before.shape != after.shape:
            raise ValueError(f"before and after must be (n, dims) arrays of one shape, got {before.shape} "
                             f"and {after.shape}")
        out = np.zeros(len(before), dtype=bool)
        rest = np.arange(len(before))
        graph = self._graph()
        if graph is not None:
            ids = self.universe.index(before, strict=False)
            inside = ids >= 0
            out[inside] = has_edges(graph, ids[inside], self.universe.index(after[inside], strict=False))
            rest = np.flatnonzero(~inside)
        if rest.size:
            out[rest] = self._asked(before[rest], after[rest])
        return out

    def _asked(self, before, after) -> np.ndarray:
        """``allows`` from ``moves()``, a block of positions at a time (about ``BLOCK_OPTIONS`` options held at once,
        whatever the positions: one near 10^6 may have as many options); the options of a block are kept while the
        cache holds fewer than ``CACHE`` options in all."""
        keys = [row.tobytes() for row in before]
        asked: dict[bytes, list[int]] = {}
        for i, k in enumerate(keys):
            asked.setdefault(k, []).append(i)
        out = np.zeros(len(before), dtype=bool)
        known = [k for k in asked if k in self._known]
        _answer(out, after, asked, {k: self._known[k] for k in known})
        todo = [rows[0] for k, rows in asked.items() if k not in self._known]
        read, total, group = 0, 0, 1
        while read < len(todo):
            first = todo[read:read + group]
            counts, options = self.game.option_rows(before[first])
            block = dict(zip((keys[i] for i in first), np.split(options, np.cumsum(counts)[:-1])))
            _answer(out, after, asked, block)
            if self._held + len(options) <= self.CACHE:
                self._known.update(block)
                self._held += len(options)
            read, total = read + len(first), total + len(options)
            group = max(1, min(self.BLOCK_OPTIONS * read // max(total, 1), 4 * group))
        return out

    def words(self) -> str:
        return f"the moves that {self.game.name}'s moves() gives (no symbolic relation)"

    def to_record(self) -> dict:
        return {"kind": "MovesOf", "game": self.game.spec()}

    def __eq__(self, other) -> bool:
        return isinstance(other, MovesOf) and other.game == self.game

    def __hash__(self) -> int:
        return hash(("MovesOf", self.game))


@dataclass
class Strategy:
    """A winning-move function for ``rule`` under the moves ``relation``.

    Parameters
    ----------
    rule : Rule
        The P-position rule the strategy moves into.
    relation : games.symbolic relation
        The game's moves (legality of a candidate).
    branches : list of Branch
        Candidate moves, tried in order.
    checked_bound : int, optional
        Bound on which every N position was checked to get a move into P (set by ``find_strategy``).

    Examples
    --------
    >>> from discover.expr.nodes import BitXor
    >>> from games.symbolic import take_from_one
    >>> s = sp.Symbol("xor_all")
    >>> rule = Rule(sp.Eq(s, 0), ("a", "b", "c"))
    >>> nim = Strategy(rule, take_from_one(3), [Branch((BitXor(HEAP, s),), per_heap=True)])
    >>> nim.move((3, 4, 5))
    (1, 4, 5)
    >>> nim.text()
    'take h_j - (h_j ⊕ s) from a heap j where h_j ⊕ s < h_j, s = a ⊕ b ⊕ c'
    """

    rule: Rule
    relation: MoveRelation
    branches: list
    checked_bound: int | None = None
    provenance: dict = field(default_factory=dict)

    def __post_init__(self):
        if not isinstance(self.relation, MoveRelation):
            raise TypeError(f"relation must be a games.symbolic relation, got {self.relation!r}")
        if not self.branches:
            raise ValueError("a strategy needs at least one branch")
        self._compiled = {}
        self._derived_names = None

    @property
    def coordinates(self) -> tuple[str, ...]:
        return self.rule.feature_names

    # -- playing -----------------------------------------------------------------------
    def _value(self, expr, here, derived, heap=None) -> np.ndarray:
        """``expr`` on the positions ``here``, whose derived features (xor_all, ...) are the columns of ``derived``."""
        if expr not in self._compiled:  # compiled once per expression (the check calls this per block of rows)
            self._compiled[expr] = (compile_expr(expr), sorted(s.name for s in expr.free_symbols if s != HEAP))
        run, names = self._compiled[expr]
        columns = {n: here[:, i] for i, n in enumerate(self.coordinates)}
        columns.update((n, derived[n]) for n in names if n in derived)
        if heap is not None:
            columns["h"] = heap
        values = run(columns) if columns else run({"_": np.zeros(len(here))})
        return np.broadcast_to(np.asarray(values, dtype=np.int64), (len(here),))

    def _derived(self, positions) -> dict:
        """The derived features (xor_all, min_all, ...) the branches use, on every row of ``positions`` (computed
        once per call of ``_play``; each candidate reads the rows still open)."""
        branches = tuple(self.branches)
        if self._derived_names is None or self._derived_names[0] != branches:  # sympy's free_symbols walks the tree
            used = {s.name for b in branches for v in b.values for s in v.free_symbols} - {HEAP.name}
            self._derived_names = branches, sorted(used - set(self.coordinates))
        names = self._derived_names[1]
        return {n: c for n, c in feature_columns(names, self.coordinates, positions).items() if n in names}

    def _proposals(self):
        """One (column, function) pair per branch instance (a per-heap branch: one per heap), in the order they
        are tried: from an (n, dims) array of positions and their derived features the function gives the new
        value of that column, or, for column None, the new positions."""
        for branch in self.branches:
            if branch.per_heap:
                for j in range(len(self.coordinates)):
                    yield j, lambda p, d, j=j, v=branch.values[0]: self._value(v, p, d, heap=p[:, j])
            else:
                yield None, lambda p, d, vs=branch.values: np.stack([self._value(v, p, d) for v in vs], axis=1)

    def _play(self, positions, result=None, known=None, ids=None) -> np.ndarray:
        """The rows of ``positions`` (an (n, dims) int64 array) where no candidate is a legal move into a P
        position; each move found is written into ``result`` when one is given.

        Each candidate is computed, checked against the relation and judged by the rule only on the rows no
        earlier candidate took; with ``known`` (a ``KnownLabels``) and ``ids`` (the rows' ids in its universe) the
        rule's labels of the new positions are read from it where it has them."""
        if positions.ndim != 2 or positions.shape[1] != len(self.coordinates):
            raise ValueError(f"positions must have shape (n, {len(self.coordinates)}), got {positions.shape}")
        if known is not None and (ids is None or len(ids) != len(positions)):
            raise ValueError("known labels need the ids of the positions (one per row)")
        open_rows = np.arange(len(positions))
        derived = self._derived(positions)
        for j, propose in self._proposals():
            if not len(open_rows):
                break
            whole = len(open_rows) == len(positions)
            here = positions if whole else positions.take(open_rows, axis=0)  # take: 3x faster than [rows] here
            features = derived if whole else {n: c[open_rows] for n, c in derived.items()}
            # a move leaves every coordinate >= 0 (-1 in ``moves`` means no move), whatever the relation says
            moved = None
            if j is None:
                q = propose(here, features)
                rows = np.flatnonzero(self.relation.allows(here, q) & (q >= 0).all(axis=1))
                moved = q.take(rows, axis=0)
                wins = self.rule.predicate(moved) if known is None else known.at(moved)
            else:  # one column moves: the relation judges it without the new positions, built for legal moves only
                values = propose(here, features)
                rows = np.flatnonzero(self.relation.allows_column(here, j, values) & (values >= 0))
                wins, moved = self._column_wins(here, rows, j, values[rows], result is not None, known,
                                                None if known is None else ids[open_rows[rows]])
            rows = rows[wins]
            if result is not None:
                result[open_rows[rows]] = moved[wins]
            keep = np.ones(len(here), dtype=bool)
            keep[rows] = False
            open_rows = open_rows[keep]
        return open_rows

    def _column_wins(self, here, rows, j, values, build, known, ids):
        """Which moves of column ``j`` to ``values`` (from the rows ``rows`` of ``here``) reach a P position, and
        the new positions (built only when ``build``, or where ``known`` cannot read the label)."""
        if known is None or build:
            moved = _with_column(here.take(rows, axis=0), j, values)
            return (self.rule.predicate(moved) if known is None else known.at(moved)), moved
        wins, unsure = known.column(ids, j, here[rows, j], values)
        if unsure is not None and unsure.any():
            wins[unsure] = self.rule.predicate(_with_column(here.take(rows[unsure], axis=0), j, values[unsure]))
        return wins, None

    def moves(self, positions) -> np.ndarray:
        """The strategy's move from each of an (n, dims) array of positions; -1 rows where no
        candidate is a legal move into a P position (a P or terminal position, or a strategy gap)."""
        positions = np.asarray(positions, dtype=np.int64)
        result = np.full_like(positions, -1)
        self._play(positions, result)
        return result

    def misses(self, positions, known=None, ids=None) -> np.ndarray:
        """A boolean mask of an (n, dims) array of positions: True where the strategy has no move into a P
        position (``moves`` gives -1 there), found without building the moves.  ``known`` (a
        ``discover.known_labels.KnownLabels``) with ``ids`` (the positions' ids in its universe) reads the rule's
        labels of the new positions from it where it has them (the same verdicts, without evaluating the rule).

        Examples
        --------
        >>> from games import make_game
        >>> from discover.rule import Rule
        >>> n = sp.Symbol("n")
        >>> game = make_game("subtraction", subtract=(1, 2, 3))
        >>> strategy = Strategy(Rule(sp.Eq(sp.Mod(n, 4), 0), ("n",)), game.move_relation(), [Branch((n - sp.Mod(n, 4),))])
        >>> strategy.misses(np.array([[0], [5], [8], [11]])).tolist()
        [True, False, True, False]
        """
        positions = np.asarray(positions, dtype=np.int64)
        missed = np.zeros(len(positions), dtype=bool)
        missed[self._play(positions, known=known, ids=ids)] = True
        return missed

    def move(self, position) -> tuple[int, ...]:
        """The strategy's move from one position; ``ValueError`` when it has none there."""
        moved = self.moves(np.asarray(position, dtype=np.int64).reshape(1, -1))[0]
        if (moved < 0).any():
            raise ValueError(f"the strategy has no move into a P position from {tuple(position)}: "
                             f"it is P (or terminal) by the rule, or outside the strategy's reach")
        return tuple(int(x) for x in moved)

    # -- presentation --------------------------------------------------------------------
    def _abbreviations(self) -> dict:
        used = sorted({s.name for b in self.branches for v in b.values for s in v.free_symbols} & set(DERIVED))
        letters = [x for x in "stuvwxyz" if x not in self.coordinates]
        return {name: letters[i] for i, name in enumerate(used)}

    def _show(self, expr, latex: bool) -> str:
        short = {sp.Symbol(k): sp.Symbol(v) for k, v in self._abbreviations().items()}
        expr = expr.replace(lambda e: isinstance(e, (BitXor, BitAnd, BitOr)) and HEAP in e.args,  # h_j ⊕ s
                            lambda e: type(e)(HEAP, *[a for a in e.args if a != HEAP]))
        expr = expr.xreplace(short).xreplace({HEAP: sp.Symbol("h_j")})
        return rule_latex(expr, ()) if latex else rule_text(expr, ())

    def _branch_text(self, branch: Branch, latex: bool) -> str:
        if branch.per_heap:
            value = self._show(branch.values[0], latex)
            takes = isinstance(self.relation, TakeFromSome) or (
                isinstance(self.relation, Steps) and all(min(v) >= 0 and sum(v) == 1 for v in self.relation.vectors))
            if latex:
                return rf"h_{{j}} \to {value}"
            if takes and branch.values[0].is_Integer:
                return "empty a heap j" if branch.values[0] == 0 else f"leave {value} in a heap j where {value} < h_j"
            if takes:
                taken = value if branch.values[0].is_Atom else f"({value})"
                return f"take h_j - {taken} from a heap j where {value} < h_j"
            return f"move a heap j to {value}"
        names = ", ".join(self.coordinates)
        values = ", ".join(self._show(v, latex) for v in branch.values)
        if len(branch.values) > 1:
            names, values = f"({names})", f"({values})"
        return rf"{names} \to {values}" if latex else f"{names} → {values}"

    def _where(self, latex: bool) -> str:
        coords = [sp.Symbol(n) for n in self.coordinates]
        parts = []
        for name, letter in self._abbreviations().items():
            body = DERIVED[name].expand(coords)
            shown = rule_latex(body, self.coordinates) if latex else rule_text(body, self.coordinates)
            parts.append(f"{letter} = {shown}")
        return ", ".join(parts)

    def text(self) -> str:
        """The strategy in words, with derived features abbreviated (s = a ⊕ b ⊕ c)."""
        moves = [self._branch_text(b, latex=False) for b in self.branches]
        body = moves[0] if len(moves) == 1 else \
            "the first legal move into a P position among: " + "; ".join(f"({i + 1}) {m}" for i, m in enumerate(moves))
        where = self._where(latex=False)
        return f"{body}, {where}" if where else body

    def latex(self) -> str:
        moves = [self._branch_text(b, latex=True) for b in self.branches]
        where = self._where(latex=True)
        body = r" \;\text{or}\; ".join(moves)
        return rf"{body}, \quad {where}" if where else body

    def __str__(self) -> str:
        return self.text()

    # -- files ---------------------------------------------------------------------------
    def to_json(self) -> str:
        """A JSON record that ``Strategy.from_json`` reads back exactly (no text is evaluated)."""
        return json.dumps({
            "rule": {"expr": to_tree(self.rule.expr), "feature_names": list(self.rule.feature_names),
                     "target": self.rule.target},
            "relation": self.relation.to_record(),
            "branches": [{"per_heap": b.per_heap, "values": [to_tree(v) for v in b.values]} for b in self.branches],
            "checked_bound": self.checked_bound,
            "text": self.text(),
            "latex": self.latex(),
            "provenance": self.provenance,
        })

    @classmethod
    def from_json(cls, text, game=None) -> "Strategy":
        """Read a strategy written by ``to_json`` (a string, or a dict already parsed); one that plays over a
        game's own ``moves()`` (``MovesOf``) needs that ``game``."""
        try:
            record = load_json(text, "the strategy record") if isinstance(text, (str, bytes)) else dict(text)
            rule = Rule(from_tree(record["rule"]["expr"]), tuple(record["rule"]["feature_names"]),
                        record["rule"].get("target", "P"))
            branches = [Branch(tuple(from_tree(v) for v in b["values"]), bool(b["per_heap"]))
                        for b in record["branches"]]
            bound = record.get("checked_bound")
            if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int) or bound < 0):
                raise ValueError(f"checked_bound must be a non-negative integer or null, got {bound!r}")
            return cls(rule, _relation(record["relation"], game), branches,
                       None if bound is None else int(bound), dict(record.get("provenance", {})))
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"not a strategy record: {err}") from None


def _answer(out, after, asked: dict, options: dict) -> None:
    """``out[i]`` = whether ``after[i]`` is among the options of its position, for the rows ``asked[k]`` of every
    position ``k`` in ``options`` (its options as rows), compared in numpy."""
    rows = [i for k in options for i in asked[k]]
    if not rows:
        return
    parts = [options[k] for k in options for _ in asked[k]]
    counts = np.array([len(part) for part in parts], dtype=np.int64)
    found = np.zeros(len(rows), dtype=bool)
    if counts.sum():
        same = (np.concatenate(parts) == np.repeat(after[rows], counts, axis=0)).all(axis=1)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        found[counts > 0] = np.logical_or.reduceat(same, starts[counts > 0])
    out[rows] = found


def _with_column(positions, j, values) -> np.ndarray:
    """``positions`` with column ``j`` replaced by ``values`` (a copy)."""
    out = positions.copy()
    out[:, j] = values
    return out


def _relation(record: dict, game) -> MoveRelation:
    """The relation of a strategy record: a symbolic one, or ``MovesOf(game)`` for the game the record names."""
    if not (isinstance(record, dict) and record.get("kind") == "MovesOf"):
        return relation_from_record(record)
    if game is None or record.get("game") != json.loads(json.dumps(game.spec())):
        raise ValueError(f"this strategy plays over the moves() of the game {record.get('game')!r}: "
                         f"pass that game to Strategy.from_json(text, game=...)")
    return MovesOf(game)
