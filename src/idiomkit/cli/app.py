"""The ``idiomkit`` typer app and the console-script entry point :func:`main`.

Commands live in their own modules (listed in :data:`COMMAND_MODULES`); each defines
``register(app)`` and adds itself with ``app.command(...)`` or ``app.add_typer(...)``.
A listed module that does not exist yet is skipped, so commands can land one at a time.
"""

from __future__ import annotations

import importlib
from typing import Annotated

import typer

from .. import __version__

HELP = """\
Find idioms in English text, tell figurative from literal use, explain them.

Run `idiomkit COMMAND --help` for a command's options.

[bold]Exit codes[/bold]
  0  ok
  1  batch run finished, but some records failed (written as error records)
  2  usage error or bad input (unknown option, empty text, missing input file)
  3  data, lexicon or configuration error
"""

#: Command modules under ``idiomkit.cli``, in help order. Add yours here.
COMMAND_MODULES = (
    "find", "analyze", "lexicon", "train", "models", "eval", "audit", "bench", "report",
    "sample",
)

app = typer.Typer(
    name="idiomkit",
    help=HELP,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"idiomkit {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", "-V", help="Print the version and exit.",
        callback=_version_callback, is_eager=True,
    )] = False,
) -> None:
    """Find idioms in English text, tell figurative from literal use, explain them."""


def register_commands(
    target: typer.Typer, modules: tuple[str, ...] = COMMAND_MODULES, hook: str = "register"
) -> None:
    """Import each command module and let it register itself on ``target`` (``module.<hook>``)."""
    for name in modules:
        qualified = f"{__package__}.{name}"
        try:
            module = importlib.import_module(qualified)
        except ModuleNotFoundError as exc:
            if exc.name == qualified:  # not written yet; any other missing import is a bug
                continue
            raise
        getattr(module, hook)(target)


register_commands(app)


def main() -> None:
    """Console-script entry point."""
    app(prog_name="idiomkit")


if __name__ == "__main__":
    main()
