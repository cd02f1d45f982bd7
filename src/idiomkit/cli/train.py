"""``idiomkit train``: train a literal/figurative classifier and save it with its model card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from . import exit_on_error

train_app = typer.Typer(
    help="Train models (small adapters + head over a packaged encoder, safetensors + card).",
    no_args_is_help=True,
)

_DATA_DIR = typer.Option("--data-dir", help="Datasets folder (default: $IDIOMKIT_DATA, then "
                         "../shared/data).", show_default=False)


@train_app.command("default")
def default_command(
    output: Annotated[Path, typer.Option(
        "--output", "-o", help="Folder to write the model into.")] = Path("models/default"),
    num_layers: Annotated[int, typer.Option(help="Encoder layers kept (speed vs accuracy).")]
    = 3,
    epochs: Annotated[int, typer.Option(min=1)] = 40,
    lora_rank: Annotated[int, typer.Option(min=0, help="LoRA rank; 0 = frozen encoder, "
                                           "train the head only.")] = 0,
    head_hidden: Annotated[int, typer.Option(min=0, help="Hidden units of the head "
                                             "(0 = linear).")] = 256,
    lr: Annotated[float, typer.Option(help="Learning rate (head and adapters).")] = 1e-3,
    seed: Annotated[int, typer.Option()] = 0,
    threads: Annotated[int, typer.Option(min=1, help="torch.set_num_threads")] = 2,
    device: Annotated[str, typer.Option(
        help="cpu, cuda (cuda:N) or auto. A GPU makes --lora-rank > 0 practical.")] = "cpu",
    hold_out_idioms: Annotated[float, typer.Option(
        min=0.0, max=0.99, help="Leave this fraction of the idioms (seeded) out of training and "
        "report scores on their sentences (metrics.unseen_idioms): how the recipe does on "
        "idioms it never saw. Such a model is for measuring, not shipping.")] = 0.0,
    min_recall: Annotated[float, typer.Option(
        help="Threshold rule: the highest threshold keeping EPIE dev idiomatic recall >= this."
    )] = 0.92,
    pie_idiomatic: Annotated[int | None, typer.Option(
        min=0, help="PIE-English idiomatic train sentences sampled (every Literal one is "
        "kept). Default: all of them.", show_default=False)] = None,
    idem_train: Annotated[int, typer.Option(
        min=0, help="IDEM train sentences sampled (all idiomatic).")] = 4000,
    data_dir: Annotated[Path | None, _DATA_DIR] = None,
) -> None:
    """Train the default `analyze` classifier (AStitch EN, EPIE Formal, PIE-English, IDEM) and
    print its per-source held-out metrics.

    To ship it: copy the folder to src/idiomkit/classify/trained/default/.
    """
    with exit_on_error():
        from ..classify.default import train_default

        card = train_default(output, data_dir=data_dir, seed=seed, num_layers=num_layers,
                             epochs=epochs, lr=lr, threads=threads, device=device,
                             hold_out=hold_out_idioms, min_recall=min_recall,
                             lora_rank=lora_rank, head_hidden=head_hidden,
                             pie_idiomatic=pie_idiomatic, idem_train=idem_train)
    typer.echo(json.dumps(card["metrics"], indent=2))
    typer.echo(f"idiomkit: model written to {output}", err=True)


@train_app.command("figurative")
def figurative_command(
    dataset: Annotated[str | None, typer.Option(
        help="A registered dataset (astitch, epie-formal, pie-english, semeval-a, ...).",
        show_default=False)] = None,
    train_split: Annotated[str, typer.Option("--train-split", help="Split(s) to train on, "
                                             "comma-separated.")] = "train",
    dev_split: Annotated[str, typer.Option("--dev-split")] = "dev",
    train_file: Annotated[Path | None, typer.Option(
        "--train-file", help="Instead of --dataset: a CSV with text, idiom, label (and "
        "optionally previous, next, start, end, definition).", show_default=False)] = None,
    dev_file: Annotated[Path | None, typer.Option("--dev-file", show_default=False)] = None,
    input_format: Annotated[str, typer.Option(
        "--input-format", help="sentence, context, sentence+mwe, context+mwe, span, span+mwe, "
        "definition, paraphrase.")] = "span",
    model: Annotated[str, typer.Option(help="Base encoder: minilm, mpnet, a folder or a hub id."
                                       )] = "minilm",
    num_layers: Annotated[int | None, typer.Option(show_default=False)] = None,
    epochs: Annotated[int, typer.Option(min=1)] = 4,
    batch_size: Annotated[int, typer.Option(min=1)] = 16,
    lr: Annotated[float, typer.Option()] = 1e-3,
    seed: Annotated[int, typer.Option()] = 0,
    threads: Annotated[int, typer.Option(min=1)] = 2,
    name: Annotated[str | None, typer.Option(
        help="Save under this name in the user model folder (see `idiomkit models list`).",
        show_default=False)] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", show_default=False)] = None,
    data_dir: Annotated[Path | None, _DATA_DIR] = None,
) -> None:
    """Train a literal/figurative classifier on a dataset or on your own CSV files."""
    if (dataset is None) == (train_file is None):
        raise typer.BadParameter("give --dataset or --train-file.", param_hint="--dataset")
    if train_file is not None and dev_file is None:
        raise typer.BadParameter("--train-file needs --dev-file (early stopping selects on it).",
                                 param_hint="--dev-file")
    with exit_on_error():
        from ..classify.data import items_from_dataset, read_items_csv
        from ..classify.model import ClassifierConfig, train_classifier
        from ..evaluate.figurative import binary_scores
        from ..models.artifacts import user_models_dir
        from ..models.cards import make_card
        from ..models.train import TrainConfig

        if dataset is not None:
            from ..datasets import load_dataset

            train = [i for split in train_split.split(",") for i in
                     items_from_dataset(load_dataset(dataset, split.strip(), data_dir))]
            dev = items_from_dataset(load_dataset(dataset, dev_split, data_dir))
            data = {"dataset": dataset, "train": train_split, "dev": dev_split}
        else:
            train, dev = read_items_csv(train_file), read_items_csv(dev_file)
            data = {"train_file": str(train_file), "dev_file": str(dev_file)}
        data.update({"n_train": len(train), "n_dev": len(dev)})
        config = ClassifierConfig(base=model, num_layers=num_layers, format=input_format)
        train_config = TrainConfig(epochs=epochs, batch_size=batch_size, lr=lr, seed=seed,
                                   threads=threads)
        classifier, result = train_classifier(train, dev, config, train_config)
        probs = classifier.predict_proba(dev)
        metrics = {"dev": binary_scores([i.label for i in dev],
                                        (probs >= 0.5).astype(int).tolist())}
        label = name or f"{dataset or train_file.stem}-{input_format}-seed{seed}"
        target = output or user_models_dir() / label
        card = make_card(label, "figurative-classification", {}, data, metrics, seed,
                         training={**train_config.to_dict(), "history": result.history,
                                   "best_epoch": result.best_epoch})
        classifier.save(target, card)
    typer.echo(json.dumps(metrics, indent=2))
    typer.echo(f"idiomkit: model written to {target}", err=True)


#: Modules under ``idiomkit.cli`` that add ``train`` sub-commands, each with
#: ``register_train(train_app)``; one not written yet is skipped.
TRAIN_MODULES = ("train_emotion", "train_tagger")


def register(app: typer.Typer) -> None:
    from .app import register_commands

    register_commands(train_app, TRAIN_MODULES, hook="register_train")
    app.add_typer(train_app, name="train")
