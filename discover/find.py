"""``find_rule``: the one entry for every game the toolkit explains; each road ends in a ``Discovery``.

``discover.road.choose_road`` picks the road from what the game declares (``Game.capabilities``):

- a one-heap game in misère play, or sums of Notakto boards: the misère quotient (Plambeck and Siegel's
  construction, ``discover.quotients``), heap by heap (board by board) within ``heaps`` and ``seconds``, proved by
  the periodicity theorem for misère quotients (or by adding every board) and checked on sums;
- a one-heap take-and-break game (octal and hexadecimal codes, Grundy's game): ``solvers.take_and_break`` computes
  its Grundy values until the periodicity theorem proves a period (or a budget of heaps and seconds is spent); the
  proved period becomes a periodic rule (``Rule.from_periodic``), put on trial like any other, then proved by the
  theorem for every heap size; an open game ends with status none and the engine's "no period up to n = N";
- every other game: a table solved on a small bound, the engine portfolio, the trial.  A rule that passes the
  agreement and closure checks is restated in its plainest exactly-equal form (``discover.plain_form``); a P rule
  then gets a winning-move strategy (``find_strategy``, over the game's symbolic moves), which the self-play check
  plays, and every verified rule a proof attempt (``prove_rule``: the periodicity theorems, the pairs and Moore's
  theorems, the z3 closure certificate with the strategy).

Every road answers within the run's time budget (``seconds``; ``discover.run_budget``): "none within S s" with the
best partial when it runs out before a rule is verified.
"""

from __future__ import annotations

import math
import time

import numpy as np

from discover import defaults
from discover.bounds import (check_rule_game, check_training_size, default_bound, default_verify_bound, heaps_that_fit,
                             take_and_break_verify_bound)
from discover.discovery import Discovery
from discover.engines import make_engine
from discover.engines.periods1d import PeriodicEngine
from discover.find_settings import FindSettings
from discover.period_growth import GROWTH_MOVES, GROWTH_POSITIONS, GROWTH_SECONDS, growth_limit_2d, settled_bound
from discover.periodic_values import PeriodicValues
from discover.plain_form import PLAIN_ENGINES, plain_form
from discover.road import choose_road
from discover.run_budget import run_seconds, time_left
from discover.rule import Rule
from discover.relation_inference import inferred_again, with_inferred_relation
from discover.strategy import Strategy
from discover.strategy_trial import strategy_on_trial
from discover.table import Table, table_from_solution
from discover.verdicts import ProofStatus, Road, Status
from discover.verify import self_play, verify_rule
from cgbase.deadline import Deadline, OutOfTime, current, within
from cgbase.memory import check_memory
from cgbase.version import __version__
from games import Game
from solvers import build_graph, solve
from solvers.graph_store import keep_graphs
from solvers.take_and_break import grundy_sequence

__all__ = ["Discovery", "INFERENCE_TIMING", "FindSettings", "find_rule", "check_rule_game", "default_bound",
           "default_verify_bound", "rules_from"]

