"""Notakto's rule over boards: the misère quotient of its live boards, checked against the solver, proved.

``discover_board_quotient(game)`` adds the live boards of ``game``'s size (``NotaktoBoards``: up to symmetry,
most marks first) to a ``QuotientBuilder`` until all are added or the seconds run out.  The boards are finitely
many, so once all are added the construction's proof (every (element, transition set) state of every sum
consistent) covers every sum of any number of boards: the rule is *proved* for Notakto with any number of
boards of that size.  Stopped early, the quotient is proved for sums of the boards added (those with at least
some number of marks, a set closed under moves) and nothing is claimed for the empty boards.  Independently of
the proof, the rule's predictions are compared with the solver: on every position of the universe of 1 (and 2)
boards that ``solve`` builds, and on every sum of up to ``boards`` live boards up to symmetry
(``solvers.canonical``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from cgbase.validation import number_in
from discover import defaults
from discover.verdicts import QuotientStatus
from cgbase.deadline import Deadline, OutOfTime
from discover.quotients.boards import NotaktoBoards
from discover.quotients.check import SumCheck, Verdict, check_sums
from discover.quotients.construct import QuotientBuilder
from discover.quotients.kernels import KernelLoad, load_kernels
from discover.quotients.kinds import is_board_sum_game
from discover.quotients.rule import QuotientRule, discovery_html, discovery_repr
from solvers.canonical import MAX_POSITIONS

__all__ = ["BoardRule", "BoardQuotientDiscovery", "discover_board_quotient", "is_board_sum_game", "universe_check",
           "UNIVERSE_BITS", "sample_check"]

UNIVERSE_BITS = 18  # the universes ``solve`` builds to check the rule on every position: 2^18 bitboards at most
SAMPLE = 200  # sums checked by the search where every sum of that many boards is too many for the solver
SEARCH_SLICE = 1 << 16  # nodes the search expands between two looks at the deadline
SEARCH_BITS = 62  # the search packs the boards into one key of this many bits
CHECK_SECONDS = 5.0  # the checks take the time left, and at least this: a rule found at the deadline is still checked


class BoardRule(QuotientRule):
    """``QuotientRule`` over boards: bitboard 0 is the empty board, a component like any other (not the empty heap),
    so a board whose element was not computed is refused, the empty one included.

    Examples
    --------
    >>> from discover.quotients.monoid import BipartiteMonoid
    >>> t2 = BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True]))
    >>> BoardRule(t2, {7: 1}).is_p((0,))
    Traceback (most recent call last):
    ...
    ValueError: board 0 was not computed: the quotient holds only the boards added (give more --seconds)
    """

    def element_of(self, component) -> int:
        """The element of one live board (canonical bitboard).

        Raises
        ------
        ValueError
            If the board was not computed.
        """
        if component in self.element:
            return self.element[component]
        raise ValueError(f"board {component!r} was not computed: the quotient holds only the boards added (give more "
                         "--seconds)")


@dataclass
class UniverseCheck(Verdict):
    """The rule against ``solve`` on every position of a universe of ``boards`` boards."""

    boards: int
    sums: int
    disagreement: tuple | None

    def where(self) -> str:
        """Where it checked, e.g. ``every position of 2 boards (202,500, the solver's universe)``."""
        return f"every position of {self.boards} board{'s' * (self.boards > 1)} ({self.sums:,}, the solver's universe)"


def universe_check(rule: QuotientRule, boards: NotaktoBoards, count: int) -> UniverseCheck:
    """Compare the rule with ``solve`` on every position of the ``count``-board game's universe.

    Examples
    --------
    >>> from discover.quotients.rule import quotient_rule
    >>> three = NotaktoBoards(3)
    >>> universe_check(quotient_rule(three), three, 1).line()
    "verified on every position of 1 board (450, the solver's universe)"
    """
    from games import make_game
    from solvers import solve

    solution = solve(make_game("notakto", n=boards.n, k=boards.k, boards=count))
    P = solution.universe.positions()
    values, inverse = np.unique(P, return_inverse=True)
    element = np.array([rule.product(boards.sum_of((int(v),))) for v in values], dtype=np.int64)
    x = np.zeros(len(P), dtype=np.int64)
    for column in inverse.reshape(P.shape).T:
        x = rule.monoid.table[x, element[column]]
    predicted = np.where(rule.monoid.p_portion[x], -1, 1)
    bad = np.flatnonzero(predicted != solution.outcome_table)
    return UniverseCheck(count, len(P), None if not len(bad) else tuple(P[bad[0]].tolist()))


@dataclass
class BoardQuotientDiscovery:
    """What ``discover_board_quotient`` found: the rule over boards, how it grew, its checks and status."""

    game: object
    components: NotaktoBoards
    rule: QuotientRule
    added: int
    growth: list
    checks: list = field(default_factory=list)
    unchecked: list = field(default_factory=list)
    seconds: float = 0.0
    stopped: str = ""
    build_seconds: float = 0.0
    kernels: KernelLoad | None = None

    @property
    def complete(self) -> bool:
        """True when every live board was added (the quotient is then that of all sums of boards)."""
        return self.added == len(self.components.ids())

    @property
    def status(self) -> QuotientStatus:
        """Proved (every board added, every check passed), partial (stopped early) or refuted."""
        if any(not c.passed for c in self.checks):
            return QuotientStatus.REFUTED
        return QuotientStatus.PROVED if self.complete else QuotientStatus.PARTIAL

    def statement(self) -> str:
        """The proof status in one sentence."""
        n, total = self.components.n, len(self.components.ids())
        if self.complete:
            return (f"proved for every position of any number of {n} x {n} boards: all {total} live boards up to "
                    "symmetry were added, and Plambeck and Siegel's construction proves the quotient of all their sums "
                    "(every (element, transition set) state consistent)")
        if not self.rule.element:
            return (f"not complete: none of the {total} live boards up to symmetry was added before {self.stopped}; "
                    "positions are not decided: no board was computed")
        marks = [bin(c).count("1") for c in self.rule.element]
        fewest = min(marks)
        layer = sum(1 for c in self.components.ids() if bin(c).count("1") == fewest)
        which = (f"every board with at least {fewest} marks" if marks.count(fewest) == layer else
                 f"every board with more than {fewest} marks and {marks.count(fewest)} of the {layer} with {fewest}")
        return (f"not complete: {self.added} of the {total} live boards up to symmetry were added ({which}) before "
                f"{self.stopped}; the quotient is proved for sums of those boards only, and positions with emptier "
                f"boards are not decided; the quotient of all {total} has at least {self.rule.monoid.order} elements "
                "(the boards added are closed under moves, and the quotient of a closed subset is an image of a "
                "submonoid of the whole quotient)")

    def is_p(self, position) -> bool:
        """True when a position of any number of boards (bitboards, dead ones allowed) is a P-position.

        Raises
        ------
        ValueError
            If a live board's element was not computed (a partial quotient), or a board is not a bitboard.
        """
        return self.rule.is_p(self.components.sum_of(position))

    def start_element(self) -> str | None:
        """The element of the game's start (empty boards) as a word, or None if the empty board was not reached."""
        if 0 not in self.rule.element:
            return None
        return self.rule.presentation.element_name(self.rule.product((0,) * self.game.dims))

    def __repr__(self) -> str:
        return discovery_repr(self)

    def _repr_html_(self) -> str:
        return discovery_html(self)

    def to_record(self) -> dict:
        """Plain data: the game, the rule (``QuotientRule.to_record``), status, statement, checks and timing."""
        return {"game": self.game.spec(), "rule": self.rule.to_record(), "status": self.status,
                "statement": self.statement(), "boards_added": self.added,
                "boards_live": len(self.components.ids()), "growth": [[c, o] for c, o in self.growth],
                "checks": [c.line() for c in self.checks], "unchecked": list(self.unchecked),
                "start_element": self.start_element(), "seconds": self.seconds,
                "build_seconds": self.build_seconds, "stopped": self.stopped,
                "kernels": None if self.kernels is None else self.kernels.to_record()}


class BoardSumCheck(SumCheck):
    """``check_sums``'s result worded for boards."""

    against = ""

    def where(self) -> str:
        """Where it checked, e.g. ``every sum of 1 to 3 of the live boards computed, up to symmetry (...)``."""
        which = "every one" if self.parts == 1 else f"every sum of 1 to {self.parts}"
        count = f"{self.sums:,} position{'s' * (self.sums != 1)}"
        return f"{which} of the live boards computed, up to symmetry ({count}, the solver's outcomes)"


@dataclass
class SampleCheck(Verdict):
    """The rule against the proof-number search (``solvers.search``) on a seeded sample of sums of ``parts`` boards."""

    sums: int
    parts: int
    disagreement: tuple | None

    def where(self) -> str:
        """Where it checked, e.g. ``a seeded sample of 200 sums of 4 of the live boards computed (...)``."""
        return (f"a seeded sample of {self.sums:,} sums of {self.parts} of the live boards computed (the proof-number "
                "search of the multi-board game)")


def sample_check(rule, components, added: list, parts: int, size: int = SAMPLE, seed: int = 0,
                 deadline: Deadline | None = None) -> SampleCheck:
    """Compare the rule with ``solvers.search``'s value of ``size`` random sums of ``parts`` of the ``added`` boards.

    Examples
    --------
    >>> from discover.quotients.rule import quotient_rule
    >>> three = NotaktoBoards(3)
    >>> check = sample_check(quotient_rule(three), three, three.ids(), 3, size=5)   # deadline: checked between searches
    >>> check.passed, check.sums
    (True, 5)
    """
    from games import make_game
    from solvers.search import Prover

    prover = Prover(make_game("notakto", n=components.n, k=components.k, boards=parts))
    rng, deadline = np.random.default_rng(seed), Deadline.of(deadline)
    for _ in range(size):
        s = tuple(sorted(int(added[i]) for i in rng.integers(0, len(added), parts)))
        value = 0
        while value == 0:  # the search in slices of nodes (its work kept), the deadline checked between them
            deadline.check(f"the search of a sum of {parts} boards")
            value = prover.value(s, max_nodes=SEARCH_SLICE)
        if rule.is_p(s) != (value == -1):
            return SampleCheck(size, parts, s)
    return SampleCheck(size, parts, None)


def _check_all(rule, components, parts: int, added: list, universe_boards: int, deadline: Deadline):
    """The checks that fit in the time left (each one after the deadline is listed as unchecked, with why)."""
    checks, unchecked = [], []
    if 0 in rule.element:  # every board has an element: check whole universes of the solver
        for count in range(1, universe_boards + 1):
            if components.cells * count > UNIVERSE_BITS:
                unchecked.append(f"the universe of {count} boards: more than 2^{UNIVERSE_BITS} bitboards")
                break
            if deadline.passed():
                unchecked.append(f"the universe of {count} boards: the {deadline.seconds:g}-second budget ran out")
                break
            checks.append(universe_check(rule, components, count))
    top = parts if added else 0
    while top > 1 and components.sums_size(top) > MAX_POSITIONS and components.cells * top > SEARCH_BITS:
        top -= 1
    if top < parts and added:
        unchecked.append(f"every sum of {top + 1} to {parts} boards: more positions than the solver's "
                         f"{MAX_POSITIONS:,} and more cells than the search's {SEARCH_BITS} bits")
    for k in range(top, 0, -1):
        try:
            deadline.check(f"the checks of sums of {k} boards")
            components.solution(k)
        except OutOfTime as err:
            unchecked.append(f"every sum of up to {k} boards: {err}")
            break
        except ValueError as err:  # the canonical universe of that many boards is too large: a sample instead
            unchecked.append(f"every sum of {k} boards: {err}")
            if components.cells * k <= SEARCH_BITS:
                try:
                    checks.append(sample_check(rule, components, added, k, deadline=deadline))
                except OutOfTime as late:
                    unchecked.append(f"a sample of sums of {k} boards: {late}")
            continue
        result = check_sums(rule, components, added, k)
        checks.append(BoardSumCheck(result.sums, result.parts, result.largest, result.disagreement))
        break
    return checks, unchecked


def discover_board_quotient(game, seconds: float | None = None, parts: int | None = None,
                            progress=None) -> BoardQuotientDiscovery:
    """The misère quotient of Notakto boards of ``game``'s size, proved, checked on sums of up to ``parts`` boards.

    Parameters
    ----------
    game : notakto
        ``make_game("notakto", n=..., k=..., boards=B)``.
    seconds : float, optional
        The budget of the search (default ``discover.defaults.BOARD_QUOTIENT.seconds``), from once the numba
        kernels are ready (``kernels.load_kernels``, timed apart): a deadline the listing of the boards and the
        construction read (the boards not added by then are left out; ``OutOfTime``, a ValueError, when even the
        live boards could not be listed in it), then the checks, which take the time left and at least
        ``CHECK_SECONDS`` (those not run are listed as unchecked).
    parts : int, optional
        Check every sum of up to this many live boards against the solver (default: the game's boards).
    progress : callable, optional
        Called with a line now and then.

    Examples
    --------
    >>> from games import make_game
    >>> found = discover_board_quotient(make_game("notakto", n=3, boards=2))
    >>> found.status, found.rule.monoid.order, found.start_element(), [c.sums for c in found.checks]
    ('proved', 18, 'c²', [450, 202500, 1127])
    >>> found.is_p((0, 0)), found.is_p((0, 0, 0, 0, 0b111))   # any number of boards; a dead one is the identity
    (True, True)
    """
    if not is_board_sum_game(game):
        raise ValueError(f"{game!r} is not Notakto: the rule over boards is computed for notakto games")
    seconds = defaults.BOARD_QUOTIENT.seconds if seconds is None else number_in(seconds, "seconds", 0, low_open=True)
    parts = game.dims if parts is None else parts
    say = progress or (lambda line: None)
    kernels = load_kernels()
    start, deadline = time.perf_counter(), Deadline(seconds)
    components = NotaktoBoards(game.n, game.k, deadline)
    builder = QuotientBuilder(components.options, deadline=deadline, free_alike=True)
    stopped = "every live board"
    for i, c in enumerate(components.ids()):
        try:
            builder.add(c)
        except ValueError as err:
            stopped = f"{components.label(c)}, where {err}"
            break
        if i % 100 == 0:
            say(f"{i + 1} boards: quotient of order {builder.monoid.order}")
        if deadline.passed() and i + 1 < len(components.ids()):
            stopped = f"{seconds:g} seconds"
            break
    added, built = list(builder.ids), time.perf_counter() - start
    rule = BoardRule(builder.monoid, {c: builder.element[c] for c in added}, None, game.spec())
    say("checking the rule against the solver ...")
    components.deadline = deadline if deadline.left() >= CHECK_SECONDS else Deadline(CHECK_SECONDS)  # the checks'
    checks, unchecked = _check_all(rule, components, parts, added, min(2, game.dims), components.deadline)
    return BoardQuotientDiscovery(game, components, rule, len(added), list(builder.growth), checks, unchecked,
                                  time.perf_counter() - start, stopped, built, kernels)
