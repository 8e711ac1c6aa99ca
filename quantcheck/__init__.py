"""quantcheck: checks the numbers in RAG answers against the documents they cite.

::

    from quantcheck import check

    verdict = check("Readings every 45 seconds.", {"S01": "Log a reading every 60 seconds."})
    verdict.status  # unsupported_quantity

Everything installs under this one name, so that nothing collides with a backend's own
modules: :func:`check`, :func:`check_answer` and :class:`Checker` (:mod:`quantcheck.api`)
check in-process; :mod:`quantcheck.client` publishes answers and claims from a backend;
:mod:`quantcheck.schemas` holds the event contracts; :mod:`quantcheck.worker` is the
service; :mod:`quantcheck.langchain` checks what a LangChain chain answers.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from quantcheck.api import AnswerVerdict, Checker, ClaimVerdict, check, check_answer
    from quantcheck.checker import Status

# Loaded on first use: ``import quantcheck`` stays cheap for the command line, whose
# ``--help`` needs none of the checker, and for the light quantcheck-client distribution,
# which does not ship it.
_API = {
    "check": "quantcheck.api",
    "check_answer": "quantcheck.api",
    "Checker": "quantcheck.api",
    "ClaimVerdict": "quantcheck.api",
    "AnswerVerdict": "quantcheck.api",
    "Status": "quantcheck.checker",
}
_DISTRIBUTIONS = ("quantcheck", "quantcheck-client")


@cache
def _installed_version() -> str:
    # Read from the installed distribution on first use: the metadata machinery costs a
    # noticeable share of a short command's start-up.
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    for name in _DISTRIBUTIONS:
        try:
            return version(name)
        except PackageNotFoundError:
            continue
    return "0.0.0"  # running from a source tree without an install


def __getattr__(name: str) -> Any:
    if name == "__version__":
        return _installed_version()
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib  # noqa: PLC0415

    try:
        return getattr(importlib.import_module(module), name)
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("quantcheck"):
            raise
        raise ImportError(
            f"quantcheck.{name} is not in the quantcheck-client distribution, which holds the"
            " publisher and the contracts only: pip install quantcheck"
        ) from None


__all__ = [
    "AnswerVerdict",
    "Checker",
    "ClaimVerdict",
    "Status",
    "__version__",
    "check",
    "check_answer",
]
