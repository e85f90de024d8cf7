"""The bounds of a rule search: the default training and verification bounds, the largest training table, and
the games rule discovery takes (integer coordinates; board games are refused).

Apart from ``discover.find`` so that the commands that only need a bound (``discover solve``) or a refusal
(``discover hex``) import neither the engines nor sympy.
"""

from __future__ import annotations

from cgbase.deadline import current
from games import Game

__all__ = ["TRAIN_POSITIONS", "MAX_TRAIN_POSITIONS", "TENFOLD_POSITIONS", "VERIFY_POSITIONS", "VERIFY_EDGES",
           "GRAPH_ENTRIES", "PYTHON_OPTIONS", "heaps_that_fit", "default_bound",
           "default_verify_bound", "take_and_break_verify_bound", "check_training_size", "check_rule_game"]

TRAIN_POSITIONS = 4096  # largest training table the default bound allows
MAX_TRAIN_POSITIONS = 10**6  # largest training table a given bound may ask for
TENFOLD_POSITIONS = 3 * 10**7  # the default training bound's tenfold box has at most this many positions
# The default verification covers at most as many positions as the strategy check (find_strategy.CHECK_POSITIONS):
# ten times the training bound on one to three coordinates, less on more (Nim, 4 heaps: 36 for a training bound of
# 7, 1.9 million positions; tenfold would be 25 million, most of the command's time for no more evidence than a
# proof gives).
VERIFY_POSITIONS = 2 * 10**6
# Moves the default verification may build (games without a fast path): 2e7 keeps the two-coordinate games at
# ten times their training bound and Kayles at 4,193 heaps, four times those its period was proved on (1e8 gave
# 10,240 heaps and most of the command's time to a check of a rule the periodicity theorem proves).
VERIFY_EDGES = 2 * 10**7
GRAPH_ENTRIES = 1 << 24  # heap ids (128 MB) the graph of a one-heap game whose options are sums may hold
PYTHON_OPTIONS = 1 << 20  # and its options, when a Python moves() lists them (a few seconds)


def default_bound(game: Game) -> int:
    """The largest bound <= 30 whose training table has at most 4096 positions and whose
    tenfold box has at most ``TENFOLD_POSITIONS`` positions.

    Examples
    --------
    >>> from games import make_game
    >>> [default_bound(make_game("nim", heaps=k)) for k in (1, 2, 3)]
    [30, 30, 15]
    """
    d = game.dims
    bound = 30
    while bound > 1 and ((bound + 1) ** d > TRAIN_POSITIONS or (10 * bound + 1) ** d > TENFOLD_POSITIONS):
        bound -= 1
    return bound


