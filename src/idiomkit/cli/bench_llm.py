"""``idiomkit bench llm``: requests/s of an OpenAI-compatible server with N requests in flight."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from . import exit_on_error


def _levels(value: str) -> list[int]:
    try:
        levels = [int(item) for item in value.split(",") if item.strip()]
    except ValueError:
        levels = []
    if not levels or min(levels) < 1:
        raise typer.BadParameter("give positive integers, e.g. 1,2,4.", param_hint="--in-flight")
    return levels


def bench_llm_command(
    model: Annotated[str, typer.Option(
        help="Packaged GGUF (smollm2-135m, qwen2.5-0.5b) served on loopback, or with "
        "--base-url the model that server serves.")] = "smollm2-135m",
    base_url: Annotated[str | None, typer.Option(
        "--base-url", help="Measure this OpenAI-compatible server instead of starting "
        "llama_cpp.server locally.", show_default=False)] = None,
    api_key: Annotated[str | None, typer.Option(
        "--api-key", help="API key for --base-url (default: $IDIOMKIT_LLM_API_KEY, then "
        "$OPENAI_API_KEY).", show_default=False)] = None,
    in_flight: Annotated[str, typer.Option(
        "--in-flight", help="Comma-separated numbers of requests in flight.")] = "1,2,4",
    requests: Annotated[int, typer.Option(min=1, help="Requests per level.")] = 8,
    max_tokens: Annotated[int, typer.Option("--max-tokens", min=1)] = 64,
    output_format: Annotated[str, typer.Option(
        "--format", help="table or json (the results object).")] = "table",
    output: Annotated[Path | None, typer.Option(
        help="Also write the results JSON here.", show_default=False)] = None,
    progress: Annotated[bool, typer.Option(help="Progress bars on stderr.")] = True,
) -> None:
    """Throughput (requests/s) with 1, 2 and 4 IdioTS requests in flight.

    Starts llama-cpp-python's server with a packaged GGUF on a free loopback port (unless
    --base-url is given), sends the same detection prompts at each level and stops it.

      idiomkit bench llm --model smollm2-135m --in-flight 1,2,4 --requests 8
    """
    if output_format not in ("table", "json"):
        raise typer.BadParameter("use 'table' or 'json'.", param_hint="--format")
    levels = _levels(in_flight)
    with exit_on_error():
        from ..bench.llm import run_llm_benchmark
        from ..evaluate import write_results

        results = run_llm_benchmark(
            model=model, base_url=base_url, api_key=api_key, in_flight=levels,
            requests=requests, max_tokens=max_tokens, progress=progress,
        )
        path = write_results(results, output) if output is not None else None
    if output_format == "json":
        typer.echo(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        config = results["configuration"]
        typer.echo(f"{config['model']} · {config['server']} · {config['requests']} requests per "
                   f"level · max_tokens={config['max_tokens']}")
        typer.echo("| in flight | seconds | requests/s | completion tokens/s | failed |")
        typer.echo("|---|---|---|---|---|")
        for row in results["metrics"].values():
            typer.echo(f"| {row['in_flight']} | {row['seconds']:.2f} | "
                       f"{row['requests_per_s']:.3f} | {row['completion_tokens_per_s']:.1f} | "
                       f"{row['failed']} |")
    if path is not None:
        typer.echo(f"results written to {path}", err=True)


def register_bench(bench_app: typer.Typer) -> None:
    bench_app.command("llm")(bench_llm_command)
