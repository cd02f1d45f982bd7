"""``idiomkit bench audit``: wall-clock time of a ``--quick`` training audit of one dataset.

Runs the full three-setting audit (original split, random and lexical 5-fold CV) with the
feature cache off, so the time includes encoding, and prints the time of each phase against the
target (15 minutes on 2 cores).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer

from . import exit_on_error

#: the acceptance target for a --quick audit of one dataset on 2 cores
TARGET_SECONDS = 15 * 60


def bench_audit_command(
    dataset: Annotated[str, typer.Argument(help="A built-in dataset.")] = "astitch",
    trials: Annotated[int, typer.Option(min=1, help="Optuna trials per setting and split.")]
    = 10,
    threads: Annotated[int, typer.Option(min=1, help="torch threads.")] = 2,
    cache: Annotated[bool, typer.Option(
        help="Reuse cached features (off: the time includes encoding).")] = False,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Datasets folder.", show_default=False)] = None,
    output: Annotated[Path | None, typer.Option(
        help="Also write the results JSON and report here.", show_default=False)] = None,
    output_format: Annotated[str, typer.Option("--format", help="table or json.")] = "table",
) -> None:
    """Time ``idiomkit audit DATASET --quick`` (target: under 15 minutes on 2 cores).

      idiomkit bench audit astitch --trials 10
    """
    with exit_on_error():
        from ..audit.run import audit_training_dataset
        from .audit import write_training_report

        started = time.perf_counter()
        results = audit_training_dataset(dataset, data_dir, backend="quick", trials=trials,
                                         threads=threads, cache=cache)
        elapsed = time.perf_counter() - started
        if output is not None:
            write_training_report(results, output)
    summary = {"dataset": dataset, "trials": trials, "threads": threads, "cache": cache,
               "seconds": round(elapsed, 1), "phases": results["metrics"]["seconds"],
               "target_seconds": TARGET_SECONDS, "within_target": elapsed < TARGET_SECONDS}
    if output_format == "json":
        typer.echo(json.dumps(summary, indent=2))
        return
    typer.echo(f"{dataset}: --quick audit ({trials} trials, {threads} threads, cache "
               f"{'on' if cache else 'off'}) in {elapsed:.1f} s "
               f"({'within' if summary['within_target'] else 'over'} the "
               f"{TARGET_SECONDS // 60}-minute target)")
    for phase, seconds in summary["phases"].items():
        typer.echo(f"  {phase}: {seconds} s")


def register_bench(bench_app: typer.Typer) -> None:
    bench_app.command("audit")(bench_audit_command)
