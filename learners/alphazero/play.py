"""Many games at once: movers, matches between them, AlphaZero's self-play and its replay queue.

A *mover* picks an option for each of a block of positions (``choose(positions, ply, rng)``),
so a match plays all its games side by side and a searching mover searches all its roots in one
``Forest`` (see ``learners.alphazero.mcts``).  Movers: ``SearchMover`` (MCTS with any evaluator: the
network, or random rollouts), ``PolicyMover`` (the policy head's top option), ``RandomMover``
and ``OptimalMover`` (a move the solver marks best).

``self_play`` plays AlphaZero's training games: a search from every position (Dirichlet noise
at the root), the move drawn from the visit counts at temperature ``temperature`` for the first
``temperature_moves`` plies and the most visited afterwards; each position becomes a sample
``(position, its options, visit shares pi, z)`` with ``z`` the game's result for the player to
move there.  ``Replay`` is the queue of the newest samples.
"""

from __future__ import annotations

import numpy as np

from cgbase.memory import check_memory
from learners.options import option_offsets, options_block

__all__ = ["SearchMover", "PolicyMover", "RandomMover", "OptimalMover", "play_games", "self_play", "Replay",
           "MatchLog", "segment_pick"]


def segment_pick(counts, scores, rng: np.random.Generator) -> np.ndarray:
    """Index, within each segment of ``counts`` consecutive ``scores``, of a largest score (ties at random).

    Examples
    --------
    >>> segment_pick(np.array([2, 3]), np.array([1.0, 5.0, 2.0, 2.0, 0.0]), np.random.default_rng(0)).tolist()[0]
    1
    """
    counts = np.asarray(counts, dtype=np.int64)
    width = int(counts.max()) if counts.size else 0
    table = np.full((counts.size, max(width, 1)), -np.inf)
    real = np.arange(max(width, 1))[None, :] < counts[:, None]
    table[real] = scores
    best = table.max(axis=1, keepdims=True)
    keys = np.where(real & (table == best), rng.random(table.shape), -1.0)
    return keys.argmax(axis=1)


class RandomMover:
    """A uniformly random option."""

    name = "random"

    def __init__(self, game):
        self.game = game

    def choose(self, positions, ply, rng):
        counts, options = options_block(self.game, positions)
        return options[option_offsets(counts) + (rng.random(len(counts)) * counts).astype(np.int64)]


class OptimalMover:
    """An option the solver marks best: into a P position when winning, a draw when drawn (ties at random)."""

    name = "optimal"

    def __init__(self, game, solution):
        self.game, self.solution = game, solution

    def choose(self, positions, ply, rng):
        counts, options = options_block(self.game, positions)
        pick = segment_pick(counts, -self.solution.outcome(options).astype(float), rng)
        return options[option_offsets(counts) + pick]


class PolicyMover:
    """The option of largest policy logit (the network alone, no search)."""

    name = "policy"

    def __init__(self, game, policy_value):
        self.game, self.policy_value = game, policy_value

    def choose(self, positions, ply, rng):
        counts, options = options_block(self.game, positions)
        pick = segment_pick(counts, self.policy_value.outputs(options)[1].astype(float), rng)
        return options[option_offsets(counts) + pick]


class SearchMover:
    """The most visited option of a search (drawn from the visits for the first ``sample_plies`` plies).

    Parameters
    ----------
    forest : learners.alphazero.mcts.Forest
    evaluator : object with ``evaluate(leaves, options)``
    simulations : int
    sample_plies : int
        Plies (counted from the match's start) whose move is drawn in proportion to the visits.
    name : str
    """

    def __init__(self, forest, evaluator, simulations: int, sample_plies: int = 0, name: str = "mcts"):
        self.forest, self.evaluator, self.simulations = forest, evaluator, simulations
        self.sample_plies, self.name = sample_plies, name

    def search(self, positions, rng, noise=None):
        """Search each position (in blocks of the forest's size); one ``SearchResult`` per block."""
        step = self.forest.trees
        return [self.forest.search(positions[i:i + step], self.evaluator, self.simulations, rng, noise)
                for i in range(0, len(positions), step)]

    def choose(self, positions, ply, rng):
        chosen = []
        for result in self.search(positions, rng):
            pick = result.sample(1.0, rng) if ply < self.sample_plies else result.best(rng)
            chosen.append(result.options[np.arange(len(pick)), pick])
        return np.concatenate(chosen)


