"""Independent jobs side by side: in this process, on local worker processes or on Ray, with the same results.

A job is a function and its arguments. Whatever randomness it uses comes from a seed among its
arguments, so its result never depends on where it ran, on how many workers there were or on the
order in which the jobs finished. ``Workers`` is the one interface every stage that parallelises
goes through (sweeps and repeats of learners, tournaments, AlphaZero's self-play, the move graph
of a game written in Python):

- ``"serial"``: one job after another in this process (the baseline);
- ``"local"`` (the default): worker processes on this machine, one per core unless told, started
  fresh (``spawn``) with one BLAS and torch thread each;
- ``"ray"``: tasks of one CPU on a Ray instance: a local one with ``workers`` CPUs, or the cluster at
  ``address`` (needs the optional extra, ``pip install 'cgdiscover[ray]'``, and the toolkit installed
  on every node).

Functions and arguments travel with cloudpickle (Ray's own serialiser), so a ``moves`` function
written in a game file or a lambda runs in a worker too. This module lives with ``games`` because
every layer above uses it (``solvers.graph`` builds graphs with it, and solvers do not import
learners).
"""

from __future__ import annotations

import os
import socket
from typing import TYPE_CHECKING

from cgbase.validation import at_most, positive_int

if TYPE_CHECKING:  # the executor is imported when workers start (0.02 s a command that runs none saves)
    from concurrent.futures import ProcessPoolExecutor

__all__ = ["BACKENDS", "MAX_WORKERS", "START_METHODS", "Workers", "as_workers", "can_spawn", "default_workers",
           "fork_is_safe"]

BACKENDS = ("serial", "local", "ray")
START_METHODS = ("spawn", "fork")  # how local workers start
PROBE_SECONDS = 5.0  # how long a Ray address may take to accept a connection before it is called unreachable
MAX_WORKERS = 1024  # worker processes (or a local Ray instance's CPUs) at most: each takes a process and its pipes


def default_workers() -> int:
    """One worker per core this process may run on.

    Examples
    --------
    >>> default_workers() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def can_spawn() -> bool:
    """Whether local workers may start here unasked: not inside a worker (no nested pools), and a program whose
    main module a fresh (``spawn``) worker can import without running it again: the interpreter, ``python -m``,
    or a script with an ``if __name__ == "__main__":`` guard (its text is searched, never run).

    Examples
    --------
    >>> isinstance(can_spawn(), bool)
    True
    """
    import multiprocessing
    import re
    import sys

    if multiprocessing.parent_process() is not None:
        return False
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if getattr(main, "__spec__", None) is not None or path is None:
        return True
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            source = handle.read(1 << 20)
    except OSError:
        return False
    return re.search(r"""^if\s+__name__\s*==\s*['"]__main__['"]\s*:""", source, re.MULTILINE) is not None


def _start_methods() -> list:
    import multiprocessing

    return multiprocessing.get_all_start_methods()


def fork_is_safe() -> bool:
    """Whether local workers may start by ``fork`` here: a POSIX system, not inside a worker, and no other Python
    thread running in this process (a lock one of them holds would stay held in the copy for ever), except
    threads whose name starts with ``"fork-safe"``, which promise to hold none (the CLI's Ctrl-C watchdog).

    Examples
    --------
    >>> isinstance(fork_is_safe(), bool)
    True
    """
    import multiprocessing
    import threading

    others = [t for t in threading.enumerate()
              if t is not threading.current_thread() and not t.name.startswith("fork-safe")]
    return "fork" in _start_methods() and multiprocessing.parent_process() is None and not others


