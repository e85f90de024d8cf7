"""Pseudo-counts of board positions from a sequential density model: context tree switching over the cells.

The Hex exploration paper follows Bellemare et al.'s "Unifying count-based exploration and intrinsic
motivation" (2016): a density model ``p`` over positions, updated on each position met, defines the
pseudo-count ``N(x) = p(x) (1 - p'(x)) / (p'(x) - p(x))`` (``pseudo_count``), where ``p'`` is the
probability the model gives ``x`` just after observing it (for the empirical distribution, ``N`` is
exactly the count); the exploration bonus is ``beta / sqrt(N(x))``.

The model is the paper's kind: a position is the symbols of its cells (0 empty, 1 a first-player
stone, 2 a second-player stone; on an impartial game's boards 0 or 1 per board), and each cell's
symbol is predicted by its own context tree switching model (Veness, Ng, Hutter and Bowling,
"Context tree switching", 2012) from the cells before it in reading order that touch it (on Hex the
left, upper and upper-right neighbours; on square boards also the upper-left one; 3 for a side off
the board): ``p(x)`` is the product over cells.  Each tree node has a Krichevsky-Trofimov estimator
(counts + 1/2) and two switching weights (stay with the node's estimator, or split to the child of
the next context symbol), updated with the switching rate ``alpha_t = 1 / (t + 1)`` after ``t``
observed positions.  The skip contexts of the paper's Skip Context Tree Switching are left out: with
3 or 4 context cells the full tree has 85 or 341 nodes per cell.  Updates run in numba, one position
after another in the order given, so the same positions give the same counts.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["ContextTreeSwitching", "BoardDensity", "pseudo_count"]

ALPHABET = 3  # cell symbols
OFF_BOARD = 3  # the context symbol of a neighbour outside the board
BRANCHES = 4  # context symbols: the cell symbols and OFF_BOARD


def pseudo_count(log_p, log_p_after) -> np.ndarray:
    """``N = p (1 - p') / (p' - p)`` from the log-probabilities before and after observing (inf where p' <= p).

    Examples
    --------
    >>> pseudo_count(np.log([3 / 10]), np.log([4 / 11])).round(9).tolist()  # the empirical model: the count
    [3.0]
    """
    log_p, log_p_after = np.asarray(log_p, dtype=float), np.asarray(log_p_after, dtype=float)
    gain = log_p_after - log_p
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(gain > 0, -np.expm1(log_p_after) / np.expm1(np.maximum(gain, 1e-300)), np.inf)


@nb.njit(cache=True, nogil=True)
def _logaddexp(a, b):
    if a < b:
        a, b = b, a
    return a + np.log1p(np.exp(b - a))


@nb.njit(cache=True, nogil=True)
def _site(counts, log_stay, log_split, site, path, symbol, log_alpha, log_keep, update):
    """Log-probability of ``symbol`` at ``site`` along the node ``path`` (root first); with ``update``
    the estimators and switching weights then learn it."""
    lp_child = 0.0
    lp = 0.0
    for d in range(path.size - 1, -1, -1):
        node = path[d]
        total = 0.0
        for s in range(ALPHABET):
            total += counts[site, node, s]
        lp_est = np.log((counts[site, node, symbol] + 0.5) / (total + 0.5 * ALPHABET))
        if d == path.size - 1:
            lp = lp_est  # a leaf always stays with its estimator
        else:
            stay, split = log_stay[site, node], log_split[site, node]
            lp = _logaddexp(lp_est + stay, lp_child + split) - _logaddexp(stay, split)
            if update:
                log_stay[site, node] = _logaddexp(log_keep + lp_est + stay, log_alpha + lp_child + split)
                log_split[site, node] = _logaddexp(log_keep + lp_child + split, log_alpha + lp_est + stay)
        if update:
            counts[site, node, symbol] += 1.0
        lp_child = lp
    return lp


@nb.njit(cache=True, nogil=True)
def _observe(symbols, contexts, counts, log_stay, log_split, time, out):
    """Observe each row of ``symbols`` in turn: ``out[i] = (log p, log p')`` before and after."""
    sites, depth = contexts.shape
    path = np.zeros(depth + 1, dtype=np.int64)
    for i in range(symbols.shape[0]):
        time[0] += 1.0
        log_alpha = -np.log(time[0] + 1.0)
        log_keep = np.log(time[0] / (time[0] + 1.0))
        for after in range(2):
            total = 0.0
            for site in range(sites):
                node = 0
                for d in range(depth):
                    j = contexts[site, d]
                    node = node * BRANCHES + 1 + (OFF_BOARD if j < 0 else symbols[i, j])
                    path[d + 1] = node
                total += _site(counts, log_stay, log_split, site, path, symbols[i, site], log_alpha, log_keep,
                               after == 0)
            out[i, after] = total


class ContextTreeSwitching:
    """Context tree switching over sequences of cell symbols, one tree per cell (see the module).

    Parameters
    ----------
    contexts : (cells, depth) array of int
        For each cell, the cells whose symbols are its context, nearest first (-1: off the board).

    Examples
    --------
    >>> model = ContextTreeSwitching(np.array([[-1], [0]]))  # cell 1 is predicted from cell 0
    >>> np.exp(model.observe(np.array([[0, 1]]))).round(4).tolist()  # (p, p'): 1/3 per cell before
    [[0.1111, 0.36]]
    """

    def __init__(self, contexts):
        contexts = np.asarray(contexts, dtype=np.int64)
        if contexts.ndim != 2 or (contexts >= contexts.shape[0]).any():
            raise ValueError(f"contexts must be a (cells, depth) array of cell indices or -1, got shape {contexts.shape}")
        self.contexts = contexts
        nodes = (BRANCHES ** (contexts.shape[1] + 1) - 1) // (BRANCHES - 1)
        self.counts = np.zeros((contexts.shape[0], nodes, ALPHABET))
        self.log_stay = np.full((contexts.shape[0], nodes), np.log(0.5))
        self.log_split = np.full((contexts.shape[0], nodes), np.log(0.5))
        self.time = np.zeros(1)

    def observe(self, symbols) -> np.ndarray:
        """Learn each row of an (m, cells) array of symbols in turn; ``(m, 2)`` log-probabilities of each row
        before and just after it was learned."""
        symbols = np.ascontiguousarray(symbols, dtype=np.int64)
        if symbols.ndim != 2 or symbols.shape[1] != self.contexts.shape[0] or ((symbols < 0) | (symbols >= ALPHABET)).any():
            raise ValueError(f"symbols must be an (m, {self.contexts.shape[0]}) array of values in [0, {ALPHABET})")
        out = np.zeros((symbols.shape[0], 2))
        _observe(symbols, self.contexts, self.counts, self.log_stay, self.log_split, self.time, out)
        return out


class BoardDensity:
    """The density model of a board game's positions, and their pseudo-counts (see the module).

    Parameters
    ----------
    game : BoardGame
    hexagonal : bool
        Cells touch as on a Hex rhombus (3 context cells) rather than on a square grid (4).

    Examples
    --------
    >>> from games import make_game
    >>> density = BoardDensity(make_game("hex", n=3), hexagonal=True)
    >>> counts = density.observe(np.array([[16, 0]] * 3))  # the same position three times
    >>> bool(counts[0] < counts[1] < counts[2])
    True
    """

    def __init__(self, game, hexagonal: bool):
        self.game = game
        self.planes = game.dims if game.impartial else 1
        n = game.n
        offsets = ((0, -1), (-1, 0), (-1, 1)) if hexagonal else ((0, -1), (-1, 0), (-1, -1), (-1, 1))
        contexts = np.full((self.planes * n * n, len(offsets)), -1, dtype=np.int64)
        for plane in range(self.planes):
            for r in range(n):
                for c in range(n):
                    for d, (dr, dc) in enumerate(offsets):
                        if 0 <= r + dr < n and 0 <= c + dc < n:
                            contexts[(plane * n + r) * n + c, d] = (plane * n + r + dr) * n + c + dc
        self.model = ContextTreeSwitching(contexts)

    def symbols(self, positions) -> np.ndarray:
        """The (m, cells) symbols of an (m, dims) array of positions."""
        P = np.asarray(positions, dtype=np.int64).reshape(-1, self.game.dims)
        bits = (P[:, :, None] >> np.arange(self.game.cells)) & 1
        if self.planes > 1:
            return bits.reshape(P.shape[0], -1)
        return (bits * (np.arange(self.game.dims)[None, :, None] + 1)).sum(axis=1)

    def observe(self, positions) -> np.ndarray:
        """Learn each of an (m, dims) array of positions in turn; their pseudo-counts."""
        logs = self.model.observe(self.symbols(positions))
        return pseudo_count(logs[:, 0], logs[:, 1])
