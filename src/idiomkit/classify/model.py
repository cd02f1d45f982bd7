"""The literal/figurative classifier: a packaged encoder with LoRA adapters and a linear head.

Training runs in torch (:func:`train_classifier`); a saved classifier is a folder with the
adapters and the head in ``model.safetensors`` (a few hundred kB) and a card. At inference,
BERT-type encoders (the packaged MiniLM) run in NumPy with the adapters merged in
(:mod:`idiomkit.models.npbert`): no torch import, so ``idiomkit analyze`` starts fast. Other
encoders (MPNet) run in torch.

Inputs are rendered by a format (:mod:`idiomkit.classify.formats`); items whose rendering is the
same (several candidates in one sentence under the ``span`` format) share one forward pass and
differ only in the tokens they pool.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ModelError, check_param
from ..models.artifacts import check_shapes, load_artifact, save_artifact
from ..models.cards import CardConfig
from ..models.resolve import resolve_model_path
from ..models.runtime import NumpyRuntime, TorchRuntime
from .encoding import Encoded, encode, length_batches, load_tokenizer, pad, span_mask
from .formats import Format, Item, get_format, render

TASK = "figurative-classification"


@dataclass
class ClassifierConfig(CardConfig):
    """What a classifier is: its base encoder, layers kept, input format, adapters, threshold."""

    base: str = "minilm"
    #: layers of the base encoder kept (fewer layers: faster; None: all)
    num_layers: int | None = None
    format: str = "span"
    max_length: int = 128
    #: LoRA rank of the adapters; 0 = frozen encoder (only the head is trained, on cached
    #: features: the cheap option on a busy CPU)
    lora_rank: int = 8
    #: train every encoder weight instead of adapters (a GPU's job; the saved model holds the
    #: whole encoder, so it is for experiments, not for shipping)
    full: bool = False
    lora_alpha: float = 16.0
    #: width of a hidden ReLU layer in the head (0 = linear head)
    head_hidden: int = 0
    dropout: float = 0.1
    #: P(label 1) at or above which the label is 1 (figurative)
    threshold: float = 0.5

    def check(self) -> Format:
        fmt = get_format(self.format)
        check_param("ClassifierConfig", "max_length", self.max_length,
                    isinstance(self.max_length, int) and 8 <= self.max_length <= 512,
                    "an integer in [8, 512]")
        check_param("ClassifierConfig", "lora_rank", self.lora_rank,
                    isinstance(self.lora_rank, int) and self.lora_rank >= 0, "an integer >= 0")
        check_param("ClassifierConfig", "head_hidden", self.head_hidden,
                    isinstance(self.head_hidden, int) and self.head_hidden >= 0,
                    "an integer >= 0")
        check_param("ClassifierConfig", "threshold", self.threshold,
                    isinstance(self.threshold, (int, float)) and 0 <= self.threshold <= 1,
                    "a float in [0, 1]")
        return fmt




def pool(states: np.ndarray, mask: np.ndarray, smask: np.ndarray | None) -> np.ndarray:
    """Mean over the attended tokens, and (``smask`` given) over the span's tokens beside it."""
    mean = (states * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1.0)
    if smask is None:
        return mean
    span = (states * smask[..., None]).sum(1) / np.maximum(smask.sum(1, keepdims=True), 1.0)
    return np.concatenate([mean, span], axis=-1)


HEAD_KEYS = ("head.weight", "head.bias", "head.hidden.weight", "head.hidden.bias")


def head_shapes(config: ClassifierConfig, features: int) -> dict[str, tuple[int, ...]]:
    """The head's tensor names and shapes for ``features`` input features."""
    if config.head_hidden:
        return {"head.hidden.weight": (config.head_hidden, features),
                "head.hidden.bias": (config.head_hidden,),
                "head.weight": (1, config.head_hidden), "head.bias": (1,)}
    return {"head.weight": (1, features), "head.bias": (1,)}


def apply_head(head: dict[str, np.ndarray], feats: np.ndarray) -> np.ndarray:
    """Logits of the (linear or one-hidden-layer ReLU) head."""
    if "head.hidden.weight" in head:
        feats = np.maximum(feats @ head["head.hidden.weight"].T + head["head.hidden.bias"], 0.0)
    return (feats @ head["head.weight"].T + head["head.bias"])[:, 0]


