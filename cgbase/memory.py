"""Memory a request may take: refused before allocating, with the estimated size in words."""

from __future__ import annotations

import math
import os

__all__ = ["check_memory", "memory_limit"]


def memory_limit() -> int:
    """Bytes a single request may allocate: half the machine's physical memory."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 8 << 30


def _human(nbytes) -> str:
    """A size in words: ``1.5 GB``, or ``about 10^400 bytes`` for sizes beyond floats.

    >>> _human(3 * 2**30), _human(10**400)
    ('3.0 GB', 'about 10^400 bytes')
    """
    if nbytes >= 10**300:
        return f"about 10^{int(int(nbytes).bit_length() * math.log10(2))} bytes"
    nbytes = float(nbytes)
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if nbytes < 1024 or unit == "PB":
            return f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    raise AssertionError  # pragma: no cover


def check_memory(nbytes, what: str, fix: str = "use a smaller bound") -> None:
    """Refuse, before allocating, a request of ``nbytes`` (a float, or an int of any size) that would not fit;
    the message ends with ``fix``, what to change.

    Examples
    --------
    >>> check_memory(1024, "a small table")
    """
    limit = memory_limit()
    if nbytes > limit:
        raise ValueError(
            f"{what} needs about {_human(nbytes)}, more than the {_human(limit)} allowed "
            f"on this machine; {fix}"
        )
