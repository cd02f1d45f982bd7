"""The emotion model: a packaged encoder with LoRA adapters and a 36-way linear head.

A saved model is a folder with ``model.safetensors`` (adapters and head, a few hundred kB) and a
card (:mod:`idiomkit.models.artifacts`). At inference a BERT-type base (the packaged MiniLM) runs
in NumPy with the adapters merged into its weights (:mod:`idiomkit.models.npbert`), so loading
needs neither torch nor the network; other bases run in torch.

The input the encoder reads is one of the Table 2 configurations (:mod:`.inputs`); the shipped
default reads the sentence alone (``seq-ignorant``), see its card for why.

>>> model = EmotionModel.load()                                     # doctest: +SKIP
>>> model.predict(["I'm over the moon about the news!"])[0]["label"]  # doctest: +SKIP
'Happiness'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ModelError, check_param
from ..models.artifacts import (
    check_shapes,
    find_saved,
    load_artifact,
    save_artifact,
)
from ..models.cards import CardConfig
from ..models.resolve import cache_dir, resolve_model_path
from ..models.runtime import NumpyRuntime, TorchRuntime
from .head import softmax
from .inputs import build_input, get_config
from .labels import EMOTIONS

TASK = "emotion"
SHIPPED_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_MODEL = "default"


@dataclass
class EmotionConfig(CardConfig):
    """What an emotion model is: base encoder, layers kept, input configuration, adapters."""

    base: str = "minilm"
    num_layers: int | None = None
    input: str = "seq-ignorant"
    max_length: int = 128
    #: LoRA rank of the adapters; 0 = frozen encoder (only the head trains)
    lora_rank: int = 8
    #: adapters only in the top ``train_layers`` layers (None: all). Training then runs the
    #: frozen lower layers once and caches their output: several times cheaper on a CPU
    train_layers: int | None = 2
    lora_alpha: float = 16.0
    dropout: float = 0.1
    #: None or "balanced" (inverse class frequency in the loss)
    class_weight: str | None = None

    def check(self) -> None:
        get_config(self.input)
        if get_config(self.input).approach not in ("seq", "pair"):
            check_param("EmotionConfig", "input", self.input, False,
                        "a seq-* or pair-* configuration (a classifier reads those)")
        check_param("EmotionConfig", "lora_rank", self.lora_rank,
                    isinstance(self.lora_rank, int) and self.lora_rank >= 0, "an integer >= 0")
        check_param("EmotionConfig", "max_length", self.max_length,
                    isinstance(self.max_length, int) and 8 <= self.max_length <= 512,
                    "an integer in [8, 512]")
        check_param("EmotionConfig", "train_layers", self.train_layers,
                    self.train_layers is None
                    or (isinstance(self.train_layers, int) and self.train_layers >= 1),
                    "None or an integer >= 1")
        check_param("EmotionConfig", "class_weight", self.class_weight,
                    self.class_weight in (None, "balanced"), "None or 'balanced'")




def user_models_dir() -> Path:
    """Where ``idiomkit train emotion`` saves models by default."""
    return cache_dir() / "emotion-models"


def resolve_emotion_model(name: str | Path = DEFAULT_MODEL) -> Path:
    """A model folder: a path, a shipped model's name, or a name under :func:`user_models_dir`."""
    return find_saved(name, (SHIPPED_DIR, user_models_dir()), code="E650",
                      what="emotion model", hint="`idiomkit train emotion` makes one.")


def render_inputs(config: EmotionConfig, texts: Sequence[str],
                  idioms: Sequence[str | None] | None = None,
                  definitions: Sequence[str | None] | None = None
                  ) -> tuple[list[str], list[str | None]]:
    """(first, second) sequences for each text under the model's input configuration; an
    idiom-aware model given no idiom for a text reads it idiom-ignorant."""
    aware = get_config(config.input)
    ignorant = get_config(config.input.replace("-aware", "-ignorant"))
    firsts: list[str] = []
    seconds: list[str | None] = []
    for i, text in enumerate(texts):
        idiom = idioms[i] if idioms is not None else None
        definition = definitions[i] if definitions is not None else None
        built = build_input(aware if idiom else ignorant, text, idiom, definition)
        first, second = built if isinstance(built, tuple) else (built, None)
        firsts.append(first)
        seconds.append(second)
    return firsts, seconds


