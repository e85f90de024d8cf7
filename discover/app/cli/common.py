"""What every command shares: games from words, the bound type, messages, a spinner, output paths.

Nothing here imports numpy, numba, sympy or torch at import time, so ``discover --help`` stays fast;
the commands import what they need when they run.
"""

from __future__ import annotations

import functools
import math
import os
import sys

import click

from cgbase.parallel import MAX_WORKERS
from cgbase.validation import INT64_MAX, integer_text, number_text
from discover.app.cli.terminal import terminal_width, wrap

__all__ = ["Integer", "Number", "Text", "GameName", "GameWord", "OutputFile", "OutputFolder", "InputFile", "BOUND",
           "SEED", "WORKERS", "REPEATS", "TEXT", "GAME", "GAME_WORD", "OUTPUT_FILE", "OUTPUT_FOLDER", "INPUT_FILE",
           "int_list", "name_list", "LearnerChoice", "RULE_COMMANDS", "game_arguments", "game_from_words", "load_game_file",
           "typed_params", "given", "say",
           "print_rows", "spinner", "output_folder", "force_option", "check_output_file", "command_line", "parallel_options"]

RULE_COMMANDS = ("rule", "report")  # the commands that fit a rule to the game's table


class Integer(click.ParamType):
    """An integer from ``low`` to ``high`` written in digits 0-9 (no '٣', no '1e3', nothing past int64), with one
    clear message for anything else; ``why`` says what a smaller ``high`` protects (memory, processes).

    Examples
    --------
    >>> Integer(1, 8, "one process each").convert("9", None, None)
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: 9 is too large (one process each): use at most 8
    """

    name = "N"

    def __init__(self, low: int | None = 1, high: int = INT64_MAX, why: str | None = None):
        self.low, self.high, self.why = low, high, why

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        try:
            return integer_text(value, "", self.low, self.high)
        except ValueError:
            pass
        text = str(value).strip()
        if self.why is not None and text.isascii() and text.isdigit() and int(text) > self.high:
            self.fail(f"{text} is too large ({self.why}): use at most {self.high:,}", param, ctx)
        if self.low is not None and self.low > 1 and text.isascii() and text.isdigit() and int(text) < self.low:
            self.fail(f"{text} is too small: use at least {self.low:,}", param, ctx)
        kind = {1: "a positive integer", 0: "a non-negative integer"}.get(self.low, "an integer")
        self.fail(f"must be {kind} of at most {self.high:,} in digits 0-9, got {value!r}", param, ctx)


class Number(click.ParamType):
    """A finite number (digits 0-9, a point, an exponent) in an interval; never 'nan' or 'inf'."""

    name = "X"

    def __init__(self, low: float = -math.inf, high: float = math.inf, *, low_open: bool = False,
                 high_open: bool = False):
        self.low, self.high, self.low_open, self.high_open = low, high, low_open, high_open

    def convert(self, value, param, ctx):
        if isinstance(value, float):
            value = repr(value)
        try:
            return number_text(value, "", self.low, self.high, low_open=self.low_open, high_open=self.high_open)
        except ValueError as err:
            self.fail(str(err).strip(), param, ctx)


class Text(click.ParamType):
    """Text of at most ``MAX_TEXT`` printable characters; empty only where the option's default is empty."""

    name = "TEXT"

    def convert(self, value, param, ctx):
        text = str(value)
        if not text.strip() and (param is None or param.default != ""):
            self.fail("is empty: give a value or leave the option out", param, ctx)
        if len(text) > MAX_TEXT or not text.isprintable():
            self.fail(f"must be at most {MAX_TEXT:,} printable characters", param, ctx)
        return text


class GameName(Text):
    """The family of a game (``discover games`` lists them); checked by the registry when the game is made."""

    name = "GAME"


class GameWord(Text):
    """One ``NAME=VALUE`` parameter of a game; duplicates and unknown names are refused by ``games.parse_params``."""

    name = "NAME=VALUE"


class OutputFile(click.ParamType):
    """A file a command writes: a new path or a regular file in a writable folder (``cgbase.files``)."""

    name = "FILE"

    def convert(self, value, param, ctx):
        from cgbase.files import check_output_file as check

        try:
            path = check(value, _option(param))
        except ValueError as err:
            self.fail(_plain(err, param), param, ctx)
        _claim(path, param, ctx, output=True)
        return path