class MatchLog:
    """Results of a match: ``winners[g]`` is 0 (first player), 1 (second) or -1 (a draw or unfinished);
    ``moves`` lists ``(seat, positions, chosen options)`` per ply."""

    def __init__(self, winners, moves):
        self.winners, self.moves = winners, moves

    def wins(self, seat: int) -> int:
        return int((self.winners == seat).sum())


def play_games(game, first, second, starts, rng: np.random.Generator, max_plies: int, log_moves: bool = False):
    """Play one game from each of an (m, dims) array of starts, ``first`` to move; a ``MatchLog``.

    Examples
    --------
    >>> from games import make_game
    >>> game = make_game("nim", heaps=2)
    >>> log = play_games(game, RandomMover(game), RandomMover(game), np.array([[2, 2]] * 100),
    ...                  np.random.default_rng(0), 10)
    >>> int(log.wins(0) + log.wins(1))
    100
    """
    positions = np.array(starts, dtype=np.int64).reshape(-1, game.dims)
    winners = np.full(len(positions), -1, dtype=np.int64)
    rows = np.arange(len(positions))
    movers, moves = (first, second), []
    for ply in range(max_plies + 1):
        if rows.size == 0:
            break
        counts, _ = options_block(game, positions)
        ends = counts == 0
        if ends.any():
            value = game.terminal_values(positions[ends]).astype(np.int64)
            seat = ply % 2
            winners[rows[ends]] = np.where(value > 0, seat, np.where(value < 0, 1 - seat, -1))
        rows, positions = rows[~ends], positions[~ends]
        if rows.size == 0 or ply == max_plies:
            break
        chosen = movers[ply % 2].choose(positions, ply, rng)
        if log_moves:
            moves.append((ply % 2, positions, chosen))
        positions = chosen
    return MatchLog(winners, moves)


def self_play(game, starts, mover: SearchMover, rng: np.random.Generator, noise, temperature: float,
              temperature_moves: int, max_plies: int) -> dict:
    """AlphaZero's training games from each start (see the module docstring); the samples as arrays.

    Returns a dict: ``positions`` (S, dims), ``counts`` (S,), ``options`` (sum counts, dims),
    ``pi`` (sum counts,), ``z`` (S,), ``plies`` (the games' lengths) and ``chosen`` (S, dims).
    """
    positions = np.array(starts, dtype=np.int64).reshape(-1, game.dims)
    rows = np.arange(len(positions))
    parts = {"positions": [], "counts": [], "options": [], "pi": [], "chosen": [], "game": [], "ply": []}
    ended_at = np.full(len(positions), max_plies, dtype=np.int64)
    result_at_end = np.zeros(len(positions))
    for ply in range(max_plies + 1):
        counts, _ = options_block(game, positions)
        ends = counts == 0
        if ends.any():
            result_at_end[rows[ends]] = game.terminal_values(positions[ends])
            ended_at[rows[ends]] = ply
        rows, positions = rows[~ends], positions[~ends]
        if rows.size == 0 or ply == max_plies:
            break
        chosen = []
        for result in mover.search(positions, rng, noise):
            pick = result.sample(temperature, rng) if ply < temperature_moves else result.best(rng)
            real = np.arange(result.visits.shape[1])[None, :] < result.counts[:, None]
            parts["counts"].append(result.counts)
            parts["options"].append(result.options[real])
            parts["pi"].append(result.policy()[real])
            chosen.append(result.options[np.arange(len(pick)), pick])
        chosen = np.concatenate(chosen)
        parts["positions"].append(positions)
        parts["chosen"].append(chosen)
        parts["game"].append(rows)
        parts["ply"].append(np.full(len(rows), ply))
        positions = chosen
    if not parts["positions"]:
        raise ValueError("self-play started from positions without a move: nothing to learn")
    out = {k: np.concatenate(v) for k, v in parts.items()}
    g, ply = out.pop("game"), out.pop("ply")
    # the result for the player to move at a sample's ply: the end's result, negated once per ply in between
    out["z"] = result_at_end[g] * np.where((ended_at[g] - ply) % 2 == 0, 1.0, -1.0)
    out["z"][ended_at[g] >= max_plies] = 0.0
    out["plies"] = ended_at
    return out