class FigurativeClassifier:
    """P(figurative) for candidates in context.

    >>> clf = FigurativeClassifier.load("default")                    # doctest: +SKIP
    >>> clf.predict_proba([Item("He kicked the bucket last year.", "kick the bucket",
    ...                         span=(3, 20))])                       # doctest: +SKIP
    array([0.97], dtype=float32)
    """

    def __init__(self, config: ClassifierConfig, backend, head: dict[str, np.ndarray],
                 card: dict[str, Any] | None = None) -> None:
        self.config = config
        self.format = config.check()
        self.path = resolve_model_path(config.base)
        self.tokenizer = load_tokenizer(self.path, config.max_length)
        self.backend = backend
        self.head = {k: np.asarray(v, dtype=np.float32) for k, v in head.items()}
        self.card = card or {}

    # --- loading -------------------------------------------------------------------------
    @classmethod
    def load(cls, name: str | Path = "default", *, backend: str = "auto"
             ) -> FigurativeClassifier:
        """Load a saved classifier (folder, shipped name or user model name).

        ``backend``: ``numpy`` (BERT-type encoders), ``torch``, or ``auto`` (NumPy when it can).
        """
        tensors, card = load_artifact(name)
        config = ClassifierConfig.from_dict(card["config"])
        config.check()
        path = resolve_model_path(config.base)
        model_type = _model_type(path)
        if backend == "auto":
            backend = "numpy" if model_type == "bert" and not config.full else "torch"
        if config.full and backend == "numpy":
            raise ModelError("E618", f"'{name}' is fully fine-tuned (its own encoder weights); "
                             "it runs on the torch backend only: load it with backend='torch'.")
        check_param("FigurativeClassifier.load", "backend", backend,
                    backend in ("numpy", "torch"), "'numpy', 'torch' or 'auto'")
        head = {k: tensors.pop(k) for k in HEAD_KEYS if k in tensors}
        if "head.weight" not in head:
            raise ModelError("E612", f"The weights of '{name}' have no head.weight; it is not "
                             "a figurative classifier. Retrain it.")
        if backend == "numpy":
            from ..models.lora import merged_deltas

            _check_lora_shapes(tensors, config, name)
            deltas = merged_deltas(tensors, config.lora_alpha, max(1, config.lora_rank))
            runtime = NumpyRuntime(path, config.num_layers, deltas)
        else:
            net = build_net(config)
            expected = {k: tuple(v.shape) for k, v in net.saved_state().items()}
            check_shapes({**tensors, **head}, expected, str(name))
            net.load_saved_state({**tensors, **head})
            runtime = TorchRuntime(net)
        features = runtime.hidden * (2 if get_format(config.format).pooling == "span" else 1)
        check_shapes(head, head_shapes(config, features), str(name))
        return cls(config, runtime, head, card)

    # --- prediction ----------------------------------------------------------------------
    def predict_proba(self, items: Sequence[Item], *, batch_size: int = 32) -> np.ndarray:
        """P(label 1) for each item (float32), in input order."""
        logits = apply_head(self.head, self.features(items, batch_size=batch_size))
        return (1.0 / (1.0 + np.exp(-logits))).astype(np.float32)

    def features(self, items: Sequence[Item], *, batch_size: int = 32) -> np.ndarray:
        """The pooled encoder features the head reads, one row per item."""
        width = self.backend.hidden * (2 if self.format.pooling == "span" else 1)
        out = np.zeros((len(items), width), dtype=np.float32)
        if not items:
            return out
        # one input per distinct rendering; each item pools its own span
        inputs: dict[tuple[str, str | None], int] = {}
        spans: list[list[tuple[int, int] | None]] = []
        refs: list[tuple[int, int]] = []
        for item in items:
            first, second, span = render(item, self.format)
            key = (first, second)
            if key not in inputs:
                inputs[key] = len(inputs)
                spans.append([])
            index = inputs[key]
            spans[index].append(span)
            refs.append((index, len(spans[index]) - 1))
        keys = list(inputs)
        encoded = encode(self.tokenizer, [k[0] for k in keys], [k[1] for k in keys], spans)
        by_input: dict[int, list[int]] = defaultdict(list)
        for position, (index, _) in enumerate(refs):
            by_input[index].append(position)
        for batch in length_batches([len(e) for e in encoded], batch_size):
            rows = [encoded[i] for i in batch]
            ids, types, mask = pad(rows)
            states = self.backend.states(ids, types, mask)
            # expand to one row per item
            item_rows, which, positions = [], [], []
            for row, index in enumerate(batch):
                for position in by_input[index]:
                    item_rows.append(row)
                    which.append(refs[position][1])
                    positions.append(position)
            states_i = states[item_rows]
            mask_i = mask[item_rows]
            smask = None
            if self.format.pooling == "span":
                smask = span_mask([rows[r] for r in item_rows], mask_i, which)
            out[positions] = pool(states_i, mask_i, smask)
        return out

    def predict(self, items: Sequence[Item], threshold: float | None = None) -> np.ndarray:
        """1/0 for each item, at ``threshold`` (default: the model's own)."""
        threshold = self.config.threshold if threshold is None else threshold
        return (self.predict_proba(items) >= threshold).astype(np.int64)