class Workers:
    """Where independent jobs run (see the module docstring); a context that stops its workers on leaving.

    Parameters
    ----------
    backend : {"local", "serial", "ray"}
    workers : int, optional
        Worker processes (local) or CPUs of the local Ray instance (default: one per core; serial: 1).
    address : str, optional
        The Ray cluster to join (``"auto"``, ``"HOST:PORT"`` or ``"ray://HOST:PORT"``); only with ``"ray"``.
    start : {"spawn", "fork"}
        How local workers start: ``"spawn"`` (the default) a fresh interpreter that imports what the jobs need;
        ``"fork"`` (POSIX) a copy of this process, started in milliseconds and holding its memory as it was (safe
        only while this process runs no other thread: ``fork_is_safe``); only with ``"local"``.

    Examples
    --------
    >>> with Workers("serial") as pool:
    ...     pool.map(pow, [(2, 3), (3, 2)])
    [8, 9]
    """

    def __init__(self, backend: str = "local", workers: int | None = None, address: str | None = None,
                 start: str = "spawn"):
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")
        if address is not None and backend != "ray":
            raise ValueError(f"an address ({address!r}) names a Ray cluster: use it with backend 'ray'")
        if workers is not None:
            workers = at_most(positive_int(workers, "workers"), "workers", MAX_WORKERS,
                              "each worker is a process (or a Ray CPU) with its own pipes")
        if backend == "serial" and workers not in (None, 1):
            raise ValueError(f"the serial backend runs one job at a time, got workers={workers}: use backend 'local'")
        if start not in START_METHODS:
            raise ValueError(f"unknown start method {start!r}: use one of {', '.join(START_METHODS)}")
        if start != "spawn" and backend != "local":
            raise ValueError(f"start={start!r} starts local worker processes: use it with backend 'local'")
        if start == "fork" and "fork" not in _start_methods():
            raise ValueError("start='fork' needs a POSIX system: use start='spawn'")
        if address is not None:
            _ray_endpoint(address)  # a malformed address fails here, before any work
        self.backend, self.address, self.start_method = backend, address, start
        self.workers = 1 if backend == "serial" else workers if workers is not None else default_workers()
        self._pool = None
        self._ray_owned = False

    def __repr__(self) -> str:
        where = f", address={self.address!r}" if self.address else ""
        return f"Workers({self.backend!r}, workers={self.workers}{where})"

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, *exc) -> bool:
        self.close(kill=exc[0] is not None)
        return False

    def map(self, func, jobs, done=None) -> list:
        """``[func(*job) for job in jobs]``, the jobs run side by side; results in the order of ``jobs``.

        ``done(index, result)``, when given, is called in this process as each job ends (in the order
        they end), e.g. to save results as they come. The first job that raises stops the others and
        its error is raised here.
        """
        jobs = [tuple(job) for job in jobs]
        results = [None] * len(jobs)

        def finish(i, result):
            results[i] = result
            if done is not None:
                done(i, result)

        if not jobs:
            return results
        if self.backend == "serial":
            for i, job in enumerate(jobs):
                finish(i, func(*job))
        elif self.backend == "local":
            self._map_local(func, jobs, finish)
        else:
            self._map_ray(func, jobs, finish)
        return results

    def close(self, kill: bool = False) -> None:
        """Stop the workers (``kill``: at once, dropping the jobs still running); a later ``map`` starts new ones."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            if self.backend == "local":
                _stop_local(pool, kill)
        if self._ray_owned:
            import ray

            ray.shutdown()
            self._ray_owned = False

    # -- local worker processes --------------------------------------------------------
    def _map_local(self, func, jobs, finish) -> None:
        import multiprocessing
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        import cloudpickle

        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context(self.start_method),
                                             initializer=_start_worker)
        payload = cloudpickle.dumps(func)
        futures = {self._pool.submit(_run, payload, cloudpickle.dumps(job)): i for i, job in enumerate(jobs)}
        try:
            pending = set(futures)
            while pending:
                ended, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(ended, key=futures.get):
                    finish(futures[future], future.result())
        except BaseException:
            self.close(kill=True)
            raise

    # -- Ray ---------------------------------------------------------------------------
    def start(self) -> "Workers":
        """Join or start the Ray instance now (other backends start with their first ``map``), so that a bad or
        unreachable address is refused before any work: a ``ValueError`` within about ``PROBE_SECONDS``.

        Examples
        --------
        >>> Workers("serial").start()
        Workers('serial', workers=1)
        """
        if self.backend != "ray":
            return self
        ray = _ray()
        if ray.is_initialized():
            return self
        endpoint = _ray_endpoint(self.address) if self.address is not None else None
        if endpoint is not None:
            _probe(self.address, *endpoint)
        try:  # Ray's own log lines stay in its session folder: only errors reach this terminal
            ray.init(address=self.address, num_cpus=None if self.address else self.workers,
                     include_dashboard=False, logging_level="ERROR", log_to_driver=False)
        except (ConnectionError, TimeoutError, RuntimeError) as err:
            where = f"the Ray cluster at {self.address!r}" if self.address else "a local Ray instance"
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise ValueError(f"could not join {where}: {first}") from None
        self._ray_owned = True
        return self

    def _map_ray(self, func, jobs, finish) -> None:
        import cloudpickle

        ray = _ray()
        self.start()
        if self._pool is None:
            self._pool = ray.remote(num_cpus=1, max_retries=0)(_run)
        payload = ray.put(cloudpickle.dumps(func))
        refs = {self._pool.remote(payload, cloudpickle.dumps(job)): i for i, job in enumerate(jobs)}
        pending = list(refs)
        try:
            while pending:
                ended, pending = ray.wait(pending, num_returns=1)
                try:
                    result = ray.get(ended[0])
                except ray.exceptions.RayTaskError as err:  # the job's own error, not Ray's wrapping of it
                    raise err.cause if isinstance(err.cause, Exception) else err from None
                finish(refs[ended[0]], result)
        except BaseException as err:
            # Ctrl-C stops the jobs at once, killing their workers; after a job's own error the others are only
            # interrupted and awaited, so that no worker is being killed when the next map is sent (it crashed then)
            interrupted = isinstance(err, KeyboardInterrupt)
            for ref in pending:
                ray.cancel(ref, force=interrupted)
            if not interrupted and pending:
                ray.wait(pending, num_returns=len(pending), timeout=PROBE_SECONDS)
            raise


def as_workers(workers) -> Workers:
    """``workers`` as a ``Workers``: None runs in this process, an int is that many local worker processes.

    Examples
    --------
    >>> as_workers(None), as_workers(2)
    (Workers('serial', workers=1), Workers('local', workers=2))
    """
    if isinstance(workers, Workers):
        return workers
    if workers is None:
        return Workers("serial")
    return Workers("local", workers)


def _ray_endpoint(address) -> tuple[str, int] | None:
    """``(host, port)`` of a Ray address, None for ``"auto"``; a ``ValueError`` for anything else."""
    if not isinstance(address, str) or not address.strip():
        raise ValueError(f"a Ray address is 'auto', 'HOST:PORT' or 'ray://HOST:PORT', got {address!r}")
    if address == "auto":
        return None
    rest = address.removeprefix("ray://")
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")  # an IPv6 host in brackets
    if not colon or not host or not port.isascii() or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"a Ray address is 'auto', 'HOST:PORT' or 'ray://HOST:PORT' with a port in 1..65535, "
                         f"got {address!r}")
    return host, int(port)


def _probe(address: str, host: str, port: int) -> None:
    """Refuse, within ``PROBE_SECONDS``, an address where nothing accepts a connection (Ray itself retries for
    minutes, logging a warning every few seconds)."""
    try:
        with socket.create_connection((host, port), timeout=PROBE_SECONDS) as connection:
            reply = _grpc_reply(connection)
    except OSError as err:
        why = "no answer within {:.0f} s".format(PROBE_SECONDS) if isinstance(err, TimeoutError) else \
            (err.strerror or type(err).__name__).lower()
        raise ValueError(f"no Ray cluster answers at {address!r} ({why}): start one there ('ray start --head') or "
                         "give the right --address") from None
    if not reply or (not address.startswith("ray://") and not _gcs_answers(host, port)):
        # something else listens there: Ray would retry for minutes, logging all the while
        raise ValueError(f"{address!r} answers, but not as a Ray cluster (no Ray reply within {PROBE_SECONDS:.0f} "
                         "s): give the address of a Ray head node ('ray start --head' prints it)")


def _gcs_answers(host: str, port: int) -> bool:
    """True when a Ray head's GCS serves ``host:port``: its CheckAlive call exists there (a reply, or a refusal
    for want of the cluster's token), where any other gRPC server answers UNIMPLEMENTED."""
    import grpc
    from ray.core.generated import gcs_service_pb2, gcs_service_pb2_grpc

    with grpc.insecure_channel(f"{host}:{port}") as channel:
        try:
            gcs_service_pb2_grpc.NodeInfoGcsServiceStub(channel).CheckAlive(gcs_service_pb2.CheckAliveRequest(),
                                                                            timeout=PROBE_SECONDS)
        except grpc.RpcError as err:
            return err.code() in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED)
    return True


