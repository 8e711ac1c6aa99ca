"""quantcheck: checks the numbers in RAG answers against the documents they cite.

Everything installs under this one name, so that nothing collides with a backend's own
modules: :mod:`quantcheck.client` for backends that publish answers and claims,
:mod:`quantcheck.schemas` for the event contracts, :mod:`quantcheck.worker` for the service.
"""

from __future__ import annotations

from functools import cache


@cache
def _installed_version() -> str:
    # Read from the installed distribution on first use: the metadata machinery costs a
    # noticeable share of a short command's start-up.
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("quantcheck")
    except PackageNotFoundError:  # running from a source tree without an install
        return "0.0.0"


def __getattr__(name: str) -> str:
    if name == "__version__":
        return _installed_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["__version__"]
