"""Ctrl-C: one line "interrupted", status 130, within a second or two, nothing half-written.

Python turns SIGINT into ``KeyboardInterrupt`` only between bytecodes of the main thread, and a compiled
kernel (numba, run without the GIL) can take many seconds to return. ``watch()`` has the signal written to a
pipe the moment it arrives (``signal.set_wakeup_fd``); a watchdog thread reads it, gives the main thread
``GRACE`` seconds to stop by itself (the command then prints "interrupted" and returns 130), and otherwise
erases the progress line (``cgbase.progress.clear``), removes the files still being written (``cgbase.files.remove_pending``) and ends the process with status 130.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager

__all__ = ["watch", "GRACE", "EXIT_INTERRUPTED"]

GRACE = 1.0  # seconds the main thread has to stop by itself
EXIT_INTERRUPTED = 130


@contextmanager
def watch():
    """Watch for Ctrl-C while the body runs (in the main thread; elsewhere this does nothing)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    read, write = os.pipe()
    os.set_blocking(write, False)
    previous = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    finished = threading.Event()
    # named for cgbase.parallel.fork_is_safe: it holds no lock (it blocks in os.read), so workers may still fork
    watchdog = threading.Thread(target=_watchdog, args=(read, finished), daemon=True, name="fork-safe Ctrl-C watchdog")
    watchdog.start()
    try:
        yield
    finally:
        finished.set()
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
        if signal.SIGINT in data and not finished.wait(GRACE):
            from cgbase.files import remove_pending
            from cgbase.progress import clear

            clear()  # erase the progress line first: nothing may be drawn after the message
            sys.stderr.write("discover: interrupted\n")
            sys.stderr.flush()
            remove_pending()
            os._exit(EXIT_INTERRUPTED)
