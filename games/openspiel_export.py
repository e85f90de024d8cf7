"""Any game of this toolkit as an OpenSpiel game, so that OpenSpiel's bots (MCTS, AlphaZero, minimax) play it.

``as_openspiel(game, bound)`` wraps one game (a registered family, a custom or a declared game) as a
``pyspiel.Game`` written in Python; ``register_openspiel_games()`` registers every family of the registry under
``toolkit_<family>`` so that ``pyspiel.load_game("toolkit_wythoff(bound=5)")`` works, with the family's parameters
(a tuple written with ``;``: ``toolkit_subtraction(subtract=1;3;4,bound=9)``) and ``bound``. A game string reads
``code=0.137`` as a number: give an octal code in the parameter dict,
``pyspiel.load_game("toolkit_octal", {"code": "0.137", "bound": 8})``.

The exported game is sequential, deterministic, of perfect information and zero-sum between two players; player 0
moves first from the start (a board game's empty board; otherwise the corner ``(bound, ..., bound)`` of the box, or
the universe's last position when the corner is none of its positions (Welter's coins on distinct squares),
or the ``start`` given). Its state is a position of the toolkit game and the player to move, and its string
names both (``"0:(3, 5)"``), so OpenSpiel's tabular solvers never merge states that differ only in the mover.

- Actions are dense move indices: on a board game the cell a stone goes to (``cell`` when each player owns a
  coordinate, as in tic-tac-toe and Hex; ``board * cells + cell`` on an impartial board game such as Notakto);
  otherwise the index of the option in ``game.moves(position)``. ``action_option`` and ``option_action`` convert.
- A position with no move ends the game: the player to move gets ``game.terminal_values`` (normal play: -1, misere:
  +1, a full drawn board: 0), the other player its negation. A game that could cycle is a draw after
  ``max_game_length`` moves.
- The observation tensor is the position's bitboards as planes (board games: ``dims x n x n``) or the game's
  ``features`` (one number each).
- A sum of heaps (an octal, hexadecimal or Grundy's game, whose moves split a heap) is played as a whole: the state
  is the tuple of its heaps, largest first (the start: one heap of ``bound``), a move replaces one heap by one of
  its options (the index in the list of every heap's distinct options is the action), and the observation counts
  the heaps of each size 1..bound.

OpenSpiel is an optional extra (``pip install -e '.[openspiel]'``); ``pyspiel`` is imported only when a game is
exported.
"""

from __future__ import annotations

import functools

import numpy as np

from games.base import Game
from games.openspiel_layout import Layout, make_layout

__all__ = ["as_openspiel", "register_openspiel", "register_openspiel_games", "action_option", "option_action",
           "state_at", "require_openspiel", "bot_policy", "OPENSPIEL_PREFIX"]

OPENSPIEL_PREFIX = "toolkit_"  # a family registered in OpenSpiel is toolkit_<family>
_TUPLE_SEPARATOR = ";"  # OpenSpiel's game strings separate parameters with commas: a tuple is written 1;3;4


def require_openspiel():
    """``pyspiel``, or a ``ValueError`` saying how to install OpenSpiel.

    Examples
    --------
    >>> require_openspiel().__name__
    'pyspiel'
    """
    try:
        import pyspiel
    except ImportError:
        raise ValueError("OpenSpiel is not installed: pip install -e '.[openspiel]' (or pip install open_spiel)") \
            from None
    return pyspiel


