"""The command-line tests run commands under an alarm (``discover.app.cli.checks.run_case``): the quotient kernels are
made ready first, once a worker, since an alarm that cuts off numba mid-compilation leaves the kernel unusable for
the rest of the process ("no compiled object yet"), failing whichever test calls it next."""

from __future__ import annotations

import pytest

from discover.quotients.kernels import load_kernels


@pytest.fixture(scope="session", autouse=True)
def quotient_kernels_ready():
    load_kernels()
