"""Entry point of the ``quantcheck`` command: parses arguments and maps errors to exit codes.

Exit codes: 0 the command ran; 1 a ``--fail-on`` status occurred; 2 a user's mistake
(reported in one line on stderr, never a traceback); 3 replay found differences; 141 the
reader of the output went away (``| head``), as a shell reports a process ended by
SIGPIPE, without a word on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from worker import __version__
from worker.errors import UsageError

# Each module registers one subcommand.
COMMANDS: tuple[str, ...] = ("check", "docs", "worker", "publish", "topics", "replay")

EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 128 + 13


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit 2, like every other user mistake."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """The full parser, with every subcommand registered."""
    parser = _Parser(prog="quantcheck", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--version", action="version", version=f"quantcheck {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMANDS:
        _command_module(name).register(sub)
    return parser


def _command_module(name: str) -> Any:
    try:
        return importlib.import_module(f"worker.cli.{name}")
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").partition(".")[0]
        if missing in {"worker", "schemas", ""}:
            raise
        # Installed as ``quantcheck[client]``: the contracts and the publisher only.
        raise UsageError(
            f"the command line needs {missing}, which is not installed:"
            " pip install 'quantcheck[worker]'"
        ) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    try:
        try:
            args = build_parser().parse_args(argv)
            status: int = args.run(args)
            # Written here, so that a reader gone away is noticed while it can be handled.
            sys.stdout.flush()
        except UsageError as exc:
            message = str(exc).replace("\n", " ")
            if not message.startswith("quantcheck"):
                message = f"quantcheck: error: {message}"
            print(message, file=sys.stderr)
            return EXIT_USAGE
        except KeyboardInterrupt:
            return 130
    except BrokenPipeError:
        _discard_stdout()
        return EXIT_BROKEN_PIPE
    return status


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush of what is still
    buffered does not fail a second time on its way out."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