def default_verify_bound(game: Game, bound: int) -> int:
    """Ten times the training bound, lowered (by steps of about 5%) until the universe and its moves fit the budget
    (``VERIFY_POSITIONS`` positions, ``VERIFY_EDGES`` moves); for a one-heap game whose options are sums of heaps,
    the heaps its graph holds (``heaps_that_fit``).

    Universe sizes are scaled from the training universe as ((verify + 1) / (bound + 1)) ** dims
    (exact for boxes, whose side holds bound + 1 values).

    Examples
    --------
    >>> from games import make_game
    >>> default_verify_bound(make_game("wythoff"), 30), default_verify_bound(make_game("nim", heaps=4), 7)
    (300, 36)
    """
    if game.dims == 1 and game.parts > 1:  # a sum of heaps: as many heaps as its graph holds (a coin game's grow fast)
        return max(bound, heaps_that_fit(game, 10 * bound))
    base = game.universe(bound).size
    verify, deadline = 10 * bound, current()
    while verify > bound:
        deadline.check(f"the verification bound of {game!r}")
        universe_size = base * ((verify + 1) / (bound + 1)) ** game.dims
        edges = 0 if game.line_directions is not None else universe_size * _mean_options(game, verify)
        if universe_size <= VERIFY_POSITIONS and edges <= VERIFY_EDGES:
            break
        verify -= max(1, verify // 20)
    return max(verify, bound)


def _mean_options(game: Game, bound: int, sample: int = 64) -> float:
    import numpy as np

    from solvers.graph import least_failure

    rng = np.random.default_rng(0)
    points = rng.integers(0, bound + 1, size=(sample, game.dims))
    counts, deadline = [], current()
    for block in np.array_split(points, 8):  # a few positions at a time: one may have millions of options
        deadline.check(f"the options of {game!r} on bound {bound}")
        try:
            counts.append(game.option_block(block)[0])
        except ValueError as err:  # a moves() that fails: name the least position that does, not a sampled one
            raise least_failure(game, game.universe(bound), err) from None
    return float(np.concatenate(counts).mean())


def heaps_that_fit(component: Game, heaps: int) -> int:
    """The most heaps, up to ``heaps``, whose options a solver's graph holds within ``GRAPH_ENTRIES`` heap ids
    (and, for a game whose ``moves()`` is Python, within ``PYTHON_OPTIONS`` options).

    The options of a heap are counted at 16, 32, 64, ... heaps (their number, and the heaps they leave), the whole
    range taken as half the last heap's count a heap, and the next count foreseen from the growth of the last two
    before it is asked for: a coin-turning game whose options are sums of four heaps stops at 32 heaps without
    listing the million options of heap 64.

    Examples
    --------
    >>> from games import custom_game, make_game
    >>> heaps_that_fit(make_game("lasker"), 2000)
    2000
    >>> turtles = custom_game("mock_turtles", lambda p: [()] + [(a,) for a in range(1, p[0])] +
    ...                       [(a, b) for b in range(1, p[0]) for a in range(1, b)] if p[0] else [], 1, parts=2)
    >>> heaps_that_fit(turtles, 2000)
    128
    """
    import numpy as np

    limits = np.array([GRAPH_ENTRIES, PYTHON_OPTIONS if component.kernel is None else np.inf])

    def counts(heap: int) -> np.ndarray:  # (heap ids, options) of one heap's options
        found, out = component.option_block(np.array([[heap]], dtype=np.int64))
        return np.maximum(np.array([int(found[0]) * out.shape[2], int(found[0])], dtype=float), 1.0)

    fits, heap, last, before = min(heaps, 16), 16, None, None
    while heap < heaps:
        nxt = min(2 * heap, heaps)
        if last is not None and before is not None and (nxt * last * (last / before) / 2 > limits).any():
            break  # the growth so far says the next range does not fit: its options are not listed
        before, last = last, counts(nxt)
        if (nxt * last / 2 > limits).any():
            break
        fits, heap = nxt, nxt
    return fits


def take_and_break_verify_bound(game: Game, heaps: int) -> int:
    """Ten times the heaps the take-and-break engine computed, lowered until the graph solver's universe and moves
    fit the budget (the moves counted from ``max_moves``, an upper bound).

    Examples
    --------
    >>> from games import make_game
    >>> take_and_break_verify_bound(make_game("octal", code="0.77"), 100)
    1000
    """
    import numpy as np

    verify = 10 * heaps
    while verify > 1 and (verify + 1 > VERIFY_POSITIONS or
                          (verify + 1) * game.max_moves(np.array([verify])) / 2 > VERIFY_EDGES):
        verify = int(verify * 0.8)
    return verify


def check_training_size(game: Game, bound: int) -> None:
    """Refuse, before any work, a training table larger than the engines take.

    Examples
    --------
    >>> from games import make_game
    >>> check_training_size(make_game("nim", heaps=3), 200)
    Traceback (most recent call last):
    ...
    ValueError: training on the 8,120,601 positions of nim(heaps=3, misere=False) at bound 200 is more than the engines take (at most 1,000,000 positions; the default bound gives at most 4,096): use a smaller --bound, and --verify-bound for a larger trial
    """
    size = game.universe(bound).size
    if size > MAX_TRAIN_POSITIONS:
        raise ValueError(f"training on the {size:,} positions of {game!r} at bound {bound} is more than the engines "
                         f"take (at most {MAX_TRAIN_POSITIONS:,} positions; the default bound gives at most "
                         f"{TRAIN_POSITIONS:,}): use a smaller --bound, and --verify-bound for a larger trial")


def check_rule_game(game: Game, again: str | None = None) -> None:
    """Refuse, before any work, a board game: rule discovery fits formulas over integer coordinates and verifies
    them on a larger bound, and bitboard positions have neither (their universe is every reachable board, which
    for a large board does not fit in memory). ``again`` is the command that solves the game instead.

    Examples
    --------
    >>> from games import make_game
    >>> check_rule_game(make_game("hex", n=3))
    Traceback (most recent call last):
    ...
    ValueError: hex(n=3) is a partisan board game: rule discovery fits formulas over integer coordinates and verifies them on a larger bound, and bitboard positions have neither; solve it exactly with solvers.solve or openings
    """
    if game.name == "notakto":
        raise ValueError(f"{game!r}: Notakto's rule is its misère quotient over boards, found without a training "
                         "table: run `discover notakto n=... boards=...` without --bound, --engines or --from")
    if game.universe_from_start:
        kind = "an impartial" if game.impartial else "a partisan"
        raise ValueError(
            f"{game!r} is {kind} board game: rule discovery fits formulas over integer coordinates and verifies "
            f"them on a larger bound, and bitboard positions have neither; solve it exactly with "
            f"{again or 'solvers.solve or openings'}"
        )
