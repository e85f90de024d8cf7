"""Monte-Carlo tree search over many roots at once: PUCT with a network, UCT with random rollouts.

A ``Forest`` holds one search tree per root in fixed numpy arrays (a node per simulation, an
edge per option).  Every simulation round selects one leaf in each tree (compiled), expands all
new leaves in one batch (their options from the game's move kernel, one call for the block)
and asks an *evaluator* for the new leaves' values, their options' prior logits and their
options' first Q values, then backs the values up (compiled).  So a search of ``S``
simulations over ``G`` roots costs ``S`` batched network calls, not ``S * G``.

Selection:

* ``"puct"`` (AlphaZero): ``argmax_a Q(s, a) + c P(s, a) sqrt(N(s)) / (1 + N(s, a))`` with
  ``N(s) = 1 + sum_b N(s, b)`` and, for an edge never visited, ``Q`` the evaluator's first
  value (the network's ``-v`` of the option);
* ``"uct"`` (the rollout baseline): every edge once, then ``argmax Q + c sqrt(ln N(s) / N(s, a))``.

Values are for the player to move at a node; an edge's ``W`` sums values for the player who
makes the move.  Terminal positions take their value from ``game.terminal_values``.
``RolloutEvaluator`` values a leaf by one uniformly random playout from it (uniform priors):
with ``"uct"`` this is plain MCTS with random rollouts.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from cgbase.memory import check_memory
from learners.options import option_offsets, options_block

__all__ = ["Forest", "RolloutEvaluator", "UniformEvaluator", "RULES"]

RULES = ("puct", "uct")


@nb.njit(cache=True, nogil=True)
def _select(nchild, node_val, P, N, W, Q0, child, opt, used, uct, c, path_node, path_edge, path_len, leaf_node,
            leaf_new, leaf_pos, leaf_value):
    for g in range(nchild.shape[0]):
        node = 0
        depth = 0
        while True:
            k = nchild[g, node]
            if k == 0:  # a terminal position: its value is known
                leaf_node[g] = node
                leaf_new[g] = False
                leaf_value[g] = node_val[g, node]
                break
            total = 0
            for a in range(k):
                total += N[g, node, a]
            best = -np.inf
            pick = 0
            if uct:
                logn = math.log(max(total, 1))
                for a in range(k):
                    n = N[g, node, a]
                    if n == 0:
                        pick = a
                        break
                    u = W[g, node, a] / n + c * math.sqrt(logn / n)
                    if u > best:
                        best = u
                        pick = a
            else:
                root = math.sqrt(total + 1.0)
                for a in range(k):
                    n = N[g, node, a]
                    q = W[g, node, a] / n if n > 0 else Q0[g, node, a]
                    u = q + c * P[g, node, a] * root / (1.0 + n)
                    if u > best:
                        best = u
                        pick = a
            path_node[g, depth] = node
            path_edge[g, depth] = pick
            depth += 1
            nxt = child[g, node, pick]
            if nxt < 0:
                nxt = used[g]
                used[g] += 1
                child[g, node, pick] = nxt
                leaf_node[g] = nxt
                leaf_new[g] = True
                for i in range(opt.shape[3]):
                    leaf_pos[g, i] = opt[g, node, pick, i]
                break
            node = nxt
        path_len[g] = depth


@nb.njit(cache=True, nogil=True)
def _expand(nchild, node_val, P, N, W, Q0, child, opt, gs, nodes, counts, options, logits, q0, values):
    o = 0
    for i in range(gs.size):
        g, node, k = gs[i], nodes[i], counts[i]
        nchild[g, node] = k
        node_val[g, node] = values[i]
        top = -np.inf
        for a in range(k):
            top = max(top, logits[o + a])
        total = 0.0
        for a in range(k):
            total += math.exp(logits[o + a] - top)
        for a in range(k):
            P[g, node, a] = math.exp(logits[o + a] - top) / total
            N[g, node, a] = 0
            W[g, node, a] = 0.0
            Q0[g, node, a] = q0[o + a]
            child[g, node, a] = -1
            for d in range(opt.shape[3]):
                opt[g, node, a, d] = options[o + a, d]
        o += k


@nb.njit(cache=True, nogil=True)
def _backup(N, W, path_node, path_edge, path_len, leaf_value):
    for g in range(path_len.size):
        v = leaf_value[g]
        for i in range(path_len[g] - 1, -1, -1):
            v = -v
            node, a = path_node[g, i], path_edge[g, i]
            N[g, node, a] += 1
            W[g, node, a] += v


class Forest:
    """Search trees for up to ``trees`` roots of ``simulations`` simulations each.

    Parameters
    ----------
    game : Game
    trees : int
        Most roots searched together.
    simulations : int
        Most simulations per search (the arrays hold one node per simulation).
    width : int
        Most options of a position.
    rule : {"puct", "uct"}
    c : float
        The exploration constant of the rule.

    Examples
    --------
    >>> from games import make_game
    >>> game = make_game("nim", heaps=2)
    >>> forest = Forest(game, trees=2, simulations=60, width=6, rule="uct", c=1.0)
    >>> result = forest.search(np.array([[1, 1], [3, 1]]), RolloutEvaluator(game), 60, np.random.default_rng(0))
    >>> [result.options[g, result.visits[g].argmax()].tolist() for g in range(2)]  # (3, 1): into the P position (1, 1)
    [[0, 1], [1, 1]]
    """

    def __init__(self, game, trees: int, simulations: int, width: int, rule: str = "puct", c: float = 1.5):
        if rule not in RULES:
            raise ValueError(f"unknown selection rule {rule!r}: use one of {', '.join(RULES)}")
        self.game, self.rule, self.c = game, rule, float(c)
        self.trees, self.simulations, self.width = int(trees), int(simulations), max(1, int(width))
        G, M, A, D = self.trees, self.simulations + 2, self.width, game.dims
        check_memory(8.0 * G * M * (4 + A * (5 + D)), f"search trees for {G:,} roots of {self.simulations:,} "
                     f"simulations each, {A:,} options a node", "use fewer simulations or games per iteration")
        self.nchild = np.full((G, M), -1, dtype=np.int64)
        self.node_val = np.zeros((G, M))
        self.P = np.zeros((G, M, A))
        self.N = np.zeros((G, M, A), dtype=np.int64)
        self.W = np.zeros((G, M, A))
        self.Q0 = np.zeros((G, M, A))
        self.child = np.full((G, M, A), -1, dtype=np.int64)
        self.opt = np.zeros((G, M, A, D), dtype=np.int64)
        self.used = np.zeros(G, dtype=np.int64)
        self.path_node = np.zeros((G, M), dtype=np.int64)
        self.path_edge = np.zeros((G, M), dtype=np.int64)

    def _views(self, g: int) -> tuple:
        return tuple(a[:g] for a in (self.nchild, self.node_val, self.P, self.N, self.W, self.Q0, self.child,
                                     self.opt))

    def _expand_block(self, views, gs, nodes, positions, evaluator) -> np.ndarray:
        """Expand the nodes ``nodes`` of trees ``gs`` at ``positions``; return their values."""
        counts, options = options_block(self.game, positions)
        if (counts > self.width).any():
            raise ValueError(f"a position of {self.game!r} has {counts.max()} options, more than the "
                             f"{self.width} the search was sized for")
        values = np.zeros(len(gs))
        ends = counts == 0
        if ends.any():
            values[ends] = self.game.terminal_values(positions[ends])
        live = ~ends
        logits = q0 = np.zeros(0)
        if live.any():
            v, logits, q0 = evaluator.evaluate(positions[live], options)
            values[live] = v
        _expand(*views, gs, nodes, counts, options, np.asarray(logits, dtype=float), np.asarray(q0, dtype=float),
                values)
        return values

    def search(self, roots, evaluator, simulations: int, rng: np.random.Generator, noise=None) -> "SearchResult":
        """Search from each of an (m, dims) array of positions with a move.

        ``noise`` is ``(alpha, fraction)``: the roots' priors are mixed with Dirichlet(alpha) noise.
        """
        roots = np.asarray(roots, dtype=np.int64).reshape(-1, self.game.dims)
        G = roots.shape[0]
        if G > self.trees or simulations > self.simulations:
            raise ValueError(f"this forest holds {self.trees} trees of {self.simulations} simulations, "
                             f"not {G} of {simulations}")
        views = self._views(G)
        used = self.used[:G]
        used[:] = 1
        gs = np.arange(G, dtype=np.int64)
        root_values = self._expand_block(views, gs, np.zeros(G, dtype=np.int64), roots, evaluator)
        counts = self.nchild[:G, 0].copy()
        if (counts == 0).any():
            raise ValueError(f"cannot search from a position without a move: {tuple(roots[np.argmax(counts == 0)])}")
        if noise is not None:
            alpha, fraction = noise
            for g in range(G):
                k = counts[g]
                self.P[g, 0, :k] = (1 - fraction) * self.P[g, 0, :k] + fraction * rng.dirichlet(np.full(k, alpha))
        leaf_node = np.zeros(G, dtype=np.int64)
        leaf_new = np.zeros(G, dtype=np.bool_)
        leaf_pos = np.zeros((G, self.game.dims), dtype=np.int64)
        leaf_value = np.zeros(G)
        path_len = np.zeros(G, dtype=np.int64)
        uct = self.rule == "uct"
        for _ in range(simulations):
            _select(*views, used, uct, self.c, self.path_node[:G], self.path_edge[:G], path_len, leaf_node,
                    leaf_new, leaf_pos, leaf_value)
            new = np.flatnonzero(leaf_new)
            if new.size:
                leaf_value[new] = self._expand_block(views, new, leaf_node[new], leaf_pos[new], evaluator)
            _backup(self.N[:G], self.W[:G], self.path_node[:G], self.path_edge[:G], path_len, leaf_value)
        width = int(counts.max())
        real = np.arange(width)[None, :] < counts[:, None]
        return SearchResult(counts, self.opt[:G, 0, :width].copy(), np.where(real, self.N[:G, 0, :width], 0),
                            np.where(real, self.P[:G, 0, :width], 0.0), root_values)


class SearchResult:
    """What a search found at its roots.

    Attributes
    ----------
    counts : ndarray (G,)
        Options of each root.
    options : ndarray (G, width, dims)
        The options (rows beyond ``counts[g]`` are padding).
    visits : ndarray (G, width)
        Visit counts of each option (0 on padding).
    priors : ndarray (G, width)
        The evaluator's priors (with the root noise, when asked).
    values : ndarray (G,)
        The evaluator's value of each root for the player to move.
    """

    def __init__(self, counts, options, visits, priors, values):
        self.counts, self.options, self.visits, self.priors, self.values = counts, options, visits, priors, values

    def policy(self) -> np.ndarray:
        """Visit counts normalised per root: the search's policy (AlphaZero's target, temperature 1)."""
        total = self.visits.sum(axis=1, keepdims=True)
        return self.visits / np.maximum(total, 1)

    def best(self, rng: np.random.Generator) -> np.ndarray:
        """Index of a most visited option of each root (ties drawn at random)."""
        noise = rng.random(self.visits.shape) * 0.5  # below one visit: breaks ties only
        return np.argmax(np.where(self.visits > 0, self.visits + noise, -1.0), axis=1)

    def sample(self, temperature: float, rng: np.random.Generator) -> np.ndarray:
        """Index of an option drawn in proportion to visits ** (1 / temperature)."""
        weights = self.visits.astype(float) ** (1.0 / temperature)
        cum = np.cumsum(weights, axis=1)
        draw = rng.random(len(cum)) * cum[:, -1]
        return np.minimum((cum <= draw[:, None]).sum(axis=1), self.counts - 1)


class UniformEvaluator:
    """Uniform priors, value 0 everywhere (a search that only counts terminal positions)."""

    def evaluate(self, leaves, options):
        return np.zeros(len(leaves)), np.zeros(len(options)), np.zeros(len(options))


class RolloutEvaluator:
    """Uniform priors; a leaf's value is the result of one uniformly random playout from it.

    Parameters
    ----------
    game : Game
    rng : numpy.random.Generator, optional
        Draws the playouts (its own stream by default).
    max_plies : int
        A playout still running after this many moves counts as a draw.
    """

    def __init__(self, game, rng=None, max_plies: int = 10_000):
        self.game, self.max_plies = game, max_plies
        self.rng = rng if rng is not None else np.random.default_rng(0)

    def evaluate(self, leaves, options):
        return self.playout(leaves), np.zeros(len(options)), np.zeros(len(options))

    def playout(self, positions) -> np.ndarray:
        """Result of a random playout from each position, for the player to move there."""
        current = np.array(positions, dtype=np.int64).reshape(-1, self.game.dims)
        values = np.zeros(len(current))
        rows = np.arange(len(current))
        sign = 1.0
        for _ in range(self.max_plies):
            if rows.size == 0:
                break
            counts, options = options_block(self.game, current)
            ends = counts == 0
            if ends.any():
                values[rows[ends]] = sign * self.game.terminal_values(current[ends])
            offsets = option_offsets(counts)
            keep = ~ends
            pick = (self.rng.random(int(keep.sum())) * counts[keep]).astype(np.int64)
            current = options[offsets[keep] + pick]
            rows = rows[keep]
            sign = -sign
        return values
