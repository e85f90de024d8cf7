"""Past the parity barrier: AlphaZero on Nim with many heaps, alone and guided by the rule it discovers.

Zhou and Riis ("Impartial games: a challenge for reinforcement learning") found AlphaZero-style agents learn Nim
with 5 heaps, slow down at 6 and play at random level with 7. This experiment trains AlphaZero
(``learners.alphazero``) on Nim with ``heaps`` heaps from the paper's start (1, 3, 5, ...) or a stated one, with
random openings, in two arms:

* ``alone``: AlphaZero unguided;
* ``guided``: the same, its self-play search steered by a rule (``learners.alphazero.guide``: the rule's
  winning moves mixed into the priors with the HQN paper's confidence schedule, the confidence growing with the
  rule's record against the learner itself). The rule comes from the discovery stage run on the learner's own
  experience of a small board: AlphaZero learns Nim with ``rule_heaps`` heaps, its value table is thresholded
  with a confidence (``discover.learned``), the engines fit a rule to it (``discover.find.find_rule``), which is
  verified and proved (Bouton's theorem, as Moore's Nim_1). Only a rule the discovery stage states for any number
  of heaps (written with derived features such as the xor of all coordinates, and proved for every number of
  heaps) may guide: one stated over the small board's named coordinates is refused.

Every scoring is exact where the positions reachable from the start (the box below it) number at most
``learners.alphazero.run.MAX_TABLE_POSITIONS``: the game is solved over all of them
(``solvers.solve(game, starts=[start])``) and the policy head's optimal-move rate is over all its N positions.
On larger boards (8 heaps of 1, 3, ..., 15: 10,321,920 positions) the rate and the value head's sign are estimated
on ``sample_positions`` positions of the box, stratified by total (``learners.alphazero.sampled``), with Wilson
intervals, and each position's value, and the perfect player, come from Bouton's theorem proved for the game by
the prover (``discover.app.experiments.parity_referee``), never from the learner's rule. Either way the search player
plays the perfect player from the start in both seats (``eval_games`` games, Wilson intervals), and at the end
from ``opening_positions`` positions reached by random openings, in both seats (wins of the games its seat can
win). ``run(settings)`` returns the record; ``write(record, folder)`` the report
(``discover.app.experiments.parity_report``).
"""

from __future__ import annotations

import math
import time

import numpy as np

from cgbase.machine import machine
from discover import defaults
from discover.app.experiments.parity_settings import ParitySettings

__all__ = ["run", "discover_guide_rule", "train_arm", "opening_scores", "is_exact", "ParitySettings"]


def is_exact(settings: ParitySettings) -> bool:
    """Whether the positions reachable from the start (the box below it) are few enough to solve and score exactly.

    Examples
    --------
    >>> is_exact(ParitySettings(heaps=7)), is_exact(ParitySettings(heaps=8))
    (True, False)
    """
    from learners.alphazero.run import MAX_TABLE_POSITIONS

    return math.prod(x + 1 for x in settings.start) <= MAX_TABLE_POSITIONS


