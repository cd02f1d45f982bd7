"""``idiomkit bench``: speed and memory benchmarks (run by command, not by CI)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import exit_on_error

if TYPE_CHECKING:
    from rich.console import Console

bench_app = typer.Typer(
    help="Speed and memory benchmarks: throughput, cold start, peak RSS, long texts.",
    no_args_is_help=True,
)


def _split_list(value: str, option: str) -> list[str]:
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise typer.BadParameter("give one or more comma-separated values.", param_hint=option)
    return items


def _parse_sizes(value: str) -> list[int]:
    sizes = []
    for item in _split_list(value, "--long-text-sizes"):
        try:
            size = _size_in_bytes(item)
        except ValueError:
            size = 0
        if size <= 0:
            raise typer.BadParameter(
                f"'{item}' is not a size: give bytes (500000) or megabytes (0.5MB).",
                param_hint="--long-text-sizes",
            )
        sizes.append(size)
    return sizes


def _size_in_bytes(item: str) -> int:
    text = item.strip().lower()
    if text.endswith("mb"):
        return int(float(text[:-2]) * 1_000_000)
    if text.endswith("kb"):
        return int(float(text[:-2]) * 1_000)
    return int(float(text))


@bench_app.command("find")
def find_command(
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Folder with the idem/ dataset (default: $IDIOMKIT_DATA, then "
        "../shared/data).", show_default=False,
    )] = None,
    methods: Annotated[str, typer.Option(
        "--methods", help="Comma-separated matchers to measure.",
    )] = "default,idem-rules",
    runs: Annotated[int, typer.Option(
        "--runs", min=1, help="Repeated passes / fresh processes / long-text calls per "
        "measurement; the median is reported.",
    )] = 3,
    long_text: Annotated[bool, typer.Option(
        "--long-text/--no-long-text", help="Time Finder.find on long texts built from IDEM.",
    )] = True,
    long_text_sizes: Annotated[str, typer.Option(
        "--long-text-sizes", help="Comma-separated long-text sizes: bytes, or with a kB/MB "
        "suffix.",
    )] = "0.5MB,1MB",
    long_text_methods: Annotated[str, typer.Option(
        "--long-text-methods", help="Methods timed on the long texts (idem-rules takes minutes "
        "per 100 kB).",
    )] = "default",
    cold_start: Annotated[bool, typer.Option(
        "--cold-start/--no-cold-start", help="Time fresh `idiomkit find` processes.",
    )] = True,
    memory: Annotated[bool, typer.Option(
        "--memory/--no-memory", help="Measure the peak RSS of a fresh process.",
    )] = True,
    output_format: Annotated[str, typer.Option(
        "--format", "-f", help="table (readable) or json (the results object).",
    )] = "table",
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Also write the results file into this folder.",
        show_default=False,
    )] = None,
    progress: Annotated[bool, typer.Option(
        "--progress/--no-progress", help="Show progress on stderr.",
    )] = True,
) -> None:
    """Benchmark the idiom finder on IDEM train+test (9,685 sentences).

    Measures, per method: build time, throughput (sentences/s, median of --runs passes), cold
    start of a fresh `idiomkit find` process, peak RSS of a fresh process that runs the whole
    dataset, and Finder.find on ~0.5 MB and ~1 MB texts.

    Examples:

      idiomkit bench find --runs 3

      idiomkit bench find --methods default --format json --output results/
    """
    if output_format not in ("table", "json"):
        raise typer.BadParameter("use 'table' or 'json'.", param_hint="--format")
    method_list = _split_list(methods, "--methods")
    sizes = _parse_sizes(long_text_sizes)
    with exit_on_error():
        from ..bench import run_find_benchmark
        from ..evaluate import write_results

        results = run_find_benchmark(
            data_dir=data_dir, methods=method_list, runs=runs, long_text=long_text,
            progress=progress, long_text_sizes=sizes,
            long_text_methods=_split_list(long_text_methods, "--long-text-methods"),
            cold_start=cold_start, memory=memory,
        )
        path = write_results(results, output) if output is not None else None
    if output_format == "json":
        typer.echo(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        from rich.console import Console

        print_results(results, Console())
    if path is not None:
        typer.echo(f"idiomkit: results written to {path}", err=True)


def print_results(results: dict[str, Any], console: Console) -> None:
    """Readable tables of a ``bench-find`` results object."""
    from rich.table import Table

    metrics = results["metrics"]
    methods = [m for m in results["configuration"]["methods"] if m in metrics]
    machine = results["configuration"].get("machine", {})
    console.print(
        f"[bold]idiomkit bench find[/bold] · {results['dataset']} {results['split']} · "
        f"{results['n']:,} sentences · runs={results['configuration']['runs']} · "
        f"{machine.get('cpu_count')} CPUs · Python {machine.get('python')}"
    )
    targets = {k.split(".", 1)[1]: v for k, v in results.get("targets", {}).items()
               if k.startswith("default.")}

    table = Table(title="Finder speed and memory", title_justify="left")
    table.add_column("measure")
    for method in methods:
        table.add_column(method, justify="right")
    table.add_column("target (default)", justify="right")

    def row(label: str, path: str, fmt: str, runs_path: str | None = None) -> None:
        cells = []
        for method in methods:
            value = _get(metrics[method], path)
            cell = "–" if value is None else format(value, fmt)
            if runs_path is not None and _get(metrics[method], runs_path) is not None:
                cell += " [dim](" + ", ".join(
                    format(v, fmt) for v in _get(metrics[method], runs_path)) + ")[/dim]"
            cells.append(cell)
        target = targets.get(path)
        target_cell = "–"
        if target is not None:
            mark = {True: "[green]met[/green]", False: "[red]missed[/red]", None: "–"}
            target_cell = f"{target['target']} {mark[target['met']]}"
        table.add_row(label, *cells, target_cell)

    row("build Finder (s)", "build_s", ".3f")
    row("first find call (s)", "first_call_s", ".3f")
    row("throughput, median (runs) sent/s", "throughput.median_sentences_per_s", ",.0f",
        "throughput.runs_sentences_per_s")
    row("cold start to output, median (runs) s", "cold_start.median_s", ".2f",
        "cold_start.runs_s")
    row("cold start to exit, median s", "cold_start.median_exit_s", ".2f")
    row("peak RSS (MiB)", "peak_rss_mb", ".1f")
    row("RSS before Finder (MiB)", "rss_before_finder_mb", ".1f")
    console.print(table)

    for name, value in (metrics.get("ratios") or {}).items():
        console.print(f"{name.replace('_', ' ')}: [bold]{value:.2f}×[/bold]")

    long_rows = [(m, metrics[m]["long_text"]) for m in methods if "long_text" in metrics[m]]
    if long_rows:
        long_table = Table(title="Long texts (Finder.find on one text)", title_justify="left")
        for column in ("method", "size", "bytes", "idioms", "runs (s)", "median (s)", "s/MB"):
            long_table.add_column(column, justify="left" if column == "method" else "right")
        for method, long in long_rows:
            for label, entry in long["sizes"].items():
                long_table.add_row(
                    method, label, f"{entry['bytes']:,}", f"{entry['idioms']:,}",
                    ", ".join(f"{s:.2f}" for s in entry["runs_s"]),
                    f"{entry['median_s']:.3f}", f"{entry['s_per_mb']:.3f}",
                )
        console.print(long_table)
        for method, long in long_rows:
            if "per_mb_ratio" in long:
                console.print(
                    f"{method}: s/MB largest ÷ smallest = [bold]{long['per_mb_ratio']:.2f}[/bold]"
                    " (≈1 means linear time)"
                )


def _get(values: dict[str, Any], path: str) -> Any:
    for part in path.split("."):
        if not isinstance(values, dict):
            return None
        values = values.get(part)
    return values


#: Modules under ``idiomkit.cli`` that add ``bench`` sub-commands, each with
#: ``register_bench(bench_app)``; one not written yet is skipped.
BENCH_MODULES = ("bench_analyze", "bench_llm", "bench_audit")


def register(app: typer.Typer) -> None:
    from .app import register_commands

    register_commands(bench_app, BENCH_MODULES, hook="register_bench")
    app.add_typer(bench_app, name="bench")