def _model_type(path: Path) -> str:
    import json

    try:
        return json.loads((path / "config.json").read_text(encoding="utf-8")).get(
            "model_type", "")
    except (OSError, ValueError):
        return ""


def _check_lora_shapes(tensors: dict[str, np.ndarray], config: ClassifierConfig,
                       name: Any) -> None:
    for key, value in tensors.items():
        ok = (key.endswith(".lora_A") and value.ndim == 2 and value.shape[0] == config.lora_rank) \
            or (key.endswith(".lora_B") and value.ndim == 2 and value.shape[1] == config.lora_rank)
        if not ok:
            raise ModelError("E612", f"The weights of '{name}' hold '{key}' with shape "
                             f"{tuple(value.shape)}, which does not fit a rank-{config.lora_rank} "
                             "adapter. Retrain, or restore the file.")


# --- training --------------------------------------------------------------------------------
def build_net(config: ClassifierConfig):
    """The torch module: encoder (first ``num_layers`` layers) + LoRA + linear head."""
    from ..models.encoder import import_torch
    from ..models.lora import add_lora
    from ..models.train import load_encoder

    torch, _ = import_torch()
    fmt = config.check()
    encoder = load_encoder(resolve_model_path(config.base), config.num_layers)
    if config.full:  # every encoder weight trains (and is saved)
        lora_names = []
    elif config.lora_rank:
        lora_names = add_lora(encoder, config.lora_rank, config.lora_alpha)
    else:  # frozen encoder: only the head trains
        lora_names = []
        for param in encoder.parameters():
            param.requires_grad_(False)
    import inspect

    takes_types = "token_type_ids" in inspect.signature(encoder.forward).parameters
    hidden = encoder.config.hidden_size
    span_pooling = fmt.pooling == "span"

    class FigurativeNet(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = encoder
            self.hidden = hidden
            self.dropout = torch.nn.Dropout(config.dropout)
            width = hidden * (2 if span_pooling else 1)
            self.head_hidden = torch.nn.Linear(width, config.head_hidden) \
                if config.head_hidden else None
            self.head = torch.nn.Linear(config.head_hidden or width, 1)

        def head_logits(self, feats):
            feats = self.dropout(feats)
            if self.head_hidden is not None:
                feats = self.dropout(torch.relu(self.head_hidden(feats)))
            return self.head(feats).squeeze(-1)

        def states(self, ids, types, mask):
            extra = {"token_type_ids": types} if takes_types else {}
            return self.encoder(input_ids=ids, attention_mask=mask, **extra).last_hidden_state

        def forward(self, ids, types, mask, smask):
            states = self.states(ids, types, mask)
            m = mask.unsqueeze(-1)
            feats = (states * m).sum(1) / m.sum(1).clamp(min=1.0)
            if span_pooling:
                s = smask.unsqueeze(-1)
                feats = torch.cat([feats, (states * s).sum(1) / s.sum(1).clamp(min=1.0)], -1)
            return self.head_logits(feats)

        def saved_state(self) -> dict[str, Any]:
            state = {f"encoder.{k}": v for k, v in self.encoder.named_parameters()} \
                if config.full else {}
            modules = dict(self.encoder.named_modules())
            for name in lora_names:
                state[f"{name}.lora_A"] = modules[name].lora_A
                state[f"{name}.lora_B"] = modules[name].lora_B
            if self.head_hidden is not None:
                state["head.hidden.weight"] = self.head_hidden.weight
                state["head.hidden.bias"] = self.head_hidden.bias
            state["head.weight"] = self.head.weight
            state["head.bias"] = self.head.bias
            return state

        def load_saved_state(self, tensors: dict[str, np.ndarray]) -> None:
            with torch.no_grad():
                for key, param in self.saved_state().items():
                    param.copy_(torch.from_numpy(np.asarray(tensors[key])))

    return FigurativeNet().eval()


def _net_tensors(net) -> dict[str, np.ndarray]:
    return {k: v.detach().float().cpu().numpy().copy() for k, v in net.saved_state().items()}


def _head_of(net) -> dict[str, np.ndarray]:
    return {k: v for k, v in _net_tensors(net).items() if k in HEAD_KEYS}


class TrainedClassifier(FigurativeClassifier):
    """A classifier fresh from training: predicts with its torch net, saves as an artifact."""

    def __init__(self, config: ClassifierConfig, net) -> None:
        super().__init__(config, TorchRuntime(net), _head_of(net))
        self.net = net

    def refresh(self) -> None:
        """Re-read the head from the net (after training changed it)."""
        self.head = _head_of(self.net)

    def save(self, directory: str | Path, card: dict[str, Any]) -> Path:
        """Write the adapters, the head and ``card`` (its ``config`` is set here)."""
        card = {**card, "config": self.config.to_dict()}
        return save_artifact(directory, _net_tensors(self.net), card)


def encode_items(tokenizer, items: Sequence[Item], fmt: Format) -> list[Encoded]:
    """One encoded input per item (training: no sharing), with the item's span."""
    rendered = [render(item, fmt) for item in items]
    return encode(tokenizer, [r[0] for r in rendered], [r[1] for r in rendered],
                  [[r[2]] for r in rendered])


def train_classifier(train: Sequence[Item], dev: Sequence[Item], config: ClassifierConfig,
                     train_config, *, init: TrainedClassifier | None = None,
                     progress: bool = True, dev_metric=None):
    """Train (or, with ``init``, continue training) a classifier; select on dev macro-F1.

    Returns ``(TrainedClassifier, FitResult)``.
    """
    from ..evaluate.figurative import macro_f1
    from ..models.encoder import import_torch
    from ..models.train import fit, seed_everything

    torch, _ = import_torch()
    fmt = config.check()
    _check_items(train, "train")
    _check_items(dev, "dev")
    seed_everything(train_config.seed, train_config.threads)
    if init is None:
        net = build_net(config)
        classifier = TrainedClassifier(config, net)
    else:
        classifier = init
        net = init.net
    labels = np.asarray([item.label for item in train], dtype=np.float32)
    positives = float(labels.mean())
    gold = [item.label for item in dev]
    metric = dev_metric or (lambda g, p: macro_f1(g, p))
    loss = torch.nn.BCEWithLogitsLoss()
    if config.lora_rank == 0 and not config.full:
        # frozen encoder: pool features once, train the head on them
        _log(progress, f"encoding {len(train)} train and {len(dev)} dev items (frozen encoder)")
        train_feats = torch.from_numpy(classifier.features(train))
        dev_feats = classifier.features(dev)
        model = _HeadOnly(net)
        order = list(range(len(train)))

        def batches(rng: np.random.Generator):
            shuffled = [order[i] for i in rng.permutation(len(order))]
            for i in range(0, len(shuffled), train_config.batch_size):
                batch = shuffled[i:i + train_config.batch_size]
                yield {"feats": train_feats[batch]}, torch.from_numpy(labels[batch])

        def evaluate() -> float:
            classifier.refresh()
            probs = 1.0 / (1.0 + np.exp(-apply_head(classifier.head, dev_feats)))
            return metric(gold, (probs >= 0.5).astype(int).tolist())
    else:
        model = net
        encoded = encode_items(classifier.tokenizer, train, fmt)
        lengths = [len(e) for e in encoded]

        def batches(rng: np.random.Generator):
            for batch in length_batches(lengths, train_config.batch_size, rng):
                rows = [encoded[i] for i in batch]
                ids, types, mask = pad(rows)
                smask = span_mask(rows, mask, [0] * len(rows))
                inputs = {"ids": torch.from_numpy(ids), "types": torch.from_numpy(types),
                          "mask": torch.from_numpy(mask), "smask": torch.from_numpy(smask)}
                yield inputs, torch.from_numpy(labels[batch])

        def evaluate() -> float:
            classifier.refresh()
            probs = classifier.predict_proba(dev)
            return metric(gold, (probs >= 0.5).astype(int).tolist())

    steps = (len(train) + train_config.batch_size - 1) // train_config.batch_size
    if config.lora_rank == 0 and not config.full:
        # a head this small runs fastest on one thread (and threads only wait on a busy CPU)
        train_config = replace(train_config, threads=1)
    _log(progress, f"training {config.format} over {config.base} ({len(train)} train, "
         f"{len(dev)} dev, {positives:.0%} label 1)")
    result = fit(model, batches, loss, evaluate, train_config, steps_per_epoch=steps,
                 progress=progress, eval_first=init is not None)
    classifier.refresh()
    return classifier, result


def _HeadOnly(net):
    """A module whose forward is the head of ``net`` (frozen-encoder training)."""
    import torch

    class HeadOnly(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = net

        def forward(self, feats):
            return self.net.head_logits(feats)

    return HeadOnly()


def _log(progress: bool, message: str) -> None:
    if progress:
        import sys

        print(message, file=sys.stderr, flush=True)


def _check_items(items: Sequence[Item], name: str) -> None:
    from ..errors import DataError

    if not items:
        raise DataError("E360", f"No {name} examples: give a dataset split with examples.")
    bad = [i for i, item in enumerate(items) if item.label not in (0, 1)]
    if bad:
        raise DataError("E361", f"{len(bad)} {name} examples have no 0/1 label (first: "
                        f"{items[bad[0]].id or bad[0]}). Give labelled data.")
