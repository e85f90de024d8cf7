"""Fixtures shared by the test folders: running the ``discover`` command in-process."""

from __future__ import annotations

import pytest

from discover.app.cli import main


@pytest.fixture
def cli(capsys):
    """Run ``discover ARGS...``; return (exit status, stdout, stderr)."""

    def run(*argv):
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def one_error_line():
    """Assert that a run failed with status 2 and one ``discover: ...`` line on stderr, nothing on stdout."""

    def check(code, out, err):
        assert code == 2, (out, err)
        assert out == "" and len(err.splitlines()) == 1 and err.startswith("discover: "), err
        assert "Traceback" not in err

    return check


@pytest.fixture(scope="session")
def ray_instance():
    """A local Ray instance with 2 CPUs, shared by the session's tests (``cgbase.parallel`` joins it)."""
    ray = pytest.importorskip("ray", reason="Ray is not installed here: pip install 'cgdiscover[ray]'")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield ray
    ray.shutdown()
