"""quantcheck: checks the quantities and dates in RAG claims against the documents they cite."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("quantcheck")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0"

__all__ = ["__version__"]
