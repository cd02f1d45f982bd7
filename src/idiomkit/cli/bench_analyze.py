"""``idiomkit bench analyze``: throughput, cold start and peak RSS of ``analyze`` on IDEM."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from . import exit_on_error


def analyze_command(
    model: Annotated[str, typer.Option(help="Classifier: default, a user model or a folder.")]
    = "default",
    runs: Annotated[int, typer.Option(min=1, help="Passes / cold launches; the median is "
                                      "reported.")] = 3,
    threads: Annotated[int, typer.Option(min=1, help="BLAS threads (cores used).")] = 2,
    cold_start: Annotated[bool, typer.Option("--cold-start/--no-cold-start")] = True,
    memory: Annotated[bool, typer.Option("--memory/--no-memory")] = True,
    limit: Annotated[int | None, typer.Option(
        min=1, help="Only the first N sentences (a quick check; targets are for all).",
        show_default=False)] = None,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Folder with the idem/ dataset.", show_default=False)] = None,
    output_format: Annotated[str, typer.Option("--format", "-f", help="table or json.")]
    = "table",
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Also write the results file into this folder.",
        show_default=False)] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress")] = True,
) -> None:
    """Benchmark `analyze` (find → classify → define) on IDEM train+test (9,685 sentences).

    Targets (2 cores): >= 300 sentences/s, cold start <= 5 s, peak RSS <= 1.5 GB (issue 3);
    the emotion stage at most 3 ms per sentence (issue 4).
    """
    with exit_on_error():
        from ..bench.analyze import run_analyze_benchmark
        from ..evaluate import write_results

        results = run_analyze_benchmark(data_dir, model=model, runs=runs, threads=threads,
                                        cold_start=cold_start, memory=memory,
                                        progress=progress, limit=limit)
        path = write_results(results, output) if output is not None else None
    if output_format == "json":
        typer.echo(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        metrics = results["metrics"]
        typer.echo(f"idiomkit bench analyze · {results['n']:,} IDEM sentences · model {model} · "
                   f"{threads} threads")
        typer.echo(f"build {metrics['build_s']:.2f}s, first call {metrics['first_call_s']:.2f}s")
        for name, check in results["targets"].items():
            typer.echo(f"{name}: {check['value']} (target {check['target']}, met: "
                       f"{check['met']})")
    if path is not None:
        typer.echo(f"idiomkit: results written to {path}", err=True)


def register_bench(bench_app: typer.Typer) -> None:
    bench_app.command("analyze")(analyze_command)
