"""The peer checker's own virtual environment, made by the benchmark that times it.

corroborate is measured, never used: it is installed, pinned, into a virtual environment
of its own under ``build/`` (ignored by git), so it is no dependency of quantcheck and
cannot change what quantcheck's environment imports. Made once, then reused while it
holds the pinned version.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.common import ROOT

PEER = "corroborate"
PEER_VERSION = "0.1.0"
ENVIRONMENT = ROOT / "build" / "bench-peers" / f"{PEER}-{PEER_VERSION}"


class PeerSetupError(Exception):
    """The peer's environment could not be made."""


def _installed(python: Path) -> bool:
    if not python.exists():
        return False
    probe = subprocess.run(
        [str(python), "-c", f"import importlib.metadata as m; print(m.version({PEER!r}))"],
        capture_output=True,
        text=True,
        check=False,
    )
    return probe.returncode == 0 and probe.stdout.strip() == PEER_VERSION


def _run(command: list[str], step: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:]
        raise PeerSetupError(f"could not {step} for {PEER} {PEER_VERSION}: {' '.join(last)}")


def peer_python(environment: Path = ENVIRONMENT) -> Path:
    """The interpreter of the peer's environment, made with the pinned peer if need be."""
    python = environment / "bin" / "python"
    if _installed(python):
        return python
    _run([sys.executable, "-m", "venv", "--clear", str(environment)], "create a venv")
    _run(
        [str(python), "-m", "pip", "install", "--quiet", f"{PEER}=={PEER_VERSION}"],
        "pip install",
    )
    return python
