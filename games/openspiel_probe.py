"""Loading an OpenSpiel game without letting its C++ end this process.

OpenSpiel checks some parameters and not others: ``connect_four(rows=0)`` ends the process with a segmentation
fault, ``connect_four(rows=2147483647)`` allocates without end.  ``probe`` first loads the game and plays a few
seeded random games in a forked child with a memory and a time limit, so such parameters are refused in one line;
``quiet_stderr`` silences the errors OpenSpiel's C++ writes to stderr itself (the ``ValueError`` carries them).
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sys
import time

from cgbase.memory import memory_limit

__all__ = ["probe", "quiet_stderr", "first_line", "PROBE_SECONDS", "PROBE_PLAYS"]

PROBE_SECONDS = 8.0  # a probe still running then is stopped and the game refused
PROBE_PLAYS = 3  # seeded random games played by the probe
PROBE_STEPS = 10_000  # moves per game at most


@contextlib.contextmanager
def quiet_stderr():
    """Silence file descriptor 2 (OpenSpiel's C++ prints its errors there before raising them).

    Examples
    --------
    >>> with quiet_stderr():
    ...     pass
    """
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def first_line(err: BaseException) -> str:
    """The first line of an OpenSpiel error, without its ``OpenSpiel exception:`` prefix.

    Examples
    --------
    >>> first_line(RuntimeError("OpenSpiel exception: rows_ >= 1\\nrows_ = 0"))
    'rows_ >= 1'
    """
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    text = lines[0] if lines else type(err).__name__
    return text.removeprefix("OpenSpiel exception: ")[:300]


def _play(pyspiel, game: str, params: dict) -> None:
    """Load the game and play ``PROBE_PLAYS`` seeded random games (the child's work)."""
    loaded = pyspiel.load_game(game, params)
    obs = loaded.get_type().provides_observation_tensor
    rng = random.Random(0)
    for _ in range(PROBE_PLAYS):
        state = loaded.new_initial_state()
        for _ in range(PROBE_STEPS):
            if state.is_terminal() or state.is_chance_node() or state.is_simultaneous_node():
                break
            str(state)
            if obs:
                state.observation_tensor(0)
            actions = state.legal_actions()
            state.action_to_string(state.current_player(), actions[0])
            state.apply_action(rng.choice(actions))
        if state.is_terminal():
            state.returns()


def probe(pyspiel, game: str, params: dict, seconds: float = PROBE_SECONDS) -> None:
    """Load ``game`` with ``params`` and play a few random games in a forked child first; a ``ValueError`` if
    OpenSpiel raises, crashes, runs out of memory (``cgbase.memory.memory_limit``) or takes over ``seconds``.

    Where ``os.fork`` is missing, nothing is probed.

    Examples
    --------
    >>> import pyspiel
    >>> probe(pyspiel, "tic_tac_toe", {})
    >>> probe(pyspiel, "connect_four", {"rows": 0})
    Traceback (most recent call last):
    ...
    ValueError: OpenSpiel crashed (SIGSEGV) loading or playing connect_four with {'rows': 0}: give other parameters
    """
    if not hasattr(os, "fork"):  # pragma: no cover - Windows
        return
    import resource

    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child, measured by its exit
        message = b"ok"
        try:
            import faulthandler

            faulthandler.disable()  # a crash is the finding, reported by the exit status; no dump on the terminal
            os.close(read)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            limit = memory_limit()
            resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
            _play(pyspiel, game, params)
        except BaseException as err:  # noqa: BLE001 - any failure is reported to the parent
            message = ("error:" + first_line(err)).encode()[:2000]
        os.write(write, message)
        os._exit(0)
    os.close(write)
    deadline = time.monotonic() + seconds
    status = None
    try:
        while status is None:
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = code
            elif time.monotonic() > deadline:
                raise ValueError(f"OpenSpiel did not load and play {game} with {params} within {seconds:g} s: "
                                 "give smaller parameters")
            else:
                time.sleep(0.005)
        with os.fdopen(read, "rb") as pipe:
            read = None
            message = pipe.read().decode(errors="replace")
    finally:
        if status is None:  # interrupted (or timed out): the child goes too
            with contextlib.suppress(ProcessLookupError, ChildProcessError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        if read is not None:
            os.close(read)
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        raise ValueError(f"OpenSpiel crashed ({name}) loading or playing {game} with {params}: give other parameters")
    if message.startswith("error:"):
        raise ValueError(f"OpenSpiel cannot load or play {game} with {params}: {message[6:]}")
    if message != "ok":
        raise ValueError(f"OpenSpiel ended while loading or playing {game} with {params}: give other parameters")