class Replay:
    """The queue of the newest ``capacity`` samples (the oldest are overwritten first).

    A sample keeps its position, its number of options and the visit shares; the options
    themselves are generated again when a batch is drawn (the move kernel lists them in the
    same order), so a long queue stays small.

    Examples
    --------
    >>> from games import make_game
    >>> queue = Replay(make_game("nim", heaps=1), capacity=3, width=4)
    >>> queue.add({"positions": np.array([[1], [2], [3], [4]]), "counts": np.array([1, 2, 3, 4]),
    ...            "pi": np.array([1, 1, 0, 0.5, 0.5, 0, 0, 0, 1, 0]), "z": np.array([1.0, -1.0, 1.0, -1.0])})
    >>> len(queue), sorted(queue.positions[:, 0].tolist())
    (3, [2, 3, 4])
    """

    def __init__(self, game, capacity: int, width: int):
        self.game, self.capacity, self.width = game, int(capacity), int(width)
        check_memory(self.capacity * (8.0 * game.dims + 12 + 4 * self.width),
                     f"a replay queue of {self.capacity:,} samples", "use a smaller replay_size")
        self.positions = np.zeros((self.capacity, game.dims), dtype=np.int64)
        self.counts = np.zeros(self.capacity, dtype=np.int64)
        self.pi = np.zeros((self.capacity, self.width), dtype=np.float32)
        self.z = np.zeros(self.capacity, dtype=np.float32)
        self.size, self.head = 0, 0

    def __len__(self) -> int:
        return self.size

    def add(self, samples: dict) -> None:
        counts = np.asarray(samples["counts"], dtype=np.int64)
        S = len(counts)
        real = np.arange(self.width)[None, :] < counts[:, None]
        pi = np.zeros((S, self.width), dtype=np.float32)
        pi[real] = samples["pi"]
        keep = slice(max(0, S - self.capacity), S)  # more samples than room: the newest stay
        slots = (self.head + np.arange(S)[keep] - keep.start) % self.capacity
        self.positions[slots] = samples["positions"][keep]
        self.counts[slots] = counts[keep]
        self.pi[slots] = pi[keep]
        self.z[slots] = samples["z"][keep]
        self.head = int((self.head + len(slots)) % self.capacity)
        self.size = int(min(self.size + len(slots), self.capacity))

    def batch(self, size: int, rng: np.random.Generator):
        """``(positions, options (flat), counts, pi (padded), z)`` of ``size`` samples drawn at random."""
        pick = rng.integers(self.size, size=min(size, self.size))
        positions = self.positions[pick]
        counts, options = options_block(self.game, positions)
        if not np.array_equal(counts, self.counts[pick]):
            raise ValueError("the replay queue's samples do not match the game's moves")
        return positions, options, counts, self.pi[pick, :int(counts.max())], self.z[pick]

    def state(self) -> dict:
        return {"positions": self.positions, "counts": self.counts, "pi": self.pi, "z": self.z,
                "size": np.array(self.size), "head": np.array(self.head)}

    def load(self, state: dict) -> None:
        for key in ("positions", "counts", "pi", "z"):
            if np.shape(state[key]) != getattr(self, key).shape:
                raise ValueError(f"replay {key} has shape {np.shape(state[key])}, not {getattr(self, key).shape}")
            getattr(self, key)[...] = state[key]
        size, head, capacity = int(state["size"]), int(state["head"]), len(self.z)
        if not (0 <= size <= capacity and 0 <= head < max(capacity, 1)):
            raise ValueError(f"replay size {size} and head {head} do not fit a queue of {capacity}")
        self.size, self.head = size, head
