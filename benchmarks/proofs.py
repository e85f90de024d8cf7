"""Rules, winning moves and proofs on the catalogue: find, find a strategy, prove, then play far away.

Run by hand from the repository root (nothing is asserted on time; the figures are quoted in notes)::

    python benchmarks/proofs.py                  # every case of issue 14's list, a few minutes on 2 cores
    python benchmarks/proofs.py --quick          # three cases, 200 games each: a smoke run
    python benchmarks/proofs.py --cases nim3,wythoff
    python benchmarks/proofs.py --cases moore4 --methods z3 --budget 900   # the bit-vector proof, not the theorem

For each case, in one process: ``find_rule`` with its defaults, ``find_strategy`` for the rule,
``prove_rule`` with the strategy, and, for a proved case, 1,000 games from random N positions far
beyond the training bound (Nim: 20 heaps below 2^20; Wythoff, Chomp, staircase, Euclid:
coordinates up to 10^6; subtraction games, whose plays take a few tokens a move, up to 10^4) in
which the strategy moves first against the optimal player.  The positions are judged by closed
forms written here (the nim-sum, Wythoff's pairs from integer square roots, the periods of Winning
Ways, Moore's digit sums, Cole and Davie's ratio for Euclid), never by the rule under test: a
strategy move that leaves an N position counts as a lost game, since the optimal player would
then win; from a P position every move loses, and the optimal player picks one at random.
"""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]  # do not shadow ``discover``

import argparse  # noqa: E402
import math  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from discover.find import find_rule  # noqa: E402
from discover.find_strategy import find_strategy  # noqa: E402
from discover.proofs.prove import prove_rule  # noqa: E402
from discover.rule import Rule  # noqa: E402
from discover.strategy import Strategy  # noqa: E402
from games import coordinate_names, make_game  # noqa: E402

__all__ = ["CASES", "truth_p", "random_moves", "play_far"]

# name -> (family, parameters, training bound or None, far play: (heaps, largest coordinate))
CASES = {
    "nim2": ("nim", {"heaps": 2}, 15, (2, 2**20)),
    "nim3": ("nim", {"heaps": 3}, None, (20, 2**20)),
    "nim4": ("nim", {"heaps": 4}, None, (20, 2**20)),
    "nim5": ("nim", {"heaps": 5}, None, (20, 2**20)),
    "nim6": ("nim", {"heaps": 6}, None, (20, 2**20)),
    "misere_nim3": ("nim", {"heaps": 3, "misere": True}, None, (3, 2**20)),
    "sub123": ("subtraction", {"subtract": (1, 2, 3)}, None, (1, 10**4)),
    "sub134": ("subtraction", {"subtract": (1, 3, 4)}, None, (1, 10**4)),
    "sub237": ("subtraction", {"subtract": (2, 3, 7)}, None, (1, 10**4)),
    "staircase3": ("staircase", {"stairs": 3}, None, (3, 10**6)),
    "chomp2": ("chomp", {"rows": 2}, None, (2, 10**6)),
    "wythoff": ("wythoff", {}, None, (2, 10**6)),
    "moore3": ("moore", {"heaps": 3, "k": 2}, None, (3, 2**20)),
    "moore4": ("moore", {"heaps": 4, "k": 2}, None, (4, 2**20)),
    "euclid": ("euclid", {}, None, (2, 10**6)),
}
QUICK = ("nim3", "sub134", "wythoff")
PERIODS = {(1, 2, 3): (4, {0}), (1, 3, 4): (7, {0, 2}), (2, 3, 7): (5, {0, 1})}


def truth_p(game, positions) -> np.ndarray:
    """The P positions by the closed forms of the literature (never by a discovered rule)."""
    X = np.asarray(positions, dtype=np.int64)
    name = game.name
    if name == "nim":
        xor = np.bitwise_xor.reduce(X, axis=1)
        return np.where(X.max(axis=1) <= 1, xor == 1, xor == 0) if game.misere else xor == 0
    if name == "subtraction":
        period, residues = PERIODS[game.params["subtract"]]
        return np.isin(X[:, 0] % period, list(residues))
    if name == "staircase":
        return np.bitwise_xor.reduce(X[:, 0::2], axis=1) == 0  # the odd-numbered stairs
    if name == "chomp":
        return X[:, 0] == X[:, 1] + 1
    if name == "wythoff":
        d = np.abs(X[:, 0] - X[:, 1])
        root = np.array([math.isqrt(5 * int(v) * int(v)) for v in d], dtype=np.int64)
        return X.min(axis=1) == (d + root) // 2
    if name == "moore":
        bits = (X[:, :, None] >> np.arange(int(X.max()).bit_length() + 1)) & 1
        return (bits.sum(axis=1) % (game.params["k"] + 1) == 0).all(axis=1)
    if name == "euclid":  # Cole and Davie: P iff a coordinate is 0, or the ratio of the larger to the smaller is below φ
        big, small = X.max(axis=1), X.min(axis=1)
        return (small == 0) | ((big != small) & (big * big - big * small - small * small < 0))
    raise ValueError(f"no closed form here for {game!r}")


