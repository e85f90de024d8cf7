"""Exact optimality of any agent: the share of positions where it picks an optimal move, and how it fares
against the solver's perfect player.

A policy is anything that picks a move: a function ``position -> option`` (an OpenSpiel bot through
``games.openspiel_export.bot_policy``, a hypothesis, a hand-written rule) or an ``Agent`` of ``learners.agents``
(the random agent, a learner's greedy policy ``GreedyAgent(learner.value_table_)``, the optimal agent).

- ``optimal_move_share``: at every position where the choice matters (the player to move can win, or can draw),
  whether the policy's move keeps that value (into a lost position when winning, into a drawn one when drawing).
  Every such position of the universe is asked when there are at most ``sample`` of them; otherwise a seeded
  sample stratified by move number (stones on the board, or the sum of the coordinates). The share comes with
  Wilson's 95% interval (``learners.repeats.share_interval``).
- ``expected_optimal_move_share``: the same share in expectation for an agent that states its policy as move
  weights (``Agent.edge_weights``), computed exactly over the whole universe (no sampling).
- ``win_rates``: the policy against the perfect player (``OptimalAgent``) from every start, in both seats; per
  seat the wins, draws and losses, and the share of games where the policy kept the value its seat could secure
  (a win from a won start, at least a draw from a drawn one), each with its interval, and the share of optimal
  moves among the policy's own moves at positions met in play.
"""

from __future__ import annotations

import numpy as np

from learners.repeats import share_interval

__all__ = ["optimal_move_share", "expected_optimal_move_share", "win_rates", "counted_positions",
           "stratified_sample", "as_policy"]


def as_policy(policy, game, rng: np.random.Generator):
    """A function ``position -> option`` from an ``Agent`` (its ``move`` with ``rng``) or a callable.

    Examples
    --------
    >>> from games import make_game
    >>> from learners.agents import RandomAgent
    >>> game = make_game("nim", heaps=1)
    >>> as_policy(RandomAgent(), game, np.random.default_rng(0))((3,)) in game.moves((3,))
    True
    """
    if hasattr(policy, "move") and callable(policy.move):
        return lambda position: policy.move(game, position, rng)
    if callable(policy):
        return policy
    raise TypeError(f"a policy is an Agent or a function of a position returning its option, got {policy!r}")


def counted_positions(solution) -> np.ndarray:
    """Ids of the positions where the move matters: with a move, won or drawn for the player to move.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> counted_positions(solve(make_game("nim", heaps=2), bound=2)).tolist()  # every position but (0,0), (1,1), (2,2)
    [1, 2, 3, 5, 6, 7]
    """
    degree = _degrees(solution)
    return np.flatnonzero((degree > 0) & (solution.outcome_table >= 0))


