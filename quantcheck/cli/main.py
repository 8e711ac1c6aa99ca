"""Entry point of the ``quantcheck`` command: parses arguments and maps errors to exit codes.

Exit codes: 0 the command ran; 1 a ``--fail-on`` status occurred; 2 a user's mistake,
including a command whose optional dependencies are not installed (reported in one line on
stderr, never a traceback); 3 replay found differences, or the worker gave up on a fatal
failure; 4 ``check`` could not check some claims (their status is ``check_failed``, the
exception in their reason) but checked every other; 70 an internal error, a bug, with its
traceback on stderr; 130 interrupted (Ctrl-C); 141 the reader of the output went away
(``| head``), as a shell reports a process ended by SIGPIPE, without a word on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any

import quantcheck
from quantcheck.errors import UsageError

# Each subcommand is a module of its own, imported only when that subcommand runs so that
# the command starts fast: ``--help`` lists them from this table alone.
COMMANDS: dict[str, str] = {
    "check": "check a file of claims against their cited documents",
    "docs": "load, list, show and compare knowledge-base versions",
    "publish": "publish claims or answers from a CSV or JSON Lines file",
    "replay": "re-check a window of the claims or dead-letter topic and compare",
    "topics": "manage the worker's Kafka topics",
    "worker": "check claims from Kafka and publish verdicts and dead letters",
}

EXIT_USAGE = 2
# sysexits.h's EX_SOFTWARE: distinct from every status a command returns by design.
EXIT_INTERNAL = 70
EXIT_BROKEN_PIPE = 128 + 13

# The extra that installs each optional dependency, for the one line that names it.
EXTRAS: dict[str, str] = {
    "kafka": "kafka",
    "crc32c": "kafka",
    "prometheus_client": "kafka",
    "structlog": "kafka",
    "psycopg": "postgres",
    "psycopg_pool": "postgres",
    "matplotlib": "chart",
    "langchain_core": "langchain",
}


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit 2, like every other user mistake."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


class _Version(argparse.Action):
    """``--version``, reading the installed version only when asked for it."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        # As argparse's own version action: a reader gone away is no error.
        parser._print_message(f"quantcheck {quantcheck.__version__}\n", sys.stdout)
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser, with ``command`` fully registered (every command when None) and the
    others named only."""
    parser = _Parser(prog="quantcheck", description=(quantcheck.__doc__ or "").split("\n\n")[0])
    parser.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, summary in COMMANDS.items():
        if command is None or name == command:
            _command_module(name).register(sub, summary)
        else:
            sub.add_parser(name, help=summary, add_help=False)
    return parser


def _requested(argv: Sequence[str]) -> str:
    """The subcommand ``argv`` names: its first word that is not an option ("" for none);
    the top-level options take no values."""
    word = next((arg for arg in argv if not arg.startswith("-")), "")
    return word if word in COMMANDS else ""


def _command_module(name: str) -> Any:
    return importlib.import_module(f"quantcheck.cli.{name}")


def missing_extra(exc: ModuleNotFoundError, command: str) -> UsageError | None:
    """The one-line error for an optional dependency of ``command`` that is not installed,
    naming the extra that brings it; None for any other missing module (a bug)."""
    missing = (exc.name or "").partition(".")[0]
    extra = EXTRAS.get(missing)
    if extra is None:
        return None
    return UsageError(
        f"'quantcheck {command}' needs {missing}, which is not installed:"
        f" pip install 'quantcheck[{extra}]'"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    command = _requested(arguments)
    try:
        try:
            args = build_parser(command).parse_args(arguments)
            status: int = args.run(args)
            # Written here, so that a reader gone away is noticed while it can be handled.
            sys.stdout.flush()
        except UsageError as exc:
            return _usage(exc)
        except ModuleNotFoundError as exc:
            # Optional dependencies are imported where they are used, so a command finds
            # out it lacks one only when it gets there.
            usage = missing_extra(exc, command)
            if usage is None:
                return _internal_error()
            return _usage(usage)
        except KeyboardInterrupt:
            return 130
        except BrokenPipeError:
            raise  # handled below, also when it happens while reporting another error
        except Exception:
            return _internal_error()
    except BrokenPipeError:
        _discard_stdout()
        return EXIT_BROKEN_PIPE
    return status


def _usage(exc: UsageError) -> int:
    message = str(exc).replace("\n", " ")
    if not message.startswith("quantcheck"):
        message = f"quantcheck: error: {message}"
    print(message, file=sys.stderr)
    return EXIT_USAGE


def _internal_error() -> int:
    """Report the exception being handled as the bug it is; never the status of a
    ``--fail-on`` hit or of a usage error."""
    traceback.print_exc(file=sys.stderr)
    print("quantcheck: internal error: the traceback above is a bug in quantcheck", file=sys.stderr)
    return EXIT_INTERNAL


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush of what is still
    buffered does not fail a second time on its way out."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