def discover_guide_rule(settings: ParitySettings, seed: int, progress=None) -> dict:
    """The rule of Nim from AlphaZero's own value table on ``rule_heaps`` heaps, with its proof and its reading for
    any number of heaps; ``usable`` says whether it may guide (verified, proved, and stated for any number of heaps).

    Examples
    --------
    >>> found = discover_guide_rule(ParitySettings(rule_heaps=2, rule_bound=3, rule_games=256), seed=0)
    >>> found["source"].startswith("AlphaZeroLearner self-play"), {"rule", "proof", "general", "usable"} <= set(found)
    (True, True)
    """
    from discover.expr.text import general_text
    from discover.find import find_rule
    from discover.find_settings import FindSettings
    from discover.learned import learned_table_text, table_from_values
    from games import make_game
    from learners.registry import fit_learner

    game = make_game("nim", heaps=settings.rule_heaps)
    clock, cpu = time.perf_counter(), time.process_time()
    learner = fit_learner("alphazero", game, bound=settings.rule_bound, games=settings.rule_games, seed=seed,
                          params={"hidden": settings.hidden})
    table = table_from_values(learner.value_table_, settings.confidence)
    found = find_rule(game, table=table, progress=progress,
                      settings=FindSettings(seed=seed, min_accuracy=defaults.ENGINES.learned_min_accuracy))
    rule = found.rule if found.status == "verified" else None
    general = general_text(rule.expr, rule.target) if rule is not None else None
    proved = found.proof is not None and found.proof.status == "proved"
    claim = found.general
    usable = bool(rule is not None and rule.target == "P" and proved and general is not None
                  and claim is not None and claim.status == "proved")
    why = ("verified, proved, and stated for any number of heaps" if usable else
           "no verified rule" if rule is None else "not proved" if not proved else
           "stated over the small board's own coordinates, not for any number of heaps" if general is None else
           "its reading for any number of heaps is not proved")
    return {"game": repr(game), "status": found.status, "rule": None if rule is None else rule.text(),
            "rule_json": None if rule is None else rule.to_json(), "general": general,
            "general_claim": None if claim is None else claim.line(),
            "proof": None if found.proof is None else found.proof.line(),
            "proof_record": None if found.proof is None else found.proof.to_record(),
            "learned": learned_table_text(table.provenance["learned"]), "source": table.provenance["source"],
            "engine": None if rule is None else rule.provenance.get("engine"),
            "train_accuracy": None if rule is None else rule.train_accuracy, "usable": usable, "why": why,
            "seconds": time.perf_counter() - clock, "cpu_seconds": time.process_time() - cpu}


def opening_scores(game, solution, agent, positions, rng, max_plies: int) -> dict:
    """The agent against the perfect player from each of ``positions``, in both seats: per seat, the games its
    seat can win (the verdict of ``solution``: the solver's, or a referee's), those it won and the share with its
    95% Wilson interval."""
    from learners.alphazero.evaluation import score
    from learners.alphazero.play import OptimalMover
    from learners.repeats import share_interval

    optimal, result = OptimalMover(game, solution), {}
    first_wins = solution.outcome(positions) == 1
    for seat, label in ((0, "first"), (1, "second")):
        log = score(game, agent, optimal, positions, seat, rng, max_plies)[1]
        winnable = first_wins if seat == 0 else ~first_wins
        n, k = int(winnable.sum()), int((log.winners[winnable] == seat).sum())
        result[label] = {"winnable": n, "won": k, "share": list(share_interval(k, n)) if n else None}
    return result


def _openings(game, start, count: int, most: int, rng) -> np.ndarray:
    """``count`` positions from ``start`` after a uniform number in [1, most] of random moves (stopping before the
    end), as self-play opens."""
    from learners.alphazero.play import RandomMover
    from learners.options import options_block

    positions = np.repeat(np.asarray([start], dtype=np.int64), count, axis=0)
    plies = rng.integers(1, max(1, most) + 1, size=count)
    mover = RandomMover(game)
    for ply in range(max(1, most)):
        moved = mover.choose(positions, ply, rng)
        go = (plies > ply) & (options_block(game, moved)[0] > 0)
        positions[go] = moved[go]
    return positions