class OutputFolder(click.ParamType):
    """A folder a command writes: a new path or an existing folder other than the current one or an ancestor;
    whether an existing folder holds an earlier result is the command's check (``output_folder``)."""

    name = "FOLDER"

    def convert(self, value, param, ctx):
        from cgbase.files import check_folder_path

        try:
            path = str(check_folder_path(value, _option(param)))
        except ValueError as err:
            self.fail(_plain(err, param), param, ctx)
        _claim(path, param, ctx, output=True)
        return path


class InputFile(click.ParamType):
    """A file a command reads: an existing regular file (never a folder, a device or a FIFO, which would block)."""

    name = "FILE"

    def convert(self, value, param, ctx):
        import os
        import stat

        path = str(value)
        if not path:
            self.fail("give a file name", param, ctx)
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            self.fail(f"no file at {path}", param, ctx)
        except (OSError, ValueError) as err:
            self.fail(f"cannot read {path}: {getattr(err, 'strerror', None) or err}", param, ctx)
        if not stat.S_ISREG(mode):
            self.fail(f"{path} is not a regular file", param, ctx)
        if not os.access(path, os.R_OK):
            self.fail(f"{path} is not readable", param, ctx)
        _claim(path, param, ctx, output=False)
        return path


_PATHS = "discover.paths"  # the click context's record of the files a command line names: path -> (option, written)


def _claim(path: str, param, ctx, output: bool) -> None:
    """Refuse a file that another option of the same command line also names, where either writes it (``--save
    x.npz --csv x.npz``, ``show s.npz --csv s.npz``): one would overwrite the other, or the input it reads."""
    if ctx is None or param is None:
        return
    key = os.path.realpath(path)
    seen = ctx.meta.setdefault(_PATHS, {})
    name = param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
    other, other_output = seen.get(key, (None, False))
    if other is not None and other != name and (output or other_output):
        raise click.BadParameter(f"{path} is also given to {other}: give each file its own name", ctx, param)
    seen[key] = (name, output or other_output)


def _option(param) -> str:
    return param.opts[0] if param is not None and param.opts else "output"


def _plain(err, param) -> str:
    """A message from ``cgbase.files`` without the option's name, which click puts in front."""
    text = str(err)
    name = _option(param)
    return text[len(name):].strip(" :") if text.startswith(name) else text


MAX_TEXT = 10_000  # characters of any text option
BOUND = Integer(1)
SEED = Integer(0, 2**32 - 1)
WORKERS = Integer(1, MAX_WORKERS, "one process or Ray CPU each")
REPEATS = Integer(1, 10_000, "one run per seed and setting")
TEXT = Text()
GAME = GameName()
GAME_WORD = GameWord()
OUTPUT_FILE = OutputFile()
OUTPUT_FOLDER = OutputFolder()
INPUT_FILE = InputFile()


def name_list(text: str, what: str, known=None) -> list[str]:
    """Names apart by commas (``--learners q,qt``), at least one, each among ``known`` when given.

    Examples
    --------
    >>> name_list("q, bayes", "--learners", ("q", "qt", "bayes"))
    ['q', 'bayes']
    >>> name_list(",", "--learners", ("q", "qt", "bayes"))
    Traceback (most recent call last):
    ...
    ValueError: --learners takes names apart by commas among q, qt, bayes; got ','
    >>> name_list("q,q", "--learners")
    Traceback (most recent call last):
    ...
    ValueError: --learners names 'q' twice: name each once
    """
    names = [word.strip() for word in text.split(",") if word.strip()]
    if not names or (known is not None and any(name not in known for name in names)):
        among = f" among {', '.join(known)}" if known is not None else ""
        raise ValueError(f"{what} takes names apart by commas{among}; got {text!r}")
    if len(set(names)) < len(names):
        raise ValueError(f"{what} names {next(n for n in names if names.count(n) > 1)!r} twice: name each once")
    return names