def stratified_sample(solution, ids, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` of ``ids`` drawn without replacement, each move number (stones on a board, else the sum of the
    coordinates) in proportion to its share (largest remainders) and at least once (so more than ``size`` when
    there are more move numbers); all of ``ids`` when there are at most ``size``.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> solution = solve(make_game("tictactoe"))
    >>> picked = stratified_sample(solution, counted_positions(solution), 100, np.random.default_rng(0))
    >>> len(picked), sorted(set(np.bitwise_count(solution.universe.positions(picked)).sum(axis=1).tolist()))
    (100, [0, 1, 2, 3, 4, 5, 6, 7, 8])
    """
    ids = np.asarray(ids, dtype=np.int64)
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
        raise ValueError(f"sample must be a positive integer, got {size!r}")
    if ids.size <= size:
        return ids
    positions = solution.universe.positions(ids)
    board = getattr(solution.game, "universe_from_start", False)
    strata = (np.bitwise_count(positions) if board else positions).sum(axis=1)
    labels, counts = np.unique(strata, return_counts=True)
    quota = size * counts / ids.size
    take = np.minimum(counts, np.maximum(1, np.floor(quota).astype(np.int64)))
    for k in np.argsort(-(quota - np.floor(quota)), kind="stable"):  # the rest by largest remainder
        if take.sum() >= size:
            break
        take[k] += take[k] < counts[k]
    picked = [rng.choice(ids[strata == label], size=int(t), replace=False) for label, t in zip(labels, take)]
    return np.sort(np.concatenate(picked))


def optimal_move_share(solution, policy, positions=None, sample: int | None = 10_000, random_state=0) -> dict:
    """The share of positions where ``policy`` picks an optimal move, with its 95% Wilson interval.

    Parameters
    ----------
    solution : Solution
        The exact solution of the game over its universe.
    policy : Agent or callable
        ``position -> option`` (see ``as_policy``).
    positions : array of int, optional
        Ids of the universe to ask (such as the positions met in play); default: every position where the move
        matters (``counted_positions``). Lost positions among them are left out (every move is as good).
    sample : int or None
        Ask at most about this many, a sample stratified by move number; None asks them all.
    random_state : int
        Seed of the sample and of an agent's random choices.

    Returns
    -------
    dict
        ``asked`` (positions asked), ``optimal`` (how many got an optimal move), ``share``, ``low``, ``high``,
        ``counted`` (positions the share stands for), ``sampled`` (whether a sample was asked), and ``by_value``:
        ``{"win": [optimal, asked], "draw": [...]}``.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> from learners.agents import OptimalAgent, RandomAgent
    >>> solution = solve(make_game("wythoff"), bound=4)
    >>> optimal_move_share(solution, OptimalAgent(solution))["share"]
    1.0
    >>> {k: v for k, v in optimal_move_share(solution, RandomAgent()).items() if k in ("asked", "optimal")}
    {'asked': 22, 'optimal': 8}
    """
    game = solution.game
    rng = np.random.default_rng(random_state)
    choose = as_policy(policy, game, rng)
    ids = counted_positions(solution)
    if positions is not None:
        ids = np.intersect1d(ids, np.asarray(positions, dtype=np.int64))
    asked = ids if sample is None else stratified_sample(solution, ids, sample, rng)
    if asked.size == 0:
        raise ValueError(f"no position of {game!r} where the move matters (won or drawn, with a move) was given")
    values = solution.outcome_table[asked]
    good = np.array([_is_optimal(solution, p, choose(tuple(int(x) for x in p)), v)
                     for p, v in zip(solution.universe.positions(asked), values)], dtype=bool)
    share, low, high = share_interval(int(good.sum()), int(good.size))
    by_value = {name: [int(good[values == v].sum()), int((values == v).sum())] for name, v in (("win", 1), ("draw", 0))}
    return {"asked": int(good.size), "optimal": int(good.sum()), "share": share, "low": low, "high": high,
            "counted": int(ids.size), "sampled": bool(asked.size < ids.size), "by_value": by_value}


def expected_optimal_move_share(solution, agent) -> float:
    """The exact expected share of optimal moves of an agent stating its policy as move weights
    (``edge_weights``), over every position where the move matters: the mean of the weight its moves put on
    optimal options.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> from learners.agents import RandomAgent
    >>> round(expected_optimal_move_share(solve(make_game("nim", heaps=2), bound=2), RandomAgent()), 4)
    0.6111
    """
    from learners.arena import Arena

    arena = Arena(solution.game, solution.bound, solution)
    weights = np.asarray(agent.edge_weights(arena), dtype=float)
    good = arena.outcome[arena.targets] == -arena.outcome[arena.sources]
    total = np.bincount(arena.sources, weights=weights, minlength=arena.size)
    kept = np.bincount(arena.sources, weights=weights * good, minlength=arena.size)
    ids = counted_positions(solution)
    if ids.size == 0:
        raise ValueError(f"no position of {solution.game!r} where the move matters (won or drawn, with a move)")
    if (total[ids] <= 0).any():
        raise ValueError(f"{agent!r} puts no weight on any move at some position: give every position a move")
    return float(np.mean(kept[ids] / total[ids]))


def win_rates(solution, policy, starts=None, games: int = 1, sample: int | None = 10_000, random_state=0) -> dict:
    """``policy`` against the solver's perfect player from every start, in both seats.

    Parameters
    ----------
    solution : Solution
    policy : Agent or callable
    starts : array of positions, optional
        Default: a board game's start; otherwise every position with a move (a stratified sample of about
        ``sample`` when there are more).
    games : int
        Games per start and seat (more than one for a policy that plays at random).
    sample : int or None
    random_state : int
        Seed of the sample, the perfect player's choice among equal moves and an agent's random choices.

    Returns
    -------
    dict
        ``first`` and ``second`` (the policy's seat): ``games``, ``wins``, ``draws``, ``losses``, ``win_rate``
        (with ``low``, ``high``), ``kept`` (games where the seat could secure a win or a draw and the policy did,
        as ``[kept, of]``, with ``kept_share``, ``kept_low``, ``kept_high``); ``overall`` the same over both
        seats; ``in_play``: the policy's optimal moves among its moves at won or drawn positions, ``[k, n]``.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> from learners.agents import OptimalAgent
    >>> solution = solve(make_game("tictactoe"))
    >>> result = win_rates(solution, OptimalAgent(solution), games=3)
    >>> result["overall"]["draws"], result["overall"]["kept"], result["in_play"][0] == result["in_play"][1]
    (6, [6, 6], True)
    """
    from learners.agents import OptimalAgent

    game = solution.game
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be a positive integer (games per start and seat), got {games!r}")
    rng = np.random.default_rng(random_state)
    choose = as_policy(policy, game, rng)
    perfect = as_policy(OptimalAgent(solution), game, rng)
    if starts is None:
        if game.start is not None:
            start_ids = solution.universe.index(np.asarray([game.start], dtype=np.int64))
        else:
            live = np.flatnonzero(_degrees(solution) > 0)
            start_ids = live if sample is None else stratified_sample(solution, live, sample, rng)
    else:
        start_ids = solution.universe.index(np.asarray(starts, dtype=np.int64).reshape(-1, game.dims))
    tally = {seat: {"games": 0, "wins": 0, "draws": 0, "losses": 0, "kept": [0, 0]} for seat in ("first", "second")}
    in_play = [0, 0]
    for start, value in zip(solution.universe.positions(start_ids), solution.outcome_table[start_ids]):
        for seat, mover in (("first", 0), ("second", 1)):
            secured = int(value) if mover == 0 else -int(value)  # the value this seat can secure
            for _ in range(games):
                result = _play(solution, choose, perfect, tuple(int(x) for x in start), mover, in_play)
                _count(tally[seat], result, secured)
    overall = {k: (tally["first"][k] + tally["second"][k]) if k != "kept" else
               [tally["first"]["kept"][i] + tally["second"]["kept"][i] for i in (0, 1)] for k in tally["first"]}
    out = {seat: _rates(counts) for seat, counts in (*tally.items(), ("overall", overall))}
    out["in_play"] = in_play
    out["starts"] = int(len(start_ids))
    return out


# -- helpers ------------------------------------------------------------------------------------------------------
def _degrees(solution) -> np.ndarray:
    graph = solution.graph
    if graph is None:
        from solvers import build_graph

        graph = solution.graph = build_graph(solution.game, solution.universe)
    return np.diff(graph.indptr)


def _is_optimal(solution, position, option, value: int) -> bool:
    """Whether moving from ``position`` (of ``value`` for the player to move) to ``option`` keeps the value."""
    game = solution.game
    option = tuple(int(x) for x in np.asarray(option, dtype=np.int64).reshape(-1))
    if option not in game.moves(tuple(int(x) for x in position)):
        raise ValueError(f"the policy played {option} from {tuple(int(x) for x in position)}, which is not a move "
                         f"of {game!r}")
    return int(solution.outcome([option])[0]) == -int(value)


def _play(solution, choose, perfect, position, mover: int, in_play: list) -> int:
    """One game with the policy to move when ``mover`` is 0: +1 the policy wins, -1 it loses, 0 a draw."""
    game = solution.game
    for turn in range(solution.universe.size + 1):
        policy_moves = (turn % 2 == 0) == (mover == 0)
        options = game.moves(position)
        if not options:
            value = int(game.terminal_values([position])[0])  # for the player to move
            return value if policy_moves else -value
        if policy_moves:
            value = int(solution.outcome([position])[0])
            option = choose(position)
            if value >= 0:
                in_play[0] += _is_optimal(solution, position, option, value)
                in_play[1] += 1
            elif tuple(int(x) for x in option) not in options:
                raise ValueError(f"the policy played {option} from {position}, which is not a move of {game!r}")
        else:
            option = perfect(position)
        position = tuple(int(x) for x in option)
    return 0  # longer than the universe: a cycle, a draw


def _count(tally: dict, result: int, secured: int) -> None:
    tally["games"] += 1
    tally[{1: "wins", 0: "draws", -1: "losses"}[result]] += 1
    if secured >= 0:
        tally["kept"][1] += 1
        tally["kept"][0] += result >= secured


def _rates(counts: dict) -> dict:
    out = dict(counts)
    if counts["games"]:
        out["win_rate"], out["low"], out["high"] = share_interval(counts["wins"], counts["games"])
    if counts["kept"][1]:
        out["kept_share"], out["kept_low"], out["kept_high"] = share_interval(*counts["kept"])
    return out