ARITHMETIC_PROBE = 4096  # heaps of a code with three-heap moves computed first, for an arithmetic period
REFINE_LIMIT = 1000  # 1-D games: the fourfold refinement (30, 120, 480), the last grown until a period settles
ATTEMPTS = 5  # exact candidates put on trial before giving up
PROGRESS_SECONDS = 1.0  # the take-and-break engine's progress is reported about this often
GROWTH_SHARE = 0.9  # of the run's budget, the take-and-break engine's: the rest verifies a period it proves
INFERENCE_TIMING = "relation inference (moves() on the box)"  # the timing of a custom game's move relation inferred


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
              table: Table | None = None, games: int | None = None, min_accuracy: float | None = None,
              progress=None, heaps=None, seconds=None, strategy: bool = True, prove: bool = True,
              proof_seconds: float | None = None, settings: FindSettings | None = None) -> Discovery:
    """Find the rule of any game the toolkit explains, verify it, prove it: the one entry, every road.

    The road is chosen from what the game declares (``discover.road.choose_road``): a misère heap game or sums of
    Notakto boards get their misère quotient, a one-heap take-and-break game its Grundy values by Guy and Smith's
    road, every other game a short symbolic rule for the P positions (Grundy values for sums of heaps):

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
        Engine names in the order to try (default: sequence, binary, decision_list, residues, periods2d,
        enumeration, operon).
    seed : int
        Seed of every random choice.
    table : Table, optional
        Fit on this table (e.g. from a learned value table, ``discover.learned``) instead of the solver's.
    games : int, optional
        Self-play games per opponent (default ``discover.defaults.ENGINES.games``).
    min_accuracy : float, optional
        Verify candidates at least this accurate on the (weighted) training table (default 1); below 1
        suits learned tables, whose labels may hold errors (the verdict is the solver's).
    progress : callable, optional
        Called with a short message at each stage (for the take-and-break engine, about once a
        second: heaps done, heaps per second, the current candidate period).
    heaps : int, optional
        Budget of the take-and-break engine and of the misère quotients: at most this many heaps (defaults:
        ``discover.defaults.TAKE_AND_BREAK``, ``QUOTIENT``).
    seconds : float, optional
        The whole run's time budget, on every road (default: the road's, ``discover.defaults.road_seconds``): the
        answer comes within about this many seconds; a run it ends before a rule is verified answers with status
        none, "none within S s" and the best partial (``discover.run_budget``).
    strategy : bool
        Look for a winning-move strategy of a verified P rule (``discover.find_strategy``).
    prove : bool
        Try to prove a verified rule for every position (``discover.proofs.prove.prove_rule``).
    proof_seconds : float, optional
        z3's time budget for the proof (default ``discover.defaults.ENGINES.proof_seconds``) (the theorems take no budget; z3's timeout is the one clock
        that can change a result: a proof cut short is "unknown", never "proved").
    settings : FindSettings, optional
        All of the settings above at once (``bound`` to ``proof_seconds``, without ``table`` and ``progress``),
        instead of the keywords.

    Returns
    -------
    Discovery
        ``status`` verified (``rule`` passed every check on ``verified_bound``; ``proof`` says whether it
        holds for every position), refuted (``rule`` is the best candidate and ``checks`` its failed trial)
        or none (``discover.verdicts.Status``); ``road`` the road taken; on a quotient road ``rule`` is the
        ``QuotientRule`` and ``quotient`` the construction's record; with the candidates, the best partial candidate, the winning-move ``strategy``, the
        engines' ``notes`` and the ``timings``.

    Raises
    ------
    TypeError
        When ``game`` is not a ``Game``.
    ValueError
        For a bad setting (named: a bound that is not a positive integer, a verification bound below the
        training bound, an unknown engine or one whose backend is missing, ``min_accuracy`` outside (0.5, 1],
        a non-positive ``proof_seconds``), ``heaps`` or ``seconds`` for a game that trains on a table, a setting
        the quotient road makes meaningless, a board game no road explains, both ``settings`` and keywords, or a
        training table or verification that would not fit in memory.

    See Also
    --------
    discover.road.choose_road : which road a game takes.
    discover.quotients.discover_quotient : the misère quotient of a heap game's sums.
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
    >>> misere = find_rule(make_game("octal", code="0.77", misere=True))  # misère Kayles: its quotient
    >>> misere.road, misere.status, misere.proof.status, misere.rule.monoid.order
    ('misère quotient', 'verified', 'proved', 40)
    """
    if not isinstance(game, Game):
        raise TypeError(f"find_rule() takes a Game, got {type(game).__name__}")
    settings = FindSettings.resolve(settings, bound=bound, verify_bound=verify_bound, engines=engines, seed=seed,
                                    games=games, min_accuracy=min_accuracy, heaps=heaps, seconds=seconds,
                                    strategy=strategy, prove=prove, proof_seconds=proof_seconds)
    road = choose_road(game, settings, table)
    say = progress or (lambda message: None)
    if road in (Road.QUOTIENT, Road.BOARD_QUOTIENT):  # the construction keeps its own deadline and partial quotient
        found = _by_quotient(game, settings, road, say)
        found.budget = run_seconds(settings, road)
        return found
    deadline = Deadline(run_seconds(settings, road))
    with within(deadline):  # every solve's graph, every engine's work budget and every stage read it
        try:
            found = _on_road(game, settings, road, table, say)
        except OutOfTime as error:
            if not deadline.passed():  # another budget's, not the run's
                raise
            found = Discovery(game, None, Status.NONE, None, [], [], None, None, road=road, out_of_time=str(error))
    found.budget = deadline.seconds
    return found