def int_list(text: str, what: str, low: int = 1) -> tuple[int, ...]:
    """Integers apart by commas (``--hidden 128,128``, ``--seeds 0,1,2``), each at least ``low``, in digits 0-9.

    Examples
    --------
    >>> int_list("128, 64", "--hidden")
    (128, 64)
    >>> int_list("3,٣", "--hidden")
    Traceback (most recent call last):
    ...
    ValueError: --hidden takes integers of at least 1 apart by commas, such as 4,4; got '3,٣'
    """
    words = [word for word in text.split(",") if word.strip()]
    try:
        values = tuple(integer_text(word, what, low) for word in words)
    except ValueError:
        values = ()
    if not values:
        raise ValueError(f"{what} takes integers of at least {low} apart by commas, such as {low + 3},{low + 3}; "
                         f"got {text!r}")
    return values


class LearnerChoice(click.Choice):
    """The registered learners (``learners.registry``; those that leave a value table or take opponents when
    asked), read when first needed so that ``discover --help`` imports no learner."""

    def __init__(self, **query):
        self.query = query
        super().__init__([])

    @property
    def choices(self):
        from learners.registry import learner_names

        return tuple(learner_names(**self.query))

    @choices.setter
    def choices(self, value):
        pass


def game_arguments(func):
    """The ``GAME [NAME=VALUE]...`` arguments of a command, and ``--game-file FILE.py`` and ``--game-spec FILE.toml``
    in their place: the command's function receives ``game`` and ``params`` and makes the game with
    ``game_from_words``, which reads the file options this decorator keeps in the click context."""

    @functools.wraps(func)
    def command(*args, game_file=None, game_spec=None, **kwargs):
        click.get_current_context().meta[_GAME_FILES] = (game_file, game_spec)
        return func(*args, **kwargs)

    options = [
        click.argument("game", type=GAME, required=False),
        click.argument("params", nargs=-1, type=GAME_WORD, metavar="[NAME=VALUE]..."),
        click.option("--game-file", type=INPUT_FILE, metavar="FILE.py", default=None,
                     help="A Python file that builds the game with the public API (a variable named `game`), "
                          "instead of GAME [NAME=VALUE]..."),
        click.option("--game-spec", type=INPUT_FILE, metavar="FILE.toml", default=None,
                     help="A declared game, instead of GAME [NAME=VALUE]...: a TOML or JSON file of move rules (see "
                          "games.declared); nothing in it is run."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


_GAME_FILES = "discover.game_files"  # the click context's record of --game-file and --game-spec
_SAID = "discover.toolkit_views"  # the OpenSpiel games whose reading as a toolkit game was said


def load_game_file(path: str):
    """The game a Python file builds: its variable ``game``, or its only ``Game`` instance."""
    import runpy

    from games import Game

    if not os.path.isfile(path):
        raise ValueError(f"no game file at {path}")
    try:
        namespace = runpy.run_path(path)
    except SystemExit as err:  # sys.exit() in the file must not end discover silently
        raise ValueError(f"{path} called sys.exit({err.code!r}) instead of defining a game") from None
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # the user's file failed (even with its own BaseException): one line naming it
        # and its failing line
        from games.custom import failing_line

        raise ValueError(f"{path} failed to run: {type(err).__name__}: {err}{failing_line(err, path)}") from None
    if isinstance(namespace.get("game"), Game):
        return namespace["game"]
    games = [v for k, v in namespace.items() if isinstance(v, Game) and not k.startswith("_")]
    if len(games) != 1:
        raise ValueError(f"{path} must define one game, e.g. game = custom_game('name', moves, dims=2)")
    return games[0]


def _file_record(path: str) -> dict:
    """A game file's name and the SHA-256 of its bytes, as reports record it (``Game.source_file``)."""
    import hashlib

    with open(path, "rb") as handle:
        return {"file": os.path.basename(path), "sha256": hashlib.sha256(handle.read()).hexdigest()}


def game_from_words(name: str | None, words, required: bool = True) -> object:
    """The game named by a family and ``name=value`` words, as typed on the command line, or read from the
    ``--game-file`` or ``--game-spec`` that ``game_arguments`` took (one of the three, never two); None when none
    is given and the game is not ``required``.

    Rule discovery (``rule``, ``report``) refuses board games here, before any work, with the
    command that solves them instead; Notakto passes (its rule over boards is a misère quotient).
    """
    from games import parse_params, read_game_spec
    from games.openspiel_names import is_openspiel_name

    ctx = click.get_current_context(silent=True)
    game_file, game_spec = (ctx.meta.get(_GAME_FILES, (None, None)) if ctx is not None else (None, None))
    words = list(words)
    if len([x for x in (name, game_file, game_spec) if x]) > 1:
        raise ValueError("give one of a game name (with its NAME=VALUE words), --game-file or --game-spec")
    if game_spec is not None or game_file is not None:
        path = game_spec if game_spec is not None else game_file
        game = read_game_spec(path) if game_spec is not None else load_game_file(path)
        game.source_file = _file_record(path)
    elif not name and not required:
        return None
    elif not name:
        raise ValueError("name a game (see 'discover games'), or give --game-file FILE.py or --game-spec FILE.toml")
    else:
        game = _made(name, parse_params(name, words))
    if ctx is not None and ctx.info_name in RULE_COMMANDS and is_openspiel_name(getattr(game, "name", None)):
        game = _toolkit_game(game, ctx.meta.setdefault(_SAID, set()))
    if ctx is not None and ctx.info_name in RULE_COMMANDS and getattr(game, "name", None) != "notakto":
        from discover.bounds import check_rule_game

        again = ["--game-spec", game_spec] if game_spec else ["--game-file", game_file] if game_file else [name, *words]
        check_rule_game(game, "'" + " ".join(["discover solve", *again]) + "'")
    return game


def _toolkit_game(game, said: set):
    """The toolkit game an OpenSpiel game's states are positions of (``games.openspiel_heaps``: OpenSpiel's Nim is
    ``nim``), the map checked on every state and said once (``said``) in one line on stderr; its rule is the
    OpenSpiel game's."""
    from games.openspiel_heaps import as_toolkit_game

    view = as_toolkit_game(game)
    if repr(game) not in said:
        said.add(repr(game))
        click.echo(wrap(view.line(), terminal_width()), err=True)
    return view.like


def _made(name: str, params: dict):
    """``make_game(name, **params)``; an OpenSpiel game's states are counted on a spinner while they are
    enumerated (a game refused for its size takes a while to count)."""
    from games import make_game
    from games.openspiel_names import is_openspiel_name

    if not is_openspiel_name(name):
        return make_game(name, **params)
    from games.openspiel import openspiel_game

    with spinner(f"enumerating the states of {name}") as words:
        return openspiel_game(name, params, progress=lambda n, cap: words(f"{name}: {n:,} states (at most {cap:,})"))


def typed_params(cls, words, what: str) -> dict:
    """``name=value`` words as keyword parameters of ``cls``'s constructor, each converted to its annotated type
    (bool from true/false, int, float, text); an unknown name or a value of the wrong kind is a ``ValueError``.

    Examples
    --------
    >>> class Learner:
    ...     def __init__(self, *, width: int = 8, rate: float = 0.1, joint: bool = False): ...
    >>> typed_params(Learner, ["width=16", "joint=true"], "--learner")
    {'width': 16, 'joint': True}
    """
    import inspect

    signature = inspect.signature(cls.__init__)
    known = {name: p for name, p in signature.parameters.items() if name not in ("self", "random_state")}
    params = {}
    for word in words:
        name, eq, value = word.partition("=")
        if not eq or name not in known:
            raise ValueError(f"{what} takes name=value words naming {', '.join(known)}; got {word!r}")
        if name in params:
            raise ValueError(f"{what}: {name} is given twice; give it once")
        kind = known[name].annotation if isinstance(known[name].annotation, str) else \
            getattr(known[name].annotation, "__name__", "str")
        try:
            if kind == "bool":
                if value.lower() not in ("true", "false"):
                    raise ValueError
                params[name] = value.lower() == "true"
            elif kind == "int":
                params[name] = integer_text(value, name)
            elif kind == "float":
                params[name] = number_text(value, name)
            else:
                params[name] = value
        except ValueError:
            raise ValueError(f"{what}: {name} must be {kind}, got {value!r}") from None
    return params


def given(*names: str) -> list[str]:
    """The options among ``names`` (parameter names, such as ``"episodes"``) typed on the running command line,
    as ``--episodes``: an option that the others make meaningless is refused, not silently ignored."""
    ctx = click.get_current_context()
    return [f"--{name.replace('_', '-')}" for name in names
            if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE]


def say(message: str) -> None:
    """Print a message on stdout, wrapped on words to the terminal's width (plain in a pipe or a file)."""
    click.echo(wrap(message, terminal_width()))


def print_rows(title: str, rows) -> None:
    """A titled table of (name, value) rows: boxed by rich on a terminal, plain aligned lines in a pipe or a file.

    Examples
    --------
    >>> print_rows("nim(heaps=2)", [("positions", "16"), ("losses (P)", "4")])
    nim(heaps=2)
      positions   16
      losses (P)  4
    """
    from cgbase.progress import may_style

    console = None
    if may_style(sys.stdout):
        from rich.console import Console

        console = Console()
    if console is None or not console.is_terminal:
        width = max((len(key) for key, _ in rows), default=0)
        lines = [title]
        for key, value in rows:
            first, *rest = str(value).split("\n")
            lines += [f"  {key:<{width}}  {first}".rstrip(), *(f"  {'':<{width}}  {line}".rstrip() for line in rest)]
        click.echo("\n".join(lines))
        return
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(title), show_header=False, box=box.SIMPLE, title_justify="left")
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, value in rows:
        table.add_row(Text(key), Text(str(value)))
    console.print(table)


def spinner(message: str):
    """A spinner with the elapsed time on stderr while a step runs (only on a terminal; stdout is never touched);
    the context yields a function that changes the words."""
    from cgbase.progress import status

    return status(message)


def output_folder(given, default: str, markers, force: bool | None = None) -> str:
    """The folder a command writes (``--out``, else ``default``), checked before any work (``cgbase.files``).

    With ``force`` False (a command with ``force_option``), a folder that holds an earlier run (every one of
    ``markers``) is refused: the run is replaced only with ``--force``; a folder of anything else is refused
    whatever ``force`` says. ``force`` None (commands without the option) replaces an earlier result.

    Examples
    --------
    >>> import os, tempfile
    >>> run = tempfile.mkdtemp()
    >>> open(os.path.join(run, "history.json"), "w").close()
    >>> output_folder(run, "unused", ("history.json",), force=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ... holds an earlier run: give --force to replace it, or another --out
    >>> output_folder(run, "unused", ("history.json",), force=True) == run
    True
    """
    from cgbase.files import check_output_folder

    folder = given if given is not None else default
    target = check_output_folder(folder, markers, "--out" if given is not None else "output folder")
    if force is False and markers and target.is_dir() and all((target / m).is_file() for m in markers):
        raise ValueError(f"{folder} holds an earlier run: give --force to replace it, or another --out")
    return folder


def force_option(func):
    """--force: replace the earlier run in the output folder (without it such a folder is refused, never overwritten)."""
    return click.option("--force", is_flag=True,
                        help="Replace the earlier run in the output folder (without it, a folder holding one is "
                             "refused).")(func)


def check_output_file(path, what: str) -> None:
    """Refuse, before any work, an output file that could not be written (``cgbase.files``)."""
    from cgbase.files import check_output_file as check

    check(path, what)


def command_line() -> str:
    """The running command as the user typed it (for reports)."""
    import shlex

    ctx = click.get_current_context(silent=True)
    argv = (ctx.find_root().obj or {}).get("argv", []) if ctx is not None else []
    return shlex.join(["discover", *argv])


def parallel_options(func):
    """--backend, --address and --workers: where independent jobs run (cgbase.parallel.Workers)."""
    options = [
        click.option("--backend", type=click.Choice(["local", "ray", "serial"]), default="local", show_default=True,
                     help="local: worker processes on this machine; ray: a Ray instance (pip install "
                          "'cgdiscover[ray]'); serial: one run after another in this process."),
        click.option("--address", type=TEXT, default=None, metavar="ADDR",
                     help="The Ray cluster to join (auto, HOST:PORT or ray://HOST:PORT); default: a local instance."),
        click.option("--workers", type=WORKERS, default=None,
                     help="Worker processes, or the local Ray instance's CPUs (default: one per core)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func
