"""What every command shares: games from words, the bound type, messages, a spinner, output paths.

Nothing here imports numpy, numba, sympy or torch at import time, so ``discover --help`` stays fast;
the commands import what they need when they run.
"""

from __future__ import annotations

import click

__all__ = ["BOUND", "LearnerChoice", "RULE_COMMANDS", "game_arguments", "game_from_words", "typed_params", "say",
           "print_rows", "spinner", "output_folder", "check_output_file", "command_line", "parallel_options"]

RULE_COMMANDS = ("rule", "report")  # the commands that fit a rule to the game's table


class BoundType(click.ParamType):
    """A positive integer, with one clear message for anything else."""

    name = "N"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not text.lstrip("+-").isdigit():
                self.fail(f"must be a positive integer, got {value!r}", param, ctx)
            number = int(text)
        if number < 1:
            self.fail(f"must be a positive integer, got {number}", param, ctx)
        return number


BOUND = BoundType()


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
    """The ``GAME [NAME=VALUE]...`` arguments of a command."""
    func = click.argument("params", nargs=-1, metavar="[NAME=VALUE]...")(func)
    return click.argument("game")(func)


def game_from_words(name: str, words) -> object:
    """The game named by a family and ``name=value`` words, as typed on the command line.

    Rule discovery (``rule``, ``report``) refuses board games here, before any work, with the
    command that solves them instead.
    """
    from games import make_game, parse_params

    game = make_game(name, **parse_params(name, list(words)))
    ctx = click.get_current_context(silent=True)
    if ctx is not None and ctx.info_name in RULE_COMMANDS and game.universe_from_start:
        kind = "an impartial" if game.impartial else "a partisan"
        again = " ".join(["discover solve", name, *words])
        raise ValueError(
            f"{game!r} is {kind} board game: rule discovery fits formulas over integer coordinates and verifies "
            f"them on a larger bound, and bitboard positions have neither; solve it exactly with '{again}'"
        )
    return game


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
        kind = known[name].annotation if isinstance(known[name].annotation, str) else \
            getattr(known[name].annotation, "__name__", "str")
        try:
            if kind == "bool":
                if value.lower() not in ("true", "false"):
                    raise ValueError
                params[name] = value.lower() == "true"
            elif kind == "int":
                params[name] = int(value)
            elif kind == "float":
                params[name] = float(value)
            else:
                params[name] = value
        except ValueError:
            raise ValueError(f"{what}: {name} must be {kind}, got {value!r}") from None
    return params


def say(message: str) -> None:
    """Print a message on stdout as it is: no markup, no padding, no wrapping but the terminal's own."""
    click.echo(message)


def print_rows(title: str, rows) -> None:
    """A titled table of (name, value) rows: boxed by rich on a terminal, plain aligned lines in a pipe or a file.

    Examples
    --------
    >>> print_rows("nim(heaps=2)", [("positions", "16"), ("losses (P)", "4")])
    nim(heaps=2)
      positions   16
      losses (P)  4
    """
    from rich.console import Console

    console = Console()
    if not console.is_terminal:
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


def output_folder(given, default: str, markers) -> str:
    """The folder a command writes (``--out``, else ``default``), checked before any work (``cgbase.files``)."""
    from cgbase.files import check_output_folder

    folder = given if given is not None else default
    check_output_folder(folder, markers, "--out" if given is not None else "output folder")
    return folder


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
        click.option("--address", default=None, metavar="ADDR",
                     help="The Ray cluster to join (auto, HOST:PORT or ray://HOST:PORT); default: a local instance."),
        click.option("--workers", type=BOUND, default=None,
                     help="Worker processes, or the local Ray instance's CPUs (default: one per core)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func
