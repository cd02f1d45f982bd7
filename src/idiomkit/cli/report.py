"""``idiomkit report``: render a Markdown report from results files (never from memory)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from . import exit_on_error


def report_command(
    paths: Annotated[list[Path], typer.Argument(
        help="Results JSON files, or folders holding them.")],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Write the Markdown here instead of stdout.",
        show_default=False)] = None,
    percent: Annotated[bool, typer.Option(help="Show fractions as percentages.")] = False,
) -> None:
    """Render Markdown tables (ours beside the papers' numbers) from results files."""
    with exit_on_error():
        from ..evaluate.report import render_report

        files: list[Path] = []
        for path in paths:
            files.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
        markdown = render_report(files, percent=percent)
    if output is None:
        typer.echo(markdown)
    else:
        output.write_text(markdown, encoding="utf-8")
        typer.echo(f"report written to {output}", err=True)


def register(app: typer.Typer) -> None:
    app.command("report")(report_command)