def _on_road(game: Game, settings: FindSettings, road: Road, table: Table | None, say) -> Discovery:
    """``find_rule`` on the take-and-break, composition or engines road, within the run's deadline."""
    if road == Road.TAKE_AND_BREAK:
        return _with_proof(_from_take_and_break(game, settings, say), settings, say)
    with keep_graphs():  # a custom game's graphs are built once (one moves() call a position), reused to the proof
        notes: list[str] = []
        timed = {}  # the inference's seconds (moves() called on every position of the box: its graph, kept)
        if settings.infer_relation and game.move_relation() is None:  # a custom game's moves stated as a relation
            clock = time.perf_counter()
            verify = settings.verify_bound or default_verify_bound(game, _training_bound(game, settings, table))
            game, why = with_inferred_relation(game, verify, say)
            notes += [why] if why else []
            road = choose_road(game, settings, table)  # a sum of components once its moves are stated
            timed = {INFERENCE_TIMING: time.perf_counter() - clock}
        if road == Road.COMPOSITION:
            composed = _by_composition(game, settings, say)
            if composed is not None:
                composed.timings = {**timed, **composed.timings}  # the stages in the order they ran
                return composed
            held = heaps_that_fit(game, REFINE_LIMIT) if game.dims == 1 and game.parts > 1 else REFINE_LIMIT
            if held < REFINE_LIMIT:  # a coin-turning game: its tables cannot grow as the engines' road grows them
                return Discovery(game, None, Status.NONE, None, [], [], None, held, timed, notes=notes + [
                    f"no formula for the Grundy values of {game!r} holds on the heaps up to {held:,} whose options "
                    f"its graph holds (the engines' tables would grow past them)"], road=Road.COMPOSITION)
            say("the components' Grundy formulas give no verified rule: the engines on the whole game")
        found = _with_proof(_by_engines(game, settings, table, say, notes), settings, say)
        found.timings = {**timed, **found.timings}
        return found


def _training_bound(game: Game, settings: FindSettings, table: Table | None) -> int:
    """The bound of the training table: the one asked for, the given table's, or ``default_bound(game)``."""
    if settings.bound is not None:
        return settings.bound
    return int(table.provenance.get("bound")) if table is not None else default_bound(game)


def _by_composition(game: Game, settings: FindSettings, say) -> Discovery | None:
    """A sum of components: each component's Grundy formula composed by the Sprague-Grundy theorem
    (``discover.composition``), or None when a component shows no formula or the composed rule is not verified."""
    from discover.composition import compose

    composed = compose(game, bound=settings.bound, verify_bound=settings.verify_bound, seed=settings.seed,
                       games=settings.games, strategy=settings.strategy, prove=settings.prove, say=say)
    if composed is None or composed.status != Status.VERIFIED:
        return None
    return Discovery(game, composed.rule, Status.VERIFIED, composed.verify_bound, [composed.rule], composed.checks,
                     composed.bound, composed.verify_bound, composed.timings, strategy=composed.strategy,
                     strategy_check=composed.strategy_check, proof=composed.proof, road=Road.COMPOSITION)


def _by_quotient(game: Game, settings: FindSettings, road: Road, say) -> Discovery:
    """The misère quotient of a heap game's sums (``discover_quotient``) or of Notakto's boards
    (``discover_board_quotient``), within the road's budget."""
    if road == Road.BOARD_QUOTIENT:
        from discover.quotients.board_discovery import discover_board_quotient

        found = discover_board_quotient(game, seconds=settings.seconds, progress=say)
    else:
        from discover.quotients.discovery import discover_quotient

        found = discover_quotient(game, heaps=settings.heaps, seconds=settings.seconds, progress=say)
    return Discovery.from_quotient(found, road)