def as_openspiel(game: Game, bound: int | None = None, start=None):
    """``game`` as a ``pyspiel.Game`` (a Python game) that OpenSpiel's algorithms and bots play.

    Parameters
    ----------
    game : Game
        Any toolkit game: a registered family, a custom or a declared game, a sum of heaps.
    bound : int, optional
        The box ``[0, bound]^dims`` the play stays in (not needed by board games): the start is its corner
        ``(bound, ..., bound)`` unless ``start`` is given, and it sizes the action space. A sum of heaps starts
        from one heap of ``bound`` tokens.
    start : tuple of int, optional
        The first position (default: the board game's empty board, else the box's corner; a sum of heaps: its
        heaps).

    Raises
    ------
    ValueError
        A board game with a start or bound, a game without a start (no bound nor start), or OpenSpiel missing.

    Examples
    --------
    >>> from games import make_game
    >>> exported = as_openspiel(make_game("wythoff"), bound=2)
    >>> state = exported.new_initial_state()
    >>> str(state), state.legal_actions(), exported.num_distinct_actions()
    ('0:(2, 2)', [0, 1, 2, 3, 4, 5], 6)
    >>> state.apply_action(5); str(state), state.observation_tensor(0)
    ('1:(0, 0)', [0.0, 0.0])
    >>> state.is_terminal(), state.returns()  # player 0 took both heaps: normal play, it wins
    (True, [1.0, -1.0])
    >>> kayles = as_openspiel(make_game("octal", code="0.77"), bound=4)  # a sum of heaps: a move may split one
    >>> [str(s) for s in (kayles.new_initial_state().child(a) for a in range(4))]
    ['1:(3,)', '1:(2, 1)', '1:(2,)', '1:(1, 1)']
    """
    pyspiel = require_openspiel()
    if not isinstance(game, Game):
        raise TypeError(f"as_openspiel takes a toolkit Game, got {type(game).__name__}")
    layout = make_layout(game, bound, start)
    game_class, _ = _classes(pyspiel)
    return game_class(layout, {})


def register_openspiel_games() -> list[str]:
    """Register every family of the registry in OpenSpiel as ``toolkit_<family>`` (once per process), with the
    family's parameters and ``bound``; return the names.

    Examples
    --------
    >>> import pyspiel
    >>> "toolkit_nim" in register_openspiel_games()
    True
    >>> exported = pyspiel.load_game("toolkit_subtraction(subtract=1;2,bound=4)")
    >>> str(exported.new_initial_state()), exported.new_initial_state().legal_actions()
    ('0:(4,)', [0, 1])
    """
    from games.registry import GAMES

    pyspiel = require_openspiel()
    names = []
    for family in GAMES:
        name = OPENSPIEL_PREFIX + family
        if name not in _REGISTERED:
            pyspiel.register_game(_game_type(pyspiel, name, _family_parameters(family)), _family_class(pyspiel, family))
            _REGISTERED.add(name)
        names.append(name)
    return names


_REGISTERED: set[str] = set()
_REGISTERED_GAMES: dict[str, tuple] = {}  # name -> (game, bound, start) of register_openspiel


def register_openspiel(game: Game, bound: int | None = None, start=None, name: str | None = None) -> str:
    """Register one game (any toolkit game: a custom or declared one too) in OpenSpiel under ``name`` (default
    ``toolkit_``, the game's slug and its bound), so that tools taking a game string load it; return the name.

    Examples
    --------
    >>> import pyspiel
    >>> from games import make_game
    >>> register_openspiel(make_game("octal", code="0.137"), bound=6)
    'toolkit_octal_code0_137_bound6'
    >>> str(pyspiel.load_game("toolkit_octal_code0_137_bound6").new_initial_state())
    '0:(6,)'
    """
    import re

    pyspiel = require_openspiel()
    layout = make_layout(game, bound, start)  # checked before anything is registered
    key = (game, layout.bound, layout.start)
    if name is None:
        default_start = layout.board or start is None
        words = [game.slug(), *([] if layout.bound is None else [f"bound{layout.bound}"]),
                 *([] if default_start else ["start" + "_".join(map(str, layout.start))])]
        name = OPENSPIEL_PREFIX + re.sub(r"[^A-Za-z0-9_]", "_", "_".join(words))
    from games.registry import GAMES

    if name in _REGISTERED_GAMES or name in {OPENSPIEL_PREFIX + family for family in GAMES}:
        if _REGISTERED_GAMES.get(name) != key:  # a family's own name is kept for register_openspiel_games
            raise ValueError(f"OpenSpiel already has a game named {name!r}: give register_openspiel another name=")
        return name
    base, _ = _classes(pyspiel)
    pyspiel.register_game(_game_type(pyspiel, name, {}),
                          type(f"Toolkit_{name}", (base,), {"__init__": lambda self, params=None: base.__init__(
                              self, make_layout(game, bound, start), {})}))
    _REGISTERED_GAMES[name] = key
    return name


