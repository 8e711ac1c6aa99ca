"""Entry point of the ``quantcheck`` command: parses arguments and maps errors to exit codes.

Exit codes: 0 the command ran; 1 a ``--fail-on`` status occurred; 2 a user's mistake
(reported in one line on stderr, never a traceback); 3 replay found differences.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from worker import __version__
from worker.errors import UsageError

# Each module registers one subcommand.
COMMANDS: tuple[str, ...] = ("check", "docs", "worker", "publish", "topics", "replay")

EXIT_USAGE = 2


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
        importlib.import_module(f"worker.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    try:
        args = build_parser().parse_args(argv)
        status: int = args.run(args)
    except UsageError as exc:
        message = str(exc).replace("\n", " ")
        if not message.startswith("quantcheck"):
            message = f"quantcheck: error: {message}"
        print(message, file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