#: an HTTP/2 client's preface and an empty SETTINGS frame: a gRPC server (a Ray head, a Ray client server)
#: answers with a SETTINGS frame of its own
_HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _grpc_reply(connection: socket.socket) -> bool:
    """True when the server on ``connection`` answers an HTTP/2 preface with a SETTINGS frame (as gRPC does)."""
    connection.settimeout(PROBE_SECONDS)
    try:
        connection.sendall(_HTTP2_HELLO)
        head = b""
        while len(head) < 9:
            part = connection.recv(9 - len(head))
            if not part:
                break
            head += part
    except OSError:
        return False
    return len(head) == 9 and head[3] == 4


def _ray():
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'cgdiscover[ray]' (or use backend 'local')") from None
    return ray


def _start_worker() -> None:
    """A local worker: Ctrl-C is the parent's to handle, SIGTERM ends it (a forked worker would keep the parent's
    handler and its wake-up pipe), and one thread per process (no oversubscription)."""
    import signal

    from threadpoolctl import threadpool_limits

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
    os.environ["OMP_NUM_THREADS"] = "1"  # read by torch when a job first imports it
    global _LIMITS
    _LIMITS = threadpool_limits(1)


_LIMITS = None


def _run(payload: bytes, job: bytes):
    import cloudpickle

    return cloudpickle.loads(payload)(*cloudpickle.loads(job))


def _stop_local(pool: ProcessPoolExecutor, kill: bool) -> None:
    if kill:
        # Python 3.11's executor cannot stop running jobs: end its processes (3.14 has terminate_workers)
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