class EmotionModel:
    """P(emotion) over the 36 IDEM emotions for sentences, optionally told their idioms."""

    labels: tuple[str, ...] = EMOTIONS

    def __init__(self, config: EmotionConfig, runtime, head: dict[str, np.ndarray],
                 card: dict[str, Any] | None = None) -> None:
        from ..classify.encoding import load_tokenizer

        config.check()
        self.config = config
        self.path = resolve_model_path(config.base)
        self.tokenizer = load_tokenizer(self.path, config.max_length)
        self.runtime = runtime
        self.head = {k: np.asarray(v, dtype=np.float32) for k, v in head.items()}
        self.card = card or {}

    @classmethod
    def load(cls, name: str | Path = DEFAULT_MODEL, *, backend: str = "auto") -> EmotionModel:
        """Load a saved model (``default``: the shipped one). ``backend``: ``numpy`` (BERT-type
        bases), ``torch`` or ``auto``."""
        tensors, card = load_artifact(resolve_emotion_model(name))
        if card.get("task") != TASK:
            raise ModelError("E651", f"The model {str(name)!r} is a {card.get('task')!r} model, "
                             "not an emotion model.")
        config = EmotionConfig.from_dict(card["config"])
        config.check()
        path = resolve_model_path(config.base)
        if backend == "auto":
            backend = "numpy" if _model_type(path) == "bert" else "torch"
        check_param("EmotionModel.load", "backend", backend, backend in ("numpy", "torch"),
                    "'numpy', 'torch' or 'auto'")
        head = {k: tensors.pop(k) for k in ("head.weight", "head.bias") if k in tensors}
        if backend == "numpy":
            from ..models.lora import merged_deltas

            deltas = merged_deltas(tensors, config.lora_alpha, max(1, config.lora_rank))
            runtime = NumpyRuntime(path, config.num_layers, deltas)
        else:
            net = build_net(config)
            expected = {k: tuple(v.shape) for k, v in net.saved_state().items()}
            check_shapes({**tensors, **head}, expected, str(name))
            net.load_saved_state({**tensors, **head})
            runtime = TorchRuntime(net)
        check_shapes(head, {"head.weight": (len(EMOTIONS), runtime.hidden),
                            "head.bias": (len(EMOTIONS),)}, str(name))
        return cls(config, runtime, head, card)

    def features(self, texts: Sequence[str], idioms: Sequence[str | None] | None = None,
                 definitions: Sequence[str | None] | None = None, *,
                 batch_size: int = 32) -> np.ndarray:
        """Mean-pooled encoder states of each rendered input (what the head reads)."""
        from ..classify.encoding import encode, length_batches, pad

        firsts, seconds = render_inputs(self.config, texts, idioms, definitions)
        out = np.zeros((len(texts), self.runtime.hidden), dtype=np.float32)
        if not texts:
            return out
        encoded = encode(self.tokenizer, firsts, seconds, [[] for _ in firsts])
        for batch in length_batches([len(e) for e in encoded], batch_size):
            ids, types, mask = pad([encoded[i] for i in batch])
            states = self.runtime.states(ids, types, mask)
            out[batch] = (states * mask[..., None]).sum(1) / np.maximum(
                mask.sum(1, keepdims=True), 1.0)
        return out

    def logits(self, features: np.ndarray) -> np.ndarray:
        return features @ self.head["head.weight"].T + self.head["head.bias"]

    def predict_proba(self, texts: Sequence[str], idioms: Sequence[str | None] | None = None,
                      definitions: Sequence[str | None] | None = None, *,
                      batch_size: int = 32) -> np.ndarray:
        """``[len(texts), 36]`` probabilities, columns in :data:`EMOTIONS` order."""
        return softmax(self.logits(self.features(texts, idioms, definitions,
                                                 batch_size=batch_size)))

    def predict(self, texts: Sequence[str], idioms: Sequence[str | None] | None = None,
                definitions: Sequence[str | None] | None = None, *, top: int = 3,
                probs: np.ndarray | None = None) -> list[dict[str, Any]]:
        """``{"label", "scores"}`` per text: the best emotion and the ``top`` emotions with
        their probabilities (the Document ``emotion`` field). ``probs`` reuses probabilities
        computed before (e.g. adjusted by :mod:`.prior`)."""
        if probs is None:
            probs = self.predict_proba(texts, idioms, definitions)
        return [to_emotion(row, top) for row in probs]


def to_emotion(probs: np.ndarray, top: int = 3) -> dict[str, Any]:
    """The Document ``emotion`` object for one probability row.

    >>> row = np.zeros(36); row[EMOTIONS.index("Pride")] = 0.7; row[0] = 0.3
    >>> to_emotion(row, top=2)
    {'label': 'Pride', 'scores': {'Pride': 0.7, 'Anger': 0.3}}
    """
    order = np.argsort(-probs, kind="stable")[:max(1, top)]
    return {"label": EMOTIONS[int(order[0])],
            "scores": {EMOTIONS[int(i)]: round(float(probs[i]), 4) for i in order}}


def _model_type(path: Path) -> str:
    import json

    try:
        return json.loads((path / "config.json").read_text(encoding="utf-8")).get(
            "model_type", "")
    except (OSError, ValueError):
        return ""