def action_option(exported, position, action: int) -> tuple[int, ...]:
    """The option (position after the move) that ``action`` plays from ``position`` in an exported game.

    Examples
    --------
    >>> from games import make_game
    >>> exported = as_openspiel(make_game("tictactoe"))
    >>> action_option(exported, (0, 0), 4)  # X takes the centre
    (16, 0)
    """
    position = exported.layout.checked(position)
    options = exported.layout.actions(position)
    if action not in options:
        raise ValueError(f"action {action} is not legal at {tuple(position)}: legal actions are {sorted(options)}")
    return options[action]


def option_action(exported, position, option) -> int:
    """The action of an exported game that moves from ``position`` to ``option``.

    Examples
    --------
    >>> from games import make_game
    >>> option_action(as_openspiel(make_game("tictactoe")), (0, 0), (16, 0))
    4
    """
    option = exported.layout.checked(option)
    for action, target in exported.layout.actions(exported.layout.checked(position)).items():
        if target == option:
            return action
    raise ValueError(f"{option} is not an option of {tuple(position)} in {exported.layout.game!r}")


def state_at(exported, position, player: int = 0):
    """A state of an exported game at ``position`` with ``player`` (0 or 1) to move: where OpenSpiel's bots are
    asked for a move at any position of the universe, not only those met from the start.

    Examples
    --------
    >>> from games import make_game
    >>> state = state_at(as_openspiel(make_game("nim", heaps=2), bound=3), (1, 1), player=1)
    >>> str(state), state.current_player()
    ('1:(1, 1)', 1)
    """
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    position = exported.layout.checked(position)
    state = exported.new_initial_state()
    state.position, state.player = position, player
    state.refresh()
    return state


def bot_policy(exported, bot, to_state=None, to_option=None):
    """A function ``position -> option`` that asks an OpenSpiel bot (``bot.step(state)``: MCTS, a random bot, an
    AlphaZero bot) for its move at any position of an OpenSpiel game: what ``learners.optimality`` scores.

    The bot sees the position with player 0 to move (on an impartial game the mover's name changes nothing; a board
    game's own rules say whose stone is placed).

    Parameters
    ----------
    exported : pyspiel.Game
        A game exported by ``as_openspiel``, or any OpenSpiel game with the two converters below.
    bot : pyspiel.Bot
    to_state : callable, optional
        ``to_state(exported, position)``: the OpenSpiel state of a toolkit position (default ``state_at``).
    to_option : callable, optional
        ``to_option(exported, position, action)``: the toolkit option an action leads to (default
        ``action_option``).

    Examples
    --------
    >>> import pyspiel
    >>> from games import make_game
    >>> exported = as_openspiel(make_game("nim", heaps=2), bound=3)
    >>> policy = bot_policy(exported, pyspiel.make_uniform_random_bot(0, 7))
    >>> policy((0, 3)) in make_game("nim", heaps=2).moves((0, 3))
    True
    """
    if not callable(getattr(bot, "step", None)):
        raise TypeError(f"an OpenSpiel bot has a step(state) method, got {bot!r}")
    to_state, to_option = to_state or state_at, to_option or action_option

    def policy(position):
        position = tuple(int(x) for x in position)
        state = to_state(exported, position)
        if state.is_terminal():
            raise ValueError(f"{position} has no move: a bot is asked only where there is one")
        return to_option(exported, position, int(bot.step(state)))

    return policy


# -- the OpenSpiel classes, made once pyspiel is imported --------------------------------------------------------
def _game_type(pyspiel, name: str, parameters: dict):
    return pyspiel.GameType(
        short_name=name, long_name=f"cgdiscover {name}", dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2, provides_information_state_string=True,
        provides_information_state_tensor=False, provides_observation_string=True,
        provides_observation_tensor=True, parameter_specification=parameters)


