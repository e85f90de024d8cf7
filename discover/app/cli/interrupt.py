"""Ctrl-C and SIGTERM: one line "interrupted", status 130 (143 for SIGTERM), within a second or two, nothing
half-written.

Python turns SIGINT into ``KeyboardInterrupt`` only between bytecodes of the main thread, and a compiled
kernel (numba, run without the GIL) can take many seconds to return. ``watch()`` makes SIGTERM raise
``Terminated`` (a ``KeyboardInterrupt``, so that every clean-up that handles Ctrl-C handles it too) and has
either signal written to a pipe the moment it arrives (``signal.set_wakeup_fd``); a watchdog thread reads it,
gives the main thread ``GRACE`` seconds to stop by itself (the command then prints "interrupted" and returns
the status), and otherwise erases the progress line (``cgbase.progress.clear``), removes the files still being
written (``cgbase.files.remove_pending``) and ends the process with the status.

An interruption that arrives while numba runs Python code of its own (unpickling a constant or an exception
on the way out of a kernel) reaches the caller as a ``SystemError`` whose cause is the ``KeyboardInterrupt``;
``interruption`` finds it in the chain.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager

__all__ = ["watch", "interruption", "exit_status", "Terminated", "GRACE", "EXIT_INTERRUPTED", "EXIT_TERMINATED"]

GRACE = 1.0  # seconds the main thread has to stop by itself
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a process Ctrl-C ended
EXIT_TERMINATED = 143  # 128 + SIGTERM


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: the command stops as it does on Ctrl-C, with status 143."""


def interruption(err: BaseException) -> KeyboardInterrupt | None:
    """The ``KeyboardInterrupt`` that ``err`` is, or that its chain of causes and contexts holds; else None.

    Examples
    --------
    >>> try:
    ...     try:
    ...         raise KeyboardInterrupt
    ...     except KeyboardInterrupt as stop:
    ...         raise SystemError("returned a result with an exception set") from stop
    ... except SystemError as err:
    ...     type(interruption(err)).__name__
    'KeyboardInterrupt'
    >>> interruption(ValueError("bad")) is None
    True
    """
    seen = set()
    while err is not None and id(err) not in seen:
        if isinstance(err, KeyboardInterrupt):
            return err
        seen.add(id(err))
        err = err.__cause__ or err.__context__
    return None


def exit_status(stop: KeyboardInterrupt) -> int:
    """130 for Ctrl-C, 143 for SIGTERM."""
    return EXIT_TERMINATED if isinstance(stop, Terminated) else EXIT_INTERRUPTED


def _terminate(signum, frame):
    raise Terminated


@contextmanager
def watch():
    """Watch for Ctrl-C and SIGTERM while the body runs (in the main thread; elsewhere this does nothing)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    read, write = os.pipe()
    os.set_blocking(write, False)
    previous = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    previous_term = signal.signal(signal.SIGTERM, _terminate)
    finished = threading.Event()
    # named for cgbase.parallel.fork_is_safe: it holds no lock (it blocks in os.read), so workers may still fork
    watchdog = threading.Thread(target=_watchdog, args=(read, finished), daemon=True, name="fork-safe Ctrl-C watchdog")
    watchdog.start()
    try:
        yield
    finally:
        finished.set()
        signal.signal(signal.SIGTERM, previous_term)
        signal.set_wakeup_fd(previous)
        os.write(write, b"\0")  # wake the watchdog so that it sees the run is over
        watchdog.join()
        os.close(read)
        os.close(write)


def _watchdog(read: int, finished: threading.Event) -> None:
    while True:
        data = os.read(read, 64)
        if finished.is_set():
            return
        status = (EXIT_TERMINATED if signal.SIGTERM in data else EXIT_INTERRUPTED if signal.SIGINT in data
                  else None)
        if status is not None and not finished.wait(GRACE):
            from cgbase.files import remove_pending
            from cgbase.progress import clear

            clear()  # erase the progress line first: nothing may be drawn after the message
            sys.stderr.write("discover: interrupted\n")
            sys.stderr.flush()
            remove_pending()
            os._exit(status)
