"""``idiomkit analyze``: find idioms, tell figurative from literal, explain them (JSON/JSONL)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from . import EXIT_RECORD_ERRORS, exit_on_error
from . import text_options as opts
from .find import _shorten, _strip_final_newline, _write, find_batch

if TYPE_CHECKING:
    from rich.table import Table

    from ..document import Document


def analyze_command(
    text: Annotated[str | None, opts.text_argument("analyze")] = None,
    input: opts.InputOption = None,
    output: opts.OutputOption = "-",
    input_format: opts.InputFormatOption = None,
    text_column: opts.TextColumnOption = "text",
    resume: opts.ResumeOption = False,
    progress: opts.ProgressOption = True,
    model: Annotated[str, typer.Option(
        "--model", help="Classifier: 'default' (shipped), a model trained with `idiomkit "
        "train`, or its folder.",
    )] = "default",
    threshold: Annotated[float | None, typer.Option(
        "--threshold", min=0.0, max=1.0, help="P(figurative) at or above which a candidate is "
        "figurative (default: the model's own, see `idiomkit models list`).",
        show_default=False,
    )] = None,
    keep_literal: Annotated[bool, typer.Option(
        "--keep-literal", help="Also return candidates judged literal (label 'literal').",
    )] = False,
    emotion: Annotated[str, typer.Option(
        "--emotion", help="Emotion model for the text's 'emotion' field: 'default' (shipped, "
        "36 IDEM emotions), a model trained with `idiomkit train emotion` or its folder; "
        "'none' leaves the field null.",
    )] = "default",
    emotion_top: Annotated[int, typer.Option(
        "--emotion-top", min=1, max=36, help="How many emotions (with probabilities) to list.",
    )] = 3,
    tagger: Annotated[str, typer.Option(
        "--tagger", help="Span tagger that adds idioms the lexicon lacks (source 'tagger', "
        "no definition): 'default' (shipped), a tagger trained with `idiomkit train tagger` or "
        "its folder; 'none' returns lexicon idioms only.",
    )] = "default",
    lexicon: opts.LexiconOption = None,
    method: opts.MethodOption = "default",
    keep_nested: opts.KeepNestedOption = False,
    include_filtered: opts.IncludeFilteredOption = False,
    every_group: opts.EveryGroupOption = False,
    min_confidence: opts.MinConfidenceOption = 0.0,
    pretty: opts.PrettyOption = False,
) -> None:
    """Find idioms in TEXT, tell figurative from literal use, read its emotion, print the
    Document JSON.

    Each idiom gets p_figurative, label (figurative/literal) and its definition; idioms the
    lexicon lacks come from the span tagger (source 'tagger', no definition); the text gets
    emotion (the most likely of the 36 IDEM emotions and the top scores); --input runs over a
    whole file (JSONL out, one record per input record).

    Examples:

      idiomkit analyze "He kicked the bucket last year."

      idiomkit analyze --keep-literal "We kicked the bucket across the yard."

      idiomkit analyze --input corpus.txt --output idioms.jsonl --resume
    """
    opts.check_text_or_input(text, input, pretty)
    with exit_on_error():
        from ..finder import Finder
        from ..io import RecordReader
        from ..pipeline import Analyzer

        if input is not None:
            RecordReader(input, input_format, text_column=text_column).close()
        finder = Finder(method=method, lexicon=lexicon, keep_nested=keep_nested,
                        min_confidence=min_confidence, include_filtered=include_filtered,
                        every_group=every_group)
        analyzer = Analyzer(model, threshold=threshold, keep_literal=keep_literal, finder=finder,
                            emotion=None if emotion.casefold() == "none" else emotion,
                            emotion_top=emotion_top,
                            tagger=None if tagger.casefold() == "none" else tagger)
        if input is not None:
            summary = find_batch(
                _AsFinder(analyzer), input, output, input_format=input_format,
                text_column=text_column, resume=resume, progress=progress,
                process_many=analyzer.analyze_many,
            )
            if summary.exit_code:
                raise typer.Exit(EXIT_RECORD_ERRORS)
            return
        if text == "-":
            text = _strip_final_newline(sys.stdin.read())
        doc = analyzer.analyze(text or "")
    if pretty:
        from rich.console import Console

        Console().print(render_table(doc))
    else:
        _write(json.dumps(doc.to_dict(), indent=2, ensure_ascii=False), output)


class _AsFinder:
    """Gives an Analyzer the ``find(text, id)`` method the shared batch runner calls."""

    def __init__(self, analyzer) -> None:
        self.find = analyzer.analyze


def render_table(doc: Document) -> Table:
    """A rich table: idiom, matched text, offsets, P(figurative), label, definition."""
    from rich.table import Table

    table = Table(title=_shorten(doc.text, 100), title_justify="left")
    for column in ("idiom", "matched text", "offsets", "p_figurative", "label", "definition"):
        table.add_column(column, overflow="fold" if column == "definition" else "ellipsis")
    for span in doc.idioms:
        table.add_row(span.idiom or "(tagger)", span.text, f"{span.start}-{span.end}",
                      f"{span.p_figurative:.2f}", span.label or "",
                      _shorten(span.definition or "", 60))
    captions = [] if doc.idioms else ["No figurative idioms found."]
    if doc.emotion:
        captions.append("Emotion: " + ", ".join(
            f"{label} {score:.2f}" for label, score in doc.emotion["scores"].items()))
    table.caption = " ".join(captions) or None
    return table


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_command)