@functools.cache
def _classes(pyspiel):
    """The exported game's ``pyspiel.Game`` and ``pyspiel.State`` classes."""

    class ToolkitGame(pyspiel.Game):
        """A toolkit game in OpenSpiel; ``layout`` holds the toolkit game."""

        def __init__(self, layout: Layout, params):
            info = pyspiel.GameInfo(num_distinct_actions=layout.num_actions, max_chance_outcomes=0, num_players=2,
                                    min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                    max_game_length=layout.max_length)
            name = OPENSPIEL_PREFIX + layout.game.slug().replace("-", "_")
            super().__init__(_game_type(pyspiel, name, {}), info, params)
            self.layout = layout

        def new_initial_state(self):
            return ToolkitState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return _Observer(self.layout)

        def observation_tensor_shape(self):
            return list(self.layout.shape)

    class ToolkitState(pyspiel.State):
        """A position of the toolkit game and the player to move."""

        def __init__(self, game):
            super().__init__(game)
            self.layout = game.layout
            self.position, self.player, self.length = self.layout.start, 0, 0
            self.refresh()

        def refresh(self):
            """Recompute the legal actions (and the end) of the current position."""
            self.options = self.layout.actions(self.position) if self.length < self.layout.max_length else {}
            self.value = 0.0
            if not self.options and self.length < self.layout.max_length:
                self.value = self.layout.terminal_value(self.position)

        def current_player(self):
            return pyspiel.PlayerId.TERMINAL if not self.options else self.player

        def _legal_actions(self, player):
            return list(self.options)

        def _apply_action(self, action):
            self.position, self.player, self.length = self.options[action], 1 - self.player, self.length + 1
            self.refresh()

        def _action_to_string(self, player, action):
            return f"-> {self.options.get(action, action)}"

        def is_terminal(self):
            return not self.options

        def returns(self):
            if self.options:
                return [0.0, 0.0]
            mine = self.value  # for the player to move, who has no move
            return [mine, -mine] if self.player == 0 else [-mine, mine]

        def __str__(self):
            return f"{self.player}:{self.position}"

    return ToolkitGame, ToolkitState


class _Observer:
    """OpenSpiel's observer interface: ``tensor`` (and its shaped view in ``dict``) set from a state."""

    def __init__(self, layout: Layout):
        self.layout = layout
        self.tensor = np.zeros(int(np.prod(layout.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(layout.shape)}

    def set_from(self, state, player):
        self.tensor[:] = self.layout.observation(state.position)

    def string_from(self, state, player):
        return str(state)


# -- the registry's families under toolkit_<family> --------------------------------------------------------------
def _family_parameters(family: str) -> dict:
    """The family's parameters with their defaults as OpenSpiel takes them (a tuple as text, ``1;2;3``), and bound."""
    from games.registry import family_signature

    parameters = {}
    for name, _, default in family_signature(family):
        if isinstance(default, bool | int | float | str):
            parameters[name] = default
        elif isinstance(default, tuple):
            parameters[name] = _TUPLE_SEPARATOR.join(str(x) for x in default)
        else:
            parameters[name] = "none"
    parameters["bound"] = 0  # 0: none (board games); else the box the play stays in
    return parameters


def _family_class(pyspiel, family: str):
    """The ``pyspiel.Game`` class that OpenSpiel makes with a parameter dict: the exported game of ``family``.

    A class rather than a function: OpenSpiel keeps what is registered until the interpreter ends, and a class is
    released safely there (a function crashed the interpreter's exit)."""
    from games.registry import make_game, parse_params

    base, _ = _classes(pyspiel)

    def __init__(self, params=None):
        params = dict(params or {})
        bound = int(params.pop("bound", 0)) or None
        words = [f"{k}={str(v).replace(_TUPLE_SEPARATOR, ',')}" for k, v in params.items()]
        base.__init__(self, make_layout(make_game(family, **parse_params(family, words)), bound, None), {})

    return type(f"Toolkit_{family}", (base,), {"__init__": __init__})
