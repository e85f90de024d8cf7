"""``check_command``: every command of ``discover`` refuses hostile input in one line, cheaply, touching nothing.

The commands are found by walking the click group (``command_paths``), so a new command or option is
checked with no new test code. Each parameter's declared type (``discover.app.cli.common``: ``Integer``,
``Number``, ``Text``, ``GameName``, ``GameWord``, ``OutputFile``, ``OutputFolder``, ``InputFile``; click's
``Choice`` and flags) gives its hostile values (``hostile_values``): empty text, zero and negative counts,
integers past int64, NaN and infinities, unicode digits, duplicate and unknown names, devices, a FIFO, a
symbolic link, the current folder and an existing folder of something else. Each value goes into the
command line built from valid samples of the required arguments (``valid_argv``), one at a time, and the
command is run in this process in a fresh folder holding those special files (``run_case``). It must
exit with status 2, print nothing on stdout and one ``discover: ...`` line on stderr, raise nothing,
refuse within ``seconds`` (a refusal comes before any work) and leave the folder exactly as it was.

A parameter whose type is not declared (plain text, click's int) fails the check: give it a declared type.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import shutil
import signal
import stat
import tempfile
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import click

from cgbase.checks import run_checks
from discover.app.cli import common

__all__ = ["Case", "Outcome", "command_paths", "find_command", "valid_argv", "hostile_values", "hostile_cases",
           "run_case", "check_case", "check_command", "hostile_folder", "GAME_SAMPLE", "SOLUTION_SAMPLE",
           "BUDGET_CASES", "BUDGET_MARGIN", "timed_commands", "check_budget"]

GAME_SAMPLE = "nim"  # the game of every command line; its hostile words below are nim's
SOLUTION_SAMPLE = "solution.npz"  # a valid saved solution in every case's folder (the sample of an input file)
HUGE = 10**25  # past int64
UNICODE_DIGIT = "\u0663"  # ARABIC-INDIC DIGIT THREE: str.isdigit() and int() take it; the toolkit must not
SPECIAL_FILES = ("/dev/null", "/dev/full", "fifo", "link", "folder", "missing/x", "/")
BUDGET_MARGIN = 20.0  # seconds past its budget a command may take to answer (start-up, compiling, the last step)


@dataclass(frozen=True)
class Case:
    """One hostile command line: ``name`` says which parameter and value (a pytest id), ``argv`` is the line."""

    name: str
    argv: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """What a run did: its status (or what it raised instead), its output, and whether its folder changed."""

    code: object
    out: str
    err: str
    changed: tuple[str, ...]


class _TooSlow(BaseException):
    """Raised in the command by the alarm: it did not refuse before doing work."""


# -- the commands -----------------------------------------------------------------------------------------
def command_paths(group: click.Group | None = None, prefix: tuple[str, ...] = ()) -> list[str]:
    """Every command and sub-command of ``group`` (default: ``discover``'s), as words such as ``"solve"``.

    Examples
    --------
    >>> "solve" in command_paths() and "sweep" in command_paths()
    True
    """
    if group is None:
        from discover.app.cli import cli as group
    paths = []
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            paths += command_paths(command, (*prefix, name))
        else:
            paths.append(" ".join((*prefix, name)))
    return paths


def find_command(path: str) -> click.Command:
    """The command named by ``path`` (words of ``command_paths``)."""
    from discover.app.cli import cli

    command = cli
    for word in path.split():
        command = command.commands[word]
    return command


def _sample(param: click.Parameter) -> list[str]:
    """Valid words for a required argument."""
    kind = param.type
    if isinstance(kind, common.GameWord):
        return []
    if isinstance(kind, common.GameName):
        return [GAME_SAMPLE]
    if isinstance(kind, common.InputFile):
        return [SOLUTION_SAMPLE]
    if isinstance(kind, click.Choice):
        return [str(kind.choices[0])]
    raise AssertionError(f"argument {param.name} of type {kind!r} has no valid sample: add one to "
                         "discover.app.cli.checks._sample")


def valid_argv(path: str) -> list[str]:
    """The shortest valid command line: the command's words and a valid sample of each positional argument.

    Examples
    --------
    >>> valid_argv("sweep")
    ['sweep', 'q', 'nim']
    """
    command = find_command(path)
    argv = path.split()
    for param in command.params:
        if isinstance(param, click.Argument):
            argv += _sample(param)
    return argv


# -- the hostile values -----------------------------------------------------------------------------------
def _integers(kind: common.Integer) -> list[str]:
    values = ["", " ", "abc", "1.5", "1e3", "nan", "inf", "-inf", UNICODE_DIGIT, "1_0", "0x10", "+", str(HUGE),
              f"-{HUGE}", str(kind.high + 1)]
    if kind.low is not None:
        values.append(str(kind.low - 1))
    return values


def _numbers(kind: common.Number) -> list[str]:
    values = ["", "abc", "nan", "-nan", "inf", "-inf", "1e999", UNICODE_DIGIT, "0x1p3", "1,5"]
    for end, is_open, step in ((kind.low, kind.low_open, -1), (kind.high, kind.high_open, 1)):
        if end not in (float("inf"), float("-inf")):
            values.append(repr(float(end + step)))
            if is_open:
                values.append(repr(float(end)))
    return values


def _texts(param: click.Parameter) -> list[str]:
    values = ["\x00", "\x1b[2J", "x" * (common.MAX_TEXT + 1), UNICODE_DIGIT, "-1", ","]
    if param.default != "":
        values += ["", "   "]
    return values


def _read_only() -> list[str]:
    """A path in a read-only folder, where permissions bind (not for root, whom they do not stop)."""
    return ["readonly/x"] if os.geteuid() != 0 else []


def _output_files() -> list[str]:
    return ["", *SPECIAL_FILES, ".", *_read_only()]


def _output_folders() -> list[str]:
    return ["", ".", "..", "/", "/dev/null", "fifo", "link", "file.txt", "folder", *_read_only()]


def _input_files() -> list[str]:
    return ["", "/dev/null", "/dev/full", "fifo", "folder", "missing.npz", "dangling"]


def _game_words() -> list[list[str]]:
    return [["heaps=3", "heaps=4"], ["heaps"], ["=3"], ["heapz=3"], ["heaps="], [f"heaps={UNICODE_DIGIT}"],
            ["heaps=-1"], ["heaps=0"], [f"heaps={HUGE}"], ["heaps=nan"], ["heaps=1.5"], ["misere=maybe"],
            ["heaps=3", "misere=true", "misere=false"], ["\x00=1"]]


def hostile_values(param: click.Parameter) -> list:
    """The values no command may accept for ``param``, by its declared type: words, or for the game's
    ``NAME=VALUE`` words lists of words.

    Examples
    --------
    >>> bound = next(p for p in find_command("solve").params if p.name == "bound")
    >>> "nan" in hostile_values(bound)
    True
    """
    kind = param.type
    if isinstance(param, click.Option) and param.is_flag:
        return ["1"]  # --json=1: a flag takes no value
    for declared, values in ((common.Integer, _integers), (common.Number, _numbers), (common.OutputFile, None),
                             (common.OutputFolder, None), (common.InputFile, None), (common.GameWord, None),
                             (common.Text, None), (click.Choice, None)):
        if isinstance(kind, declared):
            break
    else:
        raise AssertionError(f"{param.name} has the undeclared type {kind!r}: give it a type of discover.app.cli.common")
    if isinstance(kind, common.Integer):
        return _integers(kind)
    if isinstance(kind, common.Number):
        return _numbers(kind)
    if isinstance(kind, common.OutputFile):
        return _output_files()
    if isinstance(kind, common.OutputFolder):
        return _output_folders()
    if isinstance(kind, common.InputFile):
        return _input_files()
    if isinstance(kind, common.GameWord):
        return _game_words()
    if isinstance(kind, common.GameName):
        return ["", "no_such_game", UNICODE_DIGIT, "\x00"]
    if isinstance(kind, common.Text):
        return _texts(param)
    choices = [str(c) for c in kind.choices]
    return ["", "no-such-choice", UNICODE_DIGIT, *([choices[0].upper()] if choices[0].upper() not in choices else [])]


def hostile_cases(path: str) -> list[Case]:
    """Every hostile command line of the command ``path``: one per parameter and hostile value, an unknown
    option, an option given twice, and one file given to two options where one writes it.

    Examples
    --------
    >>> cases = hostile_cases("solve")
    >>> any(c.argv == ("solve", "nim", "heaps=3", "heaps=4") for c in cases)
    True
    >>> ("solve", "nim", "--save=same", "--csv=same") in [c.argv for c in cases]
    True
    """
    command = find_command(path)
    base = valid_argv(path)
    words = len(path.split())
    cases = [Case("unknown-option", (*base, "--no-such-option")), Case("unknown-option-value", (*base, "--no-such=1"))]
    position = words
    for param in command.params:
        if isinstance(param, click.Argument):
            for i, value in enumerate(hostile_values(param)):
                given = value if isinstance(value, list) else [value]
                sample = _sample(param)
                argv = base[:position] + given + base[position + len(sample):]
                cases.append(Case(f"{param.name}-{i}", tuple(argv)))
            position += len(_sample(param))
            continue
        name = param.opts[0]
        for i, value in enumerate(hostile_values(param)):
            cases.append(Case(f"{name.lstrip('-')}-{i}", (*base, f"{name}={value}")))
        if not param.is_flag:
            good = {common.Integer: "1", common.Number: "0.5"}.get(type(param.type))
            if good is not None:
                cases.append(Case(f"{name.lstrip('-')}-twice", (*base, f"{name}={good}", f"{name}={good}")))
    return cases + _same_file_cases(command, base)


def _same_file_cases(command: click.Command, base: list[str]) -> list[Case]:
    """One file named by two options where one writes it (``--save x --csv x``, ``show s.npz --csv s.npz``): the
    one would overwrite the other or the input it reads. An input is the sample solution, which must not change."""
    files = (common.OutputFile, common.OutputFolder, common.InputFile)
    options = [p for p in command.params if isinstance(p, click.Option) and isinstance(p.type, files)]
    reads = any(isinstance(p, click.Argument) and isinstance(p.type, common.InputFile) for p in command.params)
    cases = []
    for i, first in enumerate(options):
        if not isinstance(first.type, (common.OutputFile, common.OutputFolder)):
            continue
        if reads:  # the command's own input file, already in the line
            cases.append(Case(f"same-file-{first.opts[0].lstrip('-')}-input", (*base, f"{first.opts[0]}={SOLUTION_SAMPLE}")))
        for second in options[i + 1:] + [o for o in options[:i] if isinstance(o.type, common.InputFile)]:
            name = SOLUTION_SAMPLE if isinstance(second.type, common.InputFile) else "same"
            cases.append(Case(f"same-file-{first.opts[0].lstrip('-')}-{second.opts[0].lstrip('-')}",
                              (*base, f"{first.opts[0]}={name}", f"{second.opts[0]}={name}")))
    return cases


# -- running one case -------------------------------------------------------------------------------------
@contextmanager
def hostile_folder():
    """A fresh folder holding the special paths of the hostile values and a valid saved solution; yields it."""
    folder = Path(tempfile.mkdtemp(prefix="discover-hostile-"))
    try:
        os.mkfifo(folder / "fifo")
        (folder / "file.txt").write_text("keep\n")
        (folder / "link").symlink_to(folder / "file.txt")
        (folder / "dangling").symlink_to(folder / "nowhere")
        (folder / "folder").mkdir()
        (folder / "folder" / "keep.txt").write_text("keep\n")
        (folder / "readonly").mkdir()
        (folder / "readonly" / "keep.txt").write_text("keep\n")
        os.chmod(folder / "readonly", 0o555)
        shutil.copyfile(_solution_sample(), folder / SOLUTION_SAMPLE)
        yield folder
    finally:
        os.chmod(folder / "readonly", 0o755)
        shutil.rmtree(folder, ignore_errors=True)


_SOLUTION: list[str] = []


def _solution_sample() -> str:
    """A small saved solution (Nim, two heaps of at most 3), written once per process."""
    if not _SOLUTION:
        from games import make_game
        from solvers import solve

        path = os.path.join(tempfile.mkdtemp(prefix="discover-sample-"), SOLUTION_SAMPLE)
        solve(make_game("nim", heaps=2), bound=3).save(path)
        _SOLUTION.append(path)
    return _SOLUTION[0]


def _snapshot(folder: Path) -> dict:
    """Every path under ``folder`` with its kind, mode, size and content digest (symbolic links not followed)."""
    found = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            info = os.lstat(path)
            digest = ""
            if stat.S_ISREG(info.st_mode):
                with open(path, "rb") as handle:
                    digest = hashlib.sha256(handle.read()).hexdigest()
            found[os.path.relpath(path, folder)] = (stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode),
                                                    info.st_size, digest)
    return found


def _too_slow(signum, frame):
    raise _TooSlow


def run_case(argv, folder: Path, seconds: float = 20.0) -> Outcome:
    """Run ``discover ARGV`` in this process inside ``folder``; what it did (see ``Outcome``)."""
    from discover.app.cli import main

    out, err = io.StringIO(), io.StringIO()
    before = _snapshot(folder)
    here = os.getcwd()
    previous = signal.signal(signal.SIGALRM, _too_slow)
    os.chdir(folder)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(argv))
    except _TooSlow:
        code = f"still running after {seconds:g} s: it did the work instead of refusing"
    except SystemExit as stop:
        code = f"SystemExit({stop.code!r})"
    except BaseException as error:  # noqa: BLE001 - any escape is the finding
        code = f"raised {type(error).__name__}: {error}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        os.chdir(here)
    after = _snapshot(folder)
    changed = tuple(sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k)))
    return Outcome(code, out.getvalue(), err.getvalue(), changed)


def check_case(case: Case, seconds: float = 20.0) -> None:
    """Run one hostile case in a fresh folder; an ``AssertionError`` saying what went wrong."""
    with hostile_folder() as folder:
        outcome = run_case(case.argv, folder, seconds)
    shown = " ".join(repr(word) if not word or not word.isprintable() or " " in word else word
                     for word in case.argv)[:300]
    lines = outcome.err.splitlines()
    assert outcome.code == 2, f"discover {shown} [{case.name}]: status {outcome.code!r}, stderr {outcome.err[-500:]!r}"
    assert "Traceback" not in outcome.err, f"discover {shown}: a traceback: {outcome.err[-500:]!r}"
    assert len(lines) == 1 and lines[0].startswith("discover: "), f"discover {shown}: stderr {outcome.err!r}"
    assert outcome.out == "", f"discover {shown}: printed {outcome.out[:300]!r} before refusing"
    assert not outcome.changed, f"discover {shown}: changed {', '.join(outcome.changed)} before refusing"


def check_command(path: str, seconds: float = 20.0) -> None:
    """Run every hostile case of the command ``path``; the first failure is an ``AssertionError`` naming it.

    Examples
    --------
    >>> check_command("games")
    """
    run_checks(functools.partial(check_case, case, seconds) for case in hostile_cases(path))


# -- budgets ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BudgetCase(Case):
    """Slow work given a small time budget: ``seconds``, the budget its ``argv`` names."""

    seconds: float = 3.0


#: work that runs for minutes (or fills the memory) unless its time option holds: each must answer within its
#: budget and ``BUDGET_MARGIN`` (a result, or one line with status 2), with nothing half-written
BUDGET_CASES = (
    BudgetCase("quotient-growth", ("hexadecimal", "code=0.FF", "misere=true", "--seconds", "3"), 3.0),
    BudgetCase("notakto-boards-7x7", ("notakto", "n=7", "boards=2", "--seconds", "3"), 3.0),
    BudgetCase("notakto-sums-of-5", ("notakto", "n=3", "boards=5", "--seconds", "3"), 3.0),
    BudgetCase("report-boards-7x7", ("report", "notakto", "n=7", "boards=2", "--seconds", "3", "--out", "r"), 3.0),
    BudgetCase("rule-boards-7x7", ("rule", "notakto", "n=7", "boards=2", "--seconds", "3", "--json"), 3.0),
    BudgetCase("rule-engines-3d-wythoff", ("wythoff_nd", "heaps=3", "--seconds", "3"), 3.0),
    BudgetCase("rule-take-and-break-open", ("grundy_game", "--seconds", "3"), 3.0),
)


def timed_commands() -> list[str]:
    """The commands with an option that names a time (``--seconds``, ``--proof-seconds``): each needs a budget case.

    Examples
    --------
    >>> "rule" in timed_commands()
    True
    """
    return [path for path in command_paths()
            if any("second" in (p.name or "") for p in find_command(path).params)]


def check_budget(case: BudgetCase) -> None:
    """Run one budget case in a fresh folder; an ``AssertionError`` when it did not answer within its budget and
    ``BUDGET_MARGIN``, left a traceback, or refused in more than one line or after writing."""
    with hostile_folder() as folder:
        outcome = run_case(case.argv, folder, case.seconds + BUDGET_MARGIN)
    shown = " ".join(case.argv)
    assert outcome.code in (0, 1, 2), f"discover {shown} [{case.name}]: {outcome.code!r}, stderr {outcome.err[-500:]!r}"
    assert "Traceback" not in outcome.err, f"discover {shown}: a traceback: {outcome.err[-500:]!r}"
    if outcome.code == 2:
        lines = outcome.err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("discover: "), f"discover {shown}: stderr {outcome.err!r}"
        assert not outcome.changed, f"discover {shown}: changed {', '.join(outcome.changed)} before refusing"
