"""The ``idiomkit`` command line: one module per command, each thin.

A command module defines ``register(app: typer.Typer) -> None`` and is listed in
``COMMAND_MODULES`` in :mod:`idiomkit.cli.app`. Commands parse options, call an importable
function, and wrap the call in :func:`exit_on_error` so that coded errors become the documented
exit codes. Keep module-level imports light (import heavy libraries inside the command) so that
``idiomkit --help`` stays fast.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer

from ..errors import IdiomkitError, InputError

EXIT_OK = 0
#: batch mode: some records failed (they are still written, as error records)
EXIT_RECORD_ERRORS = 1
#: usage error or bad input (typer's own code for bad options)
EXIT_USAGE = 2
#: data, lexicon or configuration error
EXIT_DATA = 3


def exit_code_for(error: IdiomkitError) -> int:
    """2 for input errors (E1xx), 3 for everything else."""
    return EXIT_USAGE if isinstance(error, InputError) else EXIT_DATA


@contextmanager
def exit_on_error() -> Iterator[None]:
    """Print an :class:`IdiomkitError` as ``error: [E...] message`` on stderr and exit."""
    try:
        yield
    except IdiomkitError as exc:
        typer.echo(f"error: [{exc.code}] {exc.message}", err=True)
        raise typer.Exit(exit_code_for(exc)) from None


__all__ = [
    "EXIT_DATA",
    "EXIT_OK",
    "EXIT_RECORD_ERRORS",
    "EXIT_USAGE",
    "exit_code_for",
    "exit_on_error",
]
