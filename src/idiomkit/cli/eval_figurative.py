"""``idiomkit eval figurative``: AStitch Task 1A/1B and SemEval-2022 Task 2 Subtask A."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from . import exit_on_error


def figurative_command(
    dataset: Annotated[str, typer.Option(
        help="astitch (EN), astitch-pt, or semeval-a (SemEval-2022 Task 2 Subtask A).")]
    = "astitch",
    setting: Annotated[str, typer.Option(help="zero-shot, one-shot or few-shot (semeval-a: "
                                         "zero-shot or one-shot).")] = "zero-shot",
    split: Annotated[str, typer.Option(help="AStitch: dev or test.")] = "test",
    subtask: Annotated[str, typer.Option(help="AStitch Task 1 subtask: 1a (idiomatic or not) "
                                         "or 1b (sentence + candidate meaning).")] = "1a",
    input_format: Annotated[str | None, typer.Option(
        "--input-format", help="Comma-separated input formats to train and select among on "
        "dev; 'all' = the paper's and ours. Default: sentence+mwe (paper's best) and span+mwe "
        "(ours). 1b: paraphrase is the paper's pair model; any 1a format (default span+mwe) "
        "trains a 1a classifier and chooses one candidate meaning per sentence with it.",
        show_default=False)] = None,
    model: Annotated[str, typer.Option(help="Base encoder: minilm (packaged), mpnet "
                                       "(packaged, larger), a folder or a hub id (online).")]
    = "minilm",
    num_layers: Annotated[int | None, typer.Option(show_default=False)] = None,
    epochs: Annotated[int, typer.Option(min=1, help="Zero-shot training epochs.")] = 3,
    shot_epochs: Annotated[int, typer.Option(min=1, help="One-/few-shot continued "
                                             "training epochs.")] = 6,
    lr: Annotated[float, typer.Option()] = 1e-3,
    lora_rank: Annotated[int, typer.Option(min=0, help="LoRA rank; 0 = frozen encoder "
                                           "(head only, fast).")] = 8,
    head_hidden: Annotated[int, typer.Option(min=0, help="Hidden units of the head.")] = 0,
    full_finetune: Annotated[bool, typer.Option(
        "--full-finetune", help="AStitch: train every encoder weight instead of LoRA "
        "adapters, as the paper does (use a GPU, --device cuda, and a small --lr such as "
        "3e-5).")] = False,
    batch_size: Annotated[int, typer.Option(min=1, help="AStitch: training batch size.")] = 16,
    device: Annotated[str, typer.Option(help="AStitch: cpu, cuda (cuda:N) or auto (a GPU "
                                        "when torch sees one).")] = "cpu",
    seed: Annotated[int, typer.Option()] = 0,
    seeds: Annotated[str | None, typer.Option(
        help="AStitch: comma-separated seeds to train each format with (e.g. 0,1,2,3,4); dev "
        "chooses among them too, as the paper does. Default: --seed alone.",
        show_default=False)] = None,
    threads: Annotated[int, typer.Option(min=1)] = 2,
    cache: Annotated[bool, typer.Option("--cache/--no-cache", help="Reuse a cached zero-shot "
                                        "model of the same configuration.")] = True,
    predictions: Annotated[Path | None, typer.Option(
        help="semeval-a: folder for the submission-format prediction files.",
        show_default=False)] = None,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Datasets folder (default: $IDIOMKIT_DATA, then ../shared/data).",
        show_default=False)] = None,
    output_format: Annotated[str, typer.Option(
        "--format", help="table (Markdown, beside the paper) or json (the results object).")]
    = "table",
    output: Annotated[Path | None, typer.Option(
        help="Also write the results JSON into this folder.", show_default=False)] = None,
    progress: Annotated[bool, typer.Option(help="Training progress on stderr.")] = True,
) -> None:
    """Train literal/figurative classifiers, select on dev, report dev and test macro-F1
    beside the paper's (AStitch Tables 4 and 5) or per language (SemEval-2022 Task 2 A).

    Examples:

      idiomkit eval figurative --dataset astitch --setting one-shot --split test --format json

      idiomkit eval figurative --dataset astitch --subtask 1b --setting few-shot

      idiomkit eval figurative --dataset semeval-a --setting one-shot --predictions preds/
    """
    if output_format not in ("table", "json"):
        raise typer.BadParameter("use 'table' or 'json'.", param_hint="--format")
    with exit_on_error():
        from ..classify import experiments
        from ..evaluate import write_results

        formats = None
        if input_format == "all":
            formats = experiments.PAPER_FORMATS[subtask] + experiments.OWN_FORMATS[subtask]
        elif input_format:
            formats = tuple(f.strip() for f in input_format.split(",") if f.strip())
        common = dict(formats=formats, model=model, num_layers=num_layers, epochs=epochs,
                      lr=lr, seed=seed, threads=threads, data_dir=data_dir, progress=progress)
        if dataset == "semeval-a":
            from ..classify.semeval import run_semeval

            results = run_semeval(setting, predictions=predictions, use_cache=cache, **common)
        else:
            language = {"astitch": "EN", "astitch-pt": "PT"}.get(dataset)
            if language is None:
                from ..errors import ConfigError

                raise ConfigError("E465", f"eval figurative runs on astitch, astitch-pt or "
                                  f"semeval-a, not '{dataset}'.")
            results = experiments.run_astitch(
                setting, subtask=subtask.lower(), language=language, split=split,
                shot_epochs=shot_epochs, use_cache=cache, lora_rank=lora_rank,
                head_hidden=head_hidden, full=full_finetune, batch_size=batch_size,
                device=device, seeds=_seeds(seeds), **common)
        path = write_results(results, output) if output is not None else None
    if output_format == "json":
        typer.echo(json.dumps(results, indent=2, ensure_ascii=False))
    elif dataset == "semeval-a":
        from ..classify.semeval import markdown_table as semeval_table

        typer.echo(semeval_table(results))
    else:
        typer.echo(experiments.markdown_table(results))
    if path is not None:
        typer.echo(f"idiomkit: results written to {path}", err=True)


def _seeds(text: str | None) -> tuple[int, ...] | None:
    if not text:
        return None
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise typer.BadParameter(f"give integers separated by commas, not {text!r}.",
                                 param_hint="--seeds") from None


def register_eval(eval_app: typer.Typer) -> None:
    eval_app.command("figurative")(figurative_command)
