"""The exploration study's exact measure on Hex 6 x 6 and 7 x 7: positions met in play, solved one by one.

After every fit of ``discover.app.experiments.explore.run`` (``exact="solver"``), ``measure`` gathers the
positions the fitted learners meet in their own play (``PLAY_GAMES`` games each, a random move with
probability ``PLAY_EPSILON``; the same pool for every learner, so that the comparison is paired),
samples ``size`` of them stratified by move number, and has the solver with virtual connections value
each and each learner's greedy move there within ``nodes`` evaluated positions per call
(``learners.exploration.played``).  ``blocks`` adds to the report the share of each fit with its 95%
Wilson interval, the unsettled counts, the budget set against the paper's, and what the evidence
says of the paper's claim that plain one-step Q does best (``paper_claim``).

Examples
--------
>>> paper_claim({"settings": {"variants": ["minimax", "solver"]}, "summary": {"solver": {"difference": {
...     "mean": -0.1, "low": -0.2, "high": -0.01, "n": 3, "p_value": 0.01, "p_holm": 0.01}}}})[0]
'confirmed'
"""

from __future__ import annotations

import numpy as np

__all__ = ["measure", "blocks", "paper_claim", "PLAY_GAMES", "PLAY_EPSILON", "PAPER_BUDGET"]

PLAY_GAMES = 64  # self-play games of each fitted learner whose positions make the pool
PLAY_EPSILON = 0.1  # the learners' own exploration rate
PAPER_BUDGET = ("100,000 self-play games per method with a 9-layer, 128-filter network of hexagonal filters "
                "(the paper's 7 x 7 runs, on a GPU)")


def measure(game, scorers, size: int, nodes: int, seed: int) -> tuple[list[dict], dict]:
    """The final measure of each scorer (``learners.exploration.played.SolvedMeasure``) on ``size`` positions met
    in their play, and a description of the sample."""
    from learners.exploration.played import SolvedMeasure, played_positions, stratified_sample

    pool = played_positions(game, scorers, PLAY_GAMES, PLAY_EPSILON, seed)
    sample = stratified_sample(pool, size, seed)
    solved = SolvedMeasure(game, sample, nodes)
    finals = [solved(scores) for scores in scorers]
    moves = np.bitwise_count(sample).sum(axis=1)
    about = {"source": "solver with virtual connections", "pool_positions": int(len(pool)),
             "sampled_positions": int(len(sample)), "move_numbers": [int(moves.min()), int(moves.max())],
             "lost_positions": solved.lost, "unsettled_positions": solved.unsettled, "node_budget": int(nodes),
             "play_games": PLAY_GAMES, "play_epsilon": PLAY_EPSILON, "final_positions": len(solved),
             "curve_positions": 0, "solver_nodes": int(solved.solver.nodes)}
    return finals, about


def paper_claim(record: dict) -> tuple[str, str]:
    """``(word, sentence)``: whether the record confirms, refutes or leaves undecided the paper's claim that plain
    one-step Q-learning does best: refuted when a variant beats it, confirmed when it beats every variant
    compared (Holm-adjusted p < 0.05 on the paired differences), else undecided."""
    diffs = {v: record["summary"].get(v, {}).get("difference") for v in record["settings"]["variants"]}
    diffs = {v: d for v, d in diffs.items() if d and d["n"] >= 2}
    better = [v for v, d in diffs.items() if d.get("p_holm", 1.0) < 0.05 and d["mean"] > 0]
    worse = [v for v, d in diffs.items() if d.get("p_holm", 1.0) < 0.05 and d["mean"] < 0]
    if better:
        verb = "beats" if len(better) == 1 else "beat"
        return "refuted", f"refuted at this budget: {', '.join(better)} {verb} plain one-step Q."
    if diffs and len(worse) == len(diffs):
        return "confirmed", "confirmed at this budget: plain one-step Q beats every other method compared."
    return "undecided", ("undecided at this budget: no method is shown to differ from plain one-step Q "
                         if not worse else f"undecided at this budget: plain one-step Q beats {', '.join(worse)} "
                         "but not every method ") + "(Holm-adjusted p < 0.05 over the paired seeds)."


