"""OpenSpiel games as games of this toolkit: every reachable state, with its moves and its outcome.

Any OpenSpiel game that is sequential, deterministic, of perfect information, and two-player zero-sum or
one-player (``games.openspiel_names`` checks) is enumerated from its initial state by a depth-first search over
``legal_actions`` and ``child``.  Two states are one position when their key agrees: the player to move and the
state's text (a 128-bit BLAKE2 digest of both; the player is part of the key because a state's text may leave it
out, as OpenSpiel's Nim once did and its dots and boxes does).  The observation tensor is left out: dots and
boxes records in it who drew each line, which play does not depend on, and would count 50 times the states.
States merged by their key must have the same legal actions (and terminal states the same outcome), else the
game is refused: its text does not determine its state.  A position is its dense id ``(i,)``,
numbered in post-order, so every move goes to a smaller id; the moves are kept as compressed sparse rows with
the OpenSpiel action of each, and a compiled kernel serves them to the solver.

The solver takes the player to move to alternate (each option's outcome is for the opponent).  Where an OpenSpiel
move leaves the same player to move (a completed box in dots and boxes; every move of a one-player game), the
option is a *pass* position: the opponent to move with one forced move, back to the state (so the solver's
remoteness counts such a pass as a move).  A terminal state is a position without moves, seen by the player who
did not make the last move, with the outcome ``sign(return)`` for that player (+1 win, -1 loss, 0 draw); in a
one-player game the phantom opponent's return is the negated return.  ``sign`` keeps the minimax order, so the
outcome of every state is the sign of OpenSpiel's minimax value.

A game that repeats a state is refused: OpenSpiel ends such play by its move limit, which a state's key does not
record.  The enumeration stops, before its memory grows further, once it has counted ``max_states`` states.
"""

from __future__ import annotations

import contextlib
import hashlib
import sys
import time
from array import array

import numba as nb
import numpy as np

from cgbase.memory import memory_limit
from games.base import Game
from games.openspiel_names import PREFIX, load_openspiel_game, split_name, typed_params
from games.openspiel_probe import first_line, quiet_stderr
from games.universe import Universe

__all__ = ["OpenSpielGame", "openspiel_game", "MAX_STATES", "MAX_SECONDS", "STATE_BYTES", "state_cap", "STATE", "PASS", "END"]

MAX_STATES = 2_000_000  # states enumerated at most (about 30 s of CPU through pyspiel on this machine)
STATE_BYTES = 400  # memory per state while enumerating: its key in a dict, its rows and the search's frames
MAX_SECONDS = 120.0  # CPU seconds an enumeration may take (a 19 x 19 Go state costs milliseconds through pyspiel)
PROGRESS_EVERY = 1 << 16  # states counted between two calls of an enumeration's progress
STATE, PASS, END = 0, 1, 2  # kinds of position: an OpenSpiel state, a forced pass, a terminal state


class _Refused(ValueError):
    """A game refused by the enumeration itself (too many states, a repeated state)."""