def _by_engines(game: Game, settings: FindSettings, table: Table | None, say, notes: list[str]) -> Discovery:
    """A table (the solver's on a small bound, or the one given), the engine portfolio and the trial; a table that
    shows no rule grown as ``find_rule`` describes; when the run's budget runs out between tables, the last table's
    discovery with status none."""
    seen: list[Discovery] = []
    try:
        return _on_tables(game, settings, table, say, notes, seen)
    except OutOfTime as error:
        if not seen or not current().passed():
            raise
        seen[-1].notes = notes + [n for n in seen[-1].notes if n not in notes]
        return seen[-1].ran_out(error)


def _on_tables(game: Game, settings: FindSettings, table: Table | None, say, notes: list[str],
               seen: list[Discovery]) -> Discovery:
    """``_by_engines`` on one table after another (each discovery added to ``seen``)."""
    target = "grundy" if game.parts > 1 else "P"
    given_bound = settings.bound is not None or table is not None
    bound = _training_bound(game, settings, table)
    if table is None:
        check_training_size(game, bound)
    names = list(settings.engines or defaults.ENGINES.engines)
    timings: dict[str, float] = {}

    grown, earlier = False, None  # a two-heap table is grown once, to where its periods in each coordinate settle
    while True:
        verify = settings.verify_bound if settings.verify_bound is not None else default_verify_bound(game, bound)
        if verify < bound:
            raise ValueError(f"verify_bound ({verify}) must be at least the training bound ({bound})")
        check_memory(game.universe(verify).size, f"the outcomes of {game!r} at verification bound {verify}")
        game, why = inferred_again(game, verify, say)  # a relation inferred on a smaller box: on this one
        notes += [why] if why else []
        growable = game.dims == 1 and not given_bound and bound * 4 <= REFINE_LIMIT
        grows_2d = (game.dims == 2 and not given_bound and not grown and target == "P" and "periods2d" in names
                    and game.universe(bound).is_box)
        # while a one-heap table can still grow, only the sequence engines run (periods, then binary digits): a
        # longer sequence is cheaper than the whole portfolio on a table too short to show a period
        now = ([name for name in ("sequence", "binary") if name in names]
               if growable and not settings.engines and "sequence" in names else names)
        if game.kernel is None and table is None and not growable:  # a custom game: its graph on the
            build_graph(game, game.universe(verify))  # verification bound first, the training one cut from it
        found = _search(game, bound, verify, now, settings, table, target, say, timings)
        seen.append(found)
        if found.out_of_time is not None:  # the best partial: this table's best candidate, or an earlier table's
            for earlier in reversed(seen[:-1]):
                found.best_partial = found.best_partial or earlier.best_partial or earlier.rule
            found.timings, found.notes = timings, notes + [n for n in found.notes if n not in notes]
            return found
        if found.status != Status.VERIFIED and grows_2d:
            limit = growth_limit_2d(game, settings.verify_bound)
            settled = settled_bound(game, 2 * bound, target, say, limit=limit) if limit > (2 * bound + 1) ** 2 else None
            if settled is not None:  # one more table, for the engine that reads periods in each coordinate
                notes += [n for n in found.notes if n not in notes]
                earlier, bound, names, grown = found, settled, ["periods2d"], True
                check_training_size(game, bound)
                say(f"periods in each coordinate settle on bound {bound}: training the periods2d engine there")
                continue
            found.notes.append(f"no periods in each coordinate settled on tables of up to {limit:,} positions")
        if grown and found.status == Status.NONE:  # the grown table gave no candidate: the first table's record stands
            found = earlier
        if found.status == Status.VERIFIED or not growable:
            found.timings = timings
            found.notes = notes + [n for n in found.notes if n not in notes]
            return found
        notes += [n for n in found.notes if n not in notes]
        bound *= 4
        if bound * 4 > REFINE_LIMIT and "sequence" in names:  # the last table: grown until its period settles
            settled = settled_bound(game, bound, target, say)
            if settled is None:
                notes.append(f"no period settled on tables of up to {GROWTH_POSITIONS:,} heaps, graphs of up to "
                             f"{GROWTH_MOVES:,} moves, solved within {GROWTH_SECONDS:g} s")
            bound = settled or bound
        say(f"no verified rule on this data: training again on bound {bound}")


