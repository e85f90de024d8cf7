"""Sums of components: a rule composed from each component's Grundy formula by the Sprague-Grundy theorem.

A game is a sum of components when

- it has several coordinates and every move changes one of them by a move of that coordinate's one-heap game:
  its move relation (``games.symbolic``) is made of steps along positive unit vectors only (bounded Nim, a
  subtraction game on several heaps, a mixed sum declared heap by heap), the component of a coordinate being
  the declared one-heap game of the steps along it; or
- it is a one-heap game whose options are sums of heaps (``parts > 1``: Lasker's Nim, splitting games), the
  component being the game itself (a position of the sum is a list of heaps).

A sum of Nim heaps only (G(n) = n in every coordinate) is left to the formula engines, which state Nim in its
plainest form (a = b for two heaps) and prove it by Bouton's theorem for any number of heaps.

``compose(game)`` reads each component's Grundy formula G from its values (the periodic engine, which also
finds arithmetic-periodic values G(n + p) = G(n) + s, then the binary engine: closed forms in the binary digits
of n such as the ruler's lowbit(n) or ⌊odd(n + 1) / 2⌋), verifies it on a longer run of heaps, and states the
rule "P iff G(h_1) ⊕ ... ⊕ G(h_k) = 0".  Its proof rests on two things, and says so: the Sprague-Grundy theorem
(the Grundy value of a sum is the xor of its components' values) and the component's proof.  A component's
formula is proved by the periodicity theorem its game declares (``discover.proofs.periodicity``: subtraction
and octal games), when every smaller heap is an option by the mex of {0, ..., n - 1} being n, by mex induction
(``discover.proofs.mex_induction``: "F(n) is the mex of the options' values" decided for every n by automata, which
proves arithmetic-periodic formulas such as Lasker's Nim's), or, for a game whose values a theorem gives a
recursion in n's last binary digit (taking at most half a heap: G(2n) = n, G(2n + 1) = G(n)), by z3's proof that
the formula satisfies it (``discover.proofs.digit_recursions``); otherwise it stays verified on its heaps, and so
does the composed rule ("proof: unknown" with the reason).

The winning-move strategy is the Nim strategy over Grundy values (``SumStrategy``): with X the xor of every
component's value, move in a component whose value v has v ⊕ X < v to one of its options of value v ⊕ X (the
mex rule guarantees one); it is checked on every N position of the verification bound.

References
----------
R. P. Sprague, "Über mathematische Kampfspiele", Tôhoku Mathematical Journal 41 (1935); P. M. Grundy,
"Mathematics and games", Eureka 2 (1939); Berlekamp, Conway and Guy, *Winning Ways*, chapters 3 and 4.
"""

from __future__ import annotations

import functools
import json
import operator
import time
from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from discover import defaults
from discover.bounds import default_bound, default_verify_bound, heaps_that_fit
from discover.engines.binary import BinaryEngine
from discover.engines.periods1d import PeriodicEngine
from discover.expr.nodes import BitXor
from discover.proofs.agreement import relation_basis, resting_on
from discover.proofs.mex_induction import MEX_METHOD, heap_rule_proof
from discover.proofs.periodicity import PERIODIC_METHODS, periodic_rule_proof
from discover.proofs.prove import Proof
from discover.rule import Rule
from discover.verify import Check, verify_rule
from cgbase.memory import check_memory
from cgbase.version import __version__
from games import Game
from games.declared import FRACTIONS, declared_game
from games.symbolic import AnyOf, Steps, TakeFromSome, TakeUpTo
from solvers import solve

__all__ = ["Composition", "SumStrategy", "components", "component_formula", "component_proof", "compose", "TRAIN_HEAPS",
           "VERIFY_HEAPS", "SG_METHOD"]

TRAIN_HEAPS = 200  # heaps of a component whose Grundy values the periodic engine reads
BINARY_HEAPS = 64  # of those, the heaps the binary engine reads (its enumeration's cost grows with them)
VERIFY_HEAPS = 2000  # heaps of a component on which its formula is checked against the solver
SG_METHOD = "theorem: Sprague-Grundy (the Grundy value of a sum is the xor of its components' values)"
SMALLER_METHOD = "theorem: every smaller heap is an option, so G(n) = mex{G(0), ..., G(n - 1)} = n"