def state_cap() -> int:
    """The most states an enumeration counts: ``MAX_STATES``, or fewer when the memory limit
    (``cgbase.memory.memory_limit``) holds fewer at ``STATE_BYTES`` each.

    Examples
    --------
    >>> 0 < state_cap() <= MAX_STATES
    True
    """
    return int(min(MAX_STATES, memory_limit() // STATE_BYTES))


@nb.njit(cache=True, nogil=True)
def _table_moves(P, table, counts, out):
    """The move kernel: ``table`` is ``[n, indptr (n + 1), targets]``; row r's options are its position's row."""
    n = table[0]
    for r in range(P.shape[0]):
        i = P[r, 0]
        lo = table[1 + i]
        hi = table[2 + i]
        for j in range(lo, hi):
            out[r, j - lo, 0] = table[n + 2 + j]
        counts[r] = hi - lo


class _Enumeration:
    """The depth-first search: rows appended in post-order, so a position's options are finished before it."""

    def __init__(self, spiel, cap: int, what: str, progress=None):
        self.spiel, self.cap, self.what, self.progress = spiel, cap, what, progress
        self.indptr, self.targets, self.actions = array("q", [0]), array("q"), array("q")
        self.kind, self.player, self.terminal = array("b"), array("b"), array("b")
        self.parent, self.parent_action = array("q"), array("q")
        self.ids: dict[bytes, int] = {}  # finished states and positions: key -> id
        self.signature: dict[bytes, int] = {}  # a state's key -> hash of its legal actions (checked on merging)
        self.open: set[bytes] = set()  # states on the search's path
        self.counted, self.clock = 0, time.process_time()

    @staticmethod
    def key(state, player: int, kind: int) -> bytes:
        return hashlib.blake2b(bytes([kind, player & 0xFF]) + str(state).encode(), digest_size=16).digest()

    def merged(self, state, what: str) -> None:
        """Refuse a state merged with an earlier one of the same key that differs (legal actions or outcome)."""
        raise _Refused(f"{self.what}: two states with the text {str(state)[:60]!r} and the same player to move "
                       f"have different {what}: a state's text does not determine it, so states cannot be merged")

    def row(self, kind: int, player: int, value: int, options: list, actions: list) -> int:
        self.targets.extend(options)
        self.actions.extend(actions)
        self.indptr.append(len(self.targets))
        self.kind.append(kind)
        self.player.append(player)
        self.terminal.append(value)
        self.parent.append(-1)
        self.parent_action.append(-1)
        here = len(self.kind) - 1
        for option, action in zip(options, actions):
            if action < 0:
                continue
            reached = [option, self.targets[self.indptr[option]]] if self.kind[option] == PASS else [option]
            for target in reached:  # a pass and the state behind it are both reached by this action
                if self.parent[target] < 0:
                    self.parent[target], self.parent_action[target] = here, action
        return here

    def end(self, state, player: int) -> int:
        """The terminal ``state`` seen by ``player`` (who did not make the last move)."""
        key = self.key(state, player, END)
        returns = state.returns()
        value = int(np.sign(returns[player] if player < len(returns) else -returns[0]))
        if key not in self.ids:
            self.ids[key] = self.row(END, player, value, [], [])
        elif self.terminal[self.ids[key]] != value:
            self.merged(state, "returns")
        return self.ids[key]

    def count(self) -> None:
        self.counted += 1
        if self.progress is not None and not self.counted % PROGRESS_EVERY:
            self.progress(self.counted, self.cap)
        if self.counted > self.cap:
            raise _Refused(f"{self.what} has more than {self.cap:,} reachable states (counted while enumerating "
                             f"them; the cap is min({MAX_STATES:,}, memory limit / {STATE_BYTES} bytes a state)): "
                             "give it smaller parameters")
        if not self.counted % 256 and time.process_time() - self.clock > MAX_SECONDS:
            raise _Refused(f"{self.what}: {self.counted:,} states enumerated in {MAX_SECONDS:.0f} s of CPU without "
                           "reaching the end (through pyspiel, its states are too slow or too many to enumerate "
                           "here): give it smaller parameters")

    def run(self) -> int:
        """Enumerate from the initial state; returns the start's id."""
        root = self.spiel.new_initial_state()
        if root.is_terminal():
            return self.end(root, 0)
        self.count()
        stack = [self.frame(root, self.key(root, root.current_player(), STATE))]
        while stack:
            frame = stack[-1]
            state, key, mover, pending, children = frame
            if pending:
                action = pending.pop()
                child = state.child(action)
                if child.is_terminal():
                    children.append((action, self.end(child, 1 - mover), None))
                    continue
                player = child.current_player()
                child_key = self.key(child, player, STATE)
                children.append((action, child_key, player))
                if child_key in self.open:
                    raise _Refused(f"{self.what} repeats a state ({str(child)[:60]!r} ...): OpenSpiel ends such "
                                     "play by its move limit, which a state's key does not record; only games "
                                     "without repeated states are solved here")
                if child_key not in self.ids:
                    self.count()
                    stack.append(self.frame(child, child_key))
                elif self.signature[child_key] != hash(tuple(child.legal_actions())):
                    self.merged(child, "legal actions")
                continue
            stack.pop()
            self.open.discard(key)
            options, actions = [], []
            for action, target, player in children:
                if player is not None:  # a state: a pass first when the mover moves again
                    target = self.ids[target]
                    if player == mover:
                        target = self.passing(target, 1 - mover)
                options.append(target)
                actions.append(action)
            self.ids[key] = self.row(STATE, mover, 0, options, actions)
        return self.ids[self.key(root, root.current_player(), STATE)]

    def frame(self, state, key: bytes) -> list:
        self.open.add(key)
        legal = state.legal_actions()
        self.signature[key] = hash(tuple(legal))
        return [state, key, state.current_player(), legal[::-1], []]

    def passing(self, target: int, player: int) -> int:
        """The pass position where ``player`` must let the opponent move again at ``target``."""
        key = b"pass" + target.to_bytes(8, "little")
        if key not in self.ids:
            self.ids[key] = self.row(PASS, player, 0, [target], [-1])
        return self.ids[key]


class OpenSpielGame(Game):
    """An OpenSpiel game (sequential, deterministic, perfect information, two-player zero-sum or one-player) over
    its reachable states.

    A position is ``(i,)``, the dense id of a state (or of a forced pass, see the module's notes); the universe is
    every id, ``universe(bound)`` ignores the bound.  ``state(position)`` is the OpenSpiel state,
    ``position_of(state)`` the position of one, ``actions(position)`` the OpenSpiel action of each option (-1 for
    a pass) and ``action_strings(position)`` their names.

    Attributes
    ----------
    spiel : pyspiel.Game
        The OpenSpiel game.
    openspiel_name : str
        OpenSpiel's own name for it (``nim(pile_sizes=1;3)``).

    Examples
    --------
    >>> game = openspiel_game("tic_tac_toe")
    >>> game.universe().size, len(game.moves(game.start)), game.action_strings(game.start)[:2]
    (5478, 9, ['x(0,0)', 'x(0,1)'])
    """

    dims = 1
    impartial = False
    universe_from_start = True
    symmetries = np.zeros((1, 1), dtype=np.int64)  # the identity only
    kernel = staticmethod(_table_moves)

    def __init__(self, game: str, params: dict | None = None, max_states: int | None = None, progress=None):
        params = typed_params(game, dict(params or {}))
        super().__init__(**params)
        self.name = PREFIX + game
        self.spiel = load_openspiel_game(game, params)
        self.openspiel_name = game + ("(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")" if params else "")
        search = _Enumeration(self.spiel, state_cap() if max_states is None else max_states, repr(self), progress)
        try:  # on a terminal stderr stays open for a spinner (the command line's) while the states are counted
            with contextlib.nullcontext() if progress is not None and sys.stderr.isatty() else quiet_stderr():
                root = search.run()
        except _Refused:
            raise
        except Exception as err:  # noqa: BLE001 - OpenSpiel's own error on a state (SpielError, or a C++ one)
            raise ValueError(f"OpenSpiel failed while enumerating {self!r}: {first_line(err)}") from None
        self._ids = search.ids
        self._key = search.key
        self.indptr = np.frombuffer(search.indptr, dtype=np.int64).copy()
        self.targets = np.frombuffer(search.targets, dtype=np.int64).copy()
        self.action_table = np.frombuffer(search.actions, dtype=np.int64).copy()
        self.kinds = np.frombuffer(search.kind, dtype=np.int8).copy()
        self.players = np.frombuffer(search.player, dtype=np.int8).copy()
        self.terminal_table = np.frombuffer(search.terminal, dtype=np.int8).copy()
        self._parent = np.frombuffer(search.parent, dtype=np.int64).copy()
        self._parent_action = np.frombuffer(search.parent_action, dtype=np.int64).copy()
        self._root = root
        self._table = np.concatenate([[self.kinds.size], self.indptr, self.targets]).astype(np.int64)

    # -- the game interface --------------------------------------------------------------------------------
    @property
    def start(self) -> tuple[int]:
        """The initial state's position."""
        return (self._root,)

    @property
    def size(self) -> int:
        """Positions: states, forced passes and terminal states (each terminal state once per player who may
        face it)."""
        return int(self.kinds.size)

    def kernel_params(self) -> np.ndarray:
        return self._table

    def max_moves(self, limits) -> int:
        return max(1, int(np.diff(self.indptr).max(initial=0)))

    def check_position(self, p: np.ndarray) -> None:
        if p.size != 1 or not 0 <= int(p[0]) < self.size:
            raise ValueError(f"{self!r}: {tuple(p.tolist())} is not a position: give (i,) with 0 <= i < {self.size}")

    def universe(self, bound=None) -> Universe:
        """Every position (ids 0 to size - 1), its bound the largest id; ``bound`` is ignored (None is fine)."""
        return Universe([self.size - 1], bound=self.size - 1)

    def terminal_values(self, positions) -> np.ndarray:
        """Outcome for the player to move at terminal states: the sign of that player's return."""
        ids = np.asarray(positions, dtype=np.int64).reshape(-1)
        return self.terminal_table[ids]

    def symmetric_positions(self, positions) -> np.ndarray:
        """Only the identity: shape (1, m, 1)."""
        return np.asarray(positions, dtype=np.int64).reshape(1, -1, 1)

    def canonical(self, positions) -> np.ndarray:
        """Each position itself (no symmetry is declared)."""
        return np.asarray(positions, dtype=np.int64).reshape(-1, 1)

    @property
    def feature_names(self) -> tuple[str, ...]:
        return ("state",)

    # -- OpenSpiel's side ----------------------------------------------------------------------------------
    def _id(self, position) -> int:
        p = np.asarray(position, dtype=np.int64).reshape(-1)
        self.check_position(p)
        return int(p[0])

    def state(self, position):
        """The OpenSpiel state of a position (a pass: the state the other player moves again in).

        Examples
        --------
        >>> game = openspiel_game("nim", {"pile_sizes": "1;2"})
        >>> str(game.state(game.start))
        '(0): 1 2'
        """
        i = self._id(position)
        if self.kinds[i] == PASS:
            i = int(self.targets[self.indptr[i]])
        path = []
        while self._parent[i] >= 0:
            path.append(int(self._parent_action[i]))
            i = int(self._parent[i])
        state = self.spiel.new_initial_state()
        for action in reversed(path):
            state.apply_action(action)
        return state

    def position_of(self, state, player: int | None = None) -> tuple[int]:
        """The position of an OpenSpiel state of this game; a terminal state is seen by ``player`` (default: the
        player who did not make the last move).

        Examples
        --------
        >>> game = openspiel_game("tic_tac_toe")
        >>> game.position_of(game.spiel.new_initial_state()) == game.start
        True
        """
        if state.is_terminal():
            history = state.history()
            if player is None:
                before = self.spiel.new_initial_state()
                for action in history[:-1]:
                    before.apply_action(action)
                player = 1 - before.current_player() if history else 0
            key = self._key(state, player, END)
        else:
            key = self._key(state, state.current_player(), STATE)
        if key not in self._ids:
            raise ValueError(f"{self!r}: the state {str(state)[:60]!r} is not among its reachable states")
        return (self._ids[key],)

    def actions(self, position) -> list[int]:
        """The OpenSpiel action of each option of ``position``, in the order of ``moves`` (-1: a forced pass)."""
        i = self._id(position)
        return self.action_table[self.indptr[i]: self.indptr[i + 1]].tolist()

    def option_of(self, position, action: int) -> tuple[int]:
        """The option of ``position`` that OpenSpiel's ``action`` leads to (the move an agent's action makes).

        Examples
        --------
        >>> game = openspiel_game("tic_tac_toe")
        >>> str(game.state(game.option_of(game.start, 4)))  # X in the centre
        '...\\n.x.\\n...'
        """
        actions = self.actions(position)
        if action not in actions or action < 0:
            raise ValueError(f"{self!r}: action {action!r} is not legal at {tuple(position)}; legal: {actions}")
        return (int(self.targets[self.indptr[self._id(position)] + actions.index(action)]),)

    def action_strings(self, position) -> list[str]:
        """OpenSpiel's name of each option's action ("pass" for a forced pass)."""
        i = self._id(position)
        state = self.state(position) if self.kinds[i] == STATE else None
        return [state.action_to_string(state.current_player(), a) if a >= 0 else "pass" for a in self.actions(position)]

    def render(self, position) -> str:
        """OpenSpiel's text of the position's state."""
        return str(self.state(position))

    # -- identity ------------------------------------------------------------------------------------------
    def spec(self) -> dict:
        return {"name": self.name, "params": dict(self.params)}

    def title(self) -> str:
        return f"OpenSpiel's {self.openspiel_name}"

    def __repr__(self) -> str:
        return PREFIX + self.openspiel_name

    def __getstate__(self):
        return {"spec": self.spec()}

    def __setstate__(self, state):  # the states are enumerated again
        self.__init__(state["spec"]["name"][len(PREFIX):], state["spec"]["params"])


def openspiel_game(name: str, params: dict | None = None, max_states: int | None = None,
                   progress=None) -> OpenSpielGame:
    """An OpenSpiel game as a game of this toolkit, every reachable state enumerated.

    Parameters
    ----------
    name : str
        ``tic_tac_toe``, ``openspiel:nim(pile_sizes=1;3;5;7)``: one of ``pyspiel.registered_names()``, with or
        without the prefix, with or without its parameters in parentheses.
    params : dict, optional
        More parameters (text, or Python values of the parameter's type); a key also in ``name`` is refused.
    max_states : int, optional
        Refuse the game once this many states are counted (default ``state_cap()``).
    progress : callable, optional
        ``progress(states, max_states)`` every ``PROGRESS_EVERY`` states counted.

    Raises
    ------
    ValueError
        An unknown game or parameter, a value of the wrong type, a game of the wrong kind (chance, simultaneous
        moves, imperfect information, more than two players, general-sum), a game that repeats states, or more
        states than ``max_states``; or OpenSpiel not installed.

    Examples
    --------
    >>> game = openspiel_game("openspiel:nim(pile_sizes=1;3)")
    >>> game, game.universe().size
    (openspiel:nim(pile_sizes=1;3), 12)
    """
    game, given = split_name(name)
    for key in params or {}:
        if key in given:
            raise ValueError(f"openspiel:{game} parameter {key} is given twice (in the name and apart): give it once")
    if max_states is not None and (isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1):
        raise ValueError(f"max_states must be a positive integer, got {max_states!r}")
    return OpenSpielGame(game, {**given, **(params or {})}, max_states, progress)
