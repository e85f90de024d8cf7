"""``find_rule``: solve a small bound, run the engine portfolio, put the best candidates on trial.

One-heap take-and-break games (octal and hexadecimal codes, Grundy's game) take another road by
default: ``solvers.take_and_break`` computes their Grundy values until the periodicity theorem
proves a period (or a budget of heaps and seconds is spent), the proved period becomes a
periodic rule (``Rule.from_periodic``), and the rule is put on trial like any other: against the
graph solver and the mex certificate on a bound, then proved by the theorem for every heap size.  An
open game ends with status "none" and the engine's "no period up to n = N".

A rule that passes the agreement and closure checks is restated in its plainest exactly-equal form
(``discover.plain_form``); a P rule then gets a winning-move strategy (``find_strategy``, over the game's
symbolic moves), which the self-play check plays, and every verified rule a proof attempt (``prove_rule``:
the periodicity theorems, the pairs and Moore's theorems, the z3 closure certificate with the strategy):
``Discovery.strategy`` and ``Discovery.proof``, None when not attempted.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field


from discover.bounds import (check_rule_game, check_training_size, default_bound, default_verify_bound,
                             take_and_break_verify_bound)
from discover.engines import DEFAULT_ENGINES, make_engine
from discover.find_settings import FindSettings
from discover.period_growth import GROWTH_POSITIONS, GROWTH_SECONDS, growth_limit_2d, settled_bound
from discover.periodic_values import PeriodicValues
from discover.plain_form import PLAIN_ENGINES, plain_form
from discover.rule import Rule
from discover.strategy_trial import strategy_on_trial
from discover.table import Table, table_from_solution
from discover.verify import Check, self_play, verify_rule
from cgbase.memory import check_memory
from cgbase.version import __version__
from games import Game
from solvers import build_graph, solve
from solvers.graph_store import keep_graphs
from solvers.take_and_break import GrundySequence, grundy_sequence, take_and_break_rules

__all__ = ["Discovery", "FindSettings", "find_rule", "check_rule_game", "default_bound", "default_verify_bound", "rules_from"]

REFINE_LIMIT = 1000  # 1-D games: the fourfold refinement (30, 120, 480), the last grown until a period settles
ATTEMPTS = 5  # exact candidates put on trial before giving up
RARE_LISTED = 1000  # rare heaps listed in a record
PROGRESS_SECONDS = 1.0  # the take-and-break engine's progress is reported about this often


@dataclass
class Discovery:
    """What ``find_rule`` found: the rule, its status and the evidence."""

    game: Game
    rule: Rule | None
    status: str  # "verified", "refuted" or "none"
    verified_bound: int | None
    candidates: list[Rule]
    checks: list[Check]
    train_bound: int
    verify_bound: int
    timings: dict = field(default_factory=dict)
    best_partial: Rule | None = None
    source: str = "solver"  # where the training table came from ("take_and_break": the engine's values)
    sequence: GrundySequence | None = None  # the take-and-break engine's values, when it ran
    strategy: object | None = None  # discover.strategy.Strategy of a verified P rule, when one was found
    strategy_check: Check | None = None  # the strategy's own self-play (a failure leaves the rule verified)
    proof: object | None = None  # discover.proofs.prove.Proof of a verified rule, when a proof was attempted
    notes: list[str] = field(default_factory=list)  # what the engines left out and why (their notes_)
    general: object | None = None  # discover.generality.GeneralClaim: the rule read for any number of heaps

    def to_record(self) -> dict:
        """A JSON-ready record; ``record["rule"]`` is in the form ``Rule.from_json`` reads."""
        def rule_record(rule):
            return None if rule is None else json.loads(rule.to_json())

        return {
            "game": self.game.spec(),
            "status": self.status,
            "rule": rule_record(self.rule),
            "train_bound": self.train_bound,
            "source": self.source,
            "verify_bound": self.verify_bound,
            "verified_bound": self.verified_bound,
            "checks": [_check_record(c) for c in self.checks],
            "best_partial": rule_record(self.best_partial),
            "candidates": [rule_record(r) for r in self.candidates[:10]],
            "sequence": None if self.sequence is None else _sequence_record(self.sequence),
            "notes": list(self.notes),
            "strategy": None if self.strategy is None else json.loads(self.strategy.to_json()),
            "strategy_check": None if self.strategy_check is None else _check_record(self.strategy_check),
            "proof": None if self.proof is None else self.proof.to_record(),
            "general": None if self.general is None else self.general.to_record(),
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
            "version": __version__,
        }


def _check_record(check: Check) -> dict:
    return {"name": check.name, "passed": check.passed, "detail": check.detail,
            "counterexample": check.counterexample, "seconds": round(check.seconds, 4)}


def _sequence_record(sequence: GrundySequence) -> dict:
    """What the take-and-break engine found, without its values (a periodic rule holds those)."""
    rare = sequence.rare
    return {
        "heaps": sequence.heaps, "seconds": round(sequence.seconds, 4), "proved": sequence.proved,
        "preperiod": sequence.preperiod, "period": sequence.period,
        "hypothesis": None if sequence.hypothesis is None else list(sequence.hypothesis),
        "statement": sequence.statement, "largest": int(sequence.values.max()),
        "rare": None if rare is None else {
            "mask": rare.mask, "heap_parity": rare.heap_parity, "offset": rare.offset, "count": int(rare.heaps.size),
            "heaps": rare.heaps[:RARE_LISTED].tolist(), "last": int(rare.heaps[-1]) if rare.heaps.size else None},
    }


def rules_from(candidates, table: Table, target: str, game: Game, seed: int) -> list[Rule]:
    rules = []
    for c in candidates:
        provenance = {
            "engine": c.engine,
            "game": game.spec(),
            "bound": table.provenance.get("bound"),
            "source": table.provenance.get("source", "solver"),
            "seed": seed,
            "version": __version__,
        }
        if "learned" in table.provenance:  # a learned table's coverage and accuracy against the solver
            provenance["learned"] = table.provenance["learned"]
        rules.append(Rule(c.expr, tuple(table.coordinate_names), target, c.accuracy, provenance, c.words))
    return rules


def find_rule(game: Game, bound=None, verify_bound=None, engines=None, seed: int = 0, *,
              table: Table | None = None, games: int = 100, min_accuracy: float = 1.0,
              progress=None, heaps=None, seconds=None, strategy: bool = True, prove: bool = True,
              proof_seconds: float = 30.0, settings: FindSettings | None = None) -> Discovery:
    """Find a short symbolic rule for the P positions (Grundy values for sums of heaps), verify it, prove it.

    The game is solved on a small training bound, the engine portfolio proposes candidate rules, and the
    best exact candidates are put on trial: agreement with the solver on a verification bound far beyond
    training, the closure certificate (terminal positions are P, no move leads from P to P, every N position
    has a move to P), then self-play of the hypothesis agent. A one-dimensional table that shows no rule is
    grown fourfold (up to ``REFINE_LIMIT``), the last time doubled until its period settles (up to
    ``GROWTH_POSITIONS`` heaps, ``discover.period_growth``); a two-heap table (a box) is grown once, doubling
    until its periods in each coordinate settle, and the periods2d engine trains there. One-heap take-and-break
    games (octal, hexadecimal, Grundy's game) are computed by ``solvers.take_and_break`` instead when no
    ``bound``, ``engines`` or ``table`` is given (see the module docstring); ``heaps`` and ``seconds`` are its
    budget. A verified P rule then gets a winning-move strategy, played in its own self-play check and judged
    apart from the rule (``Discovery.strategy_check``: a losing strategy leaves the rule verified and is not used
    by the proof), and every verified rule a proof attempt (``discover.proofs.prove.prove_rule``).

    Parameters
    ----------
    game : Game
        The game (``games.make_game`` or ``games.custom_game``).
    bound : int, optional
        Training bound (default: ``default_bound(game)``, at most 30 per coordinate).
    verify_bound : int, optional
        Bound of the verification (default: ten times the training bound, within budget).
    engines : list of str, optional
        Engine names in the order to try (default: sequence, decision_list, residues, periods2d, enumeration,
        operon).
    seed : int
        Seed of every random choice.
    table : Table, optional
        Fit on this table (e.g. from a learned value table, ``discover.learned``) instead of the solver's.
    games : int
        Self-play games per opponent.
    min_accuracy : float
        Verify candidates at least this accurate on the (weighted) training table; below 1
        suits learned tables, whose labels may hold errors (the verdict is the solver's).
    progress : callable, optional
        Called with a short message at each stage (for the take-and-break engine, about once a
        second: heaps done, heaps per second, the current candidate period).
    heaps, seconds : optional
        Budget of the take-and-break engine: at most this many heaps (default 2^25), for at most
        about this many seconds (default 540).
    strategy : bool
        Look for a winning-move strategy of a verified P rule (``discover.find_strategy``).
    prove : bool
        Try to prove a verified rule for every position (``discover.proofs.prove.prove_rule``).
    proof_seconds : float
        z3's time budget for the proof (the theorems take no budget; z3's timeout is the one clock
        that can change a result: a proof cut short is "unknown", never "proved").
    settings : FindSettings, optional
        All of the settings above at once (``bound`` to ``proof_seconds``, without ``table`` and ``progress``),
        instead of the keywords.

    Returns
    -------
    Discovery
        ``status`` "verified" (``rule`` passed every check on ``verified_bound``; ``proof`` says whether it
        holds for every position), "refuted" (``rule`` is the best candidate and ``checks`` its failed trial)
        or "none"; with the candidates, the best partial candidate, the winning-move ``strategy``, the
        engines' ``notes`` and the ``timings``.

    Raises
    ------
    TypeError
        When ``game`` is not a ``Game``.
    ValueError
        For a bad setting (named: a bound that is not a positive integer, a verification bound below the
        training bound, an unknown engine or one whose backend is missing, ``min_accuracy`` outside (0.5, 1],
        a non-positive ``proof_seconds``), ``heaps`` or ``seconds`` for a game that trains on a table, both
        ``settings`` and keywords, or a training table or verification that would not fit in memory.

    See Also
    --------
    discover.proofs.prove.prove_rule : the proof attempt of a verified rule.
    discover.find_strategy.find_strategy : the winning-move strategy of a P rule.
    solvers.take_and_break.grundy_sequence : the take-and-break engine.

    Notes
    -----
    Verification is independent of how a rule was found, and "verified on bound B" is never reported as
    "proved": a proof comes from a theorem for the rule's form (the references below) or from a z3
    certificate that the rule is closed under the game's symbolic moves.

    References
    ----------
    .. [1] C. L. Bouton, "Nim, a game with a complete mathematical theory", Annals of Mathematics 3 (1901):
       the P positions of Nim are those whose heaps xor to 0.
    .. [2] W. A. Wythoff, "A modification of the game of Nim", Nieuw Archief voor Wiskunde 7 (1907); S. Beatty,
       Problem 3173, American Mathematical Monthly 33 (1926): the P positions of Wythoff's game are the pairs
       (floor(k phi), floor(k phi^2)), complementary Beatty sequences.
    .. [3] E. H. Moore, "A generalization of the game called Nim", Annals of Mathematics 11 (1910): the P
       positions of Nim_k are those whose binary digits sum to 0 modulo k + 1 in every place.
    .. [4] R. K. Guy and C. A. B. Smith, "The G-values of various games", Proceedings of the Cambridge
       Philosophical Society 52 (1956): a take-and-break game whose Grundy values repeat with period p from
       n = e on, checked up to 2 e + p + t (t the largest removal), is periodic for ever.

    Examples
    --------
    >>> from games import make_game
    >>> found = find_rule(make_game("subtraction", subtract=(1, 3, 4)))
    >>> found.status, found.rule.text()
    ('verified', 'n mod 7 ∈ {0, 2}')
    >>> kayles = find_rule(make_game("octal", code="0.77"), games=10)
    >>> kayles.status, kayles.rule.period, kayles.rule.preperiod, kayles.proof.status
    ('verified', 12, 71, 'proved')
    >>> find_rule(make_game("nim", heaps=2), settings=FindSettings(bound=6, games=10, prove=False)).rule.text()
    'a = b'
    """
    if not isinstance(game, Game):
        raise TypeError(f"find_rule() takes a Game, got {type(game).__name__}")
    settings = FindSettings.resolve(settings, bound=bound, verify_bound=verify_bound, engines=engines, seed=seed,
                                    games=games, min_accuracy=min_accuracy, heaps=heaps, seconds=seconds,
                                    strategy=strategy, prove=prove, proof_seconds=proof_seconds)
    check_rule_game(game)
    if game.misere and game.parts > 1:
        raise ValueError(f"{game!r} is played misère and its options are sums of heaps: a formula over one heap does "
                         "not decide sums; its rule is its misère quotient (discover.quotients.discover_quotient, "
                         "or `discover GAME misere=true`)")
    say = progress or (lambda message: None)
    target = "grundy" if game.parts > 1 else "P"
    given_bound = settings.bound is not None or table is not None
    bound = settings.bound if settings.bound is not None else (
        int(table.provenance.get("bound")) if table is not None else default_bound(game))
    if not given_bound and not settings.engines and _is_take_and_break(game):
        return _with_proof(_from_take_and_break(game, settings, say), settings, say)
    if settings.heaps is not None or settings.seconds is not None:
        raise ValueError(f"heaps and seconds budget the take-and-break engine, which runs for octal, hexadecimal "
                         f"and Grundy's game when no bound, engines or table is given; {game!r} with these "
                         f"settings trains on a table instead: leave out heaps and seconds")
    if table is None:
        check_training_size(game, bound)
    names = list(settings.engines or DEFAULT_ENGINES)
    timings: dict[str, float] = {}
    notes: list[str] = []

    with keep_graphs():  # a custom game's graphs are built once (one moves() call a position), reused to the proof
        grown, earlier = False, None  # a two-heap table is grown once, to where its periods in each coordinate settle
        while True:
            verify = settings.verify_bound if settings.verify_bound is not None else default_verify_bound(game, bound)
            if verify < bound:
                raise ValueError(f"verify_bound ({verify}) must be at least the training bound ({bound})")
            check_memory(game.universe(verify).size, f"the outcomes of {game!r} at verification bound {verify}")
            growable = game.dims == 1 and not given_bound and bound * 4 <= REFINE_LIMIT
            grows_2d = (game.dims == 2 and not given_bound and not grown and target == "P" and "periods2d" in names
                        and game.universe(bound).is_box)
            # while a one-heap table can still grow, only the sequence engine runs: a longer
            # sequence is cheaper than the whole portfolio on a table too short to show a period
            now = ["sequence"] if growable and not settings.engines and "sequence" in names else names
            if game.kernel is None and table is None and not growable:  # a custom game: its graph on the
                build_graph(game, game.universe(verify))  # verification bound first, the training one cut from it
            found = _search(game, bound, verify, now, settings, table, target, say, timings)
            if found.status != "verified" and grows_2d:
                limit = growth_limit_2d(game, settings.verify_bound)
                settled = settled_bound(game, 2 * bound, target, say, limit=limit) if limit > (2 * bound + 1) ** 2 else None
                if settled is not None:  # one more table, for the engine that reads periods in each coordinate
                    notes += [n for n in found.notes if n not in notes]
                    earlier, bound, names, grown = found, settled, ["periods2d"], True
                    check_training_size(game, bound)
                    say(f"periods in each coordinate settle on bound {bound}: training the periods2d engine there")
                    continue
                found.notes.append(f"no periods in each coordinate settled on tables of up to {limit:,} positions")
            if grown and found.status == "none":  # the grown table gave no candidate: the first table's record stands
                found = earlier
            if found.status == "verified" or not growable:
                found.timings = timings
                found.notes = notes + [n for n in found.notes if n not in notes]
                return _with_proof(found, settings, say)
            notes += [n for n in found.notes if n not in notes]
            bound *= 4
            if bound * 4 > REFINE_LIMIT and "sequence" in names:  # the last table: grown until its period settles
                settled = settled_bound(game, bound, target, say)
                if settled is None:
                    notes.append(f"no period settled on tables of up to {GROWTH_POSITIONS:,} heaps solved within "
                                 f"{GROWTH_SECONDS:g} s")
                bound = settled or bound
            say(f"no verified rule on this data: training again on bound {bound}")


def _with_proof(found: Discovery, settings: FindSettings, say) -> Discovery:
    """A verified rule's proof attempt (``prove_rule``, with the strategy when there is one), then how far its
    reading for any number of heaps is known to hold (``general_claim``)."""
    if found.status != "verified":
        return found
    if settings.prove:
        from discover.proofs.prove import prove_rule

        say("proving the rule for every position")
        clock = time.perf_counter()
        values = None if found.sequence is None else found.sequence.values
        failed = found.strategy_check is not None and not found.strategy_check.passed
        strategy = None if failed else found.strategy  # a strategy that lost a game proves nothing
        found.proof = prove_rule(found.rule, found.game, strategy, time_budget=settings.proof_seconds,
                                 values=values, relation_bound=found.verify_bound)
        found.timings["proof"] = time.perf_counter() - clock
    from discover.generality import general_claim

    clock = time.perf_counter()
    found.general = general_claim(found.rule, found.game, found.proof)
    if found.general is not None:
        found.timings["other numbers of heaps"] = time.perf_counter() - clock
    return found


def _search(game, bound, verify, names, settings: FindSettings, table, target, say, timings) -> Discovery:
    seed, games = settings.seed, settings.games
    clock = time.perf_counter()
    if table is None:
        say(f"solving {game!r} on bound {bound}")
        table = table_from_solution(solve(game, bound=bound, grundy=target == "grundy"))
    timings["solve (training)"] = timings.get("solve (training)", 0.0) + time.perf_counter() - clock
    source = table.provenance.get("source", "solver")
    solution = None
    tried, candidates, refuted, notes = set(), [], None, []
    for name in names:
        say(f"engine {name}")
        clock = time.perf_counter()
        engine = make_engine(name, seed).fit(
            table.X, table.y(target), feature_names=table.feature_names,
            sample_weight=table.weights, target=target,
        )
        timings[f"engine {name}"] = timings.get(f"engine {name}", 0.0) + time.perf_counter() - clock
        notes += [n for n in getattr(engine, "notes_", []) if n not in notes]
        new = rules_from(engine.candidates_, table, target, game, seed)
        candidates = sorted(candidates + new, key=lambda r: (-r.train_accuracy, r.complexity))
        for rule in [r for r in candidates if r.train_accuracy >= settings.min_accuracy]:
            key = str(rule.expr)
            if key in tried or len(tried) >= ATTEMPTS:
                continue
            tried.add(key)
            say(f"verifying {rule.text()} on bound {verify}")
            clock = time.perf_counter()
            if solution is None:
                solution = solve(game, bound=verify, grundy=target == "grundy")
                timings["solve (verification)"] = time.perf_counter() - clock
            checks = verify_rule(rule, game, verify, games=games, seed=seed, solution=solution, play=False)
            timings["verify"] = timings.get("verify", 0.0) + time.perf_counter() - clock
            if all(c.passed for c in checks):
                clock = time.perf_counter()
                rule = plain_form(rule, game, verify, bound, seed, engines=() if source == "solver" else PLAIN_ENGINES,
                                  candidates=candidates)  # equal labels on the whole bound: the checks hold for it
                timings["plain form"] = timings.get("plain form", 0.0) + time.perf_counter() - clock
                clock = time.perf_counter()
                checks.append(self_play(rule, game, solution, games, seed))  # the rule's agent: any move into its P
                timings["verify"] += time.perf_counter() - clock
            if all(c.passed for c in checks):
                strategy, played = strategy_on_trial(rule, game, solution, settings, timings, notes, say, verify)
                return Discovery(game, rule, "verified", verify, candidates, checks, bound, verify, source=source,
                                 strategy=strategy, strategy_check=played, notes=notes)
            refuted = refuted or (rule, checks)
    partial = candidates[0] if candidates else None
    if refuted:
        return Discovery(game, refuted[0], "refuted", None, candidates, refuted[1], bound, verify,
                         best_partial=partial, source=source, notes=notes)
    return Discovery(game, None, "none", None, candidates, [], bound, verify, best_partial=partial, source=source,
                     notes=notes)


def _is_take_and_break(game: Game) -> bool:
    """A one-heap game ``solvers.take_and_break`` computes (a finite code, or Grundy's game)."""
    try:
        take_and_break_rules(game)
    except ValueError:
        return False
    return True


def _from_take_and_break(game, settings: FindSettings, say) -> Discovery:
    """Grundy values by ``solvers.take_and_break``; a proved period becomes a periodic rule, put on trial."""
    games, seed = settings.games, settings.seed
    last = {"time": -math.inf, "candidate": None}

    def report(done: int, rate: float, candidate) -> None:  # at most once a second, and on a new candidate
        now = time.perf_counter()
        if now - last["time"] < PROGRESS_SECONDS and candidate == last["candidate"]:
            return
        last.update(time=now, candidate=candidate)
        found = f"candidate period {candidate[1]:,} from n = {candidate[0]:,}" if candidate else "no candidate period"
        say(f"Grundy values of {game!r}: {done:,} heaps, {rate:,.0f} heaps/s, {found}")

    verify = settings.verify_bound
    budget = {key: value for key, value in (("heaps", settings.heaps), ("seconds", settings.seconds))
              if value is not None}
    sequence = grundy_sequence(game, progress=report, **budget)  # the engine's defaults end within ten minutes
    timings = {"take-and-break engine": sequence.seconds}
    verify = verify or take_and_break_verify_bound(game, sequence.heaps)
    check_memory(game.universe(verify).size, f"the outcomes of {game!r} at verification bound {verify}")
    common = {"train_bound": sequence.heaps - 1, "verify_bound": verify, "timings": timings,
              "source": "take_and_break", "sequence": sequence}
    if not sequence.proved:
        return Discovery(game, None, "none", None, [], [], **common)
    periodic = PeriodicValues.from_values(sequence.values, sequence.preperiod, sequence.period)
    provenance = {"engine": "take_and_break", "game": game.spec(), "bound": sequence.heaps - 1,
                  "source": "take_and_break", "seed": seed, "version": __version__}
    words = (f"{len(periodic.exceptions):,} exceptions below n = {periodic.preperiod:,}, values from 0 to "
             f"{periodic.largest}; read from G(n) for n < {sequence.heaps:,}, computed by the take-and-break engine")
    rule = Rule.from_periodic(periodic, game.feature_names, 1.0, provenance, words)
    say(f"verifying period {periodic.period:,} from n = {periodic.preperiod:,} on bound {verify:,}")
    clock = time.perf_counter()
    solution = solve(game, bound=verify, grundy=True)
    timings["solve (verification)"] = time.perf_counter() - clock
    checks = verify_rule(rule, game, verify, games=games, seed=seed, solution=solution)
    timings["verify"] = time.perf_counter() - clock
    verified = all(c.passed for c in checks)
    return Discovery(game, rule, "verified" if verified else "refuted", verify if verified else None, [], checks,
                     **common)