def _unit_steps(relation, dims: int) -> list[list[dict]] | None:
    """Per coordinate, the declared move rules of its one-heap game; None unless every move is a step along one
    coordinate (a positive multiple of a unit vector)."""
    members = relation.members if isinstance(relation, AnyOf) else (relation,)
    per: list[list[dict]] = [[] for _ in range(dims)]
    for member in members:
        if isinstance(member, TakeFromSome) and member.k == 1:
            for rules in per:
                rules.append({"take": "any"})
            continue
        if not isinstance(member, (Steps, TakeUpTo)):
            return None
        for v in member.vectors:
            moved = [i for i, x in enumerate(v) if x]
            if len(moved) != 1 or v[moved[0]] < 1:
                return None
            i, size = moved[0], v[moved[0]]
            if isinstance(member, TakeUpTo):
                name = next((k for k, f in FRACTIONS.items() if f == (member.num, member.den)), None)
                if name is None or size != 1:
                    return None
                per[i].append({"take": {"up_to": name}})
            else:
                if member.amounts is not None:  # finitely many amounts: a subtraction game's (its theorem applies)
                    per[i].append({"take": sorted(size * t for t in member.amounts)})
                else:
                    per[i].append({"take": "any"} if size == 1 else {"step": [[size]], "times": "any"})
    return per if all(per) else None


def components(game: Game) -> tuple[Game, ...] | None:
    """The one-heap games a game is the sum of, one per coordinate (the game itself for a one-heap game whose
    options are sums of heaps), or None when it is not shown to be a sum.

    Examples
    --------
    >>> bounded = declared_game({"name": "bounded", "heaps": 3, "moves": [{"take": {"min": 1, "max": 3}}]})
    >>> [c.moves((5,)) for c in components(bounded)][0]
    [(4,), (3,), (2,)]
    >>> from games import make_game
    >>> components(make_game("wythoff")) is None
    True
    """
    if not game.impartial or game.misere:
        return None
    if game.dims == 1:
        return (game,) if game.parts > 1 else None
    relation = game.move_relation()
    per = None if relation is None else _unit_steps(relation, game.dims)
    if per is None or all(rules == [{"take": "any"}] for rules in per):  # Nim: the engines state and prove it
        return None
    made: dict[str, Game] = {}
    for rules in per:
        key = json.dumps(rules, sort_keys=True)
        if key not in made:
            made[key] = declared_game({"name": f"{game.name}-heap{len(made) + 1}", "heaps": 1, "moves": rules})
    return tuple(made[json.dumps(rules, sort_keys=True)] for rules in per)


