"""The compiled episode loop every tabular learner and every match runs in.

A game is its graph over a universe: ``indptr``/``targets`` list the options of each
position id, an action is an edge id ``j`` (the move ``s -> targets[j]``).  Two seats
alternate, seat 0 first.  A seat is one of

- ``Q``: Q-learning on its table, epsilon-greedy (decaying ``epsilon * exp(-eta t)``) or
  Boltzmann exploration;
- ``BAYES``: the quasi-Bayesian agent, a normal-gamma posterior per edge, acting on sampled
  values and updated after the game from the discounted final reward;
- ``FIXED``: a fixed policy given as a weight per edge (random, optimal, a rule, a greedy table);
  a learning seat with a ``hint`` probability plays its weights (a model's advice) that often;
- ``GREEDY``: greedy on a table it does not update (the HQN paper's simulated opponent).

Tables are float arrays ``(rows, edges)``: row 0 the value of the edge for the player who
takes it (Q or posterior mean), row 1 its visit count, rows 2-4 the posterior's
``nu``, ``shape``, ``rate``.  A Q seat backs up either negamax from every move of the game,
its own and its opponent's, ``Q(s, a) <- Q + alpha (r - gamma max Q(s', .) - Q)`` (the table
holds values for the player to move, so every move is experience), or, as in seeds 000 and
002, from its own moves only and from the position after the reply,
``Q + alpha (r + gamma max Q(s'', .) - Q)``.  Seats sharing one table (self-play) update it
once per move.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from learners.rng import below, gamma, normal, uniform

__all__ = ["Q", "BAYES", "FIXED", "GREEDY", "REPLY", "NEGAMAX", "HYPER", "run_episodes", "STATS"]

Q, BAYES, FIXED, GREEDY = 0, 1, 2, 3
REPLY, NEGAMAX = 0, 1  # backups of a Q seat
#: columns of a seat's hyper-parameter row
HYPER = ("alpha", "gamma", "epsilon", "eta", "temperature", "discount", "hint")
#: counters filled by ``run_episodes``
STATS = ("moves_from_n", "optimal_moves", "wins", "losses", "draws", "plies")
START_RANDOM, START_SWEEP = 0, 1


@nb.njit(cache=True, nogil=True)
def _max_value(table, lo, hi):
    best = -np.inf
    for j in range(lo, hi):
        if table[0, j] > best:
            best = table[0, j]
    return best


@nb.njit(cache=True, nogil=True)
def _greedy(table, lo, hi, state):
    """An edge of largest value, ties broken uniformly."""
    best, pick, ties = -np.inf, lo, 0
    for j in range(lo, hi):
        v = table[0, j]
        if v > best:
            best, pick, ties = v, j, 1
        elif v == best:
            ties += 1
            if below(state, ties) == 0:
                pick = j
    return pick


@nb.njit(cache=True, nogil=True)
def _weighted(weights, lo, hi, state):
    total = 0.0
    for j in range(lo, hi):
        total += weights[j]
    if total <= 0.0:
        return lo + below(state, hi - lo)
    x = uniform(state) * total
    for j in range(lo, hi):
        x -= weights[j]
        if x < 0.0:
            return j
    return hi - 1


@nb.njit(cache=True, nogil=True)
def _boltzmann(table, lo, hi, temperature, state):
    top = _max_value(table, lo, hi)
    total = 0.0
    for j in range(lo, hi):
        total += math.exp((table[0, j] - top) / temperature)
    x = uniform(state) * total
    for j in range(lo, hi):
        x -= math.exp((table[0, j] - top) / temperature)
        if x < 0.0:
            return j
    return hi - 1


@nb.njit(cache=True, nogil=True)
def _sampled(table, lo, hi, state):
    """The edge whose sampled value V ~ N(mu, 1/tau), mu ~ N(m, 1/nu), tau ~ Gamma(shape, rate) is largest."""
    best, pick = -np.inf, lo
    for j in range(lo, hi):
        mu = table[0, j] + normal(state) / math.sqrt(table[2, j])
        tau = gamma(state, table[3, j], table[4, j])
        v = mu + normal(state) / math.sqrt(max(tau, 1e-300))
        if v > best:
            best, pick = v, j
    return pick


@nb.njit(cache=True, nogil=True)
def _choose(kind, table, weights, hyper, lo, hi, t, state):
    if kind == FIXED:
        return _weighted(weights, lo, hi, state)
    if hyper[6] > 0.0 and uniform(state) < hyper[6]:  # a learner taking its model's advice
        return _weighted(weights, lo, hi, state)
    if kind == GREEDY:
        return _greedy(table, lo, hi, state)
    if kind == BAYES:
        return _sampled(table, lo, hi, state)
    if hyper[4] > 0.0:
        return _boltzmann(table, lo, hi, hyper[4], state)
    if uniform(state) < hyper[2] * math.exp(-hyper[3] * t):
        return lo + below(state, hi - lo)
    return _greedy(table, lo, hi, state)


@nb.njit(cache=True, nogil=True)
def _q_update(table, j, target, alpha):
    table[1, j] += 1.0
    rate = alpha if alpha > 0.0 else 1.0 / table[1, j]
    table[0, j] += rate * (target - table[0, j])


@nb.njit(cache=True, nogil=True)
def _bayes_update(table, j, r):
    """Conjugate normal-gamma update of edge ``j`` with the discounted reward ``r`` (the Nim study, (2)-(3))."""
    m, nu = table[0, j], table[2, j]
    table[0, j] = (m * nu + r) / (nu + 1.0)
    table[2, j] = nu + 1.0
    table[3, j] += 0.5
    table[4, j] += nu / (nu + 1.0) * (r - m) ** 2 / 2.0
    table[1, j] += 1.0


@nb.njit(cache=True, nogil=True)
def _finish(kinds, learns, backups, tables, hyper, pending, trail, trail_len, reward0):
    """End-of-game updates: ``reward0`` is the final reward of seat 0 (seat 1 gets its negative)."""
    for p in range(2):
        r = reward0 if p == 0 else -reward0
        if not learns[p]:
            continue
        if kinds[p] == Q and backups[p] == REPLY and pending[p] >= 0:
            _q_update(tables[p], pending[p], r, hyper[p, 0])
        elif kinds[p] == BAYES:
            scale = 1.0
            for k in range(trail_len[p] - 1, -1, -1):
                _bayes_update(tables[p], trail[p, k], scale * r)
                scale *= hyper[p, 5]


@nb.njit(cache=True, nogil=True)
def run_episodes(indptr, targets, terminal, outcome, start_pool, start_mode, first_episode, episodes,
                 kinds, learns, backups, table0, table1, weights0, weights1, hyper, shared, max_plies, state, stats):
    """Play ``episodes`` games, updating the learning seats' tables in place.

    ``terminal[s]`` is the outcome for the player to move at a position with no move;
    ``outcome`` the exact outcome (for the optimal-move counters, zeros when unknown);
    starts come from ``start_pool`` at random (``start_mode`` 0) or in turn (1); ``backups``
    gives each Q seat's backup; ``shared`` says both seats hold the same table.
    ``stats`` accumulates ``STATS`` for seat 0.
    """
    tables = (table0, table1)
    weights = (weights0, weights1)
    pending = np.empty(2, dtype=np.int64)
    trail = np.empty((2, max_plies), dtype=np.int64)
    trail_len = np.zeros(2, dtype=np.int64)
    for e in range(episodes):
        t = first_episode + e
        if start_mode == START_SWEEP:
            s = start_pool[t % start_pool.size]
        else:
            s = start_pool[below(state, start_pool.size)]
        seat = 0
        pending[:] = -1
        trail_len[:] = 0
        reward0 = 0.0
        plies = 0
        for ply in range(max_plies + 1):
            plies = ply
            lo, hi = indptr[s], indptr[s + 1]
            if lo == hi:
                reward0 = float(terminal[s]) if seat == 0 else -float(terminal[s])
                break
            if ply == max_plies:  # a draw by length
                reward0 = 0.0
                break
            table = tables[seat]
            if kinds[seat] == Q and learns[seat] and backups[seat] == REPLY and pending[seat] >= 0:
                _q_update(table, pending[seat], hyper[seat, 1] * _max_value(table, lo, hi), hyper[seat, 0])
            j = _choose(kinds[seat], table, weights[seat], hyper[seat], lo, hi, t, state)
            nxt = targets[j]
            if seat == 0 and outcome[s] == 1:
                stats[0] += 1
                if outcome[nxt] == -1:
                    stats[1] += 1
            for p in range(2):
                if kinds[p] == Q and learns[p] and backups[p] == NEGAMAX and (p == seat or not shared):
                    a, b = indptr[nxt], indptr[nxt + 1]
                    target = -float(terminal[nxt]) if a == b else -hyper[p, 1] * _max_value(tables[p], a, b)
                    _q_update(tables[p], j, target, hyper[p, 0])
            pending[seat] = j
            trail[seat, trail_len[seat]] = j
            trail_len[seat] += 1
            s = nxt
            seat = 1 - seat
        stats[5] += plies
        if reward0 > 0:
            stats[2] += 1
        elif reward0 < 0:
            stats[3] += 1
        else:
            stats[4] += 1
        _finish(kinds, learns, backups, tables, hyper, pending, trail, trail_len, reward0)