def _with_proof(found: Discovery, settings: FindSettings, say) -> Discovery:
    """A verified rule's proof attempt (``prove_rule``, with the strategy when there is one), then how far its
    reading for any number of heaps is known to hold (``general_claim``)."""
    if found.status != Status.VERIFIED:
        return found
    if settings.prove:
        from discover.proofs.prove import prove_rule

        from discover.proofs.prove import Proof

        say("proving the rule for every position")
        clock = time.perf_counter()
        values = None if found.sequence is None else found.sequence.values
        failed = found.strategy_check is not None and not found.strategy_check.passed
        formula = isinstance(found.strategy, Strategy)  # a move chooser (no formula) states nothing z3 can use
        strategy = found.strategy if formula and not failed else None  # a strategy that lost a game proves nothing
        try:
            current().check("the proof")
            found.proof = prove_rule(found.rule, found.game, strategy, time_budget=time_left(settings.proof_seconds),
                                     values=values, relation_bound=found.verify_bound)
        except OutOfTime as error:  # the rule stays verified; its proof is unknown
            found.proof = Proof(ProofStatus.UNKNOWN, "", "", seconds=time.perf_counter() - clock,
                                reason=f"{error} (the run's budget)")
        found.timings["proof"] = time.perf_counter() - clock
    from discover.generality import general_claim

    clock = time.perf_counter()
    try:
        found.general = general_claim(found.rule, found.game, found.proof)
    except OutOfTime as error:
        found.notes.append(f"no claim for other numbers of heaps: {error}")
    if found.general is not None:
        found.timings["other numbers of heaps"] = time.perf_counter() - clock
    return found


def _search(game, bound, verify, names, settings: FindSettings, table, target, say, timings) -> Discovery:
    """The engines on one table and the trial of their best exact candidates; when the run's budget runs out, status
    none with the candidates proposed so far."""
    candidates: list[Rule] = []
    notes: list[str] = []
    try:
        return _engines_and_trial(game, bound, verify, names, settings, table, target, say, timings, candidates, notes)
    except OutOfTime as error:
        if not current().passed():
            raise
        source = "solver" if table is None else table.provenance.get("source", "solver")
        return Discovery(game, None, Status.NONE, None, candidates, [], bound, verify, source=source,
                         notes=notes).ran_out(error)


