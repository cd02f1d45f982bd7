"""``idiomkit train tagger``: train the span tagger and save it with its model card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from . import exit_on_error


def tagger_command(
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Folder to write the tagger into (default: the idiomkit cache, "
        "taggers/<name>).", show_default=False)] = None,
    name: Annotated[str, typer.Option(help="Tagger name (for `analyze --tagger NAME`) when "
                                      "saved to the cache.")] = "tagger",
    epochs: Annotated[int, typer.Option(min=1, help="Passes over the training tokens; the "
                                        "epoch with the best dev token F1 is kept.")] = 8,
    lr: Annotated[float, typer.Option()] = 1e-3,
    head_hidden: Annotated[int, typer.Option(min=1, help="Hidden units of the head.")] = 256,
    num_layers: Annotated[int, typer.Option(min=1, help="MiniLM layers read (frozen).")] = 3,
    threshold: Annotated[float, typer.Option(
        min=0.0, max=1.0, help="Span threshold saved with the tagger (its best token's "
        "probability).")] = 0.95,
    hold_out_types: Annotated[float, typer.Option(
        min=0.0, max=0.9, help="Leave this share of the training idiom types (seeded) out of "
        "training, to measure the tagger on idioms it never saw (recall_unseen_types); the "
        "shipped tagger uses 0.")] = 0.0,
    seed: Annotated[int, typer.Option(help="Seed of the head's initialisation and batches.")] = 0,
    threads: Annotated[int, typer.Option(min=1, help="torch threads.")] = 2,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Datasets folder (default: $IDIOMKIT_DATA, then ../shared/data).",
        show_default=False)] = None,
    progress: Annotated[bool, typer.Option(help="Training progress on stderr.")] = True,
) -> None:
    """Train the span tagger on Labelled EPIE and PIE-English (train splits; idiomatic and
    literal sentences) and AStitch's English context sentences (running text): a token head
    over frozen MiniLM states, selected on dev. Prints its dev and test scores (token P/R/F1,
    sentence recall and specificity, share of running-text sentences tagged, recall on idiom
    types never trained on) and saves it (safetensors + card naming the data and this
    command). About 2 minutes on 2 cores.

    Example (the shipped default):

      idiomkit train tagger --output src/idiomkit/detect/trained/default
    """
    with exit_on_error():
        from ..detect.train_tagger import train_tagger
        from ..models.resolve import cache_dir

        target = output or cache_dir() / "taggers" / name
        card = train_tagger(target, data_dir=data_dir, seed=seed, epochs=epochs, lr=lr,
                            head_hidden=head_hidden, num_layers=num_layers,
                            threshold=threshold, threads=threads,
                            hold_out_types=hold_out_types, progress=progress)
    typer.echo(json.dumps(card["metrics"], indent=2))
    typer.echo(f"idiomkit: tagger written to {card['path']}", err=True)


def register_train(train_app: typer.Typer) -> None:
    train_app.command("tagger")(tagger_command)
