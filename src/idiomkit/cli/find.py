"""``idiomkit find``: idioms in one text (JSON or a table), or in a whole file (JSONL out)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import EXIT_RECORD_ERRORS, exit_on_error
from . import text_options as opts

if TYPE_CHECKING:
    from rich.table import Table

    from ..document import Document
    from ..finder import Finder
    from ..io import BatchSummary

_DEFINITION_WIDTH = 60


def find_command(
    text: Annotated[str | None, opts.text_argument("search")] = None,
    input: opts.InputOption = None,
    output: opts.OutputOption = "-",
    input_format: opts.InputFormatOption = None,
    text_column: opts.TextColumnOption = "text",
    resume: opts.ResumeOption = False,
    progress: opts.ProgressOption = True,
    lexicon: opts.LexiconOption = None,
    method: opts.MethodOption = "default",
    keep_nested: opts.KeepNestedOption = False,
    include_filtered: opts.IncludeFilteredOption = False,
    every_group: opts.EveryGroupOption = False,
    min_confidence: opts.MinConfidenceOption = 0.0,
    pretty: opts.PrettyOption = False,
) -> None:
    """Find the idioms in TEXT and print the Document JSON, or run over a file with --input.

    Examples:

      idiomkit find "He poured out his whole heart to a friend."

      idiomkit find --pretty "She spilled the beans."

      idiomkit find --input corpus.txt --output idioms.jsonl --resume
    """
    opts.check_text_or_input(text, input, pretty)
    with exit_on_error():
        from ..finder import Finder
        from ..io import RecordReader

        if input is not None:
            # Fail on a missing or unreadable input before the (slower) finder is built.
            RecordReader(input, input_format, text_column=text_column).close()
        finder = Finder(method=method, lexicon=lexicon, keep_nested=keep_nested,
                        min_confidence=min_confidence, include_filtered=include_filtered,
                        every_group=every_group)
        if input is not None:
            summary = find_batch(
                finder, input, output, input_format=input_format, text_column=text_column,
                resume=resume, progress=progress,
            )
            if summary.exit_code:
                raise typer.Exit(EXIT_RECORD_ERRORS)
            return
        if text == "-":
            text = _strip_final_newline(sys.stdin.read())
        doc = finder.find(text or "")
    if pretty:
        from rich.console import Console

        Console().print(render_table(doc))
    else:
        _write(json.dumps(doc.to_dict(), indent=2, ensure_ascii=False), output)


def find_batch(finder: Finder, input: Path, output: str, **options: Any) -> BatchSummary:
    """Run ``finder.find`` over ``input`` and print a one-line summary on stderr."""
    from ..io import run_batch

    summary = run_batch(finder.find, input, output, **options)
    where = "stdout" if output == "-" else output
    resumed = f", {summary.skipped_resumed} already done" if summary.skipped_resumed else ""
    typer.echo(
        f"idiomkit: {summary.n_in} records{resumed}; {summary.n_ok} ok, "
        f"{summary.n_errors} failed -> {where}", err=True,
    )
    return summary


def render_table(doc: Document) -> Table:
    """A rich table of the idioms in ``doc``: idiom, matched text, offsets, score, definition."""
    from rich.table import Table

    table = Table(title=_shorten(doc.text, 100), title_justify="left", show_lines=False)
    table.add_column("idiom", style="bold")
    table.add_column("matched text")
    table.add_column("offsets", justify="right")
    table.add_column("score", justify="right")
    table.add_column("definition", overflow="fold")
    for span in doc.idioms:
        table.add_row(
            span.idiom, span.text, f"{span.start}-{span.end}", f"{span.match_score:.2f}",
            _shorten(span.definition or "", _DEFINITION_WIDTH),
        )
    if not doc.idioms:
        table.caption = "No idioms found."
    return table


def _strip_final_newline(text: str) -> str:
    """``echo "..." | idiomkit find -`` adds one newline that is not part of the text."""
    if text.endswith("\n"):
        text = text[:-1]
        if text.endswith("\r"):
            text = text[:-1]
    return text


def _shorten(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _write(data: str, output: str) -> None:
    if output == "-":
        typer.echo(data)
        return
    from ..errors import InputError

    try:
        Path(output).write_text(data + "\n", encoding="utf-8")
    except OSError as exc:
        with exit_on_error():
            raise InputError("E109", f"Cannot write output file '{output}': {exc.strerror}.") \
                from None


def register(app: typer.Typer) -> None:
    app.command("find")(find_command)
