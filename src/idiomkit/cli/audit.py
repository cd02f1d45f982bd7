"""``idiomkit audit``: can a dataset be solved without the idiom, or without the context?

Today: ``--checks-only``, the leakage checks that need no training (expression overlap between
train and test, per-expression label skew, duplicate and near-duplicate sentences across splits,
class balance), on a built-in dataset, on all of them (``--all``), or on a user file
(``--input``). The training audit (Default / Only-expression / Masked inputs with a
hyperparameter search) will run when ``--checks-only`` is left out; until it exists that is a
ConfigError (E470).
"""

from __future__ import annotations

import json
import time
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from . import exit_on_error


class OutputFormat(str, Enum):
    table = "table"
    json = "json"


def audit_command(
    dataset: Annotated[str | None, typer.Argument(
        help="A built-in dataset (astitch, astitch-pt, semeval-a, epie-formal, pie-english, "
        "idem, …).", show_default=False)] = None,
    checks_only: Annotated[bool, typer.Option(
        "--checks-only", help="Run only the leakage checks (no training; seconds).")] = False,
    all_datasets: Annotated[bool, typer.Option(
        "--all", help="Check every built-in labelled dataset.")] = False,
    input_file: Annotated[Path | None, typer.Option(
        "--input", help="Your own CSV/JSONL: sentence, expression (or start/end), label, "
        "optional split.", show_default=False)] = None,
    labels: Annotated[str | None, typer.Option(
        help="Labels of --input: 'a,b' or 'idiomatic=0,literal=1' (default: idiomatic/"
        "figurative/metaphor vs literal).", show_default=False)] = None,
    threshold: Annotated[float, typer.Option(
        help="Jaccard similarity (character 5-grams) from which sentences are near-duplicates."
    )] = 0.8,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Datasets folder (default: $IDIOMKIT_DATA, then ../shared/data).",
        show_default=False)] = None,
    output: Annotated[Path | None, typer.Option(
        help="Write results JSON files and a Markdown report (audit-checks.md) into this folder.",
        show_default=False)] = None,
    output_format: Annotated[OutputFormat, typer.Option(
        "--format", help="table (readable) or json (the results objects).")]
    = OutputFormat.table,
) -> None:
    """Audit a labelled idiom/metaphor dataset for shortcuts (Boisson et al., 2023)."""
    with exit_on_error():
        from ..errors import ConfigError, check_param

        if not checks_only:
            raise ConfigError(
                "E470",
                "The training audit (Default / Only-expression / Masked settings with a "
                "hyperparameter search) is not available yet. Run the leakage checks with "
                "`idiomkit audit DATASET --checks-only`.",
            )
        check_param("audit", "threshold", threshold, 0.0 < threshold <= 1.0, "in (0, 1]")
        sources = sum([dataset is not None, all_datasets, input_file is not None])
        if sources != 1:
            raise ConfigError(
                "E473",
                "Name exactly one thing to audit: a DATASET, --all, or --input FILE "
                f"(got {sources}).",
            )
        started = time.perf_counter()
        all_results = _run(dataset, all_datasets, input_file, labels, threshold, data_dir)
        elapsed = time.perf_counter() - started
        if output is not None:
            _write(all_results, output)
    if output_format is OutputFormat.json:
        payload: Any = all_results if all_datasets else all_results[0]
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    _print_table(all_results, elapsed)


def _run(
    dataset: str | None,
    all_datasets: bool,
    input_file: Path | None,
    labels: str | None,
    threshold: float,
    data_dir: Path | None,
) -> list[dict]:
    from ..audit.inputs import parse_labels
    from ..audit.leakage import audit_dataset, audit_file, builtin_audit_datasets

    if input_file is not None:
        return [audit_file(input_file, parse_labels(labels), threshold)]
    names = builtin_audit_datasets() if all_datasets else [dataset]
    results = []
    for name in names:
        started = time.perf_counter()
        results.append(audit_dataset(name, data_dir, threshold))
        typer.echo(f"{name}: checked in {time.perf_counter() - started:.1f} s", err=True)
    return results


def _write(all_results: list[dict], output: Path) -> None:
    from ..audit.report import render_markdown
    from ..evaluate.results import write_results

    for results in all_results:
        path = write_results(results, output)
        typer.echo(f"results written to {path}", err=True)
    report = output / "audit-checks.md"
    report.write_text(render_markdown(all_results), encoding="utf-8")
    typer.echo(f"report written to {report}", err=True)


def _print_table(all_results: list[dict], elapsed: float) -> None:
    from rich.console import Console
    from rich.table import Table

    from ..audit.report import rows, verdict

    table = Table(title=f"leakage checks ({elapsed:.1f} s)")
    # "seen": test examples (types) whose expression occurs in train; "lookup": majority label
    # by expression; "maj.": majority class; "dup": exact + near-duplicate test sentences
    for column in ("dataset", "setting", "eval", "n", "seen %", "types %", "lookup acc",
                   "lookup F1", "maj. acc", "maj. F1", "dup"):
        table.add_column(column)
    for results in all_results:
        for r in rows(results):
            table.add_row(
                r["dataset"], r["setting"], r["split"], str(r["n"]),
                *(f"{100 * r[k]:.1f}" for k in (
                    "example_overlap", "type_overlap", "lookup_accuracy", "lookup_macro_f1",
                    "majority_accuracy", "majority_macro_f1")),
                f"{r['exact']}+{r['near']}",
            )
    console = Console()
    console.print(table)
    for results in all_results:
        console.print(verdict(results), highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    app.command("audit")(audit_command)
