"""Training an emotion model: LoRA adapters and a 36-way head, selected on a validation split.

Runs the shared seeded loop (:func:`idiomkit.models.train.fit`): same seed and thread count,
same weights. The dev score is the weighted F1 on the validation split (the paper's metric).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

import numpy as np

from ..datasets.base import Example
from ..errors import DataError
from .labels import EMOTIONS
from .model import EmotionConfig, TrainedEmotionModel, build_net, render_inputs

_INDEX = {label: i for i, label in enumerate(EMOTIONS)}


def label_ids(examples: Sequence[Example]) -> np.ndarray:
    """Class indices (:data:`EMOTIONS` order) of ``examples``' labels."""
    bad = [e for e in examples if e.label not in _INDEX]
    if bad:
        raise DataError("E347", f"{len(bad)} examples have a label outside the 36 emotions "
                        f"(first: {bad[0].id} {bad[0].label!r}); read training files with "
                        "idiomkit.emotion.data.read_emotion_csv, which reports and skips them.")
    return np.asarray([_INDEX[e.label] for e in examples], dtype=np.int64)


def model_inputs(model, examples: Sequence[Example], definitions: Mapping[str, str]
                 ) -> tuple[list[str], list[str | None], list[str | None]]:
    """(texts, idioms, definitions) of ``examples`` for an idiom-aware or -ignorant model."""
    texts = [e.text for e in examples]
    idioms = [e.idiom for e in examples]
    defs = [definitions.get(e.idiom_id or "") for e in examples]
    return texts, idioms, defs


def train_emotion_model(fit_examples: Sequence[Example], val_examples: Sequence[Example],
                        definitions: Mapping[str, str], config: EmotionConfig, train_config,
                        *, progress: bool = True):
    """Train on ``fit_examples``, keep the weights with the best validation weighted F1.

    Returns ``(TrainedEmotionModel, FitResult)``.
    """
    from ..classify.encoding import encode, length_batches, pad
    from ..evaluate.emotion import emotion_scores
    from ..models.encoder import import_torch
    from ..models.train import fit, seed_everything
    from .head import balanced_weights

    torch, _ = import_torch()
    config.check()
    if not fit_examples or not val_examples:
        raise DataError("E348", "Training an emotion model needs train and validation "
                        f"examples; got {len(fit_examples)} and {len(val_examples)}.")
    seed_everything(train_config.seed, train_config.threads)
    model = TrainedEmotionModel(config, build_net(config))
    labels = label_ids(fit_examples)
    gold = label_ids(val_examples)
    texts, idioms, defs = model_inputs(model, fit_examples, definitions)
    firsts, seconds = render_inputs(config, texts, idioms, defs)
    encoded = encode(model.tokenizer, firsts, seconds, [[] for _ in firsts])
    lengths = [len(e) for e in encoded]
    val_inputs = model_inputs(model, val_examples, definitions)
    weights = None
    if config.class_weight == "balanced":
        weights = torch.from_numpy(balanced_weights(labels, len(EMOTIONS)).astype(np.float32))

    def loss_fn(logits, target):
        return torch.nn.functional.cross_entropy(logits, target, weight=weights)

    if config.train_layers is not None:
        # the layers below the adapters never change: run them once, train on their output
        start = model.net.first_trained
        val_firsts, val_seconds = render_inputs(config, *val_inputs)
        val_encoded = encode(model.tokenizer, val_firsts, val_seconds, [[] for _ in val_firsts])
        if progress:
            print(f"caching the output of the {start} frozen layers for "
                  f"{len(encoded) + len(val_encoded)} sentences", file=sys.stderr, flush=True)
        lower = lower_states(model.net, encoded, start)
        val_lower = lower_states(model.net, val_encoded, start)
        runner = _Cached(model.net)

        def batches(rng: np.random.Generator):
            for batch in length_batches(lengths, train_config.batch_size, rng):
                states, mask = pad_states([lower[i] for i in batch])
                yield ({"lower": torch.from_numpy(states), "mask": torch.from_numpy(mask)},
                       torch.from_numpy(labels[batch]))

        def evaluate() -> float:
            model.refresh()
            predicted = np.zeros(len(val_lower), dtype=np.int64)
            for batch in length_batches([len(x) for x in val_lower], 64):
                states, mask = pad_states([val_lower[i] for i in batch])
                logits = model.net.forward_cached(torch.from_numpy(states),
                                                  torch.from_numpy(mask))
                predicted[batch] = logits.argmax(1).numpy()
            return emotion_scores(gold, predicted)["weighted_f1"]
    else:
        runner = model.net

        def batches(rng: np.random.Generator):
            for batch in length_batches(lengths, train_config.batch_size, rng):
                ids, types, mask = pad([encoded[i] for i in batch])
                yield ({"ids": torch.from_numpy(ids), "types": torch.from_numpy(types),
                        "mask": torch.from_numpy(mask)}, torch.from_numpy(labels[batch]))

        def evaluate() -> float:
            model.refresh()
            predicted = model.predict_proba(*val_inputs).argmax(1)
            return emotion_scores(gold, predicted)["weighted_f1"]

    steps = (len(encoded) + train_config.batch_size - 1) // train_config.batch_size
    if progress:
        print(f"training emotion model ({config.input} over {config.base}, LoRA rank "
              f"{config.lora_rank}) on {len(fit_examples)} sentences, validating on "
              f"{len(val_examples)}", file=sys.stderr, flush=True)
    result = fit(runner, batches, loss_fn, evaluate, train_config, steps_per_epoch=steps,
                 progress=progress)
    model.refresh()
    return model, result