def _engines_and_trial(game, bound, verify, names, settings: FindSettings, table, target, say, timings,
                       candidates: list[Rule], notes: list[str]) -> Discovery:
    """``_search``, the candidates and notes kept in the lists given as they come."""
    seed, games = settings.seed, settings.games
    clock = time.perf_counter()
    if table is None:
        say(f"solving {game!r} on bound {bound}")
        table = table_from_solution(solve(game, bound=bound, grundy=target == "grundy"))
    timings["solve (training)"] = timings.get("solve (training)", 0.0) + time.perf_counter() - clock
    source = table.provenance.get("source", "solver")
    solution = None
    tried, refuted = set(), None
    for name in names:
        current().check(f"the engines on bound {bound} (before {name})")
        say(f"engine {name}")
        clock = time.perf_counter()
        engine = make_engine(name, seed).fit(
            table.X, table.y(target), feature_names=table.feature_names,
            sample_weight=table.weights, target=target,
        )
        timings[f"engine {name}"] = timings.get(f"engine {name}", 0.0) + time.perf_counter() - clock
        notes += [n for n in getattr(engine, "notes_", []) if n not in notes]
        new = rules_from(engine.candidates_, table, target, game, seed)
        candidates[:] = sorted(candidates + new, key=lambda r: (-r.train_accuracy, r.complexity))
        for rule in [r for r in candidates if r.train_accuracy >= settings.min_accuracy]:
            key = str(rule.expr)
            if key in tried or len(tried) >= ATTEMPTS:
                continue
            tried.add(key)
            current().check(f"the trial of {rule.text()}")
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
                return Discovery(game, rule, Status.VERIFIED, verify, candidates, checks, bound, verify, source=source,
                                 strategy=strategy, strategy_check=played, notes=notes)
            refuted = refuted or (rule, checks)
    partial = candidates[0] if candidates else None
    if refuted:
        return Discovery(game, refuted[0], Status.REFUTED, None, candidates, refuted[1], bound, verify,
                         best_partial=partial, source=source, notes=notes)
    return Discovery(game, None, Status.NONE, None, candidates, [], bound, verify, best_partial=partial, source=source,
                     notes=notes)


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

    heaps = settings.heaps or defaults.TAKE_AND_BREAK.heaps
    sequence, rule = None, None
    digits, _ = game.take_and_break_code()
    if int(np.bitwise_or.reduce(digits)) & 8:  # three heaps a move: the values may grow, arithmetic-periodic
        sequence = grundy_sequence(game, heaps=min(heaps, ARITHMETIC_PROBE),
                                   seconds=max(GROWTH_SHARE * current().left(), 1e-3), progress=report)
        rule = None if sequence.proved else _arithmetic_rule(game, sequence, seed)
        if rule is None and not sequence.proved and sequence.heaps < heaps:
            say(f"no arithmetic period on the first {sequence.heaps:,} heaps: computing on")
            sequence = None
    if sequence is None:
        sequence = grundy_sequence(game, heaps=heaps, seconds=max(GROWTH_SHARE * current().left(), 1e-3),
                                   progress=report)
    timings = {"take-and-break engine": sequence.seconds}
    if rule is None and not sequence.proved and sequence.heaps < heaps:  # the clock, not the heaps, ended it
        return Discovery(game, None, Status.NONE, None, [], [], sequence.heaps - 1, None, timings,
                         source="take_and_break", sequence=sequence, road=Road.TAKE_AND_BREAK,
                         out_of_time=f"the {current().seconds:g}-second budget ran out in the Grundy values of "
                                     f"{game!r}")
    verify = settings.verify_bound or take_and_break_verify_bound(game, sequence.heaps)
    check_memory(game.universe(verify).size, f"the outcomes of {game!r} at verification bound {verify}")
    common = {"train_bound": sequence.heaps - 1, "verify_bound": verify, "timings": timings,
              "source": "take_and_break", "sequence": sequence}
    if not sequence.proved and rule is None:
        return Discovery(game, None, Status.NONE, None, [], [], road=Road.TAKE_AND_BREAK, **common)
    if rule is None:
        periodic = PeriodicValues.from_values(sequence.values, sequence.preperiod, sequence.period)
        words = (f"{len(periodic.exceptions):,} exceptions below n = {periodic.preperiod:,}, values from 0 to "
                 f"{periodic.largest}; read from G(n) for n < {sequence.heaps:,}, computed by the take-and-break "
                 "engine")
        rule = Rule.from_periodic(periodic, game.feature_names, 1.0, _engine_provenance(game, sequence, seed), words)
        say(f"verifying period {periodic.period:,} from n = {periodic.preperiod:,} on bound {verify:,}")
    else:
        say(f"verifying {rule.text()} on bound {verify:,}")
    clock = time.perf_counter()
    solution = solve(game, bound=verify, grundy=True)
    timings["solve (verification)"] = time.perf_counter() - clock
    checks = verify_rule(rule, game, verify, games=games, seed=seed, solution=solution)
    timings["verify"] = time.perf_counter() - clock
    verified = all(c.passed for c in checks)
    return Discovery(game, rule, Status.VERIFIED if verified else Status.REFUTED, verify if verified else None, [],
                     checks, road=Road.TAKE_AND_BREAK, **common)


def _engine_provenance(game, sequence, seed: int) -> dict:
    return {"engine": "take_and_break", "game": game.spec(), "bound": sequence.heaps - 1, "source": "take_and_break",
            "seed": seed, "version": __version__}


def _arithmetic_rule(game, sequence, seed: int) -> Rule | None:
    """An exact arithmetic-periodic formula G(n + p) = G(n) + s (s > 0) of the engine's values, or None."""
    heaps = np.arange(sequence.heaps, dtype=np.int64)[:, None]
    engine = PeriodicEngine(random_state=seed).fit(heaps, sequence.values, feature_names=list(game.feature_names),
                                                   target="grundy")
    for candidate in engine.candidates_:
        rule = Rule(candidate.expr, tuple(game.feature_names), "grundy", candidate.accuracy,
                    _engine_provenance(game, sequence, seed), candidate.words)
        if candidate.accuracy == 1.0 and np.array_equal(rule.evaluate(heaps), sequence.values):
            return rule
    return None
