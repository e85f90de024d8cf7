"""The toolkit's version, recorded in every artifact."""

from importlib.metadata import PackageNotFoundError, version

__all__ = ["__version__"]

try:
    __version__ = version("cgdiscover")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"