def component_formula(component: Game, train: int = TRAIN_HEAPS, verify: int = VERIFY_HEAPS,
                      seed: int = 0) -> tuple[Rule, np.ndarray] | None:
    """A formula for the Grundy values of a one-heap game, read on ``train`` heaps and checked against the solver
    on ``verify`` heaps (returned with those values), or None when no candidate holds there.  Both shrink to what
    the solver's graph holds (``discover.bounds.heaps_that_fit``: a coin-turning game's options grow fast), training
    on half.

    Examples
    --------
    >>> rule, values = component_formula(declared_game({"name": "s", "heaps": 1, "moves": [{"take": [1, 2, 3]}]}))
    >>> rule.text(), values.size
    ('G = n mod 4', 2001)
    """
    verify = heaps_that_fit(component, verify)
    train = min(train, verify // 2)
    values = np.asarray(solve(component, bound=verify, grundy=True).grundy_table, dtype=np.int64)
    heaps = np.arange(values.size, dtype=np.int64)[:, None]
    for engine, read in ((PeriodicEngine(random_state=seed), train), (BinaryEngine(random_state=seed),
                                                                        min(train, BINARY_HEAPS))):
        engine.fit(heaps[: read + 1], values[: read + 1], feature_names=["n"], target="grundy")
        for candidate in engine.candidates_:
            rule = Rule(candidate.expr, ("n",), "grundy", candidate.accuracy,
                        {"engine": engine.name, "game": component.spec(), "bound": read, "source": "solver",
                         "seed": seed, "version": __version__}, candidate.words)
            if candidate.accuracy == 1.0 and np.array_equal(rule.evaluate(heaps), values):
                return rule, values
    return None


def component_proof(rule: Rule, component: Game, values: np.ndarray) -> tuple[str, str, str, dict | None]:
    """(status "proved" / "disproved" / "unknown", method, why, counterexample) for a component's Grundy formula.

    A custom component's relation is first checked against its ``moves()`` on the heaps of ``values``
    (``discover.proofs.agreement.relation_basis``); a proof then says it is for the relation's moves on that box.

    Examples
    --------
    >>> game = declared_game({"name": "s", "heaps": 1, "moves": [{"take": [1, 2, 3]}]})
    >>> rule, values = component_formula(game)
    >>> component_proof(rule, game, values)[:2]
    ('proved', 'theorem: periodicity of subtraction games (each value depends on the max(S) before it)')
    """
    relation = component.move_relation()
    members = relation.members if isinstance(relation, AnyOf) else (relation,)
    rests_on = {}  # a custom component's relation is checked against its moves() on the heaps of ``values``
    if relation is not None and component.parts == 1:
        differs, rests_on = relation_basis(component, values.size - 1)
        if differs is not None:
            return "unknown", "", f"the move relation disagrees with moves(): {differs['reason']}", None
    if component.dims == 1 and component.parts == 1 and any(
            isinstance(m, Steps) and m.amounts is None and (1,) in m.vectors for m in members) and all(
            min(v) > 0 for m in members for v in getattr(m, "vectors", ())):  # every move lands on a smaller heap
        if _is_heap_size(rule):
            return "proved", SMALLER_METHOD, resting_on(f"G(n) = n for every heap of {component!r}", rests_on), None
    from discover.proofs.digit_recursions import recursion_proof  # z3: imported only when a component needs it

    recursion = recursion_proof(rule, component)  # a theorem's recursion in the binary digits of n
    if recursion is not None:
        status, method, why = recursion
        return (status, method, resting_on(why, rests_on), None) if status == "proved" else \
            (status, "", f"{method}: {why}", None)
    if component.period_theorem is not None:
        status, said, counterexample = periodic_rule_proof(rule, component)  # the theorem's range, solved there
        if status is not None:
            return status, PERIODIC_METHODS[component.period_theorem], "; ".join(said), counterexample
        return "unknown", "", "; ".join(said), None
    status, said, counterexample, rests_on = heap_rule_proof(rule, component, values.size - 1)
    if status is not None:
        return status, MEX_METHOD, resting_on("; ".join(said), rests_on), counterexample
    return "unknown", "", (f"no periodicity theorem covers {component!r} and mex induction does not prove it "
                           f"({'; '.join(said)}): G is verified for heaps up to {values.size - 1:,} only"), None


def _is_heap_size(rule: Rule) -> bool:
    """Whether a one-heap Grundy rule reads G(n) = n (a Nim heap)."""
    return rule.sequence is None and sp.simplify(rule.expr - sp.Symbol(rule.feature_names[0])) == 0


@dataclass
class SumStrategy:
    """The Nim strategy over Grundy values: with X the xor of every heap's G, move in a heap whose value v has
    v ⊕ X < v to one of its options of value v ⊕ X.

    ``grundy`` holds one Grundy rule per coordinate (one rule for every heap of a one-heap game whose options are
    sums of heaps), ``components`` the one-heap games whose moves are searched.
    """

    grundy: tuple[Rule, ...]
    components: tuple[Game, ...]
    checked_bound: int | None = None

    @property
    def _summed(self) -> bool:
        return len(self.components) == 1 and self.components[0].parts > 1

    def _value(self, heaps, table=None) -> int:
        """G of a sum of heaps of a one-heap game whose options are sums (looked up in ``table``, a list, when
        given: the strategy reads every option of a heap this way)."""
        if table is not None:
            return functools.reduce(operator.xor, map(table.__getitem__, heaps), 0)
        heaps = np.asarray(heaps, dtype=np.int64).reshape(-1)
        return int(np.bitwise_xor.reduce(self.grundy[0].evaluate(heaps[:, None]), initial=0))

    def _tables(self, top: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per coordinate, G(x) for x <= top and an option of each heap x for each smaller value (-1: none)."""
        made = {}
        for component, rule in zip(self.components, self.grundy):
            if component in made:
                continue
            values = rule.evaluate(np.arange(top + 1, dtype=np.int64)[:, None])
            check_memory(8.0 * (top + 1) * (int(values.max()) + 1), f"the strategy's options up to heap {top:,}")
            options = np.full((top + 1, int(values.max()) + 1), -1, dtype=np.int64)
            for x in range(top + 1):
                for (y,) in component.moves((x,)):
                    if options[x, values[y]] < 0:
                        options[x, values[y]] = y
            made[component] = (values, options)
        return [made[c] for c in self.components]

    def moves(self, positions) -> np.ndarray:
        """The winning move from each row of an (n, heaps) array of a game of several coordinates (-1 rows where
        the values xor to 0)."""
        positions = np.asarray(positions, dtype=np.int64)
        tables = self._tables(int(positions.max(initial=0)))
        values = np.stack([t[0][positions[:, i]] for i, t in enumerate(tables)], axis=1)
        total = np.bitwise_xor.reduce(values, axis=1)
        out = np.full_like(positions, -1)
        open_ = total != 0
        for i, (_, options) in enumerate(tables):
            wanted = values[:, i] ^ total
            here = open_ & (wanted < values[:, i])
            rows = np.flatnonzero(here)
            out[rows] = positions[rows]
            out[rows, i] = options[positions[rows, i], wanted[rows]]
            open_ &= ~here
        return out

    def move(self, position) -> tuple[int, ...] | None:
        """The winning move from a sum of heaps (a position of the game, or a list of heaps of a one-heap game
        whose options are sums), None when the heaps' values xor to 0.

        Examples
        --------
        >>> bounded = declared_game({"name": "b", "heaps": 2, "moves": [{"take": [1, 2, 3]}]})
        >>> rule = Rule(sp.Mod(sp.Symbol("n"), 4), ("n",), "grundy")
        >>> SumStrategy((rule, rule), components(bounded)).move((5, 7))
        (5, 5)
        """
        heaps = tuple(int(h) for h in position)
        if not self._summed:
            out = self.moves(np.array([heaps]))[0]
            return None if out[0] < 0 else tuple(int(x) for x in out)
        table = self.grundy[0].evaluate(np.arange(max(heaps, default=0) + 1, dtype=np.int64)[:, None]).tolist()
        total = self._value(heaps, table)
        for i, h in enumerate(heaps):
            v = int(table[h])
            if total and v ^ total < v:
                option = next(o for o in self.components[0].moves((h,)) if self._value(o, table) == v ^ total)
                return heaps[:i] + tuple(option) + heaps[i + 1:]
        return None

    def text(self) -> str:
        named = "; ".join(dict.fromkeys(r.text() for r in self.grundy))
        return (f"move in a heap j with G(h_j) ⊕ X < G(h_j) to one of its options of Grundy value G(h_j) ⊕ X, "
                f"X = G(h_1) ⊕ G(h_2) ⊕ ... (Sprague-Grundy), where {named}")

    def latex(self) -> str:
        """The strategy in LaTeX, as ``text`` says it (the report's formula).

        Examples
        --------
        >>> bounded = declared_game({"name": "b", "heaps": 2, "moves": [{"take": [1, 2, 3]}]})
        >>> rule = Rule(sp.Mod(sp.Symbol("n"), 4), ("n",), "grundy")
        >>> SumStrategy((rule, rule), components(bounded)).latex().endswith(rule.latex())
        True
        """
        g = r"\mathcal{G}"
        named = r",\; ".join(dict.fromkeys(r.latex() for r in self.grundy))
        return (rf"h_j \to h'_j \text{{ with }} {g}(h'_j) = {g}(h_j) \oplus X < {g}(h_j), \quad X = \bigoplus_i "
                rf"{g}(h_i), \quad {named}")

    def to_json(self) -> str:
        return json.dumps({"kind": "sum of components", "text": self.text(), "checked_bound": self.checked_bound,
                           "grundy": [json.loads(r.to_json()) for r in self.grundy],
                           "components": [c.spec() for c in self.components]})

    @classmethod
    def from_json(cls, text) -> SumStrategy:
        """Read a strategy written by ``to_json`` (a string, or a dict already parsed): its rules through
        ``Rule.from_json``, its components through ``games.registry.game_from_spec`` (declared games are plain
        data).

        Examples
        --------
        >>> bounded = declared_game({"name": "b", "heaps": 2, "moves": [{"take": [1, 2, 3]}]})
        >>> rule = Rule(sp.Mod(sp.Symbol("n"), 4), ("n",), "grundy")
        >>> SumStrategy.from_json(SumStrategy((rule, rule), components(bounded), 20).to_json()).move((5, 7))
        (5, 5)
        """
        from cgbase.reading import load_json
        from games.registry import game_from_spec

        try:
            record = load_json(text, "the strategy record") if isinstance(text, (str, bytes)) else dict(text)
            if record.get("kind") != "sum of components":
                raise ValueError(f"not a sum-of-components strategy record: kind {record.get('kind')!r}")
            grundy = tuple(Rule.from_json(json.dumps(r)) for r in record["grundy"])
            parts = tuple(game_from_spec(spec, path="the strategy record") for spec in record["components"])
            bound = record.get("checked_bound")
            if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int) or bound < 0):
                raise ValueError(f"checked_bound must be a non-negative integer or null, got {bound!r}")
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"not a strategy record: {err}") from None
        if len(grundy) != len(parts):
            raise ValueError(f"the strategy record has {len(grundy)} Grundy rules for {len(parts)} components")
        return cls(grundy, parts, bound)


SAMPLE = 2000  # N positions whose strategy move is also looked up in the game's own moves()


def _strategy_check(strategy: SumStrategy, game: Game, solution, seed: int) -> Check:
    """Every N position of the solution's universe: the strategy's move is a move (the game's relation on all of
    them, its ``moves()`` on a seeded sample) and leads to a P position (the solver's)."""
    clock = time.perf_counter()
    universe, outcome = solution.universe, np.asarray(solution.outcome_table)
    ids = np.flatnonzero(outcome == 1)
    before = universe.positions(ids)
    name = "strategy on every N position"

    def failed(row: int, move) -> Check:
        position = tuple(int(x) for x in before[row])
        return Check(name, False, f"no winning move from {position}: the strategy plays {move}",
                     {"position": position, "move": move}, time.perf_counter() - clock)

    if strategy._summed:
        def heaps(option):  # an option of a sum as its multiset of non-empty heaps
            return tuple(sorted(h for h in option if h))

        for row, position in enumerate(before):
            move = strategy.move(position)
            if move is None or heaps(move) not in set(map(heaps, game.moves(tuple(position)))) \
                    or strategy._value(move) != 0:
                return failed(row, move)
    else:
        after = strategy.moves(before)
        legal = (after >= 0).all(axis=1) & game.move_relation().allows(before, np.maximum(after, 0))
        wins = legal & (outcome[universe.index(np.maximum(after, 0))] == -1)
        sample = np.random.default_rng(seed).permutation(len(before))[:SAMPLE]
        listed = np.array([tuple(after[r]) in game.moves(tuple(before[r])) for r in sample], dtype=bool)
        if not wins.all() or not listed.all():
            row = int(np.flatnonzero(~wins)[0]) if not wins.all() else int(sample[np.flatnonzero(~listed)[0]])
            return failed(row, tuple(int(x) for x in after[row]))
    strategy.checked_bound = universe.bound
    return Check(name, True, f"a legal move into P from each of the {len(before):,} N positions up to bound "
                 f"{universe.bound:,}", None, time.perf_counter() - clock)


@dataclass
class Composition:
    """What ``compose`` found: the composed rule and its evidence (``find_rule`` reads it into a ``Discovery``).

    ``status`` is "verified" (every check passed on ``verify_bound``) or "refuted"; ``formulas`` maps each
    distinct component to its Grundy rule; ``proof`` is None when not asked for.
    """

    rule: Rule
    status: str
    checks: list
    bound: int
    verify_bound: int
    formulas: dict
    strategy: SumStrategy | None = None
    strategy_check: Check | None = None
    proof: object | None = None
    timings: dict = field(default_factory=dict)


def compose(game: Game, *, bound: int | None = None, verify_bound: int | None = None, seed: int = 0,
            games: int | None = None, strategy: bool = True, prove: bool = True, say=None) -> Composition | None:
    """The rule of a sum of components, composed from their Grundy formulas; None when the game is not shown to be
    a sum or a component's values show no formula.

    Parameters
    ----------
    game : Game
        Any game; ``components(game)`` decides whether it is a sum.
    bound, verify_bound : int, optional
        The game's training box (reported) and verification box (default: ``discover.bounds``'s).
    seed : int
        Seed of the self-play and of the strategy check's sample.
    games : int, optional
        Self-play games per opponent (``discover.verify.verify_rule``; default ``discover.defaults.ENGINES.games``).
    strategy, prove : bool
        Build and check the Nim strategy over Grundy values; attempt the proof.
    say : callable, optional
        Progress messages.

    Examples
    --------
    >>> found = compose(declared_game({"name": "b3", "heaps": 3, "moves": [{"take": {"min": 1, "max": 3}}]}),
    ...                 verify_bound=20)
    >>> found.rule.text(), found.proof.status
    ('(a mod 4) ⊕ (b mod 4) ⊕ (c mod 4) = 0', 'proved')
    """
    say = say or (lambda message: None)
    games = defaults.ENGINES.games if games is None else games
    parts = components(game)
    if parts is None:
        return None
    clock = time.perf_counter()
    timings: dict[str, float] = {}
    formulas = {}
    for component in dict.fromkeys(parts):
        say(f"Grundy values of the component {component!r}")
        found = component_formula(component, seed=seed)
        if found is None:
            return None
        formulas[component] = found
    timings["component formulas"] = time.perf_counter() - clock
    grundy = tuple(formulas[c][0] for c in parts)
    if game.dims > 1 and all(_is_heap_size(g) for g in grundy):
        return None  # Nim: the formula engines state it plainest (a = b for two heaps), Bouton proves it
    bound = bound if bound is not None else default_bound(game)
    verify = verify_bound if verify_bound is not None else default_verify_bound(game, bound)
    check_memory(game.universe(verify).size, f"the outcomes of {game!r} at verification bound {verify}")
    if game.dims == 1:
        rule = grundy[0]
    else:
        n = sp.Symbol(grundy[0].feature_names[0])
        terms = [g.expr.xreplace({n: sp.Symbol(name)}) for g, name in zip(grundy, game.feature_names)]
        provenance = {"engine": "composition", "game": game.spec(), "bound": TRAIN_HEAPS, "source": "solver",
                      "seed": seed, "version": __version__}
        words = "; ".join(f"G(n) = {g.text().removeprefix('G = ')} for {c!r}" for c, (g, _) in formulas.items())
        rule = Rule(sp.Eq(BitXor(*terms), 0), game.feature_names, "P", 1.0, provenance,
                    f"Sprague-Grundy: P iff the xor of the heaps' Grundy values is 0, {words}")
    clock = time.perf_counter()
    solution = solve(game, bound=verify, grundy=game.dims == 1)
    checks = verify_rule(rule, game, verify, games=games, seed=seed, solution=solution)
    timings["verify"] = time.perf_counter() - clock
    result = Composition(rule, "verified", checks, bound, verify, formulas, timings=timings)
    if not all(c.passed for c in checks):
        result.status = "refuted"
        return result
    if strategy:
        clock = time.perf_counter()
        moves = SumStrategy(grundy, parts)
        result.strategy_check = _strategy_check(moves, game, solution, seed)
        result.strategy = moves if result.strategy_check.passed else None
        timings["strategy"] = time.perf_counter() - clock
    if prove:
        result.proof = _proof(game, formulas, verify)
    return result


def _proof(game: Game, formulas: dict, verify: int):
    """Proved when every component's formula is and the game is shown to be their sum; the record names what it
    rests on.  A custom game's relation (given beside ``moves()``, or inferred from it) is checked against
    ``moves()`` up to ``verify``: the proof is then for the moves of the relation, and says so."""
    clock = time.perf_counter()
    said, open_, counterexample = [], [], None
    for component, (rule, values) in formulas.items():
        status, method, why, wrong = component_proof(rule, component, values)
        said.append(f"the component {component!r}, {rule.text()}: {status}" + (f" by {method}" if method else "")
                    + f" ({why})")
        open_ += [component] * (status != "proved")
        counterexample = counterexample or wrong
    sums = ("its positions are sums of heaps" if game.dims == 1 else
            "the game is the sum of its heaps: its move relation moves one heap at a time by that heap's moves")
    rests = f"rests on the Sprague-Grundy theorem ({sums}) and on " + "; ".join(said)
    statement = "for every sum of heaps" if game.dims == 1 else "for every position"

    def answer(status: str, reason: str, **kw):
        return Proof(status, SG_METHOD, statement, seconds=time.perf_counter() - clock, reason=reason, **kw)

    if counterexample is not None:
        return answer("disproved", f"a component's formula is disproved; the rule {rests}",
                      counterexample=counterexample)
    rests_on = {}
    if game.dims > 1:  # a proof for the moves the relation states (a custom game's: on the box where it agrees)
        differs, rests_on = relation_basis(game, verify)
        if differs is not None:
            return answer("unknown", f"the game's move relation disagrees with its moves(): {differs['reason']}",
                          counterexample=differs)
        statement = resting_on(statement, rests_on)
    if open_:
        return answer("unknown", f"a component's formula is not proved; the rule {rests}", rests_on=rests_on)
    return answer("proved", rests, rests_on=rests_on)
