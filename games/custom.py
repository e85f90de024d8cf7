"""Games defined by a plain Python ``moves`` function."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from itertools import chain, islice

import numpy as np

from games.base import Game
from games.symbolic import AnyOf, MoveRelation
from games.universe import MAX_DIMS
from cgbase.int_rows import int_rows
from cgbase.memory import check_memory
from cgbase.validation import INT64_MAX, at_most, flag, positive_int, text

__all__ = ["CustomGame", "custom_game", "failing_line", "MAX_OPTIONS"]

MAX_OPTIONS = 10**6  # options of one position that moves() may return
GROUP_OPTIONS = 1 << 10  # options read at once: a custom Nim's moves() 10% faster than with 2^14 held (the tuples
# are made in memory that is still in the cache), where the reading costs about 5 µs a group


class CustomGame(Game):
    """An impartial game from a function mapping an integer tuple to its successors.

    Examples
    --------
    >>> g = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], dims=1)
    >>> g.moves((3,))
    [(2,), (1,)]
    """

    def __init__(self, name: str, moves: Callable, dims: int, misere: bool = False, relation=None, parts: int = 1):
        if not callable(moves):
            raise TypeError(f"moves must be a function of a position, got {moves!r}")
        super().__init__()
        self.name = text(name, "name", "'take-or-halve'")
        self.dims = at_most(positive_int(dims, "dims"), "dims", MAX_DIMS, "a position packs into one 64-bit key")
        self.misere = flag(misere, "misere")
        self.parts = positive_int(parts, "parts")
        if self.parts > 1 and (self.dims != 1 or self.misere or relation is not None):
            raise ValueError(f"options that are sums of heaps (parts={self.parts}) are for one-heap games in normal "
                             f"play with no relation; got dims={self.dims}, misere={self.misere}, relation={relation}")
        self._moves = moves
        if relation is not None and not isinstance(relation, MoveRelation):
            raise TypeError(f"relation must be a games.symbolic relation such as Steps(...), got {relation!r}")
        if relation is not None:
            _check_fits(relation, self.dims)
        self._relation = relation
        self.relation_inferred_on = None  # the bound on which an inferred relation gives exactly moves()' options

    def move_relation(self):
        """The relation given to ``custom_game`` (or inferred: ``with_relation``), or None."""
        return self._relation

    def with_relation(self, relation, inferred_on: int) -> CustomGame:
        """The same game (the same ``moves``) stating ``relation``, inferred from ``moves()`` and giving exactly its
        options at every position up to ``inferred_on`` (``games.infer_relation``); this game is left as it is.

        Examples
        --------
        >>> from games.symbolic import take_from_one
        >>> g = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1)
        >>> h = g.with_relation(take_from_one(1, (1, 2)), 300)
        >>> g.move_relation() is None, h.relation_inferred_on, h.moves((2,))
        (True, 300, [(1,), (0,)])
        """
        if self._relation is not None:
            raise ValueError(f"{self!r} states its relation already: {self._relation.words()}")
        game = CustomGame(self.name, self._moves, self.dims, self.misere, relation)
        game.relation_inferred_on = positive_int(inferred_on, "inferred_on")
        game.source_file = self.source_file  # the same game file, when it came from one
        return game

    def without_inferred_relation(self) -> CustomGame:
        """The same game with its inferred relation dropped (to infer it again on a larger box); this game is left as
        it is.

        Examples
        --------
        >>> from games.symbolic import take_from_one
        >>> g = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1)
        >>> g.with_relation(take_from_one(1, (1, 2)), 300).without_inferred_relation().move_relation() is None
        True
        """
        if self.relation_inferred_on is None:
            raise ValueError(f"{self!r} states no inferred relation (a relation given with moves() is kept)")
        game = CustomGame(self.name, self._moves, self.dims, self.misere)
        game.source_file = self.source_file
        return game

    def moves(self, position) -> list[tuple[int, ...]]:
        position = tuple(int(x) for x in position)
        if self.parts > 1:
            options = self._call(position)
            if position != (0,) and set(map(type, options)) <= {tuple} and max(map(len, options), default=0) <= \
                    self.parts and set(map(type, chain.from_iterable(options))) <= {int} and \
                    min(chain.from_iterable(options), default=0) >= 0:
                return options  # tuples of plain non-negative ints: the common shape, as they are
            return [self._sum(position, option) for option in options]
        return [self._option(self._where(position), option) for option in self._call(position)]

    def _sum(self, position: tuple[int, ...], option) -> tuple[int, ...]:
        """An option of a one-heap game whose options are sums, checked: its heaps as a tuple of ints (in the order
        given; a zero is an empty part)."""
        where = self._where(position)
        if isinstance(option, (str, bytes)) or not isinstance(option, Iterable):
            raise ValueError(f"{where} returned {_short(option)} among its options, not a sum of heaps (a tuple of "
                             f"at most {self.parts} heap sizes)")
        heaps = tuple(option)
        if len(heaps) > self.parts:
            raise ValueError(f"{where} returned {_short(heaps)}, a sum of {len(heaps)} heaps where the game's "
                             f"options have at most {self.parts} (parts)")
        if not all(isinstance(h, (int, np.integer)) and not isinstance(h, bool) and 0 <= h <= INT64_MAX
                   for h in heaps):
            raise ValueError(f"{where} returned {_short(heaps)}: heaps must be integers from 0 to 2**63 - 1")
        if position == (0,):
            raise ValueError(f"{where} returned {_short(heaps)}: heap 0 is the empty part of a sum and has no move")
        return tuple(int(h) for h in heaps)

    def _sum_rows(self, positions) -> tuple[np.ndarray, np.ndarray]:
        """``option_rows`` of a game whose options are sums: each option's heaps in a row, padded with 0 (empty
        parts) to the most heaps of any option here.  Tuples of plain ints are read at once (their order kept),
        anything else one option at a time, with ``moves``' checks and errors."""
        points = np.asarray(positions, dtype=np.int64).reshape(-1).tolist()
        found = [self._call((p,)) for p in points]
        flat = list(chain.from_iterable(found))
        width = max(map(len, flat), default=0) if set(map(type, flat)) <= {tuple} else -1
        options = None
        if 0 <= width <= self.parts and set(map(type, chain.from_iterable(flat))) <= {int} and \
                not (0 in points and found[points.index(0)]):
            width = max(width, 1)
            try:
                options = np.array([o + (0,) * (width - len(o)) for o in flat], dtype=np.int64).reshape(-1, width)
            except OverflowError:  # a heap beyond 64 bits: the checks below name it
                options = None
        if options is None or (options < 0).any():
            found = [[self._sum((p,), o) for o in result] for p, result in zip(points, found)]
            width = max((len(o) for options in found for o in options), default=0) or 1
            options = np.array([o + (0,) * (width - len(o)) for options in found for o in options],
                               dtype=np.int64).reshape(-1, width)
        return np.array(list(map(len, found)), dtype=np.int64), options

    def option_rows(self, positions) -> tuple[np.ndarray, np.ndarray]:
        """The options of an (n, dims) array of positions: ``(counts, options)``, the options of every position one
        after another as an (m, dims) int64 array, each checked as ``moves`` checks it.

        ``moves`` is called on a few positions at a time, about ``GROUP_OPTIONS`` options, whose lists are read
        (``cgbase.int_rows``: types, lengths, 64-bit range) and let go before the next group, so that the user's
        tuples are made in memory still in the cache; anything but the common shape, tuples or lists of ``dims``
        Python ints, is checked one option at a time, with ``moves``' own errors.

        Examples
        --------
        >>> g = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], dims=1)
        >>> counts, options = g.option_rows(np.array([[0], [2]]))
        >>> counts.tolist(), options.ravel().tolist()
        ([0, 2], [1, 0])
        """
        if self.parts > 1:
            return self._sum_rows(positions)
        points = list(map(tuple, np.asarray(positions, dtype=np.int64).reshape(-1, self.dims).tolist()))
        counts, blocks = [], []
        group, read, total = 1, 0, 0
        while read < len(points):
            chunk = points[read:read + group]
            results = list(map(self._call, chunk))
            counts.extend(map(len, results))
            block = int_rows(results, self.dims)
            if block is None:
                block = np.array([self._option(self._where(p), o) for p, result in zip(chunk, results)
                                  for o in result], dtype=np.int64).reshape(-1, self.dims)
            blocks.append(block)
            read, total = read + len(chunk), total + len(block)
            group = max(1, min(GROUP_OPTIONS * read // max(total, 1), 4 * group))
        options = np.concatenate(blocks) if blocks else np.zeros((0, self.dims), dtype=np.int64)
        return np.array(counts, dtype=np.int64), options

    def _where(self, position) -> str:
        return f"the moves function {getattr(self._moves, '__name__', 'moves')!r} of {self.name!r} at {position}"

    def _call(self, position: tuple[int, ...]) -> list:
        """The user's ``moves(position)`` as a list (its options not checked yet); errors name the position."""
        try:
            result = self._moves(position)
            if type(result) is not list and isinstance(result, Iterable) and not isinstance(result, (str, bytes)):
                result = list(islice(result, MAX_OPTIONS + 1))  # a generator's own errors are the function's errors
        except KeyboardInterrupt:  # Ctrl-C while the user's function runs: an interruption, not its failure
            raise
        except SystemExit as err:  # sys.exit() in moves() must not end the program silently with status 0
            raise ValueError(f"{self._where(position)} called sys.exit({err.code!r}) instead of returning its "
                             "options") from None
        except BaseException as err:  # the user's function failed (even with GeneratorExit or its own
            # BaseException): one line naming it, the position and the failing line of its file
            code = getattr(self._moves, "__code__", None)
            raise ValueError(f"{self._where(position)} raised {type(err).__name__}: {err}"
                             f"{failing_line(err, code.co_filename if code is not None else None)}") from None
        if type(result) is not list:
            raise ValueError(f"{self._where(position)} returned {_short(result)}, not a list of positions")
        if len(result) > MAX_OPTIONS:  # an endless generator would fill the memory; a real game has far fewer
            raise ValueError(f"{self._where(position)} returned more than {MAX_OPTIONS:,} options: a position's "
                             "options must be a finite list of distinct positions")
        return result

    def options(self, position) -> np.ndarray:
        """Options of one position as rows of ``dims`` integers (from ``moves``: a custom game has no kernel).

        Examples
        --------
        >>> custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1).options((2,)).tolist()
        [[1], [0]]
        """
        return np.array(self.moves(position), dtype=np.int64).reshape(-1, self.dims)

    def option_block(self, positions) -> tuple[np.ndarray, np.ndarray]:
        """Options of each of an (n, dims) array of positions from ``moves``, as ``Game.option_block`` lays them
        out (padded to the most options of any of them).

        Examples
        --------
        >>> g = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1)
        >>> counts, out = g.option_block([[1], [2]])
        >>> counts.tolist(), out[1].ravel().tolist()
        ([1, 2], [1, 0])
        """
        counts, options = self.option_rows(positions)
        width = max(1, int(counts.max(initial=0)))
        check_memory(8.0 * len(counts) * width * options.shape[1], f"the options of {len(counts):,} positions of "
                     f"{self!r} padded to the {width:,} of the one with most", "ask for fewer positions at once")
        out = np.zeros((len(counts), width, options.shape[1]), dtype=np.int64)
        out[np.arange(out.shape[1])[None, :] < counts[:, None]] = options
        return counts, out

    def _option(self, where: str, option) -> tuple[int, ...]:
        if isinstance(option, (str, bytes)) or not isinstance(option, Iterable):
            raise ValueError(f"{where} returned {_short(option)} among its options, not a position (a tuple of "
                             f"{self.dims} integers)")
        option = tuple(option)
        if len(option) != self.dims:
            raise ValueError(f"{where} returned {_short(option)}, a position of {len(option)} coordinates where the "
                             f"game's have {self.dims}")
        if not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in option):
            raise ValueError(f"{where} returned {_short(option)}: coordinates must be integers")
        if not all(-INT64_MAX - 1 <= x <= INT64_MAX for x in option):
            raise ValueError(f"{where} returned {_short(option)}: coordinates must fit in 64 bits (|x| < 2^63)")
        return tuple(int(x) for x in option)

    def __repr__(self) -> str:
        return f"custom_game({self.name!r}, dims={self.dims}" + (f", parts={self.parts})" if self.parts > 1 else ")")

    def spec(self) -> dict:
        params = {"dims": self.dims, "misere": self.misere} | ({"parts": self.parts} if self.parts > 1 else {})
        return {"name": self.name, "params": params, "custom": True}


def failing_line(err: BaseException, filename: str | None) -> str:
    """``" (my_game.py, line 7: return [...])"``: the last frame of ``err``'s traceback in the file ``filename``
    (a game file, or the file defining a ``moves`` function), with its line of code where Python has it; ``""``
    when no frame is in that file.

    Examples
    --------
    >>> try:
    ...     exec(compile("x = 1; y = 1 / 0", "no_such_game.py", "exec"), {})  # no file: no line of code
    ... except ZeroDivisionError as err:
    ...     failing_line(err, "no_such_game.py")
    ' (no_such_game.py, line 1)'
    """
    import traceback

    if filename is None:
        return ""
    target = os.path.abspath(filename)
    frames = [f for f in traceback.extract_tb(err.__traceback__) if os.path.abspath(f.filename) == target]
    if not frames:
        return ""
    frame = frames[-1]
    code = (frame.line or "").strip()
    return f" ({os.path.basename(frame.filename)}, line {frame.lineno}" + (f": {_short_text(code)})" if code else ")")


def _short_text(code: str) -> str:
    return code if len(code) <= 80 else code[:77] + "..."


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_fits(relation: MoveRelation, dims: int) -> None:
    """Refuse a relation whose step vectors (its members' too) have another length than ``dims``."""
    members = relation.members if isinstance(relation, AnyOf) else (relation,)
    for member in members:
        vectors = getattr(member, "vectors", None)
        if vectors and len(vectors[0]) != dims:
            raise ValueError(f"the relation {member!r} does not fit positions of {dims} coordinate{'s' * (dims > 1)}: "
                             f"its vectors have {len(vectors[0])}")


def custom_game(name: str, moves: Callable, dims: int, misere: bool = False, relation=None,
                parts: int = 1) -> CustomGame:
    """Make a game from ``moves(position) -> iterable of positions`` over ``dims`` integer coordinates.

    ``solve(game, bound=B)`` uses the box [0, B]^dims (a move leaving it is an error naming
    the position); ``solve(game, starts=[...])`` uses the positions reachable from the starts.
    ``relation`` (a ``games.symbolic`` relation, e.g. ``take_from_one(1, (1, 2))``) states the same
    moves symbolically so that rules can be proved for every position; the prover first checks it
    against ``moves`` on a small box.

    Examples
    --------
    >>> from games.symbolic import take_from_one
    >>> g = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], 1,
    ...                 relation=take_from_one(1, (1, 2)))
    >>> g.move_relation().words()
    'subtract t·v (t in {1, 2}, every coordinate staying ≥ 0) for v in 1'
    >>> turtles = custom_game("mock_turtles", lambda p: [()] + [(a,) for a in range(1, p[0])] +
    ...                       [(a, b) for b in range(1, p[0]) for a in range(1, b)] if p[0] else [], 1, parts=2)
    >>> turtles.moves((3,))
    [(), (1,), (2,), (1, 2)]
    """
    return CustomGame(name, moves, dims, misere, relation, parts)
