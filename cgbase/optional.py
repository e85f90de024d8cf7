"""Optional heavy modules imported on first use, with one clear line when they are missing."""

from __future__ import annotations

import importlib

__all__ = ["torch_module"]

TORCH_PIN = "torch==2.13.0"


def torch_module(purpose: str = "this learner"):
    """torch, imported on first use; a ``ValueError`` saying how to install it when it is missing.

    Examples
    --------
    >>> torch_module("a test").__name__
    'torch'
    """
    try:
        return importlib.import_module("torch")
    except ImportError:  # pragma: no cover - torch is a dependency
        raise ValueError(f"{purpose} needs torch: pip install {TORCH_PIN}") from None
