"""cgbase.parallel: the same results in this process, on local workers and on Ray; errors and bad input."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from games import custom_game
from cgbase.parallel import Workers, as_workers


def draw(seed, size):
    return np.random.default_rng(seed).normal(size=size).tolist()


def fail_on(x):
    if x == 2:
        raise ValueError(f"job {x} refused")
    return x


JOBS = [(seed, 3) for seed in range(6)]


@pytest.mark.parametrize("workers", [Workers("serial"), Workers("local", 1), Workers("local", 2)],
                         ids=["serial", "local-1", "local-2"])
def test_local_results_are_the_serial_ones_in_job_order(workers):
    seen = []
    with workers:
        results = workers.map(draw, JOBS, done=lambda i, result: seen.append((i, result)))
    assert results == [draw(*job) for job in JOBS]
    assert sorted(seen) == list(enumerate(results))


def test_ray_results_are_the_serial_ones(ray_instance):
    with Workers("ray") as workers:
        assert workers.map(draw, JOBS) == [draw(*job) for job in JOBS]
    assert ray_instance.is_initialized()  # an instance it joined is left running


@pytest.mark.parametrize("backend", ["serial", "local", "ray"])
def test_a_failing_job_raises_its_own_error(backend, request):
    if backend == "ray":
        request.getfixturevalue("ray_instance")
    with Workers(backend, 1 if backend == "serial" else 2) as workers:
        with pytest.raises(ValueError, match="job 2 refused"):
            workers.map(fail_on, [(x,) for x in range(4)])
        assert workers.map(fail_on, [(5,)]) == [5]  # the workers serve again after an error


def test_functions_defined_anywhere_travel_to_local_workers():
    game = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], dims=1)
    with Workers("local", 2) as workers:
        assert workers.map(lambda g, n: g.moves((n,)), [(game, 3), (game, 1)]) == [[(2,), (1,)], [(0,)]]


@pytest.mark.parametrize("args, message", [
    (("threads",), "unknown backend 'threads'"),
    (("local", 2, "auto"), "use it with backend 'ray'"),
    (("serial", 2), "one job at a time"),
    (("local", 0), "workers must be a positive integer"),
])
def test_bad_settings_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        Workers(*args)


def test_as_workers():
    assert as_workers(None).backend == "serial"
    assert (as_workers(3).backend, as_workers(3).workers) == ("local", 3)
    pool = Workers("serial")
    assert as_workers(pool) is pool


@pytest.mark.parametrize("address", ["foo", "host:0", "host:99999", ":6379", "ray://host:١٢"])
def test_malformed_ray_addresses_are_refused_at_once(address):
    with pytest.raises(ValueError, match="'auto', 'HOST:PORT' or 'ray://HOST:PORT'"):
        Workers("ray", address=address)


@pytest.mark.slow
def test_an_unreachable_ray_address_answers_in_one_line(tmp_path):
    """Nothing listens on port 1 of the loopback: the sweep is refused with one line and exit 2, creating nothing
    (it used to wait for minutes, Ray warning every 5 s). The subprocess's timeout only keeps a regression from
    hanging the suite; nothing here is timed."""
    pytest.importorskip("ray")
    out = tmp_path / "sweep"
    done = subprocess.run([sys.executable, "-m", "discover", "sweep", "q", "nim", "--grid", "alpha=0.5",
                           "--episodes", "10", "--backend", "ray", "--address", "127.0.0.1:1", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "discover: no Ray cluster answers at '127.0.0.1:1' (connection refused): start one there ('ray start "
        "--head') or give the right --address"]
    assert not out.exists()


def test_an_address_where_something_else_listens_is_refused_not_waited_on(monkeypatch):
    """A server that accepts but is no Ray head (one that never answers; a gRPC server without Ray's GCS) would
    keep ray.init retrying for minutes; the probe asks for a gRPC reply, then for the GCS's CheckAlive call. A
    Ray client address (ray://) needs the gRPC reply only."""
    import socket
    from concurrent import futures

    from cgbase import parallel

    grpc = pytest.importorskip("grpc")  # installed with Ray
    from ray.core.generated import gcs_service_pb2

    monkeypatch.setattr(parallel, "PROBE_SECONDS", 0.5)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        port = silent.getsockname()[1]
        with pytest.raises(ValueError, match=f"'127.0.0.1:{port}' answers, but not as a Ray cluster"):
            parallel._probe(f"127.0.0.1:{port}", "127.0.0.1", port)
    check_alive = grpc.unary_unary_rpc_method_handler(
        lambda request, context: gcs_service_pb2.CheckAliveReply(ray_version="test"),
        request_deserializer=gcs_service_pb2.CheckAliveRequest.FromString,
        response_serializer=gcs_service_pb2.CheckAliveReply.SerializeToString)
    alive = grpc.method_handlers_generic_handler("ray.rpc.NodeInfoGcsService", {"CheckAlive": check_alive})
    for handlers, gcs in (((), False), ((alive,), True)):
        server = grpc.server(futures.ThreadPoolExecutor(1), handlers=handlers)
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        try:
            parallel._probe(f"ray://127.0.0.1:{port}", "127.0.0.1", port)  # a gRPC server: enough for ray://
            if gcs:
                parallel._probe(f"127.0.0.1:{port}", "127.0.0.1", port)
            else:
                with pytest.raises(ValueError, match="answers, but not as a Ray cluster"):
                    parallel._probe(f"127.0.0.1:{port}", "127.0.0.1", port)
        finally:
            server.stop(None)
