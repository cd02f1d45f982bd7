"""``idiomkit audit``: can a dataset be solved without the idiom, or without the context?

``--checks-only``: the leakage checks that need no training (expression overlap between train
and test, per-expression label skew, duplicate and near-duplicate sentences across splits,
class balance), on a built-in dataset, on all of them (``--all``), or on a user file
(``--input``). Without it, the training audit (Boisson et al., 2023): Default /
Only-expression / Masked-expression inputs over one classifier with an Optuna search, on the
original split and on random and lexical 5-fold CV, reported with the leakage checks.
``--quick`` is the CPU preset (frozen features + searched logistic-regression head); the full
run fine-tunes the encoder (LoRA) in every trial.
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
    quick: Annotated[bool, typer.Option(
        "--quick", help="CPU preset: frozen encoder features cached once per setting and a "
        "logistic-regression head searched by Optuna (minutes). Without it every trial "
        "fine-tunes the encoder (hours on CPU).")] = False,
    trials: Annotated[int | None, typer.Option(
        help="Optuna trials per setting and split (default: 10 with --quick, 20 without; the "
        "paper: 50).", show_default=False)] = None,
    cv: Annotated[str, typer.Option(
        help="Cross-validation splits to run: 'random,lexical', one of them, or 'none'.")]
    = "random,lexical",
    seed: Annotated[int, typer.Option(help="Seed of the splits and the search.")] = 0,
    model: Annotated[str, typer.Option(help="Encoder (name, path or hub id).")] = "minilm",
    inputs: Annotated[str, typer.Option(
        help="Input settings to train: any of default,only_expression,masked (a subset gives "
        "one setting a larger --trials budget without paying for the others).")]
    = "default,only_expression,masked",
) -> None:
    """Audit a labelled idiom/metaphor dataset for shortcuts (Boisson et al., 2023).

    Without --checks-only: train Default / Only-expression / Masked-expression inputs on the
    original split and on random and lexical 5-fold CV, plus the leakage checks.
    """
    with exit_on_error():
        from ..errors import ConfigError, check_param

        check_param("audit", "threshold", threshold, 0.0 < threshold <= 1.0, "in (0, 1]")
        sources = sum([dataset is not None, all_datasets, input_file is not None])
        if sources != 1:
            raise ConfigError(
                "E473",
                "Name exactly one thing to audit: a DATASET, --all, or --input FILE "
                f"(got {sources}).",
            )
        if not checks_only:
            if all_datasets:
                raise ConfigError(
                    "E481", "The training audit runs on one dataset at a time; --all works "
                    "with --checks-only. Name a DATASET or --input FILE.")
            options = training_options(quick, trials, cv, seed, model, inputs)
            options["threshold"] = threshold
            results = _run_training(dataset, input_file, labels, data_dir, options, output)
            _print_training(results, output_format)
            return
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


def training_options(quick: bool, trials: int | None, cv: str, seed: int, model: str,
                     inputs: str = "default,only_expression,masked") -> dict[str, Any]:
    """The keyword options of :func:`idiomkit.audit.run.audit_splits` from the CLI's."""
    from ..audit.training import QUICK_TRIALS, validate_inputs
    from ..errors import ConfigError

    if trials is not None and trials < 1:
        raise ConfigError("E479", f"The '--trials' option must be an integer >= 1. Got {trials}.")
    modes = [] if cv.strip().lower() == "none" else [m.strip() for m in cv.split(",") if m.strip()]
    return {"backend": "quick" if quick else "finetune",
            "trials": trials or (QUICK_TRIALS if quick else FULL_TRIALS),
            "cv": modes, "seed": seed, "model": model,
            "inputs": list(validate_inputs([s.strip() for s in inputs.split(",") if s.strip()]))}


#: default trials of a full (fine-tuning) audit
FULL_TRIALS = 20


def _run_training(dataset: str | None, input_file: Path | None, labels: str | None,
                  data_dir: Path | None, options: dict[str, Any], output: Path | None) -> dict:
    from ..audit.inputs import parse_labels
    from ..audit.run import audit_training_dataset, audit_training_file

    if input_file is not None:
        results = audit_training_file(input_file, parse_labels(labels), **options)
    else:
        results = audit_training_dataset(dataset, data_dir, **options)
    if output is not None:
        write_training_report(results, output)
    return results


def write_training_report(results: dict, output: Path) -> Path:
    """Write the results JSON, the bar chart and ``audit-<dataset>.md`` into ``output``."""
    from ..audit.report import render_markdown as render_checks
    from ..audit.training_report import bar_chart, render_markdown
    from ..evaluate.results import write_results

    path = write_results(results, output)
    typer.echo(f"results written to {path}", err=True)
    stem = f"audit-{results['dataset']}"
    chart = bar_chart(results, output / f"{stem}.png")
    checks = render_checks([{**results, "metrics": results["metrics"]["checks"]}])
    report = output / f"{stem}.md"
    report.write_text(render_markdown(results, chart.name, checks), encoding="utf-8")
    typer.echo(f"report written to {report} (chart {chart})", err=True)
    return report


def _print_training(results: dict, output_format: OutputFormat) -> None:
    from ..audit.training_report import rows, verdict

    if output_format is OutputFormat.json:
        typer.echo(json.dumps(results, indent=2, ensure_ascii=False))
        return
    typer.echo("comparison                 n_test  default  only-expr  masked")
    def cell(value: float | None, width: int) -> str:
        return f"{'–':>{width}}" if value is None else f"{100 * value:{width}.2f}"

    for r in rows(results):
        typer.echo(f"{r['scope']:<26} {r['n_test']:>6}  {cell(r['default'], 7)}  "
                   f"{cell(r['only_expression'], 9)}  {cell(r['masked'], 6)}")
    typer.echo(verdict(results))
    typer.echo(f"seconds: {results['metrics']['seconds']}")


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