def blocks(record: dict) -> list:
    """The report's paragraphs and tables of the solved measure (see the module)."""
    from learners.repeats import share_interval

    settings, about = record["settings"], record["measure"]
    learner = settings["learner"]
    proofs = {v: p["solver_nodes"] for v, p in settings.get("per_variant", {}).items() if "solver_nodes" in p}
    blocks = [("h", 2, "Budget and machine"),
              ("p", f"The paper: {PAPER_BUDGET}. Here: {settings['episodes']:,} self-play games per method and "
                    f"seed, a network of {learner.get('layers', 4)} layers of {learner.get('width', 32)} filters "
                    f"(hexagonal), on the CPU of {record.get('machine', 'an unrecorded machine')}: a reduced budget, "
                    f"and the study took {record['seconds']:,.0f} s wall, {record.get('cpu_seconds', float('nan')):,.0f} "
                    "CPU seconds in all." + "".join(
                        f" {v} tried each position reached with {n} evaluated positions of the solver with virtual "
                        "connections (the paper gave Benzene's solver half a second)." for v, n in proofs.items())),
              ("h", 2, "The exact measure on positions met in play"),
              ("p", f"Each fitted learner played {about['play_games']} games against itself (a uniformly random "
                    f"move with probability {about['play_epsilon']}); of the {about['pool_positions']:,} distinct "
                    f"positions met, {about['sampled_positions']} were drawn stratified by move number (the same "
                    f"number at each, moves {about['move_numbers'][0]} to {about['move_numbers'][1]}). The solver "
                    f"with virtual connections valued each within {about['node_budget']:,} evaluated positions: "
                    f"{about['final_positions']} have a winning move for the player to move, {about['lost_positions']} "
                    f"have none, and {about['unsettled_positions']} were not settled within the budget (left out, "
                    "not guessed). On each of the first, the learner's greedy move was valued the same way; a greedy "
                    "move left unsettled is counted and left out of its share. Intervals: 95% Wilson per fit and "
                    "pooled over the seeds.")]
    rows, pooled = [], {}
    for run in record["runs"]:
        final = run["final"]
        won, settled = final.get("won", 0), final.get("settled", 0)
        share = _share(won, settled, share_interval)
        rows.append([run["variant"], str(run["seed"]), f"{won}/{settled}", share, str(final.get("unsettled_moves", 0))])
        total = pooled.setdefault(run["variant"], [0, 0, 0])
        total[0], total[1], total[2] = total[0] + won, total[1] + settled, total[2] + final.get("unsettled_moves", 0)
    rows += [[variant, "all", f"{w}/{s}", _share(w, s, share_interval), str(u)] for variant, (w, s, u) in pooled.items()]
    word, sentence = paper_claim(record)
    blocks += [("table", ["variant", "seed", "greedy move wins", "share [95% Wilson]", "greedy moves unsettled"], rows),
               ("p", f"The paper's claim that plain one-step Q does best (judged there by matches against a stochastic "
                     f"Wolve, here by the exact measure): {sentence}{_per_seed(record, word)}")]
    return blocks


def _per_seed(record: dict, word: str) -> str:
    """A sentence naming each variant whose share is above (or below) plain one-step Q's on every seed."""
    share = {(r["variant"], r["seed"]): r["final"].get("accuracy", float("nan")) for r in record["runs"]}
    seeds, words = record["settings"]["seeds"], []
    base = next(v for v in record["settings"]["variants"] if "difference" not in record["summary"][v])  # the reference
    for variant in record["settings"]["variants"]:
        signs = {np.sign(share[variant, s] - share[base, s]) for s in seeds} if variant != base else set()
        if len(signs) == 1 and signs != {0.0}:
            words.append(f"{variant}'s share is {'above' if signs == {1.0} else 'below'} {base}'s on each of the "
                         f"{len(seeds)} seeds")
    if not words:
        return ""
    return f" By fit: {'; '.join(words)}" + (" (not significant over the seeds)." if word == "undecided" else ".")


def _share(won: int, settled: int, share_interval) -> str:
    if not settled:
        return "-"
    share, low, high = share_interval(won, settled)
    return f"{share:.3f} [{low:.3f}, {high:.3f}]"