def lower_states(net, encoded, upto: int, batch_size: int = 64) -> list[np.ndarray]:
    """Token states after the first ``upto`` layers for each encoded input (float16, unpadded)."""
    import torch

    from ..classify.encoding import length_batches, pad

    out: list[np.ndarray] = [np.zeros(0)] * len(encoded)
    with torch.inference_mode():
        for batch in length_batches([len(e) for e in encoded], batch_size):
            ids, types, mask = pad([encoded[i] for i in batch])
            states = net.states(torch.from_numpy(ids), torch.from_numpy(types),
                                torch.from_numpy(mask), upto=upto).float().numpy()
            for row, i in enumerate(batch):
                out[i] = states[row, :len(encoded[i])].astype(np.float16)
    return out


def pad_states(rows: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``(states [batch, tokens, hidden] float32, mask [batch, tokens])`` padded per batch."""
    length = max(len(r) for r in rows)
    states = np.zeros((len(rows), length, rows[0].shape[1]), dtype=np.float32)
    mask = np.zeros((len(rows), length), dtype=np.float32)
    for i, r in enumerate(rows):
        states[i, :len(r)] = r
        mask[i, :len(r)] = 1.0
    return states, mask


def _Cached(net):
    """A module whose forward runs ``net`` from cached lower-layer states."""
    import torch

    class Cached(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = net

        def forward(self, lower, mask):
            return self.net.forward_cached(lower, mask)

    return Cached()


def train_and_save(config: EmotionConfig, *, output=None, name: str = "emotion",
                   epochs: int = 5, lr: float = 2e-3, batch_size: int = 16,
                   validation: float = 0.1, seed: int = 0, threads: int = 1,
                   train_file=None, data_dir=None, progress: bool = True,
                   validation_seed: int | None = None) -> dict:
    """Train on IDEM train (or ``train_file``), select on the seeded validation split, score
    on IDEM test (gold idioms, with and without the sibling prior) and save model + card.

    ``validation_seed`` (default: ``seed``) carves the validation split; a different training
    ``seed`` on the same split gives ensemble members that can be weighted on that split.

    Returns ``{"path", "metrics"}``.
    """
    from pathlib import Path

    from ..evaluate.emotion import emotion_scores
    from ..models.cards import make_card
    from ..models.train import TrainConfig
    from .data import carve_validation, load_emotion_data
    from .experiments import score_model
    from .model import user_models_dir

    train = load_emotion_data("train", data_dir, train_file)
    test = load_emotion_data("test", data_dir)
    validation_seed = seed if validation_seed is None else validation_seed
    fit_part, val = carve_validation(train.examples, validation, validation_seed)
    train_config = TrainConfig(epochs=epochs, batch_size=batch_size, lr=lr, seed=seed,
                               threads=threads, patience=2, evals_per_epoch=2)
    model, result = train_emotion_model(fit_part, val, train.definitions, config, train_config,
                                        progress=progress)
    scored = score_model([model], train, test, [e.idiom for e in test.examples],
                         [train.definitions.get(e.idiom_id or "") for e in test.examples],
                         seed=validation_seed, fraction=validation)
    metrics = {"validation": {"weighted_f1": result.best_score, "n": len(val),
                              "best_epoch": result.best_epoch},
               "test": scored["without_prior"],
               "test_with_sibling_prior": {
                   **emotion_scores(label_ids(test.examples), scored["predicted"]),
                   "prior_weight": scored["configuration"]["prior_weight"]}}
    data = {
        "train": {"dataset": "IDEM (Prochnow et al., LREC-COLING 2024)",
                  "file": train.files[0].name, "checksum": train.checksum,
                  "sentences": len(train), "fit": len(fit_part), "validation": len(val),
                  "validation_seed": validation_seed, "validation_fraction": validation,
                  "skipped_rows": [s.message() for s in train.skipped],
                  "licence": "IDEM states no licence (research use); sentences generated by "
                             "GPT-4, idioms from SLIDE (CC BY-SA 3.0), definitions from "
                             "Wiktionary (CC BY-SA)"},
        "test": {"file": test.files[0].name, "checksum": test.checksum,
                 "sentences": len(test)},
    }
    notes = ("Reads the sentence through the Table 2 input configuration "
             f"'{config.input}'. Test scores are on IDEM test with gold idioms; "
             "'test_with_sibling_prior' adds the IDEM-specific sibling prior "
             "(idiomkit.emotion.prior), which is never used outside IDEM evaluation.")
    target = Path(output) if output is not None else user_models_dir() / name
    command = ["idiomkit", "train", "emotion", "--base", config.base, "--input", config.input,
               "--lora-rank", str(config.lora_rank),
               "--train-layers", str(config.train_layers or 0),
               "--epochs", str(epochs), "--lr", str(lr), "--batch-size", str(batch_size),
               "--class-weight", config.class_weight or "none",
               "--validation", str(validation), "--seed", str(seed), "--threads", str(threads)]
    if validation_seed != seed:
        command += ["--validation-seed", str(validation_seed)]
    if config.num_layers is not None:
        command += ["--num-layers", str(config.num_layers)]
    if train_file is not None:
        command += ["--train-file", str(train_file)]
    command += ["--output", str(output)] if output is not None else ["--name", name]
    card = make_card(name, "emotion", config.to_dict(), data, metrics, seed, command=command,
                     notes=notes, training={**train_config.to_dict(), "history": result.history,
                                            "seconds": result.seconds})
    model.save(target, card)
    return {"path": target, "metrics": metrics}
