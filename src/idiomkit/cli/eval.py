"""``idiomkit eval``: run an experiment on a real dataset and print its results."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from . import exit_on_error

eval_app = typer.Typer(
    help="Evaluate idiomkit on the papers' datasets, with the papers' metrics and numbers "
    "beside ours. Every run can write a results file with provenance (--output).",
    no_args_is_help=True,
)


class OutputFormat(str, Enum):
    table = "table"
    json = "json"


#: options the finder evaluations share
MethodOption = Annotated[str, typer.Option(help="Finder method: default or idem-rules.")]
LexiconOption = Annotated[Path | None, typer.Option(
    help="A lexicon CSV/JSONL instead of the bundled one.", show_default=False)]
DataDirOption = Annotated[Path | None, typer.Option(
    "--data-dir", help="Datasets folder (default: $IDIOMKIT_DATA, then ../shared/data).",
    show_default=False)]
FormatOption = Annotated[OutputFormat, typer.Option(
    "--format", help="table (readable) or json (the results object, for other tools).")]
OutputOption = Annotated[Path | None, typer.Option(
    help="Also write the results JSON into this folder.", show_default=False)]
ProgressOption = Annotated[bool, typer.Option(help="Show a progress bar on stderr.")]


@eval_app.command("identification")
def identification_command(
    dataset: Annotated[str, typer.Option(help="Dataset name (see `idiomkit eval --help`).")]
    = "idem",
    split: Annotated[str, typer.Option(help="Split: train, test or train+test.")] = "test",
    method: MethodOption = "default",
    lexicon: LexiconOption = None,
    keep_nested: Annotated[bool, typer.Option(
        "--keep-nested", help="Also return idioms inside or overlapping a better one, after the "
        "finder's own choices.")] = False,
    data_dir: DataDirOption = None,
    output_format: FormatOption = OutputFormat.table,
    output: OutputOption = None,
    progress: ProgressOption = True,
) -> None:
    """Select the idiom each sentence contains, out of the whole lexicon (IDEM, section 5).

    Metrics: `all_candidates` precision/recall/F1 as in IDEM's Table 4 (every idiom returned is
    a prediction, right when it is the gold idiom; recall = sentences whose gold idiom is among
    the predictions) and `selection_accuracy` (the top-ranked idiom is the gold one).
    """
    from ..evaluate import evaluate_identification

    results = _run_finder_eval(evaluate_identification, dataset, split, data_dir, output,
                               progress, method=method, lexicon=lexicon,
                               keep_nested=keep_nested)
    _emit(results, output_format, _print_table)


def _run_finder_eval(evaluate, dataset: str, split: str, data_dir: Path | None,
                     output: Path | None, progress: bool, **finder_args) -> dict:
    """Load the split, run ``evaluate(finder, data)``, write the results file if asked."""
    with exit_on_error():
        from ..datasets import load_dataset
        from ..evaluate import write_results
        from ..finder import Finder

        data = load_dataset(dataset, split, data_dir)
        results = evaluate(Finder(**finder_args), data, progress=progress)
        if output is not None:
            path = write_results(results, output)
            typer.echo(f"results written to {path}", err=True)
    return results


def _emit(results: dict, output_format: OutputFormat, print_table) -> None:
    if output_format is OutputFormat.json:
        typer.echo(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        print_table(results)


def _print_table(results: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    metrics = results["metrics"]
    table = Table(title=f"identification on {results['dataset']} {results['split']} "
                  f"(n={results['n']}, method={results['configuration'].get('method')})")
    for column in ("system", "precision", "recall", "F1", "selection acc."):
        table.add_column(column)
    ours = metrics["all_candidates"]
    table.add_row("idiomkit", *(f"{100 * ours[k]:.2f}" for k in ("precision", "recall", "f1")),
                  f"{100 * metrics['selection_accuracy']:.2f}")
    for name, ref in (results.get("reference") or {}).items():
        table.add_row(name, *(f"{100 * ref[k]:.2f}" for k in ("precision", "recall", "f1")), "–")
    Console().print(table)


@eval_app.command("coverage")
def coverage_command(
    dataset: Annotated[str, typer.Option(
        help="Dataset name: epie-formal, pie-english, astitch, idem, semeval-a.")]
    = "epie-formal",
    split: Annotated[str, typer.Option(help="Split of the dataset (e.g. train, dev, test).")]
    = "test",
    method: MethodOption = "default",
    lexicon: LexiconOption = None,
    data_dir: DataDirOption = None,
    output_format: FormatOption = OutputFormat.table,
    output: OutputOption = None,
    progress: ProgressOption = True,
) -> None:
    """How many of a corpus's annotated expressions the finder finds where they are.

    A sentence is hit when a returned idiom overlaps the annotated span, whichever lexicon
    entry it links to. Reported over all annotated uses, the figurative ones and the literal
    ones (which the classifier, not the finder, should turn down). No precision: other idioms
    in a sentence are not annotated.

    Example: `idiomkit eval coverage --dataset pie-english --split train`
    """
    from ..evaluate import evaluate_coverage

    results = _run_finder_eval(evaluate_coverage, dataset, split, data_dir, output, progress,
                               method=method, lexicon=lexicon)
    _emit(results, output_format, _print_coverage_table)


def _print_coverage_table(results: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"finder coverage on {results['dataset']} {results['split']} "
                  f"(method={results['configuration'].get('method')})")
    for column in ("annotated uses", "found", "n", "hit rate", "unlocated"):
        table.add_column(column)
    for name in ("all", "figurative", "literal"):
        row = results["metrics"][name]
        table.add_row(name, str(row["hits"]), str(row["n"]), f"{100 * row['hit_rate']:.2f}",
                      str(row["unlocated"]))
    Console().print(table)


#: Modules under ``idiomkit.cli`` that add ``eval`` sub-commands, each with
#: ``register_eval(eval_app)``; one not written yet is skipped.
EVAL_MODULES = ("eval_figurative", "eval_emotion", "eval_detection")


def register(app: typer.Typer) -> None:
    from .app import register_commands

    register_commands(eval_app, EVAL_MODULES, hook="register_eval")
    app.add_typer(eval_app, name="eval")