def build_net(config: EmotionConfig):
    """The torch module: encoder (first ``num_layers`` layers) + LoRA + 36-way linear head."""
    import inspect

    from ..models.encoder import import_torch
    from ..models.train import load_encoder

    torch, _ = import_torch()
    config.check()
    encoder = load_encoder(resolve_model_path(config.base), config.num_layers)
    depth = len(encoder.encoder.layer)
    first_trained = 0 if config.train_layers is None else max(0, depth - config.train_layers)
    for param in encoder.parameters():
        param.requires_grad_(False)
    lora_names = _add_lora(encoder, config, first_trained) if config.lora_rank else []
    takes_types = "token_type_ids" in inspect.signature(encoder.forward).parameters
    hidden = encoder.config.hidden_size
    position_bias = getattr(encoder.encoder, "compute_position_bias", None)  # MPNet

    class EmotionNet(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = encoder
            self.hidden = hidden
            self.dropout = torch.nn.Dropout(config.dropout)
            self.head = torch.nn.Linear(hidden, len(EMOTIONS))
            #: index of the first layer with adapters; the layers below it never change
            self.first_trained = first_trained

        def states(self, ids, types, mask, upto: int | None = None):
            """Token states after all layers, or after the first ``upto`` layers."""
            if upto is None:
                extra = {"token_type_ids": types} if takes_types else {}
                return self.encoder(input_ids=ids, attention_mask=mask,
                                    **extra).last_hidden_state
            extra = {"token_type_ids": types} if takes_types else {}
            states = self.encoder.embeddings(input_ids=ids, **extra)
            return self.run_layers(states, mask, 0, upto)

        def run_layers(self, states, mask, start: int, stop: int | None = None):
            """Apply layers ``start`` to ``stop`` (default: the last) to token states."""
            additive = (1.0 - mask)[:, None, None, :].to(states.dtype) * -1e9
            extra = {"position_bias": position_bias(states)} if position_bias else {}
            for layer in self.encoder.encoder.layer[start:stop]:
                out = layer(states, attention_mask=additive, **extra)
                states = out[0] if isinstance(out, tuple) else out
            return states

        def pooled_logits(self, states, mask):
            m = mask.unsqueeze(-1)
            pooled = (states * m).sum(1) / m.sum(1).clamp(min=1.0)
            return self.head(self.dropout(pooled))

        def forward(self, ids, types, mask):
            return self.pooled_logits(self.states(ids, types, mask), mask)

        def forward_cached(self, lower, mask):
            """Logits from cached states of the frozen lower layers (training shortcut)."""
            states = self.run_layers(lower, mask, self.first_trained)
            return self.pooled_logits(states, mask)

        def saved_state(self) -> dict[str, Any]:
            modules = dict(self.encoder.named_modules())
            state = {}
            for name in lora_names:
                state[f"{name}.lora_A"] = modules[name].lora_A
                state[f"{name}.lora_B"] = modules[name].lora_B
            state["head.weight"] = self.head.weight
            state["head.bias"] = self.head.bias
            return state

        def load_saved_state(self, tensors: dict[str, np.ndarray]) -> None:
            with torch.no_grad():
                for key, param in self.saved_state().items():
                    param.copy_(torch.from_numpy(np.asarray(tensors[key])))

    return EmotionNet().eval()


def _add_lora(encoder, config: EmotionConfig, first: int) -> list[str]:
    """Wrap the Linear layers of encoder layers ``first`` and above with LoRA; their names
    (``encoder.layer.4.attention.self.query``) are the keys the NumPy runtime merges."""
    from ..models.lora import lora_linear_class

    torch = __import__("torch")
    lora_cls = lora_linear_class()
    names = []
    for name, module in list(encoder.named_modules()):
        parts = name.split(".")
        if len(parts) < 3 or parts[:2] != ["encoder", "layer"] or int(parts[2]) < first:
            continue
        for child_name, child in list(module.named_children()):
            if isinstance(child, torch.nn.Linear):
                setattr(module, child_name,
                        lora_cls(child, config.lora_rank, config.lora_alpha, 0.0))
                names.append(f"{name}.{child_name}")
    return names


def net_tensors(net) -> dict[str, np.ndarray]:
    """The trainable tensors of ``net`` (adapters and head) as float32 arrays."""
    return {k: v.detach().float().numpy().copy() for k, v in net.saved_state().items()}


class TrainedEmotionModel(EmotionModel):
    """A model fresh from training: predicts with its torch net, saves as an artifact."""

    def __init__(self, config: EmotionConfig, net) -> None:
        self.net = net
        super().__init__(config, TorchRuntime(net), _head(net))

    def refresh(self) -> None:
        """Re-read the head from the net (training changed it)."""
        self.head = _head(self.net)

    def save(self, directory: str | Path, card: dict[str, Any]) -> Path:
        """Write adapters, head and ``card`` (with this model's config)."""
        card = {**card, "task": TASK, "config": self.config.to_dict()}
        return save_artifact(directory, net_tensors(self.net), card)


def _head(net) -> dict[str, np.ndarray]:
    tensors = net_tensors(net)
    return {k: tensors[k] for k in ("head.weight", "head.bias")}