def _pick(rng, allowed) -> np.ndarray:
    """A uniformly random True column of each row of a boolean matrix."""
    score = np.where(allowed, rng.random(allowed.shape), -1.0)
    return score.argmax(axis=1)


def random_moves(game, positions, rng) -> np.ndarray:
    """One uniformly drawn legal move from each position (each has at least one)."""
    X = np.asarray(positions, dtype=np.int64).copy()
    rows = np.arange(len(X))
    name = game.name
    if name in ("nim", "moore"):
        heaps = game.params.get("k", 1)
        for _ in range(heaps):  # up to k heaps, the first always
            j = _pick(rng, X > 0)
            take = rng.integers(1, np.maximum(X[rows, j], 1) + 1)
            take = np.where(X[rows, j] > 0, take, 0)
            X[rows, j] -= take if _ == 0 else take * (rng.random(len(X)) < 0.5)
        return X
    if name == "subtraction":
        subtract = np.array(game.params["subtract"])
        s = subtract[_pick(rng, subtract[None, :] <= X[:, :1])]
        return X - s[:, None]
    if name == "staircase":
        i = _pick(rng, X > 0)
        take = rng.integers(1, X[rows, i] + 1)
        X[rows, i] -= take
        below = np.maximum(i - 1, 0)
        X[rows, below] += np.where(i > 0, take, 0)
        return X
    if name == "wythoff":
        d = _pick(rng, np.stack([X[:, 0] > 0, X[:, 1] > 0, X.min(axis=1) > 0], axis=1))
        top = np.where(d == 0, X[:, 0], np.where(d == 1, X[:, 1], X.min(axis=1)))
        take = rng.integers(1, top + 1)
        X[:, 0] -= np.where(d != 1, take, 0)
        X[:, 1] -= np.where(d != 0, take, 0)
        return X
    if name == "chomp":
        i = _pick(rng, np.stack([X[:, 0] > 1, X[:, 1] > 0], axis=1))
        j = rng.integers(np.where(i == 0, 1, 0), X[rows, i])
        X[:, 1] = np.minimum(X[:, 1], j)
        X[:, 0] = np.where(i == 0, j, X[:, 0])
        return X
    if name == "euclid":
        side = np.where(X[:, 0] == X[:, 1], rng.integers(0, 2, len(X)), (X[:, 1] > X[:, 0]).astype(np.int64))
        mover, other = X[rows, side], X[rows, 1 - side]
        X[rows, side] = mover - other * rng.integers(1, mover // other + 1)
        return X
    raise ValueError(f"no random mover here for {game!r}")


def _terminal(game, X) -> np.ndarray:
    if game.name == "subtraction":
        return X[:, 0] < min(game.params["subtract"])
    if game.name == "chomp":
        return (X[:, 0] == 1) & (X[:, 1] == 0)
    if game.name == "euclid":
        return X.min(axis=1) == 0
    return (X == 0).all(axis=1)


def random_n_positions(game, dims: int, top: int, count: int, rng) -> np.ndarray:
    """``count`` random positions (coordinates up to ``top``) that are N by the closed form."""
    found = np.zeros((0, dims), np.int64)
    while len(found) < count:
        X = rng.integers(0, top + 1, size=(4 * count, dims))
        if game.name == "chomp":
            X = np.sort(X, axis=1)[:, ::-1]
            X[:, 0] = np.maximum(X[:, 0], 1)
        X = X[~truth_p(game, X) & ~_terminal(game, X)]
        found = np.vstack([found, X])
    return found[:count]


def play_far(strategy: Strategy, game, starts, seed: int = 0) -> dict:
    """The strategy moves first from every start against the optimal player; games side by side.

    Returns wins, losses and the first start lost (a strategy move that is missing, illegal or
    leaves an N position by the closed form loses the game).
    """
    rng = np.random.default_rng(seed)
    X = np.asarray(starts, dtype=np.int64)
    alive = np.arange(len(X))
    lost, plies = [], 0
    while len(alive):
        Q = strategy.moves(X[alive])
        good = (Q >= 0).all(axis=1)
        good[good] = strategy.relation.allows(X[alive][good], Q[good]) & truth_p(game, Q[good])
        lost += alive[~good].tolist()
        alive, Q = alive[good], Q[good]
        won = _terminal(game, Q) if game.terminal_outcome() == -1 else np.zeros(len(Q), dtype=bool)
        alive, Q = alive[~won], Q[~won]
        if len(alive):
            X[alive] = random_moves(game, Q, rng)
            done = _terminal(game, X[alive]) & (game.terminal_outcome() == 1)  # misere: we have no move and win
            alive = alive[~done]
        plies += 1
    first = None if not lost else tuple(int(x) for x in np.asarray(starts)[min(lost)])
    return {"games": len(X), "wins": len(X) - len(lost), "losses": len(lost), "first_loss": first, "plies": plies}


def far_strategy(strategy: Strategy, game, dims: int) -> tuple[Strategy, object]:
    """The same strategy on ``dims`` heaps when its rule uses only derived features (Nim's nim-sum)."""
    if dims == game.dims:
        return strategy, game
    wide = make_game(game.name, **{**game.params, "heaps": dims})
    rule = Rule(strategy.rule.expr, coordinate_names(dims))
    return Strategy(rule, wide.move_relation(), strategy.branches), wide


def run_case(name: str, games: int, seed: int = 0, methods=("theorem", "z3"), budget: float = 120.0) -> dict:
    family, params, bound, (far_dims, top) = CASES[name]
    game = make_game(family, **params)
    clock = time.perf_counter()
    found = find_rule(game, bound=bound, seed=seed)
    row = {"case": name, "status": found.status, "find": time.perf_counter() - clock}
    if found.status != "verified":
        return row
    row["rule"] = found.rule.text()
    clock = time.perf_counter()
    strategy = find_strategy(found.rule, game, seed=seed)
    row["strategy_seconds"] = time.perf_counter() - clock
    row["strategy"] = strategy.text() if strategy else "none found"
    proof = prove_rule(found.rule, game, strategy, time_budget=budget, methods=methods)
    row.update(proof=proof.status, method=proof.method, statement=proof.statement, seconds=proof.seconds,
               reason=proof.reason)
    if proof.status == "proved" and strategy is not None:
        wide, wide_game = far_strategy(strategy, game, far_dims)
        starts = random_n_positions(wide_game, far_dims, top - 1 if family in ("nim", "moore") else top, games,
                                    np.random.default_rng(seed))
        row["play"] = play_far(wide, wide_game, starts, seed)
        row["far"] = f"{far_dims} coordinates ≤ {top - 1 if family in ('nim', 'moore') else top:,}"
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="three cases, 200 games each")
    parser.add_argument("--cases", help="comma-separated case names: " + ", ".join(CASES))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--methods", default="theorem,z3", help="proof methods in order (z3 alone: the certificate)")
    parser.add_argument("--budget", type=float, default=120.0, help="seconds for each proof")
    args = parser.parse_args(argv)
    names = QUICK if args.quick else (args.cases.split(",") if args.cases else list(CASES))
    games = 200 if args.quick else args.games
    for name in names:
        row = run_case(name, games, methods=tuple(args.methods.split(",")), budget=args.budget)
        print(f"## {name}: {row['status']} (find {row['find']:.1f} s)")
        for key in ("rule", "strategy", "proof", "method", "statement", "reason", "far"):
            if row.get(key):
                print(f"   {key:9} {row[key]}")
        if "seconds" in row:
            print(f"   seconds   strategy {row['strategy_seconds']:.1f}, proof {row['seconds']:.2f}")
        if "play" in row:
            play = row["play"]
            print(f"   play      won {play['wins']} of {play['games']} against the optimal player "
                  f"({play['plies']} plies at most); first loss {play['first_loss']}")
            assert play["losses"] == 0, f"{name}: the proved strategy lost from {play['first_loss']}"
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