def train_arm(settings: ParitySettings, arm: str, seed: int, rule_json: str | None, progress: bool = False) -> dict:
    """One AlphaZero run of ``arm`` ("alone" or "guided", then with the rule ``rule_json``): its history, and its
    final play against the perfect player from random openings (a job for ``cgbase.parallel``)."""
    from discover.rule import Rule
    from games import make_game
    from learners.alphazero.guide import RuleGuide
    from learners.alphazero.learner import AlphaZeroLearner
    from learners.alphazero.mcts import Forest
    from learners.alphazero.play import SearchMover

    game = make_game("nim", heaps=settings.heaps)
    clock, cpu = time.perf_counter(), time.process_time()
    solution, scoring = _truth(game, settings, seed)
    referee = solution if scoring is None else scoring.referee
    solve_cpu = time.process_time() - cpu
    guide = None
    if arm == "guided":
        rule = Rule.from_json(rule_json)
        guide = RuleGuide(rule.predicate, settings.guide, rule.text())
    learner = AlphaZeroLearner(hidden=settings.hidden, random_state=seed)
    learner.fit(game, score_untrained=True, solution=solution, scoring=scoring, guide=guide, progress=progress,
                **settings.fit())
    rng = np.random.default_rng([seed, 23])
    positions = _openings(game, settings.start, settings.opening_positions, settings.random_openings, rng)
    sims = learner.eval_simulations_
    agents = {"network": SearchMover(Forest(game, len(positions), sims, learner.width_, "puct", learner.c_puct),
                                     learner.policy_value_, sims)}
    if guide is not None:
        agents["guided"] = SearchMover(Forest(game, len(positions), sims, learner.width_, "puct", learner.c_puct),
                                       guide.evaluator(learner.policy_value_, game), sims)
    openings = {name: opening_scores(game, referee, agent, positions, rng, learner.max_plies_)
                for name, agent in agents.items()}
    truth = ({"exact": True, "referee": "the solver"} if scoring is None else
             {"exact": False, "referee": scoring.name, "referee_proof": referee.proof.line(),
              "sample_positions": len(scoring.positions), "sample_n_positions": scoring.n_positions})
    return {"arm": arm, "seed": seed, "learner": repr(learner), "history": learner.history_, "openings": openings,
            "positions": math.prod(x + 1 for x in settings.start), **truth,
            "start_value": int(referee.outcome([settings.start])[0]), "solve_cpu_seconds": solve_cpu,
            "train_cpu_seconds": learner.history_[-1]["cpu_seconds"], "seconds": time.perf_counter() - clock,
            "cpu_seconds": time.process_time() - cpu}


def _truth(game, settings: ParitySettings, seed: int):
    """``(solution, None)`` where the board is solved exactly, else ``(None, scoring)``: the seeded stratified
    sample judged by Bouton's theorem."""
    from discover.app.experiments.parity_referee import BoutonReferee
    from learners.alphazero.sampled import SampledScoring, stratified_box_sample
    from solvers import solve

    if is_exact(settings):
        return solve(game, starts=[settings.start]), None
    referee = BoutonReferee(game)
    sample = stratified_box_sample(settings.start, settings.sample_positions, np.random.default_rng([seed, 29]))
    return None, SampledScoring(game, sample, referee, referee.name)


def run(settings: ParitySettings, workers=None, progress: bool = False, say=None, command: str = "") -> dict:
    """Discover the rule (per seed) and train every arm and seed (``workers``: a ``cgbase.parallel.Workers`` to run
    them side by side; the numbers are the same either way); the report's record."""
    from games import make_game
    from learners.alphazero.sampled import check_box_sample
    from solvers.graph import check_reachable

    if is_exact(settings):  # before the discovery's games
        check_reachable(make_game("nim", heaps=settings.heaps), [settings.start])
    else:
        check_box_sample(settings.start)
    say = say or (lambda message: None)
    clock = time.perf_counter()
    rules = {}
    if "guided" in settings.arms:
        for seed in settings.seeds:
            rules[seed] = discover_guide_rule(settings, seed)
            found = rules[seed]
            say(f"seed {seed}: {found['rule'] or 'no rule'} from {found['source']} ({found['why']})")
    jobs = [(settings, arm, seed, rules[seed]["rule_json"] if arm == "guided" else None)
            for seed in settings.seeds for arm in settings.arms
            if arm == "alone" or rules[seed]["usable"]]
    if workers is None:
        runs = [train_arm(*job, progress=progress) for job in jobs]
    else:
        runs = workers.map(train_arm, jobs)
    for one in runs:
        last = one["history"][-1]
        say(f"{one['arm']} seed {one['seed']}: optimal-move rate {last.get('optimal_move_rate', float('nan')):.3f}, "
            f"{one['train_cpu_seconds']:.0f} CPU s")
    return {"title": f"AlphaZero on Nim with {settings.heaps} heaps, alone and guided by the rule it discovers",
            "settings": settings.to_record(), "rules": {str(k): v for k, v in rules.items()}, "runs": runs,
            "machine": machine(), "command": command, "seconds": time.perf_counter() - clock,
            "cpu_seconds": sum(r["cpu_seconds"] for r in runs) + sum(r["cpu_seconds"] for r in rules.values())}
