"""The stages' seconds of a run as printed and reported: with the time no stage counts, so that parts add up."""

from __future__ import annotations

__all__ = ["with_other"]


def with_other(timings: dict) -> dict:
    """``timings`` (stage -> seconds, ``total`` last) with ``other`` before the total: the time no stage counts
    (the game's set-up, imports, the choice of bounds, candidates' bookkeeping), so that the parts add up to it.

    Examples
    --------
    >>> with_other({"solve": 1.0, "verify": 0.5, "total": 2.0})
    {'solve': 1.0, 'verify': 0.5, 'other': 0.5, 'total': 2.0}
    >>> with_other({"solve": 1.0})
    {'solve': 1.0}
    """
    parts = {k: v for k, v in timings.items() if k != "total"}
    if "total" in timings:
        parts["other"] = max(0.0, timings["total"] - sum(parts.values()))
        parts["total"] = timings["total"]
    return parts
