"""The options ``idiomkit find`` and ``idiomkit analyze`` share: one text or a batch file in,
JSON or JSONL out, and the finder's lexicon and method.

Each is an ``Annotated`` type, so a command declares ``input: InputOption = None`` and both
commands show the same help text and accept the same spellings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

InputOption = Annotated[Path | None, typer.Option(
    "--input", "-i", help="Batch mode: a .txt (one text per line), .jsonl "
    "({\"id\", \"text\"}) or .csv/.tsv (a 'text' column) file; '-' for stdin.",
    show_default=False,
)]
OutputOption = Annotated[str, typer.Option(
    "--output", "-o", help="Where to write the JSON (batch: JSONL, one record per input "
    "record); '-' for stdout.",
)]
InputFormatOption = Annotated[str | None, typer.Option(
    "--input-format", help="txt, jsonl, csv or tsv (default: from the extension).",
    show_default=False,
)]
TextColumnOption = Annotated[str, typer.Option(
    "--text-column", help="Batch: the CSV column / JSON field holding the text (by default "
    "'text', else 'sentence' where a record or header has no 'text').",
)]
ResumeOption = Annotated[bool, typer.Option(
    "--resume", help="Batch: keep the complete lines already in --output, skip that many "
    "input records and append the rest.",
)]
ProgressOption = Annotated[bool, typer.Option(
    "--progress/--no-progress", help="Batch: show a progress bar on stderr (when a terminal).",
)]
LexiconOption = Annotated[Path | None, typer.Option(
    "--lexicon", "-l", help="A user lexicon (CSV or JSONL with an 'idiom' column) instead "
    "of the bundled one.", show_default=False,
)]
MethodOption = Annotated[str, typer.Option(
    "--method", "-m", help="Matcher: default (fast lexicon matcher) or idem-rules (the "
    "IDEM paper's rule-based finder).",
)]
KeepNestedOption = Annotated[bool, typer.Option(
    "--keep-nested", help="Also return, after the finder's own choices, idioms inside or "
    "overlapping a better one (\"go all out\", then \"all out\").",
)]
IncludeFilteredOption = Annotated[bool, typer.Option(
    "--include-filtered", help="Also match the 87 lexicon entries SLIDE recommends filtering "
    "out as not idiomatic enough that idiomkit leaves out too (\"work out\", \"at stake\"; "
    "16 everyday idioms SLIDE flags, such as \"tip of the iceberg\", are matched anyway).",
)]
EveryGroupOption = Annotated[bool, typer.Option(
    "--every-group", help="Keep several idioms per sentence: the best of every group of "
    "overlapping candidates, down to the finder's floor (\"it was about time he got his act "
    "together\" gives both). By default a sentence keeps its best idiom and only confident "
    "others, as calibrated on IDEM (one idiom per sentence). Combine with --min-confidence for "
    "a higher floor.",
)]
MinConfidenceOption = Annotated[float, typer.Option(
    "--min-confidence", min=0.0, max=1.0, help="Drop idioms whose confidence (the finder's "
    "probability that the candidate is the idiom meant) is below this; 0 adds no filter to the "
    "finder's own floor (calibrated on IDEM, PIE and EPIE train: \"It has been a long "
    "day.\" gives no \"has-been\"). An everyday phrase alone in a sentence scores low "
    "(\"according to\" 0.27; \"kick the bucket\" 0.94).",
)]
PrettyOption = Annotated[bool, typer.Option(
    "--pretty", help="Print a readable table instead of JSON (single text only).",
)]


def text_argument(verb: str):
    """The TEXT argument, its help naming what the command does with it."""
    return typer.Argument(
        help=f"The text to {verb}; '-' reads it from stdin. Leave out with --input.",
        show_default=False,
    )


def check_text_or_input(text: str | None, input: Path | None, pretty: bool) -> None:
    """Exactly one of TEXT and --input; --pretty only for a single text."""
    if (text is None) == (input is None):
        raise typer.BadParameter(
            "give either TEXT (or '-' for stdin) or --input FILE.", param_hint="TEXT / --input"
        )
    if input is not None and pretty:
        raise typer.BadParameter(
            "--pretty shows one text; it cannot be used with --input.", param_hint="--pretty"
        )
