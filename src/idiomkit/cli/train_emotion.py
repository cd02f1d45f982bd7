"""``idiomkit train emotion``: train an IDEM emotion model and save it with its model card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from . import exit_on_error


def emotion_command(
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Folder to write the model into (default: the idiomkit cache, "
        "under --name).", show_default=False)] = None,
    name: Annotated[str | None, typer.Option(
        help="Model name (for `eval emotion --model NAME`; default: the --output folder's "
        "name, else 'emotion').", show_default=False)] = None,
    base: Annotated[str, typer.Option(help="Base encoder: minilm, mpnet, a folder or a hub "
                                      "id.")] = "minilm",
    input_config: Annotated[str, typer.Option(
        "--input", help="Table 2 input: seq-ignorant, seq-aware, pair-ignorant, pair-aware.")]
    = "seq-ignorant",
    lora_rank: Annotated[int, typer.Option(min=0, help="LoRA rank (0: head only).")] = 16,
    train_layers: Annotated[int, typer.Option(
        min=0, help="Adapters in the top N layers only (their inputs are cached: fast on a "
        "CPU); 0 = all layers.")] = 2,
    num_layers: Annotated[int | None, typer.Option(
        help="Encoder layers kept (default: all).", show_default=False)] = None,
    epochs: Annotated[int, typer.Option(min=1)] = 5,
    lr: Annotated[float, typer.Option()] = 2e-3,
    batch_size: Annotated[int, typer.Option(min=1)] = 16,
    class_weight: Annotated[str, typer.Option(help="none or balanced.")] = "none",
    validation: Annotated[float, typer.Option(help="Share of train held out for "
                                              "selection.")] = 0.1,
    seed: Annotated[int, typer.Option(help="Seed of training (and of the validation split "
                                      "unless --validation-seed).")] = 0,
    validation_seed: Annotated[int | None, typer.Option(
        help="Seed of the validation split (default: --seed). Ensemble members must share it.",
        show_default=False)] = None,
    threads: Annotated[int, typer.Option(min=1, help="torch threads (1 is fastest on a "
                                         "busy CPU).")] = 1,
    train_file: Annotated[Path | None, typer.Option(
        help="An IDEM-format CSV instead of IDEM train (rows with a label outside the 36 "
        "are reported and skipped).", show_default=False)] = None,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Datasets folder (default: $IDIOMKIT_DATA, then ../shared/data).",
        show_default=False)] = None,
    progress: Annotated[bool, typer.Option(help="Training progress on stderr.")] = True,
) -> None:
    """Train an emotion model on IDEM train (LoRA adapters + 36-way head), select it on a
    seeded validation split carved from train, report validation and test scores, and save it
    (safetensors + card naming the data and this command).

    Example (the shipped default):

      idiomkit train emotion --output src/idiomkit/emotion/data/default
    """
    with exit_on_error():
        from ..emotion.model import EmotionConfig
        from ..emotion.train import train_and_save

        config = EmotionConfig(base=base, input=input_config, lora_rank=lora_rank,
                               train_layers=train_layers or None, num_layers=num_layers,
                               class_weight=None if class_weight == "none" else class_weight)
        summary = train_and_save(
            config, output=output, name=name or (output.name if output else "emotion"),
            epochs=epochs, lr=lr, batch_size=batch_size,
            validation=validation, seed=seed, threads=threads, train_file=train_file,
            data_dir=data_dir, progress=progress, validation_seed=validation_seed)
    typer.echo(json.dumps(summary["metrics"], indent=2))
    typer.echo(f"idiomkit: model written to {summary['path']}", err=True)


def register_train(train_app: typer.Typer) -> None:
    train_app.command("emotion")(emotion_command)
